/* The Chebyshev recurrence, scalar reference: for each column
 * x(n+1) = coef * x(n) - x(n-1), stored as float32. Rows go in passes of
 * PE_ROW_GROUP across all columns, as the SIMD kernel does; columns are
 * independent, so the order does not change the bits. */
#include "kernels.h"

void pe_recur_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, float *out, size_t stride) {
    const uint32_t dim = plan->dim;
    const double *coef = plan->coef;
    double *row0 = plan->row0, *row1 = plan->row1;
    for (uint32_t n0 = 0; n0 < rows; n0 += PE_ROW_GROUP) {
        const uint32_t g = rows - n0 < PE_ROW_GROUP ? rows - n0 : PE_ROW_GROUP;
        for (uint32_t j = j0; j < dim; j++) {
            double a = row0[j], b = row1[j]; /* x(n), x(n+1) */
            const double k = coef[j];
            if (out) {
                float *o = out + (size_t)n0 * stride + j;
                for (uint32_t n = 0; n < g; n++, o += stride) {
                    *o = (float)a;
                    double next = k * b - a;
                    a = b;
                    b = next;
                }
            } else {
                for (uint32_t n = 0; n < g; n++) {
                    double next = k * b - a;
                    a = b;
                    b = next;
                }
            }
            row0[j] = a;
            row1[j] = b;
        }
    }
}
