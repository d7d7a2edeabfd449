/* The ALiBi ramp, scalar reference (and the SIMD kernel's tail). */
#include "alibi/alibi_kernels.h"

void pe_alibi_ramp_scalar(float *out, size_t count, double slope, double d0, double step) {
    double d = d0;
    for (size_t t = 0; t < count; t++) {
        out[t] = (float)(0.0 - slope * d);
        d += step;
    }
}
