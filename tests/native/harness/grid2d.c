/* Harness command of 2-D sin-cos tables, the same words in both modes:
 *   table2d HEIGHT WIDTH DIM BASE CLS          -> (CLS + HEIGHT*WIDTH)*DIM float32 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* words: HEIGHT WIDTH DIM BASE CLS */
static void run_table2d(char **w, size_t shift, int framed) {
    pe_grid2d grid;
    grid.height = (uint32_t)parse_uint(w[0], UINT32_MAX, "HEIGHT");
    grid.width = (uint32_t)parse_uint(w[1], UINT32_MAX, "WIDTH");
    grid.dim = (uint32_t)parse_uint(w[2], UINT32_MAX, "DIM");
    grid.base = parse_double(w[3], "BASE");
    grid.cls_token = (int)parse_uint(w[4], 1, "CLS");
    size_t bytes = 0;
    check_status(pe_table_2d_scratch_size(&grid, &bytes), "pe_table_2d_scratch_size");
    size_t count = mul_sizes((size_t)grid.height * grid.width + (grid.cls_token ? 1 : 0), grid.dim, "ROWS*DIM");
    guarded out = guarded_alloc(mul_sizes(count, sizeof(float), "out"), shift, "out");
    guarded scratch = guarded_alloc(bytes, 0, "scratch");
    check_status(pe_table_2d(&grid, (float *)out.data, count, scratch.data, scratch.bytes), "pe_table_2d");
    guarded_free(&scratch);
    guarded_check(&out);
    write_floats(out.data, count, framed);
    guarded_free(&out);
}

const harness_command grid2d_commands[] = {
    {"table2d", 5, run_table2d, 5, NULL},
    {NULL, 0, NULL, 0, NULL},
};
