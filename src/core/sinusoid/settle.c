/* The slow path (sinusoid/settle.h): a value near a rounding midpoint,
 * recomputed from its position and rounded once. */
#include <string.h>

#include "math/dd.h"
#include "math/sincos.h"
#include "math/sincos_dd.h"
#include "sinusoid/precision/precision_kernels.h"
#include "sinusoid/settle.h"

#define MEDIUM_BOUND 0x1p-52  /* pe_sincos2 (math/sincos.h) */
#define EXACT_BOUND  0x1p-100 /* pe_sincos_dd (math/sincos_dd.h) */

/* w_i = rho^i with rho = e^(-ln T / span) (plan.c). ln T within 2^-103
 * max(1, ln T) and the division within 2^-104 make ln rho relatively within
 * 2^-102 for T >= 2, so rho is within |ln rho| 2^-102 + 2^-102 (exp's own
 * bound) and each of the i products adds 2^-104: w_i is within
 * i (|ln rho| + 1.25) 2^-102. Doubled for the roundings of this estimate. */
double pe_settle_w_err_step(double log_base, double span) {
    return (log_base / span + 1.25) * 0x1p-101;
}

typedef enum { FMT_F32, FMT_F16, FMT_BF16 } fmt;

static double round_to(fmt f, double x) {
    if (f == FMT_F32) return (double)(float)x;
    return f == FMT_F16 ? pe_widen_f16(pe_narrow_f16_one(x)) : pe_widen_bf16(pe_narrow_bf16_one(x));
}

/* The representable neighbour of r (a value of the format, the rounding of
 * h, r != h) on h's side: one step in magnitude. */
static double neighbour(fmt f, double r, double h) {
    const int up = (h < 0 ? -h : h) > (r < 0 ? -r : r);
    if (f == FMT_F32) {
        float rf = (float)(r < 0 ? -r : r);
        uint32_t bits;
        memcpy(&bits, &rf, sizeof bits);
        bits = up ? bits + 1 : bits - 1;
        memcpy(&rf, &bits, sizeof rf);
        return h < 0 ? -(double)rf : (double)rf;
    }
    const uint16_t b = f == FMT_F16 ? pe_narrow_f16_one(r) : pe_narrow_bf16_one(r);
    const uint16_t m = (uint16_t)((b & 0x7fffu) + (up ? 1 : -1)) | (h < 0 ? 0x8000u : 0u);
    return f == FMT_F16 ? pe_widen_f16(m) : pe_widen_bf16(m);
}

/* Rounds v = h + l to the format when every value within bound of v rounds
 * alike: returns 1 and sets *out; else 0. */
static int decide(fmt f, double h, double l, double bound, double *out) {
    const double r = round_to(f, h);
    if (r == h) {
        /* v sits next to a representable value: the midpoints are half a
         * step away on either side (h = 0 does not occur: p w_i is never
         * that close to a multiple of pi). */
        if (h == 0) return 0;
        const double up = neighbour(f, r, 2 * h) - r, down = r - neighbour(f, r, 0.5 * h);
        const double gap = (up < 0 ? -up : up) < (down < 0 ? -down : down) ? up : down;
        if ((l < 0 ? -l : l) + bound >= 0.5 * (gap < 0 ? -gap : gap)) return 0;
        *out = r;
        return 1;
    }
    const double g = neighbour(f, r, h);
    const double mid = 0.5 * (r + g);
    const double s = (h - mid) + l; /* h - mid exact: h lies between r and mid */
    if ((s < 0 ? -s : s) <= bound * (1 + 0x1p-40)) return 0;
    *out = (s > 0) == (g > r) ? g : r;
    return 1;
}

/* The exact value of column j at p rounded to the format. */
static double settle(const pe_plan *plan, uint32_t p, uint32_t j, fmt f) {
    const uint32_t half = plan->half;
    const int split = plan->layout == PE_LAYOUT_SPLIT;
    const uint32_t i = split ? (j < half ? j : j - half) : j / 2;
    const int want_cos = split ? j >= half : (int)(j & 1);
    const double w = plan->w[i], w_lo = plan->w_lo[i];
    if (p == 0 || (w == 0.0 && w_lo == 0.0)) return want_cos ? 1.0 : 0.0; /* sin 0, cos 0: exact */
    pe_dd prod = pe_two_prod((double)p, w);
    const double lo = prod.lo + (double)p * w_lo;
    /* The angle's error: p w_i times w_i's and the sum's relative errors. */
    const double angle_err = prod.hi * ((double)i * plan->w_err_step + 0x1p-104);
    double v, s, c;
    if (prod.hi < 0x1p32) {
        pe_sincos2(prod.hi, lo, &s, &c);
        if (decide(f, want_cos ? c : s, 0.0, MEDIUM_BOUND + angle_err, &v)) return v;
    }
    pe_dd x = pe_sincos_dd(pe_fast_two_sum(prod.hi, lo), want_cos);
    if (decide(f, x.hi, x.lo, EXACT_BOUND + angle_err, &v)) return v;
    /* Undecidable at 2^-100 (settle.h): the double-double's own rounding. */
    if (!decide(f, x.hi, x.lo, 0.0, &v)) v = round_to(f, x.hi);
    return v;
}

float pe_settle_f32(const pe_plan *plan, uint32_t p, uint32_t j) {
    return (float)settle(plan, p, j, FMT_F32);
}

double pe_settle_16(const pe_plan *plan, uint32_t p, uint32_t j, pe_dtype dtype) {
    return settle(plan, p, j, dtype == PE_DTYPE_FLOAT16 ? FMT_F16 : FMT_BF16);
}

/* Nonzero when y may lie within PE_FAST_BOUND of a midpoint of the format with
 * t fraction bits: always below 2^-floor_exp, else when the dropped 52 - t
 * fraction bits are within PE_FAST_BOUND 2^(52 + floor_exp) units of half. For
 * |y| in [2^e, 2^(e+1)), e >= -floor_exp, a unit is 2^(e - 52), so the test
 * covers PE_FAST_BOUND (and more for larger e). */
static int near16(double y, unsigned t, unsigned floor_exp) {
    uint64_t bits;
    memcpy(&bits, &y, sizeof bits);
    const uint64_t a = bits & ~(1ull << 63);
    if (a < (uint64_t)(1023u - floor_exp) << 52) return 1;
    const uint64_t drop = 52u - t, low = a & ((1ull << drop) - 1u), half_unit = 1ull << (drop - 1u);
    const uint64_t dist = low > half_unit ? low - half_unit : half_unit - low;
    return (double)dist <= PE_FAST_BOUND * 0x1p52 * (double)(1u << floor_exp);
}

void pe_settle_rows_16(const pe_plan *plan, pe_dtype dtype, uint32_t first, uint32_t rows, double *out, size_t stride) {
    if (dtype != PE_DTYPE_FLOAT16 && dtype != PE_DTYPE_BFLOAT16) return;
    /* float16 is normal from 2^-14 on; bfloat16 everywhere, 2^-16 keeps the
     * units test's rate near float16's (2^-14). */
    const unsigned t = dtype == PE_DTYPE_FLOAT16 ? 10u : 7u, floor_exp = dtype == PE_DTYPE_FLOAT16 ? 14u : 16u;
    for (uint32_t r = 0; r < rows; r++) {
        double *row = out + (size_t)r * stride;
        for (uint32_t j = 0; j < plan->dim; j++)
            if (near16(row[j], t, floor_exp)) row[j] = pe_settle_16(plan, first + r, j, dtype);
    }
}
