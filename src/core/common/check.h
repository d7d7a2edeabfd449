/* Argument checks shared by the entry points: each returns PE_OK or the
 * status that names what is wrong, before anything is written. The checks
 * of a sinusoid plan and its scratch are in sinusoid/plan.h. */
#ifndef PE_CHECK_H
#define PE_CHECK_H

#include "posenc.h"

pe_status pe_check_sinusoid(const pe_sinusoid *enc);
/* PE_OK when 1 < base <= PE_MAX_BASE (NaN is refused). */
pe_status pe_check_base(double base);
/* count = a * b, or PE_ERR_TOO_LARGE when it overflows size_t. */
pe_status pe_check_product(size_t a, size_t b, size_t *count);
/* x holds whole (length, dim) slabs: x_count a multiple of length * dim. */
pe_status pe_check_batch(const float *x, size_t x_count, uint32_t length, uint32_t dim);
pe_status pe_check_scale(float scale);
/* out holds exactly rows * dim values (and is not NULL unless that is 0). */
pe_status pe_check_rows_out(uint32_t dim, size_t rows, const void *out, size_t out_count);

#endif
