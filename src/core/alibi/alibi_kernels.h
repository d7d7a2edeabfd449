/* Internal: the ALiBi row kernels. A bias row is made of ramps: runs of keys
 * whose distance to the query changes by one per key. */
#ifndef PE_ALIBI_KERNELS_H
#define PE_ALIBI_KERNELS_H

#include <stddef.h>

#include "common/kernel_table.h"

/* out[t] = float32(0.0 - slope * (d0 + step * t)) for t < count, all in
 * double; d0 and step (+1 or -1) are whole numbers and every distance stays
 * in [0, 2^32), so d is exact. 0 - p rather than -p: distance 0 gives +0. */
/* The kernel table entry alibi_ramp. */
typedef void (*pe_alibi_ramp_fn)(float *out, size_t count, double slope, double d0, double step);

/* The kernel table entry alibi_rows: rows of count keys, row i at
 * out + i * stride, out[i * stride + t] = 0.0f - slope * |d0 - i + t| for
 * t < count, in float32, where d0 is a whole number and every |d0 - i + t|
 * stays below 2^24 (so each distance is exact). With slope a float32, the
 * double product of alibi_ramp is then exact too, so both round once to the
 * same float32. A head's rows are computed in one call (one call a row cost
 * 1-5% of the bias); for wide rows only the first rows and the first keys of
 * the rest, which alibi.c's exact_rows copies. */
typedef void (*pe_alibi_rows_fn)(float *out, size_t rows, size_t count, size_t stride, float slope, float d0);

/* Distances below this are exact in float32 and make alibi_rows' rows. */
#define PE_ALIBI_ROW_EXACT 16777216.0 /* 2^24 */

#endif
