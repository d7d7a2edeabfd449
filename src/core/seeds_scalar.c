/* Block seeds, scalar reference: each column's exact value at rows p0 and
 * p0 + 1. Row p0 from pe_sincos; row p0 + 1 by one rotation by w_i. */
#include "f64math.h"
#include "kernels.h"

void pe_seeds_pairs_scalar(const pe_plan *plan, uint32_t p0, uint32_t i0) {
    const uint32_t half = plan->half;
    const int split = plan->layout == PE_LAYOUT_SPLIT;
    for (uint32_t i = i0; i < half; i++) {
        double s, c;
        pe_sincos((double)p0 * plan->w[i], &s, &c);
        double s1 = s * plan->cos_w[i] + c * plan->sin_w[i];
        double c1 = c * plan->cos_w[i] - s * plan->sin_w[i];
        uint32_t sin_col = split ? i : 2 * i;
        uint32_t cos_col = split ? half + i : 2 * i + 1;
        plan->row0[sin_col] = s;
        plan->row0[cos_col] = c;
        plan->row1[sin_col] = s1;
        plan->row1[cos_col] = c1;
    }
}
