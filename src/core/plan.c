/* The per-call constants: frequencies, their sines and cosines, and the
 * recurrence coefficients, laid out in the caller's scratch. */
#include "f64math.h"
#include "kernels.h"

/* Arrays start 64 bytes past a cache line boundary from each other, so that
 * arrays of 4 KiB multiples don't alias in the cache. */
static size_t padded(size_t bytes) {
    return ((bytes + 63) & ~(size_t)63) + 64;
}

size_t pe_plan_bytes(uint32_t dim) {
    size_t half = dim / 2;
    return 16 /* alignment slack */ + 3 * padded(half * sizeof(double)) +
           3 * padded((size_t)dim * sizeof(double)) + padded((size_t)PE_BLOCK_ROWS * dim * sizeof(float));
}

static void *take(unsigned char **cursor, size_t bytes) {
    void *p = *cursor;
    *cursor += padded(bytes);
    return p;
}

void pe_prepare(pe_plan *plan, const pe_sinusoid *enc, void *scratch) {
    uint32_t dim = enc->dim, half = dim / 2;
    unsigned char *cursor = (unsigned char *)(((uintptr_t)scratch + 15) & ~(uintptr_t)15);
    double *w = take(&cursor, half * sizeof(double));
    double *cos_w = take(&cursor, half * sizeof(double));
    double *sin_w = take(&cursor, half * sizeof(double));
    double *coef = take(&cursor, (size_t)dim * sizeof(double));
    plan->row0 = take(&cursor, (size_t)dim * sizeof(double));
    plan->row1 = take(&cursor, (size_t)dim * sizeof(double));
    plan->tile = take(&cursor, (size_t)PE_BLOCK_ROWS * dim * sizeof(float));

    double log_base = pe_log(enc->base);
    for (uint32_t i = 0; i < half; i++) {
        /* w_i = T^(-2i/d) = e^(-(2i/d) ln T). */
        w[i] = pe_exp_nonpositive(-((double)(2 * i) * log_base / (double)dim));
        pe_sincos(w[i], &sin_w[i], &cos_w[i]);
    }
    for (uint32_t i = 0; i < half; i++) {
        uint32_t sin_col = enc->layout == PE_LAYOUT_SPLIT ? i : 2 * i;
        uint32_t cos_col = enc->layout == PE_LAYOUT_SPLIT ? half + i : 2 * i + 1;
        coef[sin_col] = coef[cos_col] = 2.0 * cos_w[i];
    }
    plan->dim = dim;
    plan->half = half;
    plan->layout = enc->layout;
    plan->w = w;
    plan->cos_w = cos_w;
    plan->sin_w = sin_w;
    plan->coef = coef;
}
