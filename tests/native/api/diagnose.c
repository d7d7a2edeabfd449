/* diagnose.c: pe_diagnose, pe_diagnosis_text / _json under ASan+UBSan:
 * refusals before anything is written, scratch confined to what
 * pe_diagnose_scratch_size asks for, every shape from 1 x 2 up (odd widths,
 * one row, transposed) read without a fault, and posenc's own tables read
 * back with their convention. The peers' tables are the JS corpus's job
 * (tests/diagnose-peers.test.js). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tests.h"

static void *scratch_for(uint32_t rows, uint32_t cols, size_t *need_bytes) {
    *need_bytes = 0;
    if (pe_diagnose_scratch_size(rows, cols, need_bytes) != PE_OK) return NULL;
    return malloc(*need_bytes);
}

static float *sinusoid(const pe_sinusoid *enc, uint32_t offset, uint32_t rows) {
    size_t need_bytes;
    pe_scratch_size(enc->dim, &need_bytes);
    void *scratch = malloc(need_bytes);
    float *t = malloc(sizeof(float) * rows * enc->dim);
    pe_table(enc, offset, rows, t, (size_t)rows * enc->dim, scratch, need_bytes);
    free(scratch);
    return t;
}

void test_diagnose_refusals(void) {
    size_t need_bytes, bad = 99;
    float table[8] = {0, 1, 0.8414709848f, 0.5403023059f, 0.9092974268f, -0.4161468365f, 0.1411200081f, -0.9899924966f};
    void *scratch = scratch_for(4, 2, &need_bytes);
    pe_diagnosis d;
    memset(&d, 0x5a, sizeof d);
    const unsigned char *raw = (const unsigned char *)&d;
    EXPECT_STATUS(pe_diagnose_scratch_size(0, 4, &need_bytes), PE_ERR_SHAPE, "scratch size of 0 rows");
    EXPECT_STATUS(pe_diagnose_scratch_size(1, 1, &need_bytes), PE_ERR_SHAPE, "scratch size of 1 x 1");
    EXPECT_STATUS(pe_diagnose_scratch_size(4, 2, NULL), PE_ERR_NULL, "scratch size without need_bytes");
    pe_diagnose_scratch_size(4, 2, &need_bytes);
    EXPECT_STATUS(pe_diagnose(NULL, 4, 2, PE_DIAG_AUTO, &d, &bad, scratch, need_bytes), PE_ERR_NULL, "no table");
    EXPECT_STATUS(pe_diagnose(table, 4, 2, PE_DIAG_AUTO, NULL, &bad, scratch, need_bytes), PE_ERR_NULL, "no result");
    EXPECT_STATUS(pe_diagnose(table, 4, 2, (pe_diag_kind)3, &d, &bad, scratch, need_bytes), PE_ERR_KIND, "kind 3");
    EXPECT_STATUS(pe_diagnose(table, 4, 2, PE_DIAG_AUTO, &d, &bad, scratch, need_bytes - 1), PE_ERR_SCRATCH,
                  "scratch short by 1");
    EXPECT_STATUS(pe_diagnose(table, 0, 2, PE_DIAG_AUTO, &d, &bad, scratch, need_bytes), PE_ERR_SHAPE, "0 rows");
    table[5] = NAN;
    EXPECT_STATUS(pe_diagnose(table, 4, 2, PE_DIAG_AUTO, &d, &bad, scratch, need_bytes), PE_ERR_NOT_FINITE,
                  "a NaN cell");
    CHECK(bad == 5, "bad cell %zu, expected 5", bad);
    table[5] = -INFINITY;
    EXPECT_STATUS(pe_diagnose(table, 4, 2, PE_DIAG_AUTO, &d, NULL, scratch, need_bytes), PE_ERR_NOT_FINITE,
                  "-inf, no bad_cell");
    int untouched = 1;
    for (size_t k = 0; k < sizeof d; k++) untouched &= raw[k] == 0x5a;
    CHECK(untouched, "a refused call wrote the result");
    char text[4];
    EXPECT_STATUS(pe_diagnosis_text(&d, text, 0, &need_bytes), PE_ERR_OUT_SIZE, "text into 0 need_bytes");
    EXPECT_STATUS(pe_diagnosis_json(NULL, text, 4, &need_bytes), PE_ERR_NULL, "json of no result");
    free(scratch);
}

typedef struct diag_job {
    const float *table;
    uint32_t rows, cols;
} diag_job;

static pe_status run_diagnose(const void *ctx, void *scratch, size_t need_bytes) {
    const diag_job *job = ctx;
    pe_diagnosis d;
    return pe_diagnose(job->table, job->rows, job->cols, PE_DIAG_AUTO, &d, NULL, scratch, need_bytes);
}

void test_diagnose_shapes(void) {
    /* every small shape, random and sinusoidal cells: no fault, text that fits or says how much it needs */
    uint32_t state = 12345;
    for (uint32_t rows = 1; rows <= 9; rows++) {
        for (uint32_t cols = 1; cols <= 11; cols++) {
            if (rows < 2 && cols < 2) continue;
            float *t = malloc(sizeof(float) * rows * cols);
            for (uint32_t k = 0; k < rows * cols; k++) {
                state = state * 1664525u + 1013904223u;
                t[k] = (k % 3 == 0) ? (float)(k % 7) / 7.0f : (float)(state >> 8) / 16777216.0f - 0.5f;
            }
            size_t need_bytes;
            void *scratch = scratch_for(rows, cols, &need_bytes);
            pe_diagnosis d;
            pe_status st = pe_diagnose(t, rows, cols, PE_DIAG_AUTO, &d, NULL, scratch, need_bytes);
            CHECK(st == PE_OK, "%u x %u: %s", rows, cols, pe_status_str(st));
            char small[32], big[8192];
            size_t need = 0, need2 = 0;
            pe_diagnosis_text(&d, small, sizeof small, &need);
            pe_diagnosis_text(&d, big, sizeof big, &need2);
            CHECK(need == need2 && strlen(small) == sizeof small - 1 && strlen(big) == need2, "%u x %u text lengths",
                  rows, cols);
            diag_job job = {t, rows, cols};
            if (rows == 4 && cols % 2 == 0) check_scratch_confined(run_diagnose, &job, need_bytes, "pe_diagnose");
            free(scratch);
            free(t);
        }
    }
}

void test_diagnose_values(void) {
    /* posenc's own tables: split tensor2tensor from 2 (fairseq), interleaved paper base 500000, transposed */
    pe_sinusoid fairseq = {64, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_TENSOR2TENSOR};
    float *t = sinusoid(&fairseq, 2, 300);
    size_t need_bytes;
    void *scratch = scratch_for(300, 64, &need_bytes);
    pe_diagnosis d;
    EXPECT_STATUS(pe_diagnose(t, 300, 64, PE_DIAG_AUTO, &d, NULL, scratch, need_bytes), PE_OK, "fairseq");
    CHECK(d.identified && d.layout == PE_LAYOUT_SPLIT && !d.cos_first && d.rule == 1 && d.base == 10000.0 &&
              d.offset == 2.0 && d.recipe == PE_DIAG_RECIPE_EXACT && d.max_error == 0.0,
          "fairseq: identified %d layout %d rule %d base %g offset %g recipe %d error %g", d.identified, d.layout,
          d.rule, d.base, d.offset, d.recipe, d.max_error);
    float *u = malloc(sizeof(float) * 300 * 64);
    for (uint32_t r = 0; r < 300; r++)
        for (uint32_t c = 0; c < 64; c++) u[c * 300 + r] = t[r * 64 + c];
    EXPECT_STATUS(pe_diagnose(u, 64, 300, PE_DIAG_TABLE, &d, NULL, scratch, need_bytes), PE_OK, "transposed");
    CHECK(d.transposed && d.identified && d.rows == 300 && d.offset == 2.0, "transposed %d identified %d rows %u",
          d.transposed, d.identified, d.rows);
    free(t);
    free(u);
    free(scratch);
    pe_sinusoid big = {128, 500000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER};
    t = sinusoid(&big, 0, 1000);
    scratch = scratch_for(1000, 128, &need_bytes);
    EXPECT_STATUS(pe_diagnose(t, 1000, 128, PE_DIAG_AUTO, &d, NULL, scratch, need_bytes), PE_OK, "base 500000");
    CHECK(d.identified && d.layout == PE_LAYOUT_INTERLEAVED && d.rule == 0 && d.base == 500000.0 && d.base_digits >= 6,
          "base 500000: identified %d layout %d rule %d base %g digits %d", d.identified, d.layout, d.rule, d.base,
          d.base_digits);
    free(t);
    free(scratch);
}
