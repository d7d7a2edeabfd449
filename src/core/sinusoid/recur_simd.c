/* The Chebyshev recurrence, SIMD: recur_scalar.c's operations per lane, stored
 * as float32 or float64.
 *
 * Columns go in chunks of four (two float64 vectors), PE_ROW_GROUP rows at a
 * time: a chunk's state is loaded, stepped through the group in registers and
 * stored back, then the next chunk starts. Chunks are independent, so the
 * out-of-order core overlaps several of them and hides the multiply-subtract
 * latency; the group's rows end in full 16-byte stores. Measured in V8 against
 * eight-column chunks and against groups of 2, 4 and 16 rows, this shape was
 * the fastest, most of all when the table's memory is not in cache. */
#include "common/simd.h"
#include "sinusoid/plan.h"
#include "sinusoid/precision/precision_kernels.h"

#if PE_HAVE_SIMD

typedef enum { STORE_NONE, STORE_F32, STORE_F64 } store_kind;

/* Four float32 from two float64 pairs, for one full-width store. */
static inline v128_t narrow(v128_t lo, v128_t hi) {
    return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
}

/* x(n+1) = coef * x(n) - x(n-1), with a = x(n-1) and b = x(n). */
static inline v128_t step(v128_t k, v128_t a, v128_t b) {
    return wasm_f64x2_sub(wasm_f64x2_mul(k, b), a);
}

/* One row of four columns (two pairs of lanes) at out + at. */
static inline __attribute__((always_inline)) void store_row(void *out, size_t at, v128_t lo, v128_t hi,
                                                            store_kind kind) {
    if (kind == STORE_F32) wasm_v128_store((float *)out + at, narrow(lo, hi));
    if (kind == STORE_F64) wasm_v128_store((double *)out + at, lo), wasm_v128_store((double *)out + at + 2, hi);
}

/* PE_ROW_GROUP rows of columns j .. j+3; the rows alternate between the two
 * state registers, so the group (an even count) ends with x(n) back in a. */
static inline __attribute__((always_inline)) void group4(pe_plan *plan, uint32_t j, void *out, size_t at, size_t stride,
                                                         store_kind kind) {
    double *r0 = plan->row0 + j, *r1 = plan->row1 + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    const v128_t k0 = wasm_v128_load(plan->coef + j), k1 = wasm_v128_load(plan->coef + j + 2);
    for (uint32_t n = 0; n < PE_ROW_GROUP; n += 2, at += 2 * stride) {
        store_row(out, at, a0, a1, kind);
        a0 = step(k0, a0, b0), a1 = step(k1, a1, b1);
        store_row(out, at + stride, b0, b1, kind);
        b0 = step(k0, b0, a0), b1 = step(k1, b1, a1);
    }
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1);
}

/* One row of columns j .. j+3, for the rows short of a whole group. */
static inline __attribute__((always_inline)) void single4(pe_plan *plan, uint32_t j, void *out, size_t at,
                                                          store_kind kind) {
    double *r0 = plan->row0 + j, *r1 = plan->row1 + j;
    const v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    const v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    const v128_t k0 = wasm_v128_load(plan->coef + j), k1 = wasm_v128_load(plan->coef + j + 2);
    store_row(out, at, a0, a1, kind);
    wasm_v128_store(r0, b0), wasm_v128_store(r0 + 2, b1);
    wasm_v128_store(r1, step(k0, a0, b0)), wasm_v128_store(r1 + 2, step(k1, a1, b1));
}

static inline __attribute__((always_inline)) void recur(pe_plan *plan, uint32_t rows, void *out, size_t stride,
                                                        store_kind kind) {
    const uint32_t vec = plan->dim & ~3u;
    uint32_t n = 0;
    for (; n + PE_ROW_GROUP <= rows; n += PE_ROW_GROUP)
        for (uint32_t j = 0; j < vec; j += 4) group4(plan, j, out, (size_t)n * stride + j, stride, kind);
    for (; n < rows; n++)
        for (uint32_t j = 0; j < vec; j += 4) single4(plan, j, out, (size_t)n * stride + j, kind);
}

void pe_recur_simd(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    if (out)
        recur(plan, rows, out, stride, STORE_F32);
    else
        recur(plan, rows, NULL, 0, STORE_NONE);
    /* Columns are independent: the last two (dim % 4 == 2) run on their own. */
    pe_recur_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
}

void pe_recur_f64_simd(pe_plan *plan, uint32_t rows, double *out, size_t stride) {
    recur(plan, rows, out, stride, STORE_F64);
    pe_recur_f64_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
}

#endif
