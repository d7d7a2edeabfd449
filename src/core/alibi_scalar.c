/* The ALiBi ramp and row copy, scalar reference (and the SIMD kernels' tails). */
#include "alibi_kernels.h"

void pe_alibi_ramp_scalar(float *out, size_t count, double slope, double d0, double step) {
    double d = d0;
    for (size_t t = 0; t < count; t++) {
        out[t] = (float)(0.0 - slope * d);
        d += step;
    }
}

void pe_alibi_copy_scalar(float *dst, const float *src, size_t count) {
    for (size_t t = 0; t < count; t++) dst[t] = src[t];
}
