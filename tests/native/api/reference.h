/* reference.h: the long double oracle (reference.c). */
#ifndef BEYOND_REFERENCE_H
#define BEYOND_REFERENCE_H

#include <stdint.h>

/* pi to long double precision, and ln 2. */
#define REF_PI (2.0L * (0xc90fdaa200000000p-63L + 0x85a308d300000000p-97L + 0x98cc51701b839a25p-132L))
#define LN2    0xb17217f7d1cf79acp-64L

void ref_sincos(long double x, long double *s, long double *c);
long double ref_sin(long double x);
long double ref_cos(long double x);
long double ref_log(long double x);
long double ref_exp(long double x);
long double ref_pow(long double base, long double exponent);
/* base^(-i/pairs), exact where base is a power of two and the exponent whole. */
long double ref_frequency(double base, uint32_t i, uint32_t pairs);
/* The float nearest the exact value e, or either neighbour when e lies
 * within slack of a midpoint between two floats. */
int near_enough(float got, long double e, long double slack);

#endif
