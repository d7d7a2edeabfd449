/* Wasm exports of the sinusoidal tables and the embedding add, through
 * plans the loader keeps (export.h states the conventions). */
#include "export.h"

/* Returns 0 when dim is refused (pe_wasm_plan_init then says why). */
EXPORT("pe_wasm_scratch_size") size_t pe_wasm_scratch_size(uint32_t dim) {
    size_t bytes = 0;
    return pe_scratch_size(dim, &bytes) == PE_OK ? bytes : 0;
}

/* A plan in memory of pe_wasm_scratch_size(dim) bytes from pe_malloc (16-byte
 * aligned, so the plan starts at memory itself); the loader keeps one per
 * (dim, base, layout) and reuses it, so repeated calls skip the setup. */
EXPORT("pe_wasm_plan_init")
int pe_wasm_plan_init(uint32_t dim, double base, uint32_t layout, uint32_t frequencies, void *memory, size_t bytes) {
    pe_sinusoid enc = {dim, base, (pe_layout)layout, (pe_frequencies)frequencies};
    pe_plan *plan;
    return pe_plan_init(&enc, memory, bytes, &plan);
}

EXPORT("pe_wasm_plan_table")
int pe_wasm_plan_table(pe_plan *plan, uint32_t offset, uint32_t length, float *out, size_t out_count) {
    return pe_plan_table(plan, offset, length, out, out_count);
}

EXPORT("pe_wasm_plan_table_at")
int pe_wasm_plan_table_at(pe_plan *plan, const uint32_t *positions, size_t count, float *out, size_t out_count) {
    return pe_plan_table_at(plan, positions, count, out, out_count);
}

EXPORT("pe_wasm_plan_add")
int pe_wasm_plan_add(pe_plan *plan, float scale, uint32_t offset, uint32_t length, float *x, size_t x_count) {
    return pe_plan_add(plan, scale, offset, length, x, x_count);
}
