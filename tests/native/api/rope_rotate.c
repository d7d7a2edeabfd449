/* rope_rotate.c: the float32 rotation kernels, scalar and SIMD, against the
 * rotation written out here per element (each product and sum in float32,
 * rope_kernels.h's formula): both layouts, rotary dims around the SIMD steps
 * (4 pairs, 8 pairs, the whole-step loop of halves at multiples of 16) and
 * with tails, one vector and many, one shared row of cos/sin (the heads of a
 * token) and a row per vector; x's elements past rotary_dim and the guards
 * around x untouched. */
#include "../api_check.h"
#include "common/kernel_table.h"
#include "sinusoid/rope/rope_kernels.h"
#include "tests.h"

static const uint32_t ROTARY[] = {2, 4, 6, 8, 10, 14, 16, 18, 24, 32, 34, 48, 64, 128, 130, 256};
static const size_t COUNTS[] = {1, 2, 3, 32};
#define EXTRA 6u /* elements of each vector past rotary_dim, which no kernel may touch */

static int same_bits(float a, float b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Vector v rotated by the row c (S at c + pe_rope_cs_floats) as the kernels must. */
static void rotate_one(float *v, const float *c, uint32_t r, pe_layout layout) {
    const float *s = c + pe_rope_cs_floats(r, layout);
    if (layout == PE_LAYOUT_SPLIT) {
        for (uint32_t i = 0; i < r / 2; i++) {
            const float a = v[i], b = v[i + r / 2];
            v[i] = a * c[i] + b * s[i];
            v[i + r / 2] = b * c[i] - a * s[i];
        }
    } else {
        for (uint32_t j = 0; j < r; j += 2) {
            const float a = v[j], b = v[j + 1];
            v[j] = a * c[j] + b * s[j];
            v[j + 1] = b * c[j + 1] + a * s[j + 1];
        }
    }
}

static float random_unit(uint32_t *state) {
    return (float)((int32_t)(next_random(state) >> 8) - (1 << 23)) / (float)(1 << 23);
}

void test_rope_rotate_kernels(void) {
    uint32_t state = 0x726f7461u; /* "rota" */
    for (size_t d = 0; d < sizeof ROTARY / sizeof ROTARY[0]; d++) {
        const uint32_t r = ROTARY[d], stride = r + EXTRA;
        for (size_t n = 0; n < sizeof COUNTS / sizeof COUNTS[0]; n++) {
            const size_t count = COUNTS[n];
            for (int l = 0; l < 2; l++) {
                const pe_layout layout = l ? PE_LAYOUT_SPLIT : PE_LAYOUT_INTERLEAVED;
                const size_t row = 2 * (size_t)pe_rope_cs_floats(r, layout);
                for (int shared = 0; shared < 2; shared++) {
                    float *x = malloc(count * stride * sizeof(float)), *want = malloc(count * stride * sizeof(float));
                    float *cs = malloc(count * row * sizeof(float));
                    for (size_t k = 0; k < count * stride; k++) x[k] = 4.0f * random_unit(&state);
                    for (size_t k = 0; k < count * row; k++) cs[k] = random_unit(&state);
                    memcpy(want, x, count * stride * sizeof(float));
                    for (size_t k = 0; k < count; k++)
                        rotate_one(want + k * stride, cs + (shared ? 0 : k * row), r, layout);
                    for (int kernels = 0; kernels < 2; kernels++) {
                        EXPECT_STATUS(pe_use_kernels((pe_kernels)kernels), PE_OK, "kernels %d", kernels);
                        buffer got = buffer_new(count * stride);
                        memcpy(got.data, x, count * stride * sizeof(float));
                        pe_kernel_table_current()->rope_rotate(got.data, count, stride, cs, shared ? 0 : row, r,
                                                               layout);
                        size_t bad = 0, first_bad = 0;
                        for (size_t k = 0; k < count * stride; k++)
                            if (!same_bits(got.data[k], want[k]) && bad++ == 0) first_bad = k;
                        CHECK(bad == 0,
                              "%s kernels, r %u, %zu vectors, %s, %s row: %zu wrong, first at %zu: %.9g want %.9g",
                              kernels ? "SIMD" : "scalar", r, count, l ? "halves" : "adjacent",
                              shared ? "shared" : "own", bad, first_bad, (double)got.data[first_bad],
                              (double)want[first_bad]);
                        CHECK(guards_intact(&got), "guards, %s kernels, r %u, %zu vectors", kernels ? "SIMD" : "scalar",
                              r, count);
                        buffer_free(&got);
                    }
                    free(x);
                    free(want);
                    free(cs);
                }
            }
        }
    }
    EXPECT_STATUS(pe_use_kernels(PE_KERNELS_SIMD), PE_OK, "back to SIMD");
}
