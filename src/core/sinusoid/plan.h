/* Internal: the plan, its kernels (in common/kernel_table.h), and how a table is made.
 *
 * Positions are cut into blocks of PE_BLOCK_ROWS rows that start at absolute
 * multiples of PE_BLOCK_ROWS. Every value is a pure function of its position,
 * whatever the call asked for, because each is reached by the same operations:
 *
 *   anchor   exact (sin, cos)(a * w_i) from pe_sincos2 at a = p0 rounded down to
 *            a multiple of PE_ANCHOR_ROWS, with w_i in double-double and the
 *            angle a * w_i as the rounded product plus its exact error (Dekker),
 *            so that it keeps its last bits up to a = 2^31;
 *   jump     the block start p0 reached from the anchor by (p0 - a) / 64
 *            rotations by 64 w_i (at most 15, adding a few ulp of double);
 *   seed     the block's rows p0 and p0 + 1 in layout order (one more
 *            rotation, by w_i, for row p0 + 1);
 *   recur    the rest of the block by the Chebyshev recurrence
 *            x(n+1) = 2cos(w) x(n) - x(n-1) in float64, stored as float32:
 *            every float64 value is within PE_FAST_BOUND (below) of exact;
 *   settle   only when rounding is PE_ROUNDING_CORRECT (pe_set_rounding):
 *            a value whose float64 lies within PE_FAST_BOUND of a rounding
 *            midpoint is recomputed from its position (sinusoid/settle.h),
 *            so every float32, float16 and bfloat16 value is the exact value
 *            rounded once. The default (PE_ROUNDING_FAST) stores float(y).
 *
 * Each kernel has a scalar version (the reference) and a SIMD version with the
 * same operations in the same order per lane, so both give the same bits. */
#ifndef PE_SINUSOID_PLAN_H
#define PE_SINUSOID_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/kernel_table.h"
#include "posenc.h"

#define PE_BLOCK_ROWS  64u
#define PE_ANCHOR_ROWS 1024u /* a multiple of PE_BLOCK_ROWS */
/* Rows per pass of the recurrence: the pass's output lines stay in L1 even
 * when the row stride is a multiple of 4 KiB (every row in one cache set). */
#define PE_ROW_GROUP 8u
/* Columns the SIMD recurrence takes through all of a call's rows before the
 * next ones, so that their state (row0, row1, coef: 12 KiB) stays in L1 from
 * pass to pass (sinusoid/recur_simd.c). */
#define PE_COLUMN_BAND 512u
/* The add's tile of PE rows: up to 2 MiB (and 1024 rows), so each batch item
 * is added in long runs the prefetchers follow, as a plain streaming add is.
 * Against a streaming x += table (V8, batch 8 x 2048 x 1024, side by side):
 * 256 KiB tiles 1.33x, 1 MiB 1.17-1.27x, 2 MiB 1.12-1.14x, 4 MiB 1.10-1.15x.
 * Filling one tile while adding another in the same loop measured worse
 * (1.3-2x): the interleaved streams cost more than the overlap gains. */
#define PE_TILE_FLOATS   524288u
#define PE_TILE_MAX_ROWS 1024u
#define PE_PLAN_MAGIC    0x706f7365u /* "pose" */

/* The fast path's bound: every float64 value the recurrence gives for a
 * position below 2^31 (w_i <= PE_MAX_FREQUENCY) is within PE_FAST_BOUND of
 * sin or cos(p w_i) for the plan's w_i. Derived, in units of u = 2^-53:
 *
 *   anchor  pe_sincos2's 2^-52 per component, plus the angle's error (w's
 *           relative error times p w, under 2^-55, settle.c): a vector error
 *           under 3.2u;
 *   jumps   at most 15 rotations by 64 w_i, each adding the rotation's own
 *           error (cos and sin within 2^-52 each: 2.9u on a unit vector) and
 *           its roundings (two products and a sum per component: 3.42u), so
 *           6.33u each: E0 <= 3.2u + 15 x 6.33u < 99u at row 0, and the seed
 *           row 1, one rotation more, E1 < 106u;
 *   recur   with e(n) the error of row n, e(n+1) = 2cos(w) e(n) - e(n-1) +
 *           l(n), whose solution is e(n) = -U(n-2) e(0) + U(n-1) e(1) +
 *           sum_m U(n-1-m) l(m), U(j) = sin((j+1) w) / sin w, |U(j)| <= j+1.
 *           The local error l(m) is coef's error (2 x 2^-52, times |x| <= 1:
 *           4u) plus the product's and the difference's roundings (results
 *           below 2: 1u each), 6u. For n <= 63: 62 x 99u + 63 x 106u +
 *           (63 x 62 / 2) x 6u = 24534u.
 *
 * 24534u = 2.72e-12 (the README's "1e-12" was measured, not derived). The
 * bound adds 2^-53, the rounding of y +- PE_FAST_BOUND in the kernels' test
 * (recur_scalar.c), and rounds up. tests/native/math/bounds.c restates it by
 * measurement. */
#define PE_FAST_BOUND (24600.0 * 0x1p-53)

struct pe_plan {
    uint32_t magic;
    uint32_t dim, half;
    pe_layout layout;
    double base;
    /* Per pair i < half, fixed by pe_plan_init. */
    double *w, *w_lo;                  /* w_i = w + w_lo (double-double), e.g. T^(-2i/d) */
    const double *cos_w, *sin_w;       /* rotation by w_i */
    const double *cos_jump, *sin_jump; /* rotation by PE_BLOCK_ROWS * w_i */
    /* Per column j < dim, in layout order. */
    const double *coef; /* 2 cos(w) of column j's pair */
    /* Running state. */
    double *block_sin, *block_cos; /* (sin, cos)(block_pos * w_i) */
    uint32_t block_pos;            /* UINT32_MAX: none yet */
    double *row0, *row1;           /* the recurrence: x(n), x(n+1) per column */
    uint32_t row_pos;              /* the position of row0: seek sets it, the recur kernels advance it */
    /* Relative error of w_i <= i * w_err_step (settle.c derives it; 0 for
     * given frequencies, which are exact). */
    double w_err_step;
    /* The 16-bit format float64 rows are settled for (table_dtype.c):
     * PE_DTYPE_FLOAT64 for none. RoPE sets it around its calls. */
    pe_dtype settle_for;
    float *tile;        /* tile_rows rows of PE, for the add */
    uint32_t tile_rows; /* a multiple of PE_ROW_GROUP */
};

/* The family's kernels (entries of common/kernel_table.h), each scalar and SIMD:
 *   anchor     block_sin/cos = (sin, cos)(a * w_i), |error| <= 2^-52 for a < 2^31
 *              (1.6 * 2^-53 measured);
 *   jump       block_sin/cos rotated by PE_BLOCK_ROWS * w_i;
 *   seed       row0, row1 = the rows at block_pos and block_pos + 1, in layout order;
 *              after pe_plan_seek, |error| <= 2^-48 for positions < 2^31
 *              (17 * 2^-53 measured: the anchor plus up to 16 rotations);
 *   jump_seed  jump then seed, in one pass over the pairs (the same operations);
 *   recur      advances the recurrence by `rows` rows, storing each row (the one
 *              in row0 before the step) at out + r * stride; out NULL stores nothing;
 *              each float32 is float(y), within half an ulp plus PE_FAST_BOUND;
 *   recur_checked  the same, but each float32 is the exact value rounded once
 *              (a float64 within PE_FAST_BOUND of a midpoint is settled by
 *              sinusoid/settle.h); under PE_ROUNDING_CORRECT the current
 *              table's `recur` is this kernel (common/kernel_table.c);
 *   add        x[k] = float(float(x[k] * scale) + pe[k]) for k < count. */

/* Rows of the add's tile for dim. */
uint32_t pe_tile_rows(uint32_t dim);
/* Bytes of a plan for dim, including 16 bytes of alignment slack. */
size_t pe_plan_bytes(uint32_t dim);
/* Lays a plan out in memory (aligned up to 16); then the caller fills
 * plan->w and pe_plan_finish derives the rest. Arguments already checked. */
pe_plan *pe_plan_layout(uint32_t dim, pe_layout layout, void *memory);
void pe_plan_finish(pe_plan *plan);
/* PE_OK when scratch is not NULL and holds pe_plan_bytes(dim) (plan_check.c). */
pe_status pe_check_scratch(const void *scratch, size_t scratch_bytes, uint32_t dim);
/* What pe_plan_init checks, in its order (the encoding, then the scratch):
 * a one-shot call runs this and its own argument checks before it builds its
 * plan in the scratch, so a refusal leaves the scratch as it was. */
pe_status pe_check_one_shot(const pe_sinusoid *enc, const void *scratch, size_t scratch_bytes);
/* A table's checks, shared by the plan calls and the one-shot ones: rows
 * offset .. offset + length - 1 below PE_MAX_POSITION and out of length * dim
 * values (out's element size does not enter); for a position list, positions
 * given, out of count * dim, each position below PE_MAX_POSITION. */
pe_status pe_check_table_rows(uint32_t dim, uint32_t offset, uint32_t length, const void *out, size_t out_count);
pe_status pe_check_table_at(uint32_t dim, const uint32_t *positions, size_t count, const void *out, size_t out_count);
/* PE_OK when plan is not NULL and was laid out by pe_plan_layout (its magic). */
pe_status pe_check_plan(const pe_plan *plan);
/* Relative error of w[i] + w_lo[i] <= 2^-88 (2^-90.4 measured); domain: a
 * checked encoding with 1 < base <= 1e7, dim <= PE_MAX_DIM. w_i = w[i] +
 * w_lo[i] (double-double) for i < dim/2; pe_encoding_frequencies gives the
 * doubles w[i] alone (each the double nearest w_i or next to it). */
void pe_encoding_frequencies_dd(const pe_sinusoid *enc, double *w, double *w_lo);
void pe_encoding_frequencies(const pe_sinusoid *enc, double *w);
/* The recurrence at the start of the block holding p0 (a multiple of
 * PE_BLOCK_ROWS), reusing the plan's running block state when it can. */
void pe_plan_seek(pe_plan *plan, const pe_kernel_table *k, uint32_t p0);

/* Positions offset .. offset + length - 1 (offset + length <= 2^31), block by
 * block: seeks each block, runs the recurrence up to the first row asked and
 * hands the block's rows to emit, which must advance the recurrence by `rows`
 * (storing them as it likes); done counts the rows emitted before. */
typedef void (*pe_emit_rows)(pe_plan *plan, uint32_t rows, uint32_t done, void *ctx);
void pe_plan_walk(pe_plan *plan, const pe_kernel_table *k, uint32_t offset, uint32_t length, pe_emit_rows emit,
                  void *ctx);

/* The scalar loops over pairs i0.. or columns j0.., shared as the SIMD
 * kernels' tails. */
void pe_anchor_pairs_scalar(pe_plan *plan, uint32_t a, uint32_t i0);
void pe_jump_pairs_scalar(pe_plan *plan, uint32_t i0);
void pe_seed_pairs_scalar(pe_plan *plan, uint32_t i0);
void pe_recur_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, float *out, size_t stride);
void pe_recur_checked_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, float *out, size_t stride);

/* The kernels' test: nonzero when a float32 rounding midpoint may lie within
 * PE_FAST_BOUND of float64 y, so that y may round otherwise than the exact
 * value: float(y + bound) != float(y - bound) (rounding is monotonic; the
 * bound includes the 2^-53 these sums may round by). Where it is zero, both
 * are the exact value's rounding; *stored gets float(y + bound). The SIMD
 * kernels do the same per lane. */
static inline int pe_near_midpoint_f32(double y, float *stored) {
    const float up = (float)(y + PE_FAST_BOUND), down = (float)(y - PE_FAST_BOUND);
    *stored = up;
    return up != down;
}

#endif
