/* Internal: RoPE's rotation kernel, and the scaled frequencies behind it.
 *
 * A tile row of cos/sin is laid out for the rotation as cs = [C | S], each
 * rotary_dim floats in the layout of x's pairs, so that every element is
 *
 *     x'[j] = x[j] * C[j] + x[partner(j)] * S[j]
 *
 * with partner(j) = j ^ 1 (adjacent pairs) or j +- rotary_dim/2 (halves),
 * C = cos * attention factor and S = -sin or +sin (times the factor) as the
 * direction asks. (-s) * x2 is exactly -(s * x2), so this is bit for bit
 * HF's x1 cos - x2 sin and x2 cos + x1 sin. */
#ifndef PE_ROPE_KERNELS_H
#define PE_ROPE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

/* Rotates count head vectors x + k*stride with cs + k*cs_stride (cs_stride 0:
 * one row of cos/sin for all). Only the first rotary_dim elements change. */
typedef void (*pe_rope_rotate_fn)(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                                  uint32_t rotary_dim, pe_layout layout);

void pe_rope_rotate_scalar(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                           uint32_t rotary_dim, pe_layout layout);
void pe_rope_rotate_simd(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                         uint32_t rotary_dim, pe_layout layout);

/* The scalar loops from pair i0 (halves) or element j0 (adjacent pairs, even),
 * shared as the SIMD kernel's tails. c and s are the C and S rows. */
void pe_rope_halves_scalar(float *v, const float *c, const float *s, uint32_t half, uint32_t i0);
void pe_rope_adjacent_scalar(float *v, const float *c, const float *s, uint32_t rotary_dim, uint32_t j0);

/* Conversions of x's 16-bit elements for the rotation in float32: widen is
 * exact; narrow rounds to nearest even once (overflow to infinity, NaN stays
 * NaN). Integer and bit operations (and exact float products), so every
 * build gives the same bits. */
typedef void (*pe_widen16_fn)(const uint16_t *in, float *out, size_t count);
typedef void (*pe_narrow16_fn)(const float *in, uint16_t *out, size_t count);

typedef struct pe_rope_kernels {
    pe_rope_rotate_fn rotate;
    pe_widen16_fn widen_f16, widen_bf16;
    pe_narrow16_fn narrow_f16, narrow_bf16;
} pe_rope_kernels;

/* The set matching pe_active_kernels(): scalar or SIMD. */
const pe_rope_kernels *pe_current_rope_kernels(void);

void pe_widen_f16_scalar(const uint16_t *in, float *out, size_t count);
void pe_widen_bf16_scalar(const uint16_t *in, float *out, size_t count);
void pe_narrow32_f16_scalar(const float *in, uint16_t *out, size_t count);
void pe_narrow32_bf16_scalar(const float *in, uint16_t *out, size_t count);
void pe_widen_f16_simd(const uint16_t *in, float *out, size_t count);
void pe_widen_bf16_simd(const uint16_t *in, float *out, size_t count);
void pe_narrow32_f16_simd(const float *in, uint16_t *out, size_t count);
void pe_narrow32_bf16_simd(const float *in, uint16_t *out, size_t count);

/* Checks a pe_rope_scaling for rotary dimension r. */
pe_status pe_rope_check_scaling(const pe_rope_scaling *scaling, uint32_t r);

/* w[0 .. r/2 - 1] and the attention factor for an already checked rope, for a
 * sequence of length seq_len (DYNAMIC only). PE_ERR_SCALING when the
 * parameters lead to a frequency or factor that is not finite. */
pe_status pe_rope_scaled_frequencies(const pe_rotary *rope, uint32_t seq_len, double *w, double *attention_factor);

#endif
