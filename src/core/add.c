/* The embedding add: x (batch, length, dim) = x * scale + PE, in place. */
#include "check.h"
#include "kernels.h"

/* PE is made a tile of rows at a time (kernels.h: PE_TILE_FLOATS; a tile may
 * span several blocks) and added to every batch item while the tile is in
 * cache: the table is computed once per call and never stored whole. */
pe_status pe_plan_add(pe_plan *plan, float *x, size_t x_count, uint32_t offset, uint32_t length,
                      float scale) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK) return st;
    if ((uint64_t)offset + length > PE_MAX_POSITION) return PE_ERR_POSITION;
    if ((st = pe_check_batch(x, x_count, length, plan->dim)) != PE_OK) return st;
    if ((st = pe_check_scale(scale)) != PE_OK) return st;
    if (x_count == 0) return PE_OK;

    const pe_kernel_set *k = pe_current_kernels();
    const size_t dim = plan->dim, slab = (size_t)length * dim, batch = x_count / slab;
    const uint32_t end = offset + length;
    uint32_t filled = 0, tile_at = offset; /* rows in the tile, and the position of its first */
    for (uint32_t p0 = offset - offset % PE_BLOCK_ROWS; p0 < end; p0 += PE_BLOCK_ROWS) {
        uint32_t first = p0 < offset ? offset - p0 : 0;
        uint32_t last = end - p0 < PE_BLOCK_ROWS ? end - p0 : PE_BLOCK_ROWS;
        pe_plan_seek(plan, k, p0);
        if (first) k->recur(plan, first, NULL, 0);
        for (uint32_t n = first; n < last;) {
            uint32_t g = last - n < plan->tile_rows - filled ? last - n : plan->tile_rows - filled;
            k->recur(plan, g, plan->tile + (size_t)filled * dim, dim);
            filled += g;
            n += g;
            if (filled == plan->tile_rows || p0 + n == end) {
                float *rows = x + (size_t)(tile_at - offset) * dim;
                for (size_t b = 0; b < batch; b++) k->add(rows + b * slab, plan->tile, (size_t)filled * dim, scale);
                tile_at += filled;
                filled = 0;
            }
        }
    }
    return PE_OK;
}

pe_status pe_add(const pe_sinusoid *enc, float *x, size_t x_count, uint32_t offset, uint32_t length,
                 float scale, void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_plan_init(enc, scratch, scratch_bytes, &plan);
    return st != PE_OK ? st : pe_plan_add(plan, x, x_count, offset, length, scale);
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
