/* The ALiBi row in float32, scalar reference (and the SIMD kernel's head and tail). */
#include "alibi/alibi_kernels.h"

void pe_alibi_row_scalar(float *out, size_t count, float slope, float d0) {
    for (size_t t = 0; t < count; t++) {
        const float d = d0 + (float)t; /* exact: |d| < 2^24 */
        out[t] = 0.0f - slope * (d < 0.0f ? -d : d);
    }
}
