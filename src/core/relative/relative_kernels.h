/* Internal: the pieces of the relative family (T5 buckets, Shaw indices)
 * shared between its files. A bucket or index row is made of runs: stretches
 * of keys with one value (fill) and stretches where the value moves by one per
 * key (ramp), so rows are written by two small kernels, scalar and SIMD. */
#ifndef PE_RELATIVE_KERNELS_H
#define PE_RELATIVE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "../posenc.h"

/* out[t] = bits for t < count: an int32 bucket or a float32 bias, as bits. */
typedef void (*pe_fill32_fn)(uint32_t *out, size_t count, uint32_t bits);
/* out[t] = start + step * t (int32, step +1 or -1, no overflow) for t < count. */
typedef void (*pe_ramp_i32_fn)(int32_t *out, size_t count, int32_t start, int32_t step);

void pe_fill32_scalar(uint32_t *out, size_t count, uint32_t bits);
void pe_fill32_simd(uint32_t *out, size_t count, uint32_t bits);
void pe_ramp_i32_scalar(int32_t *out, size_t count, int32_t start, int32_t step);
void pe_ramp_i32_simd(int32_t *out, size_t count, int32_t start, int32_t step);

/* The kernels pe_use_kernels chose. */
typedef struct pe_relative_kernels {
    pe_fill32_fn fill;
    pe_ramp_i32_fn ramp;
} pe_relative_kernels;

pe_relative_kernels pe_relative_active_kernels(void);

/* log(x) correctly rounded to float32, for x finite and >= 1 (the T5 bucket
 * arguments; checked exhaustively on [1, 2^31]). No libm. */
float pe_relative_log_f32(float x);

#endif
