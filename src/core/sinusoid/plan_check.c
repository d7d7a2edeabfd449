/* The argument checks that need the plan's layout (its size, its magic):
 * here, not in common/check.c, so common/ includes no family. */
#include "common/check.h"
#include "sinusoid/plan.h"

pe_status pe_check_scratch(const void *scratch, size_t scratch_bytes, uint32_t dim) {
    if (!scratch) return PE_ERR_NULL;
    return scratch_bytes < pe_plan_bytes(dim) ? PE_ERR_SCRATCH : PE_OK;
}

pe_status pe_check_one_shot(const pe_sinusoid *enc, const void *scratch, size_t scratch_bytes) {
    pe_status st = pe_check_sinusoid(enc);
    return st != PE_OK ? st : pe_check_scratch(scratch, scratch_bytes, enc->dim);
}

pe_status pe_check_table_rows(uint32_t dim, uint32_t offset, uint32_t length, const void *out, size_t out_count) {
    if ((uint64_t)offset + length > PE_MAX_POSITION) return PE_ERR_POSITION;
    return pe_check_rows_out(dim, length, out, out_count);
}

pe_status pe_check_table_at(uint32_t dim, const uint32_t *positions, size_t count, const void *out, size_t out_count) {
    if (count && !positions) return PE_ERR_NULL;
    /* Sizes first: a wrong count must not lead us to read past positions. */
    pe_status st = pe_check_rows_out(dim, count, out, out_count);
    if (st != PE_OK) return st;
    for (size_t r = 0; r < count; r++)
        if (positions[r] >= PE_MAX_POSITION) return PE_ERR_POSITION;
    return PE_OK;
}

pe_status pe_check_plan(const pe_plan *plan) {
    if (!plan) return PE_ERR_NULL;
    return plan->magic == PE_PLAN_MAGIC ? PE_OK : PE_ERR_PLAN;
}
