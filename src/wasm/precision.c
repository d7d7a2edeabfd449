/* Wasm exports of reduced precision, the naive recipes and 2-D tables, flat
 * arguments as in exports.c. Plans come from pe_wasm_plan_init. Sizes,
 * offsets and counts arrive as i32 and are read as unsigned. */
#include "../core/posenc.h"

#define EXPORT(name) __attribute__((export_name(name)))

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

EXPORT("pe_wasm_narrow_f64")
int pe_wasm_narrow_f64(const double *in, size_t count, uint32_t dtype, void *out) {
    return pe_narrow_f64(in, count, (pe_dtype)dtype, out);
}

EXPORT("pe_wasm_plan_recipe_table")
int pe_wasm_plan_recipe_table(pe_plan *plan, uint32_t recipe, uint32_t offset, uint32_t length, float *out,
                              size_t out_count) {
    return pe_plan_recipe_table(plan, (pe_recipe)recipe, offset, length, out, out_count);
}

/* Returns 0 when the grid is refused (pe_wasm_table_2d then says why). */
EXPORT("pe_wasm_table_2d_scratch_size")
size_t pe_wasm_table_2d_scratch_size(uint32_t height, uint32_t width, uint32_t dim, double base, int cls_token) {
    pe_grid2d grid = {height, width, dim, base, cls_token};
    size_t bytes = 0;
    return pe_table_2d_scratch_size(&grid, &bytes) == PE_OK ? bytes : 0;
}

EXPORT("pe_wasm_table_2d")
int pe_wasm_table_2d(uint32_t height, uint32_t width, uint32_t dim, double base, int cls_token, float *out,
                     size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_grid2d grid = {height, width, dim, base, cls_token};
    return pe_table_2d(&grid, out, out_count, scratch, scratch_bytes);
}
