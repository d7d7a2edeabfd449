/* precision.c: float16, bfloat16 and float64 tables (pe_narrow_f64, the dtype calls). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halves.h"
#include "reference.h"
#include "support.h"
#include "tests.h"

void test_narrow_refusals(void) {
    const double in[3] = {1.0, 2.0, 3.0};
    bytes out = bytes_new(3 * sizeof(double));
    REFUSED(&out, pe_narrow_f64((pe_dtype)4, in, 3, out.data, 3), PE_ERR_DTYPE, "narrow dtype 4");
    REFUSED(&out, pe_narrow_f64((pe_dtype)0xFFFFFFFFu, in, 3, out.data, 3), PE_ERR_DTYPE, "narrow dtype 0xFFFFFFFF");
    for (int d = 0; d < 4; d++) {
        REFUSED(&out, pe_narrow_f64((pe_dtype)d, NULL, 3, out.data, 3), PE_ERR_NULL, "narrow dtype %d NULL in", d);
        REFUSED(&out, pe_narrow_f64((pe_dtype)d, in, 3, NULL, 3), PE_ERR_NULL, "narrow dtype %d NULL out", d);
        REFUSED(&out, pe_narrow_f64((pe_dtype)d, in, 3, out.data, 2), PE_ERR_OUT_SIZE, "narrow dtype %d out_count - 1",
                d);
        REFUSED(&out, pe_narrow_f64((pe_dtype)d, in, 3, out.data, 4), PE_ERR_OUT_SIZE, "narrow dtype %d out_count + 1",
                d);
        EXPECT_STATUS(pe_narrow_f64((pe_dtype)d, NULL, 0, NULL, 0), PE_OK, "narrow dtype %d count 0", d);
    }
    CHECK(bytes_untouched(&out), "an empty narrow wrote");
    bytes_free(&out);
}

static uint16_t narrow_one(double x, pe_dtype dtype) {
    uint16_t h = 0xDEAD;
    if (pe_narrow_f64(dtype, &x, 1, &h, 1) != PE_OK) return 0xDEAD;
    return h;
}

void test_narrow_known_values(void) {
    const struct {
        double x;
        uint16_t f16, bf16;
        const char *what;
    } known[] = {
        {1.0, 0x3C00, 0x3F80, "1"},
        {-2.0, 0xC000, 0xC000, "-2"},
        {0.1, 0x2E66, 0x3DCD, "0.1"},
        {-0.0, 0x8000, 0x8000, "-0"},
        {65504.0, 0x7BFF, 0x4780, "float16's largest"},
        {65519.999, 0x7BFF, 0x4780, "just below float16's overflow midpoint"},
        {65520.0, 0x7C00, 0x4780, "float16's overflow midpoint"},
        {-1e300, 0xFC00, 0xFF80, "-1e300"},
        {INFINITY, 0x7C00, 0x7F80, "+inf"},
        {0x1p-24, 0x0001, 0x3380, "float16's smallest subnormal"},
        {0x1p-25, 0x0000, 0x3300, "half of it: a tie, to even 0"},
        {0x1.0000000000001p-25, 0x0001, 0x3300, "just above that tie"},
        {0x3p-25, 0x0002, 0x33C0, "1.5 subnormals: a tie, to even 2"},
        {0x1p-14 - 0x1p-25, 0x0400, 0x3880, "a tie below the smallest normal, to even"},
        {1.0 + 0x1p-11, 0x3C00, 0x3F80, "1 + half a float16 ulp: tie to even"},
        {1.0 + 0x3p-11, 0x3C02, 0x3F80, "1 + 1.5 float16 ulp: tie to even"},
        /* One rounding from float64: through float32 these would become ties
         * and round down. */
        {1.0 + 0x1p-11 + 0x1p-40, 0x3C01, 0x3F80, "just above a float16 tie"},
        {1.0 + 0x1p-8 + 0x1p-40, 0x3C04, 0x3F81, "just above a bfloat16 tie"},
        {0x1.FEp127, 0x7C00, 0x7F7F, "bfloat16's largest"},
        {0x1.FFp127, 0x7C00, 0x7F80, "bfloat16's overflow midpoint"},
        {0x1p-133, 0x0000, 0x0001, "bfloat16's smallest subnormal"},
        {0x1p-134, 0x0000, 0x0000, "half of it: to even 0"},
        {0x1p-1074, 0x0000, 0x0000, "the smallest double"},
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        const uint16_t h = narrow_one(known[k].x, PE_DTYPE_FLOAT16), b = narrow_one(known[k].x, PE_DTYPE_BFLOAT16);
        CHECK(h == known[k].f16, "float16 of %s (%a): 0x%04x, want 0x%04x", known[k].what, known[k].x, h, known[k].f16);
        CHECK(b == known[k].bf16, "bfloat16 of %s (%a): 0x%04x, want 0x%04x", known[k].what, known[k].x, b,
              known[k].bf16);
        /* The test's own rounding must agree with the table too. */
        CHECK(round_half(known[k].x, &F16) == known[k].f16 && round_half(known[k].x, &BF16) == known[k].bf16,
              "the reference rounding is wrong for %s", known[k].what);
    }
    /* NaN stays NaN, quiet, whatever its payload (here a signalling one). */
    const double nans[2] = {NAN, double_of_bits(0xFFF0000000000001ull)};
    for (int k = 0; k < 2; k++) {
        const uint16_t h = narrow_one(nans[k], PE_DTYPE_FLOAT16), b = narrow_one(nans[k], PE_DTYPE_BFLOAT16);
        CHECK((h & 0x7C00) == 0x7C00 && (h & 0x0200), "float16 of NaN %d: 0x%04x is not a quiet NaN", k, h);
        CHECK((b & 0x7F80) == 0x7F80 && (b & 0x0040), "bfloat16 of NaN %d: 0x%04x is not a quiet NaN", k, b);
    }
    /* FLOAT32 and FLOAT64 are the cast and the copy. */
    const double in[4] = {0.1, -1e300, 0x1p-149 * 0.75, 3.0000000000000004};
    float f[4];
    double d[4];
    EXPECT_STATUS(pe_narrow_f64(PE_DTYPE_FLOAT32, in, 4, f, 4), PE_OK, "narrow to float32");
    EXPECT_STATUS(pe_narrow_f64(PE_DTYPE_FLOAT64, in, 4, d, 4), PE_OK, "narrow to float64");
    const float want_f[4] = {0.1f, -INFINITY, 0x1p-149f, 3.0f};
    CHECK(!memcmp(f, want_f, sizeof f), "float32 narrowing is not the nearest float");
    CHECK(!memcmp(d, in, sizeof d), "float64 narrowing is not a copy");
}

/* Doubles spread over the format's whole range, and around its ties. */
static double interesting_double(uint32_t *state, const half_format *fmt) {
    const uint32_t kind = next_random(state) % 4;
    if (kind == 0) { /* any double whose exponent is near the format's range */
        const int span = 2 * fmt->bias + fmt->fraction + 8;
        const uint64_t e =
            (uint64_t)(1023 - fmt->bias - fmt->fraction - 4 + (int)(next_random(state) % (uint32_t)span));
        const uint64_t frac = ((uint64_t)next_random(state) << 20) ^ next_random(state);
        return double_of_bits((uint64_t)(next_random(state) & 1) << 63 | e << 52 | (frac & ((1ull << 52) - 1)));
    }
    /* A finite value of the format, moved half an ulp up: a tie, then nudged
     * by one double ulp either way (kind 2, 3). */
    uint16_t h;
    do h = (uint16_t)next_random(state);
    while ((h & fmt->inf) == fmt->inf);
    const double v = widen_half(h, fmt);
    const double next = widen_half((uint16_t)(h + 1), fmt);
    if ((uint16_t)(h + 1) == (fmt->inf | (h & 0x8000))) return v; /* the largest: its own value */
    const double tie = v + (next - v) / 2;                        /* exact: one more bit */
    const uint64_t t = double_bits(tie);
    return kind == 1 ? tie : kind == 2 ? double_of_bits(t + 1) : double_of_bits(t - 1);
}

void test_narrow_sweep(void) {
    enum { COUNT = 40000 };
    const half_format *formats[2] = {&F16, &BF16};
    const pe_dtype dtypes[2] = {PE_DTYPE_FLOAT16, PE_DTYPE_BFLOAT16};
    double *in = malloc(COUNT * sizeof(double));
    bytes out = bytes_new(COUNT * sizeof(uint16_t));
    if (!in) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (int f = 0; f < 2; f++) {
        uint32_t state = 2024u + (uint32_t)f;
        for (int k = 0; k < COUNT; k++) in[k] = interesting_double(&state, formats[f]);
        for (int kernels = 0; kernels < 2; kernels++) {
            use_kernels((pe_kernels)kernels);
            EXPECT_STATUS(pe_narrow_f64(dtypes[f], in, COUNT, out.data, COUNT), PE_OK, "narrow sweep");
            size_t wrong = 0;
            for (int k = 0; k < COUNT; k++) {
                uint16_t got;
                memcpy(&got, out.data + 2 * k, 2);
                const uint16_t want = round_half(in[k], formats[f]);
                if (got != want && !wrong++)
                    fprintf(stderr, "%s of %a: 0x%04x, want 0x%04x\n", formats[f]->name, in[k], got, want);
            }
            CHECK(wrong == 0, "%zu of %d %s roundings differ (kernels %d)", wrong, COUNT, formats[f]->name, kernels);
        }
    }
    use_kernels(PE_KERNELS_SIMD);
    CHECK(bytes_guards_intact(&out), "a guard changed");
    free(in);
    bytes_free(&out);
}

static size_t dtype_size(pe_dtype dtype) {
    return dtype == PE_DTYPE_FLOAT64 ? 8 : dtype == PE_DTYPE_FLOAT32 ? 4 : 2;
}

void test_table_dtype_refusals(void) {
    enum { LEN = 5, N = LEN * 8 };
    const size_t need = table_scratch(8);
    void *sc = scratch_of(need);
    bytes out = bytes_new(N * sizeof(double));
    void *o = out.data;
    const uint32_t max = PE_MAX_POSITION;
    const uint32_t pos[LEN] = {9, 10, 11, 0, 4000};
    const pe_sinusoid bad_encs[] = {
        {0, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, {7, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER},
        {8, 1.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER},     {8, 10000.0, (pe_layout)2, PE_FREQ_PAPER},
        {8, 10000.0, PE_LAYOUT_SPLIT, (pe_frequencies)2},
    };
    const pe_status bad_wants[] = {PE_ERR_DIM_RANGE, PE_ERR_DIM_ODD, PE_ERR_BASE, PE_ERR_LAYOUT, PE_ERR_FREQUENCIES};

    REFUSED(&out, pe_table_dtype(&enc8, (pe_dtype)4, 0, LEN, o, N, sc, need), PE_ERR_DTYPE, "table_dtype dtype 4");
    REFUSED(&out, pe_table_at_dtype(&enc8, (pe_dtype)4, pos, LEN, o, N, sc, need), PE_ERR_DTYPE,
            "table_at_dtype dtype 4");
    for (int d = 0; d < 4; d++) {
        const pe_dtype dt = (pe_dtype)d;
        REFUSED(&out, pe_table_dtype(NULL, dt, 0, LEN, o, N, sc, need), PE_ERR_NULL, "table_dtype %d NULL enc", d);
        REFUSED(&out, pe_table_at_dtype(NULL, dt, pos, LEN, o, N, sc, need), PE_ERR_NULL, "table_at_dtype %d NULL enc",
                d);
        for (size_t k = 0; k < sizeof bad_encs / sizeof bad_encs[0]; k++) {
            REFUSED(&out, pe_table_dtype(&bad_encs[k], dt, 0, 1, o, bad_encs[k].dim, sc, need), bad_wants[k],
                    "table_dtype %d bad encoding %zu", d, k);
            REFUSED(&out, pe_table_at_dtype(&bad_encs[k], dt, pos, 1, o, bad_encs[k].dim, sc, need), bad_wants[k],
                    "table_at_dtype %d bad encoding %zu", d, k);
        }
        REFUSED(&out, pe_table_dtype(&enc8, dt, 0, LEN, o, N, NULL, need), PE_ERR_NULL, "table_dtype %d NULL scratch",
                d);
        REFUSED(&out, pe_table_dtype(&enc8, dt, 0, LEN, o, N, sc, need - 1), PE_ERR_SCRATCH,
                "table_dtype %d scratch - 1", d);
        REFUSED(&out, pe_table_at_dtype(&enc8, dt, pos, LEN, o, N, sc, need - 1), PE_ERR_SCRATCH,
                "table_at_dtype %d scratch - 1", d);
        REFUSED(&out, pe_table_dtype(&enc8, dt, max - LEN + 1, LEN, o, N, sc, need), PE_ERR_POSITION,
                "table_dtype %d offset+length 2^31+1", d);
        REFUSED(&out, pe_table_dtype(&enc8, dt, 0xFFFFFFFFu, LEN, o, N, sc, need), PE_ERR_POSITION,
                "table_dtype %d offset+length wraps", d);
        REFUSED(&out, pe_table_dtype(&enc8, dt, 0, LEN, o, N - 1, sc, need), PE_ERR_OUT_SIZE,
                "table_dtype %d out_count - 1", d);
        REFUSED(&out, pe_table_dtype(&enc8, dt, 0, LEN, o, N + 8, sc, need), PE_ERR_OUT_SIZE,
                "table_dtype %d out_count + dim", d);
        REFUSED(&out, pe_table_dtype(&enc8, dt, 0, LEN, NULL, N, sc, need), PE_ERR_NULL, "table_dtype %d NULL out", d);
        REFUSED(&out, pe_table_at_dtype(&enc8, dt, NULL, LEN, o, N, sc, need), PE_ERR_NULL,
                "table_at_dtype %d NULL positions", d);
        REFUSED(&out, pe_table_at_dtype(&enc8, dt, pos, LEN, NULL, N, sc, need), PE_ERR_NULL,
                "table_at_dtype %d NULL out", d);
        REFUSED(&out, pe_table_at_dtype(&enc8, dt, pos, LEN, o, N + 1, sc, need), PE_ERR_OUT_SIZE,
                "table_at_dtype %d out_count + 1", d);
        REFUSED(&out, pe_table_at_dtype(&enc8, dt, pos, SIZE_MAX, o, N, sc, need), PE_ERR_TOO_LARGE,
                "table_at_dtype %d count SIZE_MAX", d);
        const uint32_t too_far[] = {max, 0xFFFFFFFFu};
        for (int k = 0; k < 2; k++) {
            uint32_t bad[LEN];
            memcpy(bad, pos, sizeof bad);
            bad[LEN - 1] = too_far[k];
            REFUSED(&out, pe_table_at_dtype(&enc8, dt, bad, LEN, o, N, sc, need), PE_ERR_POSITION,
                    "table_at_dtype %d position %u", d, too_far[k]);
        }
        EXPECT_STATUS(pe_table_dtype(&enc8, dt, max, 0, NULL, 0, sc, need), PE_OK, "table_dtype %d length 0 at 2^31",
                      d);
        EXPECT_STATUS(pe_table_at_dtype(&enc8, dt, NULL, 0, NULL, 0, sc, need), PE_OK, "table_at_dtype %d count 0", d);
    }
    CHECK(bytes_untouched(&out), "an empty call wrote");
    free(sc);
    bytes_free(&out);
}

void test_plan_table_dtype_refusals(void) {
    enum { LEN = 5, N = LEN * 8 };
    const size_t need = table_scratch(8);
    unsigned char *memory = scratch_of(need);
    bytes out = bytes_new(N * sizeof(double));
    void *o = out.data;
    const uint32_t pos[LEN] = {1, 2, 3, 4, 5};
    pe_plan *plan = NULL;

    memset(memory, 0x5A, need); /* not a plan */
    pe_plan *garbage = (pe_plan *)(void *)memory;
    for (int d = 0; d < 4; d++) {
        const pe_dtype dt = (pe_dtype)d;
        REFUSED(&out, pe_plan_table_dtype(NULL, dt, 0, LEN, o, N), PE_ERR_NULL, "plan_table_dtype %d NULL plan", d);
        REFUSED(&out, pe_plan_table_dtype(garbage, dt, 0, LEN, o, N), PE_ERR_PLAN, "plan_table_dtype %d garbage plan",
                d);
        REFUSED(&out, pe_plan_table_at_dtype(NULL, dt, pos, LEN, o, N), PE_ERR_NULL, "plan_table_at_dtype %d NULL plan",
                d);
        REFUSED(&out, pe_plan_table_at_dtype(garbage, dt, pos, LEN, o, N), PE_ERR_PLAN,
                "plan_table_at_dtype %d garbage", d);
    }
    EXPECT_STATUS(pe_plan_init(&enc8, memory, need, &plan), PE_OK, "plan");
    REFUSED(&out, pe_plan_table_dtype(plan, (pe_dtype)4, 0, LEN, o, N), PE_ERR_DTYPE, "plan_table_dtype dtype 4");
    REFUSED(&out, pe_plan_table_at_dtype(plan, (pe_dtype)4, pos, LEN, o, N), PE_ERR_DTYPE,
            "plan_table_at_dtype dtype 4");
    for (int d = 0; d < 4; d++) {
        const pe_dtype dt = (pe_dtype)d;
        REFUSED(&out, pe_plan_table_dtype(plan, dt, PE_MAX_POSITION, 1, o, 8), PE_ERR_POSITION,
                "plan_table_dtype %d offset 2^31", d);
        REFUSED(&out, pe_plan_table_dtype(plan, dt, 0, LEN, o, N - 1), PE_ERR_OUT_SIZE,
                "plan_table_dtype %d out_count - 1", d);
        REFUSED(&out, pe_plan_table_dtype(plan, dt, 0, LEN, NULL, N), PE_ERR_NULL, "plan_table_dtype %d NULL out", d);
        REFUSED(&out, pe_plan_table_at_dtype(plan, dt, NULL, LEN, o, N), PE_ERR_NULL,
                "plan_table_at_dtype %d NULL positions", d);
        REFUSED(&out, pe_plan_table_at_dtype(plan, dt, pos, LEN, o, 0), PE_ERR_OUT_SIZE,
                "plan_table_at_dtype %d out_count 0", d);
        REFUSED(&out, pe_plan_table_at_dtype(plan, dt, pos, SIZE_MAX / 8 + 1, o, N), PE_ERR_TOO_LARGE,
                "plan_table_at_dtype %d count*dim overflows", d);
    }
    free(memory);
    bytes_free(&out);
}

/* A table in every dtype, checked against each other and the oracle:
 *   float64 within 1e-12 of the exact sin and cos (header);
 *   float32 the same bits as pe_table, and the float32 rounding of float64;
 *   float16 and bfloat16 the test's own rounding of float64, bit for bit. */
static void check_table_dtypes(const pe_sinusoid *enc, uint32_t offset, uint32_t length, const char *what) {
    const uint32_t d = enc->dim, half = d / 2;
    const size_t n = (size_t)length * d, need = table_scratch(d);
    void *sc = scratch_of(need);
    bytes f64 = bytes_new(n * 8), f32 = bytes_new(n * 4), f16 = bytes_new(n * 2), bf16 = bytes_new(n * 2);
    buffer plain = buffer_new(n);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_FLOAT64, offset, length, f64.data, n, sc, need), PE_OK, "%s float64",
                  what);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_FLOAT32, offset, length, f32.data, n, sc, need), PE_OK, "%s float32",
                  what);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_FLOAT16, offset, length, f16.data, n, sc, need), PE_OK, "%s float16",
                  what);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_BFLOAT16, offset, length, bf16.data, n, sc, need), PE_OK, "%s bfloat16",
                  what);
    EXPECT_STATUS(pe_table(enc, offset, length, plain.data, n, sc, need), PE_OK, "%s pe_table", what);
    const double *v64 = (const double *)(const void *)f64.data;
    long double worst = 0.0L;
    size_t wrong32 = 0, wrong16 = 0, wrongbf = 0;
    for (uint32_t r = 0; r < length; r++)
        for (uint32_t i = 0; i < half; i++) {
            const long double angle = (long double)(offset + r) * ref_frequency(enc->base, i, half);
            const uint32_t sin_col = enc->layout == PE_LAYOUT_SPLIT ? i : 2 * i;
            const uint32_t cos_col = enc->layout == PE_LAYOUT_SPLIT ? half + i : 2 * i + 1;
            const long double es = fabsl(v64[(size_t)r * d + sin_col] - ref_sin(angle));
            const long double ec = fabsl(v64[(size_t)r * d + cos_col] - ref_cos(angle));
            worst = es > worst ? es : worst;
            worst = ec > worst ? ec : worst;
        }
    for (size_t k = 0; k < n; k++) {
        float g32;
        uint16_t g16, gbf;
        memcpy(&g32, f32.data + 4 * k, 4);
        memcpy(&g16, f16.data + 2 * k, 2);
        memcpy(&gbf, bf16.data + 2 * k, 2);
        wrong32 += float_bits(g32) != float_bits(plain.data[k]) || float_bits(g32) != float_bits((float)v64[k]);
        wrong16 += g16 != round_half(v64[k], &F16);
        wrongbf += gbf != round_half(v64[k], &BF16);
    }
    CHECK(worst <= 1e-12L, "%s: float64 off by %Lg from exact", what, worst);
    CHECK(wrong32 == 0, "%s: %zu float32 values are not pe_table's or float64's rounding", what, wrong32);
    CHECK(wrong16 == 0, "%s: %zu float16 values are not float64 rounded once", what, wrong16);
    CHECK(wrongbf == 0, "%s: %zu bfloat16 values are not float64 rounded once", what, wrongbf);

    /* Scalar kernels give the same bits. */
    bytes again = bytes_new(n * 8);
    use_kernels(PE_KERNELS_SCALAR);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_FLOAT64, offset, length, again.data, n, sc, need), PE_OK,
                  "scalar float64");
    CHECK(!memcmp(again.data, f64.data, n * 8), "%s: scalar and SIMD float64 differ", what);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_FLOAT16, offset, length, again.data, n, sc, need), PE_OK,
                  "scalar float16");
    CHECK(!memcmp(again.data, f16.data, n * 2), "%s: scalar and SIMD float16 differ", what);
    EXPECT_STATUS(pe_table_dtype(enc, PE_DTYPE_BFLOAT16, offset, length, again.data, n, sc, need), PE_OK,
                  "scalar bfloat16");
    CHECK(!memcmp(again.data, bf16.data, n * 2), "%s: scalar and SIMD bfloat16 differ", what);
    use_kernels(PE_KERNELS_SIMD);
    CHECK(bytes_guards_intact(&f64) && bytes_guards_intact(&f32) && bytes_guards_intact(&f16) &&
              bytes_guards_intact(&bf16) && bytes_guards_intact(&again) && guards_intact(&plain),
          "a guard changed (%s)", what);
    free(sc);
    bytes_free(&f64);
    bytes_free(&f32);
    bytes_free(&f16);
    bytes_free(&bf16);
    bytes_free(&again);
    buffer_free(&plain);
}

void test_table_dtype_values(void) {
    check_table_dtypes(&enc8, 0, 70, "d=8 interleaved, rows 0..69");
    const pe_sinusoid split12 = {12, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    check_table_dtypes(&split12, 1000, 130, "d=12 split, rows 1000..1129");
    /* base 2^16, d = 8: w_i = 2^(-4i) exactly, so the oracle holds at 2^31. */
    const pe_sinusoid exact_w = {8, 65536.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    check_table_dtypes(&exact_w, PE_MAX_POSITION - 70, 70, "d=8 base 2^16, the last 70 rows below 2^31");
}

/* Position lists and plans give the same bits as the one-shot range. */
void test_table_at_dtype_values(void) {
    enum { LEN = 9 };
    const pe_sinusoid enc = {10, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    const uint32_t positions[LEN] = {5, 6, 7, 63, 64, PE_MAX_POSITION - 1, 0, 5, 1u << 24};
    const size_t n = (size_t)LEN * 10, need = table_scratch(10);
    void *sc = scratch_of(need);
    unsigned char *memory = scratch_of(need);
    pe_plan *plan = NULL;
    EXPECT_STATUS(pe_plan_init(&enc, memory, need, &plan), PE_OK, "plan");
    for (int d = 0; d < 4; d++) {
        const pe_dtype dt = (pe_dtype)d;
        const size_t size = dtype_size(dt), row = 10 * size;
        bytes listed = bytes_new(n * size), planned = bytes_new(n * size), one = bytes_new(row),
              range = bytes_new(4 * row);
        EXPECT_STATUS(pe_table_at_dtype(&enc, dt, positions, LEN, listed.data, n, sc, need), PE_OK, "table_at_dtype %d",
                      d);
        EXPECT_STATUS(pe_plan_table_at_dtype(plan, dt, positions, LEN, planned.data, n), PE_OK,
                      "plan_table_at_dtype %d", d);
        CHECK(!memcmp(listed.data, planned.data, n * size), "dtype %d: plan and one-shot position lists differ", d);
        size_t differ = 0;
        for (int k = 0; k < LEN; k++) {
            EXPECT_STATUS(pe_table_dtype(&enc, dt, positions[k], 1, one.data, 10, sc, need), PE_OK, "table_dtype %d",
                          d);
            differ += memcmp(one.data, listed.data + k * row, row) != 0;
        }
        CHECK(differ == 0, "dtype %d: %zu listed rows differ from the same rows by offset", d, differ);
        EXPECT_STATUS(pe_plan_table_dtype(plan, dt, 4, 4, range.data, 40), PE_OK, "plan_table_dtype %d", d);
        CHECK(!memcmp(range.data + row, listed.data, 3 * row), "dtype %d: plan rows 5..7 differ from the list's", d);
        CHECK(bytes_guards_intact(&listed) && bytes_guards_intact(&planned) && bytes_guards_intact(&one) &&
                  bytes_guards_intact(&range),
              "a guard changed (dtype %d)", d);
        bytes_free(&listed);
        bytes_free(&planned);
        bytes_free(&one);
        bytes_free(&range);
    }
    free(sc);
    free(memory);
}
