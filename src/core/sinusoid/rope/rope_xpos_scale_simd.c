/* xPos's scaling of laid-out cos/sin rows, four floats at a time with the
 * scalar kernel's product per lane; rope_xpos_scale_scalar.c finishes each
 * row's tail (r is even, not always a multiple of 4). */
#include "common/kernel_table.h"
#include "common/simd.h"
#include "sinusoid/rope/rope_xpos.h"

#if PE_HAVE_SIMD

void pe_rope_xpos_scale_simd(float *cs, const float *scale, size_t count, uint32_t r) {
    for (size_t k = 0; k < count; k++) {
        float *c = cs + k * 2 * r;
        const float *s = scale + k * r;
        uint32_t j = 0;
        for (; j + 4 <= r; j += 4) {
            const v128_t v = wasm_v128_load(s + j);
            wasm_v128_store(c + j, wasm_f32x4_mul(wasm_v128_load(c + j), v));
            wasm_v128_store(c + r + j, wasm_f32x4_mul(wasm_v128_load(c + r + j), v));
        }
        pe_rope_xpos_scale_row_scalar(c, s, r, j);
    }
}

#endif
