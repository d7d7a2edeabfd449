/* table2d.c: 2-D tables (pe_table_2d_scratch_size, pe_table_2d): refusals, values, scratch. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "support.h"
#include "tests.h"

typedef struct {
    pe_grid2d grid;
    pe_status want;
    const char *what;
} bad_grid;

static const bad_grid bad_grids[] = {
    {{3, 4, 0, 10000.0, 0}, PE_ERR_DIM_RANGE, "dim 0"},
    {{3, 4, PE_MAX_DIM + 4, 10000.0, 0}, PE_ERR_DIM_RANGE, "dim 65540"},
    {{3, 4, 2, 10000.0, 0}, PE_ERR_DIM_2D, "dim 2"},
    {{3, 4, 6, 10000.0, 0}, PE_ERR_DIM_2D, "dim 6"},
    {{3, 4, 7, 10000.0, 0}, PE_ERR_DIM_2D, "dim 7"},
    {{3, 4, 8, NAN, 0}, PE_ERR_BASE, "base NaN"},
    {{3, 4, 8, 1.0, 0}, PE_ERR_BASE, "base 1"},
    {{3, 4, 8, -INFINITY, 0}, PE_ERR_BASE, "base -inf"},
    {{PE_MAX_POSITION + 1, 4, 8, 10000.0, 0}, PE_ERR_POSITION, "height 2^31+1"},
    {{3, 0xFFFFFFFFu, 8, 10000.0, 1}, PE_ERR_POSITION, "width 2^32-1"},
};
#define N_BAD_GRIDS (sizeof bad_grids / sizeof bad_grids[0])

static size_t grid_scratch(const pe_grid2d *grid) {
    size_t need = 0;
    pe_status st = pe_table_2d_scratch_size(grid, &need);
    if (st != PE_OK) {
        fprintf(stderr, "pe_table_2d_scratch_size: %s\n", pe_status_str(st));
        exit(2);
    }
    return need;
}

void test_table_2d_refusals(void) {
    const pe_grid2d grid = {3, 4, 8, 10000.0, 1};
    const size_t n = (1 + 3 * 4) * 8, need = grid_scratch(&grid);
    buffer out = buffer_new(n);
    void *sc = scratch_of(need);
    float *o = out.data;
    size_t bytes_out = 12345;

    EXPECT_STATUS(pe_table_2d_scratch_size(NULL, &bytes_out), PE_ERR_NULL, "2d scratch NULL grid");
    EXPECT_STATUS(pe_table_2d_scratch_size(&grid, NULL), PE_ERR_NULL, "2d scratch NULL bytes");
    REFUSED(&out, pe_table_2d(NULL, o, n, sc, need), PE_ERR_NULL, "2d NULL grid");
    for (size_t k = 0; k < N_BAD_GRIDS; k++) {
        EXPECT_STATUS(pe_table_2d_scratch_size(&bad_grids[k].grid, &bytes_out), bad_grids[k].want, "2d scratch %s",
                      bad_grids[k].what);
        REFUSED(&out, pe_table_2d(&bad_grids[k].grid, o, n, sc, need), bad_grids[k].want, "2d %s", bad_grids[k].what);
    }
    CHECK(bytes_out == 12345, "a refused pe_table_2d_scratch_size wrote %zu", bytes_out);
    REFUSED(&out, pe_table_2d(&grid, o, n - 1, sc, need), PE_ERR_OUT_SIZE, "2d out_count - 1");
    REFUSED(&out, pe_table_2d(&grid, o, n - 8, sc, need), PE_ERR_OUT_SIZE, "2d out_count without the cls row");
    REFUSED(&out, pe_table_2d(&grid, o, n + 1, sc, need), PE_ERR_OUT_SIZE, "2d out_count + 1");
    REFUSED(&out, pe_table_2d(&grid, NULL, n, sc, need), PE_ERR_NULL, "2d NULL out");
    REFUSED(&out, pe_table_2d(&grid, o, n, NULL, need), PE_ERR_NULL, "2d NULL scratch");
    REFUSED(&out, pe_table_2d(&grid, o, n, sc, need - 1), PE_ERR_SCRATCH, "2d scratch - 1");
    REFUSED(&out, pe_table_2d(&grid, o, n, sc, 0), PE_ERR_SCRATCH, "2d scratch 0");

    /* Edges that must work: the largest grid's size, and an empty grid. */
    const pe_grid2d huge = {PE_MAX_POSITION, PE_MAX_POSITION, PE_MAX_DIM, 10000.0, 1};
    EXPECT_STATUS(pe_table_2d_scratch_size(&huge, &bytes_out), PE_OK, "2d scratch for 2^31 x 2^31 x 65536");
    CHECK(bytes_out > (size_t)2 * PE_MAX_POSITION * (PE_MAX_DIM / 2) * sizeof(float),
          "2d scratch for 2^31 x 2^31 x 65536 is only %zu bytes", bytes_out);
    const pe_grid2d empty = {0, 4, 8, 10000.0, 0};
    size_t empty_need = grid_scratch(&empty);
    void *empty_sc = scratch_of(empty_need);
    EXPECT_STATUS(pe_table_2d(&empty, NULL, 0, empty_sc, empty_need), PE_OK, "2d height 0");
    CHECK(buffer_untouched(&out), "out written by refused or empty calls");
    free(empty_sc);
    free(sc);
    buffer_free(&out);
}

/* Token y * width + x = [1-D split row x of dim/2 | 1-D split row y of dim/2],
 * after a row of +0 with cls_token; and a few values against the oracle. */
static void check_table_2d(const pe_grid2d *grid, const char *what) {
    const uint32_t h = grid->height, w = grid->width, d = grid->dim, half = d / 2;
    const size_t cls = grid->cls_token ? 1 : 0, n = (cls + (size_t)h * w) * d, need = grid_scratch(grid);
    const pe_sinusoid half_enc = {half, grid->base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    const uint32_t lines = h > w ? h : w;
    const size_t line_need = table_scratch(half);
    buffer out = buffer_new(n), one_d = buffer_new((size_t)lines * half);
    void *sc = scratch_of(need), *line_sc = scratch_of(line_need);
    EXPECT_STATUS(pe_table_2d(grid, out.data, n, sc, need), PE_OK, "2d %s", what);
    EXPECT_STATUS(pe_table(&half_enc, 0, lines, one_d.data, one_d.count, line_sc, line_need), PE_OK,
                  "1-D table of dim/2");
    size_t zero_bits = 0;
    for (size_t j = 0; j < cls * d; j++) zero_bits += float_bits(out.data[j]) == 0;
    CHECK(zero_bits == cls * d, "2d %s: the cls row is not +0", what);
    size_t differ = 0;
    long double worst = 0.0L;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const float *token = out.data + (cls + (size_t)y * w + x) * d;
            differ += memcmp(token, one_d.data + (size_t)x * half, half * sizeof(float)) != 0;
            differ += memcmp(token + half, one_d.data + (size_t)y * half, half * sizeof(float)) != 0;
            for (uint32_t i = 0; i < half / 2; i++) {
                const long double wi = ref_frequency(grid->base, i, half / 2);
                const long double e[4] = {
                    fabsl(token[i] - ref_sin(x * wi)), fabsl(token[half / 2 + i] - ref_cos(x * wi)),
                    fabsl(token[half + i] - ref_sin(y * wi)), fabsl(token[half + half / 2 + i] - ref_cos(y * wi))};
                for (int k = 0; k < 4; k++) worst = e[k] > worst ? e[k] : worst;
            }
        }
    CHECK(differ == 0, "2d %s: %zu half-rows differ from the 1-D table (column first, then row)", what, differ);
    CHECK(worst <= 6e-8L, "2d %s: off by %Lg from the exact sin and cos", what, worst);
    CHECK(guards_intact(&out) && guards_intact(&one_d), "a guard changed (%s)", what);
    free(sc);
    free(line_sc);
    buffer_free(&out);
    buffer_free(&one_d);
}

void test_table_2d_values(void) {
    const pe_grid2d grids[] = {
        {3, 5, 12, 10000.0, 1},  {5, 3, 8, 10000.0, 0},
        {1, 1, 4, 100.0, 1},     {14, 14, 32, 10000.0, 1}, /* ViT-style 14 x 14 patches */
        {70, 2, 16, 10000.0, 0},                           /* rows past a 64-row block */
    };
    const char *names[] = {"3 x 5, dim 12, cls", "5 x 3, dim 8", "1 x 1, dim 4, base 100, cls", "14 x 14, dim 32, cls",
                           "70 x 2, dim 16"};
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++) check_table_2d(&grids[k], names[k]);

    /* Height 0 with cls_token: the one row of zeros. */
    const pe_grid2d only_cls = {0, 7, 8, 10000.0, 1};
    const size_t need = grid_scratch(&only_cls);
    void *sc = scratch_of(need);
    buffer out = buffer_new(8);
    EXPECT_STATUS(pe_table_2d(&only_cls, out.data, 8, sc, need), PE_OK, "2d height 0, cls");
    size_t zero_bits = 0;
    for (int j = 0; j < 8; j++) zero_bits += float_bits(out.data[j]) == 0;
    CHECK(zero_bits == 8 && guards_intact(&out), "2d height 0 with cls: not one row of +0");
    free(sc);
    buffer_free(&out);
}

typedef struct {
    pe_grid2d grid;
    float *out;
    size_t count;
} grid_job;

static pe_status run_table_2d(const void *ctx, void *scratch, size_t scratch_bytes) {
    const grid_job *j = ctx;
    return pe_table_2d(&j->grid, j->out, j->count, scratch, scratch_bytes);
}

/* pe_table_2d given exactly the scratch it asks for stays inside it. */
void test_table_2d_scratch_confined(void) {
    const pe_grid2d grids[] = {{3, 5, 12, 10000.0, 1}, {1, 1, 4, 10000.0, 0}, {7, 9, 260, 10000.0, 0}};
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++) {
        grid_job job = {grids[k], NULL,
                        ((grids[k].cls_token ? 1 : 0) + (size_t)grids[k].height * grids[k].width) * grids[k].dim};
        buffer out = buffer_new(job.count);
        job.out = out.data;
        check_scratch_confined(run_table_2d, &job, grid_scratch(&job.grid), "pe_table_2d");
        CHECK(guards_intact(&out), "a guard changed");
        buffer_free(&out);
    }
}
