/* 2-D sin-cos tables for vision transformers (posenc.h, pe_grid2d): two 1-D
 * split tables of dim/2 (columns 0 .. width-1, rows 0 .. height-1) made with
 * one plan in scratch, then placed side by side in every grid row. */
#include <string.h>

#include "common/check.h"
#include "sinusoid/plan.h"

static pe_status check_grid(const pe_grid2d *grid, pe_sinusoid *half_enc, size_t *rows) {
    if (!grid) return PE_ERR_NULL;
    if (grid->dim == 0 || grid->dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE;
    if (grid->dim % 4) return PE_ERR_DIM_2D;
    *half_enc = (pe_sinusoid){grid->dim / 2, grid->base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    pe_status st = pe_check_sinusoid(half_enc);
    if (st != PE_OK) return st;
    if (grid->height > PE_MAX_POSITION || grid->width > PE_MAX_POSITION) return PE_ERR_POSITION;
    if ((st = pe_check_product(grid->height, grid->width, rows)) != PE_OK) return st;
    if (grid->cls_token) {
        if (*rows == SIZE_MAX) return PE_ERR_TOO_LARGE;
        *rows += 1;
    }
    return PE_OK;
}

/* Plan, 16 bytes of alignment slack, then the two 1-D tables. */
static pe_status scratch_bytes_for(const pe_grid2d *grid, size_t *bytes) {
    size_t tables;
    const uint64_t lines = (uint64_t)grid->height + grid->width;
    if (lines > SIZE_MAX) return PE_ERR_TOO_LARGE;
    pe_status st = pe_check_product((size_t)lines, (size_t)(grid->dim / 2) * sizeof(float), &tables);
    if (st != PE_OK) return st;
    const size_t fixed = pe_plan_bytes(grid->dim / 2) + 16;
    if (tables > SIZE_MAX - fixed) return PE_ERR_TOO_LARGE;
    *bytes = fixed + tables;
    return PE_OK;
}

pe_status pe_table_2d_scratch_size(const pe_grid2d *grid, size_t *bytes) {
    pe_sinusoid half_enc;
    size_t rows;
    pe_status st = check_grid(grid, &half_enc, &rows);
    if (st != PE_OK) return st;
    if (!bytes) return PE_ERR_NULL;
    return scratch_bytes_for(grid, bytes);
}

pe_status pe_table_2d(const pe_grid2d *grid, float *out, size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_sinusoid half_enc;
    size_t rows, scratch_need;
    pe_status st = check_grid(grid, &half_enc, &rows);
    if (st != PE_OK) return st;
    if ((st = pe_check_rows_out(grid->dim, rows, out, out_count)) != PE_OK) return st;
    if ((st = scratch_bytes_for(grid, &scratch_need)) != PE_OK) return st;
    if (!scratch) return PE_ERR_NULL;
    if (scratch_bytes < scratch_need) return PE_ERR_SCRATCH;
    if (out_count == 0) return PE_OK;

    const uint32_t h = grid->height, w = grid->width, d = grid->dim, half = d / 2;
    pe_plan *plan;
    if ((st = pe_plan_init(&half_enc, scratch, pe_plan_bytes(half), &plan)) != PE_OK) return st;
    uintptr_t tables_at = (uintptr_t)scratch + pe_plan_bytes(half);
    float *columns = (float *)((tables_at + 15) & ~(uintptr_t)15); /* column x: w x half */
    float *lines = columns + (size_t)w * half;                     /* row y: h x half */
    if ((st = pe_plan_table(plan, 0, w, columns, (size_t)w * half)) != PE_OK) return st;
    if ((st = pe_plan_table(plan, 0, h, lines, (size_t)h * half)) != PE_OK) return st;

    float *row = out;
    if (grid->cls_token) {
        for (uint32_t j = 0; j < d; j++) row[j] = 0.0f;
        row += d;
    }
    /* MAE's order: the first half encodes the column x, the second the row y. */
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++, row += d) {
            memcpy(row, columns + (size_t)x * half, half * sizeof(float));
            memcpy(row + half, lines + (size_t)y * half, half * sizeof(float));
        }
    }
    return PE_OK;
}
