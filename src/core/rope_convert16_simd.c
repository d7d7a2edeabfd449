/* float16 and bfloat16 <-> float32 for RoPE on 16-bit x, eight elements per
 * step with rope_convert16_scalar.c's operations per lane (every branch
 * computed, then selected); the scalar loop finishes the tail. */
#include "rope_kernels.h"
#include "simd.h"

#if PE_HAVE_SIMD

/* All four lanes normal numbers (exponent neither 0 nor 31): the exponent
 * rebias alone, the same bits the full form gives them. */
static v128_t widen_f16x4(v128_t h) {
    const v128_t exp_bits = wasm_v128_and(h, wasm_i32x4_splat(0x7c00));
    const v128_t normal = wasm_v128_and(wasm_i32x4_ne(exp_bits, wasm_i32x4_splat(0)),
                                        wasm_i32x4_ne(exp_bits, wasm_i32x4_splat(0x7c00)));
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
    const v128_t in_range = wasm_v128_and(wasm_u32x4_ge(u, wasm_i32x4_splat(113 << 23)),
                                          wasm_u32x4_lt(u, wasm_i32x4_splat(143 << 23)));
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

void pe_widen_f16_simd(const uint16_t *in, float *out, size_t count) {
    size_t k = 0;
    for (; k + 8 <= count; k += 8) {
        const v128_t h = wasm_v128_load(in + k);
        wasm_v128_store(out + k, widen_f16x4(wasm_u32x4_extend_low_u16x8(h)));
        wasm_v128_store(out + k + 4, widen_f16x4(wasm_u32x4_extend_high_u16x8(h)));
    }
    pe_widen_f16_scalar(in + k, out + k, count - k);
}

void pe_widen_bf16_simd(const uint16_t *in, float *out, size_t count) {
    size_t k = 0;
    for (; k + 8 <= count; k += 8) {
        const v128_t h = wasm_v128_load(in + k);
        wasm_v128_store(out + k, wasm_i32x4_shl(wasm_u32x4_extend_low_u16x8(h), 16));
        wasm_v128_store(out + k + 4, wasm_i32x4_shl(wasm_u32x4_extend_high_u16x8(h), 16));
    }
    pe_widen_bf16_scalar(in + k, out + k, count - k);
}

/* Each lane holds 0 ... 0xffff, so the saturating narrow is exact. */
void pe_narrow32_f16_simd(const float *in, uint16_t *out, size_t count) {
    size_t k = 0;
    for (; k + 8 <= count; k += 8)
        wasm_v128_store(out + k, wasm_u16x8_narrow_i32x4(narrow_f16x4(wasm_v128_load(in + k)),
                                                         narrow_f16x4(wasm_v128_load(in + k + 4))));
    pe_narrow32_f16_scalar(in + k, out + k, count - k);
}

void pe_narrow32_bf16_simd(const float *in, uint16_t *out, size_t count) {
    size_t k = 0;
    for (; k + 8 <= count; k += 8)
        wasm_v128_store(out + k, wasm_u16x8_narrow_i32x4(narrow_bf16x4(wasm_v128_load(in + k)),
                                                         narrow_bf16x4(wasm_v128_load(in + k + 4))));
    pe_narrow32_bf16_scalar(in + k, out + k, count - k);
}

#endif
