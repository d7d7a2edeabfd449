/* The run kernels of the relative family, four 32-bit values per store;
 * runs_scalar.c finishes each tail. Integer lanes: the same bits as the
 * scalar loop by construction, and the tests hold them to it. */
#include "../simd.h"
#include "relative_kernels.h"

#if PE_HAVE_SIMD

void pe_fill32_simd(uint32_t *out, size_t count, uint32_t bits) {
    const v128_t v = wasm_i32x4_splat((int32_t)bits);
    size_t t = 0;
    for (; t + 16 <= count; t += 16) { /* four stores per turn: runs are often long */
        wasm_v128_store(out + t, v);
        wasm_v128_store(out + t + 4, v);
        wasm_v128_store(out + t + 8, v);
        wasm_v128_store(out + t + 12, v);
    }
    for (; t + 4 <= count; t += 4) wasm_v128_store(out + t, v);
    pe_fill32_scalar(out + t, count - t, bits);
}

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

pe_relative_kernels pe_relative_active_kernels(void) {
    pe_relative_kernels k = {pe_fill32_scalar, pe_ramp_i32_scalar};
#if PE_HAVE_SIMD
    pe_kernels active = PE_KERNELS_SCALAR;
    pe_active_kernels(&active);
    if (active == PE_KERNELS_SIMD) {
        k.fill = pe_fill32_simd;
        k.ramp = pe_ramp_i32_simd;
    }
#endif
    return k;
}
