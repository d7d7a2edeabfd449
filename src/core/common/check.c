#include <float.h>

#include "common/check.h"

pe_status pe_check_sinusoid(const pe_sinusoid *enc) {
    if (!enc) return PE_ERR_NULL;
    if (enc->dim == 0) return PE_ERR_DIM_RANGE;
    if (enc->dim % 2) return PE_ERR_DIM_ODD;
    if (enc->dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE;
    if (pe_check_base(enc->base) != PE_OK) return PE_ERR_BASE;
    if ((unsigned)enc->layout > PE_LAYOUT_SPLIT) return PE_ERR_LAYOUT;
    if ((unsigned)enc->frequencies > PE_FREQ_TENSOR2TENSOR) return PE_ERR_FREQUENCIES;
    return PE_OK;
}

pe_status pe_check_base(double base) {
    return base > 1.0 && base <= PE_MAX_BASE ? PE_OK : PE_ERR_BASE; /* NaN fails too */
}

pe_status pe_check_product(size_t a, size_t b, size_t *count) {
    if (a && b > SIZE_MAX / a) return PE_ERR_TOO_LARGE;
    *count = a * b;
    return PE_OK;
}

pe_status pe_check_batch(const float *x, size_t x_count, uint32_t length, uint32_t dim) {
    size_t slab;
    pe_status st = pe_check_product(length, dim, &slab);
    if (st != PE_OK) return st;
    if (slab == 0 ? x_count != 0 : x_count % slab != 0) return PE_ERR_X_SIZE;
    if (x_count && !x) return PE_ERR_NULL;
    return PE_OK;
}

pe_status pe_check_scale(float scale) {
    return scale >= -FLT_MAX && scale <= FLT_MAX ? PE_OK : PE_ERR_SCALE;
}

pe_status pe_check_rows_out(uint32_t dim, size_t rows, const void *out, size_t out_count) {
    size_t need;
    pe_status st = pe_check_product(rows, dim, &need);
    if (st != PE_OK) return st;
    if (out_count != need) return PE_ERR_OUT_SIZE;
    return out_count && !out ? PE_ERR_NULL : PE_OK;
}
