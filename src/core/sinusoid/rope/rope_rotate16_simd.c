/* The rotation of float16 and bfloat16 x, sixteen elements a step: widened to
 * float32, rotated with rope_rotate_simd.c's operations, rounded back, all in
 * registers (x is read and written once). Every conversion works on the
 * 32-bit lanes of the loaded vector as they are, the even element in the low
 * half and the odd one in the high half, so no lane changes width: C and S
 * are split into their even and odd elements instead (once per step, or once
 * for all heads when the heads share a row).
 *   widen   float16: the half's 15 low bits shifted into float32's fields and
 *           multiplied by 2^112 (exact for zeros, subnormals and normals);
 *           bfloat16: a shift or a mask.
 *   narrow  float16, when all sixteen results are float16 normals: the
 *           rounding add on the integer pattern; otherwise float32's own
 *           rounding: |y| + M, M the power of two whose ulp is float16's ulp
 *           at |y| (2^-1 below float16's normals), rounds |y| once to nearest
 *           even and the sum's low bits are the half's magnitude. bfloat16:
 *           the rounding add on the upper 16 bits.
 * A step whose x holds an infinity or NaN (float16), or whose results hold
 * one or reach 65536 (float16) or a NaN (bfloat16), is redone by the scalar
 * kernel, rope_rotate16_scalar.c, whose bits all of this reproduces: exact
 * widening, float32 products and sums in its order, one rounding to nearest
 * even. (issue 11: float16 was 1.6x bfloat16 with 16-bit lane shuffles.) */
#include "common/simd.h"
#include "sinusoid/rope/rope_kernels.h"

#if PE_HAVE_SIMD

#define INLINE static inline __attribute__((always_inline))

/* The loops' constants, built once per run (fields for the format at hand). */
typedef struct consts {
    v128_t one, fields, scale, exponent, offset, limit, rebias, signs, below, rebias15, bit13; /* float16 */
    v128_t upper, half, bit16;                                                                 /* bfloat16 (and one) */
} consts;

/* Their words, in consts' order. |y| in [2^-14, 65536), i.e. y's exponent
 * from 113 to 142, is tested on y's upper 16 bits t as a signed 16-bit
 * comparison: (t << 1) + offset <= limit; |y| in [2^-14, 32768) the same
 * way on y times 2^15, whose exponent is then 15 more, so that (t << 1)
 * itself is the signed comparison's operand: (t << 1) <= below
 * (f16_normal_step; rebias15 the rounding add's bias for y times 2^15). */
static const uint32_t F16_WORDS[] = {1,
                                     0x8fffe000u,
                                     0x77800000u /* 2^112 */,
                                     0x7c007c00u,
                                     0x0f000f00u /* 0x8000 - (113 << 8) */,
                                     0x9dff9dffu /* 0x8000 + (30 << 8) - 1 */,
                                     0xfffu - (112u << 23),
                                     0x80008000u,
                                     0x9cff9cffu /* 0x8000 + (29 << 8) - 1 */,
                                     0xfffu - (127u << 23),
                                     0x2000};
static const uint32_t BF16_WORDS[] = {1, 0xffff0000u, 0x7fff, 0x10000};

/* Read through a pointer neither clang nor the engine can follow, so they are
 * loaded once before a loop and held in registers (or reloaded) there, not
 * rebuilt as constants at each use inside it (V8 spends three instructions on
 * each vector constant it rematerialises). */
INLINE consts consts_for(int f16) {
    const uint32_t *w = f16 ? F16_WORDS : BF16_WORDS;
#if defined(__wasm_simd128__)
    __asm__("" : "+r"(w));
#endif
    consts k = {0};
    k.one = wasm_v128_load32_splat(w);
    if (f16) {
        k.fields = wasm_v128_load32_splat(w + 1);
        k.scale = wasm_v128_load32_splat(w + 2);
        k.exponent = wasm_v128_load32_splat(w + 3);
        k.offset = wasm_v128_load32_splat(w + 4);
        k.limit = wasm_v128_load32_splat(w + 5);
        k.rebias = wasm_v128_load32_splat(w + 6);
        k.signs = wasm_v128_load32_splat(w + 7);
        k.below = wasm_v128_load32_splat(w + 8);
        k.rebias15 = wasm_v128_load32_splat(w + 9);
        k.bit13 = wasm_v128_load32_splat(w + 10);
    } else {
        k.upper = wasm_v128_load32_splat(w + 1);
        k.half = wasm_v128_load32_splat(w + 2);
        k.bit16 = wasm_v128_load32_splat(w + 3);
    }
    return k;
}

/* C and S of eight elements (from an even index), their even and odd elements apart. */
typedef struct coefs {
    v128_t ce, co, se, so;
} coefs;

INLINE coefs coefs_at(const float *c, const float *s) {
    const v128_t c0 = wasm_v128_load(c), c1 = wasm_v128_load(c + 4);
    const v128_t s0 = wasm_v128_load(s), s1 = wasm_v128_load(s + 4);
    return (coefs){wasm_i32x4_shuffle(c0, c1, 0, 2, 4, 6), wasm_i32x4_shuffle(c0, c1, 1, 3, 5, 7),
                   wasm_i32x4_shuffle(s0, s1, 0, 2, 4, 6), wasm_i32x4_shuffle(s0, s1, 1, 3, 5, 7)};
}

/* Eight 16-bit elements -> their even (*e) and odd (*o) elements as float32,
 * float16's times 2^-112 when `scaled` (its C and S then carry the 2^112). */
INLINE void widen(v128_t v, v128_t *e, v128_t *o, const consts *k, int f16, int scaled) {
    if (f16) {
        /* Sign at bit 31, the 15 low bits at 13-27 (copies of the sign at
         * 28-30 and the neighbour's bits below 13 cleared): the half times
         * 2^-112, exactly. */
        *e = wasm_v128_and(wasm_i32x4_shr(wasm_i32x4_shl(v, 16), 3), k->fields);
        *o = wasm_v128_and(wasm_i32x4_shr(v, 3), k->fields);
        if (!scaled) {
            *e = wasm_f32x4_mul(*e, k->scale);
            *o = wasm_f32x4_mul(*o, k->scale);
        }
    } else {
        *e = wasm_i32x4_shl(v, 16);
        *o = wasm_v128_and(v, k->upper);
    }
}

/* The 16-bit lanes of two loaded vectors that hold float16's infinity or NaN (exponent 31). */
INLINE v128_t f16_special(v128_t a, v128_t b, const consts *k) {
    const v128_t e = k->exponent;
    return wasm_v128_or(wasm_i16x8_eq(wasm_v128_and(a, e), e), wasm_i16x8_eq(wasm_v128_and(b, e), e));
}

/* The upper halves of even and odd results in x's order (a blend): each y's
 * sign, exponent and leading fraction bits. */
INLINE v128_t f16_tops(v128_t ye, v128_t yo) {
    return wasm_i16x8_shuffle(wasm_u32x4_shr(ye, 16), yo, 0, 9, 2, 11, 4, 13, 6, 15);
}

/* y (float32, a float16 normal; times 2^15 with k->rebias15, else k->rebias)
 * -> its half at bits 13-27 (28-30 clear) and its sign at 31: the rounding
 * add on the pattern, ties to the even half. The half's last bit (y's bit
 * 13) is added as a comparison's -1 taken away, not as (y >> 13) & 1: as
 * many operations, four shifts a step fewer, and the hot loop measured 3 %
 * faster in Node (issue 29; on x64 cores vector shifts and shuffles
 * commonly issue on fewer units than adds and logic, and the loop has many
 * of them). bit13 comes through consts_for's opaque pointer, else clang
 * turns the comparison back into the shift. */
INLINE v128_t f16_normal(v128_t y, v128_t rebias, const consts *k) {
    return wasm_i32x4_sub(wasm_i32x4_add(y, rebias), wasm_i32x4_eq(wasm_v128_and(y, k->bit13), k->bit13));
}

/* Even and odd results y, float16 normals as f16_normal's, and their tops -> eight halves in x's order. */
INLINE v128_t f16_narrow_normal(v128_t ye, v128_t yo, v128_t tops, v128_t rebias, const consts *k) {
    const v128_t e = wasm_u32x4_shr(f16_normal(ye, rebias, k), 13), o = wasm_i32x4_shl(f16_normal(yo, rebias, k), 3);
    return wasm_v128_or(wasm_i16x8_shuffle(e, o, 0, 9, 2, 11, 4, 13, 6, 15), wasm_v128_and(tops, k->signs));
}

/* |y| (bits, below 65536) -> float16's magnitude pattern rounded to nearest
 * even, less 126 << 10 (f16_narrow_any adds it back for two lanes at once). */
INLINE v128_t f16_magnitude_less(v128_t a) {
    /* M = 2^(e + 13) for y's exponent e, at least 2^-1: its ulp is float16's ulp at |y|. */
    const v128_t m =
        wasm_i32x4_max(wasm_i32x4_add(wasm_v128_and(a, wasm_i32x4_splat(0x7f800000)), wasm_i32x4_splat(13 << 23)),
                       wasm_i32x4_splat(126 << 23));
    /* |y| + M = M + k ulps (k <= 2048): the half is k + (its exponent - 1) << 10,
     * that is k + (M >> 13) - (126 << 10). */
    return wasm_i32x4_add(wasm_i32x4_sub(wasm_f32x4_add(a, m), m), wasm_u32x4_shr(m, 13));
}

/* Even and odd |y| (below 65536) and the tops of y -> eight halves in x's order. */
INLINE v128_t f16_narrow_any(v128_t ae, v128_t ao, v128_t tops, const consts *k) {
    const v128_t less = wasm_i32x4_splat((int32_t)((126u << 10) + (126u << 26))); /* mod 2^32 */
    const v128_t both = wasm_i32x4_add(f16_magnitude_less(ae), wasm_i32x4_shl(f16_magnitude_less(ao), 16));
    return wasm_v128_or(wasm_i32x4_sub(both, less), wasm_v128_and(tops, k->signs));
}

/* Even and odd results (float32, no NaN) -> eight bfloat16 in x's order:
 * the rounding add, the last bit (bit 16) by a comparison as f16_normal's. */
INLINE v128_t bf16_narrow(v128_t ye, v128_t yo, const consts *k) {
    const v128_t e = wasm_i32x4_sub(wasm_i32x4_add(ye, k->half), wasm_i32x4_eq(wasm_v128_and(ye, k->bit16), k->bit16));
    const v128_t o = wasm_i32x4_sub(wasm_i32x4_add(yo, k->half), wasm_i32x4_eq(wasm_v128_and(yo, k->bit16), k->bit16));
    return wasm_v128_or(wasm_u32x4_shr(e, 16), wasm_v128_and(o, k->upper));
}

/* A step's four float32 results y[0..3] (even and odd of a's outputs, then
 * of b's), narrowed and stored at a and b: 1, or 0 with nothing written when
 * the step needs the scalar kernel. Each path stores its own: joined before
 * one store, they cost Chromium's code three register moves a step. */
INLINE int narrow_pair(const v128_t *y, uint16_t *a, uint16_t *b, const consts *k, int f16) {
    if (!f16) {
        const v128_t nan = wasm_v128_or(wasm_v128_or(wasm_f32x4_ne(y[0], y[0]), wasm_f32x4_ne(y[1], y[1])),
                                        wasm_v128_or(wasm_f32x4_ne(y[2], y[2]), wasm_f32x4_ne(y[3], y[3])));
        if (wasm_i8x16_bitmask(nan)) return 0;
        wasm_v128_store(a, bf16_narrow(y[0], y[1], k));
        wasm_v128_store(b, bf16_narrow(y[2], y[3], k));
        return 1;
    }
    const v128_t ta = f16_tops(y[0], y[1]), tb = f16_tops(y[2], y[3]);
    /* Exponents of all sixteen: the largest of (top << 1) + offset. */
    const v128_t top = wasm_i16x8_max(wasm_i16x8_add(wasm_i16x8_shl(ta, 1), k->offset),
                                      wasm_i16x8_add(wasm_i16x8_shl(tb, 1), k->offset));
    if (!wasm_i8x16_bitmask(wasm_i16x8_gt(top, k->limit))) {
        wasm_v128_store(a, f16_narrow_normal(y[0], y[1], ta, k->rebias, k));
        wasm_v128_store(b, f16_narrow_normal(y[2], y[3], tb, k->rebias, k));
        return 1;
    }
    /* Zeros and subnormals too: every |y| below 65536 (NaN is above all). */
    const v128_t abs = wasm_i32x4_splat(0x7fffffff);
    v128_t m[4];
    for (int j = 0; j < 4; j++) m[j] = wasm_v128_and(y[j], abs);
    const v128_t most = wasm_i32x4_max(wasm_i32x4_max(m[0], m[1]), wasm_i32x4_max(m[2], m[3]));
    if (wasm_i8x16_bitmask(wasm_i32x4_gt(most, wasm_i32x4_splat((143 << 23) - 1)))) return 0;
    wasm_v128_store(a, f16_narrow_any(m[0], m[1], ta, k));
    wasm_v128_store(b, f16_narrow_any(m[2], m[3], tb, k));
    return 1;
}

/* The four float32 results y[0..3] of a step from its loaded x: halves,
 * pairs (a[i], b[i]) by c0; adjacent pairs, even lanes x1, odd lanes x2, a's
 * by c0 and b's by c1. */
INLINE void rotate(v128_t xa, v128_t xb, coefs c0, coefs c1, const consts *k, pe_layout layout, int f16, int scaled,
                   v128_t *y) {
    v128_t ae, ao, be, bo;
    widen(xa, &ae, &ao, k, f16, scaled);
    widen(xb, &be, &bo, k, f16, scaled);
    if (layout == PE_LAYOUT_SPLIT) {
        y[0] = wasm_f32x4_add(wasm_f32x4_mul(ae, c0.ce), wasm_f32x4_mul(be, c0.se));
        y[1] = wasm_f32x4_add(wasm_f32x4_mul(ao, c0.co), wasm_f32x4_mul(bo, c0.so));
        y[2] = wasm_f32x4_sub(wasm_f32x4_mul(be, c0.ce), wasm_f32x4_mul(ae, c0.se));
        y[3] = wasm_f32x4_sub(wasm_f32x4_mul(bo, c0.co), wasm_f32x4_mul(ao, c0.so));
    } else {
        y[0] = wasm_f32x4_add(wasm_f32x4_mul(ae, c0.ce), wasm_f32x4_mul(ao, c0.se));
        y[1] = wasm_f32x4_add(wasm_f32x4_mul(ao, c0.co), wasm_f32x4_mul(ae, c0.so));
        y[2] = wasm_f32x4_add(wasm_f32x4_mul(be, c1.ce), wasm_f32x4_mul(bo, c1.se));
        y[3] = wasm_f32x4_add(wasm_f32x4_mul(bo, c1.co), wasm_f32x4_mul(be, c1.so));
    }
}

/* One step: sixteen elements, eight at a and eight at b, rotated in place; 0
 * (nothing written) when the step needs the scalar kernel. */
INLINE int step(uint16_t *a, uint16_t *b, coefs c0, coefs c1, const consts *k, pe_layout layout, int f16, int scaled) {
    const v128_t xa = wasm_v128_load(a), xb = wasm_v128_load(b);
    /* Float16's infinity or NaN in x, tested before the rotation with a branch
     * of its own, so x need not be kept (on the stack, in Chromium) to the end. */
    if (f16 && wasm_i8x16_bitmask(f16_special(xa, xb, k))) return 0;
    v128_t y[4];
    rotate(xa, xb, c0, c1, k, layout, f16, scaled, y);
    return narrow_pair(y, a, b, k, f16);
}

/* The common float16 step, on a row whose every pair is a rotation by a
 * (C, S) with ROTATION_NORM2 <= C^2 + S^2 < 4 (split_steps), C and S carrying
 * 2^127, so y comes out times 2^15 (exactly: products and sums of float32
 * normals, scaled by a power of two): every result a float16 normal below
 * 32768, or 0 with nothing written (the caller then takes the step with
 * step()). No test of x: an infinity or NaN in x widens (without the 2^112
 * its C and S carry) as if it were a value v, 65536 <= |v| < 131072, and a
 * rotation keeps the pair's norm times sqrt(C^2 + S^2), so one of its two
 * results is at least 65536 sqrt(0.6 / 2) (1 - 2^-21) > 35000 in float32:
 * the step fails the bound below 32768. Sixteen values then cost the
 * arithmetic floor's work (bench/limits.c) and the results' test: V8's loop
 * 78 instructions a step, 88 with x's test too, 95 before with a join of the
 * two narrowing paths (Node, kernel alone, interleaved: 0.93x the time in L1
 * and at 2048 x 32 x 128). The 2^15 spares the test's two adds of an offset
 * and a constant's register: 74.5 a step with normal_rows_halves2 (the
 * floor's loop 68; issue 29). */
INLINE int f16_normal_step(uint16_t *a, uint16_t *b, coefs c0, coefs c1, const consts *k, pe_layout layout) {
    v128_t y[4];
    rotate(wasm_v128_load(a), wasm_v128_load(b), c0, c1, k, layout, 1, 1, y);
    const v128_t ta = f16_tops(y[0], y[1]), tb = f16_tops(y[2], y[3]);
    const v128_t top = wasm_i16x8_max(wasm_i16x8_shl(ta, 1), wasm_i16x8_shl(tb, 1));
    if (wasm_i8x16_bitmask(wasm_i16x8_gt(top, k->below))) return 0;
    wasm_v128_store(a, f16_narrow_normal(y[0], y[1], ta, k->rebias15, k));
    wasm_v128_store(b, f16_narrow_normal(y[2], y[3], tb, k->rebias15, k));
    return 1;
}

/* The loops below hold no call (the scalar steps are the caller's), so the
 * engine keeps their values in registers. Each returns where it stopped:
 * its end, or the step it could not do. */

INLINE coefs coefs_load(const float *split) {
    return (coefs){wasm_v128_load(split), wasm_v128_load(split + 4), wasm_v128_load(split + 8),
                   wasm_v128_load(split + 12)};
}

/* A rotation step's split C and S (times 2^127) times 2^-15: the 2^112 step() expects, exactly. */
INLINE coefs coefs_unscale(coefs q) {
    const v128_t m = wasm_f32x4_splat(0x1p-15f);
    return (coefs){wasm_f32x4_mul(q.ce, m), wasm_f32x4_mul(q.co, m), wasm_f32x4_mul(q.se, m), wasm_f32x4_mul(q.so, m)};
}

/* Steps `first` to `end` of the vectors x + n stride, n < count, which share
 * one C, S row, split (and scaled) by split_steps from step `first` on; starts
 * at vector *n_at, step *at_at. Returns 1 when all are done, or 0 with *n_at,
 * *at_at at the step the scalar kernel must take. Vector after vector, each
 * read and written in address order, as the float32 rotation does: a step
 * taken across all heads before the next strides through x (prefill 2048 x
 * 32 x 128 float16 in Node: 6.6 ms that way, 4.6 ms head after head). One
 * call for all the vectors, not one each: the constants are loaded once per
 * row, not per head (5.5 ms against 5.9 in Node, 5.2 against 5.4 in
 * Chromium). The split coefficients are read from memory at each step: loads
 * cost the engine less than the registers to hold them. */
INLINE int shared_rows_run(uint16_t *x, size_t count, size_t stride, const float *split, uint32_t r, uint32_t first,
                           uint32_t end, size_t *n_at, uint32_t *at_at, pe_layout layout, int f16, int normal,
                           int rescale) {
    const consts k = consts_for(f16);
    const int halves = layout == PE_LAYOUT_SPLIT;
    uint32_t at = *at_at;
    for (size_t n = *n_at; n < count; n++, at = first) {
        /* Pointers, not indices, step through x and the split row: four instructions a step fewer. */
        uint16_t *v = x + n * stride, *a = v + at, *const stop = v + end;
        const float *q = split + 2 * (at - first);
        const size_t other = halves ? r / 2 : 8;
        for (; a < stop; a += halves ? 8 : 16, q += halves ? 16 : 32) {
            coefs c0 = coefs_load(q), c1 = halves ? c0 : coefs_load(q + 16);
            if (rescale) c0 = coefs_unscale(c0), c1 = halves ? c0 : coefs_unscale(c1);
            if (!(normal ? f16_normal_step(a, a + other, c0, c1, &k, layout)
                         : step(a, a + other, c0, c1, &k, layout, f16, 1))) {
                *n_at = n;
                *at_at = (uint32_t)(a - v);
                return 0;
            }
        }
    }
    return 1;
}

/* Steps from `at` to `end` of one vector with its own C, S row. */
INLINE uint32_t vector_run(uint16_t *v, const float *c, const float *s, uint32_t r, uint32_t at, uint32_t end,
                           pe_layout layout, int f16) {
    const consts k = consts_for(f16);
    const int halves = layout == PE_LAYOUT_SPLIT;
    for (; at < end; at += halves ? 8 : 16) {
        const coefs c0 = coefs_at(c + at, s + at), c1 = halves ? c0 : coefs_at(c + at + 8, s + at + 8);
        if (!step(v + at, v + at + (halves ? r / 2 : 8), c0, c1, &k, layout, f16, 0)) break;
    }
    return at;
}

#define RUNS(name, layout, f16)                                                                                  \
    static __attribute__((noinline)) int shared_rows_##name(uint16_t *x, size_t count, size_t stride,            \
                                                            const float *split, uint32_t r, uint32_t first,      \
                                                            uint32_t end, size_t *n_at, uint32_t *at_at) {       \
        return shared_rows_run(x, count, stride, split, r, first, end, n_at, at_at, layout, f16, 0, 0);          \
    }                                                                                                            \
    static __attribute__((noinline))                                                                             \
    uint32_t vector_##name(uint16_t *v, const float *c, const float *s, uint32_t r, uint32_t at, uint32_t end) { \
        return vector_run(v, c, s, r, at, end, layout, f16);                                                     \
    }
RUNS(halves_f16, PE_LAYOUT_SPLIT, 1)
RUNS(halves_bf16, PE_LAYOUT_SPLIT, 0)
RUNS(adjacent_f16, PE_LAYOUT_INTERLEAVED, 1)
RUNS(adjacent_bf16, PE_LAYOUT_INTERLEAVED, 0)

/* The float16 rotation rows' loops: of f16_normal_step alone, and of step()
 * on the same split rows (times 2^127) for the steps it cannot take. */
#define NORMAL_RUNS(name, layout)                                                                             \
    static __attribute__((noinline)) int normal_rows_##name(uint16_t *x, size_t count, size_t stride,         \
                                                            const float *split, uint32_t r, uint32_t first,   \
                                                            uint32_t end, size_t *n_at, uint32_t *at_at) {    \
        return shared_rows_run(x, count, stride, split, r, first, end, n_at, at_at, layout, 1, 1, 0);         \
    }                                                                                                         \
    static __attribute__((noinline)) int rescaled_rows_##name(uint16_t *x, size_t count, size_t stride,       \
                                                              const float *split, uint32_t r, uint32_t first, \
                                                              uint32_t end, size_t *n_at, uint32_t *at_at) {  \
        return shared_rows_run(x, count, stride, split, r, first, end, n_at, at_at, layout, 1, 0, 1);         \
    }
NORMAL_RUNS(halves, PE_LAYOUT_SPLIT)
NORMAL_RUNS(adjacent, PE_LAYOUT_INTERLEAVED)

/* normal_rows_halves for runs of an even number of steps, two steps an
 * iteration through bumped pointers (x's two halves and the split row), as
 * rope_rotate_simd.c's halves_whole: the second step's loads and stores carry
 * their offsets as immediates, and the loop's end, its stack check and its
 * counters are paid once per two steps (V8: 149 instructions per two steps
 * against 152 for normal_rows_halves; Node, kernel alone, interleaved: 0.98x
 * its time in L1). Same contract as shared_rows_run, from step `first` of
 * vector *n_at. */
static __attribute__((noinline)) int normal_rows_halves2(uint16_t *x, size_t count, size_t stride, const float *split,
                                                         uint32_t r, uint32_t first, uint32_t end, size_t *n_at,
                                                         uint32_t *at_at) {
    const consts k = consts_for(1);
    const float *const split_end = split + 2 * (end - first);
    for (uint16_t *v = x + *n_at * stride, *const last = x + count * stride; v != last; v += stride) {
        uint16_t *a = v + first, *b = a + r / 2;
        for (const float *q = split; q != split_end; a += 16, b += 16, q += 32) {
            const coefs c0 = coefs_load(q), c1 = coefs_load(q + 16);
            if (!f16_normal_step(a, b, c0, c0, &k, PE_LAYOUT_SPLIT)) goto stop;
            if (!f16_normal_step(a + 8, b + 8, c1, c1, &k, PE_LAYOUT_SPLIT)) {
                a += 8;
                goto stop;
            }
            continue;
        stop:
            *n_at = (size_t)(v - x) / stride;
            *at_at = (uint32_t)(a - v);
            return 0;
        }
    }
    return 1;
}

typedef int (*shared_rows_fn)(uint16_t *, size_t, size_t, const float *, uint32_t, uint32_t, uint32_t, size_t *,
                              uint32_t *);

/* Steps whose split C, S one block holds (2 · step floats a step). */
#define SPLIT_BLOCK_STEPS 16
typedef uint32_t (*vector_fn)(uint16_t *, const float *, const float *, uint32_t, uint32_t, uint32_t);

/* The least C^2 + S^2 of a pair f16_normal_step takes (its bound holds for
 * any value above 0.5; 0.6 leaves room for float32's rounding here and there). */
#define ROTATION_NORM2 0.6f

/* C^2 + S^2 in [ROTATION_NORM2, 4) for every lane of ok's (all ones when so). */
INLINE v128_t rotation_norms(v128_t ok, v128_t c, v128_t s) {
    const v128_t n2 = wasm_f32x4_add(wasm_f32x4_mul(c, c), wasm_f32x4_mul(s, s));
    return wasm_v128_and(ok, wasm_v128_and(wasm_f32x4_ge(n2, wasm_f32x4_splat(ROTATION_NORM2)),
                                           wasm_f32x4_lt(n2, wasm_f32x4_splat(4.0f))));
}

/* The C and S of `steps` steps of `groups` runs of eight elements each (1
 * for halves, 2 for adjacent pairs) split for shared_rows_run: split[16 g
 * ...] = even C, odd C, even S, odd S of run g, for float16 times 2^112
 * (widen's multiply moved here: (w 2^-112)(c 2^112) is w c exactly, so it
 * rounds the same), or times 2^127 on a rotation step (f16_normal_step's
 * scale; |C|, |S| < 2 keep it finite). A C or S of 2^16 or more becomes
 * infinite, and so does every result it touches: narrow_pair sends those
 * steps to the scalar kernel, as it does any infinity. Returns bit j set
 * when float16's step j is a rotation f16_normal_step may take: every pair's
 * ROTATION_NORM2 <= C^2 + S^2 < 4 (not NaN), and for adjacent pairs the odd
 * element's C and S the even one's C and -S (halves turn each pair by one C,
 * S by construction); 0 for bfloat16. One pass, each run loaded and split
 * once: run once per token for all its heads, it was 3.4 % of a float16
 * prefill's samples as a call per step that loaded and split each run twice
 * (issue 29). */
INLINE uint32_t split_steps(const float *c, const float *s, uint32_t steps, int groups, int f16, pe_layout layout,
                            float *split) {
    uint32_t rotations = 0;
    for (uint32_t j = 0; j < steps; j++, c += 8 * groups, s += 8 * groups, split += 16 * groups) {
        coefs q[2];
        v128_t ok = wasm_i32x4_splat(-1);
        for (int g = 0; g < groups; g++) {
            q[g] = coefs_at(c + 8 * g, s + 8 * g);
            ok = rotation_norms(ok, q[g].ce, q[g].se);
            if (layout == PE_LAYOUT_SPLIT)
                ok = rotation_norms(ok, q[g].co, q[g].so);
            else
                ok = wasm_v128_and(ok, wasm_v128_and(wasm_f32x4_eq(q[g].co, q[g].ce),
                                                     wasm_f32x4_eq(q[g].so, wasm_f32x4_neg(q[g].se))));
        }
        if (!f16) {
            for (int g = 0; g < groups; g++) {
                wasm_v128_store(split + 16 * g, q[g].ce);
                wasm_v128_store(split + 16 * g + 4, q[g].co);
                wasm_v128_store(split + 16 * g + 8, q[g].se);
                wasm_v128_store(split + 16 * g + 12, q[g].so);
            }
            continue;
        }
        const uint32_t rotation = wasm_i32x4_all_true(ok);
        rotations |= rotation << j;
        const v128_t scale = wasm_f32x4_splat(rotation ? 0x1p127f : 0x1p112f);
        for (int g = 0; g < groups; g++) {
            wasm_v128_store(split + 16 * g, wasm_f32x4_mul(q[g].ce, scale));
            wasm_v128_store(split + 16 * g + 4, wasm_f32x4_mul(q[g].co, scale));
            wasm_v128_store(split + 16 * g + 8, wasm_f32x4_mul(q[g].se, scale));
            wasm_v128_store(split + 16 * g + 12, wasm_f32x4_mul(q[g].so, scale));
        }
    }
    return rotations;
}

/* Vectors n ... count - 1, steps from ... to - 1 (split: their split C, S),
 * with shared_rows, the scalar kernel taking the steps it cannot; vector n
 * from step at. */
static void shared_rows_span(uint16_t *x, size_t count, size_t stride, const float *cs, const float *split, uint32_t r,
                             uint32_t from, uint32_t to, size_t n, uint32_t at, pe_layout layout, int f16,
                             shared_rows_fn shared_rows) {
    const uint32_t step = layout == PE_LAYOUT_SPLIT ? 8 : 16;
    while (!shared_rows(x, count, stride, split, r, from, to, &n, &at)) {
        pe_rope_rotate16_span_scalar(x + n * stride, cs, cs + pe_rope_cs_floats(r, layout), r, layout, f16, at,
                                     at + step);
        at += step;
        if (at == to) n++, at = from;
    }
}

void pe_rope_rotate16_simd(uint16_t *x, size_t count, size_t stride, const float *cs, size_t cs_stride,
                           uint32_t rotary_dim, pe_layout layout, int f16) {
    const int split = layout == PE_LAYOUT_SPLIT;
    const uint32_t r = rotary_dim, step = split ? 8 : 16, end = split ? r / 2 : r, steps = end / step * step;
    const uint32_t n_cs = pe_rope_cs_floats(r, layout); /* S's offset from C */
    const shared_rows_fn shared_rows = split ? (f16 ? shared_rows_halves_f16 : shared_rows_halves_bf16)
                                             : (f16 ? shared_rows_adjacent_f16 : shared_rows_adjacent_bf16);
    const shared_rows_fn normal_rows = split ? normal_rows_halves : normal_rows_adjacent;
    const shared_rows_fn rescaled_rows = split ? rescaled_rows_halves : rescaled_rows_adjacent;
    const vector_fn vector =
        split ? (f16 ? vector_halves_f16 : vector_halves_bf16) : (f16 ? vector_adjacent_f16 : vector_adjacent_bf16);
    if (cs_stride == 0) {
        /* C and S split once per block of steps, then each vector's steps in
         * that block, vector after vector: float16's runs of rotation steps
         * with normal_rows, falling back to rescaled_rows (shared_rows on
         * their 2^127 split rows) for the rest of a vector from a step it
         * cannot take (zeros and subnormals stay there
         * a vector at a time, not a step); the other steps with shared_rows. */
        float split_cs[32 * SPLIT_BLOCK_STEPS];
        for (uint32_t first = 0; first < steps; first += SPLIT_BLOCK_STEPS * step) {
            const uint32_t last = steps - first < SPLIT_BLOCK_STEPS * step ? steps : first + SPLIT_BLOCK_STEPS * step;
            /* bit j: step first + j step is a rotation (bfloat16's steps all take shared_rows) */
            const uint32_t rotations =
                split ? split_steps(cs + first, cs + n_cs + first, (last - first) / step, 1, f16, layout, split_cs)
                      : split_steps(cs + first, cs + n_cs + first, (last - first) / step, 2, f16, layout, split_cs);
            for (uint32_t from = first, to; from < last; from = to) {
                const uint32_t on = f16 ? rotations >> (from - first) / step & 1u : 0;
                for (to = from + step; to < last && (rotations >> (to - first) / step & 1u) == on;) to += step;
                const float *at_split = split_cs + 2 * (from - first);
                if (!on) {
                    shared_rows_span(x, count, stride, cs, at_split, r, from, to, 0, from, layout, f16, shared_rows);
                    continue;
                }
                size_t n = 0;
                uint32_t at = from;
                const shared_rows_fn rows = split && (to - from) % (2 * step) == 0
                                                ? normal_rows_halves2
                                                : normal_rows; /* whole pairs of steps */
                while (!rows(x, count, stride, at_split, r, from, to, &n, &at)) {
                    shared_rows_span(x, n + 1, stride, cs, at_split, r, from, to, n, at, layout, f16, rescaled_rows);
                    at = from;
                    if (++n == count) break;
                }
            }
        }
    } else {
        for (size_t n = 0; n < count; n++) {
            uint16_t *v = x + n * stride;
            const float *c = cs + n * cs_stride;
            for (uint32_t at = 0; (at = vector(v, c, c + n_cs, r, at, steps)) < steps; at += step)
                pe_rope_rotate16_span_scalar(v, c, c + n_cs, r, layout, f16, at, at + step);
        }
    }
    if (steps < end)
        for (size_t n = 0; n < count; n++) {
            const float *c = cs + n * cs_stride;
            pe_rope_rotate16_span_scalar(x + n * stride, c, c + n_cs, r, layout, f16, steps, end);
        }
}

#endif
