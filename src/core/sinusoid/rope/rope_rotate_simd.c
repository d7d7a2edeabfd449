/* RoPE's rotation, four floats at a time with the scalar kernel's operations
 * per lane; rope_rotate_scalar.c finishes the tail. Halves: four pairs per
 * step, x1 and x2 from the two halves, one C and one S load for both (as the
 * scalar kernel: halves' rows hold C and S once, rope_kernels.h). Adjacent
 * pairs: two pairs per step, the partner of each lane by a swap within the
 * vector.
 *
 * Vector after vector, each whole, even when they share one C and S row (the
 * heads of a token): x is then read and written in address order, which the
 * hardware prefetchers stream from memory. Loading C and S once for all heads
 * instead (pair group by pair group across the heads) made prefill (2048 x 32
 * x 128, x far larger than the caches) 1.45x the limit against 1.03x this way
 * (issue 11, fastest runs side by side); C and S come from L1 either way. */
#include "common/simd.h"
#include "sinusoid/rope/rope_kernels.h"

#if PE_HAVE_SIMD

/* One step of halves: the four pairs at a, b (= a + half), c and s. */
static inline void halves_step(float *a, float *b, const float *c, const float *s) {
    v128_t x1 = wasm_v128_load(a), x2 = wasm_v128_load(b);
    v128_t cv = wasm_v128_load(c), sv = wasm_v128_load(s);
    wasm_v128_store(a, wasm_f32x4_add(wasm_f32x4_mul(x1, cv), wasm_f32x4_mul(x2, sv)));
    wasm_v128_store(b, wasm_f32x4_sub(wasm_f32x4_mul(x2, cv), wasm_f32x4_mul(x1, sv)));
}

/* Eight pairs a step through pointers bumped once per step: the loads and
 * stores then carry their offsets as immediates, where indexing each from i
 * made V8 compute an address per access (and check the stack per step). */
static void halves(float *v, const float *c, const float *s, uint32_t half) {
    float *a = v, *b = v + half;
    const float *end = c + (half & ~7u);
    for (; c != end; a += 8, b += 8, c += 8, s += 8) {
        halves_step(a, b, c, s);
        halves_step(a + 4, b + 4, c + 4, s + 4);
    }
    uint32_t i = half & ~7u;
    if (i + 4 <= half) halves_step(a, b, c, s), c += 4, s += 4, i += 4;
    if (i < half) pe_rope_halves_scalar(v, c - i, s - i, half, i);
}

static void adjacent(float *v, const float *c, const float *s, uint32_t rotary_dim) {
    uint32_t j = 0;
    for (; j + 4 <= rotary_dim; j += 4) {
        v128_t a = wasm_v128_load(v + j);
        v128_t partner = wasm_i32x4_shuffle(a, a, 1, 0, 3, 2);
        wasm_v128_store(v + j, wasm_f32x4_add(wasm_f32x4_mul(a, wasm_v128_load(c + j)),
                                              wasm_f32x4_mul(partner, wasm_v128_load(s + j))));
    }
    pe_rope_adjacent_scalar(v, c, s, rotary_dim, j);
}

/* Halves in whole steps of eight pairs (rotary_dim a multiple of 16, as
 * every model's): the vectors, like the pairs, through bumped pointers, with
 * no tail and no layout test per vector. Per head of 128 the general loop
 * below took ~30 instructions around its ~250 for the pairs in V8's code
 * (registers spilled and reloaded, the tail's tests), this one ~17: prefill
 * of 16 tokens (in cache) takes 0.84x the time (issue 29). */
static void halves_whole(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride, uint32_t half) {
    for (float *v = x, *const last = x + count * stride; v != last; v += stride, cs += cs_stride) {
        float *a = v, *b = v + half;
        for (const float *c = cs, *s = cs + half, *const end = cs + half; c != end; a += 8, b += 8, c += 8, s += 8) {
            halves_step(a, b, c, s);
            halves_step(a + 4, b + 4, c + 4, s + 4);
        }
    }
}

void pe_rope_rotate_simd(float *x, size_t count, size_t stride, const float *cs, size_t cs_stride, uint32_t rotary_dim,
                         pe_layout layout) {
    if (layout == PE_LAYOUT_SPLIT && rotary_dim % 16 == 0) {
        halves_whole(x, count, stride, cs, cs_stride, rotary_dim / 2);
        return;
    }
    for (size_t k = 0; k < count; k++) {
        float *v = x + k * stride;
        const float *c = cs + k * cs_stride, *s = c + pe_rope_cs_floats(rotary_dim, layout);
        if (layout == PE_LAYOUT_SPLIT)
            halves(v, c, s, rotary_dim / 2);
        else
            adjacent(v, c, s, rotary_dim);
    }
}

#endif
