/* sin and cos in double of our own (no libm, the same bits on every build),
 * for the plan's anchors and the naive recipes. math/sincos_simd.h mirrors
 * pe_sincos2 operation for operation on two lanes. The bound is measured
 * against __float128 by tests/native/math/bounds.c. */
#ifndef PE_SINCOS_H
#define PE_SINCOS_H

#include "math/f64math.h"

/* pi/2 as P1 + P2 + P3: P1 and P2 carry 22 bits each, so n * P1 and n * P2
 * are exact for n < 2^31 and the first two subtractions are exact. */
#define PE_TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PE_PIO2_1      0x1.921fb00000000p+0
#define PE_PIO2_2      0x1.5110b00000000p-22
#define PE_PIO2_3      0x1.18469898cc517p-44

/* Taylor coefficients 1/n!: on |r| <= pi/4 the first omitted terms are below
 * 5e-17 (sin, r^17) and 3e-18 (cos, r^18). */
#define PE_S3  (-1.0 / 6.0)
#define PE_S5  (1.0 / 120.0)
#define PE_S7  (-1.0 / 5040.0)
#define PE_S9  (1.0 / 362880.0)
#define PE_S11 (-1.0 / 39916800.0)
#define PE_S13 (1.0 / 6227020800.0)
#define PE_S15 (-1.0 / 1307674368000.0)
#define PE_C2  (-1.0 / 2.0)
#define PE_C4  (1.0 / 24.0)
#define PE_C6  (-1.0 / 720.0)
#define PE_C8  (1.0 / 40320.0)
#define PE_C10 (-1.0 / 3628800.0)
#define PE_C12 (1.0 / 479001600.0)
#define PE_C14 (-1.0 / 87178291200.0)
#define PE_C16 (1.0 / 20922789888000.0)

/* |error| <= 2^-52 absolute (1.6 * 2^-53 measured, angles at and next to
 * multiples of pi/4 included); domain: 0 <= x < 2^32, |lo| <= ulp(x) (an
 * angle carried in two parts, x + lo). sin and cos of x + lo: the reduction
 * keeps about 97 bits of pi/2, so large x lose nothing. */
static inline void pe_sincos2(double x, double lo, double *s, double *c) {
    double t = x * PE_TWO_OVER_PI + PE_ROUND_MAGIC;
    double n = t - PE_ROUND_MAGIC;
    uint64_t q = pe_bits(t);
    double r = x - n * PE_PIO2_1;
    r = r - n * PE_PIO2_2;
    r = r - n * PE_PIO2_3;
    r = r + lo;
    double z = r * r;
    double ps = PE_S13 + z * PE_S15;
    ps = PE_S11 + z * ps;
    ps = PE_S9 + z * ps;
    ps = PE_S7 + z * ps;
    ps = PE_S5 + z * ps;
    ps = PE_S3 + z * ps;
    double sr = r + r * z * ps;
    double pc = PE_C14 + z * PE_C16;
    pc = PE_C12 + z * pc;
    pc = PE_C10 + z * pc;
    pc = PE_C8 + z * pc;
    pc = PE_C6 + z * pc;
    pc = PE_C4 + z * pc;
    pc = PE_C2 + z * pc;
    double cr = 1.0 + z * pc;
    /* x = n*pi/2 + r: quadrant q = n mod 4 rotates (sin r, cos r). */
    double sv = (q & 1) ? cr : sr;
    double cv = (q & 1) ? sr : cr;
    *s = (q & 2) ? -sv : sv;
    *c = ((q + 1) & 2) ? -cv : cv;
}

/* As pe_sincos2 with lo = 0: |error| <= 2^-52; domain 0 <= x < 2^32. */
static inline void pe_sincos(double x, double *s, double *c) {
    pe_sincos2(x, 0.0, s, c);
}

#endif
