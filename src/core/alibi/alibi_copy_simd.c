/* The ALiBi row copy, sixteen floats a step by v128 loads and stores;
 * alibi_copy_scalar.c finishes the head and the tail. Each row is the row
 * above moved one key to the right, so source and destination are never
 * aligned alike: the stores are aligned (a scalar head up to dst's 16-byte
 * boundary) and the loads take the misalignment. An unaligned store that
 * straddles cache lines costs far more than an unaligned load, and the bias
 * is all stores (issue 11: 1.69x memory.fill with unaligned stores). */
#include <stdint.h>

#include "alibi/alibi_kernels.h"
#include "common/simd.h"

#if PE_HAVE_SIMD

void pe_alibi_copy_simd(float *dst, const float *src, size_t count) {
    /* Floats up to dst's next 16-byte boundary (dst is float-aligned). */
    size_t t = (size_t)((16u - ((uintptr_t)dst & 15u)) & 15u) / sizeof(float);
    if (t > count) t = count;
    pe_alibi_copy_scalar(dst, src, t);
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
