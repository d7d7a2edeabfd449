/* The add, scalar reference: two float32 roundings, multiply then add
 * (-ffp-contract=off keeps them from fusing). */
#include "sinusoid/plan.h"

void pe_add_scalar(float *x, const float *pe, size_t count, float scale) {
    for (size_t k = 0; k < count; k++) x[k] = x[k] * scale + pe[k];
}
