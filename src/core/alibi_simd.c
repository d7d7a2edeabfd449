/* The ALiBi ramp, four keys at a time, and the row copy: the scalar kernel's operations per
 * lane (two f64x2 halves, then one narrowing store); alibi_scalar.c finishes
 * the tail. */
#include "alibi_kernels.h"
#include "simd.h"

#if PE_HAVE_SIMD

void pe_alibi_ramp_simd(float *out, size_t count, double slope, double d0, double step) {
    const v128_t m = wasm_f64x2_splat(slope), zero = wasm_f64x2_splat(0.0);
    const v128_t four = wasm_f64x2_splat(4.0 * step);
    v128_t lo = wasm_f64x2_make(d0, d0 + step);
    v128_t hi = wasm_f64x2_make(d0 + 2.0 * step, d0 + 3.0 * step);
    size_t t = 0;
    for (; t + 4 <= count; t += 4) {
        v128_t a = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(zero, wasm_f64x2_mul(m, lo)));
        v128_t b = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(zero, wasm_f64x2_mul(m, hi)));
        wasm_v128_store(out + t, wasm_i32x4_shuffle(a, b, 0, 1, 4, 5));
        lo = wasm_f64x2_add(lo, four);
        hi = wasm_f64x2_add(hi, four);
    }
    /* d0 + step * t is a whole number below 2^33: exact, as the scalar sum is. */
    pe_alibi_ramp_scalar(out + t, count - t, slope, d0 + step * (double)t, step);
}

/* Sixteen floats a step (src may be unaligned: wasm loads take any address). */
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
