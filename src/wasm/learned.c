/* Wasm exports of learned tables: the embedding add and resampling
 * (export.h states the conventions). */
#include "export.h"

EXPORT("pe_wasm_add_table")
int pe_wasm_add_table(const float *table, uint32_t table_rows, uint32_t dim, float scale, uint32_t offset,
                      uint32_t length, float *x, size_t x_count) {
    return pe_add_table(table, table_rows, dim, scale, offset, length, x, x_count);
}

EXPORT("pe_wasm_resample_table")
int pe_wasm_resample_table(const float *table, uint32_t rows, uint32_t dim, uint32_t new_rows, float *out,
                           size_t out_count) {
    return pe_resample_table(table, rows, dim, new_rows, out, out_count);
}
