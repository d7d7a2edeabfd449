/* float64 -> float16 / bfloat16, scalar reference (narrow16.h states the
 * rule). Every shift is by less than 64 and every sum stays below 2^63. */
#include "sinusoid/precision/narrow16.h"
#include "sinusoid/precision/precision_kernels.h"

#include <string.h>

static inline uint16_t narrow_one(double x, unsigned t, unsigned bias) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    const uint64_t sign = (bits >> 48) & 0x8000u;
    const uint64_t a = bits & ~(1ull << 63);
    if (a > PE_F64_INF_BITS) return (uint16_t)(sign | PE_NARROW_NAN(t, bias));
    if (a >= PE_INF_FROM_BITS(t, bias)) return (uint16_t)(sign | PE_NARROW_INF(t, bias));
    if (a >= PE_MIN_NORMAL_BITS(bias)) {
        const unsigned drop = 52u - t;
        const uint64_t lsb = (a >> drop) & 1u;
        return (uint16_t)(sign | (((a + (1ull << (drop - 1u)) - 1u + lsb) >> drop) - PE_REBIAS(t, bias)));
    }
    /* |x| = M * 2^(e - 1075); in units of the smallest subnormal 2^(1 - B - T)
     * that is M >> shift with shift = 53 - T + (1023 - B - e). Past 63 the
     * result is 0: |x| is below half the smallest subnormal (or it is a
     * float64 subnormal, where e = 0). */
    const unsigned e = (unsigned)(a >> 52);
    const unsigned shift = 53u - t + (1023u - bias - e);
    if (shift > 63u) return (uint16_t)sign;
    const uint64_t m = (a & PE_F64_FRACTION_MASK) | PE_F64_IMPLICIT;
    const uint64_t lsb = (m >> shift) & 1u;
    return (uint16_t)(sign | ((m + (1ull << (shift - 1u)) - 1u + lsb) >> shift));
}

uint16_t pe_narrow_f16_one(double x) {
    return narrow_one(x, PE_F16_FRACTION, PE_F16_BIAS);
}

uint16_t pe_narrow_bf16_one(double x) {
    return narrow_one(x, PE_BF16_FRACTION, PE_BF16_BIAS);
}

void pe_narrow_f16_scalar(const double *in, uint16_t *out, size_t count) {
    for (size_t k = 0; k < count; k++) out[k] = narrow_one(in[k], PE_F16_FRACTION, PE_F16_BIAS);
}

void pe_narrow_bf16_scalar(const double *in, uint16_t *out, size_t count) {
    for (size_t k = 0; k < count; k++) out[k] = narrow_one(in[k], PE_BF16_FRACTION, PE_BF16_BIAS);
}

/* Widening is exact: build the float64 bits directly. */
static double widen(uint16_t h, unsigned t, unsigned bias) {
    const uint64_t sign = (uint64_t)(h & 0x8000u) << 48;
    const unsigned field = (h & 0x7fffu) >> t;
    uint64_t fraction = h & ((1u << t) - 1u), bits;
    if (field == (2u * bias + 1u)) {
        bits = PE_F64_INF_BITS | (fraction << (52u - t)); /* inf, or NaN with its payload */
    } else if (field != 0) {
        bits = ((uint64_t)(field + 1023u - bias) << 52) | (fraction << (52u - t));
    } else if (fraction == 0) {
        bits = 0;
    } else {
        /* Subnormal: normalise so the leading 1 becomes the implicit bit. */
        unsigned e = 1024u - bias; /* exponent field of 2^(1 - B) */
        while (!(fraction & (1u << t))) fraction <<= 1, e--;
        bits = ((uint64_t)e << 52) | ((fraction & ((1u << t) - 1u)) << (52u - t));
    }
    bits |= sign;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

double pe_widen_f16(uint16_t h) {
    return widen(h, PE_F16_FRACTION, PE_F16_BIAS);
}

double pe_widen_bf16(uint16_t h) {
    return widen(h, PE_BF16_FRACTION, PE_BF16_BIAS);
}
