/* Tables of the sinusoidal encoding: rows for a range of positions, or for a
 * list of positions; with a plan, or one-shot in scratch. */
#include <float.h>

#include "common/check.h"
#include "math/f64math.h"
#include "sinusoid/plan.h"
#include "sinusoid/settle.h"

pe_status pe_scratch_size(uint32_t dim, size_t *bytes) {
    if (!bytes) return PE_ERR_NULL;
    pe_sinusoid enc = {dim, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER};
    pe_status st = pe_check_sinusoid(&enc);
    if (st != PE_OK) return st;
    *bytes = pe_plan_bytes(dim);
    return PE_OK;
}

pe_status pe_plan_init(const pe_sinusoid *enc, void *memory, size_t bytes, pe_plan **plan) {
    pe_status st = pe_check_sinusoid(enc);
    if (st != PE_OK) return st;
    if (!plan) return PE_ERR_NULL;
    if ((st = pe_check_scratch(memory, bytes, enc->dim)) != PE_OK) return st;
    pe_plan *p = pe_plan_layout(enc->dim, enc->layout, memory);
    pe_encoding_frequencies_dd(enc, p->w, p->w_lo);
    const uint32_t half = enc->dim / 2;
    const double span = enc->frequencies == PE_FREQ_TENSOR2TENSOR ? (half > 1 ? half - 1 : 1) : half;
    p->w_err_step = pe_settle_w_err_step(pe_log(enc->base), span);
    pe_plan_finish(p);
    *plan = p;
    return PE_OK;
}

pe_status pe_plan_init_frequencies(uint32_t dim, pe_layout layout, const double *w, void *memory, size_t bytes,
                                   pe_plan **plan) {
    pe_sinusoid enc = {dim, 10000.0, layout, PE_FREQ_PAPER};
    pe_status st = pe_check_sinusoid(&enc);
    if (st != PE_OK) return st;
    if (!plan || !w) return PE_ERR_NULL;
    for (uint32_t i = 0; i < dim / 2; i++)
        if (!(w[i] >= 0.0 && w[i] <= PE_MAX_FREQUENCY)) return PE_ERR_FREQUENCY_VALUE; /* NaN fails too */
    if ((st = pe_check_scratch(memory, bytes, dim)) != PE_OK) return st;
    pe_plan *p = pe_plan_layout(dim, layout, memory);
    for (uint32_t i = 0; i < dim / 2; i++) p->w[i] = w[i], p->w_lo[i] = 0.0;
    pe_plan_finish(p);
    *plan = p;
    return PE_OK;
}

typedef struct table_out {
    const pe_kernel_table *k;
    float *out;
} table_out;

static void emit_float32(pe_plan *plan, uint32_t rows, uint32_t done, void *ctx) {
    const table_out *t = ctx;
    t->k->recur(plan, rows, t->out + (size_t)done * plan->dim, plan->dim);
}

/* Rows offset .. offset + length - 1 into out. */
static void rows(pe_plan *plan, const pe_kernel_table *k, uint32_t offset, uint32_t length, float *out) {
    table_out t = {k, out};
    pe_plan_walk(plan, k, offset, length, emit_float32, &t);
}

pe_status pe_plan_table(pe_plan *plan, uint32_t offset, uint32_t length, float *out, size_t out_count) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK) return st;
    if ((st = pe_check_table_rows(plan->dim, offset, length, out, out_count)) != PE_OK || length == 0) return st;
    rows(plan, pe_kernel_table_current(), offset, length, out);
    return PE_OK;
}

pe_status pe_plan_table_at(pe_plan *plan, const uint32_t *positions, size_t count, float *out, size_t out_count) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK) return st;
    if ((st = pe_check_table_at(plan->dim, positions, count, out, out_count)) != PE_OK) return st;
    const pe_kernel_table *k = pe_kernel_table_current();
    /* Runs of consecutive positions (a packed sequence, a cache window) go
     * through the table path together. */
    for (size_t r = 0; r < count;) {
        size_t run = 1;
        while (r + run < count && positions[r + run] == positions[r] + run) run++;
        rows(plan, k, positions[r], (uint32_t)run, out + r * plan->dim);
        r += run;
    }
    return PE_OK;
}

pe_status pe_table(const pe_sinusoid *enc, uint32_t offset, uint32_t length, float *out, size_t out_count,
                   void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_check_one_shot(enc, scratch, scratch_bytes);
    if (st != PE_OK || (st = pe_check_table_rows(enc->dim, offset, length, out, out_count)) != PE_OK) return st;
    if ((st = pe_plan_init(enc, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_plan_table(plan, offset, length, out, out_count);
}

pe_status pe_table_at(const pe_sinusoid *enc, const uint32_t *positions, size_t count, float *out, size_t out_count,
                      void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_check_one_shot(enc, scratch, scratch_bytes);
    if (st != PE_OK || (st = pe_check_table_at(enc->dim, positions, count, out, out_count)) != PE_OK) return st;
    if ((st = pe_plan_init(enc, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_plan_table_at(plan, positions, count, out, out_count);
}
