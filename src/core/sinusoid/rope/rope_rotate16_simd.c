/* float16 and bfloat16 <-> float32 for RoPE on 16-bit x, eight elements per
 * step, and the 16-bit rotation fused with them (widen, rotate as
 * rope_rotate_simd.c, narrow, in registers: x is read and written once); the
 * scalar loops finish the tails. Each conversion has a fast form for the
 * common case, checked once per eight or sixteen lanes, and the full form of
 * rope_rotate16_scalar.c (every branch computed, then selected) otherwise;
 * both are exact (widening) or round once to nearest even (narrowing), so
 * they give the scalar kernel's bits:
 *   widen   the 16 bits placed in the top of a 32-bit lane by one shuffle
 *           (bfloat16: done); float16 shifted into float32's fields and
 *           multiplied by 2^112, exact for zeros, subnormals and normals;
 *           infinity and NaN (exponent 31) take the full form.
 *   narrow  bfloat16: add 0x7fff + the kept lsb, keep the top halves (one
 *           shuffle); infinity and NaN inputs take the full form. float16:
 *           the rounding add of the normal range on the signed value (the
 *           sign rides above bit 15 and is put back from the top halves),
 *           when all lanes are in float16's normal range (113 <= float32
 *           exponent <= 142). (issue 11: 3.2x float32 before.) */
#include "common/simd.h"
#include "sinusoid/rope/rope_kernels.h"

#if PE_HAVE_SIMD

/* All four lanes normal numbers (exponent neither 0 nor 31): the exponent
 * rebias alone, the same bits the full form gives them. */
static v128_t widen_f16x4(v128_t h) {
    const v128_t exp_bits = wasm_v128_and(h, wasm_i32x4_splat(0x7c00));
    const v128_t normal =
        wasm_v128_and(wasm_i32x4_ne(exp_bits, wasm_i32x4_splat(0)), wasm_i32x4_ne(exp_bits, wasm_i32x4_splat(0x7c00)));
    if (wasm_i32x4_all_true(normal)) {
        const v128_t o = wasm_i32x4_add(wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x7fff)), 13),
                                        wasm_i32x4_splat((127 - 15) << 23));
        return wasm_v128_or(o, wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x8000)), 16));
    }
    const v128_t shifted_exp = wasm_i32x4_splat(0x7c00 << 13);
    v128_t o = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x7fff)), 13);
    const v128_t exp = wasm_v128_and(o, shifted_exp);
    o = wasm_i32x4_add(o, wasm_i32x4_splat((127 - 15) << 23));
    const v128_t special = wasm_i32x4_add(o, wasm_i32x4_splat((128 - 16) << 23));
    const v128_t subnormal = wasm_f32x4_sub(wasm_i32x4_add(o, wasm_i32x4_splat(1 << 23)), wasm_i32x4_splat(113 << 23));
    o = wasm_v128_bitselect(special, o, wasm_i32x4_eq(exp, shifted_exp));
    o = wasm_v128_bitselect(subnormal, o, wasm_i32x4_eq(exp, wasm_i32x4_splat(0)));
    return wasm_v128_or(o, wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x8000)), 16));
}

/* All four lanes in float16's normal range (or rounding up to infinity from
 * below 65536): the rounding add alone, the same bits the full form gives. */
static v128_t narrow_f16x4(v128_t f) {
    const v128_t sign = wasm_v128_and(f, wasm_i32x4_splat((int32_t)0x80000000u));
    const v128_t u = wasm_v128_xor(f, sign);
    const v128_t in_range =
        wasm_v128_and(wasm_u32x4_ge(u, wasm_i32x4_splat(113 << 23)), wasm_u32x4_lt(u, wasm_i32x4_splat(143 << 23)));
    if (wasm_i32x4_all_true(in_range)) {
        const v128_t odd = wasm_v128_and(wasm_u32x4_shr(u, 13), wasm_i32x4_splat(1));
        v128_t normal = wasm_i32x4_add(u, wasm_i32x4_splat((int32_t)((uint32_t)(15 - 127) << 23) + 0xfff));
        normal = wasm_u32x4_shr(wasm_i32x4_add(normal, odd), 13);
        return wasm_v128_or(normal, wasm_u32x4_shr(sign, 16));
    }
    const v128_t big = wasm_v128_bitselect(wasm_i32x4_splat(0x7e00), wasm_i32x4_splat(0x7c00),
                                           wasm_u32x4_gt(u, wasm_i32x4_splat(0x7f800000)));
    const v128_t half = wasm_i32x4_splat(126 << 23);
    const v128_t small = wasm_i32x4_sub(wasm_f32x4_add(u, half), half);
    const v128_t odd = wasm_v128_and(wasm_u32x4_shr(u, 13), wasm_i32x4_splat(1));
    v128_t normal = wasm_i32x4_add(u, wasm_i32x4_splat((int32_t)((uint32_t)(15 - 127) << 23) + 0xfff));
    normal = wasm_u32x4_shr(wasm_i32x4_add(normal, odd), 13);
    v128_t o = wasm_v128_bitselect(small, normal, wasm_u32x4_lt(u, wasm_i32x4_splat(113 << 23)));
    o = wasm_v128_bitselect(big, o, wasm_u32x4_ge(u, wasm_i32x4_splat(143 << 23)));
    return wasm_v128_or(o, wasm_u32x4_shr(sign, 16));
}

static v128_t narrow_bf16x4(v128_t u) {
    const v128_t nan = wasm_u32x4_gt(wasm_v128_and(u, wasm_i32x4_splat(0x7fffffff)), wasm_i32x4_splat(0x7f800000));
    const v128_t odd = wasm_v128_and(wasm_u32x4_shr(u, 16), wasm_i32x4_splat(1));
    const v128_t rounded = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(u, wasm_i32x4_splat(0x7fff)), odd), 16);
    const v128_t quiet = wasm_v128_or(wasm_u32x4_shr(u, 16), wasm_i32x4_splat(0x40));
    return wasm_v128_bitselect(quiet, rounded, nan);
}

/* Eight 16-bit lanes -> two float32x4 and back, full forms. */
static void widen8_full(v128_t h, int f16, v128_t *lo, v128_t *hi) {
    const v128_t l = wasm_u32x4_extend_low_u16x8(h), u = wasm_u32x4_extend_high_u16x8(h);
    *lo = f16 ? widen_f16x4(l) : wasm_i32x4_shl(l, 16);
    *hi = f16 ? widen_f16x4(u) : wasm_i32x4_shl(u, 16);
}

static v128_t narrow8_full(v128_t lo, v128_t hi, int f16) {
    return f16 ? wasm_u16x8_narrow_i32x4(narrow_f16x4(lo), narrow_f16x4(hi))
               : wasm_u16x8_narrow_i32x4(narrow_bf16x4(lo), narrow_bf16x4(hi));
}

/* Sixteen lanes (a, b) -> four float32x4 (a0 a1 b0 b1). */
static void widen16(v128_t a, v128_t b, int f16, v128_t *w) {
    if (f16) {
        const v128_t e = wasm_i16x8_splat(0x7c00);
        const v128_t special =
            wasm_v128_or(wasm_i16x8_eq(wasm_v128_and(a, e), e), wasm_i16x8_eq(wasm_v128_and(b, e), e));
        if (wasm_v128_any_true(special)) {
            widen8_full(a, 1, &w[0], &w[1]);
            widen8_full(b, 1, &w[2], &w[3]);
            return;
        }
    }
    if (f16) {
        /* Sign-extended, shifted into float32's fields (bits 28-30, copies of
         * the sign, cleared), then scaled by 2^(127 - 15): exact for every
         * finite half. */
        const v128_t fields = wasm_i32x4_splat((int32_t)0x8fffffffu), scale = wasm_f32x4_splat(0x1p112f);
        w[0] = wasm_i32x4_extend_low_i16x8(a);
        w[1] = wasm_i32x4_extend_high_i16x8(a);
        w[2] = wasm_i32x4_extend_low_i16x8(b);
        w[3] = wasm_i32x4_extend_high_i16x8(b);
        for (int k = 0; k < 4; k++) w[k] = wasm_f32x4_mul(wasm_v128_and(wasm_i32x4_shl(w[k], 13), fields), scale);
        return;
    }
    const v128_t z = wasm_i32x4_splat(0);
    w[0] = wasm_i16x8_shuffle(z, a, 0, 8, 1, 9, 2, 10, 3, 11);
    w[1] = wasm_i16x8_shuffle(z, a, 4, 12, 5, 13, 6, 14, 7, 15);
    w[2] = wasm_i16x8_shuffle(z, b, 0, 8, 1, 9, 2, 10, 3, 11);
    w[3] = wasm_i16x8_shuffle(z, b, 4, 12, 5, 13, 6, 14, 7, 15);
}

/* The top 16 bits of each float32 of lo then hi. */
static v128_t tops8(v128_t lo, v128_t hi) {
    return wasm_i16x8_shuffle(lo, hi, 1, 3, 5, 7, 9, 11, 13, 15);
}

/* Two float32x4 -> eight halves by the normal-range rounding add; t = tops8(lo, hi). */
static v128_t narrow8_f16_normal(v128_t lo, v128_t hi, v128_t t) {
    const v128_t bias = wasm_i32x4_splat((int32_t)((uint32_t)(15 - 127) << 23) + 0xfff), one = wasm_i32x4_splat(1);
    const v128_t l =
        wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(lo, bias), wasm_v128_and(wasm_u32x4_shr(lo, 13), one)), 13);
    const v128_t h =
        wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(hi, bias), wasm_v128_and(wasm_u32x4_shr(hi, 13), one)), 13);
    return wasm_v128_or(wasm_i16x8_shuffle(l, h, 0, 2, 4, 6, 8, 10, 12, 14),
                        wasm_v128_and(t, wasm_i16x8_splat((int16_t)0x8000)));
}

/* Two float32x4 -> eight bfloat16 by the rounding add (finite lanes). */
static v128_t narrow8_bf16_finite(v128_t lo, v128_t hi) {
    const v128_t half = wasm_i32x4_splat(0x7fff), one = wasm_i32x4_splat(1);
    const v128_t l = wasm_i32x4_add(wasm_i32x4_add(lo, half), wasm_v128_and(wasm_u32x4_shr(lo, 16), one));
    const v128_t h = wasm_i32x4_add(wasm_i32x4_add(hi, half), wasm_v128_and(wasm_u32x4_shr(hi, 16), one));
    return tops8(l, h);
}

/* Four float32x4 (r0 r1 -> out[0], r2 r3 -> out[1]) narrowed. */
static void narrow16(const v128_t *r, int f16, v128_t *out) {
    const v128_t t0 = tops8(r[0], r[1]), t1 = tops8(r[2], r[3]);
    const v128_t e = wasm_i16x8_splat(0x7f80);
    const v128_t e0 = wasm_v128_and(t0, e), e1 = wasm_v128_and(t1, e);
    if (f16) {
        /* Exponent field (in the top halves: bits 7-14) from 113 to 142. */
        const v128_t low = wasm_i16x8_splat(113 << 7), span = wasm_i16x8_splat(30 << 7);
        const v128_t ok =
            wasm_v128_and(wasm_u16x8_lt(wasm_i16x8_sub(e0, low), span), wasm_u16x8_lt(wasm_i16x8_sub(e1, low), span));
        if (wasm_i16x8_all_true(ok)) {
            out[0] = narrow8_f16_normal(r[0], r[1], t0);
            out[1] = narrow8_f16_normal(r[2], r[3], t1);
            return;
        }
    } else if (!wasm_v128_any_true(wasm_v128_or(wasm_i16x8_eq(e0, e), wasm_i16x8_eq(e1, e)))) {
        out[0] = narrow8_bf16_finite(r[0], r[1]);
        out[1] = narrow8_bf16_finite(r[2], r[3]);
        return;
    }
    out[0] = narrow8_full(r[0], r[1], f16);
    out[1] = narrow8_full(r[2], r[3], f16);
}

/* x * c + partner * s and x * c - partner * s, as rope_rotate_simd.c forms them. */
static v128_t turn(v128_t x, v128_t partner, const float *c, const float *s) {
    return wasm_f32x4_add(wasm_f32x4_mul(x, wasm_v128_load(c)), wasm_f32x4_mul(partner, wasm_v128_load(s)));
}

static v128_t turn_back(v128_t x, v128_t partner, v128_t c, v128_t s) {
    return wasm_f32x4_sub(wasm_f32x4_mul(x, c), wasm_f32x4_mul(partner, s));
}

/* Halves: eight pairs a step; only the first halves of C and S are read
 * (rope_kernels.h: the second mirror them). */
static void halves16(uint16_t *v, const float *c, const float *s, uint32_t r, int f16) {
    const uint32_t half = r / 2;
    uint32_t i = 0;
    for (; i + 8 <= half; i += 8) {
        v128_t w[4], o[4], n[2];
        widen16(wasm_v128_load(v + i), wasm_v128_load(v + half + i), f16, w);
        const v128_t c0 = wasm_v128_load(c + i), c1 = wasm_v128_load(c + i + 4);
        const v128_t s0 = wasm_v128_load(s + i), s1 = wasm_v128_load(s + i + 4);
        o[0] = wasm_f32x4_add(wasm_f32x4_mul(w[0], c0), wasm_f32x4_mul(w[2], s0));
        o[1] = wasm_f32x4_add(wasm_f32x4_mul(w[1], c1), wasm_f32x4_mul(w[3], s1));
        o[2] = turn_back(w[2], w[0], c0, s0);
        o[3] = turn_back(w[3], w[1], c1, s1);
        narrow16(o, f16, n);
        wasm_v128_store(v + i, n[0]);
        wasm_v128_store(v + half + i, n[1]);
    }
    if (i < half) pe_rope_rotate16_from_scalar(v, c, s, r, PE_LAYOUT_SPLIT, f16, i);
}

/* Adjacent pairs: sixteen elements a step, each lane's partner by a swap. */
static void adjacent16(uint16_t *v, const float *c, const float *s, uint32_t r, int f16) {
    uint32_t j = 0;
    for (; j + 16 <= r; j += 16) {
        v128_t w[4], o[4], n[2];
        widen16(wasm_v128_load(v + j), wasm_v128_load(v + j + 8), f16, w);
        for (int k = 0; k < 4; k++)
            o[k] = turn(w[k], wasm_i32x4_shuffle(w[k], w[k], 1, 0, 3, 2), c + j + 4 * k, s + j + 4 * k);
        narrow16(o, f16, n);
        wasm_v128_store(v + j, n[0]);
        wasm_v128_store(v + j + 8, n[1]);
    }
    if (j < r) pe_rope_rotate16_from_scalar(v, c, s, r, PE_LAYOUT_INTERLEAVED, f16, j);
}

void pe_rope_rotate16_simd(uint16_t *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                           uint32_t rotary_dim, pe_layout layout, int f16) {
    for (size_t k = 0; k < count; k++) {
        const float *c = cs + k * cs_stride;
        if (layout == PE_LAYOUT_SPLIT)
            halves16(x + k * stride, c, c + rotary_dim, rotary_dim, f16);
        else
            adjacent16(x + k * stride, c, c + rotary_dim, rotary_dim, f16);
    }
}

#endif
