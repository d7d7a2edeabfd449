/* Block seeds on two pairs at a time: seeds_scalar.c's operations per lane. */
#include "kernels.h"
#include "sincos_simd.h"

#if PE_HAVE_SIMD

/* Store (sin, cos) of pairs i and i + 1 where the layout puts them. */
static void place(double *row, uint32_t i, uint32_t half, pe_layout layout, v128_t s, v128_t c) {
    if (layout == PE_LAYOUT_SPLIT) {
        wasm_v128_store(row + i, s);
        wasm_v128_store(row + half + i, c);
    } else {
        wasm_v128_store(row + 2 * i, wasm_i64x2_shuffle(s, c, 0, 2));
        wasm_v128_store(row + 2 * i + 2, wasm_i64x2_shuffle(s, c, 1, 3));
    }
}

void pe_seeds_simd(const pe_plan *plan, uint32_t p0) {
    const uint32_t half = plan->half;
    const v128_t p = wasm_f64x2_splat((double)p0);
    uint32_t i = 0;
    for (; i + 2 <= half; i += 2) {
        v128_t s, c;
        pe_sincos_f64x2(wasm_f64x2_mul(p, wasm_v128_load(plan->w + i)), &s, &c);
        v128_t cw = wasm_v128_load(plan->cos_w + i), sw = wasm_v128_load(plan->sin_w + i);
        v128_t s1 = wasm_f64x2_add(wasm_f64x2_mul(s, cw), wasm_f64x2_mul(c, sw));
        v128_t c1 = wasm_f64x2_sub(wasm_f64x2_mul(c, cw), wasm_f64x2_mul(s, sw));
        place(plan->row0, i, half, plan->layout, s, c);
        place(plan->row1, i, half, plan->layout, s1, c1);
    }
    pe_seeds_pairs_scalar(plan, p0, i);
}

#endif
