/* Internal: RoPE's rotation kernel, and the scaled frequencies behind it.
 *
 * A tile row of cos/sin is laid out for the rotation as cs = [C | S] in the
 * layout of x's pairs, so that every element is
 *
 *     x'[j] = x[j] * C[j] + x[partner(j)] * S[j]
 *
 * with partner(j) = j ^ 1 (adjacent pairs) or j +- rotary_dim/2 (halves),
 * C = cos * attention factor and S = -sin or +sin (times the factor) as the
 * direction asks. (-s) * x2 is exactly -(s * x2), so this is bit for bit
 * HF's x1 cos - x2 sin and x2 cos + x1 sin. Adjacent pairs keep C and S of
 * every element (rotary_dim floats each); halves keep only the first half of
 * each (rotary_dim/2 floats): the second halves would repeat C and negate S,
 * which the kernels fold into their operations (x2' = x2 C - x1 S). The
 * compact rows halve what prefill streams besides x: rows twice as long,
 * their second halves skipped, made the rotation at 2048 x 32 x 128 1.4x
 * as slow on memory, alike in every alignment to x (issue 29). */
#ifndef PE_ROPE_KERNELS_H
#define PE_ROPE_KERNELS_H

#include <stddef.h>

#include <stdint.h>

#include "common/kernel_table.h"
#include "posenc.h"

/* Floats of C (and of S) in a laid-out row, which is [C | S]: 2 * this. */
static inline uint32_t pe_rope_cs_floats(uint32_t rotary_dim, pe_layout layout) {
    return layout == PE_LAYOUT_SPLIT ? rotary_dim / 2 : rotary_dim;
}

/* Rotates count head vectors x + k*stride with cs + k*cs_stride (cs_stride 0:
 * one row of cos/sin for all). Only the first rotary_dim elements change. */
typedef void (*pe_rope_rotate_fn)(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                                  uint32_t rotary_dim, pe_layout layout);

/* The scalar loops from pair i0 (halves) or element j0 (adjacent pairs, even),
 * shared as the SIMD kernel's tails. c and s are the C and S rows. */
void pe_rope_halves_scalar(float *v, const float *c, const float *s, uint32_t half, uint32_t i0);
void pe_rope_adjacent_scalar(float *v, const float *c, const float *s, uint32_t rotary_dim, uint32_t j0);

/* pe_rope_lay_out_scalar/_simd (common/kernel_table.h): rows [sin | cos]
 * rows of the inner plan (r/2 + r/2 floats each, at raw) -> rows [C | S] rows
 * (2 * pe_rope_cs_floats(r, layout) floats each, at cs) in the layout of x's
 * pairs, scaled by the attention factor in float32 (HF: cos * factor, sin *
 * factor):
 *     C = cos * factor on both elements of a pair (halves: once),
 *     S = first, -first  with first = sign * (sin * factor) (halves: first),
 * sign -1 (x1' = x1 cos - x2 sin) or +1 when inverse. Decoding lays out a tile
 * every tile_rows tokens and prefill without a cache every tile, so it is a
 * kernel (issue 11: four times the cos/sin recurrence's time as a scalar loop
 * the compiler left unvectorised). The scalar loop from pair i0, the SIMD
 * kernel's tail: */
void pe_rope_lay_out_row_scalar(const float *raw, float *cs, uint32_t r, pe_layout layout, float factor, int inverse,
                                uint32_t i0);

/* pe_rope_rotate16_scalar/_simd (common/kernel_table.h): the rotation of
 * 16-bit x (float16 when f16, else bfloat16 bit patterns), each element
 * widened (exactly), rotated with the float32 operations above, and rounded
 * back once to nearest even (overflow to infinity, NaN a quiet NaN). Integer
 * and bit operations around the float32 ones, so every build gives the same
 * bits. Arguments as pe_rope_rotate_fn. */

/* The scalar loop over pairs from ... to - 1 (halves) or elements from ...
 * to - 1 (adjacent pairs, both even): the SIMD kernel's tails and its steps
 * that meet infinities, NaN or float16 overflow. */
void pe_rope_rotate16_span_scalar(uint16_t *v, const float *c, const float *s, uint32_t rotary_dim, pe_layout layout,
                                  int f16, uint32_t from, uint32_t to);

/* Checks a pe_rope_scaling for rotary dimension r. */
pe_status pe_rope_check_scaling(const pe_rope_scaling *scaling, uint32_t r);

/* w[0 .. r/2 - 1] and the attention factor for an already checked rope, for a
 * sequence of length seq_len (DYNAMIC only). PE_ERR_SCALING when the
 * parameters lead to a frequency or factor that is not finite. */
pe_status pe_rope_scaled_frequencies(const pe_rotary *rope, uint32_t seq_len, double *w, double *attention_factor);

/* PE_OK when a plan can be built for seq_len (a checked rope): the refusals
 * pe_rope_scaled_frequencies and the sinusoid plan (w_i above
 * PE_MAX_FREQUENCY) would give, found without writing anything. */
pe_status pe_rope_check_frequencies(const pe_rotary *rope, uint32_t seq_len);

#endif
