/* float64 -> float16 / bfloat16, SIMD: two float64 per vector as 64-bit
 * integer lanes, every case computed and selected per lane (narrow16.h). The
 * subnormal case needs a shift that differs per lane, which wasm SIMD does
 * not have: it shifts by the bits of the count in five constant stages, each
 * keeping a sticky bit ("shift right jamming"), and then rounds by a constant
 * shift. It runs only when a vector holds a subnormal result or a zero.
 * Eight results make one 16-byte store; narrow16_scalar.c finishes the tail. */
#include "common/simd.h"
#include "sinusoid/precision/narrow16.h"
#include "sinusoid/precision/precision_kernels.h"

#if PE_HAVE_SIMD

#define SPLAT(v) wasm_i64x2_splat((int64_t)(v))

/* |x| >> (r + 53 - T) rounded to nearest even, for lanes with r = 1023 - B - e
 * >= 0 (other lanes: garbage, never selected). r is clamped to 31: any
 * r >= 11 + T already gives 0 (|x| below half the smallest subnormal).
 * Kept out of line: inlined, its constants and stages made V8 run the whole
 * loop, normal lanes too, at half speed (float16 tables 2048 x 1024: 4.2 ms
 * against 2.1 ms in Node); natively it changes little. */
static __attribute__((noinline)) v128_t subnormal(v128_t a, unsigned t, unsigned bias) {
    const v128_t zero = SPLAT(0), one = SPLAT(1);
    v128_t r = wasm_i64x2_sub(SPLAT(1023u - bias), wasm_u64x2_shr(a, 52));
    r = wasm_v128_bitselect(SPLAT(31), r, wasm_i64x2_gt(r, SPLAT(31)));
    v128_t m = wasm_v128_or(wasm_v128_and(a, SPLAT(PE_F64_FRACTION_MASK)), SPLAT(PE_F64_IMPLICIT));
    for (unsigned k = 16; k >= 1; k /= 2) {
        /* Where bit k of r is set: m = (m >> k) | (the k bits shifted out != 0). */
        const v128_t take = wasm_i64x2_ne(wasm_v128_and(r, SPLAT(k)), zero);
        const v128_t lost = wasm_i64x2_ne(wasm_v128_and(m, SPLAT((1ull << k) - 1u)), zero);
        const v128_t jammed = wasm_v128_or(wasm_u64x2_shr(m, k), wasm_v128_and(lost, one));
        m = wasm_v128_bitselect(jammed, m, take);
    }
    /* The sticky bit sits far below the rounding position (bit 52 - T), so
     * rounding the jammed value rounds the exact one. */
    const unsigned s = 53u - t;
    const v128_t lsb = wasm_v128_and(wasm_u64x2_shr(m, s), one);
    return wasm_u64x2_shr(wasm_i64x2_add(wasm_i64x2_add(m, SPLAT((1ull << (s - 1u)) - 1u)), lsb), s);
}

/* Two results in the low 16 bits of each 64-bit lane. */
static inline v128_t narrow2(v128_t x, unsigned t, unsigned bias) {
    const unsigned drop = 52u - t;
    const v128_t a = wasm_v128_and(x, SPLAT(INT64_MAX));
    const v128_t sign = wasm_v128_and(wasm_u64x2_shr(x, 48), SPLAT(0x8000));
    const v128_t lsb = wasm_v128_and(wasm_u64x2_shr(a, drop), SPLAT(1));
    const v128_t up = wasm_i64x2_add(wasm_i64x2_add(a, SPLAT((1ull << (drop - 1u)) - 1u)), lsb);
    v128_t h = wasm_i64x2_sub(wasm_u64x2_shr(up, drop), SPLAT(PE_REBIAS(t, bias)));
    const v128_t small = wasm_i64x2_lt(a, SPLAT(PE_MIN_NORMAL_BITS(bias)));
    if (wasm_v128_any_true(small)) h = wasm_v128_bitselect(subnormal(a, t, bias), h, small);
    h = wasm_v128_bitselect(SPLAT(PE_NARROW_INF(t, bias)), h, wasm_i64x2_ge(a, SPLAT(PE_INF_FROM_BITS(t, bias))));
    h = wasm_v128_bitselect(SPLAT(PE_NARROW_NAN(t, bias)), h, wasm_i64x2_gt(a, SPLAT(PE_F64_INF_BITS)));
    return wasm_v128_or(h, sign);
}

/* Eight float64 at in -> eight 16-bit patterns at out. */
static inline void narrow8(const double *in, uint16_t *out, unsigned t, unsigned bias) {
    const v128_t h0 = narrow2(wasm_v128_load(in), t, bias), h1 = narrow2(wasm_v128_load(in + 2), t, bias);
    const v128_t h2 = narrow2(wasm_v128_load(in + 4), t, bias), h3 = narrow2(wasm_v128_load(in + 6), t, bias);
    /* Low 32 bits of each 64-bit lane, then 32 -> 16 (values fit: no saturation). */
    const v128_t lo = wasm_i32x4_shuffle(h0, h1, 0, 2, 4, 6), hi = wasm_i32x4_shuffle(h2, h3, 0, 2, 4, 6);
    wasm_v128_store(out, wasm_u16x8_narrow_i32x4(lo, hi));
}

void pe_narrow_f16_simd(const double *in, uint16_t *out, size_t count) {
    size_t k = 0;
    for (; k + 8 <= count; k += 8) narrow8(in + k, out + k, PE_F16_FRACTION, PE_F16_BIAS);
    pe_narrow_f16_scalar(in + k, out + k, count - k);
}

void pe_narrow_bf16_simd(const double *in, uint16_t *out, size_t count) {
    size_t k = 0;
    for (; k + 8 <= count; k += 8) narrow8(in + k, out + k, PE_BF16_FRACTION, PE_BF16_BIAS);
    pe_narrow_bf16_scalar(in + k, out + k, count - k);
}

#endif
