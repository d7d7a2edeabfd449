/* The Chebyshev recurrence down one block, scalar reference: for each column
 * x(n+1) = coef * x(n) - x(n-1), stored as float32 from row `first` on.
 * Columns are independent, so any column order gives the same bits. */
#include "kernels.h"

void pe_recur_columns_scalar(const pe_plan *plan, uint32_t j0, uint32_t first, uint32_t last,
                             float *out, size_t stride) {
    const double *coef = plan->coef;
    double *a = plan->row0, *b = plan->row1; /* x(n), x(n+1) */
    const uint32_t dim = plan->dim;
    for (uint32_t n = 0; n < last; n++) {
        if (n >= first) {
            float *o = out + (size_t)(n - first) * stride;
            for (uint32_t j = j0; j < dim; j++) o[j] = (float)a[j];
        }
        for (uint32_t j = j0; j < dim; j++) a[j] = coef[j] * b[j] - a[j]; /* now x(n+2) */
        double *t = a;
        a = b;
        b = t;
    }
}
