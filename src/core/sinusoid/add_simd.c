/* The add, sixteen floats an iteration (four independent vectors, as a plain
 * streaming add is written); add_scalar.c finishes the tail. Each element is
 * still float(float(x * scale) + pe): the same bits as the scalar loop. */
#include "common/simd.h"
#include "sinusoid/plan.h"

#if PE_HAVE_SIMD

static inline void add4(float *x, const float *pe, v128_t s) {
    v128_t v = wasm_f32x4_mul(wasm_v128_load(x), s);
    wasm_v128_store(x, wasm_f32x4_add(v, wasm_v128_load(pe)));
}

void pe_add_simd(float *x, const float *pe, size_t count, float scale) {
    const v128_t s = wasm_f32x4_splat(scale);
    size_t k = 0;
    for (; k + 16 <= count; k += 16) {
        add4(x + k, pe + k, s);
        add4(x + k + 4, pe + k + 4, s);
        add4(x + k + 8, pe + k + 8, s);
        add4(x + k + 12, pe + k + 12, s);
    }
    for (; k + 4 <= count; k += 4) add4(x + k, pe + k, s);
    pe_add_scalar(x + k, pe + k, count - k, scale);
}

#endif
