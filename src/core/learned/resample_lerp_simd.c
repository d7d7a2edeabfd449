/* Linear interpolation between two rows, four floats at a time: each half
 * widened to f64x2 and run through resample_lerp_scalar.c's operations, then
 * narrowed into one store; the scalar kernel finishes the tail. */
#include "common/simd.h"
#include "learned/resample_kernels.h"

#if PE_HAVE_SIMD

static inline v128_t lerp2(v128_t a, v128_t b, v128_t w0, v128_t w1) {
    return wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(wasm_f64x2_mul(w0, a), wasm_f64x2_mul(w1, b)));
}

static inline v128_t high_half(v128_t v) {
    return wasm_i32x4_shuffle(v, v, 2, 3, 2, 3);
}

void pe_lerp_rows_simd(float *out, const float *a, const float *b, double w0, double w1, size_t count) {
    const v128_t v0 = wasm_f64x2_splat(w0), v1 = wasm_f64x2_splat(w1);
    size_t j = 0;
    for (; j + 4 <= count; j += 4) {
        v128_t x = wasm_v128_load(a + j), y = wasm_v128_load(b + j);
        v128_t lo = lerp2(wasm_f64x2_promote_low_f32x4(x), wasm_f64x2_promote_low_f32x4(y), v0, v1);
        v128_t hi =
            lerp2(wasm_f64x2_promote_low_f32x4(high_half(x)), wasm_f64x2_promote_low_f32x4(high_half(y)), v0, v1);
        wasm_v128_store(out + j, wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5));
    }
    pe_lerp_rows_scalar(out + j, a + j, b + j, w0, w1, count - j);
}

#endif
