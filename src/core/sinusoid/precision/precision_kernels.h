/* Internal: the kernels behind reduced-precision tables (dtype.c).
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
 * version with identical results, chosen with the plan kernels. */
#ifndef PE_PRECISION_KERNELS_H
#define PE_PRECISION_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

typedef struct pe_precision_kernels {
    /* As pe_kernel_set.recur with out != NULL, storing float64. */
    void (*recur_f64)(pe_plan *plan, uint32_t rows, double *out, size_t stride);
    void (*narrow_f16)(const double *in, uint16_t *out, size_t count);
    void (*narrow_bf16)(const double *in, uint16_t *out, size_t count);
} pe_precision_kernels;

/* The set matching pe_current_kernels(): scalar or SIMD. */
const pe_precision_kernels *pe_current_precision_kernels(void);

void pe_recur_f64_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, double *out, size_t stride);
void pe_narrow_f16_scalar(const double *in, uint16_t *out, size_t count);
void pe_narrow_bf16_scalar(const double *in, uint16_t *out, size_t count);
#if PE_HAVE_SIMD_BUILD
void pe_recur_f64_simd(pe_plan *plan, uint32_t rows, double *out, size_t stride);
void pe_narrow_f16_simd(const double *in, uint16_t *out, size_t count);
void pe_narrow_bf16_simd(const double *in, uint16_t *out, size_t count);
#endif

/* One value, scalar: the reference the kernels above loop over. */
uint16_t pe_narrow_f16_one(double x);
uint16_t pe_narrow_bf16_one(double x);
/* The exact value of a float16 / bfloat16 bit pattern. */
double pe_widen_f16(uint16_t h);
double pe_widen_bf16(uint16_t h);

#endif
