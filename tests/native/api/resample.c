/* resample.c: pe_resample_table: refusals and values. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"
#include "tests.h"

void test_resample_refusals(void) {
    enum { ROWS = 3, DIM5 = 5, NEW_ROWS = 4 };
    buffer table = buffer_new(ROWS * DIM5), out = buffer_new(NEW_ROWS * DIM5);
    for (size_t k = 0; k < table.count; k++) table.data[k] = (float)k - 4.5f;
    buffer_snapshot(&table);
    const float *t = table.data;
    float *o = out.data;
    const size_t n = out.count;

    REFUSED(&out, pe_resample_table(t, ROWS, 0, NEW_ROWS, o, 0), PE_ERR_DIM_RANGE, "resample dim 0");
    REFUSED(&out, pe_resample_table(t, ROWS, PE_MAX_DIM + 1, NEW_ROWS, o, (size_t)NEW_ROWS * (PE_MAX_DIM + 1)),
            PE_ERR_DIM_RANGE, "resample dim 65537");
    REFUSED(&out, pe_resample_table(t, ROWS, DIM5, NEW_ROWS, o, n - 1), PE_ERR_OUT_SIZE, "resample out_count - 1");
    REFUSED(&out, pe_resample_table(t, ROWS, DIM5, NEW_ROWS, o, n + 1), PE_ERR_OUT_SIZE, "resample out_count + 1");
    REFUSED(&out, pe_resample_table(t, ROWS, DIM5, NEW_ROWS, o, 0), PE_ERR_OUT_SIZE, "resample out_count 0");
    REFUSED(&out, pe_resample_table(t, 0, DIM5, NEW_ROWS, o, n), PE_ERR_TABLE_ROWS, "resample rows 0");
    REFUSED(&out, pe_resample_table(NULL, ROWS, DIM5, NEW_ROWS, o, n), PE_ERR_NULL, "resample NULL table");
    REFUSED(&out, pe_resample_table(t, ROWS, DIM5, NEW_ROWS, NULL, n), PE_ERR_NULL, "resample NULL out");
    EXPECT_STATUS(pe_resample_table(NULL, 0, DIM5, 0, NULL, 0), PE_OK, "resample 0 rows to 0 rows");
    CHECK(buffer_untouched(&table), "a refused resample wrote to its table");
    buffer_free(&out);

    /* Overlap, in one block: the table, then room for one row after it. */
    buffer both = buffer_new(ROWS * DIM5 + DIM5);
    for (size_t k = 0; k < both.count; k++) both.data[k] = (float)k;
    buffer_snapshot(&both);
    float *b = both.data;
    REFUSED(&both, pe_resample_table(b, ROWS, DIM5, ROWS, b, ROWS * DIM5), PE_ERR_OVERLAP, "resample in place");
    REFUSED(&both, pe_resample_table(b, ROWS, DIM5, 1, b + ROWS * DIM5 - 1, DIM5), PE_ERR_OVERLAP,
            "resample out sharing the table's last float");
    REFUSED(&both, pe_resample_table(b + DIM5, ROWS, DIM5, 1, b + 1, DIM5), PE_ERR_OVERLAP,
            "resample out sharing the table's first float");
    /* Adjacent is not overlapping: one row out (row 0) right after the table. */
    EXPECT_STATUS(pe_resample_table(b, ROWS, DIM5, 1, b + ROWS * DIM5, DIM5), PE_OK,
                  "resample out right after the table");
    CHECK(!memcmp(b + ROWS * DIM5, b, DIM5 * sizeof(float)), "new_rows 1 is not row 0");
    EXPECT_STATUS(pe_resample_table(b + DIM5, ROWS, DIM5, 1, b, DIM5), PE_OK, "resample out right before the table");
    CHECK(!memcmp(b, both.pristine + GUARD_FLOATS + DIM5, DIM5 * sizeof(float)), "out before the table is not row 0");
    CHECK(guards_intact(&both), "a guard changed");
    buffer_free(&both);
    buffer_free(&table);
}

/* New row r reads old position x = r (rows - 1) / (new_rows - 1) = i + t.
 * Whole x: an exact copy. Otherwise the exact (1 - t) a + t b, formed in long
 * double, must round to out within the header's slack of 2^-51 (|a| + |b|). */
static size_t resample_mismatches(const float *table, uint32_t rows, uint32_t dim, const float *out,
                                  uint32_t new_rows) {
    size_t wrong = 0;
    for (uint32_t r = 0; r < new_rows; r++) {
        const uint64_t num = new_rows > 1 ? (uint64_t)r * (rows - 1) : 0, den = new_rows > 1 ? new_rows - 1u : 1;
        const uint64_t i = num / den, part = num % den;
        for (uint32_t j = 0; j < dim; j++) {
            const float got = out[(size_t)r * dim + j], a = table[i * dim + j];
            int ok;
            if (part == 0) {
                ok = float_bits(got) == float_bits(a);
            } else {
                const float b = table[(i + 1) * dim + j];
                const long double exact = ((long double)a * (long double)(den - part) + (long double)b * part) / den;
                ok = near_enough(got, exact, 0x1p-51L * (fabsl(a) + fabsl(b)));
            }
            if (!ok && !wrong)
                fprintf(stderr, "resample %u -> %u rows: row %u column %u is %a\n", rows, new_rows, r, j, got);
            wrong += !ok;
        }
    }
    return wrong;
}

void test_resample_values(void) {
    const struct {
        uint32_t rows, dim, new_rows;
    } shapes[] = {
        {6, 8, 6},  /* the same size: the input, bit for bit */
        {2, 7, 3},  /* the midpoint row, odd dim */
        {4, 5, 7},  /* every other row a midpoint */
        {2, 9, 4},  /* thirds */
        {5, 4, 2},  /* shrinking: the first and last rows */
        {7, 3, 1},  /* new_rows 1: row 0 */
        {1, 6, 4},  /* rows 1: the row repeated */
        {3, 16, 5}, /* rows - 1 divides new_rows - 1: whole rows are copies */
        {50, 33, 77}, {77, 33, 50},
    };
    uint32_t state = 0x12345678u;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const uint32_t rows = shapes[s].rows, dim = shapes[s].dim, new_rows = shapes[s].new_rows;
        buffer table = buffer_new((size_t)rows * dim), out = buffer_new((size_t)new_rows * dim);
        buffer scalar = buffer_new(out.count);
        for (size_t k = 0; k < table.count; k++) table.data[k] = random_float(&state, k % 3 ? 1.0f : 300.0f);
        buffer_snapshot(&table);
        EXPECT_STATUS(pe_resample_table(table.data, rows, dim, new_rows, out.data, out.count), PE_OK,
                      "resample %u -> %u rows of %u", rows, new_rows, dim);
        CHECK(resample_mismatches(table.data, rows, dim, out.data, new_rows) == 0,
              "resample %u -> %u rows of %u: values", rows, new_rows, dim);
        use_kernels(PE_KERNELS_SCALAR);
        EXPECT_STATUS(pe_resample_table(table.data, rows, dim, new_rows, scalar.data, scalar.count), PE_OK,
                      "scalar resample");
        use_kernels(PE_KERNELS_SIMD);
        CHECK(!memcmp(out.data, scalar.data, out.count * sizeof(float)),
              "resample %u -> %u: scalar and SIMD kernels differ", rows, new_rows);
        if (rows == new_rows)
            CHECK(!memcmp(out.data, table.data, out.count * sizeof(float)),
                  "resample to the same size changed the table");
        CHECK(buffer_untouched(&table) && guards_intact(&out) && guards_intact(&scalar), "table or a guard changed");
        buffer_free(&table);
        buffer_free(&out);
        buffer_free(&scalar);
    }

    /* Two rows to three: the middle row is the midpoint, exactly here. */
    const float two_rows[2 * 3] = {1.0f, -2.0f, 0.25f, 3.0f, 6.0f, -0.25f};
    float three_rows[3 * 3];
    EXPECT_STATUS(pe_resample_table(two_rows, 2, 3, 3, three_rows, 9), PE_OK, "resample 2 -> 3");
    CHECK(three_rows[3] == 2.0f && three_rows[4] == 2.0f && three_rows[5] == 0.0f, "midpoints are %g %g %g, want 2 2 0",
          three_rows[3], three_rows[4], three_rows[5]);
}
