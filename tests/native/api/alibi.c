/* alibi.c: pe_alibi_slopes and pe_alibi_bias: refusals and values. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"
#include "tests.h"

/* The paper's get_slopes(n) for n < 32, as exponents in quarters: slope k is
 * 2^(-q[k] / 4). A power of two n starts at 2^(-8/n) with that ratio; any
 * other n takes the slopes of the largest power of two P below it, then every
 * other slope of 2P's sequence. */
static void paper_slope_quarters(uint32_t n, uint32_t *q) {
    uint32_t p = 1;
    while (p * 2 <= n) p *= 2;
    if (p == n) {
        for (uint32_t k = 0; k < n; k++) q[k] = 32 * (k + 1) / n; /* -8(k+1)/n in quarters */
        return;
    }
    uint32_t twice[64];
    paper_slope_quarters(p, q);
    paper_slope_quarters(2 * p, twice);
    for (uint32_t k = 0; k < n - p; k++) q[p + k] = twice[2 * k];
}

typedef unsigned __int128 u128;

/* v^4 < 2^e and v^4 > 2^e, for 0 < v < 2^26 (so v^4 < 2^104). */
static int fourth_power_below(uint64_t v, int e) {
    if (e >= 128) return 1;
    if (e < 0) return 0;
    const u128 v2 = (u128)v * v;
    return v2 * v2 < ((u128)1 << e);
}

static int fourth_power_above(uint64_t v, int e) {
    if (e >= 128) return 0;
    if (e < 0) return 1;
    const u128 v2 = (u128)v * v;
    return v2 * v2 > ((u128)1 << e);
}

/* 1 when f (a positive normal float) is the float nearest 2^(-q/4): the
 * midpoints to its neighbours, raised to the 4th power in integers, bracket
 * 2^-q. Exact: no logarithm, no rounding. */
static int nearest_quarter_power(float f, uint32_t q) {
    const uint32_t bits = float_bits(f), biased = bits >> 23;
    if (bits >> 31 || biased == 0 || biased == 255) return 0;
    const uint64_t m = (bits & 0x7FFFFFu) | 0x800000u; /* f = m 2^(biased - 150) */
    /* Upper midpoint (2m + 1) 2^-s; the lower one has half the spacing when f
     * is a power of two. */
    const int s = 151 - (int)biased;
    const int lower_finer = (bits & 0x7FFFFFu) == 0;
    const uint64_t lo = lower_finer ? 4 * m - 1 : 2 * m - 1, hi = 2 * m + 1;
    const int s_lo = lower_finer ? s + 1 : s;
    /* (v 2^-s)^4 < 2^-q  <=>  v^4 < 2^(4s - q) */
    return fourth_power_below(lo, 4 * s_lo - (int)q) && fourth_power_above(hi, 4 * s - (int)q);
}

void test_alibi_slopes_refusals(void) {
    buffer out = buffer_new(12);
    float *o = out.data;
    REFUSED(&out, pe_alibi_slopes(0, o, 0), PE_ERR_HEADS, "slopes heads 0");
    REFUSED(&out, pe_alibi_slopes(PE_MAX_HEADS + 1, o, PE_MAX_HEADS + 1), PE_ERR_HEADS, "slopes heads 65537");
    REFUSED(&out, pe_alibi_slopes(0xFFFFFFFFu, o, 0xFFFFFFFFu), PE_ERR_HEADS, "slopes heads 2^32-1");
    REFUSED(&out, pe_alibi_slopes(12, o, 11), PE_ERR_OUT_SIZE, "slopes out_count 11");
    REFUSED(&out, pe_alibi_slopes(12, o, 13), PE_ERR_OUT_SIZE, "slopes out_count 13");
    REFUSED(&out, pe_alibi_slopes(12, o, 0), PE_ERR_OUT_SIZE, "slopes out_count 0");
    REFUSED(&out, pe_alibi_slopes(12, NULL, 12), PE_ERR_NULL, "slopes NULL out");
    buffer_free(&out);
}

void test_alibi_slopes_values(void) {
    /* 8 heads: exactly 1/2, 1/4, ..., 1/256. */
    buffer eight = buffer_new(8);
    EXPECT_STATUS(pe_alibi_slopes(8, eight.data, 8), PE_OK, "slopes 8 heads");
    float want = 1.0f;
    for (int h = 0; h < 8; h++) {
        want *= 0.5f;
        CHECK(eight.data[h] == want, "8 heads: slope %d is %a, want %a", h, eight.data[h], want);
    }
    CHECK(guards_intact(&eight), "a guard changed");
    buffer_free(&eight);

    /* 12 heads: 2^-1 .. 2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (the
     * paper's get_slopes(12)). */
    const uint32_t quarters_12[12] = {4, 8, 12, 16, 20, 24, 28, 32, 2, 6, 10, 14};
    buffer twelve = buffer_new(12);
    EXPECT_STATUS(pe_alibi_slopes(12, twelve.data, 12), PE_OK, "slopes 12 heads");
    for (int h = 0; h < 12; h++)
        CHECK(nearest_quarter_power(twelve.data[h], quarters_12[h]),
              "12 heads: slope %d is %a, want the float nearest 2^-%g", h, twelve.data[h], quarters_12[h] / 4.0);
    CHECK(twelve.data[8] == 0x1.6a09e6p-1f, "12 heads: slope 8 is %a, want float(sqrt(1/2)) 0x1.6a09e6p-1",
          twelve.data[8]);
    CHECK(guards_intact(&twelve), "a guard changed");
    buffer_free(&twelve);

    /* Every head count below 32, against a port of get_slopes. */
    size_t wrong = 0;
    for (uint32_t n = 1; n < 32; n++) {
        uint32_t q[32];
        paper_slope_quarters(n, q);
        buffer out = buffer_new(n);
        EXPECT_STATUS(pe_alibi_slopes(n, out.data, n), PE_OK, "slopes %u heads", n);
        for (uint32_t h = 0; h < n; h++) {
            if (!nearest_quarter_power(out.data[h], q[h])) {
                if (!wrong) fprintf(stderr, "heads %u slope %u: %a, want 2^-%g\n", n, h, out.data[h], q[h] / 4.0);
                wrong++;
            }
        }
        CHECK(guards_intact(&out), "a guard changed (%u heads)", n);
        buffer_free(&out);
    }
    CHECK(wrong == 0, "%zu slopes of 1..31 heads differ from get_slopes", wrong);

    /* The largest head count: one geometric sequence from 2^(-1/8192) down to 2^-8. */
    buffer all = buffer_new(PE_MAX_HEADS);
    EXPECT_STATUS(pe_alibi_slopes(PE_MAX_HEADS, all.data, PE_MAX_HEADS), PE_OK, "slopes PE_MAX_HEADS");
    size_t not_falling = 0;
    for (uint32_t h = 1; h < PE_MAX_HEADS; h++) not_falling += !(all.data[h] < all.data[h - 1]);
    CHECK(not_falling == 0, "%zu of 65536 slopes do not fall", not_falling);
    CHECK(all.data[8191] == 0.5f && all.data[PE_MAX_HEADS - 1] == 0x1p-8f,
          "65536 heads: slopes 8191 and 65535 are %a and %a", all.data[8191], all.data[PE_MAX_HEADS - 1]);
    CHECK(guards_intact(&all), "a guard changed");
    buffer_free(&all);
}

void test_alibi_bias_refusals(void) {
    const pe_alibi good_alibi = {12, 4, 7, 3, 1};
    buffer out = buffer_new(4 * 4 * 7);
    float *o = out.data;
    const size_t n = out.count;
    const uint32_t max = PE_MAX_POSITION;
    pe_alibi a;

    REFUSED(&out, pe_alibi_bias(NULL, 6, 4, o, n), PE_ERR_NULL, "bias NULL alibi");
    a = good_alibi, a.heads = 0;
    REFUSED(&out, pe_alibi_bias(&a, 0, 0, o, 0), PE_ERR_HEADS, "bias heads 0");
    a = good_alibi, a.heads = PE_MAX_HEADS + 1;
    REFUSED(&out, pe_alibi_bias(&a, 6, 4, o, n), PE_ERR_HEADS, "bias heads 65537");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 9, 4, o, n), PE_ERR_HEADS, "bias heads 9..12 of 12");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 0, 13, o, 13 * 28), PE_ERR_HEADS, "bias 13 heads of 12");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 0xFFFFFFFFu, 2, o, 2 * 28), PE_ERR_HEADS, "bias head range wraps uint32");
    a = good_alibi, a.key_length = max + 1;
    REFUSED(&out, pe_alibi_bias(&a, 6, 4, o, n), PE_ERR_POSITION, "bias key_length 2^31+1");
    a = good_alibi, a.query_offset = max - 3;
    REFUSED(&out, pe_alibi_bias(&a, 6, 4, o, n), PE_ERR_POSITION, "bias query_offset+query_length 2^31+1");
    a = good_alibi, a.query_offset = 0xFFFFFFFFu;
    REFUSED(&out, pe_alibi_bias(&a, 6, 4, o, n), PE_ERR_POSITION, "bias query_offset+query_length wraps uint32");
    a = good_alibi, a.query_length = max, a.key_length = max, a.query_offset = 0;
    REFUSED(&out, pe_alibi_bias(&a, 0, 4, o, n), PE_ERR_TOO_LARGE, "bias 4 x 2^31 x 2^31 overflows size_t");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 6, 4, o, n - 1), PE_ERR_OUT_SIZE, "bias out_count - 1");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 6, 4, o, n + 1), PE_ERR_OUT_SIZE, "bias out_count + 1");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 6, 4, o, 0), PE_ERR_OUT_SIZE, "bias out_count 0");
    REFUSED(&out, pe_alibi_bias(&good_alibi, 6, 4, NULL, n), PE_ERR_NULL, "bias NULL out");

    /* Edges that must work: nothing to write, and keys reaching 2^31. */
    a = good_alibi, a.query_length = 0, a.key_length = max;
    EXPECT_STATUS(pe_alibi_bias(&a, 0, 12, NULL, 0), PE_OK, "bias no queries, 2^31 keys, NULL out");
    EXPECT_STATUS(pe_alibi_bias(&good_alibi, 12, 0, NULL, 0), PE_OK, "bias no heads at the end");
    CHECK(buffer_untouched(&out), "out written by an empty call");
    buffer_free(&out);
}

/* bias[h, i, j] per the header, from the slopes pe_alibi_slopes gives (checked
 * above): -(m |q - j|) is exact in long double (24 + 32 bits), and the cast
 * rounds it once to the nearest float; +0 on the diagonal, -inf for future
 * keys when causal. */
static size_t alibi_mismatches(const pe_alibi *a, uint32_t first_head, uint32_t head_count, const float *out) {
    float slopes[64];
    if (a->heads > 64 || pe_alibi_slopes(a->heads, slopes, a->heads) != PE_OK) return SIZE_MAX;
    size_t wrong = 0, k = 0;
    for (uint32_t h = 0; h < head_count; h++) {
        const long double m = slopes[first_head + h];
        for (uint32_t i = 0; i < a->query_length; i++) {
            const uint64_t q = (uint64_t)a->query_offset + i;
            for (uint32_t j = 0; j < a->key_length; j++, k++) {
                const uint64_t distance = q >= j ? q - j : j - q;
                const float want = a->causal && j > q ? -INFINITY : distance == 0 ? 0.0f : (float)(-(m * distance));
                if (float_bits(out[k]) != float_bits(want)) {
                    if (!wrong)
                        fprintf(stderr, "bias head %u query %u key %u: %a, want %a\n", first_head + h, i, j, out[k],
                                want);
                    wrong++;
                }
            }
        }
    }
    return wrong;
}

void test_alibi_bias_values(void) {
    const struct {
        pe_alibi a;
        uint32_t first, count;
        const char *what;
    } cases[] = {
        {{12, 4, 7, 3, 0}, 6, 4, "12 heads, heads 6..9, last query on the last key"},
        {{12, 4, 7, 3, 1}, 6, 4, "12 heads, causal"},
        {{12, 5, 3, 0, 1}, 0, 12, "more queries than keys, causal"},
        {{8, 3, 9, 2, 0}, 0, 8, "8 heads, queries in the middle, bidirectional"},
        {{1, 6, 6, 0, 1}, 0, 1, "one head, square causal"},
        /* Rows copied in blocks of 1, 2, 4, 8, then 16 rows (rows of 64 keys or more). */
        {{3, 6, 64, 0, 0}, 0, 3, "6 rows of 64 keys, bidirectional: a partial block of 4"},
        {{4, 35, 67, 2, 1}, 1, 3, "35 rows of 67 keys, causal, heads 1..3"},
        {{2, 40, 64, 9, 0}, 0, 2, "40 rows of 64 keys, bidirectional"},
        {{1, 90, 70, 0, 1}, 0, 1, "90 rows of 70 keys, causal: the last 20 rows unmasked"},
        /* Distances near 2^31: m 2^-k times 31-bit distances rounds to float. */
        {{8, 2, 3, PE_MAX_POSITION - 2, 0}, 0, 8, "queries at 2^31-2 and 2^31-1"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const pe_alibi *a = &cases[c].a;
        const size_t count = (size_t)cases[c].count * a->query_length * a->key_length;
        buffer simd = buffer_new(count), scalar = buffer_new(count);
        EXPECT_STATUS(pe_alibi_bias(a, cases[c].first, cases[c].count, simd.data, count), PE_OK, "bias %s",
                      cases[c].what);
        CHECK(alibi_mismatches(a, cases[c].first, cases[c].count, simd.data) == 0, "bias %s: values differ",
              cases[c].what);
        use_kernels(PE_KERNELS_SCALAR);
        EXPECT_STATUS(pe_alibi_bias(a, cases[c].first, cases[c].count, scalar.data, count), PE_OK, "scalar bias %s",
                      cases[c].what);
        use_kernels(PE_KERNELS_SIMD);
        CHECK(!memcmp(simd.data, scalar.data, count * sizeof(float)), "bias %s: scalar and SIMD kernels differ",
              cases[c].what);
        CHECK(guards_intact(&simd) && guards_intact(&scalar), "a guard changed (%s)", cases[c].what);
        buffer_free(&simd);
        buffer_free(&scalar);
    }
}
