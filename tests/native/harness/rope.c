/* Harness commands of RoPE (main.c documents GEOMETRY and SCALING):
 *   rope GEOMETRY SCALING [XCOUNT POSCOUNT]    + float32 x [+ POSCOUNT uint32 positions] -> x rotated
 *   ropefreq GEOMETRY SCALING                  (serve mode only) -> the frequencies and the attention factor
 *   ropeplan GEOMETRY SCALING CACHEROWS DTYPE SEQLEN XCOUNT POSCOUNT  (serve mode only)
 *       + XCOUNT elements of DTYPE (float32|float16|bfloat16) + POSCOUNT uint32 positions
 *       -> x rotated by a plan (pe_rope_plan_apply), its bytes framed as words
 *   ropecs GEOMETRY SCALING CACHEROWS DTYPE EXPAND POSCOUNT  (serve mode only) + POSCOUNT uint32
 *       positions -> cos then sin (pe_rope_plan_cos_sin), their bytes framed as words
 * (bracketed: serve mode only; one-shot reads x from stdin whole, positions offset + row). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

rope_request parse_rope(const char *geometry, const char *scaling) {
    static const char *const orders[] = {"blhd", "bhld"};
    static const char *const types[] = {"none", "linear", "dynamic", "yarn", "llama3"};
    char g[512], sc[512];
    char *f[16];
    rope_request q;
    memset(&q, 0, sizeof q);
    snprintf(g, sizeof g, "%s", geometry);
    const int fields = split_commas(g, f, 16);
    if (fields != 9 && fields != 13) die(2, "GEOMETRY needs 9 fields (13 with xPos)", geometry);
    q.rope.head_dim = (uint32_t)parse_uint(f[0], UINT32_MAX, "HEAD_DIM");
    q.rope.rotary_dim = (uint32_t)parse_uint(f[1], UINT32_MAX, "ROTARY_DIM");
    q.rope.heads = (uint32_t)parse_uint(f[2], UINT32_MAX, "HEADS");
    q.rope.base = parse_double(f[3], "BASE");
    q.rope.layout = parse_layout(f[4]);
    q.rope.order = (pe_rope_order)parse_named(f[5], orders, 2, "ORDER");
    q.rope.inverse = (int)parse_uint(f[6], 1, "INVERSE");
    q.offset = (uint32_t)parse_uint(f[7], UINT32_MAX, "OFFSET");
    q.length = (uint32_t)parse_uint(f[8], UINT32_MAX, "LENGTH");
    if (fields == 13) {
        q.rope.xpos.scale_base = parse_double(f[9], "XPOS_SCALE_BASE");
        q.rope.xpos.gamma = parse_double(f[10], "XPOS_GAMMA");
        q.rope.xpos.key = (int)parse_uint(f[11], 1, "XPOS_KEY");
        q.rope.xpos.center = (uint32_t)parse_uint(f[12], UINT32_MAX, "XPOS_CENTER");
    }
    if (!strcmp(scaling, "none")) return q;
    snprintf(sc, sizeof sc, "%s", scaling);
    if (split_commas(sc, f, 16) != 12) die(2, "SCALING needs 12 fields (or none)", scaling);
    pe_rope_scaling *s = &q.rope.scaling;
    s->type = (pe_rope_scaling_type)parse_named(f[0], types, 5, "TYPE");
    s->factor = parse_double(f[1], "FACTOR");
    s->original_max_position_embeddings = (uint32_t)parse_uint(f[2], UINT32_MAX, "ORIGINAL");
    s->beta_fast = parse_double(f[3], "BETA_FAST");
    s->beta_slow = parse_double(f[4], "BETA_SLOW");
    s->attention_factor = parse_double(f[5], "ATTENTION_FACTOR");
    s->mscale = parse_double(f[6], "MSCALE");
    s->mscale_all_dim = parse_double(f[7], "MSCALE_ALL_DIM");
    s->no_truncate = (int)parse_uint(f[8], 1, "NO_TRUNCATE");
    s->low_freq_factor = parse_double(f[9], "LOW_FREQ_FACTOR");
    s->high_freq_factor = parse_double(f[10], "HIGH_FREQ_FACTOR");
    s->sequence_length = (uint32_t)parse_uint(f[11], UINT32_MAX, "SEQUENCE_LENGTH");
    return q;
}

/* positions NULL: offset + row; else pos_count (= length) positions. */
static void run_rope(const rope_request *q, const void *x, size_t x_count, const void *positions, size_t pos_count,
                     size_t shift, int framed) {
    size_t bytes = 0;
    check_status(pe_rope_scratch_size(&q->rope, &bytes), "pe_rope_scratch_size");
    guarded scratch = guarded_alloc(bytes, shift, "scratch");
    guarded gx = guarded_alloc(mul_sizes(x_count, sizeof(float), "x"), shift, "x");
    guarded gp = guarded_alloc(mul_sizes(pos_count, sizeof(uint32_t), "positions"), shift, "positions");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (pos_count) memcpy(gp.data, positions, gp.bytes);
    check_status(pe_rope(&q->rope, q->offset, q->length, positions ? (const uint32_t *)gp.data : NULL, (float *)gx.data,
                         x_count, scratch.data, scratch.bytes),
                 "pe_rope");
    if (pos_count && memcmp(gp.data, positions, gp.bytes)) die(3, "positions changed", "pe_rope");
    guarded_free(&gp);
    guarded_free(&scratch);
    guarded_check(&gx);
    write_floats(gx.data, x_count, framed);
    guarded_free(&gx);
}

/* The frequencies and attention factor, as float64 sent as pairs of words. */
static void run_rope_frequencies(const rope_request *q, int framed) {
    uint32_t r = q->rope.rotary_dim ? q->rope.rotary_dim : q->rope.head_dim;
    size_t half = r / 2;
    guarded w = guarded_alloc(mul_sizes(half + 1, sizeof(double), "frequencies"), 0, "frequencies");
    double *values = (double *)w.data;
    check_status(pe_rope_frequencies(&q->rope, values, half, values + half), "pe_rope_frequencies");
    guarded_check(&w);
    write_floats(values, 2 * (half + 1), framed);
    guarded_free(&w);
}

static void serve_rope(char **w, size_t shift, int framed) {
    rope_request q = parse_rope(w[0], w[1]);
    size_t x_count = (size_t)parse_uint(w[2], SIZE_MAX, "XCOUNT");
    size_t pos_count = (size_t)parse_uint(w[3], SIZE_MAX, "POSCOUNT");
    if (pos_count && pos_count != q.length) die(2, "POSCOUNT must be 0 or LENGTH", w[3]);
    void *x = read_block(x_count, sizeof(float), "x");
    void *pos = read_block(pos_count, sizeof(uint32_t), "positions");
    run_rope(&q, x, x_count, pos_count ? pos : NULL, pos_count, shift, framed);
    free(x);
    free(pos);
}

static void oneshot_rope(char **a) {
    rope_request q = parse_rope(a[0], a[1]);
    size_t bytes;
    unsigned char *in = read_all(&bytes);
    if (bytes % sizeof(float)) die(2, "stdin is not a whole number of float32", NULL);
    run_rope(&q, in, bytes / sizeof(float), NULL, 0, 0, 0);
    free(in);
}

static void serve_ropefreq(char **w, size_t shift, int framed) {
    rope_request q = parse_rope(w[0], w[1]);
    run_rope_frequencies(&q, framed);
}

/* A RoPE plan with cache_rows cached rows, in guarded memory. */
guarded rope_plan_for(const rope_request *q, uint32_t cache_rows, size_t shift, pe_rope_plan **plan) {
    size_t bytes = 0;
    check_status(pe_rope_plan_size(&q->rope, cache_rows, &bytes), "pe_rope_plan_size");
    guarded memory = guarded_alloc(bytes, shift, "plan");
    check_status(pe_rope_plan_init(&q->rope, cache_rows, memory.data, memory.bytes, plan), "pe_rope_plan_init");
    return memory;
}

static void serve_ropeplan(char **w, size_t shift, int framed) {
    rope_request q = parse_rope(w[0], w[1]);
    const uint32_t cache_rows = (uint32_t)parse_uint(w[2], UINT32_MAX, "CACHEROWS");
    const pe_dtype dtype = parse_dtype(w[3]);
    const uint32_t seq_len = (uint32_t)parse_uint(w[4], UINT32_MAX, "SEQLEN");
    const size_t x_count = (size_t)parse_uint(w[5], SIZE_MAX, "XCOUNT");
    const size_t pos_count = (size_t)parse_uint(w[6], SIZE_MAX, "POSCOUNT");
    if (pos_count && pos_count != q.length) die(2, "POSCOUNT must be 0 or LENGTH", w[6]);
    void *x = read_block(x_count, dtype_size(dtype), "x");
    void *pos = read_block(pos_count, sizeof(uint32_t), "positions");
    pe_rope_plan *plan;
    guarded memory = rope_plan_for(&q, cache_rows, shift, &plan);
    guarded gx = guarded_alloc(mul_sizes(x_count, dtype_size(dtype), "x"), shift, "x");
    guarded gp = guarded_alloc(mul_sizes(pos_count, sizeof(uint32_t), "positions"), shift, "positions");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (pos_count) memcpy(gp.data, pos, gp.bytes);
    check_status(pe_rope_plan_apply(plan, dtype, seq_len, q.offset, q.length,
                                    pos_count ? (const uint32_t *)gp.data : NULL, gx.data, x_count),
                 "pe_rope_plan_apply");
    guarded_check(&gp);
    guarded_check(&memory);
    guarded_check(&gx);
    write_elements(gx.data, gx.bytes, framed);
    guarded_free(&gp);
    guarded_free(&gx);
    guarded_free(&memory);
    free(x);
    free(pos);
}

void serve_cos_sin(const rope_request *q, uint32_t axes, char **w, size_t shift, int framed) {
    const uint32_t cache_rows = (uint32_t)parse_uint(w[0], UINT32_MAX, "CACHEROWS");
    const pe_dtype dtype = parse_dtype(w[1]);
    const int expand = (int)parse_uint(w[2], 1, "EXPAND");
    const size_t pos_count = (size_t)parse_uint(w[3], SIZE_MAX, "POSCOUNT");
    if (pos_count && pos_count != (size_t)q->length * axes) die(2, "POSCOUNT must be 0 or LENGTH * axes", w[3]);
    void *pos = read_block(pos_count, sizeof(uint32_t), "positions");
    const uint32_t r = q->rope.rotary_dim ? q->rope.rotary_dim : q->rope.head_dim;
    const size_t count = mul_sizes(q->length, expand ? r : r / 2, "LENGTH*ROW");
    pe_rope_plan *plan;
    guarded memory = rope_plan_for(q, cache_rows, shift, &plan);
    guarded both = guarded_alloc(mul_sizes(2 * count, dtype_size(dtype), "cos and sin"), shift, "cos and sin");
    unsigned char *cos = both.data, *sin = cos + count * dtype_size(dtype);
    check_status(pe_rope_plan_cos_sin(plan, dtype, expand, q->offset, q->length,
                                      pos_count ? (const uint32_t *)pos : NULL, cos, sin, count),
                 "pe_rope_plan_cos_sin");
    guarded_check(&memory);
    guarded_check(&both);
    write_elements(both.data, both.bytes, framed);
    guarded_free(&both);
    guarded_free(&memory);
    free(pos);
}

static void serve_ropecs(char **w, size_t shift, int framed) {
    rope_request q = parse_rope(w[0], w[1]);
    serve_cos_sin(&q, 1, w + 2, shift, framed);
}

const harness_command rope_commands[] = {
    {"rope", 4, serve_rope, 2, oneshot_rope},
    {"ropefreq", 2, serve_ropefreq, -1, NULL},
    {"ropeplan", 7, serve_ropeplan, -1, NULL},
    {"ropecs", 6, serve_ropecs, -1, NULL},
    {NULL, 0, NULL, 0, NULL},
};
