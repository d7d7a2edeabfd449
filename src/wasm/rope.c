/* Wasm exports of RoPE (export.h states the conventions). A pe_rotary
 * travels as ROTARY's doubles in wasm memory (src/js/runtime/boundary.js
 * names every slot; build.sh generates pe_wasm_rotary_in from it), written by
 * the JS RoPE module, so the loader never lays out a C struct. */
#include "export.h"
#include "pe_wasm_boundary.h"

static pe_rotary rotary_from(const double *spec) {
    pe_rotary rope;
    pe_wasm_rotary_in(spec, &rope);
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
int pe_wasm_rope(const double *spec, uint32_t offset, uint32_t length, const uint32_t *positions, float *x,
                 size_t x_count, void *scratch, size_t scratch_bytes) {
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
int pe_wasm_rope_plan_apply(pe_rope_plan *plan, int dtype, uint32_t heads, uint32_t sequence_length, uint32_t offset,
                            uint32_t length, const uint32_t *positions, void *x, size_t x_count) {
    return pe_rope_plan_apply_heads(plan, (pe_dtype)dtype, heads, sequence_length, offset, length, positions, x,
                                    x_count);
}

EXPORT("pe_wasm_rope_plan_cos_sin")
int pe_wasm_rope_plan_cos_sin(pe_rope_plan *plan, int dtype, int expand, uint32_t offset, uint32_t length,
                              const uint32_t *positions, void *cos, void *sin, size_t count) {
    return pe_rope_plan_cos_sin(plan, (pe_dtype)dtype, expand, offset, length, positions, cos, sin, count);
}
