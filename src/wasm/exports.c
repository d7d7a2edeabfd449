/* The wasm module's exports: the pe_ API with flat arguments, so the JS
 * loader passes numbers and pointers and never lays out C structs.
 * Sizes and positions arrive as i32 and are read as unsigned. */
#include <stdlib.h>

#include "../core/posenc.h"

#define EXPORT(name) __attribute__((export_name(name)))

static pe_sinusoid sinusoid(uint32_t dim, double base, uint32_t layout) {
    pe_sinusoid enc = {dim, base, (pe_layout)layout};
    return enc;
}

/* The loader's only allocator: buffers it hands to the calls below. */
EXPORT("pe_malloc") void *pe_malloc(size_t bytes) { return bytes ? aligned_alloc(16, (bytes + 15) & ~(size_t)15) : NULL; }
EXPORT("pe_free") void pe_free(void *ptr) { free(ptr); }

/* Returns 0 when dim is refused (pe_table then says why). */
EXPORT("pe_wasm_scratch_size") size_t pe_wasm_scratch_size(uint32_t dim) {
    size_t bytes = 0;
    return pe_scratch_size(dim, &bytes) == PE_OK ? bytes : 0;
}

EXPORT("pe_wasm_table")
int pe_wasm_table(uint32_t dim, double base, uint32_t layout, uint32_t offset, uint32_t length,
                  float *out, size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_sinusoid enc = sinusoid(dim, base, layout);
    return pe_table(&enc, offset, length, out, out_count, scratch, scratch_bytes);
}

EXPORT("pe_wasm_table_at")
int pe_wasm_table_at(uint32_t dim, double base, uint32_t layout, const uint32_t *positions,
                     size_t count, float *out, size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_sinusoid enc = sinusoid(dim, base, layout);
    return pe_table_at(&enc, positions, count, out, out_count, scratch, scratch_bytes);
}

EXPORT("pe_wasm_add")
int pe_wasm_add(uint32_t dim, double base, uint32_t layout, float *x, size_t x_count, uint32_t offset,
                uint32_t length, float scale, void *scratch, size_t scratch_bytes) {
    pe_sinusoid enc = sinusoid(dim, base, layout);
    return pe_add(&enc, x, x_count, offset, length, scale, scratch, scratch_bytes);
}

EXPORT("pe_wasm_add_table")
int pe_wasm_add_table(float *x, size_t x_count, uint32_t length, uint32_t dim, const float *table,
                      uint32_t table_rows, uint32_t offset, float scale) {
    return pe_add_table(x, x_count, length, dim, table, table_rows, offset, scale);
}

EXPORT("pe_wasm_status_str") const char *pe_wasm_status_str(int status) {
    return pe_status_str((pe_status)status);
}

/* 1 when this module runs the SIMD kernels. */
EXPORT("pe_wasm_simd") int pe_wasm_simd(void) {
    pe_kernels k = PE_KERNELS_SCALAR;
    pe_active_kernels(&k);
    return k == PE_KERNELS_SIMD;
}
