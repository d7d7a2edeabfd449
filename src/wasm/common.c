/* Wasm exports every family uses: the loader's allocator, statuses (as a
 * sentence and by name, so the JS layer maps them to its codes by name) and
 * which kernels run. */
#include <stdlib.h>

#include "export.h"

/* The loader's only allocator: buffers it hands to the calls of every family. */
EXPORT("pe_malloc") void *pe_malloc(size_t bytes) {
    return bytes ? aligned_alloc(16, (bytes + 15) & ~(size_t)15) : NULL;
}
EXPORT("pe_free") void pe_free(void *ptr) {
    free(ptr);
}

EXPORT("pe_wasm_status_str") const char *pe_wasm_status_str(int status) {
    return pe_status_str((pe_status)status);
}

/* The enumerator's name ("PE_ERR_DIM_ODD"), NUL-terminated ASCII. */
EXPORT("pe_wasm_status_name") const char *pe_wasm_status_name(int status) {
    return pe_status_name((pe_status)status);
}

/* 1 when this module runs the SIMD kernels. */
EXPORT("pe_wasm_simd") int pe_wasm_simd(void) {
    pe_kernels k = PE_KERNELS_SCALAR;
    pe_active_kernels(&k);
    return k == PE_KERNELS_SIMD;
}

/* The rounding switch (posenc.h pe_set_rounding): 0 fast, 1 correct; a status. */
EXPORT("pe_wasm_set_rounding") int pe_wasm_set_rounding(int rounding) {
    return pe_set_rounding((pe_rounding)rounding);
}
EXPORT("pe_wasm_rounding") int pe_wasm_rounding(void) {
    pe_rounding r = PE_ROUNDING_FAST;
    pe_rounding_mode(&r);
    return (int)r;
}
