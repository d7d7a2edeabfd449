/* pe_sincos2 on two lanes: the same operations in the same order as the scalar
 * pe_sincos2 in math/sincos.h, so every lane gives exactly the scalar's bits
 * (and its bound, |error| <= 2^-52 on 0 <= x < 2^32). */
#ifndef PE_SINCOS_SIMD_H
#define PE_SINCOS_SIMD_H

#include "common/simd.h"
#include "math/sincos.h"

#if PE_HAVE_SIMD

#define PE_SPLAT(c) wasm_f64x2_splat(c)

static inline v128_t pe_horner2(v128_t z, v128_t acc, double c) {
    return wasm_f64x2_add(PE_SPLAT(c), wasm_f64x2_mul(z, acc));
}

/* Bit for bit pe_sincos2 in each lane; domain 0 <= x < 2^32. The angle is x + lo. */
static inline void pe_sincos2_f64x2(v128_t x, v128_t lo, v128_t *s, v128_t *c) {
    const v128_t magic = PE_SPLAT(PE_ROUND_MAGIC);
    v128_t t = wasm_f64x2_add(wasm_f64x2_mul(x, PE_SPLAT(PE_TWO_OVER_PI)), magic);
    v128_t n = wasm_f64x2_sub(t, magic);
    v128_t r = wasm_f64x2_sub(x, wasm_f64x2_mul(n, PE_SPLAT(PE_PIO2_1)));
    r = wasm_f64x2_sub(r, wasm_f64x2_mul(n, PE_SPLAT(PE_PIO2_2)));
    r = wasm_f64x2_sub(r, wasm_f64x2_mul(n, PE_SPLAT(PE_PIO2_3)));
    r = wasm_f64x2_add(r, lo);
    v128_t z = wasm_f64x2_mul(r, r);

    v128_t ps = pe_horner2(z, PE_SPLAT(PE_S15), PE_S13);
    ps = pe_horner2(z, ps, PE_S11);
    ps = pe_horner2(z, ps, PE_S9);
    ps = pe_horner2(z, ps, PE_S7);
    ps = pe_horner2(z, ps, PE_S5);
    ps = pe_horner2(z, ps, PE_S3);
    v128_t sr = wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(r, z), ps));

    v128_t pc = pe_horner2(z, PE_SPLAT(PE_C16), PE_C14);
    pc = pe_horner2(z, pc, PE_C12);
    pc = pe_horner2(z, pc, PE_C10);
    pc = pe_horner2(z, pc, PE_C8);
    pc = pe_horner2(z, pc, PE_C6);
    pc = pe_horner2(z, pc, PE_C4);
    pc = pe_horner2(z, pc, PE_C2);
    v128_t cr = wasm_f64x2_add(PE_SPLAT(1.0), wasm_f64x2_mul(z, pc));

    /* Quadrant n mod 4 sits in t's low mantissa bits. */
    const v128_t one = wasm_i64x2_splat(1), two = wasm_i64x2_splat(2);
    v128_t odd = wasm_i64x2_eq(wasm_v128_and(t, one), one);
    v128_t sv = wasm_v128_bitselect(cr, sr, odd);
    v128_t cv = wasm_v128_bitselect(sr, cr, odd);
    /* Bit 1 of q (sin) or of q + 1 (cos), moved to the sign bit. */
    v128_t sin_sign = wasm_i64x2_shl(wasm_v128_and(t, two), 62);
    v128_t cos_sign = wasm_i64x2_shl(wasm_v128_and(wasm_i64x2_add(t, one), two), 62);
    *s = wasm_v128_xor(sv, sin_sign);
    *c = wasm_v128_xor(cv, cos_sign);
}

#endif
#endif
