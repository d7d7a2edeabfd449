/* Harness commands of ALiBi:
 *   slopes HEADS                               -> HEADS float32
 *   alibi HEADS QLEN KLEN OFFSET CAUSAL FIRST COUNT  -> COUNT*QLEN*KLEN float32 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void run_slopes(uint32_t heads, size_t shift, int framed) {
    guarded out = guarded_alloc(mul_sizes(heads, sizeof(float), "slopes"), shift, "slopes");
    check_status(pe_alibi_slopes(heads, (float *)out.data, heads), "pe_alibi_slopes");
    guarded_check(&out);
    write_floats(out.data, heads, framed);
    guarded_free(&out);
}

/* words: HEADS QLEN KLEN OFFSET CAUSAL FIRST COUNT */
static void run_alibi(char **w, size_t shift, int framed) {
    pe_alibi alibi;
    alibi.heads = (uint32_t)parse_uint(w[0], UINT32_MAX, "HEADS");
    alibi.query_length = (uint32_t)parse_uint(w[1], UINT32_MAX, "QLEN");
    alibi.key_length = (uint32_t)parse_uint(w[2], UINT32_MAX, "KLEN");
    alibi.query_offset = (uint32_t)parse_uint(w[3], UINT32_MAX, "OFFSET");
    alibi.causal = (int)parse_uint(w[4], 1, "CAUSAL");
    uint32_t first = (uint32_t)parse_uint(w[5], UINT32_MAX, "FIRST");
    uint32_t count = (uint32_t)parse_uint(w[6], UINT32_MAX, "COUNT");
    size_t n = mul_sizes(mul_sizes(count, alibi.query_length, "COUNT*QLEN"), alibi.key_length, "COUNT*QLEN*KLEN");
    guarded out = guarded_alloc(mul_sizes(n, sizeof(float), "bias"), shift, "bias");
    check_status(pe_alibi_bias(&alibi, first, count, (float *)out.data, n), "pe_alibi_bias");
    guarded_check(&out);
    write_floats(out.data, n, framed);
    guarded_free(&out);
}

static void serve_slopes(char **w, size_t shift, int framed) {
    run_slopes((uint32_t)parse_uint(w[0], UINT32_MAX, "HEADS"), shift, framed);
}

const harness_command alibi_commands[] = {
    {"slopes", 1, serve_slopes, 1, NULL},
    {"alibi", 7, run_alibi, 7, NULL},
    {NULL, 0, NULL, 0, NULL},
};
