/* Wasm exports of reduced precision and the naive recipes, on plans from
 * pe_wasm_plan_init (export.h states the conventions). */
#include "export.h"

EXPORT("pe_wasm_plan_table_dtype")
int pe_wasm_plan_table_dtype(pe_plan *plan, uint32_t dtype, uint32_t offset, uint32_t length, void *out,
                             size_t out_count) {
    return pe_plan_table_dtype(plan, (pe_dtype)dtype, offset, length, out, out_count);
}

EXPORT("pe_wasm_plan_table_at_dtype")
int pe_wasm_plan_table_at_dtype(pe_plan *plan, uint32_t dtype, const uint32_t *positions, size_t count, void *out,
                                size_t out_count) {
    return pe_plan_table_at_dtype(plan, (pe_dtype)dtype, positions, count, out, out_count);
}

/* out holds count elements of dtype. */
EXPORT("pe_wasm_narrow_f64")
int pe_wasm_narrow_f64(uint32_t dtype, const double *in, size_t count, void *out) {
    return pe_narrow_f64((pe_dtype)dtype, in, count, out, count);
}

EXPORT("pe_wasm_plan_recipe_table")
int pe_wasm_plan_recipe_table(pe_plan *plan, uint32_t recipe, uint32_t offset, uint32_t length, float *out,
                              size_t out_count) {
    return pe_plan_recipe_table(plan, (pe_recipe)recipe, offset, length, out, out_count);
}
