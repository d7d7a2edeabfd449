/* The ALiBi rows in float32, scalar reference (and the SIMD kernel's heads and tails).
 * 0 - slope * |d| as -slope * |d|, the same float but at d = 0 (-0 for +0),
 * so the query's own key is set after: one operation a key fewer (issue 29). */
#include "alibi/alibi_kernels.h"

void pe_alibi_rows_scalar(float *out, size_t rows, size_t count, size_t stride, float slope, float d0) {
    for (size_t i = 0; i < rows; i++) {
        float *row = out + i * stride;
        const float first = d0 - (float)i; /* exact: whole numbers below 2^24 */
        for (size_t t = 0; t < count; t++) {
            const float d = first + (float)t;      /* exact too */
            row[t] = -slope * (d < 0.0f ? -d : d); /* -0 at d = 0, set to +0 below */
        }
        if (first <= 0.0f && -first < (float)count) row[(size_t)-first] = 0.0f;
    }
}
