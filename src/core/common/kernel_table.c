/* The two kernel sets and the choice between them, made once at start-up. */
#include "kernels.h"

static void anchor_scalar(pe_plan *plan, uint32_t a) {
    pe_anchor_pairs_scalar(plan, a, 0);
}
static void jump_scalar(pe_plan *plan) {
    pe_jump_pairs_scalar(plan, 0);
}
static void seed_scalar(pe_plan *plan) {
    pe_seed_pairs_scalar(plan, 0);
}
static void jump_seed_scalar(pe_plan *plan) {
    pe_jump_pairs_scalar(plan, 0);
    pe_seed_pairs_scalar(plan, 0);
}
static void recur_scalar(pe_plan *plan, uint32_t rows, float *out, size_t stride) {
    pe_recur_columns_scalar(plan, 0, rows, out, stride);
}

const pe_kernel_set pe_kernels_scalar = {anchor_scalar, jump_scalar, seed_scalar, jump_seed_scalar, recur_scalar,
                                         pe_add_scalar};

#if PE_HAVE_SIMD_BUILD
void pe_anchor_simd(pe_plan *plan, uint32_t a);
void pe_jump_simd(pe_plan *plan);
void pe_seed_simd(pe_plan *plan);
void pe_jump_seed_simd(pe_plan *plan);
void pe_recur_simd(pe_plan *plan, uint32_t rows, float *out, size_t stride);
void pe_add_simd(float *x, const float *pe, size_t count, float scale);

const pe_kernel_set pe_kernels_simd = {pe_anchor_simd, pe_jump_simd, pe_seed_simd, pe_jump_seed_simd, pe_recur_simd,
                                       pe_add_simd};
static const pe_kernel_set *current = &pe_kernels_simd;
#else
static const pe_kernel_set *current = &pe_kernels_scalar;
#endif

const pe_kernel_set *pe_current_kernels(void) {
    return current;
}

pe_status pe_use_kernels(pe_kernels kernels) {
    switch (kernels) {
    case PE_KERNELS_SCALAR:
        current = &pe_kernels_scalar;
        return PE_OK;
    case PE_KERNELS_SIMD:
#if PE_HAVE_SIMD_BUILD
        current = &pe_kernels_simd;
        return PE_OK;
#else
        return PE_ERR_KERNELS;
#endif
    }
    return PE_ERR_KERNELS;
}

pe_status pe_active_kernels(pe_kernels *kernels) {
    if (!kernels) return PE_ERR_NULL;
    *kernels = current == &pe_kernels_scalar ? PE_KERNELS_SCALAR : PE_KERNELS_SIMD;
    return PE_OK;
}
