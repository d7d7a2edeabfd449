/* Tables in other element types: float16 and bfloat16 rounded once from the
 * core's float64 values, or those float64 values themselves. The rows come
 * from the same anchors, jumps, seeds and recurrence as pe_plan_table, so a
 * float16 value is the rounding of the very float64 whose float32 rounding
 * pe_plan_table stores. Under PE_ROUNDING_CORRECT (pe_set_rounding) a
 * float64 within PE_FAST_BOUND of a float16 or bfloat16 midpoint is first
 * replaced by the exact value rounded once (sinusoid/settle.h), so every
 * 16-bit value is correctly rounded; the default narrows the float64 as is. */
#include "common/check.h"
#include "sinusoid/precision/precision_kernels.h"
#include "sinusoid/settle.h"

static size_t dtype_bytes(pe_dtype dtype) {
    return dtype == PE_DTYPE_FLOAT64 ? 8 : dtype == PE_DTYPE_FLOAT32 ? 4 : 2;
}

static pe_status check_dtype(pe_dtype dtype) {
    return (unsigned)dtype <= PE_DTYPE_FLOAT64 ? PE_OK : PE_ERR_DTYPE;
}

/* n rows from the plan's current recurrence state into out (row stride dim). */
static void emit(pe_plan *plan, const pe_kernel_table *k, pe_dtype dtype, uint32_t n, void *out) {
    const uint32_t dim = plan->dim;
    const int settle = pe_rounding_is_correct(); /* once per call, never per value */
    if (dtype == PE_DTYPE_FLOAT64) {
        /* Raw float64, or settled for the 16-bit format RoPE narrows them to. */
        const uint32_t first = plan->row_pos;
        k->recur_f64(plan, n, (double *)out, dim);
        if (settle) pe_settle_rows_16(plan, plan->settle_for, first, n, (double *)out, dim);
        return;
    }
    /* Through the plan's tile, which holds tile_rows / 2 (>= 4) rows of float64. */
    void (*narrow)(const double *, uint16_t *, size_t) = dtype == PE_DTYPE_FLOAT16 ? k->narrow_f16 : k->narrow_bf16;
    double *tile = (double *)(void *)plan->tile;
    const uint32_t per = plan->tile_rows / 2;
    for (uint32_t r0 = 0; r0 < n; r0 += per) {
        const uint32_t g = n - r0 < per ? n - r0 : per;
        const uint32_t first = plan->row_pos;
        k->recur_f64(plan, g, tile, dim);
        if (settle) pe_settle_rows_16(plan, dtype, first, g, tile, dim);
        narrow(tile, (uint16_t *)out + (size_t)r0 * dim, (size_t)g * dim);
    }
}

typedef struct dtype_out {
    const pe_kernel_table *k;
    pe_dtype dtype;
    unsigned char *out;
    size_t row_bytes;
} dtype_out;

static void emit_rows(pe_plan *plan, uint32_t rows, uint32_t done, void *ctx) {
    const dtype_out *t = ctx;
    emit(plan, t->k, t->dtype, rows, t->out + (size_t)done * t->row_bytes);
}

/* Rows offset .. offset + length - 1, as table.c's rows(). */
static void rows(pe_plan *plan, pe_dtype dtype, uint32_t offset, uint32_t length, void *out) {
    dtype_out t = {pe_kernel_table_current(), dtype, out, (size_t)plan->dim * dtype_bytes(dtype)};
    pe_plan_walk(plan, t.k, offset, length, emit_rows, &t);
}

pe_status pe_plan_table_dtype(pe_plan *plan, pe_dtype dtype, uint32_t offset, uint32_t length, void *out,
                              size_t out_count) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK || (st = check_dtype(dtype)) != PE_OK) return st;
    if (dtype == PE_DTYPE_FLOAT32) return pe_plan_table(plan, offset, length, (float *)out, out_count);
    if ((st = pe_check_table_rows(plan->dim, offset, length, out, out_count)) != PE_OK || length == 0) return st;
    rows(plan, dtype, offset, length, out);
    return PE_OK;
}

pe_status pe_plan_table_at_dtype(pe_plan *plan, pe_dtype dtype, const uint32_t *positions, size_t count, void *out,
                                 size_t out_count) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK || (st = check_dtype(dtype)) != PE_OK) return st;
    if (dtype == PE_DTYPE_FLOAT32) return pe_plan_table_at(plan, positions, count, (float *)out, out_count);
    if ((st = pe_check_table_at(plan->dim, positions, count, out, out_count)) != PE_OK) return st;
    const size_t row_bytes = (size_t)plan->dim * dtype_bytes(dtype);
    for (size_t r = 0; r < count;) {
        size_t run = 1;
        while (r + run < count && positions[r + run] == positions[r] + run) run++;
        rows(plan, dtype, positions[r], (uint32_t)run, (unsigned char *)out + r * row_bytes);
        r += run;
    }
    return PE_OK;
}

pe_status pe_table_dtype(const pe_sinusoid *enc, pe_dtype dtype, uint32_t offset, uint32_t length, void *out,
                         size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_check_one_shot(enc, scratch, scratch_bytes);
    if (st != PE_OK || (st = check_dtype(dtype)) != PE_OK) return st;
    if ((st = pe_check_table_rows(enc->dim, offset, length, out, out_count)) != PE_OK) return st;
    if ((st = pe_plan_init(enc, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_plan_table_dtype(plan, dtype, offset, length, out, out_count);
}

pe_status pe_table_at_dtype(const pe_sinusoid *enc, pe_dtype dtype, const uint32_t *positions, size_t count, void *out,
                            size_t out_count, void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_check_one_shot(enc, scratch, scratch_bytes);
    if (st != PE_OK || (st = check_dtype(dtype)) != PE_OK) return st;
    if ((st = pe_check_table_at(enc->dim, positions, count, out, out_count)) != PE_OK) return st;
    if ((st = pe_plan_init(enc, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_plan_table_at_dtype(plan, dtype, positions, count, out, out_count);
}

pe_status pe_narrow_f64(pe_dtype dtype, const double *in, size_t count, void *out, size_t out_count) {
    pe_status st = check_dtype(dtype);
    if (st != PE_OK) return st;
    if (out_count != count) return PE_ERR_OUT_SIZE;
    if (count && (!in || !out)) return PE_ERR_NULL;
    const pe_kernel_table *kt = pe_kernel_table_current();
    switch (dtype) {
    case PE_DTYPE_FLOAT16: kt->narrow_f16(in, (uint16_t *)out, count); break;
    case PE_DTYPE_BFLOAT16: kt->narrow_bf16(in, (uint16_t *)out, count); break;
    case PE_DTYPE_FLOAT32:
        for (size_t k = 0; k < count; k++) ((float *)out)[k] = (float)in[k];
        break;
    case PE_DTYPE_FLOAT64:
        for (size_t k = 0; k < count; k++) ((double *)out)[k] = in[k];
        break;
    }
    return PE_OK;
}
