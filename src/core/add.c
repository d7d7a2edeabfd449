/* The embedding add: x (batch, length, dim) = x * scale + PE, in place. */
#include "check.h"
#include "kernels.h"

/* PE is made one block (PE_BLOCK_ROWS rows) at a time into the scratch tile
 * and added to every batch item while the tile is hot in cache: the table is
 * computed once per call and never stored whole. */
pe_status pe_add(const pe_sinusoid *enc, float *x, size_t x_count, uint32_t offset, uint32_t length,
                 float scale, void *scratch, size_t scratch_bytes) {
    pe_status st = pe_check_sinusoid(enc);
    if (st != PE_OK) return st;
    if ((uint64_t)offset + length > PE_MAX_POSITION) return PE_ERR_POSITION;
    if ((st = pe_check_batch(x, x_count, length, enc->dim)) != PE_OK) return st;
    if ((st = pe_check_scale(scale)) != PE_OK) return st;
    if ((st = pe_check_scratch(scratch, scratch_bytes, enc->dim)) != PE_OK) return st;
    if (x_count == 0) return PE_OK;

    pe_plan plan;
    pe_prepare(&plan, enc, scratch);
    const pe_kernel_set *k = pe_current_kernels();
    const size_t dim = enc->dim, slab = (size_t)length * dim, batch = x_count / slab;
    const uint32_t end = offset + length;
    for (uint32_t p0 = offset - offset % PE_BLOCK_ROWS; p0 < end; p0 += PE_BLOCK_ROWS) {
        uint32_t first = p0 < offset ? offset - p0 : 0;
        uint32_t last = end - p0 < PE_BLOCK_ROWS ? end - p0 : PE_BLOCK_ROWS;
        k->seeds(&plan, p0);
        k->recur(&plan, first, last, plan.tile, dim);
        float *rows = x + (size_t)(p0 + first - offset) * dim;
        for (size_t b = 0; b < batch; b++) k->add(rows + b * slab, plan.tile, (last - first) * dim, scale);
    }
    return PE_OK;
}

pe_status pe_add_table(float *x, size_t x_count, uint32_t length, uint32_t dim, const float *table,
                       uint32_t table_rows, uint32_t offset, float scale) {
    if (dim == 0 || dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE; /* learned tables may be odd */
    pe_status st = pe_check_batch(x, x_count, length, dim);
    if (st != PE_OK) return st;
    if (!table) return PE_ERR_NULL;
    if ((uint64_t)offset + length > table_rows) return PE_ERR_TABLE_ROWS;
    if ((st = pe_check_scale(scale)) != PE_OK) return st;
    if (x_count == 0) return PE_OK;

    const pe_kernel_set *k = pe_current_kernels();
    const size_t slab = (size_t)length * dim;
    const float *rows = table + (size_t)offset * dim;
    for (size_t b = 0; b < x_count / slab; b++) k->add(x + b * slab, rows, slab, scale);
    return PE_OK;
}
