/* The embedding add: x (batch, length, dim) = x * scale + PE, in place. */
#include "common/check.h"
#include "sinusoid/plan.h"

/* PE is made a tile of rows at a time (sinusoid/plan.h: PE_TILE_FLOATS; a tile may
 * span several blocks) and added to every batch item while the tile is in
 * cache: the table is computed once per call and never stored whole. */
typedef struct add_state {
    const pe_kernel_table *k;
    float *x;
    size_t slab, batch;
    uint32_t length, filled; /* rows asked; rows now in the tile */
    float scale;
} add_state;

static void emit_into_tile(pe_plan *plan, uint32_t rows, uint32_t done, void *ctx) {
    add_state *a = ctx;
    const size_t dim = plan->dim;
    while (rows) {
        uint32_t g = rows < plan->tile_rows - a->filled ? rows : plan->tile_rows - a->filled;
        a->k->recur(plan, g, plan->tile + (size_t)a->filled * dim, dim);
        a->filled += g;
        rows -= g;
        done += g;
        if (a->filled == plan->tile_rows || done == a->length) {
            float *first = a->x + (size_t)(done - a->filled) * dim;
            for (size_t b = 0; b < a->batch; b++)
                a->k->add(first + b * a->slab, plan->tile, (size_t)a->filled * dim, a->scale);
            a->filled = 0;
        }
    }
}

/* pe_plan_add's checks, before pe_add builds its plan too. */
static pe_status check_add(uint32_t dim, float scale, uint32_t offset, uint32_t length, const float *x,
                           size_t x_count) {
    if ((uint64_t)offset + length > PE_MAX_POSITION) return PE_ERR_POSITION;
    pe_status st = pe_check_batch(x, x_count, length, dim);
    return st != PE_OK ? st : pe_check_scale(scale);
}

pe_status pe_plan_add(pe_plan *plan, float scale, uint32_t offset, uint32_t length, float *x, size_t x_count) {
    pe_status st = pe_check_plan(plan);
    if (st != PE_OK || (st = check_add(plan->dim, scale, offset, length, x, x_count)) != PE_OK) return st;
    if (x_count == 0) return PE_OK;

    const size_t slab = (size_t)length * plan->dim;
    add_state a = {pe_kernel_table_current(), x, slab, x_count / slab, length, 0, scale};
    pe_plan_walk(plan, a.k, offset, length, emit_into_tile, &a);
    return PE_OK;
}

pe_status pe_add(const pe_sinusoid *enc, float scale, uint32_t offset, uint32_t length, float *x, size_t x_count,
                 void *scratch, size_t scratch_bytes) {
    pe_plan *plan;
    pe_status st = pe_check_one_shot(enc, scratch, scratch_bytes);
    if (st != PE_OK || (st = check_add(enc->dim, scale, offset, length, x, x_count)) != PE_OK) return st;
    if ((st = pe_plan_init(enc, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_plan_add(plan, scale, offset, length, x, x_count);
}
