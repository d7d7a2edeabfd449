/* Resampling a learned table to a new number of rows (posenc.h states the
 * align_corners=True convention and the rounding). */
#include <string.h>

#include "common/check.h"
#include "common/kernel_table.h"
#include "learned/resample_kernels.h"

static int overlaps(const float *a, size_t a_count, const float *b, size_t b_count) {
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a0 < b0 + b_count * sizeof(float) && b0 < a0 + a_count * sizeof(float);
}

pe_status pe_resample_table(const float *table, uint32_t rows, uint32_t dim, uint32_t new_rows, float *out,
                            size_t out_count) {
    if (dim == 0 || dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE;
    size_t need, table_count;
    pe_status st = pe_check_product(new_rows, dim, &need);
    if (st != PE_OK) return st;
    if ((st = pe_check_product(rows, dim, &table_count)) != PE_OK) return st;
    if (out_count != need) return PE_ERR_OUT_SIZE;
    if (need == 0) return PE_OK;
    if (rows == 0) return PE_ERR_TABLE_ROWS;
    if (!table || !out) return PE_ERR_NULL;
    if (overlaps(table, table_count, out, need)) return PE_ERR_OVERLAP;

    const pe_lerp_rows_fn lerp = pe_kernel_table_current()->lerp_rows;
    /* New row r reads old position r * span / steps = i + rem / steps exactly
     * (integers below 2^64); each weight rounds once. */
    const uint64_t span = rows - 1u, steps = new_rows - 1u;
    for (uint32_t r = 0; r < new_rows; r++) {
        const uint64_t x = steps ? (uint64_t)r * span : 0;
        const uint64_t i = steps ? x / steps : 0, rem = steps ? x % steps : 0;
        const float *a = table + i * dim;
        float *o = out + (size_t)r * dim;
        if (rem == 0)
            memcpy(o, a, (size_t)dim * sizeof(float));
        else
            lerp(o, a, a + dim, (double)(steps - rem) / (double)steps, (double)rem / (double)steps, dim);
    }
    return PE_OK;
}
