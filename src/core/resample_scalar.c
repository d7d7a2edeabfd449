/* Linear interpolation between two rows, scalar reference (and the SIMD
 * kernel's tail): b - a is exact in double, then t*(b - a) and the sum round
 * once each, and the float32 store rounds last. */
#include "resample_kernels.h"

void pe_lerp_rows_scalar(float *out, const float *a, const float *b, double t, size_t count) {
    for (size_t j = 0; j < count; j++) {
        double x = a[j], y = b[j];
        out[j] = (float)(x + t * (y - x));
    }
}
