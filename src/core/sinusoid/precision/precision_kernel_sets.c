/* The reduced-precision kernels follow the plan kernels' choice
 * (pe_use_kernels), so one switch selects every kernel. */
#include "precision_kernels.h"

static void recur_f64_scalar(pe_plan *plan, uint32_t rows, double *out, size_t stride) {
    pe_recur_f64_columns_scalar(plan, 0, rows, out, stride);
}

static const pe_precision_kernels scalar_set = {recur_f64_scalar, pe_narrow_f16_scalar, pe_narrow_bf16_scalar};
#if PE_HAVE_SIMD_BUILD
static const pe_precision_kernels simd_set = {pe_recur_f64_simd, pe_narrow_f16_simd, pe_narrow_bf16_simd};
#endif

const pe_precision_kernels *pe_current_precision_kernels(void) {
#if PE_HAVE_SIMD_BUILD
    if (pe_current_kernels() != &pe_kernels_scalar) return &simd_set;
#endif
    return &scalar_set;
}
