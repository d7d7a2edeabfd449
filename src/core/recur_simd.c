/* The Chebyshev recurrence down one block, SIMD: recur_scalar.c's operations
 * per lane. Rows go in groups of PE_ROW_GROUP: a group runs across every
 * column chunk before the next group starts, so the group's output lines stay
 * in L1 even when the row stride is a multiple of 4 KiB (every row in the same
 * cache set). Within a group a chunk's state lives in registers; several
 * independent chains per chunk hide the multiply-subtract latency, and each
 * row of a chunk ends in full 16-byte stores. */
#include "kernels.h"
#include "simd.h"

#if PE_HAVE_SIMD

#ifndef PE_ROW_GROUP
#define PE_ROW_GROUP 8u
#endif

/* Four float32 from two float64 pairs, for one full-width store. */
static inline v128_t narrow(v128_t lo, v128_t hi) {
    return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi),
                              0, 1, 4, 5);
}

/* Columns j .. j + 2*vectors - 1 (vectors is 2 or 4) from row n0 to n1 - 1;
 * stores rows >= first. The state x(n0), x(n0 + 1) comes from row0/row1 and
 * goes back there as x(n1), x(n1 + 1). */
static inline __attribute__((always_inline)) void recur_chunk(const pe_plan *plan, uint32_t j,
                                                              uint32_t vectors, uint32_t n0,
                                                              uint32_t n1, uint32_t first,
                                                              float *out, size_t stride) {
    v128_t a[4], b[4], k[4];
    for (uint32_t v = 0; v < vectors; v++) {
        a[v] = wasm_v128_load(plan->row0 + j + 2 * v);
        b[v] = wasm_v128_load(plan->row1 + j + 2 * v);
        k[v] = wasm_v128_load(plan->coef + j + 2 * v);
    }
    for (uint32_t n = n0; n < n1; n++) {
        if (n >= first) {
            float *o = out + (size_t)(n - first) * stride + j;
            for (uint32_t v = 0; v < vectors; v += 2) wasm_v128_store(o + 2 * v, narrow(a[v], a[v + 1]));
        }
        for (uint32_t v = 0; v < vectors; v++) {
            v128_t next = wasm_f64x2_sub(wasm_f64x2_mul(k[v], b[v]), a[v]);
            a[v] = b[v];
            b[v] = next;
        }
    }
    for (uint32_t v = 0; v < vectors; v++) {
        wasm_v128_store(plan->row0 + j + 2 * v, a[v]);
        wasm_v128_store(plan->row1 + j + 2 * v, b[v]);
    }
}

void pe_recur_simd(const pe_plan *plan, uint32_t first, uint32_t last, float *out, size_t stride) {
    const uint32_t dim = plan->dim, wide = dim & ~7u, vec = dim & ~3u;
    for (uint32_t n0 = 0; n0 < last; n0 += PE_ROW_GROUP) {
        uint32_t n1 = last - n0 < PE_ROW_GROUP ? last : n0 + PE_ROW_GROUP;
        for (uint32_t j = 0; j < wide; j += 8) recur_chunk(plan, j, 4, n0, n1, first, out, stride);
        if (vec > wide) recur_chunk(plan, wide, 2, n0, n1, first, out, stride);
    }
    /* Columns are independent: the last two (dim % 4 == 2) run on their own. */
    pe_recur_columns_scalar(plan, vec, first, last, out, stride);
}

#endif
