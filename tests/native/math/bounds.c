/* math-bounds: restates the error bound and domain declared with each internal
 * math routine (math/f64math.h, math/sincos_simd.h, math/dd.h, and the
 * frequencies and seeds of sinusoid/plan.h) against __float128 (libquadmath,
 * 113 bits), over sweeps that probe the hard inputs: angles at and next to
 * multiples of pi/4 (the reduction's worst case), the ends of each domain,
 * subnormal results, and the frequencies and positions the plan meets.
 *
 * Each check compares the largest error seen with the bound the header
 * states; the run prints the largest errors measured (the figures the
 * headers quote) to stdout. The sweeps are seeded with a fixed seed, so the
 * figures are reproducible. Prints `N passed, M failed` last and exits 1 when
 * anything failed. Tests are registered in one list, math_tests[] below. */
#include <float.h>
#include <math.h>
#include <quadmath.h>

#include "api_check.h"
#include "bounds.h"
#include "common/kernel_table.h"
#include "common/simd.h"
#include "math/dd.h"
#include "math/f64math.h"
#include "math/sincos_dd.h"
#include "math/sincos_simd.h"
#include "sinusoid/plan.h"
#include "sinusoid/settle.h"

typedef __float128 quad;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
/* Uniform in [0, 1). */
static double uniform(void) {
    return (double)(next_u64() >> 11) * 0x1p-53;
}

static double ulp(double v) {
    v = fabs(v);
    if (v < DBL_MIN) return 0x1p-1074;
    int e;
    frexp(v, &e);
    return ldexp(1.0, e - 53);
}

/* |got - exact| in ulp of the exact value rounded to double. */
static double err_ulp(double got, quad exact) {
    return (double)fabsq((quad)got - exact) / ulp((double)exact);
}

/* Largest error seen, and where. */
typedef struct {
    double err, at;
} worst;
static void note(worst *w, double err, double at) {
    if (err > w->err || err != err) w->err = err, w->at = at;
}
static void report(const char *what, const worst *w, double bound, const char *unit) {
    printf("%-44s max %.4g %s (bound %.4g) at %.17g\n", what, w->err, unit, bound, w->at);
    CHECK(w->err <= bound, "%s: %.6g %s at %.17g exceeds the stated bound %.6g", what, w->err, unit, w->at, bound);
}

/* ---- sin and cos: pe_sincos2 (f64math.h), pe_sincos2_f64x2 (sincos_simd.h) ---- */

/* Absolute error of sin and cos of x + lo, in units of 2^-53, and whether
 * the two-lane version gives the same bits. */
static void sincos_case(double x, double lo, worst *w, int *simd_differs) {
    double s, c;
    pe_sincos2(x, lo, &s, &c);
    quad a = (quad)x + (quad)lo;
    note(w, (double)(fabsq((quad)s - sinq(a)) * 0x1p53Q), x);
    note(w, (double)(fabsq((quad)c - cosq(a)) * 0x1p53Q), x);
#if PE_HAVE_SIMD
    double xs[2] = {x, x}, ls[2] = {lo, 0.0}, ss[2], cs[2];
    v128_t vs, vc;
    pe_sincos2_f64x2(wasm_v128_load(xs), wasm_v128_load(ls), &vs, &vc);
    wasm_v128_store(ss, vs);
    wasm_v128_store(cs, vc);
    if (memcmp(&ss[0], &s, 8) || memcmp(&cs[0], &c, 8)) *simd_differs += 1;
#else
    (void)simd_differs;
#endif
}

static void test_sincos(void) {
    worst w = {0, 0};
    int differs = 0;
    const quad pio4 = M_PI_4q;
    /* Multiples of pi/4 up to 2^32 and their neighbours: k small, k near the
     * top of the domain, and k spread in between. */
    for (uint64_t n = 0; n < 60000; n++) {
        uint64_t k = n < 20000 ? n : n < 40000 ? 5468522000ull - (n - 20000) : next_u64() % 5468522205ull;
        double x = (double)(k * pio4);
        if (x >= 0x1p32) continue;
        for (int d = -3; d <= 3; d++) {
            double y = x;
            for (int s = 0; s < (d < 0 ? -d : d); s++) y = d < 0 ? nextafter(y, 0) : nextafter(y, INFINITY);
            if (y >= 0 && y < 0x1p32) sincos_case(y, 0.0, &w, &differs);
        }
    }
    /* Log-uniform over the domain, and tiny angles. */
    for (int n = 0; n < 200000; n++)
        sincos_case(ldexp(1.0 + uniform(), (int)(next_u64() % 80) - 48), 0.0, &w, &differs);
    /* Two-part angles as the seeds form them: a * w + (error + a * w_lo). */
    for (int n = 0; n < 200000; n++) {
        const uint32_t a = (uint32_t)(next_u64() >> 33);
        const quad wq = expq(-(quad)uniform() * 16.2Q); /* 1e-7 < w <= 1 */
        const double wh = (double)wq, wl = (double)(wq - (quad)wh);
        pe_dd p = pe_two_prod((double)a, wh);
        sincos_case(p.hi, p.lo + (double)a * wl, &w, &differs);
    }
    report("pe_sincos2 |error|, 0 <= x < 2^32", &w, PE_SINCOS_BOUND, "x 2^-53");
    CHECK(differs == 0, "pe_sincos2_f64x2 differs from pe_sincos2 in %d cases", differs);
}

/* ---- pe_log, pe_exp_nonpositive (f64math.h) ---- */

static void test_log(void) {
    worst w = {0, 0};
    for (int n = 0; n < 300000; n++) {
        double x;
        switch (n % 4) {
        case 0: { /* any positive finite double, subnormals included */
            uint64_t u = next_u64() % 0x7ff0000000000000ull;
            memcpy(&x, &u, 8);
            if (x == 0) continue;
            break;
        }
        case 1: x = 1.0 + ldexp(uniform() - 0.5, -(int)(next_u64() % 50)); break; /* near 1 */
        case 2: x = 2.0 + uniform() * 1e7; break;                                 /* bases */
        default: x = M_SQRT2 * (1.0 + ldexp(uniform() - 0.5, -(int)(next_u64() % 50))); break;
        }
        note(&w, err_ulp(pe_log(x), logq((quad)x)), x);
    }
    report("pe_log, finite x > 0", &w, PE_LOG_BOUND_ULP, "ulp");
}

static void test_exp(void) {
    worst w = {0, 0};
    for (int n = 0; n < 300000; n++) {
        double x;
        switch (n % 4) {
        case 0: x = -uniform() * 745.2; break;
        case 1: x = -ldexp(uniform(), -(int)(next_u64() % 60)); break; /* near 0 */
        case 2: x = -708.4 - uniform() * 36.8; break;                  /* subnormal results */
        default: x = -(double)(next_u64() % 1075) * M_LN2 * (1.0 + (uniform() - 0.5) * 0x1p-40); break;
        }
        note(&w, err_ulp(pe_exp_nonpositive(x), expq((quad)x)), x);
    }
    note(&w, err_ulp(pe_exp_nonpositive(0.0), 1), 0.0);
    report("pe_exp_nonpositive, x <= 0", &w, PE_EXP_BOUND_ULP, "ulp");
}

/* ---- double-double (dd.h) ---- */

static quad qdd(pe_dd a) {
    return (quad)a.hi + (quad)a.lo;
}
static double rel_bits(quad got, quad exact) {
    if (exact == 0) return got == 0 ? 0 : INFINITY;
    return (double)(fabsq(got - exact) / fabsq(exact) * 0x1p106Q);
}
static double random_double(void) {
    return ldexp(uniform() + 0.5, (int)(next_u64() % 64) - 32) * (next_u64() & 1 ? 1 : -1);
}
static pe_dd random_dd(void) {
    double hi = random_double();
    return pe_fast_two_sum(hi, hi * (uniform() - 0.5) * 0x1p-53);
}

static void test_dd_exact(void) {
    int inexact = 0;
    for (int n = 0; n < 200000; n++) {
        double a = random_double(), b = random_double();
        if (fabs(a) < fabs(b)) {
            double t = a;
            a = b;
            b = t;
        }
        pe_dd s = pe_two_sum(b, a), f = pe_fast_two_sum(a, b), p = pe_two_prod(a, b);
        inexact += qdd(s) != (quad)a + (quad)b || s.hi != a + b;
        inexact += qdd(f) != (quad)a + (quad)b || f.hi != a + b;
        inexact += qdd(p) != (quad)a * (quad)b || p.hi != a * b;
    }
    printf("%-44s %d inexact of 600000\n", "pe_two_sum, pe_fast_two_sum, pe_two_prod", inexact);
    CHECK(inexact == 0, "%d error-free transformations were not exact", inexact);
}

static void test_dd_arithmetic(void) {
    worst add = {0, 0}, mul = {0, 0}, mul_d = {0, 0}, div_d = {0, 0};
    for (int n = 0; n < 200000; n++) {
        pe_dd a = random_dd(), b = random_dd();
        double d = random_double();
        /* Any signs: the error relative to |a| + |b| (cancellation is exact). */
        const quad sum = qdd(a) + qdd(b), size = fabsq(qdd(a)) + fabsq(qdd(b));
        note(&add, (double)(fabsq(qdd(pe_dd_add(a, b)) - sum) / size * 0x1p106Q), a.hi);
        note(&mul, rel_bits(qdd(pe_dd_mul(a, b)), qdd(a) * qdd(b)), a.hi);
        note(&mul_d, rel_bits(qdd(pe_dd_mul_d(a, d)), qdd(a) * d), a.hi);
        note(&div_d, rel_bits(qdd(pe_dd_div_d(a, d)), qdd(a) / d), a.hi);
    }
    report("pe_dd_add, |err| / (|a| + |b|)", &add, PE_DD_ADD_BOUND, "x 2^-106");
    report("pe_dd_mul, relative", &mul, PE_DD_MUL_BOUND, "x 2^-106");
    report("pe_dd_mul_d, relative", &mul_d, PE_DD_MUL_D_BOUND, "x 2^-106");
    report("pe_dd_div_d, relative", &div_d, PE_DD_DIV_BOUND, "x 2^-106");
}

static void test_dd_log_exp(void) {
    worst lg = {0, 0}, ex = {0, 0};
    for (int n = 0; n < 100000; n++) {
        /* Bases near 1, the usual ones, and up to e^670. */
        double x = n % 3 == 0   ? 1.0 + ldexp(uniform(), -(int)(next_u64() % 52))
                   : n % 3 == 1 ? 1.0 + uniform() * 1e7
                                : exp(uniform() * 670.0);
        quad exact = logq((quad)x);
        /* Absolute error relative to max(1, |ln x|). */
        quad scale = fabsq(exact) > 1 ? fabsq(exact) : 1;
        note(&lg, (double)(fabsq(qdd(pe_log_dd(x)) - exact) / scale * 0x1p106Q), x);
        pe_dd y = pe_fast_two_sum(-uniform() * 670.0, 0.0);
        y = pe_fast_two_sum(y.hi, y.hi * (uniform() - 0.5) * 0x1p-53);
        note(&ex, rel_bits(qdd(pe_exp_dd_nonpositive(y)), expq(qdd(y))), y.hi);
    }
    report("pe_log_dd, 1 <= x <= e^670, |err|/max(1,ln x)", &lg, PE_LOG_DD_BOUND, "x 2^-106");
    report("pe_exp_dd_nonpositive, -670 <= y <= 0, rel", &ex, PE_EXP_DD_BOUND, "x 2^-106");
}

/* ---- the plan's frequencies and seeds (sinusoid/plan.h) ---- */

static void test_frequencies_and_seeds(void) {
    static const uint32_t dims[] = {2, 6, 64, 512, 4096, 65536};
    static const double bases[] = {1.0001, 2.0, 10000.0, 500000.0, 1e7};
    worst freq = {0, 0}, anchor = {0, 0}, seeded = {0, 0};
    int differs = 0;
    for (size_t di = 0; di < sizeof dims / sizeof *dims; di++) {
        for (size_t bi = 0; bi < sizeof bases / sizeof *bases; bi++) {
            pe_sinusoid enc = {dims[di], bases[bi], PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
            size_t bytes;
            pe_scratch_size(enc.dim, &bytes);
            void *mem = malloc(bytes), *mem2 = malloc(bytes);
            pe_plan *plan, *simd;
            pe_plan_init(&enc, mem, bytes, &plan);
            pe_plan_init(&enc, mem2, bytes, &simd);
            const uint32_t half = enc.dim / 2;
            /* Pairs spread over the row: the first, the last, some between. */
            uint32_t pairs[8] = {0, half - 1, half / 2, half / 3, 1 % half, (half * 7) / 8, half / 5, half / 9};
            quad wq[8];
            for (int k = 0; k < 8; k++) {
                wq[k] = expq(-(quad)pairs[k] / half * logq((quad)enc.base));
                note(&freq, rel_bits((quad)plan->w[pairs[k]] + (quad)plan->w_lo[pairs[k]], wq[k]), enc.base);
            }
            for (int n = 0; n < 300; n++) {
                /* Block starts below 2^31, half of them near the top. */
                uint32_t p0 = (uint32_t)(n % 2 ? 0x80000000u - 1 - next_u64() % 0x1000000u : next_u64() % 0x80000000u);
                p0 -= p0 % PE_BLOCK_ROWS;
                pe_use_kernels(PE_KERNELS_SCALAR);
                pe_plan_seek(plan, pe_kernel_table_current(), p0);
                if (pe_use_kernels(PE_KERNELS_SIMD) == PE_OK) {
                    pe_plan_seek(simd, pe_kernel_table_current(), p0);
                    differs += memcmp(plan->row0, simd->row0, enc.dim * sizeof(double)) != 0;
                    differs += memcmp(plan->row1, simd->row1, enc.dim * sizeof(double)) != 0;
                }
                for (int k = 0; k < 8; k++) {
                    const uint32_t i = pairs[k];
                    const quad a0 = (quad)(p0 - p0 % PE_ANCHOR_ROWS) * wq[k], a = (quad)p0 * wq[k];
                    (void)a0;
                    /* row0 holds (sin, cos)(p0 w_i), row1 those of p0 + 1, split layout. */
                    note(&seeded, (double)(fabsq((quad)plan->row0[i] - sinq(a)) * 0x1p53Q), p0);
                    note(&seeded, (double)(fabsq((quad)plan->row0[half + i] - cosq(a)) * 0x1p53Q), p0);
                    note(&seeded, (double)(fabsq((quad)plan->row1[i] - sinq(a + wq[k])) * 0x1p53Q), p0);
                    note(&seeded, (double)(fabsq((quad)plan->row1[half + i] - cosq(a + wq[k])) * 0x1p53Q), p0);
                }
                /* A fresh anchor alone. */
                plan->block_pos = UINT32_MAX;
                const uint32_t an = p0 - p0 % PE_ANCHOR_ROWS;
                pe_use_kernels(PE_KERNELS_SCALAR);
                pe_kernel_table_current()->anchor(plan, an);
                for (int k = 0; k < 8; k++) {
                    const quad a = (quad)an * wq[k];
                    note(&anchor, (double)(fabsq((quad)plan->block_sin[pairs[k]] - sinq(a)) * 0x1p53Q), an);
                    note(&anchor, (double)(fabsq((quad)plan->block_cos[pairs[k]] - cosq(a)) * 0x1p53Q), an);
                }
                plan->block_pos = UINT32_MAX;
            }
            free(mem);
            free(mem2);
        }
    }
    pe_use_kernels(PE_KERNELS_SIMD);
    report("w_i = w + w_lo (pe_encoding_frequencies_dd)", &freq, PE_FREQ_DD_BOUND, "x 2^-106");
    report("anchor: (sin, cos)(a w_i), a < 2^31", &anchor, PE_ANCHOR_BOUND, "x 2^-53");
    report("seeded rows p0, p0 + 1 < 2^31", &seeded, PE_SEED_BOUND, "x 2^-53");
    CHECK(differs == 0, "the SIMD seeds differ from the scalar ones in %d rows", differs);
}

/* ---- pe_sincos_dd (math/sincos_dd.h): the slow path's sin and cos ---- */

/* A lo part within ulp(x) / 2 with 8 bits, so that x + lo is exact in quad. */
static double small_lo(double x) {
    return ulp(x) * (double)((int)(next_u64() % 257) - 128) / 256.0;
}

static void sincos_dd_case(double x, double lo, worst *w) {
    /* lo on a grid of ulp(x) 2^-56, so that x + lo (at most 110 bits) is exact in quad. */
    const double grid = ulp(x) * 0x1p-56;
    lo = grid > 0 ? nearbyint(lo / grid) * grid : 0.0;
    const quad a = (quad)x + (quad)lo;
    pe_dd angle = pe_fast_two_sum(x, lo);
    note(w, (double)(fabsq(qdd(pe_sincos_dd(angle, 0)) - sinq(a)) * 0x1p100Q), x);
    note(w, (double)(fabsq(qdd(pe_sincos_dd(angle, 1)) - cosq(a)) * 0x1p100Q), x);
}

static void test_sincos_dd(void) {
    worst w = {0, 0};
    const quad pio4 = M_PI_4q;
    /* Multiples of pi/4 below 2^33 and their neighbours (the reduction's
     * worst case), log-uniform angles, and two-part angles as settle.c forms
     * them (p w_i with its exact error and p w_lo). */
    for (uint64_t n = 0; n < 20000; n++) {
        uint64_t k = n < 5000 ? n : n < 10000 ? 10937044000ull - (n - 5000) : next_u64() % 10937044410ull;
        double x = (double)(k * pio4);
        if (x >= 0x1p33) continue;
        for (int d = -2; d <= 2; d++) {
            double y = x;
            for (int s = 0; s < (d < 0 ? -d : d); s++) y = d < 0 ? nextafter(y, 0) : nextafter(y, INFINITY);
            if (y >= 0 && y < 0x1p33) sincos_dd_case(y, small_lo(y), &w);
        }
    }
    for (int n = 0; n < 50000; n++) {
        double x = ldexp(1.0 + uniform(), (int)(next_u64() % 81) - 48); /* below 2^33 */
        sincos_dd_case(x, small_lo(x), &w);
    }
    for (int n = 0; n < 50000; n++) {
        const uint32_t a = (uint32_t)(next_u64() >> 33);
        const quad wq = expq(-(quad)uniform() * 16.2Q);
        const double wh = (double)wq, wl = (double)(wq - (quad)wh);
        pe_dd p = pe_two_prod((double)a, wh);
        sincos_dd_case(p.hi, p.lo + (double)a * wl, &w);
    }
    report("pe_sincos_dd |error|, 0 <= x < 2^33", &w, PE_SINCOS_DD_BOUND, "x 2^-100");
}

/* ---- the fast path's bound and the frequencies' (sinusoid/plan.h, settle.h) ---- */

/* The recurrence's float64 values (whole blocks, scalar and SIMD kernels) of
 * sampled columns against sin/cos(p w_i) for the plan's own w_i = w + w_lo,
 * and each w_i's relative error against i * w_err_step (exact w_i by powq). */
static void test_fast_bound(void) {
    static const uint32_t dims[] = {2, 6, 64, 128, 1024, 65536};
    static const double bases[] = {2.0, 10000.0, 500000.0, 1e7};
    worst fast = {0, 0}, werr = {0, 0};
    for (size_t di = 0; di < sizeof dims / sizeof *dims; di++) {
        for (size_t bi = 0; bi < sizeof bases / sizeof *bases; bi++) {
            for (int t2t = 0; t2t < 2; t2t++) {
                pe_sinusoid enc = {dims[di], bases[bi], PE_LAYOUT_SPLIT, t2t ? PE_FREQ_TENSOR2TENSOR : PE_FREQ_PAPER};
                size_t bytes;
                pe_scratch_size(enc.dim, &bytes);
                void *mem = malloc(bytes);
                double *block = malloc(sizeof(double) * PE_BLOCK_ROWS * enc.dim);
                pe_plan *plan;
                pe_plan_init(&enc, mem, bytes, &plan);
                const uint32_t half = enc.dim / 2, span = t2t ? (half > 1 ? half - 1 : 1) : half;
                for (uint32_t i = 1; i < half; i += 1 + half / 97) {
                    const quad wq = powq((quad)enc.base, -(quad)i / span);
                    const double rel = (double)(fabsq((quad)plan->w[i] + (quad)plan->w_lo[i] - wq) / wq);
                    note(&werr, rel / (i * plan->w_err_step), enc.base);
                }
                for (int n = 0; n < (enc.dim > 4096 ? 4 : 40); n++) {
                    uint32_t p0 =
                        (uint32_t)(n % 2 ? 0x80000000u - 64 - next_u64() % 0x100000u : next_u64() % 0x80000000u);
                    p0 -= p0 % PE_BLOCK_ROWS;
                    if (n % 3 == 0 || pe_use_kernels(PE_KERNELS_SIMD) != PE_OK) pe_use_kernels(PE_KERNELS_SCALAR);
                    const pe_kernel_table *k = pe_kernel_table_current();
                    plan->block_pos = UINT32_MAX;
                    pe_plan_seek(plan, k, p0);
                    k->recur_f64(plan, PE_BLOCK_ROWS, block, enc.dim);
                    pe_use_kernels(PE_KERNELS_SIMD);
                    for (uint32_t j = 0; j < enc.dim; j += 1 + enc.dim / 64) {
                        const uint32_t i = j < half ? j : j - half; /* split layout */
                        const quad wi = (quad)plan->w[i] + (quad)plan->w_lo[i];
                        for (uint32_t r = 0; r < PE_BLOCK_ROWS; r++) {
                            const quad a = (quad)(p0 + r) * wi, exact = j < half ? sinq(a) : cosq(a);
                            note(&fast, (double)(fabsq((quad)block[(size_t)r * enc.dim + j] - exact) * 0x1p53Q),
                                 p0 + r);
                        }
                    }
                }
                free(block);
                free(mem);
            }
        }
    }
    report("recurrence float64 vs exact (PE_FAST_BOUND)", &fast, PE_FAST_BOUND * 0x1p53, "x 2^-53");
    report("w_i relative error / (i w_err_step)", &werr, 1.0, "");
}

typedef struct {
    const char *name;
    void (*run)(void);
} math_test;

/* The one list of tests. */
static const math_test math_tests[] = {
    {"sincos", test_sincos},
    {"log", test_log},
    {"exp", test_exp},
    {"dd exact", test_dd_exact},
    {"dd arithmetic", test_dd_arithmetic},
    {"dd log exp", test_dd_log_exp},
    {"frequencies and seeds", test_frequencies_and_seeds},
    {"sincos dd", test_sincos_dd},
    {"fast path bound", test_fast_bound},
    {NULL, NULL},
};

int main(void) {
    for (const math_test *t = math_tests; t->name; t++) t->run();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
