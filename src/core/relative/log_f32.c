/* The float32 natural logarithm T5's buckets take, correctly rounded, with no
 * libm: T5 (HF transformers, mesh-tensorflow) rounds log(n / max_exact) to
 * float32, and a bucket boundary moves when that last bit does. Evaluated in
 * double-double (about 2^-60 relative), then rounded once to float32; checked
 * exhaustively against a quad-precision oracle on every float32 in [1, 2^31]
 * (tests/native/relative/log_scan.c), which holds every argument a bucket can
 * see. Called a few hundred times per bucket table (relative_thresholds.c),
 * so it favours clarity over speed. */
#include <stdint.h>
#include <string.h>

#include "relative/relative_kernels.h"

/* ln 2 = LN2_HI + LN2_LO; LN2_HI has 42 bits, so e * LN2_HI is exact for |e| < 2^11. */
#define LN2_HI 0x1.62e42fefa3800p-1
#define LN2_LO 0x1.ef35793c76730p-45

/* a * b = *p + *e exactly (Dekker: no fused multiply-add, which the builds forbid). */
static void two_product(double a, double b, double *p, double *e) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double ca = split * a, cb = split * b;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    *p = a * b;
    *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* a + b = *s + *e exactly (Knuth's two-sum: any order of magnitudes). */
static void two_sum(double a, double b, double *s, double *e) {
    *s = a + b;
    double bb = *s - a;
    *e = (a - (*s - bb)) + (b - bb);
}

/* The float next to f (finite, nonzero) toward +infinity when up, else toward -infinity. */
static float next_float(float f, int up) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u = (up == (f > 0.0f)) ? u + 1 : u - 1;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* hi + lo (|lo| <= half an ulp of hi) rounded once to float32: (float)hi is
 * right unless hi sits exactly on the midpoint between two floats (then the
 * cast broke the tie to even), where the sign of lo decides. */
static float round_pair(double hi, double lo) {
    float f = (float)hi;
    if ((double)f == hi || lo == 0.0) return f;
    float g = next_float(f, hi > (double)f);                /* the neighbour on hi's side */
    double mid = (double)f + ((double)g - (double)f) * 0.5; /* exact in double */
    if (hi == mid && (lo > 0.0) == (g > f)) return g;
    return f;
}

float pe_relative_log_f32(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    int e = (int)(u >> 23) - 127;
    uint32_t mbits = (u & 0x007fffffu) | 0x3f800000u; /* m in [1, 2) */
    if (mbits > 0x3fb504f3u) {                        /* m > sqrt 2: halve it, so m in [sqrt(1/2), sqrt 2) */
        mbits -= 0x00800000u;
        e += 1;
    }
    float mf;
    memcpy(&mf, &mbits, sizeof mf);
    const double m = mf;
    /* log m = 2 atanh(s), s = (m - 1)/(m + 1) = s_hi + s_lo: f and d are exact. */
    const double f = m - 1.0, d = m + 1.0;
    const double s_hi = f / d;
    double p, pe;
    two_product(s_hi, d, &p, &pe);
    const double s_lo = ((f - p) - pe) / d;
    /* 2 atanh(s) = 2s + 2s^3 (1/3 + s^2/5 + ...): the tail is below 2% of 2s
     * (|s| < 0.172), so plain double there costs under 2^-57 of the total. */
    const double z = s_hi * s_hi;
    double poly = 1.0 / 23.0;
    for (int k = 21; k >= 3; k -= 2) poly = 1.0 / k + z * poly;
    const double tail = 2.0 * s_lo + 2.0 * s_hi * z * poly;
    double hi, err;
    two_sum((double)e * LN2_HI, 2.0 * s_hi, &hi, &err);
    const double lo = err + ((double)e * LN2_LO + tail);
    double r_hi, r_lo;
    two_sum(hi, lo, &r_hi, &r_lo);
    return round_pair(r_hi, r_lo);
}
