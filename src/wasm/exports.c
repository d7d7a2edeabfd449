/* The wasm module's exports: the pe_ API with flat arguments, so the JS
 * loader passes numbers and pointers and never lays out C structs.
 * Sizes and positions arrive as i32 and are read as unsigned. */
#include <stdlib.h>

#include "../core/posenc.h"

#define EXPORT(name) __attribute__((export_name(name)))


/* The loader's only allocator: buffers it hands to the calls below. */
EXPORT("pe_malloc") void *pe_malloc(size_t bytes) { return bytes ? aligned_alloc(16, (bytes + 15) & ~(size_t)15) : NULL; }
EXPORT("pe_free") void pe_free(void *ptr) { free(ptr); }

/* Returns 0 when dim is refused (pe_table then says why). */
EXPORT("pe_wasm_scratch_size") size_t pe_wasm_scratch_size(uint32_t dim) {
    size_t bytes = 0;
    return pe_scratch_size(dim, &bytes) == PE_OK ? bytes : 0;
}

/* A plan in memory of pe_wasm_scratch_size(dim) bytes from pe_malloc (16-byte
 * aligned, so the plan starts at memory itself); the loader keeps one per
 * (dim, base, layout) and reuses it, so repeated calls skip the setup. */
EXPORT("pe_wasm_plan_init")
int pe_wasm_plan_init(uint32_t dim, double base, uint32_t layout, uint32_t frequencies, void *memory,
                      size_t bytes) {
    pe_sinusoid enc = {dim, base, (pe_layout)layout, (pe_frequencies)frequencies};
    pe_plan *plan;
    return pe_plan_init(&enc, memory, bytes, &plan);
}

/* A plan for the frequencies w[0 .. dim/2 - 1] (float64, in wasm memory). */
EXPORT("pe_wasm_plan_init_frequencies")
int pe_wasm_plan_init_frequencies(uint32_t dim, uint32_t layout, const double *w, void *memory, size_t bytes) {
    pe_plan *plan;
    return pe_plan_init_frequencies(dim, (pe_layout)layout, w, memory, bytes, &plan);
}

EXPORT("pe_wasm_plan_table")
int pe_wasm_plan_table(pe_plan *plan, uint32_t offset, uint32_t length, float *out, size_t out_count) {
    return pe_plan_table(plan, offset, length, out, out_count);
}

EXPORT("pe_wasm_plan_table_at")
int pe_wasm_plan_table_at(pe_plan *plan, const uint32_t *positions, size_t count, float *out,
                          size_t out_count) {
    return pe_plan_table_at(plan, positions, count, out, out_count);
}

EXPORT("pe_wasm_plan_add")
int pe_wasm_plan_add(pe_plan *plan, float *x, size_t x_count, uint32_t offset, uint32_t length,
                     float scale) {
    return pe_plan_add(plan, x, x_count, offset, length, scale);
}

EXPORT("pe_wasm_add_table")
int pe_wasm_add_table(float *x, size_t x_count, uint32_t length, uint32_t dim, const float *table,
                      uint32_t table_rows, uint32_t offset, float scale) {
    return pe_add_table(x, x_count, length, dim, table, table_rows, offset, scale);
}

EXPORT("pe_wasm_status_str") const char *pe_wasm_status_str(int status) {
    return pe_status_str((pe_status)status);
}

/* TEMPORARY (until the C restructure adds pe_status_name to posenc.h): the
 * enumerator's name of a status, e.g. "PE_ERR_DIM_ODD", so the JS runtime maps
 * statuses to its codes by name; NULL past the last status. */
static const char *const STATUS_NAMES[] = {
    "PE_OK",           "PE_ERR_NULL",        "PE_ERR_DIM_ODD",    "PE_ERR_DIM_RANGE", "PE_ERR_BASE",
    "PE_ERR_LAYOUT",   "PE_ERR_POSITION",    "PE_ERR_OUT_SIZE",   "PE_ERR_X_SIZE",    "PE_ERR_SCRATCH",
    "PE_ERR_TABLE_ROWS", "PE_ERR_SCALE",     "PE_ERR_TOO_LARGE",  "PE_ERR_KERNELS",   "PE_ERR_PLAN",
    "PE_ERR_HEADS",    "PE_ERR_OVERLAP",     "PE_ERR_FREQUENCIES", "PE_ERR_ROTARY_DIM", "PE_ERR_SCALING",
    "PE_ERR_ORDER",    "PE_ERR_DTYPE",       "PE_ERR_RECIPE",     "PE_ERR_DIM_2D",
};

EXPORT("pe_wasm_status_name") const char *pe_wasm_status_name(int status) {
    const int count = (int)(sizeof STATUS_NAMES / sizeof STATUS_NAMES[0]);
    return status >= 0 && status < count ? STATUS_NAMES[status] : NULL;
}

/* 1 when this module runs the SIMD kernels. */
EXPORT("pe_wasm_simd") int pe_wasm_simd(void) {
    pe_kernels k = PE_KERNELS_SCALAR;
    pe_active_kernels(&k);
    return k == PE_KERNELS_SIMD;
}
