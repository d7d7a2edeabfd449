/* recipe.c: the naive recipes (pe_recipe_table, pe_plan_recipe_table). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halves.h"
#include "reference.h"
#include "support.h"
#include "tests.h"

void test_recipe_refusals(void) {
    enum { LEN = 5, N = LEN * 8 };
    const size_t need = table_scratch(8);
    void *sc = scratch_of(need);
    unsigned char *memory = scratch_of(need);
    buffer out = buffer_new(N);
    float *o = out.data;
    const uint32_t max = PE_MAX_POSITION;
    pe_sinusoid bad = enc8;
    bad.base = NAN;

    REFUSED(&out, pe_recipe_table(NULL, PE_RECIPE_FLOAT16, 0, LEN, o, N, sc, need), PE_ERR_NULL, "recipe NULL enc");
    REFUSED(&out, pe_recipe_table(&bad, PE_RECIPE_FLOAT16, 0, LEN, o, N, sc, need), PE_ERR_BASE, "recipe base NaN");
    REFUSED(&out, pe_recipe_table(&enc8, PE_RECIPE_FLOAT16, 0, LEN, o, N, NULL, need), PE_ERR_NULL,
            "recipe NULL scratch");
    REFUSED(&out, pe_recipe_table(&enc8, PE_RECIPE_FLOAT16, 0, LEN, o, N, sc, need - 1), PE_ERR_SCRATCH,
            "recipe scratch - 1");
    REFUSED(&out, pe_recipe_table(&enc8, (pe_recipe)3, 0, LEN, o, N, sc, need), PE_ERR_RECIPE, "recipe 3");
    REFUSED(&out, pe_recipe_table(&enc8, (pe_recipe)0xFFFFFFFFu, 0, LEN, o, N, sc, need), PE_ERR_RECIPE,
            "recipe 0xFFFFFFFF");
    for (int rc = 0; rc < 3; rc++) {
        const pe_recipe recipe = (pe_recipe)rc;
        REFUSED(&out, pe_recipe_table(&enc8, recipe, max - LEN + 1, LEN, o, N, sc, need), PE_ERR_POSITION,
                "recipe %d offset+length 2^31+1", rc);
        REFUSED(&out, pe_recipe_table(&enc8, recipe, 0xFFFFFFFFu, LEN, o, N, sc, need), PE_ERR_POSITION,
                "recipe %d offset+length wraps", rc);
        REFUSED(&out, pe_recipe_table(&enc8, recipe, 0, LEN, o, N - 1, sc, need), PE_ERR_OUT_SIZE,
                "recipe %d out_count - 1", rc);
        REFUSED(&out, pe_recipe_table(&enc8, recipe, 0, LEN, o, N + 1, sc, need), PE_ERR_OUT_SIZE,
                "recipe %d out_count + 1", rc);
        REFUSED(&out, pe_recipe_table(&enc8, recipe, 0, LEN, NULL, N, sc, need), PE_ERR_NULL, "recipe %d NULL out", rc);
    }

    memset(memory, 0x5A, need);
    REFUSED(&out, pe_plan_recipe_table(NULL, PE_RECIPE_FLOAT32_ANGLE, 0, LEN, o, N), PE_ERR_NULL,
            "plan recipe NULL plan");
    REFUSED(&out, pe_plan_recipe_table((pe_plan *)(void *)memory, PE_RECIPE_FLOAT32_ANGLE, 0, LEN, o, N), PE_ERR_PLAN,
            "plan recipe garbage plan");
    /* A frequency above 1 has no recipe (its angles would leave sin's range);
     * exactly 1 is the paper's first pair. */
    pe_plan *plan = NULL;
    const double too_fast[4] = {1.0, 0.5, 1.0 + 0x1p-52, 0.0}, fastest[4] = {1.0, 1.0, 0.25, 0.0};
    EXPECT_STATUS(pe_plan_init_frequencies(8, PE_LAYOUT_INTERLEAVED, too_fast, memory, need, &plan), PE_OK,
                  "plan, w 1+2^-52");
    REFUSED(&out, pe_plan_recipe_table(plan, PE_RECIPE_FLOAT32_ANGLE, 0, LEN, o, N), PE_ERR_FREQUENCY_VALUE,
            "plan recipe, a frequency above 1");
    REFUSED(&out, pe_plan_recipe_table(plan, (pe_recipe)3, 0, LEN, o, N), PE_ERR_RECIPE, "plan recipe 3");
    /* A given frequency must be finite and >= 0 (-0 is 0). */
    const double bad_w[4][4] = {
        {1.0, NAN, 0.5, 0.25}, {1.0, -0x1p-1074, 0.5, 0.25}, {INFINITY, 0.5, 0.25, 0.1}, {1.0, 0.5, 0.25, -1.0}};
    for (int k = 0; k < 4; k++)
        EXPECT_STATUS(pe_plan_init_frequencies(8, PE_LAYOUT_INTERLEAVED, bad_w[k], memory, need, &plan),
                      PE_ERR_FREQUENCY_VALUE, "plan, bad frequency list %d", k);
    const double zero_w[4] = {-0.0, 0.0, 0.0, 0.0};
    EXPECT_STATUS(pe_plan_init_frequencies(8, PE_LAYOUT_INTERLEAVED, zero_w, memory, need, &plan), PE_OK, "plan, w -0");
    EXPECT_STATUS(pe_plan_init_frequencies(8, PE_LAYOUT_INTERLEAVED, fastest, memory, need, &plan), PE_OK, "plan, w 1");
    EXPECT_STATUS(pe_plan_recipe_table(plan, PE_RECIPE_FLOAT32_ANGLE, 0, LEN, o, N), PE_OK,
                  "plan recipe, frequencies <= 1");
    CHECK(o[8 * 3 + 6] == 0.0f && o[8 * 3 + 7] == 1.0f, "w = 0 gives sin %g cos %g, want 0 and 1", o[8 * 3 + 6],
          o[8 * 3 + 7]);
    EXPECT_STATUS(pe_plan_recipe_table(plan, PE_RECIPE_BFLOAT16, max, 0, NULL, 0), PE_OK,
                  "plan recipe length 0 at 2^31");
    CHECK(guards_intact(&out), "a guard changed");
    free(sc);
    free(memory);
    buffer_free(&out);
}

/* The recipe, step by step as the header writes it, with the test's own
 * roundings: position, inv_freq and angle each rounded to the dtype, sin and
 * cos of the rounded angle (long double here), rounded to the dtype. */
static float recipe_round(pe_recipe recipe, long double x) {
    if (recipe == PE_RECIPE_FLOAT32_ANGLE) return (float)x;
    const half_format *fmt = recipe == PE_RECIPE_FLOAT16 ? &F16 : &BF16;
    const uint16_t h = round_half((double)x, fmt);
    if ((h & fmt->inf) == fmt->inf) return (h & 0x8000) ? -INFINITY : INFINITY;
    return (float)widen_half(h, fmt);
}

static size_t recipe_mismatches(pe_recipe recipe, const pe_sinusoid *enc, uint32_t offset, uint32_t length,
                                const float *out) {
    const uint32_t d = enc->dim, half = d / 2;
    size_t wrong = 0;
    for (uint32_t i = 0; i < half; i++) {
        const float inv_freq = recipe_round(recipe, ref_frequency(enc->base, i, half));
        for (uint32_t r = 0; r < length; r++) {
            const float position = recipe_round(recipe, (long double)offset + r);
            /* Both have at most 24 bits: the long double product is exact. */
            const float angle = recipe_round(recipe, (long double)position * inv_freq);
            float s = NAN, c = NAN;
            if (angle <= FLT_MAX) s = recipe_round(recipe, ref_sin(angle)), c = recipe_round(recipe, ref_cos(angle));
            const uint32_t sin_col = enc->layout == PE_LAYOUT_SPLIT ? i : 2 * i;
            const uint32_t cos_col = enc->layout == PE_LAYOUT_SPLIT ? half + i : 2 * i + 1;
            const float gs = out[(size_t)r * d + sin_col], gc = out[(size_t)r * d + cos_col];
            const int ok = (isnan(s) ? isnan(gs) && isnan(gc)
                                     : float_bits(gs) == float_bits(s) && float_bits(gc) == float_bits(c));
            if (!ok && !wrong)
                fprintf(stderr, "recipe %d position %u pair %u: sin %a cos %a, want %a %a\n", (int)recipe, offset + r,
                        i, gs, gc, s, c);
            wrong += !ok;
        }
    }
    return wrong;
}

void test_recipe_values(void) {
    const struct {
        pe_recipe recipe;
        uint32_t offset, length;
        const char *what;
    } cases[] = {
        {PE_RECIPE_FLOAT32_ANGLE, 0, 70, "float32, rows 0..69"},
        {PE_RECIPE_FLOAT32_ANGLE, 1000000, 8, "float32 near 10^6"},
        {PE_RECIPE_FLOAT16, 0, 70, "float16, rows 0..69"},
        {PE_RECIPE_FLOAT16, 2040, 20, "float16 where positions step by 2"},
        {PE_RECIPE_FLOAT16, 65514, 8, "float16 across the overflow at 65520"},
        {PE_RECIPE_BFLOAT16, 0, 70, "bfloat16, rows 0..69"},
        {PE_RECIPE_BFLOAT16, 1000000, 8, "bfloat16 near 10^6"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int layout = 0; layout < 2; layout++) {
            const pe_sinusoid enc = {8, 10000.0, (pe_layout)layout, PE_FREQ_PAPER};
            const size_t n = (size_t)cases[c].length * 8, need = table_scratch(8);
            void *sc = scratch_of(need);
            buffer out = buffer_new(n);
            EXPECT_STATUS(
                pe_recipe_table(&enc, cases[c].recipe, cases[c].offset, cases[c].length, out.data, n, sc, need), PE_OK,
                "recipe %s", cases[c].what);
            CHECK(recipe_mismatches(cases[c].recipe, &enc, cases[c].offset, cases[c].length, out.data) == 0,
                  "recipe %s (layout %d): values differ from the recipe's steps", cases[c].what, layout);
            CHECK(guards_intact(&out), "a guard changed");
            free(sc);
            buffer_free(&out);
        }

    /* Rows 65514..65519 are finite (their position rounds to 65504), rows
     * 65520 and 65521 are NaN: their float16 position is infinite. */
    const size_t need = table_scratch(8);
    void *sc = scratch_of(need);
    float rows[8 * 8];
    EXPECT_STATUS(pe_recipe_table(&enc8, PE_RECIPE_FLOAT16, 65514, 8, rows, 64, sc, need), PE_OK,
                  "float16 recipe at 65514");
    size_t finite = 0, nan = 0;
    for (int k = 0; k < 48; k++) finite += !isnan(rows[k]);
    for (int k = 48; k < 64; k++) nan += isnan(rows[k]) != 0;
    CHECK(finite == 48 && nan == 16, "float16 recipe: %zu of 48 finite, %zu of 16 NaN", finite, nan);

    /* At small positions the float32 recipe stays close to the exact table:
     * the angle rounds by under 2^-20 below 16, inv_freq by 2^-25 relative,
     * the value by 2^-25. */
    float naive[16 * 8], exact[16 * 8];
    EXPECT_STATUS(pe_recipe_table(&enc8, PE_RECIPE_FLOAT32_ANGLE, 0, 16, naive, 128, sc, need), PE_OK,
                  "float32 recipe");
    EXPECT_STATUS(pe_table(&enc8, 0, 16, exact, 128, sc, need), PE_OK, "table");
    float worst = 0.0f;
    for (int k = 0; k < 128; k++) worst = fabsf(naive[k] - exact[k]) > worst ? fabsf(naive[k] - exact[k]) : worst;
    CHECK(worst <= 2e-6f, "float32 recipe at positions 0..15 is %g from the exact table", worst);
    CHECK(worst > 0.0f, "float32 recipe equals the exact table: it models nothing");
    free(sc);
}
