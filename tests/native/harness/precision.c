/* Harness commands of reduced precision and the naive recipes; the same
 * words in both modes (one-shot: `harness CMD KERNELS ARGS...`, the data on
 * stdin as in serve mode):
 *   tabledtype DTYPE DIM BASE LAYOUT OFFSET LENGTH   -> LENGTH*DIM elements of DTYPE
 *   atdtype DTYPE DIM BASE LAYOUT COUNT              + COUNT uint32 -> COUNT*DIM elements
 *   narrow DTYPE COUNT                               + COUNT float64 -> COUNT elements
 *   recipe RECIPE DIM BASE LAYOUT OFFSET LENGTH      -> LENGTH*DIM float32
 * DTYPE is float32, float16, bfloat16, float64 or an integer; RECIPE is
 * float32-angle, float16, bfloat16 or an integer. Elements are framed as
 * 32-bit words: a uint32 word count, then the elements padded with zero bytes
 * to a whole word. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void run_table_dtype(pe_dtype dtype, pe_sinusoid enc, uint32_t offset, uint32_t length, size_t shift,
                            int framed) {
    size_t count = mul_sizes(length, enc.dim, "LENGTH*DIM");
    guarded out = guarded_alloc(mul_sizes(count, dtype_size(dtype), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table_dtype(&enc, dtype, offset, length, out.data, count, scratch.data, scratch.bytes),
                 "pe_table_dtype");
    guarded_free(&scratch);
    guarded_check(&out);
    write_elements(out.data, out.bytes, framed);
    guarded_free(&out);
}

static void run_at_dtype(pe_dtype dtype, pe_sinusoid enc, const void *positions, size_t count, size_t shift,
                         int framed) {
    guarded pos = guarded_alloc(mul_sizes(count, sizeof(uint32_t), "positions"), shift, "positions");
    if (count) memcpy(pos.data, positions, pos.bytes);
    size_t out_count = mul_sizes(count, enc.dim, "COUNT*DIM");
    guarded out = guarded_alloc(mul_sizes(out_count, dtype_size(dtype), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table_at_dtype(&enc, dtype, (const uint32_t *)pos.data, count, out.data, out_count, scratch.data,
                                   scratch.bytes),
                 "pe_table_at_dtype");
    if (count && memcmp(pos.data, positions, pos.bytes)) die(3, "positions changed", "pe_table_at_dtype");
    guarded_free(&pos);
    guarded_free(&scratch);
    guarded_check(&out);
    write_elements(out.data, out.bytes, framed);
    guarded_free(&out);
}

static void run_narrow(pe_dtype dtype, const void *in, size_t count, size_t shift, int framed) {
    guarded gin = guarded_alloc(mul_sizes(count, sizeof(double), "in"), shift, "in");
    if (count) memcpy(gin.data, in, gin.bytes);
    guarded out = guarded_alloc(mul_sizes(count, dtype_size(dtype), "out"), shift, "out");
    check_status(pe_narrow_f64(dtype, (const double *)gin.data, count, out.data, count), "pe_narrow_f64");
    if (count && memcmp(gin.data, in, gin.bytes)) die(3, "input changed", "pe_narrow_f64");
    guarded_free(&gin);
    guarded_check(&out);
    write_elements(out.data, out.bytes, framed);
    guarded_free(&out);
}

static pe_recipe parse_recipe(const char *s) {
    static const char *const names[] = {"float32-angle", "float16", "bfloat16"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, names[k])) return (pe_recipe)k;
    return (pe_recipe)parse_uint(s, UINT32_MAX, "RECIPE");
}

static void run_recipe(pe_recipe recipe, pe_sinusoid enc, uint32_t offset, uint32_t length, size_t shift, int framed) {
    size_t count = mul_sizes(length, enc.dim, "LENGTH*DIM");
    guarded out = guarded_alloc(mul_sizes(count, sizeof(float), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_recipe_table(&enc, recipe, offset, length, (float *)out.data, count, scratch.data, scratch.bytes),
                 "pe_recipe_table");
    guarded_free(&scratch);
    guarded_check(&out);
    write_floats(out.data, count, framed);
    guarded_free(&out);
}

static void serve_tabledtype(char **w, size_t shift, int framed) {
    run_table_dtype(parse_dtype(w[0]), parse_sinusoid(w + 1), (uint32_t)parse_uint(w[4], UINT32_MAX, "OFFSET"),
                    (uint32_t)parse_uint(w[5], UINT32_MAX, "LENGTH"), shift, framed);
}

static void serve_atdtype(char **w, size_t shift, int framed) {
    size_t count = (size_t)parse_uint(w[4], SIZE_MAX, "COUNT");
    void *pos = read_block(count, sizeof(uint32_t), "positions");
    run_at_dtype(parse_dtype(w[0]), parse_sinusoid(w + 1), pos, count, shift, framed);
    free(pos);
}

static void serve_narrow(char **w, size_t shift, int framed) {
    size_t count = (size_t)parse_uint(w[1], SIZE_MAX, "COUNT");
    void *in = read_block(count, sizeof(double), "float64 values");
    run_narrow(parse_dtype(w[0]), in, count, shift, framed);
    free(in);
}

static void serve_recipe(char **w, size_t shift, int framed) {
    run_recipe(parse_recipe(w[0]), parse_sinusoid(w + 1), (uint32_t)parse_uint(w[4], UINT32_MAX, "OFFSET"),
               (uint32_t)parse_uint(w[5], UINT32_MAX, "LENGTH"), shift, framed);
}

const harness_command precision_commands[] = {
    {"tabledtype", 6, serve_tabledtype, 6, NULL},
    {"atdtype", 5, serve_atdtype, 5, NULL},
    {"narrow", 2, serve_narrow, 2, NULL},
    {"recipe", 6, serve_recipe, 6, NULL},
    {NULL, 0, NULL, 0, NULL},
};
