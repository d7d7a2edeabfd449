/* reference.c: sine, cosine, log, exp and pow in long double, the oracle of
 * the C API tests (the link has no libm, so that the core is
 * shown not to need it). */
#include <math.h>

#include "reference.h"
#include "support.h"

/* Series evaluated in long double (64-bit significand on x86): relative
 * errors about 1e-19, more than three decimal digits beyond double. */

/* pi/2 in three parts, the first two of 32 bits, so k * part is exact for
 * k < 2^32: angles up to 2^31 reduce with an error near 2^-100. */
#define PIO2_1 0xc90fdaa200000000p-63L
#define PIO2_2 0x85a308d300000000p-97L
#define PIO2_3 0x98cc51701b839a25p-132L
/* ln 2 as 32 bits plus the rest (reference.h has it whole). */
#define LN2_1 0xb17217f800000000p-64L
#define LN2_2 (-0xb8c21950d87131a0p-98L)

/* Taylor series of sin and cos for |r| <= pi/4 + a little. */
static void sincos_small(long double r, long double *s, long double *c) {
    long double r2 = r * r, ts = r, tc = 1.0L, sum_s = r, sum_c = 1.0L;
    for (int n = 1; n < 16; n++) {
        ts *= -r2 / ((2 * n) * (2 * n + 1));
        tc *= -r2 / ((2 * n - 1) * (2 * n));
        sum_s += ts;
        sum_c += tc;
    }
    *s = sum_s;
    *c = sum_c;
}

/* sin and cos of x for |x| < 2^32, by quadrant. */
void ref_sincos(long double x, long double *s, long double *c) {
    const int negative = x < 0;
    if (negative) x = -x;
    const long double k = (long double)(uint64_t)(x / (PIO2_1 + PIO2_2) + 0.5L);
    const long double r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    long double rs, rc;
    sincos_small(r, &rs, &rc);
    switch ((uint64_t)k % 4) {
    case 0: *s = rs, *c = rc; break;
    case 1: *s = rc, *c = -rs; break;
    case 2: *s = -rs, *c = -rc; break;
    default: *s = -rc, *c = rs; break;
    }
    if (negative) *s = -*s;
}

long double ref_sin(long double x) {
    long double s, c;
    ref_sincos(x, &s, &c);
    return s;
}

long double ref_cos(long double x) {
    long double s, c;
    ref_sincos(x, &s, &c);
    return c;
}

/* ln x for finite x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), then
 * ln m = 2 atanh((m - 1) / (m + 1)). */
long double ref_log(long double x) {
    int e = 0;
    while (x >= 2.0L) x *= 0.5L, e++;
    while (x < 1.0L) x *= 2.0L, e--;
    if (x > 1.41421356237309504880L) x *= 0.5L, e++;
    const long double s = (x - 1.0L) / (x + 1.0L), s2 = s * s;
    long double term = s, sum = 0.0L;
    for (int n = 1; n < 60; n += 2) {
        sum += term / n;
        term *= s2;
    }
    return 2.0L * sum + e * LN2;
}

/* e^x for |x| < 10000: x = k ln 2 + r, |r| <= ln 2 / 2. */
long double ref_exp(long double x) {
    const long double k = (long double)(int64_t)(x / LN2 + (x < 0 ? -0.5L : 0.5L));
    const long double r = (x - k * LN2_1) - k * LN2_2;
    long double term = 1.0L, sum = 1.0L;
    for (int n = 1; n < 30; n++) {
        term *= r / n;
        sum += term;
    }
    for (int64_t i = 0; i < (int64_t)k; i++) sum *= 2.0L;
    for (int64_t i = 0; i > (int64_t)k; i--) sum *= 0.5L;
    return sum;
}

long double ref_pow(long double base, long double exponent) {
    return ref_exp(exponent * ref_log(base));
}

/* The sinusoid's w_i = base^(-i/pairs). Exact when base is 2^k with k i /
 * pairs whole: near p = 2^31 the oracle needs the angle p w_i to 1e-13, and
 * ref_pow's relative 1e-19 would cost 1e-10 there. */
long double ref_frequency(double base, uint32_t i, uint32_t pairs) {
    const uint64_t bits = double_bits(base);
    const int k = (int)(bits >> 52) - 1023;
    if ((bits & ((1ull << 52) - 1)) == 0 && k > 0 && ((uint64_t)k * i) % pairs == 0) {
        long double w = 1.0L;
        for (uint64_t halvings = (uint64_t)k * i / pairs; halvings > 0; halvings--) w *= 0.5L;
        return w;
    }
    return ref_pow(base, -(long double)i / pairs);
}

/* The oracle itself, against digits computed elsewhere (mpmath, 200 bits). */
void test_reference_math(void) {
    const struct {
        long double got, want;
        const char *what;
    } cases[] = {
        {ref_sin(1.0L), 0.8414709848078965066525023L, "sin 1"},
        {ref_cos(1.0L), 0.5403023058681397174009366L, "cos 1"},
        {ref_sin(2147483647.0L), -0.7249165551445563905482933L, "sin(2^31 - 1)"},
        {ref_cos(2147483647.0L), -0.6888366918779438346797582L, "cos(2^31 - 1)"},
        {ref_sin(1000000.0L), -0.3499935021712929521176525L, "sin 10^6"},
        {ref_log(10000.0L), 9.210340371976182736071966L, "ln 10000"},
        {ref_exp(-3.5L), 0.03019738342231850073978629L, "e^-3.5"},
        {ref_pow(10000.0L, -0.25L), 0.1L, "10000^-1/4"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const long double err = fabsl(cases[k].got - cases[k].want);
        CHECK(err <= 1e-18L * (1.0L + fabsl(cases[k].want)), "reference %s off by %Lg", cases[k].what, err);
    }
}

/* The float nearest the exact value e, or either neighbour when e lies within
 * slack of a midpoint between two floats (the rounding rules the header
 * allows for double intermediate steps). */
int near_enough(float got, long double e, long double slack) {
    const float below = (float)(e - slack), above = (float)(e + slack);
    return float_bits(got) == float_bits(below) || float_bits(got) == float_bits(above);
}
