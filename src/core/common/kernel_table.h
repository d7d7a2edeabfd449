/* The one table of kernels: every family's inner loops, scalar and SIMD.
 *
 * PE_KERNEL_LIST is the single list (the X-macro habit of ggml and XNNPACK).
 * Each entry X(name, return type, parameters) declares the scalar kernel
 * pe_<name>_scalar (the reference, always built), the SIMD kernel
 * pe_<name>_simd (built when PE_HAVE_SIMD, common/simd.h) and a field `name`
 * of pe_kernel_table, and puts each kernel in its instance of the table.
 * pe_use_kernels() switches the whole table at once, so every family follows
 * one choice. Adding a family's kernel is one entry here plus its two
 * definitions, side by side in the family's folder as <kernel>_scalar.c and
 * <kernel>_simd.c (sinusoid/rope/rope_rotate_scalar.c and _simd.c, say), with
 * the same operations in the same order per lane (equal bits); the SIMD file
 * is empty unless PE_HAVE_SIMD, and its tail calls the scalar loop.
 *
 * The contract of each kernel sits in its family's header (named per group). */
#ifndef PE_KERNEL_TABLE_H
#define PE_KERNEL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

#define PE_KERNEL_LIST(X)                                                                                    \
    /* sinusoid (sinusoid/plan.h): the plan's block seeds, the recurrence, the add */                        \
    X(anchor, void, (pe_plan * plan, uint32_t a))                                                            \
    X(jump, void, (pe_plan * plan))                                                                          \
    X(seed, void, (pe_plan * plan))                                                                          \
    X(jump_seed, void, (pe_plan * plan))                                                                     \
    X(recur, void, (pe_plan * plan, uint32_t rows, float *out, size_t stride))                               \
    X(recur_checked, void, (pe_plan * plan, uint32_t rows, float *out, size_t stride))                       \
    X(add, void, (float *x, const float *pe, size_t count, float scale))                                     \
    /* precision (sinusoid/precision/precision_kernels.h): float64 rows, 16-bit rounding */                  \
    X(recur_f64, void, (pe_plan * plan, uint32_t rows, double *out, size_t stride))                          \
    X(narrow_f16, void, (const double *in, uint16_t *out, size_t count))                                     \
    X(narrow_bf16, void, (const double *in, uint16_t *out, size_t count))                                    \
    /* rope (sinusoid/rope/rope_kernels.h): the rotation of head vectors */                                  \
    X(rope_rotate, void,                                                                                     \
      (float *x, size_t count, size_t stride, const float *cs, size_t cs_stride, uint32_t rotary_dim,        \
       pe_layout layout))                                                                                    \
    X(rope_rotate16, void,                                                                                   \
      (uint16_t * x, size_t count, size_t stride, const float *cs, size_t cs_stride, uint32_t rotary_dim,    \
       pe_layout layout, int f16))                                                                           \
    /* rope (sinusoid/rope/rope_kernels.h): [sin | cos] rows laid out as [C | S] rows for the rotation */    \
    X(rope_lay_out, void,                                                                                    \
      (const float *raw, float *cs, uint32_t rows, uint32_t r, pe_layout layout, float factor, int inverse)) \
    /* rope axes (sinusoid/rope/rope_axes.h): an axis's runs of cos/sin into a composed row */               \
    X(rope_gather, void, (uint32_t * out, const uint32_t *in, const uint32_t *runs, uint32_t run_count))     \
    /* rope (sinusoid/rope/rope_xpos.h): xPos's scales on laid-out cos/sin rows */                           \
    X(rope_xpos_scale, void, (float *cs, const float *scale, size_t count, uint32_t r))                      \
    /* alibi (alibi/alibi_kernels.h): a ramp of biases */                                                    \
    X(alibi_ramp, void, (float *out, size_t count, double slope, double d0, double step))                    \
    X(alibi_rows, void, (float *out, size_t rows, size_t count, size_t stride, float slope, float d0))       \
    /* learned (learned/resample_kernels.h): linear interpolation of two rows */                             \
    X(lerp_rows, void, (float *out, const float *a, const float *b, double w0, double w1, size_t count))     \
    /* relative (relative/relative_kernels.h): runs of one value, and ramps, in a bucket row */              \
    X(fill32, void, (uint32_t * out, size_t count, uint32_t bits))                                           \
    X(ramp_i32, void, (int32_t * out, size_t count, int32_t start, int32_t step))

#define PE_KERNEL_DECLARE(name, ret, params) \
    ret pe_##name##_scalar params;           \
    ret pe_##name##_simd params;
PE_KERNEL_LIST(PE_KERNEL_DECLARE)
#undef PE_KERNEL_DECLARE

#define PE_KERNEL_FIELD(name, ret, params) ret(*name) params;
typedef struct pe_kernel_table {
    PE_KERNEL_LIST(PE_KERNEL_FIELD)
} pe_kernel_table;
#undef PE_KERNEL_FIELD

/* The table pe_use_kernels() chose: SIMD by default when built in. Under
 * PE_ROUNDING_CORRECT (pe_set_rounding) its `recur` is its `recur_checked`,
 * so callers never branch on the rounding. */
const pe_kernel_table *pe_kernel_table_current(void);

/* Nonzero under PE_ROUNDING_CORRECT: the 16-bit paths settle their float64
 * rows (sinusoid/precision/table_dtype.c), once per call. */
int pe_rounding_is_correct(void);

#endif
