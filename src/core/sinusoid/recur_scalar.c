/* The Chebyshev recurrence, scalar reference: for each column
 * x(n+1) = coef * x(n) - x(n-1), stored as float32 (the tables) or float64
 * (the rows float16 and bfloat16 are rounded from). Rows go in passes of
 * PE_ROW_GROUP across all columns (the SIMD kernel's across bands of
 * PE_COLUMN_BAND columns); columns are independent, so the order does not
 * change the bits. A float32 whose float64
 * may lie within PE_FAST_BOUND of a midpoint is settled from its position
 * (sinusoid/settle.h), so every float32 is the exact value rounded once: a
 * column's run of rows that holds one is replayed after the run. */
#include "sinusoid/plan.h"
#include "sinusoid/precision/precision_kernels.h"
#include "sinusoid/settle.h"

/* STORE_F32 is the fast path (float(y), the default); STORE_F32_CHECKED the
 * correctly rounded one (pe_set_rounding(PE_ROUNDING_CORRECT)). */
typedef enum { STORE_NONE, STORE_F32, STORE_F32_CHECKED, STORE_F64 } store_kind;

/* Rows pos .. pos + g - 1 of column j again from x(n) = a, x(n+1) = b (the
 * same operations, so the same float64), settling each near-midpoint value.
 * Out of the hot loop: a call there slows every value, not only these. */
static __attribute__((noinline)) void settle_column(const pe_plan *plan, uint32_t j, uint32_t pos, uint32_t g, double a,
                                                    double b, float *out, size_t stride) {
    const double k = plan->coef[j];
    float v;
    for (uint32_t n = 0; n < g; n++) {
        if (pe_near_midpoint_f32(a, &v)) out[n * stride] = pe_settle_f32(plan, pos + n, j);
        double next = k * b - a;
        a = b;
        b = next;
    }
}

/* The one loop; kind is a constant in each caller, so each gets its own code. */
static inline __attribute__((always_inline)) void columns(pe_plan *plan, uint32_t j0, uint32_t rows, void *out,
                                                          size_t stride, store_kind kind) {
    const uint32_t dim = plan->dim;
    const double *coef = plan->coef;
    double *row0 = plan->row0, *row1 = plan->row1;
    for (uint32_t n0 = 0; n0 < rows; n0 += PE_ROW_GROUP) {
        const uint32_t g = rows - n0 < PE_ROW_GROUP ? rows - n0 : PE_ROW_GROUP;
        for (uint32_t j = j0; j < dim; j++) {
            double a = row0[j], b = row1[j]; /* x(n), x(n+1) */
            const double k = coef[j];
            size_t at = (size_t)n0 * stride + j;
            int flagged = 0;
            for (uint32_t n = 0; n < g; n++, at += stride) {
                if (kind == STORE_F32) ((float *)out)[at] = (float)a;
                if (kind == STORE_F32_CHECKED) {
                    float v;
                    flagged |= pe_near_midpoint_f32(a, &v);
                    ((float *)out)[at] = v;
                }
                if (kind == STORE_F64) ((double *)out)[at] = a;
                double next = k * b - a;
                a = b;
                b = next;
            }
            if (kind == STORE_F32_CHECKED && flagged)
                settle_column(plan, j, plan->row_pos + n0, g, row0[j], row1[j], (float *)out + (size_t)n0 * stride + j,
                              stride);
            row0[j] = a;
            row1[j] = b;
        }
    }
}

void pe_recur_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, float *out, size_t stride) {
    if (out)
        columns(plan, j0, rows, out, stride, STORE_F32);
    else
        columns(plan, j0, rows, NULL, 0, STORE_NONE);
}

void pe_recur_checked_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, float *out, size_t stride) {
    if (out)
        columns(plan, j0, rows, out, stride, STORE_F32_CHECKED);
    else
        columns(plan, j0, rows, NULL, 0, STORE_NONE);
}

void pe_recur_f64_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, double *out, size_t stride) {
    columns(plan, j0, rows, out, stride, STORE_F64);
}

/* The kernel table's scalar entries: every column; row0 moves on by rows. */
void pe_recur_scalar(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    pe_recur_columns_scalar(plan, 0, rows, out, stride);
    plan->row_pos += rows;
}

void pe_recur_checked_scalar(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    pe_recur_checked_columns_scalar(plan, 0, rows, out, stride);
    plan->row_pos += rows;
}

void pe_recur_f64_scalar(pe_plan *plan, uint32_t rows, double *out, size_t stride) {
    pe_recur_f64_columns_scalar(plan, 0, rows, out, stride);
    plan->row_pos += rows;
}
