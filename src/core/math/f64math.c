/* exp and log for the frequencies T^(-2i/d): computed once per call, so they
 * favour clarity over speed. See f64math.h for why they are our own. */
#include "math/f64math.h"

/* ln 2 = LN2_HI + LN2_LO; LN2_HI has 42 bits, so k * LN2_HI is exact for
 * |k| < 2^11. */
#define PE_LN2_HI  0x1.62e42fefa3800p-1
#define PE_LN2_LO  0x1.ef35793c76730p-45
#define PE_INV_LN2 0x1.71547652b82fep+0
#define PE_SQRT2   1.4142135623730951

static double from_bits(uint64_t u) {
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* 2^k for -1022 <= k <= 1023, built from its bits. */
static double pow2(int k) {
    return from_bits((uint64_t)(k + 1023) << 52);
}

double pe_log(double x) {
    uint64_t u = pe_bits(x);
    int e = (int)(u >> 52) - 1023;
    if (e == -1023) { /* subnormal: scale into the normal range first */
        x *= 0x1p54;
        u = pe_bits(x);
        e = (int)(u >> 52) - 1023 - 54;
    }
    double m = from_bits((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull); /* [1, 2) */
    if (m > PE_SQRT2) { /* centre m on 1: |s| below stays under 0.172 */
        m *= 0.5;
        e += 1;
    }
    /* log m = 2 atanh(s) = 2(s + s^3/3 + s^5/5 + ...), s = (m-1)/(m+1). */
    double f = m - 1.0;
    double s = f / (m + 1.0);
    double z = s * s;
    double p = 1.0 / 23.0;
    for (int k = 21; k >= 3; k -= 2) p = 1.0 / k + z * p;
    double log_m = 2.0 * s + 2.0 * s * z * p;
    return (double)e * PE_LN2_HI + ((double)e * PE_LN2_LO + log_m);
}

double pe_exp_nonpositive(double x) {
    if (x < -745.2) return 0.0; /* below half the smallest subnormal */
    /* x = k ln2 + r with |r| <= ln2 / 2. */
    double t = x * PE_INV_LN2 - PE_ROUND_MAGIC;
    double kd = t + PE_ROUND_MAGIC;
    int k = (int)kd;
    double r = (x - kd * PE_LN2_HI) - kd * PE_LN2_LO;
    /* e^r by Taylor to r^13: the omitted r^14/14! is below 5e-18. */
    double p = 1.0 / 6227020800.0;
    double fact = 6227020800.0;
    for (int n = 12; n >= 1; n--) {
        fact /= n + 1; /* exact: n! for the coefficient of r^n */
        p = 1.0 / fact + r * p;
    }
    double er = 1.0 + r * p;
    if (k >= -1022) return er * pow2(k);
    return (er * pow2(k + 600)) * pow2(-600); /* subnormal result: two steps */
}
