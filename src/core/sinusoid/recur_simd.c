/* The Chebyshev recurrence, SIMD: recur_scalar.c's operations per lane, stored
 * as float32 or float64.
 *
 * Columns go in chunks of four (two float64 vectors), PE_ROW_GROUP rows at a
 * time: a chunk's state is loaded, stepped through the group in registers and
 * stored back, then the next chunk starts. Chunks are independent, so the
 * out-of-order core overlaps several of them and hides the multiply-subtract
 * latency; the group's rows end in full 16-byte stores. Measured in V8 against
 * eight-column chunks and against groups of 2, 4 and 16 rows, this shape was
 * the fastest, most of all when the table's memory is not in cache (16 rows
 * 16 KiB apart overflow an L1 set: 1.6-3x slower at 8192 x 4096).
 *
 * The columns go in bands of PE_COLUMN_BAND, each taken through all the rows
 * of the call before the next: a band's state (row0, row1, coef: 12 KiB) stays
 * in L1 from one group to the next, where the whole width's (96 KiB at d =
 * 4096) went out to L2 and back every group. In V8 at 8192 x 4096 (CPU time,
 * old and new interleaved, load 4) 0.93-0.95x the time without bands; bands
 * of 256 to 1024 columns about the same, of 128 (1.30x) and 2048 (1.10x)
 * slower; in cache (256 x 4096) no change.
 *
 * float32 stores make recur_scalar.c's test per lane: float(y + bound) is
 * stored and compared with float(y - bound); a group where any lane differs
 * is replayed in scalar from its start state (still in row0/row1) and its
 * near-midpoint values are settled (sinusoid/settle.h). */
#include "common/simd.h"
#include "sinusoid/plan.h"
#include "sinusoid/precision/precision_kernels.h"
#include "sinusoid/settle.h"

#if PE_HAVE_SIMD

/* STORE_F32: float(y), the fast path (the default); STORE_F32_CHECKED: the
 * correctly rounded one (pe_set_rounding(PE_ROUNDING_CORRECT)). Each is its
 * own kernel, chosen once per call through the kernel table. */
typedef enum { STORE_NONE, STORE_F32, STORE_F32_CHECKED, STORE_F64 } store_kind;

/* Four float32 from two float64 pairs, for one full-width store. */
static inline v128_t narrow(v128_t lo, v128_t hi) {
    return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
}

/* x(n+1) = coef * x(n) - x(n-1), with a = x(n-1) and b = x(n). */
static inline v128_t step(v128_t k, v128_t a, v128_t b) {
    return wasm_f64x2_sub(wasm_f64x2_mul(k, b), a);
}

/* One row of four columns (two pairs of lanes) at *o, then *o moves on by
 * row_bytes (o is NULL for STORE_NONE and stays so). float32 stores store
 * float(y + bound) and or into *flag its bits xor those of float(y - bound):
 * nonzero where a rounding midpoint may lie within the bound of y
 * (recur_scalar.c's test, per lane). Measured against integer tests on the
 * bits of y +- bound, this was the cheapest: about one recurrence step more. */
static inline __attribute__((always_inline)) void store_row(char **o, size_t row_bytes, v128_t lo, v128_t hi,
                                                            store_kind kind, v128_t *flag) {
    if (kind == STORE_F32) wasm_v128_store(*o, narrow(lo, hi));
    if (kind == STORE_F32_CHECKED) {
        const v128_t bound = wasm_f64x2_splat(PE_FAST_BOUND);
        const v128_t up = narrow(wasm_f64x2_add(lo, bound), wasm_f64x2_add(hi, bound));
        const v128_t down = narrow(wasm_f64x2_sub(lo, bound), wasm_f64x2_sub(hi, bound));
        wasm_v128_store(*o, up);
        *flag = wasm_v128_or(*flag, wasm_v128_xor(up, down));
    }
    if (kind == STORE_F64) wasm_v128_store(*o, lo), wasm_v128_store(*o + 16, hi);
    if (kind != STORE_NONE) *o += row_bytes;
}

/* Rows pos .. pos + rows - 1 of columns j .. j+3 again, in scalar from the
 * start state in row0/row1 (the same operations, so the same float64), with
 * each near-midpoint value settled into out (the first row's column j) and the
 * rows after it. Rare: about one group in 60. */
static __attribute__((noinline)) void settle_group(pe_plan *plan, uint32_t j, uint32_t pos, uint32_t rows, float *out,
                                                   size_t stride) {
    for (uint32_t c = 0; c < 4; c++) {
        double a = plan->row0[j + c], b = plan->row1[j + c];
        const double k = plan->coef[j + c];
        for (uint32_t n = 0; n < rows; n++) {
            float v;
            if (pe_near_midpoint_f32(a, &v)) out[n * stride + c] = pe_settle_f32(plan, pos + n, j + c);
            double next = k * b - a;
            a = b;
            b = next;
        }
    }
}

/* The plan's state arrays in locals: the kernel's stores may alias the plan
 * as far as the compiler knows, so read through it they are loaded again for
 * every chunk (V8 then spends three loads a chunk on them). */
typedef struct recur_arrays {
    double *row0, *row1;
    const double *coef;
} recur_arrays;

/* PE_ROW_GROUP rows of columns j .. j+3 from o on, row_bytes apart; the rows
 * alternate between the two state registers, so the group (an even count)
 * ends with x(n) back in a. */
static inline __attribute__((always_inline)) void group4(pe_plan *plan, recur_arrays s, uint32_t j, uint32_t row,
                                                         char *o, size_t stride, size_t row_bytes, store_kind kind) {
    double *r0 = s.row0 + j, *r1 = s.row1 + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    const v128_t k0 = wasm_v128_load(s.coef + j), k1 = wasm_v128_load(s.coef + j + 2);
    v128_t flag = wasm_i64x2_splat(0);
    char *const first = o;
    for (uint32_t n = 0; n < PE_ROW_GROUP; n += 2) {
        store_row(&o, row_bytes, a0, a1, kind, &flag);
        a0 = step(k0, a0, b0), a1 = step(k1, a1, b1);
        store_row(&o, row_bytes, b0, b1, kind, &flag);
        b0 = step(k0, b0, a0), b1 = step(k1, b1, a1);
    }
    if (kind == STORE_F32_CHECKED && wasm_v128_any_true(flag)) {
        settle_group(plan, j, plan->row_pos + row, PE_ROW_GROUP, (float *)first, stride);
    }
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1);
}

/* One row of columns j .. j+3 at o, for the rows short of a whole group. */
static inline __attribute__((always_inline)) void single4(pe_plan *plan, recur_arrays s, uint32_t j, uint32_t row,
                                                          char *o, store_kind kind) {
    double *r0 = s.row0 + j, *r1 = s.row1 + j;
    const v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    const v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    const v128_t k0 = wasm_v128_load(s.coef + j), k1 = wasm_v128_load(s.coef + j + 2);
    v128_t flag = wasm_i64x2_splat(0);
    char *const first = o;
    store_row(&o, 0, a0, a1, kind, &flag);
    if (kind == STORE_F32_CHECKED && wasm_v128_any_true(flag)) {
        settle_group(plan, j, plan->row_pos + row, 1, (float *)first, 0);
    }
    wasm_v128_store(r0, b0), wasm_v128_store(r0 + 2, b1);
    wasm_v128_store(r1, step(k0, a0, b0)), wasm_v128_store(r1 + 2, step(k1, a1, b1));
}

/* Where row n's column j goes; nowhere when nothing is stored (out NULL). */
static inline char *at(void *out, uint32_t n, uint32_t j, size_t stride, size_t size, store_kind kind) {
    return kind == STORE_NONE ? NULL : (char *)out + ((size_t)n * stride + j) * size;
}

static inline __attribute__((always_inline)) void recur(pe_plan *plan, uint32_t rows, void *out, size_t stride,
                                                        store_kind kind) {
    const recur_arrays s = {plan->row0, plan->row1, plan->coef};
    const size_t size = kind == STORE_F64 ? sizeof(double) : sizeof(float), row_bytes = stride * size;
    const uint32_t vec = plan->dim & ~3u, groups = rows - rows % PE_ROW_GROUP;
    for (uint32_t j0 = 0; j0 < vec; j0 += PE_COLUMN_BAND) {
        const uint32_t j1 = vec - j0 < PE_COLUMN_BAND ? vec : j0 + PE_COLUMN_BAND;
        for (uint32_t n = 0; n < groups; n += PE_ROW_GROUP) {
            /* Two chunks a step: one loop test and one V8 stack check per pair (3-4% in cache, Node and Chromium). */
            uint32_t j = j0;
            for (; j + 8 <= j1; j += 8) {
                group4(plan, s, j, n, at(out, n, j, stride, size, kind), stride, row_bytes, kind);
                group4(plan, s, j + 4, n, at(out, n, j + 4, stride, size, kind), stride, row_bytes, kind);
            }
            if (j < j1) group4(plan, s, j, n, at(out, n, j, stride, size, kind), stride, row_bytes, kind);
        }
    }
    for (uint32_t n = groups; n < rows; n++)
        for (uint32_t j = 0; j < vec; j += 4) single4(plan, s, j, n, at(out, n, j, stride, size, kind), kind);
}

void pe_recur_simd(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    if (out)
        recur(plan, rows, out, stride, STORE_F32);
    else
        recur(plan, rows, NULL, 0, STORE_NONE);
    /* Columns are independent: the last two (dim % 4 == 2) run on their own. */
    pe_recur_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
    plan->row_pos += rows;
}

void pe_recur_checked_simd(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    if (out)
        recur(plan, rows, out, stride, STORE_F32_CHECKED);
    else
        recur(plan, rows, NULL, 0, STORE_NONE);
    pe_recur_checked_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
    plan->row_pos += rows;
}

void pe_recur_f64_simd(pe_plan *plan, uint32_t rows, double *out, size_t stride) {
    recur(plan, rows, out, stride, STORE_F64);
    pe_recur_f64_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
    plan->row_pos += rows;
}

#endif
