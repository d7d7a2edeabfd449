/* RoPE's rotation, scalar reference: per element one float32 product each
 * and one sum (-ffp-contract=off keeps them from fusing). */
#include "sinusoid/rope/rope_kernels.h"

/* Halves' rows hold C and S once for both halves (rope_kernels.h): x2's C
 * is x1's and its S the opposite, and x2 c + x1 (-s) is exactly x2 c - x1 s. */
void pe_rope_halves_scalar(float *v, const float *c, const float *s, uint32_t half, uint32_t i0) {
    for (uint32_t i = i0; i < half; i++) {
        float a = v[i], b = v[i + half];
        v[i] = a * c[i] + b * s[i];
        v[i + half] = b * c[i] - a * s[i];
    }
}

void pe_rope_adjacent_scalar(float *v, const float *c, const float *s, uint32_t rotary_dim, uint32_t j0) {
    for (uint32_t j = j0; j < rotary_dim; j += 2) {
        float a = v[j], b = v[j + 1];
        v[j] = a * c[j] + b * s[j];
        v[j + 1] = b * c[j + 1] + a * s[j + 1];
    }
}

void pe_rope_rotate_scalar(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                           uint32_t rotary_dim, pe_layout layout) {
    for (size_t k = 0; k < count; k++) {
        float *v = x + k * stride;
        const float *c = cs + k * cs_stride, *s = c + pe_rope_cs_floats(rotary_dim, layout);
        if (layout == PE_LAYOUT_SPLIT)
            pe_rope_halves_scalar(v, c, s, rotary_dim / 2, 0);
        else
            pe_rope_adjacent_scalar(v, c, s, rotary_dim, 0);
    }
}
