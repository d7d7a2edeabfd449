/* The ALiBi rows in float32, sixteen keys a step: the scalar kernel's
 * operations per lane (an exact distance, its magnitude by clearing the sign,
 * one product with -slope), then the query's own key set to +0. Stores are
 * aligned (alibi_rows_scalar.c does the keys up to out's 16-byte boundary and
 * the tail): the bias is all stores. */
#include <stdint.h>

#include "alibi/alibi_kernels.h"
#include "common/simd.h"

#if PE_HAVE_SIMD

/* One row: keys up to out's 16-byte boundary and the tail by the scalar
 * kernel (each call skipped when it has no keys: 5 ns a row), the rest here. */
static void row(float *out, size_t count, float slope, float d0) {
    /* Keys up to out's next 16-byte boundary (out is float-aligned). */
    size_t t = (size_t)((16u - ((uintptr_t)out & 15u)) & 15u) / sizeof(float);
    if (t > count) t = count;
    if (t) pe_alibi_rows_scalar(out, 1, t, 0, slope, d0);
    const v128_t m = wasm_f32x4_splat(-slope);
    const v128_t magnitude = wasm_i32x4_splat(0x7fffffff), sixteen = wasm_f32x4_splat(16.0f);
    /* Distances of the step's four vectors; d0 + t is exact, and so is each sum below 2^24. */
    const float d = d0 + (float)t;
    v128_t d_0 = wasm_f32x4_make(d, d + 1.0f, d + 2.0f, d + 3.0f);
    v128_t d_1 = wasm_f32x4_add(d_0, wasm_f32x4_splat(4.0f));
    v128_t d_2 = wasm_f32x4_add(d_0, wasm_f32x4_splat(8.0f));
    v128_t d_3 = wasm_f32x4_add(d_0, wasm_f32x4_splat(12.0f));
    for (; t + 16 <= count; t += 16) {
        wasm_v128_store(out + t, wasm_f32x4_mul(m, wasm_v128_and(d_0, magnitude)));
        wasm_v128_store(out + t + 4, wasm_f32x4_mul(m, wasm_v128_and(d_1, magnitude)));
        wasm_v128_store(out + t + 8, wasm_f32x4_mul(m, wasm_v128_and(d_2, magnitude)));
        wasm_v128_store(out + t + 12, wasm_f32x4_mul(m, wasm_v128_and(d_3, magnitude)));
        d_0 = wasm_f32x4_add(d_0, sixteen);
        d_1 = wasm_f32x4_add(d_1, sixteen);
        d_2 = wasm_f32x4_add(d_2, sixteen);
        d_3 = wasm_f32x4_add(d_3, sixteen);
    }
    if (t < count) pe_alibi_rows_scalar(out + t, 1, count - t, 0, slope, d0 + (float)t);
    if (d0 <= 0.0f && -d0 < (float)count) out[(size_t)-d0] = 0.0f; /* the query's own key: +0, not -0 */
}

void pe_alibi_rows_simd(float *out, size_t rows, size_t count, size_t stride, float slope, float d0) {
    for (size_t i = 0; i < rows; i++) row(out + i * stride, count, slope, d0 - (float)i);
}

#endif
