/* Internal: the ALiBi row kernel. A bias row is made of ramps: runs of keys
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

/* The kernel table entry alibi_copy: dst[t] = src[t] for t < count; the
 * ranges do not overlap. Each query row after a head's first is the row above
 * moved one key to the right (the same distances, so the same values), so
 * rows are copied, not recomputed. */
typedef void (*pe_alibi_copy_fn)(float *dst, const float *src, size_t count);

#endif
