/* Internal: the kernel set and the scratch layout shared by table.c and add.c.
 *
 * How a table is made. Positions are cut into blocks of PE_BLOCK_ROWS rows that
 * start at multiples of PE_BLOCK_ROWS (absolute, not relative to the call), so
 * a value depends only on its position. For each block, seeds gives every
 * column's exact value at the block's first two rows; recur then runs the
 * Chebyshev recurrence x(n+1) = 2cos(w) x(n) - x(n-1) in float64 down the
 * block and stores float32. Within 64 steps the recurrence adds under 1e-12,
 * far below float32's half ulp. Every kernel has a scalar version (the
 * reference) and a SIMD version with the same operations in the same order. */
#ifndef PE_KERNELS_H
#define PE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

#if defined(__wasm_simd128__) || defined(PE_NATIVE_SIMD)
#define PE_HAVE_SIMD_BUILD 1
#else
#define PE_HAVE_SIMD_BUILD 0
#endif

#define PE_BLOCK_ROWS 64u

/* Per-call constants, built once by pe_prepare. Column arrays are in layout
 * order: column j of the output row. */
typedef struct pe_plan {
    uint32_t dim, half;
    pe_layout layout;
    const double *w;        /* [half] w_i = T^(-2i/d) */
    const double *cos_w;    /* [half] */
    const double *sin_w;    /* [half] */
    const double *coef;     /* [dim] 2 cos(w) of column j's pair */
    double *row0, *row1;    /* [dim] seeds: the block's first two rows */
    float *tile;            /* [PE_BLOCK_ROWS * dim] one block of PE, for the add */
} pe_plan;

typedef struct pe_kernel_set {
    /* row0/row1 = PE(p0), PE(p0 + 1) for every column. */
    void (*seeds)(const pe_plan *plan, uint32_t p0);
    /* Rows first..last-1 of the block seeded in plan->row0/row1 into out,
     * row r of the block at out + (r - first) * stride. May clobber row0/row1. */
    void (*recur)(const pe_plan *plan, uint32_t first, uint32_t last, float *out, size_t stride);
    /* x[k] = float(float(x[k] * scale) + pe[k]) for k < count. */
    void (*add)(float *x, const float *pe, size_t count, float scale);
} pe_kernel_set;

extern const pe_kernel_set pe_kernels_scalar;
#if PE_HAVE_SIMD_BUILD
extern const pe_kernel_set pe_kernels_simd;
#endif
const pe_kernel_set *pe_current_kernels(void);

/* Scratch bytes for dim, and pe_plan laid out inside scratch (16-aligned). */
size_t pe_plan_bytes(uint32_t dim);
void pe_prepare(pe_plan *plan, const pe_sinusoid *enc, void *scratch);

/* The scalar column loops, shared as the SIMD kernels' tails. */
void pe_seeds_pairs_scalar(const pe_plan *plan, uint32_t p0, uint32_t i0);
void pe_recur_columns_scalar(const pe_plan *plan, uint32_t j0, uint32_t first, uint32_t last,
                             float *out, size_t stride);
void pe_add_scalar(float *x, const float *pe, size_t count, float scale);

#endif
