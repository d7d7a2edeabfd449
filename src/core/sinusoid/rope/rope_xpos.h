/* Internal: xPos's per-pair scales (posenc.h, pe_xpos), for the RoPE plan.
 *
 * The plan keeps lz_i = ln(zeta_i) / scale_base (r/2 doubles); a row's scale
 * of pair i is exp((p - center) * lz_i), negated exponent for keys. All in
 * double with the core's pe_log and pe_exp_nonpositive (no libm), so every
 * build gives the same bits. */
#ifndef PE_ROPE_XPOS_H
#define PE_ROPE_XPOS_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

/* Nonzero when xPos is asked for (scale_base != 0). */
static inline int pe_xpos_on(const pe_xpos *x) {
    return x->scale_base != 0.0;
}

/* PE_ERR_XPOS unless scale_base is 0 (off), or finite and >= 1e-6 with gamma in
 * [1e-6, 1e6], center < PE_MAX_POSITION and scaling NONE. */
pe_status pe_xpos_check(const pe_xpos *x, pe_rope_scaling_type scaling);

/* lz[i] = ln(zeta_i) / scale_base for i < half (r = 2 * half), <= 0. */
void pe_xpos_log_zeta(const pe_xpos *x, uint32_t half, double *lz);

/* The largest |p - center| accepted: floor(64 ln 2 / -lz[0]), where the
 * steepest scale (pair 0) reaches 2^64 (PE_MAX_POSITION when lz[0] = 0). */
uint32_t pe_xpos_reach(const double *lz);

/* PE_OK when |p - center| <= reach, else PE_ERR_XPOS_RANGE. */
pe_status pe_xpos_check_position(const pe_xpos *x, uint32_t reach, uint32_t p);

/* scale[i] (double) of position p for i < half: the role's exponent sign. */
void pe_xpos_scales(const pe_xpos *x, const double *lz, uint32_t half, uint32_t p, double *scale);

/* g float32 rows of pe_rope_cs_floats(r, layout) scales each, laid out like
 * the [C | S] rows' C (pair i's scale once for halves, on both elements for
 * adjacent pairs), for the positions first + k (positions NULL) or
 * positions[k]: the rows the xpos_scale kernel multiplies [C | S] rows by.
 * work holds half doubles. */
void pe_xpos_rows(const pe_xpos *x, const double *lz, uint32_t r, pe_layout layout, uint32_t first,
                  const uint32_t *positions, uint32_t g, float *rows, double *work);

/* pe_rope_xpos_scale_scalar/_simd (common/kernel_table.h): cs holds count
 * [C | S] rows of 2r floats (rope_kernels.h: r is pe_rope_cs_floats of the
 * rotary dimension and layout), scale count rows of r floats;
 * C[j] and S[j] of row k are each multiplied by scale[k][j] (float32
 * products). The scalar loop from element j0 of one row is the SIMD tail. */
void pe_rope_xpos_scale_row_scalar(float *cs, const float *scale, uint32_t r, uint32_t j0);

#endif
