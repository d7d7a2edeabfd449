/* The ramp kernel of the relative family, scalar: the reference, and the
 * tail that finishes every SIMD ramp (ramp_i32_simd.c). */
#include "relative/relative_kernels.h"

void pe_ramp_i32_scalar(int32_t *out, size_t count, int32_t start, int32_t step) {
    uint32_t v = (uint32_t)start; /* unsigned: the step after the last value may leave int32 */
    for (size_t t = 0; t < count; t++) {
        out[t] = (int32_t)v;
        v += (uint32_t)step;
    }
}
