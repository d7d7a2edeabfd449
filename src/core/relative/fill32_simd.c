/* The fill kernel of the relative family, four 32-bit values per store
 * (sixteen per turn: runs are often long); fill32_scalar.c finishes the tail.
 * Integer lanes: the same bits as the scalar loop by construction, and the
 * tests hold them to it. */
#include "common/simd.h"
#include "relative/relative_kernels.h"

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

#endif
