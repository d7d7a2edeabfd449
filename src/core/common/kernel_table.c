/* The two instances of the kernel table (common/kernel_table.h), scalar and
 * SIMD, and the one switch between them, made once at start-up; the rounding
 * switch makes a copy of the chosen one whose `recur` is its `recur_checked`. */
#include "common/kernel_table.h"
#include "common/simd.h"

#define PE_KERNEL_SCALAR_ENTRY(name, ret, params) pe_##name##_scalar,
static const pe_kernel_table scalar_table = {PE_KERNEL_LIST(PE_KERNEL_SCALAR_ENTRY)};

#if PE_HAVE_SIMD
#define PE_KERNEL_SIMD_ENTRY(name, ret, params) pe_##name##_simd,
static const pe_kernel_table simd_table = {PE_KERNEL_LIST(PE_KERNEL_SIMD_ENTRY)};
static const pe_kernel_table *base = &simd_table;
#else
static const pe_kernel_table *base = &scalar_table;
#endif
static pe_rounding rounding = PE_ROUNDING_FAST;
static pe_kernel_table checked_table; /* *base with recur = recur_checked */
static const pe_kernel_table *current;

/* current from base and rounding; called by both switches. */
static void choose(void) {
    if (rounding == PE_ROUNDING_FAST) {
        current = base;
        return;
    }
    checked_table = *base;
    checked_table.recur = base->recur_checked;
    current = &checked_table;
}

const pe_kernel_table *pe_kernel_table_current(void) {
    return current ? current : base;
}

int pe_rounding_is_correct(void) {
    return rounding == PE_ROUNDING_CORRECT;
}

pe_status pe_set_rounding(pe_rounding r) {
    if (r != PE_ROUNDING_FAST && r != PE_ROUNDING_CORRECT) return PE_ERR_ROUNDING;
    rounding = r;
    choose();
    return PE_OK;
}

pe_status pe_rounding_mode(pe_rounding *r) {
    if (!r) return PE_ERR_NULL;
    *r = rounding;
    return PE_OK;
}

pe_status pe_use_kernels(pe_kernels kernels) {
    switch (kernels) {
    case PE_KERNELS_SCALAR:
        base = &scalar_table;
        choose();
        return PE_OK;
    case PE_KERNELS_SIMD:
#if PE_HAVE_SIMD
        base = &simd_table;
        choose();
        return PE_OK;
#else
        return PE_ERR_KERNELS;
#endif
    }
    return PE_ERR_KERNELS;
}

pe_status pe_active_kernels(pe_kernels *kernels) {
    if (!kernels) return PE_ERR_NULL;
    *kernels = base == &scalar_table ? PE_KERNELS_SCALAR : PE_KERNELS_SIMD;
    return PE_OK;
}
