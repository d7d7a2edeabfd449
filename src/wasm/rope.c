/* Wasm exports of RoPE (export.h states the conventions). A pe_rotary
 * travels as an array of 25 doubles in wasm memory, written by the JS RoPE
 * module, so the loader never lays out a C struct:
 *   0 head_dim  1 rotary_dim  2 heads  3 base  4 layout  5 order  6 inverse
 *   7 scaling type  8 factor  9 original_max_position_embeddings
 *   10 beta_fast  11 beta_slow  12 attention_factor  13 mscale  14 mscale_all_dim
 *   15 no_truncate  16 low_freq_factor  17 high_freq_factor  18 sequence_length
 *   19 short_factor  20 long_factor (LONGROPE: addresses of rotary_dim/2 doubles in wasm memory)
 *   21 axes type  22-24 mrope_section
 *   25 xpos scale_base (0: off)  26 xpos gamma  27 xpos key  28 xpos center
 */
#include "export.h"

/* A whole number in uint32 range, else UINT32_MAX (which the core refuses
 * wherever it matters): a double outside the range must not reach a cast. */
static uint32_t whole(double v) {
    return v >= 0.0 && v <= 4294967295.0 ? (uint32_t)v : UINT32_MAX;
}

static pe_rotary rotary_from(const double *s) {
    pe_rotary rope;
    rope.head_dim = whole(s[0]);
    rope.rotary_dim = whole(s[1]);
    rope.heads = whole(s[2]);
    rope.base = s[3];
    rope.layout = (pe_layout)whole(s[4]);
    rope.order = (pe_rope_order)whole(s[5]);
    rope.inverse = s[6] != 0.0;
    rope.scaling.type = (pe_rope_scaling_type)whole(s[7]);
    rope.scaling.factor = s[8];
    rope.scaling.original_max_position_embeddings = whole(s[9]);
    rope.scaling.beta_fast = s[10];
    rope.scaling.beta_slow = s[11];
    rope.scaling.attention_factor = s[12];
    rope.scaling.mscale = s[13];
    rope.scaling.mscale_all_dim = s[14];
    rope.scaling.no_truncate = s[15] != 0.0;
    rope.scaling.low_freq_factor = s[16];
    rope.scaling.high_freq_factor = s[17];
    rope.scaling.sequence_length = whole(s[18]);
    rope.scaling.short_factor = (const double *)(uintptr_t)whole(s[19]);
    rope.scaling.long_factor = (const double *)(uintptr_t)whole(s[20]);
    rope.axes.type = (pe_rope_axes_type)whole(s[21]);
    for (int k = 0; k < PE_ROPE_MROPE_AXES; k++) rope.axes.mrope_section[k] = whole(s[22 + k]);
    rope.xpos.scale_base = s[25];
    rope.xpos.gamma = s[26];
    rope.xpos.key = s[27] != 0.0;
    rope.xpos.center = whole(s[28]);
    return rope;
}

/* 0 when the spec is refused (pe_wasm_rope then says why). */
EXPORT("pe_wasm_rope_scratch_size") size_t pe_wasm_rope_scratch_size(const double *spec) {
    pe_rotary rope = rotary_from(spec);
    size_t bytes = 0;
    return pe_rope_scratch_size(&rope, &bytes) == PE_OK ? bytes : 0;
}

/* xPos's reach (pe_rope_xpos_reach), or -1 when the spec is refused. */
EXPORT("pe_wasm_rope_xpos_reach") double pe_wasm_rope_xpos_reach(const double *spec) {
    pe_rotary rope = rotary_from(spec);
    uint32_t reach = 0;
    return pe_rope_xpos_reach(&rope, &reach) == PE_OK ? (double)reach : -1.0;
}

EXPORT("pe_wasm_rope_frequencies")
int pe_wasm_rope_frequencies(const double *spec, double *w, size_t w_count, double *attention_factor) {
    pe_rotary rope = rotary_from(spec);
    return pe_rope_frequencies(&rope, w, w_count, attention_factor);
}

EXPORT("pe_wasm_rope")
int pe_wasm_rope(const double *spec, float *x, size_t x_count, uint32_t length, uint32_t offset,
                 const uint32_t *positions, void *scratch, size_t scratch_bytes) {
    pe_rotary rope = rotary_from(spec);
    return pe_rope(&rope, offset, length, positions, x, x_count, scratch, scratch_bytes);
}

/* Plans: bytes for a plan with cache_rows cached rows, 0 when refused. */
EXPORT("pe_wasm_rope_plan_size") size_t pe_wasm_rope_plan_size(const double *spec, uint32_t cache_rows) {
    pe_rotary rope = rotary_from(spec);
    size_t bytes = 0;
    return pe_rope_plan_size(&rope, cache_rows, &bytes) == PE_OK ? bytes : 0;
}

/* The plan's address goes to *plan (a 4-byte slot). */
EXPORT("pe_wasm_rope_plan_init")
int pe_wasm_rope_plan_init(const double *spec, uint32_t cache_rows, void *memory, size_t bytes, pe_rope_plan **plan) {
    pe_rotary rope = rotary_from(spec);
    return pe_rope_plan_init(&rope, cache_rows, memory, bytes, plan);
}

EXPORT("pe_wasm_rope_plan_apply")
int pe_wasm_rope_plan_apply(pe_rope_plan *plan, int dtype, uint32_t heads, void *x, size_t x_count, uint32_t length,
                            uint32_t offset, const uint32_t *positions, uint32_t sequence_length) {
    return pe_rope_plan_apply_heads(plan, (pe_dtype)dtype, heads, sequence_length, offset, length, positions, x,
                                    x_count);
}

EXPORT("pe_wasm_rope_plan_cos_sin")
int pe_wasm_rope_plan_cos_sin(pe_rope_plan *plan, int dtype, uint32_t length, uint32_t offset,
                              const uint32_t *positions, int expand, void *cos, void *sin, size_t count) {
    return pe_rope_plan_cos_sin(plan, (pe_dtype)dtype, expand, offset, length, positions, cos, sin, count);
}
