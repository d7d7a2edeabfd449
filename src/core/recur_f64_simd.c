/* The Chebyshev recurrence storing float64, SIMD: recur_simd.c's operations
 * per lane (one multiply, one subtract per step), rows in passes of
 * PE_ROW_GROUP, with each row of a chunk stored as float64 pairs. */
#include "precision_kernels.h"
#include "simd.h"

#if PE_HAVE_SIMD

static inline v128_t step(v128_t k, v128_t a, v128_t b) {
    return wasm_f64x2_sub(wasm_f64x2_mul(k, b), a);
}

/* Columns j .. j+7 for g rows; the state goes back to row0/row1. */
static void chunk8(pe_plan *plan, uint32_t j, uint32_t g, double *out, size_t stride) {
    double *r0 = plan->row0 + j, *r1 = plan->row1 + j;
    const double *kp = plan->coef + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2), a2 = wasm_v128_load(r0 + 4),
           a3 = wasm_v128_load(r0 + 6);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2), b2 = wasm_v128_load(r1 + 4),
           b3 = wasm_v128_load(r1 + 6);
    const v128_t k0 = wasm_v128_load(kp), k1 = wasm_v128_load(kp + 2), k2 = wasm_v128_load(kp + 4),
                 k3 = wasm_v128_load(kp + 6);
    double *o = out + j;
    for (uint32_t n = 0; n < g; n++, o += stride) {
        wasm_v128_store(o, a0), wasm_v128_store(o + 2, a1), wasm_v128_store(o + 4, a2), wasm_v128_store(o + 6, a3);
        v128_t n0 = step(k0, a0, b0), n1 = step(k1, a1, b1), n2 = step(k2, a2, b2), n3 = step(k3, a3, b3);
        a0 = b0, a1 = b1, a2 = b2, a3 = b3;
        b0 = n0, b1 = n1, b2 = n2, b3 = n3;
    }
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1), wasm_v128_store(r0 + 4, a2), wasm_v128_store(r0 + 6, a3);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1), wasm_v128_store(r1 + 4, b2), wasm_v128_store(r1 + 6, b3);
}

/* Columns j .. j+3 for g rows. */
static void chunk4(pe_plan *plan, uint32_t j, uint32_t g, double *out, size_t stride) {
    double *r0 = plan->row0 + j, *r1 = plan->row1 + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    const v128_t k0 = wasm_v128_load(plan->coef + j), k1 = wasm_v128_load(plan->coef + j + 2);
    double *o = out + j;
    for (uint32_t n = 0; n < g; n++, o += stride) {
        wasm_v128_store(o, a0), wasm_v128_store(o + 2, a1);
        v128_t n0 = step(k0, a0, b0), n1 = step(k1, a1, b1);
        a0 = b0, a1 = b1;
        b0 = n0, b1 = n1;
    }
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1);
}

void pe_recur_f64_simd(pe_plan *plan, uint32_t rows, double *out, size_t stride) {
    const uint32_t dim = plan->dim, wide = dim & ~7u, vec = dim & ~3u;
    for (uint32_t n0 = 0; n0 < rows; n0 += PE_ROW_GROUP) {
        const uint32_t g = rows - n0 < PE_ROW_GROUP ? rows - n0 : PE_ROW_GROUP;
        double *o = out + (size_t)n0 * stride;
        for (uint32_t j = 0; j < wide; j += 8) chunk8(plan, j, g, o, stride);
        if (vec > wide) chunk4(plan, wide, g, o, stride);
    }
    /* Columns are independent: the last two (dim % 4 == 2) run on their own. */
    pe_recur_f64_columns_scalar(plan, vec, rows, out, stride);
}

#endif
