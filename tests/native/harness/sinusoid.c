/* Harness commands of the sinusoidal tables and the embedding add:
 *   table DIM BASE LAYOUT OFFSET LENGTH        -> LENGTH*DIM float32
 *   at DIM BASE LAYOUT [COUNT]                 + uint32 positions -> COUNT*DIM float32
 *   add DIM BASE LAYOUT OFFSET LENGTH SCALE [XCOUNT]  + float32 x -> x after the add
 * (bracketed words: serve mode only; one-shot reads stdin whole). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void run_table(pe_sinusoid enc, uint32_t offset, uint32_t length, size_t shift, int framed) {
    size_t count = mul_sizes(length, enc.dim, "LENGTH*DIM");
    guarded out = guarded_alloc(mul_sizes(count, sizeof(float), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table(&enc, offset, length, (float *)out.data, count, scratch.data, scratch.bytes), "pe_table");
    guarded_check(&out);
    guarded_free(&scratch);
    write_floats(out.data, count, framed);
    guarded_free(&out);
}

static void run_at(pe_sinusoid enc, const void *positions, size_t count, size_t shift, int framed) {
    guarded pos = guarded_alloc(mul_sizes(count, sizeof(uint32_t), "positions"), shift, "positions");
    if (count) memcpy(pos.data, positions, pos.bytes);
    size_t out_count = mul_sizes(count, enc.dim, "COUNT*DIM");
    guarded out = guarded_alloc(mul_sizes(out_count, sizeof(float), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(
        pe_table_at(&enc, (const uint32_t *)pos.data, count, (float *)out.data, out_count, scratch.data, scratch.bytes),
        "pe_table_at");
    if (count && memcmp(pos.data, positions, pos.bytes)) die(3, "positions changed", "pe_table_at");
    guarded_free(&pos);
    guarded_free(&scratch);
    guarded_check(&out);
    write_floats(out.data, out_count, framed);
    guarded_free(&out);
}

static void run_add(pe_sinusoid enc, uint32_t offset, uint32_t length, float scale, const void *x, size_t x_count,
                    size_t shift, int framed) {
    guarded gx = guarded_alloc(mul_sizes(x_count, sizeof(float), "x"), shift, "x");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_add(&enc, scale, offset, length, (float *)gx.data, x_count, scratch.data, scratch.bytes), "pe_add");
    guarded_free(&scratch);
    guarded_check(&gx);
    write_floats(gx.data, x_count, framed);
    guarded_free(&gx);
}

static void serve_table(char **w, size_t shift, int framed) {
    run_table(parse_sinusoid(w), (uint32_t)parse_uint(w[3], UINT32_MAX, "OFFSET"),
              (uint32_t)parse_uint(w[4], UINT32_MAX, "LENGTH"), shift, framed);
}

static void serve_at(char **w, size_t shift, int framed) {
    size_t count = (size_t)parse_uint(w[3], SIZE_MAX, "COUNT");
    void *pos = read_block(count, sizeof(uint32_t), "positions");
    run_at(parse_sinusoid(w), pos, count, shift, framed);
    free(pos);
}

static void oneshot_at(char **a) {
    size_t bytes;
    unsigned char *in = read_all(&bytes);
    if (bytes % sizeof(uint32_t)) die(2, "stdin is not a whole number of uint32 positions", NULL);
    run_at(parse_sinusoid(a), in, bytes / sizeof(uint32_t), 0, 0);
    free(in);
}

static void serve_add(char **w, size_t shift, int framed) {
    size_t x_count = (size_t)parse_uint(w[6], SIZE_MAX, "XCOUNT");
    void *x = read_block(x_count, sizeof(float), "x");
    run_add(parse_sinusoid(w), (uint32_t)parse_uint(w[3], UINT32_MAX, "OFFSET"),
            (uint32_t)parse_uint(w[4], UINT32_MAX, "LENGTH"), parse_float(w[5], "SCALE"), x, x_count, shift, framed);
    free(x);
}

static void oneshot_add(char **a) {
    size_t bytes;
    unsigned char *in = read_all(&bytes);
    if (bytes % sizeof(float)) die(2, "stdin is not a whole number of float32", NULL);
    run_add(parse_sinusoid(a), (uint32_t)parse_uint(a[3], UINT32_MAX, "OFFSET"),
            (uint32_t)parse_uint(a[4], UINT32_MAX, "LENGTH"), parse_float(a[5], "SCALE"), in, bytes / sizeof(float), 0,
            0);
    free(in);
}

const harness_command sinusoid_commands[] = {
    {"table", 5, serve_table, 5, NULL},
    {"at", 4, serve_at, 3, oneshot_at},
    {"add", 7, serve_add, 6, oneshot_add},
    {NULL, 0, NULL, 0, NULL},
};
