/* The two instances of the kernel table (common/kernel_table.h), scalar and
 * SIMD, and the one switch between them, made once at start-up. */
#include "common/kernel_table.h"
#include "common/simd.h"

#define PE_KERNEL_SCALAR_ENTRY(name, ret, params) pe_##name##_scalar,
static const pe_kernel_table scalar_table = {PE_KERNEL_LIST(PE_KERNEL_SCALAR_ENTRY)};

#if PE_HAVE_SIMD
#define PE_KERNEL_SIMD_ENTRY(name, ret, params) pe_##name##_simd,
static const pe_kernel_table simd_table = {PE_KERNEL_LIST(PE_KERNEL_SIMD_ENTRY)};
static const pe_kernel_table *current = &simd_table;
#else
static const pe_kernel_table *current = &scalar_table;
#endif

const pe_kernel_table *pe_kernel_table_current(void) {
    return current;
}

pe_status pe_use_kernels(pe_kernels kernels) {
    switch (kernels) {
    case PE_KERNELS_SCALAR: current = &scalar_table; return PE_OK;
    case PE_KERNELS_SIMD:
#if PE_HAVE_SIMD
        current = &simd_table;
        return PE_OK;
#else
        return PE_ERR_KERNELS;
#endif
    }
    return PE_ERR_KERNELS;
}

pe_status pe_active_kernels(pe_kernels *kernels) {
    if (!kernels) return PE_ERR_NULL;
    *kernels = current == &scalar_table ? PE_KERNELS_SCALAR : PE_KERNELS_SIMD;
    return PE_OK;
}
