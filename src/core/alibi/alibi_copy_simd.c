/* The ALiBi row copy, sixteen floats a step by v128 loads and stores;
 * alibi_copy_scalar.c finishes the tail. */
#include "alibi/alibi_kernels.h"
#include "common/simd.h"

#if PE_HAVE_SIMD

void pe_alibi_copy_simd(float *dst, const float *src, size_t count) {
    size_t t = 0;
    for (; t + 16 <= count; t += 16) {
        const v128_t a = wasm_v128_load(src + t), b = wasm_v128_load(src + t + 4);
        const v128_t c = wasm_v128_load(src + t + 8), d = wasm_v128_load(src + t + 12);
        wasm_v128_store(dst + t, a);
        wasm_v128_store(dst + t + 4, b);
        wasm_v128_store(dst + t + 8, c);
        wasm_v128_store(dst + t + 12, d);
    }
    pe_alibi_copy_scalar(dst + t, src + t, count - t);
}

#endif
