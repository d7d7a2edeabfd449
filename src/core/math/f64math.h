/* Double-precision exp and log of our own (sin and cos: math/sincos.h), so
 * that no libm runs in the core and every build computes the same bits (glibc
 * and musl differ in the last bit). Plain C with -ffp-contract=off: each
 * operation is one IEEE rounding, identical on every target. The bounds below
 * are measured against __float128 by tests/native/math/bounds.c. */
#ifndef PE_F64MATH_H
#define PE_F64MATH_H

#include <stdint.h>
#include <string.h>

/* Round-to-nearest via 1.5 * 2^52: x + MAGIC lands the integer in the low
 * mantissa bits; exact for |x| < 2^51. No rint(), no libm. */
#define PE_ROUND_MAGIC 6755399441055744.0

static inline uint64_t pe_bits(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* Within 2.5 ulp (1.92 measured, worst near x = 1); domain: finite x > 0,
 * subnormals included. Natural log. */
double pe_log(double x);

/* Within 1.5 ulp (1.11 measured; subnormal results within 1.5 ulp of
 * 2^-1074); domain: x <= 0. e^x; 0 below -745.2, where e^x is under half the
 * smallest subnormal. */
double pe_exp_nonpositive(double x);

#endif
