/* The Chebyshev recurrence, SIMD: recur_scalar.c's operations per lane, stored
 * as float32 or float64. Rows go in passes of PE_ROW_GROUP across every
 * column chunk (kernels.h says why). Within a pass a chunk's state lives in
 * registers: four independent chains hide the multiply-subtract latency, and
 * each row of the chunk ends in full 16-byte stores. */
#include "kernels.h"
#include "precision_kernels.h"
#include "simd.h"

#if PE_HAVE_SIMD

typedef enum { STORE_NONE, STORE_F32, STORE_F64 } store_kind;

/* Four float32 from two float64 pairs, for one full-width store. */
static inline v128_t narrow(v128_t lo, v128_t hi) {
    return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi),
                              0, 1, 4, 5);
}

static inline v128_t step(v128_t k, v128_t a, v128_t b) {
    return wasm_f64x2_sub(wasm_f64x2_mul(k, b), a);
}

/* Row n's values of two column pairs (four columns) at out + at. */
static inline __attribute__((always_inline)) void store2(void *out, size_t at, v128_t a0, v128_t a1,
                                                         store_kind kind) {
    if (kind == STORE_F32) wasm_v128_store((float *)out + at, narrow(a0, a1));
    if (kind == STORE_F64) wasm_v128_store((double *)out + at, a0), wasm_v128_store((double *)out + at + 2, a1);
}

/* Columns j .. j+7 for g rows; the state goes back to row0/row1. Written out
 * by hand: a loop over an array of vectors stays in memory with gcc. */
static inline __attribute__((always_inline)) void chunk8(pe_plan *plan, uint32_t j, uint32_t g, void *out,
                                                         size_t at, size_t stride, store_kind kind) {
    double *r0 = plan->row0 + j, *r1 = plan->row1 + j;
    const double *kp = plan->coef + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2), a2 = wasm_v128_load(r0 + 4),
           a3 = wasm_v128_load(r0 + 6);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2), b2 = wasm_v128_load(r1 + 4),
           b3 = wasm_v128_load(r1 + 6);
    const v128_t k0 = wasm_v128_load(kp), k1 = wasm_v128_load(kp + 2), k2 = wasm_v128_load(kp + 4),
                 k3 = wasm_v128_load(kp + 6);
    for (uint32_t n = 0; n < g; n++, at += stride) {
        store2(out, at, a0, a1, kind);
        store2(out, at + 4, a2, a3, kind);
        v128_t n0 = step(k0, a0, b0), n1 = step(k1, a1, b1), n2 = step(k2, a2, b2), n3 = step(k3, a3, b3);
        a0 = b0, a1 = b1, a2 = b2, a3 = b3;
        b0 = n0, b1 = n1, b2 = n2, b3 = n3;
    }
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1), wasm_v128_store(r0 + 4, a2), wasm_v128_store(r0 + 6, a3);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1), wasm_v128_store(r1 + 4, b2), wasm_v128_store(r1 + 6, b3);
}

/* Columns j .. j+3 for g rows. */
static inline __attribute__((always_inline)) void chunk4(pe_plan *plan, uint32_t j, uint32_t g, void *out,
                                                         size_t at, size_t stride, store_kind kind) {
    double *r0 = plan->row0 + j, *r1 = plan->row1 + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    const v128_t k0 = wasm_v128_load(plan->coef + j), k1 = wasm_v128_load(plan->coef + j + 2);
    for (uint32_t n = 0; n < g; n++, at += stride) {
        store2(out, at, a0, a1, kind);
        v128_t n0 = step(k0, a0, b0), n1 = step(k1, a1, b1);
        a0 = b0, a1 = b1;
        b0 = n0, b1 = n1;
    }
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1);
}

static inline __attribute__((always_inline)) void recur(pe_plan *plan, uint32_t rows, void *out, size_t stride,
                                                        store_kind kind) {
    const uint32_t dim = plan->dim, wide = dim & ~7u, vec = dim & ~3u;
    for (uint32_t n0 = 0; n0 < rows; n0 += PE_ROW_GROUP) {
        const uint32_t g = rows - n0 < PE_ROW_GROUP ? rows - n0 : PE_ROW_GROUP;
        const size_t at = (size_t)n0 * stride;
        for (uint32_t j = 0; j < wide; j += 8) chunk8(plan, j, g, out, at + j, stride, kind);
        if (vec > wide) chunk4(plan, wide, g, out, at + wide, stride, kind);
    }
}

void pe_recur_simd(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    if (out) recur(plan, rows, out, stride, STORE_F32);
    else recur(plan, rows, NULL, 0, STORE_NONE);
    /* Columns are independent: the last two (dim % 4 == 2) run on their own. */
    pe_recur_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
}

void pe_recur_f64_simd(pe_plan *plan, uint32_t rows, double *out, size_t stride) {
    recur(plan, rows, out, stride, STORE_F64);
    pe_recur_f64_columns_scalar(plan, plan->dim & ~3u, rows, out, stride);
}

#endif
