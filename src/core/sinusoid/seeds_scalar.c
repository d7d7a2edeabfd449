/* Block seeds, scalar reference (see sinusoid/plan.h): the exact anchor, the jump
 * from block to block, and the block's first two rows in layout order. */
#include "math/dd.h"
#include "math/sincos.h"
#include "sinusoid/plan.h"

void pe_anchor_pairs_scalar(pe_plan *plan, uint32_t a, uint32_t i0) {
    for (uint32_t i = i0; i < plan->half; i++) {
        /* a * (w + w_lo) = hi + lo: the rounded product, its exact error and
         * a * w_lo, all far below ulp(hi). */
        pe_dd prod = pe_two_prod((double)a, plan->w[i]);
        pe_sincos2(prod.hi, prod.lo + (double)a * plan->w_lo[i], &plan->block_sin[i], &plan->block_cos[i]);
    }
}

void pe_jump_pairs_scalar(pe_plan *plan, uint32_t i0) {
    for (uint32_t i = i0; i < plan->half; i++) {
        double s = plan->block_sin[i], c = plan->block_cos[i];
        plan->block_sin[i] = s * plan->cos_jump[i] + c * plan->sin_jump[i];
        plan->block_cos[i] = c * plan->cos_jump[i] - s * plan->sin_jump[i];
    }
}

void pe_seed_pairs_scalar(pe_plan *plan, uint32_t i0) {
    const uint32_t half = plan->half;
    const int split = plan->layout == PE_LAYOUT_SPLIT;
    for (uint32_t i = i0; i < half; i++) {
        double s = plan->block_sin[i], c = plan->block_cos[i];
        double s1 = s * plan->cos_w[i] + c * plan->sin_w[i];
        double c1 = c * plan->cos_w[i] - s * plan->sin_w[i];
        uint32_t sin_col = split ? i : 2 * i;
        uint32_t cos_col = split ? half + i : 2 * i + 1;
        plan->row0[sin_col] = s;
        plan->row0[cos_col] = c;
        plan->row1[sin_col] = s1;
        plan->row1[cos_col] = c1;
    }
}

/* The kernel table's scalar entries: every pair. */
void pe_anchor_scalar(pe_plan *plan, uint32_t a) {
    pe_anchor_pairs_scalar(plan, a, 0);
}

void pe_jump_scalar(pe_plan *plan) {
    pe_jump_pairs_scalar(plan, 0);
}

void pe_seed_scalar(pe_plan *plan) {
    pe_seed_pairs_scalar(plan, 0);
}

void pe_jump_seed_scalar(pe_plan *plan) {
    pe_jump_pairs_scalar(plan, 0);
    pe_seed_pairs_scalar(plan, 0);
}
