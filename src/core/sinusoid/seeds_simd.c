/* Block seeds on two pairs at a time: seeds_scalar.c's operations per lane. */
#include "math/sincos_simd.h"
#include "sinusoid/plan.h"

#if PE_HAVE_SIMD

/* pe_two_prod (dd.h) on two lanes, the same operations: a * b = *hi + *lo exactly. */
static inline void two_prod(v128_t a, v128_t b, v128_t *hi, v128_t *lo) {
    const v128_t split = wasm_f64x2_splat(134217729.0);
    v128_t p = wasm_f64x2_mul(a, b);
    v128_t ta = wasm_f64x2_mul(split, a), tb = wasm_f64x2_mul(split, b);
    v128_t ah = wasm_f64x2_sub(ta, wasm_f64x2_sub(ta, a)), bh = wasm_f64x2_sub(tb, wasm_f64x2_sub(tb, b));
    v128_t al = wasm_f64x2_sub(a, ah), bl = wasm_f64x2_sub(b, bh);
    v128_t e = wasm_f64x2_add(wasm_f64x2_add(wasm_f64x2_sub(wasm_f64x2_mul(ah, bh), p), wasm_f64x2_mul(ah, bl)),
                              wasm_f64x2_mul(al, bh));
    *hi = p;
    *lo = wasm_f64x2_add(e, wasm_f64x2_mul(al, bl));
}

void pe_anchor_simd(pe_plan *plan, uint32_t a) {
    const v128_t p = wasm_f64x2_splat((double)a);
    uint32_t i = 0;
    for (; i + 2 <= plan->half; i += 2) {
        v128_t s, c, hi, lo;
        two_prod(p, wasm_v128_load(plan->w + i), &hi, &lo);
        lo = wasm_f64x2_add(lo, wasm_f64x2_mul(p, wasm_v128_load(plan->w_lo + i)));
        pe_sincos2_f64x2(hi, lo, &s, &c);
        wasm_v128_store(plan->block_sin + i, s);
        wasm_v128_store(plan->block_cos + i, c);
    }
    pe_anchor_pairs_scalar(plan, a, i);
}

/* (s, c) rotated by the angle whose cosine and sine are (cr, sr). */
static inline void rotate(v128_t *s, v128_t *c, v128_t cr, v128_t sr) {
    v128_t s1 = wasm_f64x2_add(wasm_f64x2_mul(*s, cr), wasm_f64x2_mul(*c, sr));
    v128_t c1 = wasm_f64x2_sub(wasm_f64x2_mul(*c, cr), wasm_f64x2_mul(*s, sr));
    *s = s1;
    *c = c1;
}

/* Pairs i and i + 1 of block_sin/cos rotated by PE_BLOCK_ROWS * w, stored
 * back and handed on in *s, *c. */
static inline __attribute__((always_inline)) void jump2(pe_plan *plan, uint32_t i, v128_t *s, v128_t *c) {
    *s = wasm_v128_load(plan->block_sin + i), *c = wasm_v128_load(plan->block_cos + i);
    rotate(s, c, wasm_v128_load(plan->cos_jump + i), wasm_v128_load(plan->sin_jump + i));
    wasm_v128_store(plan->block_sin + i, *s);
    wasm_v128_store(plan->block_cos + i, *c);
}

void pe_jump_simd(pe_plan *plan) {
    uint32_t i = 0;
    for (v128_t s, c; i + 2 <= plan->half; i += 2) jump2(plan, i, &s, &c);
    pe_jump_pairs_scalar(plan, i);
}

/* Store (sin, cos) of pairs i and i + 1 where the layout puts them. */
static void place(double *row, uint32_t i, uint32_t half, pe_layout layout, v128_t s, v128_t c) {
    if (layout == PE_LAYOUT_SPLIT) {
        wasm_v128_store(row + i, s);
        wasm_v128_store(row + half + i, c);
    } else {
        wasm_v128_store(row + 2 * i, wasm_i64x2_shuffle(s, c, 0, 2));
        wasm_v128_store(row + 2 * i + 2, wasm_i64x2_shuffle(s, c, 1, 3));
    }
}

/* The block's first two rows; with jump_first, after a jump in the same pass
 * over the pairs (the jumped values go straight on into the rows). */
static inline __attribute__((always_inline)) void seed(pe_plan *plan, int jump_first) {
    const uint32_t half = plan->half;
    uint32_t i = 0;
    for (; i + 2 <= half; i += 2) {
        v128_t s, c;
        if (jump_first)
            jump2(plan, i, &s, &c);
        else
            s = wasm_v128_load(plan->block_sin + i), c = wasm_v128_load(plan->block_cos + i);
        place(plan->row0, i, half, plan->layout, s, c);
        rotate(&s, &c, wasm_v128_load(plan->cos_w + i), wasm_v128_load(plan->sin_w + i));
        place(plan->row1, i, half, plan->layout, s, c);
    }
    if (jump_first) pe_jump_pairs_scalar(plan, i);
    pe_seed_pairs_scalar(plan, i);
}

void pe_seed_simd(pe_plan *plan) {
    seed(plan, 0);
}

void pe_jump_seed_simd(pe_plan *plan) {
    seed(plan, 1);
}

#endif
