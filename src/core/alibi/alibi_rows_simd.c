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

/* Rows whose every key is behind the query (d0 + count <= 0), each on a
 * 16-byte boundary and a whole number of steps long: the first keys that
 * alibi.c's exact_rows computes after each copy of 16 rows. None needs the
 * scalar kernel or the own key, and a row's magnitudes are the previous
 * row's plus one, so a row is four stores and little else (row() per row
 * cost 38% of a 4 x 128 x 128 bias, issue 29). Magnitudes are whole numbers
 * below 2^24, so -d0 + i - t is |d| exactly, as the scalar kernel has it. */
static void behind_rows(float *out, size_t rows, size_t count, size_t stride, float slope, float d0) {
    const v128_t m = wasm_f32x4_splat(-slope), one = wasm_f32x4_splat(1.0f), sixteen = wasm_f32x4_splat(16.0f);
    const v128_t four = wasm_f32x4_splat(4.0f), eight = wasm_f32x4_splat(8.0f), twelve = wasm_f32x4_splat(12.0f);
    v128_t first = wasm_f32x4_make(-d0, -d0 - 1.0f, -d0 - 2.0f, -d0 - 3.0f); /* row 0's keys 0 ... 3 */
    for (size_t i = 0; i < rows; i++, first = wasm_f32x4_add(first, one)) {
        float *o = out + i * stride;
        v128_t a_0 = first, a_1 = wasm_f32x4_sub(first, four);
        v128_t a_2 = wasm_f32x4_sub(first, eight), a_3 = wasm_f32x4_sub(first, twelve);
        for (size_t t = 0; t < count; t += 16) {
            wasm_v128_store(o + t, wasm_f32x4_mul(m, a_0));
            wasm_v128_store(o + t + 4, wasm_f32x4_mul(m, a_1));
            wasm_v128_store(o + t + 8, wasm_f32x4_mul(m, a_2));
            wasm_v128_store(o + t + 12, wasm_f32x4_mul(m, a_3));
            a_0 = wasm_f32x4_sub(a_0, sixteen);
            a_1 = wasm_f32x4_sub(a_1, sixteen);
            a_2 = wasm_f32x4_sub(a_2, sixteen);
            a_3 = wasm_f32x4_sub(a_3, sixteen);
        }
    }
}

void pe_alibi_rows_simd(float *out, size_t rows, size_t count, size_t stride, float slope, float d0) {
    if (count % 16 == 0 && stride % 4 == 0 && ((uintptr_t)out & 15u) == 0 && d0 + (float)count <= 0.0f) {
        behind_rows(out, rows, count, stride, slope, d0);
        return;
    }
    for (size_t i = 0; i < rows; i++) row(out + i * stride, count, slope, d0 - (float)i);
}

#endif
