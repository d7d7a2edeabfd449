/* The 16-bit RoPE kernels' conversions against an oracle of their own: every
 * float16 and bfloat16 pattern widened (through a rotation by C = 1, S = +0,
 * which keeps every finite value), and float32 results narrowed against the
 * correctly rounded value found by binary search over the format's ordered
 * patterns in double (no bit tricks): ties to even, the midpoint past the
 * largest finite value and above to infinity, subnormals, NaN stays NaN. Both
 * kernel sets (scalar and SIMD), both layouts, rotary_dim 40 (SIMD steps and
 * scalar tails), every value in a slot of every lane position. */
#include <math.h>

#include "../api_check.h"
#include "common/kernel_table.h"
#include "sinusoid/rope/rope_kernels.h"
#include "tests.h"

#define R 40u /* rotary_dim: 20 pairs (halves: 16 by SIMD, 4 in the tail; adjacent: 32 + 8) */

typedef struct {
    int f16;
    unsigned fraction, bias;
    uint16_t inf; /* the infinity pattern, one past the largest finite */
} format;

static const format F16 = {1, 10, 15, 0x7c00}, BF16 = {0, 7, 127, 0x7f80};

/* The value of a non-negative pattern p <= inf (inf: 2^(bias + 1), the
 * neighbour that places the overflow midpoint). */
static double value_of(const format *f, uint32_t p) {
    if (p == f->inf) return ldexp(1.0, (int)f->bias + 1);
    const uint32_t e = p >> f->fraction, m = p & ((1u << f->fraction) - 1);
    if (e == 0) return ldexp((double)m, 1 - (int)f->bias - (int)f->fraction);
    return ldexp((double)((1u << f->fraction) + m), (int)e - (int)f->bias - (int)f->fraction);
}

static int is_nan16(const format *f, uint16_t h) {
    return (h & 0x7fffu) > f->inf;
}

/* The correctly rounded pattern of x (x not NaN). */
static uint16_t nearest(const format *f, double x) {
    const uint16_t sign = signbit(x) ? 0x8000 : 0;
    const double a = fabs(x);
    uint32_t lo = 0, hi = f->inf; /* value(lo) <= a < value(hi), or a >= value(inf) */
    if (a >= value_of(f, f->inf)) return sign | f->inf;
    while (hi - lo > 1) {
        const uint32_t mid = (lo + hi) / 2;
        if (value_of(f, mid) <= a)
            lo = mid;
        else
            hi = mid;
    }
    const double below = a - value_of(f, lo), above = value_of(f, hi) - a;
    const uint32_t p = below < above ? lo : above < below ? hi : (lo % 2 == 0 ? lo : hi);
    return (uint16_t)(sign | p);
}

static float widened(const format *f, uint16_t h) {
    const uint32_t a = h & 0x7fffu;
    const double v = a > f->inf ? NAN : a == f->inf ? INFINITY : value_of(f, a);
    return (float)(h & 0x8000 ? -v : v);
}

/* x (count vectors of R) rotated by one row of C, S each with each kernel
 * set; the expected bits from the oracle: out_j = x_j C_j + x_partner S_j
 * (halves' x2: x2 C - x1 S, rope_kernels.h), each product and sum in float32.
 * shared: the rows are all equal and the kernels are handed the first alone
 * (cs_stride 0, as for the heads of one position). */
static void check_rotation(const format *f, pe_layout layout, const uint16_t *x, size_t count, const float *cs,
                           int shared, const char *what) {
    const size_t n = count * R;
    uint16_t *want = malloc(n * 2), *got = malloc(n * 2);
    for (size_t k = 0; k < count; k++) {
        const float *c = cs + k * 2 * R, *s = c + pe_rope_cs_floats(R, layout);
        for (uint32_t j = 0; j < R; j++) {
            const int split = layout == PE_LAYOUT_SPLIT, first = split ? j < R / 2 : j % 2 == 0;
            const uint32_t partner = split ? (first ? j + R / 2 : j - R / 2) : j ^ 1u;
            const uint32_t i = split && !first ? j - R / 2 : j; /* halves read C and S's first half */
            const float a = widened(f, x[k * R + j]), b = widened(f, x[k * R + partner]);
            const float y = split && !first ? a * c[i] - b * s[i] : a * c[i] + b * s[i];
            want[k * R + j] = isnan(y) ? 0x7fff : nearest(f, (double)y);
        }
    }
    for (int kernels = 0; kernels < 2; kernels++) {
        EXPECT_STATUS(pe_use_kernels((pe_kernels)kernels), PE_OK, "kernels %d", kernels);
        memcpy(got, x, n * 2);
        pe_kernel_table_current()->rope_rotate16(got, count, R, cs, shared ? 0 : 2 * R, R, layout, f->f16);
        size_t bad = 0, first_bad = 0;
        for (size_t k = 0; k < n; k++) {
            const int ok = want[k] == 0x7fff ? is_nan16(f, got[k]) : got[k] == want[k];
            if (!ok && bad++ == 0) first_bad = k;
        }
        CHECK(bad == 0, "%s, %s, %s kernels: %zu of %zu wrong, first at %zu: x %04x partner slot, got %04x want %04x",
              f->f16 ? "float16" : "bfloat16", what, kernels ? "SIMD" : "scalar", bad, n, first_bad, x[first_bad],
              got[first_bad], want[first_bad]);
    }
    EXPECT_STATUS(pe_use_kernels(PE_KERNELS_SIMD), PE_OK, "back to SIMD");
    free(want);
    free(got);
}

/* cs rows, 2R floats apart: row k's C and S in the layout (rope_kernels.h:
 * halves pair i's once, adjacent pairs C on both elements, S and -S). */
static void set_row(float *cs, size_t k, pe_layout layout, uint32_t i, float cv, float sv) {
    float *c = cs + k * 2 * R, *s = c + pe_rope_cs_floats(R, layout);
    if (layout == PE_LAYOUT_SPLIT) {
        c[i] = cv;
        s[i] = sv;
        return;
    }
    c[2 * i] = c[2 * i + 1] = cv;
    s[2 * i] = sv;
    s[2 * i + 1] = -sv;
}

/* fill(f, layout, x, cs, count, ctx) sets count vectors of x and their C, S
 * rows; the rotation is then checked for both formats and both layouts. */
typedef void (*case_fill)(const format *f, pe_layout layout, uint16_t *x, float *cs, size_t count, const void *ctx);

static void check_cases(size_t count, case_fill fill, const void *ctx, int shared, const char *what) {
    uint16_t *x = malloc(count * R * 2);
    float *cs = malloc(count * 2 * R * sizeof(float));
    char label[96];
    for (int fi = 0; fi < 2; fi++) {
        const format *f = fi ? &BF16 : &F16;
        for (int l = 0; l < 2; l++) {
            const pe_layout layout = l ? PE_LAYOUT_SPLIT : PE_LAYOUT_INTERLEAVED;
            fill(f, layout, x, cs, count, ctx);
            snprintf(label, sizeof label, "%s, %s", l ? "halves" : "adjacent", what);
            check_rotation(f, layout, x, count, cs, shared, label);
        }
    }
    free(x);
    free(cs);
}

/* Every pattern in the first slot of a pair, 1.0 as partner; C = 1, S = +0 keeps it. */
static void every_pattern(const format *f, pe_layout layout, uint16_t *x, float *cs, size_t count, const void *ctx) {
    (void)ctx;
    for (size_t k = 0; k < count * R; k++) x[k] = f->f16 ? 0x3c00 : 0x3f80;
    size_t pattern = 0;
    for (size_t k = 0; k < count; k++)
        for (uint32_t i = 0; i < R / 2; i++) {
            set_row(cs, k, layout, i, 1.0f, 0.0f);
            x[k * R + (layout == PE_LAYOUT_SPLIT ? i : 2 * i)] = (uint16_t)(pattern++ & 0xffff);
        }
}

void test_rope16_every_pattern(void) {
    check_cases(65536 / (R / 2) * 2 + 2, every_pattern, NULL, 0, "every pattern");
}

/* x1 = x2 = 1, S = +0: x1' = x2' = C exactly (sixteen lanes in float16's
 * normal range take the fast form), C = the chosen values. */
static void chosen_values(const format *f, pe_layout layout, uint16_t *x, float *cs, size_t count, const void *ctx) {
    const float *values = ctx;
    for (size_t k = 0; k < count * R; k++) x[k] = f->f16 ? 0x3c00 : 0x3f80;
    for (size_t k = 0; k < count; k++)
        for (uint32_t i = 0; i < R / 2; i++) set_row(cs, k, layout, i, values[k * (R / 2) + i], 0.0f);
}

/* float32 results narrowed: C runs over every exponent with mantissas at,
 * beside and between the ties, float32's subnormals, the overflow
 * midpoints, infinities and NaN, then random bit patterns. */
void test_rope16_narrow_rounding(void) {
    static const uint32_t mantissas[] = {0,        1,        0xfff,    0x1000,   0x1001,   0x2000,   0x3000,
                                         0x17fff,  0x18000,  0x18001,  0x7fffff, 0x7ff000, 0x7fe000, 0x400000,
                                         0x7f8000, 0x3fffff, 0x5fe001, 0x00ffff, 0x008000, 0x010000, 0x7fffe0};
    const size_t per = 256 * (sizeof mantissas / sizeof *mantissas) * 2 + 64;
    const size_t count = (per + R / 2 - 1) / (R / 2);
    float *values = malloc(count * (R / 2) * sizeof(float));
    size_t n = 0;
    for (uint32_t e = 0; e < 256; e++)
        for (size_t m = 0; m < sizeof mantissas / sizeof *mantissas; m++)
            for (uint32_t sign = 0; sign < 2; sign++) {
                const uint32_t u = sign << 31 | e << 23 | mantissas[m];
                memcpy(&values[n++], &u, 4);
            }
    uint32_t seed = 0x2545f491u;
    while (n < count * (R / 2)) {
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        memcpy(&values[n++], &seed, 4);
    }
    check_cases(count, chosen_values, values, 0, "narrowing");
    free(values);
}

/* Every pattern as x1 and as x2 (against a second order of the patterns),
 * all vectors turned by one shared row: ctx holds R/2 (C, S) pairs. The SIMD
 * kernel then splits C and S once and widens float16 without its 2^112
 * (carried by C and S instead: a C or S of 2^16 or more becomes infinite
 * there, and its steps fall back to the scalar kernel). */
static void shared_row(const format *f, pe_layout layout, uint16_t *x, float *cs, size_t count, const void *ctx) {
    const float *pairs = ctx;
    for (size_t k = 0; k < count; k++)
        for (uint32_t i = 0; i < R / 2; i++) {
            const size_t p = k * (R / 2) + i;
            const uint32_t j1 = layout == PE_LAYOUT_SPLIT ? i : 2 * i,
                           j2 = layout == PE_LAYOUT_SPLIT ? i + R / 2 : 2 * i + 1;
            x[k * R + j1] = (uint16_t)p;
            x[k * R + j2] = (uint16_t)(p * 40503u + (f->f16 ? 0x3c00u : 0x3f80u));
            set_row(cs, k, layout, i, pairs[2 * i], pairs[2 * i + 1]);
        }
}

void test_rope16_shared_rows(void) {
    /* cos, sin of assorted angles (an attention factor on some), tiny and
     * huge ones, zeros; the second set has C and S too large to scale. */
    static const float usual[R] = {
        1.0f,        0.0f,        0.8f,         0.6f,        -0.28f, 0.96f,       0.70710677f, -0.70710677f,
        1e-3f,       -0.9999995f, 3.5f,         -2.25f,      0.0f,   -1.0f,       1.2e-38f,    1.0f,
        -6.1e-5f,    0.33333334f, 1234.5f,      0.5f,        0.1f,   0.99498744f, 65535.0f,    -1e-20f,
        0.54030231f, 0.84147098f, -0.41614684f, 0.90929743f, 2.0f,   -0.5f,       1e-7f,       -1e-7f,
        0.25f,       0.25f,       -0.6f,        -0.8f,       0.96f,  0.28f,       -1.0f,       0.0f};
    float huge[R];
    for (uint32_t j = 0; j < R; j++) huge[j] = usual[j];
    huge[5] = 65536.0f;
    huge[30] = NAN;
    const size_t count = 65536 / (R / 2) + 1;
    check_cases(count, shared_row, usual, 1, "shared row");
    check_cases(count, shared_row, usual, 0, "the same rows, each its own");
    check_cases(count, shared_row, huge, 1, "shared row, C or S >= 2^16 or NaN");
}

/* Rows that are no rotation: adjacent pairs whose odd S is the even one's S,
 * not its negative (C = 0.8, S = 0.6 on both), every pattern as x1 and
 * -40000 as x2. The float16 kernel's loop that leaves x untested takes only
 * rotations: here an infinity in x1 would come out of it finite (0.8 * 65536
 * - 0.6 * 40000 < 32768). Halves turn each pair by one C, S whatever the rows. */
static void skewed_row(const format *f, pe_layout layout, uint16_t *x, float *cs, size_t count, const void *ctx) {
    (void)ctx;
    for (size_t k = 0; k < count; k++)
        for (uint32_t i = 0; i < R / 2; i++) {
            const uint32_t j1 = layout == PE_LAYOUT_SPLIT ? i : 2 * i,
                           j2 = layout == PE_LAYOUT_SPLIT ? i + R / 2 : 2 * i + 1;
            x[k * R + j1] = (uint16_t)(k * (R / 2) + i);
            x[k * R + j2] = f->f16 ? 0xf8e2 : 0xc71c; /* -40000 (bfloat16: -39936) */
            set_row(cs, k, layout, i, 0.8f, 0.6f);
            if (layout != PE_LAYOUT_SPLIT) cs[k * 2 * R + R + j2] = 0.6f; /* set_row's -S undone */
        }
}

void test_rope16_skewed_rows(void) {
    check_cases(65536 / (R / 2) + 1, skewed_row, NULL, 1, "rows that are no rotation");
}

/* An infinity or NaN in one pair of a vector whose other pairs are ordinary
 * (1 and 0.5), all turned by one shared row at one angle, a multiple of 5
 * degrees: true rotations whose other results are float16 normals, so the
 * float16 kernel's fast step takes the step. That step leaves x untested
 * and relies on its results' bound: an infinity widens there as some |v| in
 * [65536, 131072), and at 45 degrees beside a partner of 1 both its results
 * land near 46341, inside [32768, 65536); a bound of 65536 would pass them
 * on as finite values. ctx: the angle in steps of 5 degrees. Vector k holds
 * the special in pair k % (R/2), with combination k / (R/2) of 4 specials,
 * 4 partners and which slot. */
static void specials_turned(const format *f, pe_layout layout, uint16_t *x, float *cs, size_t count, const void *ctx) {
    static const double partners[] = {1.0, 0.5, -1.0, 1000.0};
    const uint16_t specials[] = {f->inf, (uint16_t)(f->inf | 0x8000), (uint16_t)(f->f16 ? 0x7e00 : 0x7fc0),
                                 (uint16_t)(f->inf + 1)};
    const double turn = (double)*(const unsigned *)ctx * 5.0 * 3.14159265358979323846 / 180.0;
    const uint16_t one = nearest(f, 1.0), half = nearest(f, 0.5);
    for (size_t k = 0; k < count; k++) {
        const size_t combo = k / (R / 2) % 32;
        const uint16_t special = specials[combo % 4], partner = nearest(f, partners[combo / 4 % 4]);
        for (uint32_t i = 0; i < R / 2; i++) {
            const uint32_t j1 = layout == PE_LAYOUT_SPLIT ? i : 2 * i,
                           j2 = layout == PE_LAYOUT_SPLIT ? i + R / 2 : 2 * i + 1;
            const int here = i == k % (R / 2), special_first = combo < 16;
            x[k * R + j1] = !here ? one : special_first ? special : partner;
            x[k * R + j2] = !here ? half : special_first ? partner : special;
            set_row(cs, k, layout, i, (float)cos(turn), (float)sin(turn));
        }
    }
}

void test_rope16_specials_turned(void) {
    for (unsigned angle = 0; angle < 72; angle++)
        check_cases(32 * (R / 2), specials_turned, &angle, 1, "an infinity or NaN turned by a shared row");
}
