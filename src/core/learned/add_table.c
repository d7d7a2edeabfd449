/* The embedding add with a learned table (nn.Embedding style): rows offset ..
 * offset + length - 1 of the table added to every batch item of x, in place,
 * by the sinusoid's add kernel (the same two roundings). */
#include "common/check.h"
#include "common/kernel_table.h"

pe_status pe_add_table(const float *table, uint32_t table_rows, uint32_t dim, float scale, uint32_t offset,
                       uint32_t length, float *x, size_t x_count) {
    if (dim == 0 || dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE; /* learned tables may be odd */
    pe_status st = pe_check_batch(x, x_count, length, dim);
    if (st != PE_OK) return st;
    if (!table) return PE_ERR_NULL;
    if ((uint64_t)offset + length > table_rows) return PE_ERR_TABLE_ROWS;
    if ((st = pe_check_scale(scale)) != PE_OK) return st;
    if (x_count == 0) return PE_OK;

    const pe_kernel_table *k = pe_kernel_table_current();
    const size_t slab = (size_t)length * dim;
    const float *rows = table + (size_t)offset * dim;
    for (size_t b = 0; b < x_count / slab; b++) k->add(x + b * slab, rows, slab, scale);
    return PE_OK;
}
