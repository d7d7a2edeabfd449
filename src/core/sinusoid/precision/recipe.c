/* What the common naive recipes compute, for comparison with the exact
 * tables (posenc.h, pe_recipe). Plain scalar C on every build: these are
 * models of other code, not a fast path, and every step is one IEEE rounding
 * (float32 casts, or the integer float16/bfloat16 rounding of narrow16). */
#include <float.h>

#include "common/check.h"
#include "math/sincos.h"
#include "sinusoid/precision/precision_kernels.h"

static double round_to(pe_recipe recipe, double x) {
    switch (recipe) {
    case PE_RECIPE_FLOAT16: return pe_widen_f16(pe_narrow_f16_one(x));
    case PE_RECIPE_BFLOAT16: return pe_widen_bf16(pe_narrow_bf16_one(x));
    default: return (double)(float)x;
    }
}

pe_status pe_plan_recipe_table(pe_plan *plan, pe_recipe recipe, uint32_t offset, uint32_t length, float *out,
                               size_t out_count) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK) return st;
    if ((unsigned)recipe > PE_RECIPE_BFLOAT16) return PE_ERR_RECIPE;
    if ((st = pe_check_table_rows(plan->dim, offset, length, out, out_count)) != PE_OK) return st;
    /* Angles stay below 2^32 (pe_sincos's range) when every w <= 1, as for
     * every pe_sinusoid encoding. */
    for (uint32_t i = 0; i < plan->half; i++)
        if (!(plan->w[i] <= 1.0)) return PE_ERR_FREQUENCY_VALUE;
    const uint32_t dim = plan->dim, half = plan->half;
    for (uint32_t i = 0; i < half; i++) {
        const double w = round_to(recipe, plan->w[i]);
        float *sin_col = out + (plan->layout == PE_LAYOUT_SPLIT ? i : 2 * i);
        float *cos_col = out + (plan->layout == PE_LAYOUT_SPLIT ? half + i : 2 * i + 1);
        for (uint32_t r = 0; r < length; r++) {
            const double position = round_to(recipe, (double)(offset + r));
            /* Both factors have at most 24 bits: the product is exact in
             * double, so this is one rounding, as the dtype's multiply. */
            const double angle = round_to(recipe, position * w);
            double s, c;
            if (angle <= DBL_MAX) {
                pe_sincos(angle, &s, &c);
                s = round_to(recipe, s);
                c = round_to(recipe, c);
            } else {
                s = c = angle - angle; /* an infinite position (float16 past 65519): NaN */
            }
            sin_col[(size_t)r * dim] = (float)s;
            cos_col[(size_t)r * dim] = (float)c;
        }
    }
    return PE_OK;
}

pe_status pe_recipe_table(const pe_sinusoid *enc, pe_recipe recipe, uint32_t offset, uint32_t length, float *out,
                          size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_check_one_shot(enc, scratch, scratch_bytes);
    if (st != PE_OK) return st;
    if ((unsigned)recipe > PE_RECIPE_BFLOAT16) return PE_ERR_RECIPE;
    /* Every pe_sinusoid frequency is <= 1, so the plan's own w check passes. */
    if ((st = pe_check_table_rows(enc->dim, offset, length, out, out_count)) != PE_OK) return st;
    if ((st = pe_plan_init(enc, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_plan_recipe_table(plan, recipe, offset, length, out, out_count);
}
