/* Harness commands of learned tables:
 *   addtable LENGTH DIM TABLE_ROWS OFFSET SCALE [XCOUNT]  + float32 x, then TABLE_ROWS*DIM float32 table
 *                                                         -> x after the add
 *   resample ROWS DIM NEWROWS                  + ROWS*DIM float32 -> NEWROWS*DIM float32
 * (bracketed words: serve mode only; one-shot reads stdin whole). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void run_addtable(uint32_t length, uint32_t dim, uint32_t rows, uint32_t offset, float scale, const void *x,
                         size_t x_count, const void *table, size_t shift, int framed) {
    size_t table_bytes = mul_sizes(mul_sizes(rows, dim, "TABLE_ROWS*DIM"), sizeof(float), "table");
    guarded gx = guarded_alloc(mul_sizes(x_count, sizeof(float), "x"), shift, "x");
    guarded gt = guarded_alloc(table_bytes, shift, "table");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (table_bytes) memcpy(gt.data, table, table_bytes);
    check_status(pe_add_table((const float *)gt.data, rows, dim, scale, offset, length, (float *)gx.data, x_count),
                 "pe_add_table");
    if (table_bytes && memcmp(gt.data, table, table_bytes)) die(3, "table changed", "pe_add_table");
    guarded_free(&gt);
    guarded_check(&gx);
    write_floats(gx.data, x_count, framed);
    guarded_free(&gx);
}

static void run_resample(uint32_t rows, uint32_t dim, uint32_t new_rows, const void *table, size_t shift, int framed) {
    size_t table_bytes = mul_sizes(mul_sizes(rows, dim, "ROWS*DIM"), sizeof(float), "table");
    size_t n = mul_sizes(new_rows, dim, "NEWROWS*DIM");
    guarded gt = guarded_alloc(table_bytes, shift, "table");
    guarded out = guarded_alloc(mul_sizes(n, sizeof(float), "resampled"), shift, "resampled");
    if (table_bytes) memcpy(gt.data, table, table_bytes);
    check_status(pe_resample_table((const float *)gt.data, rows, dim, new_rows, (float *)out.data, n),
                 "pe_resample_table");
    if (table_bytes && memcmp(gt.data, table, table_bytes)) die(3, "table changed", "pe_resample_table");
    guarded_free(&gt);
    guarded_check(&out);
    write_floats(out.data, n, framed);
    guarded_free(&out);
}

static void serve_addtable(char **w, size_t shift, int framed) {
    uint32_t length = (uint32_t)parse_uint(w[0], UINT32_MAX, "LENGTH");
    uint32_t dim = (uint32_t)parse_uint(w[1], UINT32_MAX, "DIM");
    uint32_t rows = (uint32_t)parse_uint(w[2], UINT32_MAX, "TABLE_ROWS");
    size_t x_count = (size_t)parse_uint(w[5], SIZE_MAX, "XCOUNT");
    void *x = read_block(x_count, sizeof(float), "x");
    void *table = read_block(mul_sizes(rows, dim, "TABLE_ROWS*DIM"), sizeof(float), "table");
    run_addtable(length, dim, rows, (uint32_t)parse_uint(w[3], UINT32_MAX, "OFFSET"), parse_float(w[4], "SCALE"), x,
                 x_count, table, shift, framed);
    free(x);
    free(table);
}

static void oneshot_addtable(char **a) {
    uint32_t length = (uint32_t)parse_uint(a[0], UINT32_MAX, "LENGTH");
    uint32_t dim = (uint32_t)parse_uint(a[1], UINT32_MAX, "DIM");
    uint32_t rows = (uint32_t)parse_uint(a[2], UINT32_MAX, "TABLE_ROWS");
    size_t table_bytes = mul_sizes(mul_sizes(rows, dim, "TABLE_ROWS*DIM"), sizeof(float), "table");
    size_t bytes;
    unsigned char *in = read_all(&bytes);
    if (bytes < table_bytes || (bytes - table_bytes) % sizeof(float))
        die(2, "stdin must hold float32 x then TABLE_ROWS*DIM float32", NULL);
    size_t x_bytes = bytes - table_bytes;
    run_addtable(length, dim, rows, (uint32_t)parse_uint(a[3], UINT32_MAX, "OFFSET"), parse_float(a[4], "SCALE"), in,
                 x_bytes / sizeof(float), in + x_bytes, 0, 0);
    free(in);
}

static void serve_resample(char **w, size_t shift, int framed) {
    uint32_t rows = (uint32_t)parse_uint(w[0], UINT32_MAX, "ROWS");
    uint32_t dim = (uint32_t)parse_uint(w[1], UINT32_MAX, "DIM");
    void *table = read_block(mul_sizes(rows, dim, "ROWS*DIM"), sizeof(float), "table");
    run_resample(rows, dim, (uint32_t)parse_uint(w[2], UINT32_MAX, "NEWROWS"), table, shift, framed);
    free(table);
}

static void oneshot_resample(char **a) {
    uint32_t rows = (uint32_t)parse_uint(a[0], UINT32_MAX, "ROWS");
    uint32_t dim = (uint32_t)parse_uint(a[1], UINT32_MAX, "DIM");
    size_t bytes;
    unsigned char *in = read_all(&bytes);
    if (bytes != mul_sizes(mul_sizes(rows, dim, "ROWS*DIM"), sizeof(float), "table"))
        die(2, "stdin must hold ROWS*DIM float32", NULL);
    run_resample(rows, dim, (uint32_t)parse_uint(a[2], UINT32_MAX, "NEWROWS"), in, 0, 0);
    free(in);
}

const harness_command learned_commands[] = {
    {"addtable", 6, serve_addtable, 5, oneshot_addtable},
    {"resample", 3, serve_resample, 3, oneshot_resample},
    {NULL, 0, NULL, 0, NULL},
};
