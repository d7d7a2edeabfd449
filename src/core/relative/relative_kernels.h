/* Internal: the pieces of the relative family (T5 buckets, Shaw indices)
 * shared between its files. A bucket or index row is made of runs: stretches
 * of keys with one value (fill) and stretches where the value moves by one per
 * key (ramp), so rows are written by two small kernels, scalar and SIMD. */
#ifndef PE_RELATIVE_KERNELS_H
#define PE_RELATIVE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

/* The run kernels (entries fill32 and ramp_i32 of PE_KERNEL_LIST,
 * common/kernel_table.h):
 *   fill32:   out[t] = bits for t < count (an int32 bucket or a float32 bias, as bits)
 *   ramp_i32: out[t] = start + step * t for t < count (int32, step +1 or -1, no overflow) */
#include "common/kernel_table.h"

/* log(x) correctly rounded to float32, for x finite and >= 1 (the T5 bucket
 * arguments; checked exhaustively on [1, 2^31]). No libm. */
float pe_relative_log_f32(float x);

#endif
