/* Wasm exports of 2-D sin-cos tables (export.h states the conventions). */
#include "export.h"

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
