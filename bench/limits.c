/* limits.c: the speed limits posenc is measured against, as a tiny standalone
 * wasm module (build/bench/limits.wasm, built by bench/build.js).
 *
 *   limits_fill        writes n bytes with one memory.fill: the fastest a table
 *                      of that many bytes can possibly be produced in wasm.
 *   limits_stream_add  x[b, k] += table[k] with 128-bit SIMD loads, adds and
 *                      stores: the fastest an embedding add over x can be.
 *   limits_store_loop  a constant stored with 128-bit SIMD stores and nothing
 *                      computed: the floor for any wasm kernel that writes its
 *                      results with v128.store (memory.fill may beat it: the
 *                      engine runs it as one native memset).
 *   limits_f64_floor   per four floats, what any kernel that computes in
 *                      float64 and stores float32 must do at least: one
 *                      multiply-subtract per pair of lanes, two demotes, one
 *                      shuffle, one store; inputs read from a small array in
 *                      L1, nothing carried from value to value.
 *   limits_f64_floor_recur_order  the same arithmetic as a recurrence
 *                      stored in the order of posenc's (sinusoid/
 *                      recur_simd.c): blocks of 64 rows, bands of 512
 *                      columns, eight rows at a time, 16 bytes of each row
 *                      a step; nothing carried from chunk to chunk.
 *   limits_f64_recur_floor  a float64 recurrence in that order whose state
 *                      goes through memory, as it must at d = 4096: per
 *                      eight rows of four columns, six loads and four stores
 *                      of state; no seeds, no plan, no checks.
 *   limits_rope_apply  RoPE's limit: x rotated with the cos/sin cache given.
 *   limits_rope_apply_f16  the same for float16 x with nothing checked: the
 *                      arithmetic floor under an exact float16 rotation.
 *   limits_rope_apply_f16_tested  that floor plus the one test an exact
 *                      kernel that rotates in place cannot skip: every
 *                      result a float16 normal, checked before x is written.
 *
 * Compiled with -mbulk-memory so the memset below is a single memory.fill
 * instruction, not a loop. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(name)))

EXPORT("limits_alloc") void *limits_alloc(size_t bytes) {
    return aligned_alloc(16, (bytes + 15) & ~(size_t)15);
}
EXPORT("limits_free") void limits_free(void *ptr) {
    free(ptr);
}

EXPORT("limits_fill") void limits_fill(uint8_t *dst, size_t bytes, int value) {
    memset(dst, value, bytes);
}

/* x holds batch copies of an n-float table-shaped block; n is a multiple of 16
 * (every bench size is), both pointers 16-aligned. */
EXPORT("limits_stream_add") void limits_stream_add(float *x, const float *table, size_t n, size_t batch) {
    for (size_t b = 0; b < batch; b++) {
        float *xb = x + b * n;
        for (size_t k = 0; k < n; k += 16) {
            v128_t x0 = wasm_v128_load(xb + k), x1 = wasm_v128_load(xb + k + 4);
            v128_t x2 = wasm_v128_load(xb + k + 8), x3 = wasm_v128_load(xb + k + 12);
            wasm_v128_store(xb + k, wasm_f32x4_add(x0, wasm_v128_load(table + k)));
            wasm_v128_store(xb + k + 4, wasm_f32x4_add(x1, wasm_v128_load(table + k + 4)));
            wasm_v128_store(xb + k + 8, wasm_f32x4_add(x2, wasm_v128_load(table + k + 8)));
            wasm_v128_store(xb + k + 12, wasm_f32x4_add(x3, wasm_v128_load(table + k + 12)));
        }
    }
}

/* n floats, n a multiple of 16, dst 16-aligned. */
EXPORT("limits_store_loop") void limits_store_loop(float *dst, size_t n) {
    const v128_t v = wasm_f32x4_splat(0.5f);
    for (size_t k = 0; k < n; k += 16) {
        wasm_v128_store(dst + k, v);
        wasm_v128_store(dst + k + 4, v);
        wasm_v128_store(dst + k + 8, v);
        wasm_v128_store(dst + k + 12, v);
    }
}

/* n floats, n a multiple of 8, dst 16-aligned; src holds 32 doubles (L1). */
EXPORT("limits_f64_floor") void limits_f64_floor(float *dst, size_t n, const double *src) {
    const v128_t k = wasm_f64x2_splat(1.999);
    for (size_t i = 0; i < n; i += 8) {
        const double *s = src + (i & 15);
        v128_t c0 = wasm_f64x2_sub(wasm_f64x2_mul(k, wasm_v128_load(s)), wasm_v128_load(s + 16));
        v128_t c1 = wasm_f64x2_sub(wasm_f64x2_mul(k, wasm_v128_load(s + 2)), wasm_v128_load(s + 18));
        v128_t c2 = wasm_f64x2_sub(wasm_f64x2_mul(k, wasm_v128_load(s + 4)), wasm_v128_load(s + 20));
        v128_t c3 = wasm_f64x2_sub(wasm_f64x2_mul(k, wasm_v128_load(s + 6)), wasm_v128_load(s + 22));
        wasm_v128_store(dst + i, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(c0), wasm_f32x4_demote_f64x2_zero(c1),
                                                    0, 1, 4, 5));
        wasm_v128_store(dst + i + 4, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(c2),
                                                        wasm_f32x4_demote_f64x2_zero(c3), 0, 1, 4, 5));
    }
}

/* posenc's recurrence order (sinusoid/plan.h, recur_simd.c): each call
 * covers one block of ROW_BLOCK rows (the table restarts from seeds every
 * block); within it the columns go in bands of COLUMN_BAND, each band through
 * all the block's rows, eight rows at a time, a chunk of four columns after
 * another. The values mirror posenc's constants; the floors below must walk
 * exactly this order to bound what posenc pays for it. */
#define ROW_BLOCK   64
#define COLUMN_BAND 512
#define ROW_GROUP   8

/* Four columns of one row: two float64 pairs narrowed into one 16-byte store. */
static inline void store4(float *o, v128_t lo, v128_t hi) {
    wasm_v128_store(o,
                    wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5));
}

/* ROW_GROUP rows of four columns from o on, dim floats apart: rows alternate
 * between a and b, each the one before times k less the one before that, so
 * the group ends with the next two rows back in *a and *b. */
static inline __attribute__((always_inline)) void group(float *o, size_t dim, v128_t k0, v128_t k1, v128_t *a0,
                                                        v128_t *a1, v128_t *b0, v128_t *b1) {
    for (size_t n = 0; n < ROW_GROUP; n += 2, o += 2 * dim) {
        store4(o, *a0, *a1);
        *a0 = wasm_f64x2_sub(wasm_f64x2_mul(k0, *b0), *a0), *a1 = wasm_f64x2_sub(wasm_f64x2_mul(k1, *b1), *a1);
        store4(o + dim, *b0, *b1);
        *b0 = wasm_f64x2_sub(wasm_f64x2_mul(k0, *a0), *b0), *b1 = wasm_f64x2_sub(wasm_f64x2_mul(k1, *a1), *b1);
    }
}

/* One chunk: ROW_GROUP rows of columns j .. j+3 from o on (dim floats apart). */
typedef void (*chunk_fn)(float *o, size_t dim, size_t j, const void *ctx);

/* Calls chunk on every chunk of a rows x dim table at dst in posenc's order.
 * Two chunks a step, as recur_simd.c goes, measured the same here (Node and
 * Chromium, in cache). rows a multiple of ROW_GROUP, dim of 4. */
static inline __attribute__((always_inline)) void in_posenc_order(float *dst, size_t rows, size_t dim, chunk_fn chunk,
                                                                  const void *ctx) {
    for (size_t b = 0; b < rows; b += ROW_BLOCK) {
        const size_t b1 = rows - b < ROW_BLOCK ? rows : b + ROW_BLOCK;
        for (size_t j0 = 0; j0 < dim; j0 += COLUMN_BAND) {
            const size_t j1 = dim - j0 < COLUMN_BAND ? dim : j0 + COLUMN_BAND;
            for (size_t n = b; n < b1; n += ROW_GROUP)
                for (size_t j = j0; j < j1; j += 4) chunk(dst + n * dim + j, dim, j, ctx);
        }
    }
}

/* A chunk that starts from src (L1) and drops its last state. */
static inline __attribute__((always_inline)) void stateless_chunk(float *o, size_t dim, size_t j, const void *ctx) {
    const double *s = (const double *)ctx + (j & 12);
    const v128_t k = wasm_f64x2_splat(1.999);
    v128_t a0 = wasm_v128_load(s), a1 = wasm_v128_load(s + 2);
    v128_t b0 = wasm_v128_load(s + 16), b1 = wasm_v128_load(s + 18);
    group(o, dim, k, k, &a0, &a1, &b0, &b1);
}

/* limits_f64_floor's work stored in posenc's order (above), each value the
 * one before times k less the one before that. A chunk's two starting rows
 * are read from src (L1) and its last state is dropped: no state written
 * back, so the compiler also drops the group's last two steps (six of eight
 * per value pair), and no seeds, no plan. Reading src at every value instead,
 * as limits_f64_floor does, made this loop slower than a recurrence at
 * 2048 x 1024 (in V8, 1.49-1.6x the address-order floor against 1.30x).
 * rows a multiple of 8, dim of 4. */
EXPORT("limits_f64_floor_recur_order")
void limits_f64_floor_recur_order(float *dst, size_t rows, size_t dim, const double *src) {
    in_posenc_order(dst, rows, dim, stateless_chunk, src);
}

/* Doubles from one state array to the next: 64 bytes past a 4 KiB multiple
 * apart, as posenc's plan lays them (sinusoid/plan.c), so that row0[j],
 * row1[j] and coef[j] do not share an L1 set. */
static size_t state_stride(size_t dim) {
    return dim + 8;
}

/* Bytes limits_f64_recur_floor's state needs for dim columns. */
EXPORT("limits_recur_state_bytes") size_t limits_recur_state_bytes(size_t dim) {
    return 3 * state_stride(dim) * sizeof(double);
}

/* A state that stays bounded for as long as it runs: |k| < 2 keeps every
 * column an oscillation (no overflow, no subnormals to slow it down). */
EXPORT("limits_recur_state_init") void limits_recur_state_init(double *state, size_t dim) {
    double *row0 = state, *row1 = state + state_stride(dim), *coef = state + 2 * state_stride(dim);
    for (size_t j = 0; j < dim; j++) row0[j] = 0.0, row1[j] = 0.375, coef[j] = 1.999 - 1e-4 * (double)(j & 255);
}

/* The state's three arrays, in locals (see recur_chunk). */
typedef struct recur_state {
    double *row0, *row1;
    const double *coef;
} recur_state;

/* A chunk whose state comes from memory and goes back to it. */
static inline __attribute__((always_inline)) void recur_chunk(float *o, size_t dim, size_t j, const void *ctx) {
    const recur_state *st = ctx;
    double *r0 = st->row0 + j, *r1 = st->row1 + j;
    v128_t a0 = wasm_v128_load(r0), a1 = wasm_v128_load(r0 + 2);
    v128_t b0 = wasm_v128_load(r1), b1 = wasm_v128_load(r1 + 2);
    group(o, dim, wasm_v128_load(st->coef + j), wasm_v128_load(st->coef + j + 2), &a0, &a1, &b0, &b1);
    wasm_v128_store(r0, a0), wasm_v128_store(r0 + 2, a1);
    wasm_v128_store(r1, b0), wasm_v128_store(r1 + 2, b1);
}

/* The float64 recurrence alone in posenc's order: what any float64
 * recurrence must do at a width whose state (two rows and a coefficient per
 * column: 96 KiB at d = 4096) cannot stay in registers, nor in L1 across the
 * row: per chunk of four columns and group of eight rows, six loads and four
 * stores of state (a band's 12 KiB of it stays in L1), eight steps, eight
 * narrowing stores. Groups of more rows would cut that traffic, but rows
 * 16 KiB apart share L1 sets and 16 of them overflowed a 12-way set (1.6-3x
 * slower, measured in posenc's kernel). Left out: the seeds every block (the
 * state here just runs on), the plan, the float32 check, the tails. rows a
 * multiple of 8, dim of 4; state from limits_recur_state_init. The arrays
 * are read into locals first: the stores may alias the state as far as the
 * compiler knows, and read through it they were loaded again every chunk. */
EXPORT("limits_f64_recur_floor")
void limits_f64_recur_floor(float *dst, size_t rows, size_t dim, double *state) {
    const recur_state st = {state, state + state_stride(dim), state + 2 * state_stride(dim)};
    in_posenc_order(dst, rows, dim, recur_chunk, &st);
}

/* RoPE's limit: x (rows, heads, dim) rotated in place by halves with the
 * cos/sin cache given, cos and sin of (rows, dim/2) (ONNX RotaryEmbedding's
 * cos_cache/sin_cache): x1' = x1 c - x2 s, x2' = x2 c + x1 s, four pairs per
 * step, nothing computed but the rotation. dim/2 a multiple of 4. */
EXPORT("limits_rope_apply")
void limits_rope_apply(float *x, const float *cos, const float *sin, size_t rows, size_t heads, size_t dim) {
    const size_t half = dim / 2;
    for (size_t l = 0; l < rows; l++) {
        const float *c = cos + l * half, *s = sin + l * half;
        for (size_t h = 0; h < heads; h++) {
            float *v = x + (l * heads + h) * dim;
            for (size_t i = 0; i < half; i += 4) {
                v128_t a = wasm_v128_load(v + i), b = wasm_v128_load(v + half + i);
                v128_t cv = wasm_v128_load(c + i), sv = wasm_v128_load(s + i);
                wasm_v128_store(v + i, wasm_f32x4_sub(wasm_f32x4_mul(a, cv), wasm_f32x4_mul(b, sv)));
                wasm_v128_store(v + half + i, wasm_f32x4_add(wasm_f32x4_mul(b, cv), wasm_f32x4_mul(a, sv)));
            }
        }
    }
}

/* float16 RoPE's arithmetic floor (a reference, not a limit): x (rows, heads,
 * dim) of float16 bits rotated in place by halves with the float32 cos/sin
 * cache given, in float32, and rounded back to nearest even, with every input
 * and result taken to be a float16 normal: nothing is checked, so infinities,
 * NaN, zeros and subnormals come out wrong. What is left is the work an exact
 * float16 kernel does on every value: widen (the 15 low bits moved into
 * float32's fields, the 2^112 that makes it exact carried by cos and sin),
 * rotate, round, narrow; each lane pair holds an even and an odd element, so
 * no lane changes width. With `tested`, a step also checks that its sixteen
 * results are float16 normals below 32768 before it writes x (posenc's fast
 * step, rope_rotate16_simd.c: cos and sin carry 2^127, so the results come
 * out times 2^15 and one signed comparison of their top halves shifted left
 * by one bounds both ends), and writes nothing when they are not. dim/2 a
 * multiple of 8, dim at most 1024. */
static inline __attribute__((always_inline)) void rope_apply_f16(uint16_t *x, const float *cos, const float *sin,
                                                                 size_t rows, size_t heads, size_t dim, int tested) {
    const size_t half = dim / 2;
    /* The constants are loaded through a pointer the compiler cannot follow, so the engine holds them (in
     * registers or on the stack) instead of rebuilding each as an immediate at every use in the loop, three
     * instructions each in Chromium's V8 (read in its --perf-prof code dump): posenc's kernel does the same. */
    static const uint32_t words[] = {0x8fffe000u,           0x2000,     0xfffu - (112u << 23), 0x80008000u,
                                     0xfffu - (127u << 23), 0x9cff9cffu};
    const uint32_t *w = words;
    __asm__("" : "+r"(w));
    const v128_t fields = wasm_v128_load32_splat(w), bit13 = wasm_v128_load32_splat(w + 1);
    const v128_t rebias = wasm_v128_load32_splat(w + (tested ? 4 : 2)), signs = wasm_v128_load32_splat(w + 3);
    const v128_t below = wasm_v128_load32_splat(w + 5);
    const v128_t scale = wasm_f32x4_splat(tested ? 0x1p127f : 0x1p112f);
    float split[1024]; /* per run of eight: even cos, odd cos, even sin, odd sin, times the scale */
    for (size_t l = 0; l < rows; l++) {
        const float *c = cos + l * half, *s = sin + l * half;
        for (size_t i = 0; i < half; i += 8) {
            const v128_t c0 = wasm_v128_load(c + i), c1 = wasm_v128_load(c + i + 4);
            const v128_t s0 = wasm_v128_load(s + i), s1 = wasm_v128_load(s + i + 4);
            wasm_v128_store(split + 2 * i, wasm_f32x4_mul(wasm_i32x4_shuffle(c0, c1, 0, 2, 4, 6), scale));
            wasm_v128_store(split + 2 * i + 4, wasm_f32x4_mul(wasm_i32x4_shuffle(c0, c1, 1, 3, 5, 7), scale));
            wasm_v128_store(split + 2 * i + 8, wasm_f32x4_mul(wasm_i32x4_shuffle(s0, s1, 0, 2, 4, 6), scale));
            wasm_v128_store(split + 2 * i + 12, wasm_f32x4_mul(wasm_i32x4_shuffle(s0, s1, 1, 3, 5, 7), scale));
        }
        for (size_t h = 0; h < heads; h++) {
            uint16_t *v = x + (l * heads + h) * dim;
            for (size_t i = 0; i < half; i += 8) {
                const float *q = split + 2 * i;
                const v128_t ce = wasm_v128_load(q), co = wasm_v128_load(q + 4);
                const v128_t se = wasm_v128_load(q + 8), so = wasm_v128_load(q + 12);
                const v128_t xa = wasm_v128_load(v + i), xb = wasm_v128_load(v + half + i);
                const v128_t ae = wasm_v128_and(wasm_i32x4_shr(wasm_i32x4_shl(xa, 16), 3), fields);
                const v128_t ao = wasm_v128_and(wasm_i32x4_shr(xa, 3), fields);
                const v128_t be = wasm_v128_and(wasm_i32x4_shr(wasm_i32x4_shl(xb, 16), 3), fields);
                const v128_t bo = wasm_v128_and(wasm_i32x4_shr(xb, 3), fields);
                v128_t y[4] = {wasm_f32x4_sub(wasm_f32x4_mul(ae, ce), wasm_f32x4_mul(be, se)),
                               wasm_f32x4_sub(wasm_f32x4_mul(ao, co), wasm_f32x4_mul(bo, so)),
                               wasm_f32x4_add(wasm_f32x4_mul(be, ce), wasm_f32x4_mul(ae, se)),
                               wasm_f32x4_add(wasm_f32x4_mul(bo, co), wasm_f32x4_mul(ao, so))};
                v128_t tops[2], out[2];
                for (int k = 0; k < 2; k++)
                    tops[k] = wasm_i16x8_shuffle(wasm_u32x4_shr(y[2 * k], 16), y[2 * k + 1], 0, 9, 2, 11, 4, 13, 6, 15);
                if (tested) {
                    const v128_t top = wasm_i16x8_max(wasm_i16x8_shl(tops[0], 1), wasm_i16x8_shl(tops[1], 1));
                    if (wasm_i8x16_bitmask(wasm_i16x8_gt(top, below))) continue;
                }
                for (int k = 0; k < 2; k++) {
                    const v128_t ye = y[2 * k], yo = y[2 * k + 1];
                    /* The rounding add on the pattern (ties to even), the bias taken off on the way; the half's
                     * last bit (bit 13) added as a comparison's -1 taken away, with no shift, as posenc's kernel
                     * does (rope_rotate16_simd.c's f16_normal says why). */
                    const v128_t ne =
                        wasm_i32x4_sub(wasm_i32x4_add(ye, rebias), wasm_i32x4_eq(wasm_v128_and(ye, bit13), bit13));
                    const v128_t no =
                        wasm_i32x4_sub(wasm_i32x4_add(yo, rebias), wasm_i32x4_eq(wasm_v128_and(yo, bit13), bit13));
                    const v128_t halves =
                        wasm_i16x8_shuffle(wasm_u32x4_shr(ne, 13), wasm_i32x4_shl(no, 3), 0, 9, 2, 11, 4, 13, 6, 15);
                    out[k] = wasm_v128_or(halves, wasm_v128_and(tops[k], signs));
                }
                wasm_v128_store(v + i, out[0]);
                wasm_v128_store(v + half + i, out[1]);
            }
        }
    }
}

EXPORT("limits_rope_apply_f16")
void limits_rope_apply_f16(uint16_t *x, const float *cos, const float *sin, size_t rows, size_t heads, size_t dim) {
    rope_apply_f16(x, cos, sin, rows, heads, dim, 0);
}

EXPORT("limits_rope_apply_f16_tested")
void limits_rope_apply_f16_tested(uint16_t *x, const float *cos, const float *sin, size_t rows, size_t heads,
                                  size_t dim) {
    rope_apply_f16(x, cos, sin, rows, heads, dim, 1);
}
