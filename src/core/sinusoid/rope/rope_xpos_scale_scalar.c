/* xPos's scaling of laid-out cos/sin rows, scalar reference: one float32
 * product per element, C and S alike (torchscale's cos * scale, sin * scale). */
#include "common/kernel_table.h"
#include "sinusoid/rope/rope_xpos.h"

void pe_rope_xpos_scale_row_scalar(float *cs, const float *scale, uint32_t r, uint32_t j0) {
    for (uint32_t j = j0; j < r; j++) {
        cs[j] = cs[j] * scale[j];
        cs[r + j] = cs[r + j] * scale[j];
    }
}

void pe_rope_xpos_scale_scalar(float *cs, const float *scale, size_t count, uint32_t r) {
    for (size_t k = 0; k < count; k++) pe_rope_xpos_scale_row_scalar(cs + k * 2 * r, scale + k * r, r, 0);
}
