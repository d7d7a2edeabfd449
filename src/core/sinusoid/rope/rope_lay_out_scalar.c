/* RoPE's lay-out of cos/sin rows for the rotation, scalar reference: per
 * pair one float32 product for C, two for S (sin * factor, then the sign),
 * and for adjacent pairs S's negation for the pair's second element
 * (rope_kernels.h: halves keep each once). One loop per layout, the test
 * outside it: the scalar build runs this every tile. */
#include "sinusoid/rope/rope_kernels.h"

void pe_rope_lay_out_row_scalar(const float *raw, float *cs, uint32_t r, pe_layout layout, float factor, int inverse,
                                uint32_t i0) {
    const uint32_t half = r / 2;
    const float first_sign = inverse ? 1.0f : -1.0f; /* S of x1: x1' = x1 cos - x2 sin */
    const float *sin_row = raw, *cos_row = raw + half;
    float *c = cs, *s = cs + pe_rope_cs_floats(r, layout);
    if (layout == PE_LAYOUT_SPLIT) {
        for (uint32_t i = i0; i < half; i++) {
            c[i] = cos_row[i] * factor;
            s[i] = first_sign * sin_row[i] * factor;
        }
    } else {
        for (uint32_t i = i0; i < half; i++) {
            const float cv = cos_row[i] * factor, first = first_sign * sin_row[i] * factor;
            c[2 * i] = cv;
            c[2 * i + 1] = cv;
            s[2 * i] = first;
            s[2 * i + 1] = -first;
        }
    }
}

void pe_rope_lay_out_scalar(const float *raw, float *cs, uint32_t rows, uint32_t r, pe_layout layout, float factor,
                            int inverse) {
    const size_t row = (size_t)2 * pe_rope_cs_floats(r, layout);
    for (uint32_t k = 0; k < rows; k++)
        pe_rope_lay_out_row_scalar(raw + (size_t)k * r, cs + k * row, r, layout, factor, inverse, 0);
}
