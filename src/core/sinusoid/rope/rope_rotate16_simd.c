/* float16 and bfloat16 <-> float32 for RoPE on 16-bit x, eight elements per
 * step with rope_rotate16_scalar.c's operations per lane (every branch
 * computed, then selected), and the 16-bit rotation fused with them (widen,
 * rotate as rope_rotate_simd.c, narrow, in registers); the scalar loops finish the
 * tails. */
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

/* Eight 16-bit lanes -> two float32x4 and back. */
static void widen8(v128_t h, int f16, v128_t *lo, v128_t *hi) {
    const v128_t l = wasm_u32x4_extend_low_u16x8(h), u = wasm_u32x4_extend_high_u16x8(h);
    *lo = f16 ? widen_f16x4(l) : wasm_i32x4_shl(l, 16);
    *hi = f16 ? widen_f16x4(u) : wasm_i32x4_shl(u, 16);
}

static v128_t narrow8(v128_t lo, v128_t hi, int f16) {
    return f16 ? wasm_u16x8_narrow_i32x4(narrow_f16x4(lo), narrow_f16x4(hi))
               : wasm_u16x8_narrow_i32x4(narrow_bf16x4(lo), narrow_bf16x4(hi));
}

/* x * c + partner * s, as rope_rotate_simd.c forms it. */
static v128_t turn(v128_t x, v128_t partner, const float *c, const float *s) {
    return wasm_f32x4_add(wasm_f32x4_mul(x, wasm_v128_load(c)), wasm_f32x4_mul(partner, wasm_v128_load(s)));
}

static void halves16(uint16_t *v, const float *c, const float *s, uint32_t r, int f16) {
    const uint32_t half = r / 2;
    uint32_t i = 0;
    for (; i + 8 <= half; i += 8) {
        v128_t a0, a1, b0, b1;
        widen8(wasm_v128_load(v + i), f16, &a0, &a1);
        widen8(wasm_v128_load(v + half + i), f16, &b0, &b1);
        wasm_v128_store(v + i, narrow8(turn(a0, b0, c + i, s + i), turn(a1, b1, c + i + 4, s + i + 4), f16));
        wasm_v128_store(v + half + i, narrow8(turn(b0, a0, c + half + i, s + half + i),
                                              turn(b1, a1, c + half + i + 4, s + half + i + 4), f16));
    }
    pe_rope_rotate16_from_scalar(v, c, s, r, PE_LAYOUT_SPLIT, f16, i);
}

static void adjacent16(uint16_t *v, const float *c, const float *s, uint32_t r, int f16) {
    uint32_t j = 0;
    for (; j + 8 <= r; j += 8) {
        v128_t a0, a1;
        widen8(wasm_v128_load(v + j), f16, &a0, &a1);
        const v128_t p0 = wasm_i32x4_shuffle(a0, a0, 1, 0, 3, 2), p1 = wasm_i32x4_shuffle(a1, a1, 1, 0, 3, 2);
        wasm_v128_store(v + j, narrow8(turn(a0, p0, c + j, s + j), turn(a1, p1, c + j + 4, s + j + 4), f16));
    }
    pe_rope_rotate16_from_scalar(v, c, s, r, PE_LAYOUT_INTERLEAVED, f16, j);
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
