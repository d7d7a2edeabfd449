/* The add, four floats at a time; add_scalar.c finishes the tail. */
#include "kernels.h"
#include "simd.h"

#if PE_HAVE_SIMD

void pe_add_simd(float *x, const float *pe, size_t count, float scale) {
    const v128_t s = wasm_f32x4_splat(scale);
    size_t k = 0;
    for (; k + 4 <= count; k += 4) {
        v128_t v = wasm_f32x4_mul(wasm_v128_load(x + k), s);
        wasm_v128_store(x + k, wasm_f32x4_add(v, wasm_v128_load(pe + k)));
    }
    pe_add_scalar(x + k, pe + k, count - k, scale);
}

#endif
