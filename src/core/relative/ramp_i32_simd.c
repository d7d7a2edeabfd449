/* The ramp kernel of the relative family, four int32 values per store;
 * ramp_i32_scalar.c finishes the tail. */
#include "common/simd.h"
#include "relative/relative_kernels.h"

#if PE_HAVE_SIMD

void pe_ramp_i32_simd(int32_t *out, size_t count, int32_t start, int32_t step) {
    /* Lane values past the run are formed in unsigned arithmetic (wrapping, never read). */
    const uint32_t s = (uint32_t)start, d = (uint32_t)step;
    v128_t v = wasm_i32x4_make((int32_t)s, (int32_t)(s + d), (int32_t)(s + 2 * d), (int32_t)(s + 3 * d));
    const v128_t four = wasm_i32x4_splat((int32_t)(4 * d));
    size_t t = 0;
    for (; t + 4 <= count; t += 4) {
        wasm_v128_store(out + t, v);
        v = wasm_i32x4_add(v, four);
    }
    pe_ramp_i32_scalar(out + t, count - t, (int32_t)(s + d * (uint32_t)t), step);
}

#endif
