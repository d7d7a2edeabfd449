/* Internal: the kernels behind reduced-precision tables (table_dtype.c).
 *
 *   recur_f64   the Chebyshev recurrence of recur_scalar.c / recur_simd.c (the same code),
 *               same operations in the same order, storing the float64 rows
 *               (the very values the float32 path rounds) instead of floats;
 *   narrow      float64 -> float16 or bfloat16 bit patterns, each the nearest
 *               value, ties to even, rounded once from float64 (never through
 *               float32, which would round twice). Integer and bit operations
 *               only, so every build gives the same bits; subnormal results,
 *               signed zeros, overflow to infinity (at and above the midpoint
 *               past the largest finite value) and NaN (quiet, sign kept).
 *
 * Each has a scalar version (the reference, also the SIMD tails) and a SIMD
 * version with identical results: entries recur_f64, narrow_f16 and
 * narrow_bf16 of the kernel table (common/kernel_table.h). */
#ifndef PE_PRECISION_KERNELS_H
#define PE_PRECISION_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "sinusoid/plan.h"

/* The scalar loops from column j0, shared as the SIMD kernel's tail. */
void pe_recur_f64_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, double *out, size_t stride);

/* One value, scalar: the reference the kernels above loop over. */
uint16_t pe_narrow_f16_one(double x);
uint16_t pe_narrow_bf16_one(double x);
/* The exact value of a float16 / bfloat16 bit pattern. */
double pe_widen_f16(uint16_t h);
double pe_widen_bf16(uint16_t h);

#endif
