/* The Chebyshev recurrence storing float64, scalar reference: recur_scalar.c
 * line for line, with the store kept in double. */
#include "precision_kernels.h"

void pe_recur_f64_columns_scalar(pe_plan *plan, uint32_t j0, uint32_t rows, double *out, size_t stride) {
    const uint32_t dim = plan->dim;
    const double *coef = plan->coef;
    double *row0 = plan->row0, *row1 = plan->row1;
    for (uint32_t n0 = 0; n0 < rows; n0 += PE_ROW_GROUP) {
        const uint32_t g = rows - n0 < PE_ROW_GROUP ? rows - n0 : PE_ROW_GROUP;
        for (uint32_t j = j0; j < dim; j++) {
            double a = row0[j], b = row1[j]; /* x(n), x(n+1) */
            const double k = coef[j];
            double *o = out + (size_t)n0 * stride + j;
            for (uint32_t n = 0; n < g; n++, o += stride) {
                *o = a;
                double next = k * b - a;
                a = b;
                b = next;
            }
            row0[j] = a;
            row1[j] = b;
        }
    }
}
