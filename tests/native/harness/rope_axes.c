/* Harness commands of RoPE on several position axes (posenc.h, pe_rope_axes;
 * GEOMETRY and SCALING as rope.c reads them):
 *   ropeaxes GEOMETRY SCALING AXES CACHEROWS DTYPE SEQLEN XCOUNT POSCOUNT
 *       + XCOUNT elements of DTYPE + POSCOUNT uint32 positions (length * axes, row by row)
 *       -> x rotated by a plan (pe_rope_plan_apply), or by pe_rope when CACHEROWS is
 *       "oneshot" (DTYPE float32), its bytes framed as words
 *   ropeaxescs GEOMETRY SCALING AXES CACHEROWS DTYPE EXPAND POSCOUNT + positions
 *       -> cos then sin (pe_rope_plan_cos_sin), their bytes framed as words
 * AXES: none, vision (2-D, row then column) or mrope,T,H,W (the sections).
 * Serve mode only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static rope_request parse_axes_request(char **w) {
    rope_request q = parse_rope(w[0], w[1]);
    char list[256];
    char *f[8];
    snprintf(list, sizeof list, "%s", w[2]);
    const int n = split_commas(list, f, 8);
    static const char *const types[] = {"none", "mrope", "vision"};
    q.rope.axes.type = (pe_rope_axes_type)parse_named(f[0], types, 3, "AXES");
    if (q.rope.axes.type == PE_ROPE_AXES_MROPE) {
        if (n != 1 + PE_ROPE_MROPE_AXES) die(2, "AXES mrope needs 3 sections", w[2]);
        for (int k = 0; k < PE_ROPE_MROPE_AXES; k++)
            q.rope.axes.mrope_section[k] = (uint32_t)parse_uint(f[1 + k], UINT32_MAX, "SECTION");
    }
    return q;
}

/* The positions block, read and copied into a guarded buffer (NULL data when none). */
static guarded guarded_positions(size_t count, size_t shift) {
    void *pos = read_block(count, sizeof(uint32_t), "positions");
    guarded gp = guarded_alloc(mul_sizes(count, sizeof(uint32_t), "positions"), shift, "positions");
    if (count) memcpy(gp.data, pos, gp.bytes);
    free(pos);
    return gp;
}

static void serve_ropeaxes(char **w, size_t shift, int framed) {
    rope_request q = parse_axes_request(w);
    const int oneshot = !strcmp(w[3], "oneshot");
    const uint32_t cache_rows = oneshot ? 0 : (uint32_t)parse_uint(w[3], UINT32_MAX, "CACHEROWS");
    const pe_dtype dtype = parse_dtype(w[4]);
    const uint32_t seq_len = (uint32_t)parse_uint(w[5], UINT32_MAX, "SEQLEN");
    const size_t x_count = (size_t)parse_uint(w[6], SIZE_MAX, "XCOUNT");
    const size_t pos_count = (size_t)parse_uint(w[7], SIZE_MAX, "POSCOUNT");
    if (oneshot && dtype != PE_DTYPE_FLOAT32) die(2, "oneshot takes float32 x", w[4]);
    void *x = read_block(x_count, dtype_size(dtype), "x");
    guarded gp = guarded_positions(pos_count, shift);
    const uint32_t *positions = pos_count ? (const uint32_t *)gp.data : NULL;
    size_t bytes = 0;
    check_status(oneshot ? pe_rope_scratch_size(&q.rope, &bytes) : pe_rope_plan_size(&q.rope, cache_rows, &bytes),
                 "plan size");
    guarded memory = guarded_alloc(bytes, shift, "plan");
    guarded gx = guarded_alloc(mul_sizes(x_count, dtype_size(dtype), "x"), shift, "x");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (oneshot) {
        check_status(pe_rope(&q.rope, q.offset, q.length, positions, (float *)gx.data, x_count, memory.data, bytes),
                     "pe_rope");
    } else {
        pe_rope_plan *plan;
        check_status(pe_rope_plan_init(&q.rope, cache_rows, memory.data, bytes, &plan), "pe_rope_plan_init");
        check_status(pe_rope_plan_apply(plan, dtype, seq_len, q.offset, q.length, positions, gx.data, x_count),
                     "pe_rope_plan_apply");
    }
    guarded_check(&gp);
    guarded_check(&memory);
    guarded_check(&gx);
    write_elements(gx.data, gx.bytes, framed);
    guarded_free(&gp);
    guarded_free(&gx);
    guarded_free(&memory);
    free(x);
}

static void serve_ropeaxescs(char **w, size_t shift, int framed) {
    rope_request q = parse_axes_request(w);
    const uint32_t cache_rows = (uint32_t)parse_uint(w[3], UINT32_MAX, "CACHEROWS");
    const pe_dtype dtype = parse_dtype(w[4]);
    const int expand = (int)parse_uint(w[5], 1, "EXPAND");
    const size_t pos_count = (size_t)parse_uint(w[6], SIZE_MAX, "POSCOUNT");
    guarded gp = guarded_positions(pos_count, shift);
    const uint32_t r = q.rope.rotary_dim ? q.rope.rotary_dim : q.rope.head_dim;
    const size_t count = mul_sizes(q.length, expand ? r : r / 2, "LENGTH*ROW");
    size_t bytes = 0;
    check_status(pe_rope_plan_size(&q.rope, cache_rows, &bytes), "pe_rope_plan_size");
    guarded memory = guarded_alloc(bytes, shift, "plan");
    pe_rope_plan *plan;
    check_status(pe_rope_plan_init(&q.rope, cache_rows, memory.data, bytes, &plan), "pe_rope_plan_init");
    guarded both = guarded_alloc(mul_sizes(2 * count, dtype_size(dtype), "cos and sin"), shift, "cos and sin");
    unsigned char *cos = both.data, *sin = cos + count * dtype_size(dtype);
    check_status(pe_rope_plan_cos_sin(plan, dtype, expand, q.offset, q.length,
                                      pos_count ? (const uint32_t *)gp.data : NULL, cos, sin, count),
                 "pe_rope_plan_cos_sin");
    guarded_check(&gp);
    guarded_check(&memory);
    guarded_check(&both);
    write_elements(both.data, both.bytes, framed);
    guarded_free(&both);
    guarded_free(&memory);
    guarded_free(&gp);
}

const harness_command rope_axes_commands[] = {
    {"ropeaxes", 8, serve_ropeaxes, -1, NULL},
    {"ropeaxescs", 7, serve_ropeaxescs, -1, NULL},
    {NULL, 0, NULL, 0, NULL},
};
