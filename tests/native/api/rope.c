/* rope.c: RoPE (pe_rope_scratch_size, pe_rope_frequencies, pe_rope): refusals, values, scratch. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"
#include "tests.h"

static pe_rotary good_rope(void) {
    pe_rotary r;
    memset(&r, 0, sizeof r);
    r.head_dim = 10;
    r.rotary_dim = 8;
    r.heads = 3;
    r.base = 10000.0;
    r.layout = PE_LAYOUT_INTERLEAVED;
    r.order = PE_ROPE_BLHD;
    return r;
}

typedef struct {
    pe_rotary rope;
    pe_status want;
    const char *what;
} bad_rope;

/* Rotary settings each wrong in one way, with the status the header names. */
static size_t make_bad_ropes(bad_rope *list) {
    size_t n = 0;
#define BAD(want_, what_, change)                \
    do {                                         \
        pe_rotary r = good_rope();               \
        change;                                  \
        list[n++] = (bad_rope){r, want_, what_}; \
    } while (0)
    BAD(PE_ERR_DIM_RANGE, "head_dim 0", (r.head_dim = 0, r.rotary_dim = 0));
    BAD(PE_ERR_DIM_RANGE, "head_dim 65537", r.head_dim = PE_MAX_DIM + 1);
    BAD(PE_ERR_ROTARY_DIM, "rotary_dim 7", r.rotary_dim = 7);
    BAD(PE_ERR_ROTARY_DIM, "rotary_dim 12 > head_dim 10", r.rotary_dim = 12);
    BAD(PE_ERR_ROTARY_DIM, "rotary_dim 0 with head_dim 9", (r.head_dim = 9, r.rotary_dim = 0));
    BAD(PE_ERR_HEADS, "heads 0", r.heads = 0);
    BAD(PE_ERR_HEADS, "heads 65537", r.heads = PE_MAX_HEADS + 1);
    BAD(PE_ERR_BASE, "base NaN", r.base = NAN);
    BAD(PE_ERR_BASE, "base +inf", r.base = INFINITY);
    BAD(PE_ERR_BASE, "base 1", r.base = 1.0);
    BAD(PE_ERR_BASE, "base -10000", r.base = -10000.0);
    BAD(PE_ERR_LAYOUT, "layout 2", r.layout = (pe_layout)2);
    BAD(PE_ERR_ORDER, "order 2", r.order = (pe_rope_order)2);
    BAD(PE_ERR_ORDER, "order 0xFFFFFFFF", r.order = (pe_rope_order)0xFFFFFFFFu);
    BAD(PE_ERR_SCALING, "scaling type 5", (r.scaling.type = (pe_rope_scaling_type)5, r.scaling.factor = 2.0));
    BAD(PE_ERR_SCALING, "linear factor 0.5", (r.scaling.type = PE_ROPE_SCALING_LINEAR, r.scaling.factor = 0.5));
    BAD(PE_ERR_SCALING, "linear factor 0 (left out)", r.scaling.type = PE_ROPE_SCALING_LINEAR);
    BAD(PE_ERR_SCALING, "linear factor NaN", (r.scaling.type = PE_ROPE_SCALING_LINEAR, r.scaling.factor = NAN));
    BAD(PE_ERR_SCALING, "linear factor +inf", (r.scaling.type = PE_ROPE_SCALING_LINEAR, r.scaling.factor = INFINITY));
    BAD(PE_ERR_SCALING, "dynamic L0 0", (r.scaling.type = PE_ROPE_SCALING_DYNAMIC, r.scaling.factor = 2.0));
    BAD(PE_ERR_SCALING, "dynamic rotary_dim 2",
        (r.rotary_dim = 2, r.scaling.type = PE_ROPE_SCALING_DYNAMIC, r.scaling.factor = 2.0,
         r.scaling.original_max_position_embeddings = 64));
#define YARN(change)                                                                                                 \
    (r.scaling.type = PE_ROPE_SCALING_YARN, r.scaling.factor = 4.0, r.scaling.original_max_position_embeddings = 64, \
     change)
    BAD(PE_ERR_SCALING, "yarn factor 0.99", YARN(r.scaling.factor = 0.99));
    BAD(PE_ERR_SCALING, "yarn L0 0", YARN(r.scaling.original_max_position_embeddings = 0));
    BAD(PE_ERR_SCALING, "yarn beta_fast -1", YARN(r.scaling.beta_fast = -1.0));
    BAD(PE_ERR_SCALING, "yarn beta_fast NaN", YARN(r.scaling.beta_fast = NAN));
    BAD(PE_ERR_SCALING, "yarn beta_slow +inf", YARN(r.scaling.beta_slow = INFINITY));
    BAD(PE_ERR_SCALING, "yarn attention_factor -1", YARN(r.scaling.attention_factor = -1.0));
    BAD(PE_ERR_SCALING, "yarn attention_factor NaN", YARN(r.scaling.attention_factor = NAN));
    BAD(PE_ERR_SCALING, "yarn attention_factor +inf", YARN(r.scaling.attention_factor = INFINITY));
    BAD(PE_ERR_SCALING, "yarn mscale +inf", YARN((r.scaling.mscale = INFINITY, r.scaling.mscale_all_dim = 1.0)));
    BAD(PE_ERR_SCALING, "yarn mscale_all_dim NaN", YARN((r.scaling.mscale = 1.0, r.scaling.mscale_all_dim = NAN)));
#undef YARN
#define LLAMA3(change)                                                                                                 \
    (r.scaling.type = PE_ROPE_SCALING_LLAMA3, r.scaling.factor = 8.0, r.scaling.original_max_position_embeddings = 64, \
     r.scaling.low_freq_factor = 1.0, r.scaling.high_freq_factor = 4.0, change)
    BAD(PE_ERR_SCALING, "llama3 L0 0", LLAMA3(r.scaling.original_max_position_embeddings = 0));
    BAD(PE_ERR_SCALING, "llama3 factor 0", LLAMA3(r.scaling.factor = 0.0));
    BAD(PE_ERR_SCALING, "llama3 low_freq_factor 0", LLAMA3(r.scaling.low_freq_factor = 0.0));
    BAD(PE_ERR_SCALING, "llama3 low_freq_factor NaN", LLAMA3(r.scaling.low_freq_factor = NAN));
    /* high_freq_factor = low is Llama 4's (no middle band): taken, tested in config-layers.test.js. */
    BAD(PE_ERR_SCALING, "llama3 high_freq_factor < low", LLAMA3(r.scaling.high_freq_factor = 0.5));
    BAD(PE_ERR_SCALING, "llama3 high_freq_factor +inf", LLAMA3(r.scaling.high_freq_factor = INFINITY));
#undef LLAMA3
#undef BAD
    return n;
}

enum { MAX_BAD_ROPES = 64 };

static size_t rope_scratch(const pe_rotary *rope) {
    size_t need = 0;
    pe_status st = pe_rope_scratch_size(rope, &need);
    if (st != PE_OK) {
        fprintf(stderr, "pe_rope_scratch_size: %s\n", pe_status_str(st));
        exit(2);
    }
    return need;
}

void test_rope_scratch_size(void) {
    bad_rope bad[MAX_BAD_ROPES];
    const size_t n_bad = make_bad_ropes(bad);
    const pe_rotary good = good_rope();
    size_t bytes_out = 12345;
    EXPECT_STATUS(pe_rope_scratch_size(NULL, &bytes_out), PE_ERR_NULL, "rope scratch NULL rope");
    EXPECT_STATUS(pe_rope_scratch_size(&good, NULL), PE_ERR_NULL, "rope scratch NULL bytes");
    for (size_t k = 0; k < n_bad; k++)
        EXPECT_STATUS(pe_rope_scratch_size(&bad[k].rope, &bytes_out), bad[k].want, "rope scratch %s", bad[k].what);
    CHECK(bytes_out == 12345, "a refused pe_rope_scratch_size wrote %zu", bytes_out);
    EXPECT_STATUS(pe_rope_scratch_size(&good, &bytes_out), PE_OK, "rope scratch");
    CHECK(bytes_out > 0 && bytes_out != 12345, "rope scratch is %zu bytes", bytes_out);

    /* The size depends on rotary_dim only. */
    pe_rotary other = good;
    other.head_dim = 64, other.heads = 7, other.layout = PE_LAYOUT_SPLIT, other.base = 500000.0;
    size_t other_bytes = 0;
    EXPECT_STATUS(pe_rope_scratch_size(&other, &other_bytes), PE_OK, "rope scratch, other head_dim");
    CHECK(other_bytes == bytes_out, "scratch %zu for head_dim 64, %zu for head_dim 10, rotary_dim 8 both", other_bytes,
          bytes_out);
    other.rotary_dim = 0; /* = head_dim 64 */
    EXPECT_STATUS(pe_rope_scratch_size(&other, &other_bytes), PE_OK, "rope scratch, rotary_dim 64");
    CHECK(other_bytes > bytes_out, "scratch for rotary_dim 64 (%zu) is not above rotary_dim 8's (%zu)", other_bytes,
          bytes_out);
}

void test_rope_frequencies_refusals(void) {
    bad_rope bad[MAX_BAD_ROPES];
    const size_t n_bad = make_bad_ropes(bad);
    const pe_rotary good = good_rope();
    bytes w = bytes_new(4 * sizeof(double));
    double *wp = (double *)(void *)w.data;
    const double unset = -12345.0;
    double factor = unset;

    REFUSED(&w, pe_rope_frequencies(NULL, wp, 4, &factor), PE_ERR_NULL, "frequencies NULL rope");
    for (size_t k = 0; k < n_bad; k++)
        REFUSED(&w, pe_rope_frequencies(&bad[k].rope, wp, 4, &factor), bad[k].want, "frequencies %s", bad[k].what);
    REFUSED(&w, pe_rope_frequencies(&good, wp, 3, &factor), PE_ERR_OUT_SIZE, "frequencies w_count 3");
    REFUSED(&w, pe_rope_frequencies(&good, wp, 5, &factor), PE_ERR_OUT_SIZE, "frequencies w_count 5");
    REFUSED(&w, pe_rope_frequencies(&good, wp, 0, &factor), PE_ERR_OUT_SIZE, "frequencies w_count 0");
    REFUSED(&w, pe_rope_frequencies(&good, NULL, 4, &factor), PE_ERR_NULL, "frequencies NULL w");
    REFUSED(&w, pe_rope_frequencies(&good, wp, 4, NULL), PE_ERR_NULL, "frequencies NULL attention_factor");
    CHECK(factor == unset, "a refused pe_rope_frequencies wrote attention_factor %g", factor);

    /* A derived YaRN attention factor below 0 (mscale_all_dim -100 makes the
     * divisor 0.1 * -100 * ln 2 + 1 < 0) is out of range, and refused before
     * w is written. */
    pe_rotary yarn = good;
    yarn.scaling.type = PE_ROPE_SCALING_YARN, yarn.scaling.factor = 2.0,
    yarn.scaling.original_max_position_embeddings = 64;
    yarn.scaling.mscale = 1.0, yarn.scaling.mscale_all_dim = -100.0;
    REFUSED(&w, pe_rope_frequencies(&yarn, wp, 4, &factor), PE_ERR_SCALING,
            "frequencies, negative derived attention factor");
    CHECK(factor == unset, "a refused pe_rope_frequencies wrote attention_factor %g", factor);
    bytes_free(&w);
}

typedef struct {
    const char *what;
    pe_rope_scaling scaling;
    long double want_w[4]; /* r = 8, base 10000: unscaled w_i = 10^-i */
    long double want_factor;
    long double tolerance; /* relative */
} rope_frequency_case;

void test_rope_frequencies_values(void) {
    const long double ln4 = 2.0L * LN2, two_pi = 2.0L * REF_PI;
    /* YaRN with f = 4, L0 = 64, r = 8, base 10000: the correction range runs
     * from pair r ln(64 / (32 * 2 pi)) / (2 ln 10000) = -0.497 (floor -1,
     * clamped to 0) to r ln(64 / (2 pi)) / (2 ln 10000) = 1.008 (ceil 2), so
     * the ramp is 0, 1/2, 1, 1 over the pairs. Untruncated it ends at 1.008. */
    const long double yarn_hi = 8.0L * ref_log(64.0L / two_pi) / (2.0L * ref_log(10000.0L));
    const long double ramp1 = 1.0L / yarn_hi;
    /* Llama 3 with f = 8, L0 = 64, low 1, high 4: wavelengths 2 pi / w_i of
     * 6.3, 62.8, 628, 6283; below 16 unchanged, above 64 divided by f, and
     * 62.8 blended with s = (64 / 62.8 - 1) / 3. */
    const long double s = (64.0L * 0.1L / two_pi - 1.0L) / 3.0L;
    /* Dynamic NTK with f = 2, L0 = 1000, L = 1500: base' = 10000 (2 * 1.5 - 1)^(8/6). */
    const long double ntk_base = 10000.0L * ref_pow(2.0L, 8.0L / 6.0L);
    const rope_frequency_case cases[] = {
        {"none",
         {PE_ROPE_SCALING_NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
         {1.0L, 0.1L, 0.01L, 0.001L},
         1.0L,
         0x1.02p-53L},
        {"linear 4",
         {PE_ROPE_SCALING_LINEAR, 4.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
         {0.25L, 0.025L, 0.0025L, 0.00025L},
         1.0L,
         0x1.02p-53L},
        {"linear 3",
         {PE_ROPE_SCALING_LINEAR, 3.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
         {1.0L / 3, 0.1L / 3, 0.01L / 3, 0.001L / 3},
         1.0L,
         1e-15L},
        {"dynamic, L = L0",
         {PE_ROPE_SCALING_DYNAMIC, 2.0, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 1000, NULL, NULL},
         {1.0L, 0.1L, 0.01L, 0.001L},
         1.0L,
         0x1.02p-53L},
        {"dynamic, L = 0",
         {PE_ROPE_SCALING_DYNAMIC, 2.0, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
         {1.0L, 0.1L, 0.01L, 0.001L},
         1.0L,
         0x1.02p-53L},
        /* w_3 = base'^(-3/4) = 1/2000 exactly. The core carries base' as
         * its logarithm, near 10.1, where a double's half ulp is 9e-16: w_3
         * is 1.7e-15 off (relative), the header's "about 1e-15". */
        {"dynamic, L = 1500",
         {PE_ROPE_SCALING_DYNAMIC, 2.0, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 1500, NULL, NULL},
         {1.0L, ref_pow(ntk_base, -0.25L), ref_pow(ntk_base, -0.5L), 0.0005L},
         1.0L,
         2e-15L},
        {"yarn",
         {PE_ROPE_SCALING_YARN, 4.0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL},
         {1.0L, 0.1L * (0.5L / 4 + 0.5L), 0.01L / 4, 0.001L / 4},
         0.1L * ln4 + 1.0L,
         1e-15L},
        {"yarn untruncated",
         {PE_ROPE_SCALING_YARN, 4.0, 64, 0, 0, 0, 0, 0, 1, 0, 0, 0, NULL, NULL},
         {1.0L, 0.1L * (ramp1 / 4 + (1.0L - ramp1)), 0.01L / 4, 0.001L / 4},
         0.1L * ln4 + 1.0L,
         1e-15L},
        {"yarn attention_factor 0.75",
         {PE_ROPE_SCALING_YARN, 4.0, 64, 0, 0, 0.75, 0, 0, 0, 0, 0, 0, NULL, NULL},
         {1.0L, 0.1L * (0.5L / 4 + 0.5L), 0.01L / 4, 0.001L / 4},
         0.75L,
         1e-15L},
        {"yarn mscale 1, mscale_all_dim 0.5",
         {PE_ROPE_SCALING_YARN, 4.0, 64, 0, 0, 0, 1.0, 0.5, 0, 0, 0, 0, NULL, NULL},
         {1.0L, 0.1L * (0.5L / 4 + 0.5L), 0.01L / 4, 0.001L / 4},
         (0.1L * ln4 + 1.0L) / (0.05L * ln4 + 1.0L),
         1e-15L},
        {"llama3",
         {PE_ROPE_SCALING_LLAMA3, 8.0, 64, 0, 0, 0, 0, 0, 0, 1.0, 4.0, 0, NULL, NULL},
         {1.0L, (1.0L - s) * 0.1L / 8 + s * 0.1L, 0.01L / 8, 0.001L / 8},
         1.0L,
         1e-15L},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pe_rotary rope = good_rope();
        rope.scaling = cases[c].scaling;
        bytes w = bytes_new(4 * sizeof(double));
        double *wp = (double *)(void *)w.data, factor = 0.0;
        EXPECT_STATUS(pe_rope_frequencies(&rope, wp, 4, &factor), PE_OK, "frequencies %s", cases[c].what);
        for (int i = 0; i < 4; i++) {
            const long double want = cases[c].want_w[i], err = fabsl(wp[i] - want) / want;
            CHECK(err <= cases[c].tolerance, "frequencies %s: w_%d is %.17g, want %.20Lg (relative error %Lg)",
                  cases[c].what, i, wp[i], want, err);
        }
        const long double ferr = fabsl(factor - cases[c].want_factor) / cases[c].want_factor;
        CHECK(ferr <= cases[c].tolerance, "frequencies %s: attention factor %.17g, want %.20Lg", cases[c].what, factor,
              cases[c].want_factor);
        CHECK(bytes_guards_intact(&w), "a guard changed (%s)", cases[c].what);
        bytes_free(&w);
    }
}

enum { ROPE_BATCH = 2, ROPE_LENGTH = 5 };

void test_rope_refusals(void) {
    bad_rope bad[MAX_BAD_ROPES];
    const size_t n_bad = make_bad_ropes(bad);
    const pe_rotary good = good_rope();
    const size_t need = rope_scratch(&good), n = (size_t)ROPE_BATCH * ROPE_LENGTH * 3 * 10;
    buffer x = buffer_new(n);
    uint32_t state = 99;
    for (size_t k = 0; k < n; k++) x.data[k] = random_float(&state, 2.0f);
    buffer_snapshot(&x);
    void *sc = scratch_of(need);
    float *xp = x.data;
    const uint32_t max = PE_MAX_POSITION;
    const uint32_t pos[ROPE_LENGTH] = {7, 3, 1000, 0, 12};

    REFUSED(&x, pe_rope(NULL, 0, ROPE_LENGTH, NULL, xp, n, sc, need), PE_ERR_NULL, "rope NULL rope");
    for (size_t k = 0; k < n_bad; k++)
        REFUSED(&x, pe_rope(&bad[k].rope, 0, ROPE_LENGTH, NULL, xp, n, sc, need), bad[k].want, "rope %s", bad[k].what);
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, xp, n - 1, sc, need), PE_ERR_X_SIZE, "rope x_count - 1");
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, xp, n + 1, sc, need), PE_ERR_X_SIZE, "rope x_count + 1");
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, xp, 30, sc, need), PE_ERR_X_SIZE, "rope x_count = one row");
    REFUSED(&x, pe_rope(&good, 0, 0, NULL, xp, n, sc, need), PE_ERR_X_SIZE, "rope length 0 with x");
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, NULL, n, sc, need), PE_ERR_NULL, "rope NULL x");
    REFUSED(&x, pe_rope(&good, 1, ROPE_LENGTH, pos, xp, n, sc, need), PE_ERR_POSITION, "rope positions with offset 1");
    const uint32_t too_far[] = {max, max + 1u, 0xFFFFFFFFu};
    for (int k = 0; k < 3; k++) {
        uint32_t bad_pos[ROPE_LENGTH];
        memcpy(bad_pos, pos, sizeof bad_pos);
        bad_pos[ROPE_LENGTH - 1] = too_far[k]; /* last, so a core that rotates as it checks is caught */
        REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, bad_pos, xp, n, sc, need), PE_ERR_POSITION, "rope position %u",
                too_far[k]);
    }
    REFUSED(&x, pe_rope(&good, max - ROPE_LENGTH + 1, ROPE_LENGTH, NULL, xp, n, sc, need), PE_ERR_POSITION,
            "rope offset+length 2^31+1");
    REFUSED(&x, pe_rope(&good, 0xFFFFFFFFu, ROPE_LENGTH, NULL, xp, n, sc, need), PE_ERR_POSITION,
            "rope offset+length wraps");
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, xp, n, NULL, need), PE_ERR_NULL, "rope NULL scratch");
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, xp, n, sc, need - 1), PE_ERR_SCRATCH, "rope scratch - 1");
    REFUSED(&x, pe_rope(&good, 0, ROPE_LENGTH, NULL, xp, n, sc, 0), PE_ERR_SCRATCH, "rope scratch 0");
    pe_rotary yarn = good;
    yarn.scaling.type = PE_ROPE_SCALING_YARN, yarn.scaling.factor = 2.0,
    yarn.scaling.original_max_position_embeddings = 64;
    yarn.scaling.mscale = 1.0, yarn.scaling.mscale_all_dim = -100.0;
    REFUSED(&x, pe_rope(&yarn, 0, ROPE_LENGTH, NULL, xp, n, sc, need), PE_ERR_SCALING,
            "rope negative derived attention factor");

    /* Edges that must work: no batch items, and the last rows below 2^31. */
    EXPECT_STATUS(pe_rope(&good, 0, ROPE_LENGTH, pos, NULL, 0, sc, need), PE_OK, "rope batch 0, NULL x");
    CHECK(buffer_untouched(&x), "x changed by an empty call");
    EXPECT_STATUS(pe_rope(&good, max - ROPE_LENGTH, ROPE_LENGTH, NULL, xp, n, sc, need), PE_OK,
                  "rope rows ending at 2^31");
    const uint32_t last[ROPE_LENGTH] = {max - 1, 0, max - 1, 5, 6};
    EXPECT_STATUS(pe_rope(&good, 0, ROPE_LENGTH, last, xp, n, sc, need), PE_OK, "rope position 2^31-1");
    CHECK(guards_intact(&x), "a guard changed");
    free(sc);
    buffer_free(&x);
}

/* One RoPE call and what it must give: x (batch, length, heads, head_dim) in
 * rope->order, row l at angle p_l w_i, checked against the exact rotation in
 * long double. w: the exact unscaled frequencies (ref_frequency) or the doubles
 * pe_rope_frequencies gives when scaled (exact as the doubles they are). */
typedef struct {
    const pe_rotary *rope;
    uint32_t batch, length, offset;
    const uint32_t *positions;
} rope_call;

static uint32_t rope_position(const rope_call *c, uint32_t l) {
    return c->positions ? c->positions[l] : c->offset + l;
}

static size_t rope_index(const rope_call *c, uint32_t b, uint32_t l, uint32_t h) {
    const pe_rotary *r = c->rope;
    return r->order == PE_ROPE_BLHD ? (((size_t)b * c->length + l) * r->heads + h) * r->head_dim
                                    : (((size_t)b * r->heads + h) * c->length + l) * r->head_dim;
}

/* The elements of pair i in a head, per the header's layout pictures. */
static void pair_columns(const pe_rotary *r, uint32_t i, uint32_t *first, uint32_t *second) {
    const uint32_t rd = r->rotary_dim ? r->rotary_dim : r->head_dim;
    *first = r->layout == PE_LAYOUT_SPLIT ? i : 2 * i;
    *second = r->layout == PE_LAYOUT_SPLIT ? i + rd / 2 : 2 * i + 1;
}

/* The largest squared error of a rotated pair in units of the header's bound
 * squared, the bound being 2 ulp of the pair's length (2 |pair| 2^-23, times
 * the attention factor); and whether every element past rotary_dim came back
 * bit for bit. (Squares: sqrt would need libm.) */
static long double rope_worst(const rope_call *c, const float *before, const float *after, const long double *w,
                              long double factor, int *rest_unchanged) {
    const pe_rotary *r = c->rope;
    const uint32_t rd = r->rotary_dim ? r->rotary_dim : r->head_dim;
    long double worst = 0.0L;
    *rest_unchanged = 1;
    for (uint32_t b = 0; b < c->batch; b++)
        for (uint32_t l = 0; l < c->length; l++)
            for (uint32_t h = 0; h < r->heads; h++) {
                const size_t at = rope_index(c, b, l, h);
                for (uint32_t i = 0; i < rd / 2; i++) {
                    uint32_t j1, j2;
                    pair_columns(r, i, &j1, &j2);
                    long double s, co;
                    ref_sincos((long double)rope_position(c, l) * w[i], &s, &co);
                    if (r->inverse) s = -s;
                    const long double x1 = before[at + j1], x2 = before[at + j2];
                    const long double e1 = factor * (x1 * co - x2 * s), e2 = factor * (x2 * co + x1 * s);
                    const long double d1 = after[at + j1] - e1, d2 = after[at + j2] - e2;
                    const long double unit = 2.0L * 0x1p-23L * factor;
                    const long double bound2 = unit * unit * (x1 * x1 + x2 * x2), err2 = d1 * d1 + d2 * d2;
                    const long double ratio = err2 == 0 ? 0 : bound2 > 0 ? err2 / bound2 : INFINITY;
                    if (!(ratio <= worst)) worst = ratio;
                }
                for (uint32_t j = rd; j < r->head_dim; j++)
                    if (float_bits(after[at + j]) != float_bits(before[at + j])) *rest_unchanged = 0;
            }
    return worst;
}

/* w for the reference: exact unscaled frequencies, or the scaled doubles. */
static long double rope_reference_w(const pe_rotary *rope, uint32_t end, long double *w) {
    const uint32_t rd = rope->rotary_dim ? rope->rotary_dim : rope->head_dim;
    double scaled[64], factor = 1.0;
    pe_rotary fixed = *rope;
    if (fixed.scaling.type == PE_ROPE_SCALING_DYNAMIC && fixed.scaling.sequence_length == 0)
        fixed.scaling.sequence_length = end;
    if (pe_rope_frequencies(&fixed, scaled, rd / 2, &factor) != PE_OK) return NAN;
    const int unscaled = rope->scaling.type == PE_ROPE_SCALING_NONE ||
                         (rope->scaling.type == PE_ROPE_SCALING_DYNAMIC &&
                          fixed.scaling.sequence_length <= rope->scaling.original_max_position_embeddings);
    for (uint32_t i = 0; i < rd / 2; i++)
        w[i] = unscaled ? ref_frequency(rope->base, i, rd / 2) : (long double)scaled[i];
    /* HF multiplies cos and sin by the factor in float32. */
    return (long double)(float)factor;
}

void test_rope_values(void) {
    uint32_t state = 0xC0FFEEu;
    const uint32_t list[6] = {3, 1999, 0, 2, 70, 4000};
    const uint32_t far[6] = {PE_MAX_POSITION - 1, 1u << 30, 123456789, 5, PE_MAX_POSITION - 64, 64};
    for (int variant = 0; variant < 6; variant++)
        for (int layout = 0; layout < 2; layout++)
            for (int order = 0; order < 2; order++)
                for (int inverse = 0; inverse < 2; inverse++) {
                    pe_rotary rope = good_rope();
                    rope.layout = (pe_layout)layout, rope.order = (pe_rope_order)order, rope.inverse = inverse;
                    rope_call call = {&rope, 2, 6, 1000, NULL};
                    const char *what = "unscaled, offset 1000";
                    switch (variant) {
                    case 1: /* base 2^16, r = 8: w_i = 2^(-4i) exactly, so the oracle holds at 2^31 */
                        rope.base = 65536.0, call.positions = far, call.offset = 0, what = "positions near 2^31";
                        break;
                    case 2: call.positions = list, call.offset = 0, what = "position list"; break;
                    case 3:
                        rope.scaling.type = PE_ROPE_SCALING_LINEAR, rope.scaling.factor = 3.0, what = "linear 3";
                        break;
                    case 4:
                        rope.scaling.type = PE_ROPE_SCALING_YARN, rope.scaling.factor = 4.0;
                        rope.scaling.original_max_position_embeddings = 64, what = "yarn (attention factor)";
                        break;
                    case 5: /* L defaults to the largest position + 1 = 4001 > L0 */
                        rope.scaling.type = PE_ROPE_SCALING_DYNAMIC, rope.scaling.factor = 2.0;
                        rope.scaling.original_max_position_embeddings = 1000, call.positions = list, call.offset = 0;
                        rope.rotary_dim = 6, what = "dynamic, L from the positions";
                        break;
                    }
                    const size_t count = (size_t)call.batch * call.length * rope.heads * rope.head_dim;
                    const size_t need = rope_scratch(&rope);
                    buffer x = buffer_new(count), scalar = buffer_new(count);
                    for (size_t k = 0; k < count; k++) x.data[k] = scalar.data[k] = random_float(&state, 3.0f);
                    buffer_snapshot(&x);
                    void *sc = scratch_of(need);
                    EXPECT_STATUS(pe_rope(&rope, call.offset, call.length, call.positions, x.data, count, sc, need),
                                  PE_OK, "rope %s", what);
                    uint32_t end = 0;
                    for (uint32_t l = 0; l < call.length; l++)
                        if (rope_position(&call, l) + 1 > end) end = rope_position(&call, l) + 1;
                    long double w[32];
                    const long double factor = rope_reference_w(&rope, end, w);
                    int rest_unchanged;
                    const long double worst =
                        rope_worst(&call, x.pristine + GUARD_FLOATS, x.data, w, factor, &rest_unchanged);
                    CHECK(worst <= 1.0L,
                          "rope %s (layout %d order %d inverse %d): squared error %Lg x the bound squared", what,
                          layout, order, inverse, worst);
                    CHECK(rest_unchanged, "rope %s: elements past rotary_dim changed", what);
                    use_kernels(PE_KERNELS_SCALAR);
                    EXPECT_STATUS(
                        pe_rope(&rope, call.offset, call.length, call.positions, scalar.data, count, sc, need), PE_OK,
                        "scalar rope %s", what);
                    use_kernels(PE_KERNELS_SIMD);
                    CHECK(!memcmp(x.data, scalar.data, count * sizeof(float)),
                          "rope %s: scalar and SIMD kernels differ", what);
                    CHECK(guards_intact(&x) && guards_intact(&scalar), "a guard changed (%s)", what);
                    free(sc);
                    buffer_free(&x);
                    buffer_free(&scalar);
                }
}

/* Pairs (1, 0) become (cos, sin) of p w_i, exactly the table's values: within
 * the table's 6e-8 of the long double cos and sin of p w_i. */
void test_rope_unit_pairs(void) {
    for (int layout = 0; layout < 2; layout++)
        for (int scaled = 0; scaled < 2; scaled++) {
            pe_rotary rope = good_rope();
            rope.layout = (pe_layout)layout, rope.heads = 2, rope.order = PE_ROPE_BHLD;
            if (scaled) rope.scaling.type = PE_ROPE_SCALING_LINEAR, rope.scaling.factor = 2.5;
            enum { LEN = 70 }; /* crosses a 64-row block */
            const size_t count = (size_t)LEN * rope.heads * rope.head_dim, need = rope_scratch(&rope);
            buffer x = buffer_new(count);
            double w[4], factor;
            EXPECT_STATUS(pe_rope_frequencies(&rope, w, 4, &factor), PE_OK, "frequencies");
            for (size_t k = 0; k < count; k++) x.data[k] = 0.0f;
            for (size_t row = 0; row < (size_t)LEN * rope.heads; row++)
                for (uint32_t i = 0; i < 4; i++) {
                    uint32_t j1, j2;
                    pair_columns(&rope, i, &j1, &j2);
                    x.data[row * rope.head_dim + j1] = 1.0f;
                }
            void *sc = scratch_of(need);
            EXPECT_STATUS(pe_rope(&rope, 30, LEN, NULL, x.data, count, sc, need), PE_OK, "rope on unit pairs");
            long double worst = 0.0L;
            for (uint32_t h = 0; h < rope.heads; h++)
                for (uint32_t l = 0; l < LEN; l++) {
                    const float *head = x.data + ((size_t)h * LEN + l) * rope.head_dim;
                    for (uint32_t i = 0; i < 4; i++) {
                        uint32_t j1, j2;
                        pair_columns(&rope, i, &j1, &j2);
                        const long double angle =
                            (long double)(30 + l) * (scaled ? (long double)w[i] : ref_frequency(10000.0, i, 4));
                        const long double e1 = fabsl(head[j1] - ref_cos(angle)), e2 = fabsl(head[j2] - ref_sin(angle));
                        if (e1 > worst) worst = e1;
                        if (e2 > worst) worst = e2;
                    }
                }
            CHECK(worst <= 6e-8L, "rope unit pairs (layout %d, scaled %d): off by %Lg from (cos, sin)", layout, scaled,
                  worst);
            CHECK(guards_intact(&x), "a guard changed");
            free(sc);
            buffer_free(&x);
        }
}

/* Same bits for the same positions whatever the order of x, and for a
 * position list equal to an offset's rows; inverse undoes the rotation. */
void test_rope_consistency(void) {
    pe_rotary blhd = good_rope();
    blhd.layout = PE_LAYOUT_SPLIT;
    pe_rotary bhld = blhd;
    bhld.order = PE_ROPE_BHLD;
    enum { B = 2, L = 9, H = 3, D = 10 };
    const size_t count = (size_t)B * L * H * D, need = rope_scratch(&blhd);
    buffer a = buffer_new(count), t = buffer_new(count), listed = buffer_new(count);
    uint32_t state = 7;
    for (size_t k = 0; k < count; k++) a.data[k] = listed.data[k] = random_float(&state, 1.0f);
    buffer_snapshot(&a);
    for (uint32_t b = 0; b < B; b++) /* t = a transposed to (batch, heads, length, head_dim) */
        for (uint32_t l = 0; l < L; l++)
            for (uint32_t h = 0; h < H; h++)
                memcpy(t.data + (((size_t)b * H + h) * L + l) * D, a.data + (((size_t)b * L + l) * H + h) * D,
                       D * sizeof(float));
    void *sc = scratch_of(need);
    uint32_t positions[L];
    for (uint32_t l = 0; l < L; l++) positions[l] = 60 + l; /* crosses a block at 64 */
    EXPECT_STATUS(pe_rope(&blhd, 60, L, NULL, a.data, count, sc, need), PE_OK, "rope BLHD");
    EXPECT_STATUS(pe_rope(&bhld, 60, L, NULL, t.data, count, sc, need), PE_OK, "rope BHLD");
    EXPECT_STATUS(pe_rope(&blhd, 0, L, positions, listed.data, count, sc, need), PE_OK, "rope BLHD with positions");
    size_t differ = 0;
    for (uint32_t b = 0; b < B; b++)
        for (uint32_t l = 0; l < L; l++)
            for (uint32_t h = 0; h < H; h++)
                differ += memcmp(t.data + (((size_t)b * H + h) * L + l) * D, a.data + (((size_t)b * L + l) * H + h) * D,
                                 D * sizeof(float)) != 0;
    CHECK(differ == 0, "%zu heads differ between BLHD and BHLD", differ);
    CHECK(!memcmp(a.data, listed.data, count * sizeof(float)), "a position list differs from the same rows by offset");

    pe_rotary undo = blhd;
    undo.inverse = 1;
    EXPECT_STATUS(pe_rope(&undo, 60, L, NULL, a.data, count, sc, need), PE_OK, "inverse rope");
    float worst = 0.0f;
    for (size_t k = 0; k < count; k++) {
        float e = fabsf(a.data[k] - a.pristine[GUARD_FLOATS + k]);
        worst = e > worst ? e : worst;
    }
    CHECK(worst <= 4 * 0x1p-23f * 1.5f, "inverse after forward is off by %g", worst); /* |pair| < 1.5 */
    CHECK(guards_intact(&a) && guards_intact(&t) && guards_intact(&listed), "a guard changed");
    free(sc);
    buffer_free(&a);
    buffer_free(&t);
    buffer_free(&listed);
}

typedef struct {
    pe_rotary rope;
    float *x;
    size_t count;
    uint32_t length;
} rope_job;

static pe_status run_rope(const void *ctx, void *scratch, size_t scratch_bytes) {
    const rope_job *j = ctx;
    return pe_rope(&j->rope, 128, j->length, NULL, j->x, j->count, scratch, scratch_bytes); /* whole tiles */
}

/* pe_rope given exactly the scratch it asks for stays inside it. */
void test_rope_scratch_confined(void) {
    const uint32_t rotary_dims[] = {2, 8, 64, 130};
    for (size_t k = 0; k < sizeof rotary_dims / sizeof rotary_dims[0]; k++) {
        rope_job job = {good_rope(), NULL, 0, 150};
        job.rope.head_dim = job.rope.rotary_dim = rotary_dims[k];
        job.count = (size_t)job.length * job.rope.heads * job.rope.head_dim;
        buffer x = buffer_new(job.count);
        for (size_t i = 0; i < job.count; i++) x.data[i] = 0.5f;
        job.x = x.data;
        check_scratch_confined(run_rope, &job, rope_scratch(&job.rope), "pe_rope");
        CHECK(guards_intact(&x), "a guard changed");
        buffer_free(&x);
    }
}

/* A plan refused for its frequencies (longrope factors that push w_i past PE_MAX_FREQUENCY, the short list
 * for L below the original length, the long one above it) leaves its memory as it was. */
void test_rope_plan_refusal_writes_nothing(void) {
    pe_rotary rope = good_rope();
    double short_f[4] = {0.1, 1, 1, 1}, long_f[4] = {1, 1, 1, 0.2e-3};
    rope.scaling.type = PE_ROPE_SCALING_LONGROPE;
    rope.scaling.factor = 4.0;
    rope.scaling.original_max_position_embeddings = 64;
    rope.scaling.short_factor = short_f;
    rope.scaling.long_factor = long_f;
    for (int k = 0; k < 4; k++) {
        rope.scaling.sequence_length = k < 2 ? 16 : 1024; /* short, then long factors */
        if (k % 2)
            short_f[0] = long_f[3] = 1.0; /* then factors the plan takes */
        else
            short_f[0] = 0.1, long_f[3] = 0.2e-3;
        size_t plan_bytes = 0;
        EXPECT_STATUS(pe_rope_plan_size(&rope, 8, &plan_bytes), PE_OK, "longrope plan size %d", k);
        unsigned char *memory = malloc(plan_bytes), *copy = malloc(plan_bytes);
        memset(memory, 0x5c, plan_bytes);
        memcpy(copy, memory, plan_bytes);
        pe_rope_plan *plan = NULL;
        pe_status st = pe_rope_plan_init(&rope, 8, memory, plan_bytes, &plan);
        EXPECT_STATUS(st, k % 2 ? PE_OK : PE_ERR_SCALING, "longrope plan %d", k);
        if (st != PE_OK)
            CHECK(!memcmp(memory, copy, plan_bytes) && plan == NULL, "a refused plan %d wrote its memory", k);
        free(memory);
        free(copy);
    }
}

/* pe_rope_plan_apply_heads: one plan (3 heads) rotates x of any head count
 * with the very bits pe_rope gives with that count, in both orders and on a
 * cached and an uncached plan; heads 0 is the plan's own; refusals write nothing. */
void test_rope_plan_heads(void) {
    enum { B = 2, L = 5, D = 10, MAXH = 8 };
    const uint32_t counts[] = {1, 3, 8};
    for (int order = 0; order < 2; order++) {
        for (uint32_t cached = 0; cached <= 64; cached += 64) {
            pe_rotary plan_rope = good_rope();
            plan_rope.order = order ? PE_ROPE_BHLD : PE_ROPE_BLHD;
            size_t plan_bytes = 0;
            EXPECT_STATUS(pe_rope_plan_size(&plan_rope, cached, &plan_bytes), PE_OK, "plan size");
            void *memory = scratch_of(plan_bytes);
            pe_rope_plan *plan = NULL;
            EXPECT_STATUS(pe_rope_plan_init(&plan_rope, cached, memory, plan_bytes, &plan), PE_OK, "plan init");
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                const uint32_t heads = counts[c];
                const size_t count = (size_t)B * L * heads * D;
                pe_rotary one = plan_rope;
                one.heads = heads;
                buffer want = buffer_new(count), got = buffer_new(count);
                uint32_t state = 11 + heads;
                for (size_t k = 0; k < count; k++) want.data[k] = got.data[k] = random_float(&state, 1.0f);
                const size_t need = rope_scratch(&one);
                void *sc = scratch_of(need);
                EXPECT_STATUS(pe_rope(&one, 40, L, NULL, want.data, count, sc, need), PE_OK, "rope %u heads", heads);
                EXPECT_STATUS(pe_rope_plan_apply_heads(plan, PE_DTYPE_FLOAT32, heads, 0, 40, L, NULL, got.data, count),
                              PE_OK, "plan apply, %u heads", heads);
                CHECK(!memcmp(want.data, got.data, count * sizeof(float)),
                      "order %d cache %u: %u heads through a 3-head plan differ from pe_rope with %u heads", order,
                      cached, heads, heads);
                if (heads == 3) { /* 0 = the plan's count: the same call again rotates the same way */
                    memcpy(want.data, got.data, count * sizeof(float));
                    EXPECT_STATUS(pe_rope_plan_apply(plan, PE_DTYPE_FLOAT32, 0, 40, L, NULL, want.data, count), PE_OK,
                                  "plan apply");
                    EXPECT_STATUS(pe_rope_plan_apply_heads(plan, PE_DTYPE_FLOAT32, 0, 0, 40, L, NULL, got.data, count),
                                  PE_OK, "plan apply, heads 0");
                    CHECK(!memcmp(want.data, got.data, count * sizeof(float)), "heads 0 is not the plan's count");
                }
                buffer_snapshot(&got);
                REFUSED(
                    &got,
                    pe_rope_plan_apply_heads(plan, PE_DTYPE_FLOAT32, PE_MAX_HEADS + 1, 0, 40, L, NULL, got.data, count),
                    PE_ERR_HEADS, "heads above PE_MAX_HEADS");
                if (heads > 1)
                    REFUSED(&got,
                            pe_rope_plan_apply_heads(plan, PE_DTYPE_FLOAT32, MAXH + 1, 0, 40, L, NULL, got.data, count),
                            PE_ERR_X_SIZE, "x of %u heads called with %d", heads, MAXH + 1);
                CHECK(guards_intact(&want) && guards_intact(&got), "a guard changed");
                free(sc);
                buffer_free(&want);
                buffer_free(&got);
            }
            free(memory);
        }
    }
}
