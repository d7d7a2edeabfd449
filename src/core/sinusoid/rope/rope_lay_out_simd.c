/* RoPE's lay-out of cos/sin rows, four pairs at a time with the scalar
 * kernel's products per lane; rope_lay_out_scalar.c finishes each row's tail
 * (r/2 pairs, not always a multiple of 4). Halves: C and S stored once.
 * Adjacent pairs: each lane's value twice (C) or with its negation beside it
 * (S), by shuffles. */
#include "common/simd.h"
#include "sinusoid/rope/rope_kernels.h"

#if PE_HAVE_SIMD

void pe_rope_lay_out_simd(const float *raw, float *cs, uint32_t rows, uint32_t r, pe_layout layout, float factor,
                          int inverse) {
    const uint32_t half = r / 2, n = pe_rope_cs_floats(r, layout);
    const v128_t f = wasm_f32x4_splat(factor), sign = wasm_f32x4_splat(inverse ? 1.0f : -1.0f);
    for (uint32_t k = 0; k < rows; k++) {
        const float *sin_row = raw + (size_t)k * r, *cos_row = sin_row + half;
        float *c = cs + (size_t)k * 2 * n, *s = c + n;
        uint32_t i = 0;
        for (; i + 4 <= half; i += 4) {
            const v128_t cv = wasm_f32x4_mul(wasm_v128_load(cos_row + i), f);
            const v128_t first = wasm_f32x4_mul(sign, wasm_f32x4_mul(wasm_v128_load(sin_row + i), f));
            if (layout == PE_LAYOUT_SPLIT) {
                wasm_v128_store(c + i, cv);
                wasm_v128_store(s + i, first);
            } else {
                const v128_t second = wasm_f32x4_neg(first);
                wasm_v128_store(c + 2 * i, wasm_i32x4_shuffle(cv, cv, 0, 0, 1, 1));
                wasm_v128_store(c + 2 * i + 4, wasm_i32x4_shuffle(cv, cv, 2, 2, 3, 3));
                wasm_v128_store(s + 2 * i, wasm_i32x4_shuffle(first, second, 0, 4, 1, 5));
                wasm_v128_store(s + 2 * i + 4, wasm_i32x4_shuffle(first, second, 2, 6, 3, 7));
            }
        }
        pe_rope_lay_out_row_scalar(sin_row, c, r, layout, factor, inverse, i);
    }
}

#endif
