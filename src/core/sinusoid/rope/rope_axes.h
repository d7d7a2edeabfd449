/* Internal: RoPE whose pairs follow several position axes (posenc.h,
 * pe_rope_axes: Qwen2-VL's mrope and its vision tower's 2-D RoPE).
 *
 * A row's cos/sin are composed from one inner-plan row per axis: each axis
 * owns one run of pairs, and the run's sines and cosines are copied from that
 * axis's [sin | cos] row into the composed row, which is then laid out and
 * rotated exactly as plain RoPE's. The copy is the rope_gather kernel
 * (common/kernel_table.h): whole 32-bit words, so float32 and float64 rows
 * alike move bit for bit. */
#ifndef PE_ROPE_AXES_H
#define PE_ROPE_AXES_H

#include <stddef.h>

#include <stdint.h>

#include "posenc.h"
#include "sinusoid/plan.h"

/* Which pairs follow which axis, for rotary dimension r. Axis a's pairs
 * first[a] ... first[a] + count[a] - 1 of the composed row take pairs
 * source[a] ... of the inner plan's row, whose dimension is inner_r (r for
 * MROPE, r/2 for VISION_2D, whose two axes restart the frequencies). */
typedef struct pe_rope_axis_runs {
    uint32_t axes; /* 0 (plain RoPE), 2 or 3 */
    uint32_t inner_r;
    uint32_t first[PE_ROPE_MROPE_AXES], count[PE_ROPE_MROPE_AXES], source[PE_ROPE_MROPE_AXES];
    /* 1: axis a's pairs are one run; 3 (MROPE_INTERLEAVED): pairs first, first + 3, ... (count of
     * them), each the same pair of the inner row. Axes are composed in order, a later one
     * overwriting an earlier one's pairs (the temporal axis covers every pair first, as HF). */
    uint32_t stride[PE_ROPE_MROPE_AXES];
} pe_rope_axis_runs;

/* Axes of each row's positions (1 for NONE). */
uint32_t pe_rope_axes_count(pe_rope_axes_type type);

/* Checks rope->axes against rotary dimension r and the scaling; PE_OK for NONE. */
pe_status pe_rope_check_axes(const pe_rotary *rope, uint32_t r);

/* The runs of an already checked rope (axes 0 for NONE). */
pe_rope_axis_runs pe_rope_axis_runs_of(const pe_rotary *rope, uint32_t r);

/* VISION_2D's pair frequencies w[0 .. r/2 - 1]: those of a RoPE of dim r/2,
 * twice (the row's pairs, then the column's). */
void pe_rope_vision_frequencies(const pe_rotary *rope, uint32_t r, double *w);

/* The inner plan of a VISION_2D rope: the sinusoidal table's plan of dim r/2. */
pe_status pe_rope_vision_plan(const pe_rotary *rope, uint32_t r, void *memory, size_t bytes, pe_plan **plan);

/* rows composed [sin | cos] rows (r values of dtype FLOAT32 or FLOAT64 each)
 * into out, for rows l = 0 ... rows - 1 at positions[l * axes + a] on axis a
 * (checked already). ids holds rows positions; scratch rows inner rows of
 * that dtype. */
void pe_rope_axes_rows(pe_plan *plan, const pe_rope_axis_runs *runs, pe_dtype dtype, const uint32_t *positions,
                       uint32_t rows, uint32_t r, uint32_t *ids, void *scratch, void *out);

/* The scalar copy of run words from `from` on: the SIMD kernel's tail. */
void pe_rope_gather_run_scalar(uint32_t *out, const uint32_t *in, uint32_t length, uint32_t from);

#endif
