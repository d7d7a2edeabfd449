/* rope_lay_out.c: the kernel that lays [sin | cos] rows out as the rotation's
 * [C | S] rows (rope_kernels.h: halves keep C and S once, adjacent pairs on
 * every element), scalar and SIMD, against an oracle of its
 * own: each product formed in double (exact: two floats' product has at most
 * 48 significant bits) and rounded once to float, the sign applied after.
 * Both layouts, both directions, attention factors 1 and not, r from 2 to
 * 136 (whole SIMD steps and tails of 1 to 3 pairs), rows with their own
 * values; the output inside sentinel guards. */
#include "../api_check.h"
#include "common/kernel_table.h"
#include "sinusoid/rope/rope_kernels.h"
#include "tests.h"

static const uint32_t DIMS[] = {2, 4, 6, 8, 10, 14, 16, 18, 34, 128, 136};
static const float FACTORS[] = {1.0f, 0.70710677f, 1.3862944f};
#define ROWS 5

/* Row k of [C | S] as the oracle has it: halves C (r/2 floats) then S, each
 * pair once; adjacent pairs C (r floats) then S, each element. */
static void oracle_row(const float *raw, float *want, uint32_t r, pe_layout layout, float factor, int inverse) {
    const uint32_t half = r / 2;
    for (uint32_t i = 0; i < half; i++) {
        const float cv = (float)((double)raw[half + i] * (double)factor);
        const float sv = (float)((double)raw[i] * (double)factor);
        const float first = inverse ? sv : -sv;
        if (layout == PE_LAYOUT_SPLIT) {
            want[i] = cv;
            want[half + i] = first;
        } else {
            want[2 * i] = want[2 * i + 1] = cv;
            want[r + 2 * i] = first;
            want[r + 2 * i + 1] = inverse ? -sv : sv;
        }
    }
}

static int same_bits(float a, float b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

void test_rope_lay_out(void) {
    uint32_t state = 0x6c61796fu; /* "layo" */
    for (size_t d = 0; d < sizeof DIMS / sizeof DIMS[0]; d++) {
        const uint32_t r = DIMS[d];
        float raw[ROWS * 136], want[ROWS * 2 * 136];
        for (uint32_t k = 0; k < ROWS * r; k++) {
            /* sin and cos in [-1, 1], signed zeros among them */
            const uint32_t u = next_random(&state);
            raw[k] = u % 17 == 0 ? (u & 1 ? -0.0f : 0.0f) : (float)((int32_t)(u >> 8) - (1 << 23)) / (float)(1 << 23);
        }
        for (int kernels = 0; kernels < 2; kernels++) {
            EXPECT_STATUS(pe_use_kernels((pe_kernels)kernels), PE_OK, "kernels %d", kernels);
            for (int layout = 0; layout < 2; layout++) {
                for (int inverse = 0; inverse < 2; inverse++) {
                    for (size_t f = 0; f < sizeof FACTORS / sizeof FACTORS[0]; f++) {
                        const pe_layout lay = layout ? PE_LAYOUT_SPLIT : PE_LAYOUT_INTERLEAVED;
                        const uint32_t row = 2 * pe_rope_cs_floats(r, lay);
                        buffer out = buffer_new(ROWS * row);
                        pe_kernel_table_current()->rope_lay_out(raw, out.data, ROWS, r, lay, FACTORS[f], inverse);
                        size_t bad = 0, first_bad = 0;
                        for (uint32_t k = 0; k < ROWS; k++) {
                            oracle_row(raw + k * r, want + k * row, r, lay, FACTORS[f], inverse);
                            for (uint32_t j = 0; j < row; j++)
                                if (!same_bits(out.data[k * row + j], want[k * row + j]) && bad++ == 0)
                                    first_bad = k * row + j;
                        }
                        CHECK(bad == 0,
                              "%s kernels, r %u, %s, %s, factor %.9g: %zu wrong, first at %zu: %.9g want %.9g",
                              kernels ? "SIMD" : "scalar", r, layout ? "halves" : "adjacent",
                              inverse ? "inverse" : "forward", (double)FACTORS[f], bad, first_bad,
                              (double)out.data[first_bad], (double)want[first_bad]);
                        CHECK(guards_intact(&out), "guards, %s kernels, r %u", kernels ? "SIMD" : "scalar", r);
                        buffer_free(&out);
                    }
                }
            }
        }
    }
    EXPECT_STATUS(pe_use_kernels(PE_KERNELS_SIMD), PE_OK, "back to SIMD");
}
