/* The plan: per-encoding constants (frequencies, their rotations, the
 * recurrence coefficients) and the running state, laid out in caller memory. */
#include "sinusoid/plan.h"
#include "math/dd.h"
#include "math/sincos.h"

/* Arrays start 64 bytes past a cache line boundary from each other, so that
 * arrays of 4 KiB multiples don't alias in the cache. */
static size_t padded(size_t bytes) {
    return ((bytes + 63) & ~(size_t)63) + 64;
}

uint32_t pe_tile_rows(uint32_t dim) {
    uint32_t rows = PE_TILE_FLOATS / dim;
    rows = rows > PE_TILE_MAX_ROWS ? PE_TILE_MAX_ROWS : rows;
    rows -= rows % PE_ROW_GROUP;
    return rows < PE_ROW_GROUP ? PE_ROW_GROUP : rows;
}

size_t pe_plan_bytes(uint32_t dim) {
    size_t half = dim / 2;
    return 16 /* alignment slack */ + padded(sizeof(pe_plan)) + 8 * padded(half * sizeof(double)) +
           3 * padded((size_t)dim * sizeof(double)) + padded((size_t)pe_tile_rows(dim) * dim * sizeof(float));
}

static void *take(unsigned char **cursor, size_t bytes) {
    void *p = *cursor;
    *cursor += padded(bytes);
    return p;
}

pe_plan *pe_plan_layout(uint32_t dim, pe_layout layout, void *memory) {
    const uint32_t half = dim / 2;
    unsigned char *cursor = (unsigned char *)(((uintptr_t)memory + 15) & ~(uintptr_t)15);
    pe_plan *plan = take(&cursor, sizeof(pe_plan));
    plan->magic = 0; /* not a plan until pe_plan_finish */
    plan->dim = dim;
    plan->half = half;
    plan->layout = layout;
    plan->w = take(&cursor, half * sizeof(double));
    plan->w_lo = take(&cursor, half * sizeof(double));
    plan->cos_w = take(&cursor, half * sizeof(double));
    plan->sin_w = take(&cursor, half * sizeof(double));
    plan->cos_jump = take(&cursor, half * sizeof(double));
    plan->sin_jump = take(&cursor, half * sizeof(double));
    plan->block_sin = take(&cursor, half * sizeof(double));
    plan->block_cos = take(&cursor, half * sizeof(double));
    plan->coef = take(&cursor, (size_t)dim * sizeof(double));
    plan->row0 = take(&cursor, (size_t)dim * sizeof(double));
    plan->row1 = take(&cursor, (size_t)dim * sizeof(double));
    plan->tile_rows = pe_tile_rows(dim);
    plan->tile = take(&cursor, (size_t)plan->tile_rows * dim * sizeof(float));
    plan->row_pos = 0;
    plan->w_err_step = 0.0; /* given frequencies are exact; pe_plan_init sets the rest */
    plan->settle_for = PE_DTYPE_FLOAT64;
    return plan;
}

void pe_encoding_frequencies_dd(const pe_sinusoid *enc, double *w, double *w_lo) {
    const uint32_t half = enc->dim / 2;
    /* w_i = T^(-i/span) = rho^i, span = h (paper) or max(h - 1, 1), with
     * rho = e^(-ln T / span) in double-double: the running product loses
     * about 2^-104 a step, still under 2^-88 after 32768 pairs. */
    const double span = enc->frequencies == PE_FREQ_TENSOR2TENSOR ? (half > 1 ? half - 1 : 1) : half;
    pe_dd log_rho = pe_dd_div_d(pe_log_dd(enc->base), -span);
    pe_dd rho = pe_exp_dd_nonpositive(log_rho), wi = pe_dd_make(1.0, 0.0);
    for (uint32_t i = 0; i < half; i++) {
        w[i] = wi.hi;
        if (w_lo) w_lo[i] = wi.lo;
        wi = pe_dd_mul(wi, rho);
    }
}

void pe_encoding_frequencies(const pe_sinusoid *enc, double *w) {
    pe_encoding_frequencies_dd(enc, w, NULL);
}

void pe_plan_finish(pe_plan *plan) {
    double *cos_w = (double *)plan->cos_w, *sin_w = (double *)plan->sin_w;
    double *cos_jump = (double *)plan->cos_jump, *sin_jump = (double *)plan->sin_jump;
    double *coef = (double *)plan->coef;
    for (uint32_t i = 0; i < plan->half; i++) {
        const double w = plan->w[i], lo = plan->w_lo[i];
        pe_sincos2(w, lo, &sin_w[i], &cos_w[i]);
        pe_sincos2((double)PE_BLOCK_ROWS * w, (double)PE_BLOCK_ROWS * lo, &sin_jump[i], &cos_jump[i]);
        uint32_t sin_col = plan->layout == PE_LAYOUT_SPLIT ? i : 2 * i;
        uint32_t cos_col = plan->layout == PE_LAYOUT_SPLIT ? plan->half + i : 2 * i + 1;
        coef[sin_col] = coef[cos_col] = 2.0 * cos_w[i];
    }
    plan->block_pos = UINT32_MAX;
    plan->magic = PE_PLAN_MAGIC;
}

void pe_plan_seek(pe_plan *plan, const pe_kernel_table *k, uint32_t p0) {
    const uint32_t a = p0 - p0 % PE_ANCHOR_ROWS;
    /* The running block state is reusable when it lies on the way from this
     * block's anchor to it: then the jumps left are the same operations. */
    if (plan->block_pos == UINT32_MAX || plan->block_pos < a || plan->block_pos > p0) {
        k->anchor(plan, a);
        plan->block_pos = a;
    }
    plan->row_pos = p0;
    if (plan->block_pos == p0) {
        k->seed(plan);
        return;
    }
    /* The last jump goes with the seed: one pass over the pairs, not two. */
    for (; plan->block_pos + PE_BLOCK_ROWS < p0; plan->block_pos += PE_BLOCK_ROWS) k->jump(plan);
    plan->block_pos = p0;
    k->jump_seed(plan);
}

void pe_plan_walk(pe_plan *plan, const pe_kernel_table *k, uint32_t offset, uint32_t length, pe_emit_rows emit,
                  void *ctx) {
    const uint32_t end = offset + length;
    for (uint32_t p0 = offset - offset % PE_BLOCK_ROWS; p0 < end; p0 += PE_BLOCK_ROWS) {
        uint32_t first = p0 < offset ? offset - p0 : 0;
        uint32_t last = end - p0 < PE_BLOCK_ROWS ? end - p0 : PE_BLOCK_ROWS;
        pe_plan_seek(plan, k, p0);
        if (first) k->recur(plan, first, NULL, 0);
        emit(plan, last - first, p0 + first - offset, ctx);
    }
}
