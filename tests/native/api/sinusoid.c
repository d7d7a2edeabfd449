/* sinusoid.c: the sinusoidal tables, the embedding add, plans, kernels and
 * statuses. Every refusal is checked for its exact status (where the header
 * names one) and for having written nothing: outputs live inside a block of
 * sentinel floats that must come back bit for bit. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../api_check.h"
#include "posenc.h"
#include "tests.h"

/* --- fixture -------------------------------------------------------------- */

enum { DIM = 8, LENGTH = 5, OFFSET = 3, BATCH = 3 };

static const pe_sinusoid good = {DIM, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER};

/* Encodings each wrong in one way, with the status the header names for it. */
typedef struct {
    pe_sinusoid enc;
    pe_status want;
    const char *what;
} bad_encoding;

static const bad_encoding bad_encodings[] = {
    {{0, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_DIM_RANGE, "dim 0"},
    {{1, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_DIM_ODD, "dim 1"},
    {{7, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_DIM_ODD, "dim 7"},
    {{65535, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER}, PE_ERR_DIM_ODD, "dim 65535"},
    {{65538, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_DIM_RANGE, "dim 65538"},
    {{0xFFFFFFFEu, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_DIM_RANGE, "dim 2^32-2"},
    {{DIM, NAN, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base NaN"},
    {{DIM, INFINITY, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base +inf"},
    {{DIM, -INFINITY, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base -inf"},
    {{DIM, 1.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base 1"},
    {{DIM, 0.5, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base 0.5"},
    {{DIM, 0.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base 0"},
    {{DIM, -0.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base -0"},
    {{DIM, -10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, PE_ERR_BASE, "base -10000"},
    {{DIM, 10000.0, (pe_layout)2, PE_FREQ_PAPER}, PE_ERR_LAYOUT, "layout 2"},
    {{DIM, 10000.0, (pe_layout)1000, PE_FREQ_PAPER}, PE_ERR_LAYOUT, "layout 1000"},
    {{DIM, 10000.0, (pe_layout)0xFFFFFFFFu, PE_FREQ_PAPER}, PE_ERR_LAYOUT, "layout 0xFFFFFFFF"},
    {{DIM, 10000.0, PE_LAYOUT_INTERLEAVED, (pe_frequencies)2}, PE_ERR_FREQUENCIES, "frequencies 2"},
    {{DIM, 10000.0, PE_LAYOUT_SPLIT, (pe_frequencies)0xFFFFFFFFu}, PE_ERR_FREQUENCIES, "frequencies 0xFFFFFFFF"},
};
#define N_BAD_ENCODINGS (sizeof bad_encodings / sizeof bad_encodings[0])

/* --- tests ---------------------------------------------------------------- */

/* Every status from PE_OK up has its own text, until the first unknown one;
 * the known range must reach the last status this test knows of. */
void test_status_str(void) {
    enum { MAX = 64 };
    const char *unknown = pe_status_str((pe_status)1000);
    CHECK(unknown && unknown[0], "an unknown status has no text");
    CHECK(pe_status_str((pe_status)-1) == unknown || !strcmp(pe_status_str((pe_status)-1), unknown),
          "status -1 is not reported as unknown");
    const char *known[MAX];
    int count = 0;
    while (count < MAX && strcmp(pe_status_str((pe_status)count), unknown))
        known[count] = pe_status_str((pe_status)count), count++;
    CHECK(count > PE_ERR_ORDER, "only statuses 0..%d have their own text", count - 1);
    for (int s = 0; s < count; s++) {
        CHECK(known[s][0], "status %d has an empty text", s);
        for (int t = s + 1; t < count; t++)
            CHECK(strcmp(known[s], known[t]), "statuses %d and %d share the text '%s'", s, t, known[s]);
    }
}

/* Every status's name is its enumerator's, restated here in enum order; a
 * value past the last is PE_UNKNOWN. */
void test_status_name(void) {
    static const char *const names[] = {
        "PE_OK",
        "PE_ERR_NULL",
        "PE_ERR_DIM_ODD",
        "PE_ERR_DIM_RANGE",
        "PE_ERR_BASE",
        "PE_ERR_LAYOUT",
        "PE_ERR_POSITION",
        "PE_ERR_OUT_SIZE",
        "PE_ERR_X_SIZE",
        "PE_ERR_SCRATCH",
        "PE_ERR_TABLE_ROWS",
        "PE_ERR_SCALE",
        "PE_ERR_TOO_LARGE",
        "PE_ERR_KERNELS",
        "PE_ERR_PLAN",
        "PE_ERR_HEADS",
        "PE_ERR_OVERLAP",
        "PE_ERR_FREQUENCIES",
        "PE_ERR_ROTARY_DIM",
        "PE_ERR_SCALING",
        "PE_ERR_ORDER",
        "PE_ERR_DTYPE",
        "PE_ERR_RECIPE",
        "PE_ERR_DIM_2D",
        "PE_ERR_FREQUENCY_VALUE",
        "PE_ERR_BUCKETS",
        "PE_ERR_MAX_RELATIVE",
        "PE_ERR_NOT_FINITE",
        "PE_ERR_KIND",
        "PE_ERR_SHAPE",
        "PE_ERR_CONFIG",
        "PE_ERR_LAYER_TYPE",
        "PE_ERR_AXES",
        "PE_ERR_XPOS",
        "PE_ERR_XPOS_RANGE",
        "PE_ERR_ROUNDING",
    };
    const int count = (int)(sizeof names / sizeof *names);
    for (int s = 0; s < count; s++) {
        const char *got = pe_status_name((pe_status)s);
        CHECK(got && !strcmp(got, names[s]), "pe_status_name(%d) is %s, want %s", s, got ? got : "NULL", names[s]);
    }
    CHECK(!strcmp(pe_status_name(PE_ERR_DIM_ODD), "PE_ERR_DIM_ODD"), "PE_ERR_DIM_ODD's name");
    CHECK(!strcmp(pe_status_name((pe_status)count), "PE_UNKNOWN"), "status %d (past the last) is not PE_UNKNOWN",
          count);
    CHECK(!strcmp(pe_status_name((pe_status)-1), "PE_UNKNOWN"), "status -1 is not PE_UNKNOWN");
    /* Every status with a text has a name, and the other way round. */
    const char *unknown_text = pe_status_str((pe_status)1000);
    for (int s = 0; s < 64; s++)
        CHECK(!strcmp(pe_status_name((pe_status)s), "PE_UNKNOWN") == !strcmp(pe_status_str((pe_status)s), unknown_text),
              "status %d has a name but no text, or a text but no name", s);
}

void test_scratch_size(void) {
    size_t bytes = 12345;
    EXPECT_STATUS(pe_scratch_size(DIM, NULL), PE_ERR_NULL, "NULL bytes");
    EXPECT_STATUS(pe_scratch_size(2, &bytes), PE_OK, "dim 2");
    EXPECT_STATUS(pe_scratch_size(PE_MAX_DIM, &bytes), PE_OK, "dim PE_MAX_DIM");
    for (size_t k = 0; k < N_BAD_ENCODINGS; k++) {
        if (bad_encodings[k].want != PE_ERR_DIM_ODD && bad_encodings[k].want != PE_ERR_DIM_RANGE) continue;
        EXPECT_STATUS(pe_scratch_size(bad_encodings[k].enc.dim, &bytes), bad_encodings[k].want, "%s",
                      bad_encodings[k].what);
    }
}

void test_kernels(void) {
    pe_kernels k = (pe_kernels)99;
    EXPECT_STATUS(pe_active_kernels(NULL), PE_ERR_NULL, "pe_active_kernels(NULL)");
    EXPECT_STATUS(pe_active_kernels(&k), PE_OK, "pe_active_kernels");
    CHECK(k == PE_KERNELS_SIMD, "SIMD should be the default in a build with SIMD compiled in, got %d", (int)k);

    /* Both kernel sets give the same bits. */
    size_t need = table_scratch(DIM);
    buffer s = buffer_new(need / sizeof(float) + 1);
    buffer a = buffer_new(37 * DIM), b = buffer_new(37 * DIM);
    EXPECT_STATUS(pe_use_kernels(PE_KERNELS_SCALAR), PE_OK, "use scalar");
    EXPECT_STATUS(pe_active_kernels(&k), PE_OK, "pe_active_kernels");
    CHECK(k == PE_KERNELS_SCALAR, "active %d after choosing scalar", (int)k);
    EXPECT_STATUS(pe_table(&good, 1000, 37, a.data, a.count, s.data, need), PE_OK, "scalar table");
    EXPECT_STATUS(pe_use_kernels(PE_KERNELS_SIMD), PE_OK, "use simd");
    EXPECT_STATUS(pe_active_kernels(&k), PE_OK, "pe_active_kernels");
    CHECK(k == PE_KERNELS_SIMD, "active %d after choosing simd", (int)k);
    EXPECT_STATUS(pe_table(&good, 1000, 37, b.data, b.count, s.data, need), PE_OK, "simd table");
    CHECK(!memcmp(a.data, b.data, a.count * sizeof(float)), "scalar and SIMD kernels differ");
    CHECK(guards_intact(&a) && guards_intact(&b) && guards_intact(&s), "a guard changed");

    /* An unknown kernel set is refused and changes nothing. */
    CHECK(pe_use_kernels((pe_kernels)7) != PE_OK, "kernels 7 accepted");
    EXPECT_STATUS(pe_active_kernels(&k), PE_OK, "pe_active_kernels");
    CHECK(k == PE_KERNELS_SIMD, "kernels changed to %d by a refused call", (int)k);
    buffer_free(&s);
    buffer_free(&a);
    buffer_free(&b);
}

/* d = 4, base 10000: row 1 is sin 1, cos 1, sin 0.01, cos 0.01 (and split). */
void test_small_values(void) {
    size_t need = table_scratch(4);
    buffer s = buffer_new(need / sizeof(float) + 1);
    buffer out = buffer_new(10 * 4);
    for (int layout = 0; layout < 2; layout++) {
        pe_sinusoid enc = {4, 10000.0, (pe_layout)layout, PE_FREQ_PAPER};
        EXPECT_STATUS(pe_table(&enc, 0, 10, out.data, out.count, s.data, need), PE_OK, "d=4 table");
        /* libm's values, folded by the compiler (the link has no -lm). */
        const double want_sin[2] = {sin(1.0), sin(pow(10000.0, -0.5))};
        const double want_cos[2] = {cos(1.0), cos(pow(10000.0, -0.5))};
        for (int i = 0; i < 2; i++) {
            float sv = out.data[4 + (layout ? i : 2 * i)], cv = out.data[4 + (layout ? 2 + i : 2 * i + 1)];
            CHECK(fabs(sv - want_sin[i]) <= 6e-8, "layout %d sin pair %d: %.9g vs %.17g", layout, i, sv, want_sin[i]);
            CHECK(fabs(cv - want_cos[i]) <= 6e-8, "layout %d cos pair %d: %.9g vs %.17g", layout, i, cv, want_cos[i]);
        }
        for (int j = 0; j < 4; j++) /* row 0: sin 0 = 0, cos 0 = 1 */
            CHECK(out.data[j] == ((layout ? j >= 2 : j % 2) ? 1.0f : 0.0f), "row 0 column %d is %.9g", j, out.data[j]);
    }
    CHECK(guards_intact(&out) && guards_intact(&s), "a guard changed");
    buffer_free(&s);
    buffer_free(&out);
}

void test_table(void) {
    size_t need = table_scratch(DIM);
    buffer s = buffer_new(need / sizeof(float) + 1);
    buffer out = buffer_new(LENGTH * DIM);
    float *o = out.data;
    const size_t n = out.count;
    void *sc = s.data;
    const uint32_t max = PE_MAX_POSITION;

#define REFUSED(call, want, ...)                                                      \
    do {                                                                              \
        EXPECT_STATUS(call, want, __VA_ARGS__);                                       \
        CHECK(buffer_untouched(&out), "out written by a refused call: " __VA_ARGS__); \
    } while (0)

    REFUSED(pe_table(NULL, OFFSET, LENGTH, o, n, sc, need), PE_ERR_NULL, "pe_table NULL enc");
    REFUSED(pe_table(&good, OFFSET, LENGTH, NULL, n, sc, need), PE_ERR_NULL, "pe_table NULL out");
    if (need) REFUSED(pe_table(&good, OFFSET, LENGTH, o, n, NULL, need), PE_ERR_NULL, "pe_table NULL scratch");
    for (size_t k = 0; k < N_BAD_ENCODINGS; k++) {
        const bad_encoding *b = &bad_encodings[k];
        /* out_count matches the bad dim, so only the encoding is wrong; out is
         * big enough for dim 7 and smaller, and the others must be refused
         * before anything is written anyway. */
        REFUSED(pe_table(&b->enc, OFFSET, 1, o, b->enc.dim, sc, need), b->want, "pe_table %s", b->what);
    }
    REFUSED(pe_table(&good, max - LENGTH + 1, LENGTH, o, n, sc, need), PE_ERR_POSITION,
            "pe_table offset+length = 2^31+1");
    REFUSED(pe_table(&good, max, 1, o, DIM, sc, need), PE_ERR_POSITION, "pe_table offset 2^31");
    REFUSED(pe_table(&good, 0xFFFFFFFFu, LENGTH, o, n, sc, need), PE_ERR_POSITION,
            "pe_table offset+length wraps uint32");
    REFUSED(pe_table(&good, 0, max + 1, o, (size_t)(max + 1) * DIM, sc, need), PE_ERR_POSITION,
            "pe_table length 2^31+1");
    REFUSED(pe_table(&good, OFFSET, LENGTH, o, n - 1, sc, need), PE_ERR_OUT_SIZE, "pe_table out_count - 1");
    REFUSED(pe_table(&good, OFFSET, LENGTH, o, n + 1, sc, need), PE_ERR_OUT_SIZE, "pe_table out_count + 1");
    REFUSED(pe_table(&good, OFFSET, LENGTH, o, 0, sc, need), PE_ERR_OUT_SIZE, "pe_table out_count 0");
    REFUSED(pe_table(&good, OFFSET, LENGTH, o, n / 2, sc, need), PE_ERR_OUT_SIZE, "pe_table out_count half");
    if (need) {
        REFUSED(pe_table(&good, OFFSET, LENGTH, o, n, sc, need - 1), PE_ERR_SCRATCH, "pe_table scratch - 1");
        REFUSED(pe_table(&good, OFFSET, LENGTH, o, n, sc, 0), PE_ERR_SCRATCH, "pe_table scratch 0");
    }
    CHECK(guards_intact(&s), "scratch guard changed");

    /* The edges that must work: the last rows below 2^31, and an empty table. */
    EXPECT_STATUS(pe_table(&good, max - LENGTH, LENGTH, o, n, sc, need), PE_OK, "pe_table ending at 2^31");
    for (size_t k = 0; k < n; k++) CHECK(fabsf(o[k]) <= 1.0f, "value %zu is %.9g", k, o[k]);
    EXPECT_STATUS(pe_table(&good, max, 0, o, 0, sc, need), PE_OK, "pe_table length 0 at offset 2^31");
    EXPECT_STATUS(pe_table(&good, OFFSET, LENGTH, o, n, sc, need + 64), PE_OK, "pe_table larger scratch");
    CHECK(guards_intact(&out) && guards_intact(&s), "a guard changed");
#undef REFUSED
    buffer_free(&s);
    buffer_free(&out);
}

void test_table_at(void) {
    size_t need = table_scratch(DIM);
    buffer s = buffer_new(need / sizeof(float) + 1);
    buffer out = buffer_new(LENGTH * DIM), ref = buffer_new(LENGTH * DIM);
    float *o = out.data;
    const size_t n = out.count;
    void *sc = s.data;
    uint32_t pos[LENGTH] = {OFFSET, OFFSET + 1, OFFSET + 2, OFFSET + 3, OFFSET + 4};

#define REFUSED(call, want, ...)                                                      \
    do {                                                                              \
        EXPECT_STATUS(call, want, __VA_ARGS__);                                       \
        CHECK(buffer_untouched(&out), "out written by a refused call: " __VA_ARGS__); \
    } while (0)

    REFUSED(pe_table_at(NULL, pos, LENGTH, o, n, sc, need), PE_ERR_NULL, "pe_table_at NULL enc");
    REFUSED(pe_table_at(&good, NULL, LENGTH, o, n, sc, need), PE_ERR_NULL, "pe_table_at NULL positions");
    REFUSED(pe_table_at(&good, pos, LENGTH, NULL, n, sc, need), PE_ERR_NULL, "pe_table_at NULL out");
    if (need) REFUSED(pe_table_at(&good, pos, LENGTH, o, n, NULL, need), PE_ERR_NULL, "pe_table_at NULL scratch");
    for (size_t k = 0; k < N_BAD_ENCODINGS; k++) {
        const bad_encoding *b = &bad_encodings[k];
        REFUSED(pe_table_at(&b->enc, pos, 1, o, b->enc.dim, sc, need), b->want, "pe_table_at %s", b->what);
    }
    const uint32_t too_far[] = {PE_MAX_POSITION, PE_MAX_POSITION + 1u, 0xFFFFFFFFu};
    for (int k = 0; k < 3; k++) {
        uint32_t bad[LENGTH];
        memcpy(bad, pos, sizeof bad);
        bad[LENGTH - 1] = too_far[k]; /* last, so a core that writes as it checks is caught */
        REFUSED(pe_table_at(&good, bad, LENGTH, o, n, sc, need), PE_ERR_POSITION, "pe_table_at position %u",
                too_far[k]);
    }
    REFUSED(pe_table_at(&good, pos, LENGTH, o, n - 1, sc, need), PE_ERR_OUT_SIZE, "pe_table_at out_count - 1");
    REFUSED(pe_table_at(&good, pos, LENGTH, o, n + DIM, sc, need), PE_ERR_OUT_SIZE, "pe_table_at out_count + dim");
    /* count * dim overflows size_t: refused before positions or out are read. */
    REFUSED(pe_table_at(&good, pos, SIZE_MAX / DIM + 1, o, n, sc, need), PE_ERR_TOO_LARGE,
            "pe_table_at count*dim overflows");
    REFUSED(pe_table_at(&good, pos, SIZE_MAX, o, n, sc, need), PE_ERR_TOO_LARGE, "pe_table_at count SIZE_MAX");
    if (need) REFUSED(pe_table_at(&good, pos, LENGTH, o, n, sc, need - 1), PE_ERR_SCRATCH, "pe_table_at scratch - 1");

    /* Same bits as pe_table for the same positions, in any order. */
    EXPECT_STATUS(pe_table(&good, OFFSET, LENGTH, ref.data, ref.count, sc, need), PE_OK, "pe_table");
    EXPECT_STATUS(pe_table_at(&good, pos, LENGTH, o, n, sc, need), PE_OK, "pe_table_at");
    CHECK(!memcmp(o, ref.data, n * sizeof(float)), "pe_table_at differs from pe_table");
    uint32_t rev[LENGTH];
    for (int k = 0; k < LENGTH; k++) rev[k] = pos[LENGTH - 1 - k];
    EXPECT_STATUS(pe_table_at(&good, rev, LENGTH, o, n, sc, need), PE_OK, "pe_table_at reversed");
    for (int k = 0; k < LENGTH; k++)
        CHECK(!memcmp(o + k * DIM, ref.data + (LENGTH - 1 - k) * DIM, DIM * sizeof(float)), "reversed row %d differs",
              k);
    uint32_t last = PE_MAX_POSITION - 1;
    EXPECT_STATUS(pe_table_at(&good, &last, 1, o, DIM, sc, need), PE_OK, "pe_table_at position 2^31-1");
    EXPECT_STATUS(pe_table_at(&good, pos, 0, o, 0, sc, need), PE_OK, "pe_table_at count 0");
    CHECK(guards_intact(&out) && guards_intact(&ref) && guards_intact(&s), "a guard changed");
#undef REFUSED
    buffer_free(&s);
    buffer_free(&out);
    buffer_free(&ref);
}

void test_add(void) {
    size_t need = table_scratch(DIM);
    buffer s = buffer_new(need / sizeof(float) + 1);
    buffer x = buffer_new(BATCH * LENGTH * DIM), pe = buffer_new(LENGTH * DIM);
    for (size_t k = 0; k < x.count; k++) x.data[k] = (float)k * 0.25f - 7.0f;
    buffer_snapshot(&x);
    float *xp = x.data;
    const size_t n = x.count;
    void *sc = s.data;
    const uint32_t max = PE_MAX_POSITION;

#define REFUSED(call, want, ...)                                                  \
    do {                                                                          \
        EXPECT_STATUS(call, want, __VA_ARGS__);                                   \
        CHECK(buffer_untouched(&x), "x changed by a refused call: " __VA_ARGS__); \
    } while (0)

    REFUSED(pe_add(NULL, 1.0f, OFFSET, LENGTH, xp, n, sc, need), PE_ERR_NULL, "pe_add NULL enc");
    REFUSED(pe_add(&good, 1.0f, OFFSET, LENGTH, NULL, n, sc, need), PE_ERR_NULL, "pe_add NULL x");
    if (need) REFUSED(pe_add(&good, 1.0f, OFFSET, LENGTH, xp, n, NULL, need), PE_ERR_NULL, "pe_add NULL scratch");
    for (size_t k = 0; k < N_BAD_ENCODINGS; k++) {
        const bad_encoding *b = &bad_encodings[k];
        REFUSED(pe_add(&b->enc, 1.0f, OFFSET, 1, xp, b->enc.dim, sc, need), b->want, "pe_add %s", b->what);
    }
    REFUSED(pe_add(&good, 1.0f, max - LENGTH + 1, LENGTH, xp, n, sc, need), PE_ERR_POSITION,
            "pe_add offset+length = 2^31+1");
    REFUSED(pe_add(&good, 1.0f, 0xFFFFFFFFu, LENGTH, xp, n, sc, need), PE_ERR_POSITION, "pe_add offset+length wraps");
    REFUSED(pe_add(&good, 1.0f, OFFSET, LENGTH, xp, n + 1, sc, need), PE_ERR_X_SIZE, "pe_add x_count + 1");
    REFUSED(pe_add(&good, 1.0f, OFFSET, LENGTH, xp, n - 1, sc, need), PE_ERR_X_SIZE, "pe_add x_count - 1");
    REFUSED(pe_add(&good, 1.0f, OFFSET, LENGTH, xp, DIM, sc, need), PE_ERR_X_SIZE, "pe_add x_count = one row");
    REFUSED(pe_add(&good, NAN, OFFSET, LENGTH, xp, n, sc, need), PE_ERR_SCALE, "pe_add scale NaN");
    REFUSED(pe_add(&good, INFINITY, OFFSET, LENGTH, xp, n, sc, need), PE_ERR_SCALE, "pe_add scale +inf");
    REFUSED(pe_add(&good, -INFINITY, OFFSET, LENGTH, xp, n, sc, need), PE_ERR_SCALE, "pe_add scale -inf");
    if (need) REFUSED(pe_add(&good, 1.0f, OFFSET, LENGTH, xp, n, sc, need - 1), PE_ERR_SCRATCH, "pe_add scratch - 1");

    /* x = float(float(x * scale) + PE), PE being pe_table's bits. */
    const float scale = 2.828427125f; /* float(sqrt(8)) */
    EXPECT_STATUS(pe_table(&good, OFFSET, LENGTH, pe.data, pe.count, sc, need), PE_OK, "pe_table");
    EXPECT_STATUS(pe_add(&good, scale, OFFSET, LENGTH, xp, n, sc, need), PE_OK, "pe_add");
    int exact = 1;
    for (size_t k = 0; k < n; k++) {
        volatile float scaled = x.pristine[GUARD_FLOATS + k] * scale;
        volatile float want = scaled + pe.data[k % pe.count];
        if (memcmp(&x.data[k], (const void *)&want, sizeof(float))) {
            exact = 0;
            fprintf(stderr, "pe_add element %zu: %.9g, want %.9g\n", k, x.data[k], want);
            break;
        }
    }
    CHECK(exact, "pe_add is not float(float(x*scale) + PE)");
    CHECK(guards_intact(&x) && guards_intact(&pe) && guards_intact(&s), "a guard changed");
#undef REFUSED
    buffer_free(&s);
    buffer_free(&x);
    buffer_free(&pe);
}

void test_add_table(void) {
    enum { ROWS = OFFSET + LENGTH };
    buffer x = buffer_new(BATCH * LENGTH * DIM), table = buffer_new(ROWS * DIM);
    for (size_t k = 0; k < x.count; k++) x.data[k] = 3.0f - (float)k * 0.125f;
    for (size_t k = 0; k < table.count; k++) table.data[k] = (float)k / 64.0f;
    buffer_snapshot(&x);
    buffer_snapshot(&table);
    float *xp = x.data, *t = table.data;
    const size_t n = x.count;

#define REFUSED(call, want, ...)                                                  \
    do {                                                                          \
        EXPECT_STATUS(call, want, __VA_ARGS__);                                   \
        CHECK(buffer_untouched(&x), "x changed by a refused call: " __VA_ARGS__); \
    } while (0)

    REFUSED(pe_add_table(t, ROWS, DIM, 1.0f, OFFSET, LENGTH, NULL, n), PE_ERR_NULL, "pe_add_table NULL x");
    REFUSED(pe_add_table(NULL, ROWS, DIM, 1.0f, OFFSET, LENGTH, xp, n), PE_ERR_NULL, "pe_add_table NULL table");
    REFUSED(pe_add_table(t, ROWS - 1, DIM, 1.0f, OFFSET, LENGTH, xp, n), PE_ERR_TABLE_ROWS, "pe_add_table rows - 1");
    REFUSED(pe_add_table(t, ROWS, DIM, 1.0f, OFFSET + 1, LENGTH, xp, n), PE_ERR_TABLE_ROWS, "pe_add_table offset + 1");
    REFUSED(pe_add_table(t, ROWS, DIM, 1.0f, 0xFFFFFFF0u, LENGTH, xp, n), PE_ERR_TABLE_ROWS,
            "pe_add_table offset+length wraps uint32");
    REFUSED(pe_add_table(t, 0, DIM, 1.0f, 0, LENGTH, xp, n), PE_ERR_TABLE_ROWS, "pe_add_table rows 0");
    REFUSED(pe_add_table(t, ROWS, DIM, 1.0f, OFFSET, LENGTH, xp, n + 1), PE_ERR_X_SIZE, "pe_add_table x_count + 1");
    REFUSED(pe_add_table(t, ROWS, DIM, 1.0f, OFFSET, LENGTH, xp, n - DIM), PE_ERR_X_SIZE, "pe_add_table x_count - dim");
    REFUSED(pe_add_table(t, ROWS, DIM, NAN, OFFSET, LENGTH, xp, n), PE_ERR_SCALE, "pe_add_table scale NaN");
    REFUSED(pe_add_table(t, ROWS, DIM, INFINITY, OFFSET, LENGTH, xp, n), PE_ERR_SCALE, "pe_add_table scale +inf");
    REFUSED(pe_add_table(t, ROWS, DIM, -INFINITY, OFFSET, LENGTH, xp, n), PE_ERR_SCALE, "pe_add_table scale -inf");
    /* The header leaves the status of a zero dim open; it must be refused. */
    CHECK(pe_add_table(t, ROWS, 0, 1.0f, OFFSET, LENGTH, xp, n) != PE_OK, "pe_add_table dim 0 accepted");
    CHECK(buffer_untouched(&x), "x changed by pe_add_table dim 0");

    const float scale = 1.5f;
    EXPECT_STATUS(pe_add_table(t, ROWS, DIM, scale, OFFSET, LENGTH, xp, n), PE_OK, "pe_add_table");
    int exact = 1;
    for (size_t k = 0; k < n; k++) {
        volatile float scaled = x.pristine[GUARD_FLOATS + k] * scale;
        volatile float want = scaled + t[OFFSET * DIM + k % (LENGTH * DIM)];
        if (memcmp(&x.data[k], (const void *)&want, sizeof(float))) {
            exact = 0;
            fprintf(stderr, "pe_add_table element %zu: %.9g, want %.9g\n", k, x.data[k], want);
            break;
        }
    }
    CHECK(exact, "pe_add_table is not float(float(x*scale) + table)");
    CHECK(buffer_untouched(&table), "pe_add_table wrote to its table");
    CHECK(guards_intact(&x), "a guard changed");
#undef REFUSED
    buffer_free(&x);
    buffer_free(&table);
}

/* Scratch at any byte alignment: the core stays inside scratch_bytes and
 * the result does not depend on where scratch sits. */
void test_scratch_alignment(void) {
    enum { ROWS = 70, PAD = 32 };
    const pe_sinusoid enc = {18, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    size_t need = table_scratch(enc.dim);
    buffer ref = buffer_new(ROWS * 18), out = buffer_new(ROWS * 18);
    unsigned char *block = malloc(need + 2 * PAD + 16);
    if (!block) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t shift = 0; shift < 16; shift++) {
        for (size_t k = 0; k < need + 2 * PAD + 16; k++) block[k] = (unsigned char)(0x5A ^ k);
        unsigned char *scratch = block + PAD + shift;
        EXPECT_STATUS(pe_table(&enc, 60, ROWS, shift ? out.data : ref.data, out.count, scratch, need), PE_OK,
                      "pe_table with scratch at +%zu bytes", shift);
        size_t bad = 0;
        for (size_t k = 0; k < need + 2 * PAD + 16; k++)
            if ((k < PAD + shift || k >= PAD + shift + need) && block[k] != (unsigned char)(0x5A ^ k)) bad++;
        CHECK(bad == 0, "%zu bytes written outside scratch at +%zu bytes", bad, shift);
        if (shift)
            CHECK(!memcmp(out.data, ref.data, out.count * sizeof(float)), "scratch at +%zu bytes changes the values",
                  shift);
    }
    CHECK(guards_intact(&out) && guards_intact(&ref), "a guard changed");
    free(block);
    buffer_free(&ref);
    buffer_free(&out);
}

/* Plans: refusals, a garbage plan, and one plan serving a long sequence of
 * calls (forwards, backwards, across 1024-position anchors, position lists
 * and adds) with exactly the bits of one-shot calls. */
void test_plan(void) {
    size_t need = table_scratch(DIM);
    unsigned char *memory = malloc(need);
    void *scratch = malloc(need);
    if (!memory || !scratch) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    pe_plan *plan = NULL;
    for (size_t e = 0; e < N_BAD_ENCODINGS; e++)
        EXPECT_STATUS(pe_plan_init(&bad_encodings[e].enc, memory, need, &plan), bad_encodings[e].want,
                      "pe_plan_init with %s", bad_encodings[e].what);
    EXPECT_STATUS(pe_plan_init(NULL, memory, need, &plan), PE_ERR_NULL, "pe_plan_init with enc NULL");
    EXPECT_STATUS(pe_plan_init(&good, NULL, need, &plan), PE_ERR_NULL, "pe_plan_init with memory NULL");
    EXPECT_STATUS(pe_plan_init(&good, memory, need, NULL), PE_ERR_NULL, "pe_plan_init with plan NULL");
    EXPECT_STATUS(pe_plan_init(&good, memory, need - 1, &plan), PE_ERR_SCRATCH, "pe_plan_init one byte short");

    buffer out = buffer_new(LENGTH * DIM);
    uint32_t positions[LENGTH] = {0, 1, 2, 3, 4};
    memset(memory, 0x5A, need); /* not a plan */
    plan = (pe_plan *)memory;
    EXPECT_STATUS(pe_plan_table(plan, 0, LENGTH, out.data, out.count), PE_ERR_PLAN, "pe_plan_table on garbage");
    EXPECT_STATUS(pe_plan_table_at(plan, positions, LENGTH, out.data, out.count), PE_ERR_PLAN,
                  "pe_plan_table_at on garbage");
    EXPECT_STATUS(pe_plan_add(plan, 1.0f, 0, LENGTH, out.data, out.count), PE_ERR_PLAN, "pe_plan_add on garbage");
    EXPECT_STATUS(pe_plan_table(NULL, 0, LENGTH, out.data, out.count), PE_ERR_NULL, "pe_plan_table on NULL");
    CHECK(buffer_untouched(&out), "a refused plan call wrote to out");
    buffer_free(&out);

    const pe_sinusoid enc = {DIM, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_TENSOR2TENSOR};
    EXPECT_STATUS(pe_plan_init(&enc, memory, need, &plan), PE_OK, "pe_plan_init");
    enum { MAX_ROWS = 200, CALLS = 400 };
    buffer got = buffer_new(MAX_ROWS * DIM), want = buffer_new(MAX_ROWS * DIM);
    uint32_t list[MAX_ROWS];
    uint32_t state = 0x9E3779B9u;
    size_t mismatches = 0;
    for (int call = 0; call < CALLS; call++) {
        uint32_t rows = next_random(&state) % MAX_ROWS;
        uint32_t offset = next_random(&state) % 5000;
        if (call % 7 == 0) offset += (1u << 24) - 2500;
        size_t count = (size_t)rows * DIM;
        switch (next_random(&state) % 3) {
        case 0:
            pe_plan_table(plan, offset, rows, got.data, count);
            pe_table(&enc, offset, rows, want.data, count, scratch, need);
            break;
        case 1:
            for (uint32_t r = 0; r < rows; r++) list[r] = next_random(&state) % 3000;
            pe_plan_table_at(plan, list, rows, got.data, count);
            pe_table_at(&enc, list, rows, want.data, count, scratch, need);
            break;
        default:
            for (size_t k = 0; k < count; k++) got.data[k] = want.data[k] = (float)(k % 17) - 8.0f;
            pe_plan_add(plan, 0.5f, offset, rows, got.data, count);
            pe_add(&enc, 0.5f, offset, rows, want.data, count, scratch, need);
        }
        if (memcmp(got.data, want.data, count * sizeof(float))) mismatches++;
    }
    CHECK(mismatches == 0, "%zu of %d plan calls differ from one-shot calls", mismatches, (int)CALLS);
    CHECK(guards_intact(&got) && guards_intact(&want), "a guard changed");
    buffer_free(&got);
    buffer_free(&want);
    free(memory);
    free(scratch);
}

/* The add's tile spans blocks and may fill in the middle of one: dims whose
 * tile is not a multiple of 64 rows, lengths around the tile, unaligned
 * offsets. The add on zeros must equal the table, bit for bit, per item. */
void test_add_tiles(void) {
    const uint32_t dims[] = {3000, 2050, 2048, 4096, 8194};
    const uint32_t offsets[] = {0, 37, 1000};
    size_t mismatches = 0, cases = 0;
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        const uint32_t dim = dims[di];
        const pe_sinusoid enc = {dim, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER};
        size_t need = table_scratch(dim);
        void *scratch = malloc(need);
        if (!scratch) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        const uint32_t tile = 524288u / dim - (524288u / dim) % 8;
        const uint32_t lengths[] = {1, tile - 1, tile, tile + 1, 2 * tile + 5, 150};
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
            for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++) {
                const uint32_t length = lengths[li], offset = offsets[oi];
                const size_t slab = (size_t)length * dim;
                buffer table = buffer_new(slab), x = buffer_new(3 * slab);
                memset(x.data, 0, 3 * slab * sizeof(float));
                pe_table(&enc, offset, length, table.data, slab, scratch, need);
                pe_add(&enc, 1.0f, offset, length, x.data, 3 * slab, scratch, need);
                for (int b = 0; b < 3; b++)
                    if (memcmp(x.data + b * slab, table.data, slab * sizeof(float))) mismatches++;
                CHECK(guards_intact(&x) && guards_intact(&table), "a guard changed (d=%u length %u)", dim, length);
                buffer_free(&table);
                buffer_free(&x);
                cases++;
            }
        }
        free(scratch);
    }
    CHECK(mismatches == 0, "%zu batch items of %zu cases differ from the table", mismatches, cases);
}

/* The one-shot calls refuse before building their plan in the scratch: each
 * refusal below (a bad argument after a good encoding and a big enough
 * scratch) leaves every scratch byte as it was. Issue 25's fuzz found them
 * building the plan first. */
#define REFUSED_UNTOUCHED(want, call)                                                   \
    do {                                                                                \
        EXPECT_STATUS(call, want, "%s", #call);                                         \
        CHECK(!memcmp(scratch, copy, need), "%s refused but wrote its scratch", #call); \
        memcpy(scratch, copy, need);                                                    \
    } while (0)

void test_one_shot_untouched(void) {
    const pe_sinusoid enc = {8, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER};
    size_t need = 0;
    EXPECT_STATUS(pe_scratch_size(enc.dim, &need), PE_OK, "scratch size");
    unsigned char *scratch = malloc(need), *copy = malloc(need);
    float out[4 * 8], x[4 * 8] = {0};
    const uint32_t ok_ids[2] = {1, 2}, bad[2] = {1, PE_MAX_POSITION};
    memset(scratch, 0xa5, need);
    memcpy(copy, scratch, need);
    REFUSED_UNTOUCHED(PE_ERR_POSITION, pe_table(&enc, PE_MAX_POSITION - 1, 2, out, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_OUT_SIZE, pe_table(&enc, 0, 2, out, 3, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_NULL, pe_table_at(&enc, NULL, 2, out, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_POSITION, pe_table_at(&enc, bad, 2, out, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_DTYPE, pe_table_dtype(&enc, (pe_dtype)99, 0, 2, out, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_NULL, pe_table_dtype(&enc, PE_DTYPE_FLOAT16, 0, 2, NULL, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_OUT_SIZE, pe_table_at_dtype(&enc, PE_DTYPE_BFLOAT16, ok_ids, 2, out, 5, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_RECIPE, pe_recipe_table(&enc, (pe_recipe)99, 0, 2, out, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_POSITION,
                      pe_recipe_table(&enc, PE_RECIPE_FLOAT32_ANGLE, PE_MAX_POSITION, 1, out, 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_SCALE, pe_add(&enc, NAN, 0, 2, x, 2 * 8, scratch, need));
    REFUSED_UNTOUCHED(PE_ERR_X_SIZE, pe_add(&enc, 1.0f, 0, 2, x, 2 * 8 + 1, scratch, need));
    /* The same calls with good arguments do use the scratch (so the check can see a write). */
    EXPECT_STATUS(pe_table(&enc, 0, 2, out, 2 * 8, scratch, need), PE_OK, "pe_table");
    CHECK(memcmp(scratch, copy, need) != 0, "pe_table built no plan in its scratch");
    free(scratch);
    free(copy);
}
