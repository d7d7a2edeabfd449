/* Linear interpolation between two rows, scalar reference (and the SIMD
 * kernel's tail): both products and the sum round once each in double, and
 * the float32 store rounds last. */
#include "learned/resample_kernels.h"

void pe_lerp_rows_scalar(float *out, const float *a, const float *b, double w0, double w1, size_t count) {
    for (size_t j = 0; j < count; j++) out[j] = (float)(w0 * (double)a[j] + w1 * (double)b[j]);
}
