/* The fill kernel of the relative family, scalar: the reference, and the
 * tail that finishes every SIMD fill (fill32_simd.c). */
#include "relative/relative_kernels.h"

void pe_fill32_scalar(uint32_t *out, size_t count, uint32_t bits) {
    for (size_t t = 0; t < count; t++) out[t] = bits;
}
