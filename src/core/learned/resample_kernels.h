/* Internal: the row kernel of pe_resample_table. */
#ifndef PE_RESAMPLE_KERNELS_H
#define PE_RESAMPLE_KERNELS_H

#include <stddef.h>

#include "common/kernel_table.h"

/* out[j] = float32(w0 * a[j] + w1 * b[j]) for j < count, in double. */
typedef void (*pe_lerp_rows_fn)(float *out, const float *a, const float *b, double w0, double w1, size_t count);

#endif
