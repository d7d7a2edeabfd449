/* xPos's scales: checks, ln(zeta_i) / scale_base (double-double, then
 * double), and the per-row scales in double, rounded once to float32
 * (posenc.h states the bound). exp of a
 * positive t is 1 / exp(-t): the core's exp takes t <= 0 only, and the
 * division adds one rounding (2^-53), far below float32's half ulp. */
#include "sinusoid/rope/rope_xpos.h"
#include "sinusoid/rope/rope_kernels.h"

#include "math/dd.h"
#include "math/f64math.h"

#define PE_XPOS_MIN_GAMMA 1e-6
/* Below it ln(zeta_0) / scale_base overflows (a subnormal scale_base gave
 * -inf or NaN, read as 0: every position accepted, scales 1; found by the
 * fuzzer). 1e-6 keeps |ln zeta_i| / scale_base <= 1.4e7 for every gamma. */
#define PE_XPOS_MIN_SCALE_BASE 1e-6
#define PE_XPOS_MAX_GAMMA      1e6
/* |t| <= 64 ln 2: every scale and its inverse within 2^-64 ... 2^64. */
#define PE_XPOS_MAX_EXPONENT (64.0 * 0.6931471805599453)
#define PE_XPOS_CLAMP        (80.0 * 0.6931471805599453)

pe_status pe_xpos_check(const pe_xpos *x, pe_rope_scaling_type scaling) {
    if (!pe_xpos_on(x)) return PE_OK;
    const double sb = x->scale_base, g = x->gamma;
    /* Written so NaN fails every comparison. */
    if (!(sb >= PE_XPOS_MIN_SCALE_BASE && sb <= 1.7976931348623157e308)) return PE_ERR_XPOS;
    if (!(g >= PE_XPOS_MIN_GAMMA && g <= PE_XPOS_MAX_GAMMA)) return PE_ERR_XPOS;
    if (x->center >= PE_MAX_POSITION) return PE_ERR_XPOS;
    if (scaling != PE_ROPE_SCALING_NONE) return PE_ERR_XPOS;
    return PE_OK;
}

/* ln of a double-double x >= 1: ln(hi) + lo / hi (the next term, (lo/hi)^2 / 2, is below 2^-106). */
static pe_dd log_of_dd(pe_dd x) {
    return pe_dd_add(pe_log_dd(x.hi), pe_dd_make(x.lo / x.hi, 0.0));
}

void pe_xpos_log_zeta(const pe_xpos *x, uint32_t half, double *lz) {
    /* ln zeta_i = ln(2i + gamma r) - ln((1 + gamma) r), both sides in
     * double-double (gamma r and 1 + gamma are exact there), scaled by one
     * power of two K so that 2i + gamma r >= 1 (pe_log_dd's domain; exact).
     * A double zeta_i would lose up to 2^-53 of ln zeta_i, which the distance
     * (up to 44 / |ln zeta_0|) multiplies: 5e-12 for gamma near 1e6. */
    const double r = 2.0 * half, g = x->gamma;
    double k = 1.0;
    while (g * r * k < 1.0) k *= 2.0; /* gamma >= 1e-6: at most 2^19 */
    const pe_dd den = pe_dd_mul_d(pe_dd_mul_d(pe_two_sum(1.0, g), r), k);
    const pe_dd log_den = log_of_dd(den);
    for (uint32_t i = 0; i < half; i++) {
        const pe_dd num = pe_dd_mul_d(pe_dd_add(pe_two_prod(g, r), pe_dd_make(2.0 * i, 0.0)), k);
        const pe_dd log_num = log_of_dd(num);
        const pe_dd lnz = pe_dd_add(log_num, pe_dd_make(-log_den.hi, -log_den.lo));
        const double v = pe_dd_div_d(lnz, x->scale_base).hi;
        lz[i] = v < 0.0 ? v : 0.0; /* zeta_i < 1; a rounding can only make it 0 */
    }
}

/* (p - center) as a double, exact (both below 2^31). */
static double distance(const pe_xpos *x, uint32_t p) {
    return (double)p - (double)x->center;
}

uint32_t pe_xpos_reach(const double *lz) {
    if (lz[0] == 0.0) return PE_MAX_POSITION;
    const double reach = PE_XPOS_MAX_EXPONENT / -lz[0];
    return reach >= (double)PE_MAX_POSITION ? PE_MAX_POSITION : (uint32_t)reach;
}

pe_status pe_xpos_check_position(const pe_xpos *x, uint32_t reach, uint32_t p) {
    const uint32_t c = x->center, d = p > c ? p - c : c - p;
    return d <= reach ? PE_OK : PE_ERR_XPOS_RANGE;
}

void pe_xpos_scales(const pe_xpos *x, const double *lz, uint32_t half, uint32_t p, double *scale) {
    const double d = x->key ? -distance(x, p) : distance(x, p);
    for (uint32_t i = 0; i < half; i++) {
        double t = d * lz[i];
        /* Rows outside the range (a tile's rows past a call's) are made but
         * never output: clamped, so their float32 stays finite. */
        if (t > PE_XPOS_CLAMP) t = PE_XPOS_CLAMP;
        if (t < -PE_XPOS_CLAMP) t = -PE_XPOS_CLAMP;
        scale[i] = t <= 0.0 ? pe_exp_nonpositive(t) : 1.0 / pe_exp_nonpositive(-t);
    }
}

void pe_xpos_rows(const pe_xpos *x, const double *lz, uint32_t r, pe_layout layout, uint32_t first,
                  const uint32_t *positions, uint32_t g, float *rows, double *work) {
    const uint32_t half = r / 2, n = pe_rope_cs_floats(r, layout);
    for (uint32_t k = 0; k < g; k++) {
        pe_xpos_scales(x, lz, half, positions ? positions[k] : first + k, work);
        float *row = rows + (size_t)k * n;
        for (uint32_t i = 0; i < half; i++) {
            const float s = (float)work[i];
            if (layout == PE_LAYOUT_SPLIT)
                row[i] = s;
            else
                row[2 * i] = row[2 * i + 1] = s;
        }
    }
}
