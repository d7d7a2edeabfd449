/* The ALiBi row copy, scalar reference (and the SIMD kernel's tail). */
#include "alibi/alibi_kernels.h"

void pe_alibi_copy_scalar(float *dst, const float *src, size_t count) {
    for (size_t t = 0; t < count; t++) dst[t] = src[t];
}
