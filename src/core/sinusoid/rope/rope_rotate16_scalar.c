/* float16 and bfloat16 <-> float32 for RoPE on 16-bit x, and the 16-bit
 * rotation built on them, scalar reference (and the SIMD kernels' tails). Widening is exact; narrowing rounds once to
 * nearest even, overflows to infinity, keeps NaN a quiet NaN with its sign.
 * float16 follows F. Giesen's branch-light conversions (the "magic number"
 * forms): the only float operations are exact (subnormal alignment). */
#include <string.h>

#include "sinusoid/rope/rope_kernels.h"

#define F16_MAX_AS_F32      (143u << 23) /* 65536.0f: at or above it, infinity (or NaN) */
#define F16_SUBNORMAL_BELOW (113u << 23) /* 2^-14, float16's smallest normal */
#define HALF_AS_F32         (126u << 23) /* 0.5f: its ulp is float16's subnormal step 2^-24 */

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float widen_f16(uint16_t h) {
    const uint32_t shifted_exp = 0x7c00u << 13;
    uint32_t o = (uint32_t)(h & 0x7fffu) << 13;
    const uint32_t exp = o & shifted_exp;
    o += (127u - 15u) << 23;
    if (exp == shifted_exp)
        o += (128u - 16u) << 23; /* infinity or NaN */
    else if (exp == 0)
        o = bits_of(float_of(o + (1u << 23)) - float_of(F16_SUBNORMAL_BELOW)); /* exact */
    return float_of(o | (uint32_t)(h & 0x8000u) << 16);
}

static uint16_t narrow_f16(float f) {
    uint32_t u = bits_of(f);
    const uint32_t sign = u & 0x80000000u;
    u ^= sign;
    uint32_t o;
    if (u >= F16_MAX_AS_F32)
        o = u > 0x7f800000u ? 0x7e00u : 0x7c00u;
    else if (u < F16_SUBNORMAL_BELOW)
        o = bits_of(float_of(u) + float_of(HALF_AS_F32)) - HALF_AS_F32;
    else
        o = (u + ((uint32_t)(15 - 127) << 23) + 0xfffu + ((u >> 13) & 1u)) >> 13;
    return (uint16_t)(o | sign >> 16);
}

static uint16_t narrow_bf16(float f) {
    const uint32_t u = bits_of(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(u >> 16 | 0x40u);
    return (uint16_t)((u + 0x7fffu + (u >> 16 & 1u)) >> 16);
}

static float widen_bf16(uint16_t h) {
    return float_of((uint32_t)h << 16);
}

/* The rotation of rope_rotate_scalar.c on 16-bit elements: each widened, rotated
 * with the same float32 operations, rounded back once. Pairs from ... to - 1
 * (halves) or elements from ... to - 1 (adjacent pairs, both even). */
void pe_rope_rotate16_span_scalar(uint16_t *v, const float *c, const float *s, uint32_t rotary_dim, pe_layout layout,
                                  int f16, uint32_t from, uint32_t to) {
    float (*widen)(uint16_t) = f16 ? widen_f16 : widen_bf16;
    uint16_t (*narrow)(float) = f16 ? narrow_f16 : narrow_bf16;
    const uint32_t half = rotary_dim / 2;
    if (layout == PE_LAYOUT_SPLIT) {
        for (uint32_t i = from; i < to; i++) {
            const float a = widen(v[i]), b = widen(v[i + half]);
            v[i] = narrow(a * c[i] + b * s[i]);
            v[i + half] = narrow(b * c[i] - a * s[i]); /* as rope_rotate_scalar.c */
        }
    } else {
        for (uint32_t j = from; j < to; j += 2) {
            const float a = widen(v[j]), b = widen(v[j + 1]);
            v[j] = narrow(a * c[j] + b * s[j]);
            v[j + 1] = narrow(b * c[j + 1] + a * s[j + 1]);
        }
    }
}

void pe_rope_rotate16_scalar(uint16_t *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                             uint32_t rotary_dim, pe_layout layout, int f16) {
    for (size_t k = 0; k < count; k++) {
        const float *c = cs + k * cs_stride;
        pe_rope_rotate16_span_scalar(x + k * stride, c, c + pe_rope_cs_floats(rotary_dim, layout), rotary_dim, layout,
                                     f16, 0, layout == PE_LAYOUT_SPLIT ? rotary_dim / 2 : rotary_dim);
    }
}
