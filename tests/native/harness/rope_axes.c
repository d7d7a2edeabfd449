/* Harness commands of RoPE on several position axes (posenc.h, pe_rope_axes;
 * GEOMETRY and SCALING as rope.c reads them):
 *   ropeaxes GEOMETRY SCALING AXES CACHEROWS DTYPE SEQLEN XCOUNT POSCOUNT
 *       + XCOUNT elements of DTYPE + POSCOUNT uint32 positions (length * axes, row by row)
 *       -> x rotated by a plan (pe_rope_plan_apply), or by pe_rope when CACHEROWS is
 *       "oneshot" (DTYPE float32), its bytes framed as words
 *   ropeaxescs GEOMETRY SCALING AXES CACHEROWS DTYPE EXPAND POSCOUNT + positions
 *       -> cos then sin (pe_rope_plan_cos_sin), their bytes framed as words
 * AXES: none, vision (2-D, row then column), mrope,T,H,W (the sections) or mropei,T,H,W (interleaved).
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
    static const char *const types[] = {"none", "mrope", "vision", "mropei"};
    q.rope.axes.type = (pe_rope_axes_type)parse_named(f[0], types, 4, "AXES");
    if (q.rope.axes.type == PE_ROPE_AXES_MROPE || q.rope.axes.type == PE_ROPE_AXES_MROPE_INTERLEAVED) {
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

/* Checks the guards of all n buffers, writes the last one's bytes, frees them all. */
static void finish(guarded *all, size_t n, int framed) {
    for (size_t k = 0; k < n; k++) guarded_check(&all[k]);
    write_elements(all[n - 1].data, all[n - 1].bytes, framed);
    for (size_t k = 0; k < n; k++) guarded_free(&all[k]);
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
    guarded gx = guarded_alloc(mul_sizes(x_count, dtype_size(dtype), "x"), shift, "x");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    guarded memory;
    if (oneshot) { /* pe_rope makes its plan in scratch of exactly the size it asks for */
        size_t bytes = 0;
        check_status(pe_rope_scratch_size(&q.rope, &bytes), "pe_rope_scratch_size");
        memory = guarded_alloc(bytes, shift, "scratch");
        check_status(pe_rope(&q.rope, q.offset, q.length, positions, (float *)gx.data, x_count, memory.data, bytes),
                     "pe_rope");
    } else {
        pe_rope_plan *plan;
        memory = rope_plan_for(&q, cache_rows, shift, &plan);
        check_status(pe_rope_plan_apply(plan, dtype, seq_len, q.offset, q.length, positions, gx.data, x_count),
                     "pe_rope_plan_apply");
    }
    guarded all[3] = {gp, memory, gx};
    finish(all, 3, framed);
    free(x);
}

static void serve_ropeaxescs(char **w, size_t shift, int framed) {
    const rope_request q = parse_axes_request(w);
    const pe_rope_axes_type type = q.rope.axes.type;
    serve_cos_sin(&q, type == PE_ROPE_AXES_MROPE ? 3 : type == PE_ROPE_AXES_VISION_2D ? 2 : 1, w + 3, shift, framed);
}

const harness_command rope_axes_commands[] = {
    {"ropeaxes", 8, serve_ropeaxes, -1, NULL},
    {"ropeaxescs", 7, serve_ropeaxescs, -1, NULL},
    {NULL, 0, NULL, 0, NULL},
};
