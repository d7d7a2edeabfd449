/* C API tests of RoPE on several position axes (posenc.h, pe_rope_axes):
 * every bad axes setting or position refused before anything is written, by
 * every entry point; mrope with three equal axes gives plain RoPE's bits; a
 * unit pair under 2-D RoPE comes out as the sinusoidal table of dim r/2 at
 * the patch's row or column, bit for bit (its cos and sin are that table's). */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tests.h"

static pe_rotary axes_rope(pe_rope_axes_type type, uint32_t head_dim, uint32_t rotary_dim) {
    pe_rotary r;
    memset(&r, 0, sizeof r);
    r.head_dim = head_dim;
    r.rotary_dim = rotary_dim;
    r.heads = 2;
    r.base = 10000.0;
    r.layout = PE_LAYOUT_SPLIT;
    r.axes.type = type;
    if (type == PE_ROPE_AXES_MROPE) {
        r.axes.mrope_section[0] = rotary_dim / 8;
        r.axes.mrope_section[1] = rotary_dim / 8;
        r.axes.mrope_section[2] = rotary_dim / 2 - 2 * (rotary_dim / 8);
    }
    return r;
}

void test_rope_axes_refusals(void) {
    pe_rotary bad[6];
    for (int k = 0; k < 6; k++) bad[k] = axes_rope(PE_ROPE_AXES_MROPE, 16, 16);
    bad[0].axes.type = (pe_rope_axes_type)3;
    bad[1].axes.mrope_section[2] = 5; /* 2 + 2 + 5 != 8 */
    bad[2].axes.mrope_section[0] = 0, bad[2].axes.mrope_section[2] = 6;
    bad[3] = axes_rope(PE_ROPE_AXES_VISION_2D, 16, 14); /* 14 % 4 */
    bad[4] = axes_rope(PE_ROPE_AXES_VISION_2D, 16, 16);
    bad[4].scaling.type = PE_ROPE_SCALING_LINEAR, bad[4].scaling.factor = 2.0;
    bad[5].axes.mrope_section[1] = UINT32_MAX; /* a sum past uint32 */
    const uint32_t length = 3;
    buffer x = buffer_new(length * 2 * 16);
    for (size_t i = 0; i < x.count; i++) x.data[i] = (float)i / 7.0f;
    buffer_snapshot(&x);
    void *scratch = scratch_of(1 << 20);
    double w[8], factor = 12.0;
    size_t size = 99;
    for (int k = 0; k < 6; k++) {
        EXPECT_STATUS(pe_rope_scratch_size(&bad[k], &size), PE_ERR_AXES, "scratch size, bad axes %d", k);
        EXPECT_STATUS(pe_rope_plan_size(&bad[k], 16, &size), PE_ERR_AXES, "plan size, bad axes %d", k);
        EXPECT_STATUS(pe_rope_frequencies(&bad[k], w, 8, &factor), PE_ERR_AXES, "frequencies, bad axes %d", k);
        REFUSED(&x, pe_rope(&bad[k], 0, length, NULL, x.data, x.count, scratch, 1 << 20), PE_ERR_AXES, "pe_rope %d", k);
    }
    CHECK(size == 99 && factor == 12.0, "a refused call wrote its output");

    /* Positions: 2-D needs them; every axis's are checked; offset only without them. */
    const pe_rotary vision = axes_rope(PE_ROPE_AXES_VISION_2D, 16, 16), mrope = axes_rope(PE_ROPE_AXES_MROPE, 16, 16);
    uint32_t ids[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    REFUSED(&x, pe_rope(&vision, 0, length, NULL, x.data, x.count, scratch, 1 << 20), PE_ERR_POSITION, "2-D, no ids");
    REFUSED(&x, pe_rope(&mrope, 1, length, ids, x.data, x.count, scratch, 1 << 20), PE_ERR_POSITION, "offset and ids");
    ids[8] = PE_MAX_POSITION; /* the last row's width */
    REFUSED(&x, pe_rope(&mrope, 0, length, ids, x.data, x.count, scratch, 1 << 20), PE_ERR_POSITION, "width too large");
    ids[8] = 8, ids[5] = PE_MAX_POSITION; /* the second row's column, read as 2-D: row 2, axis 1 */
    REFUSED(&x, pe_rope(&vision, 0, length, ids, x.data, x.count, scratch, 1 << 20), PE_ERR_POSITION, "2-D column");
    ids[5] = 5;
    /* A plan refuses alike, and its cos/sin too. */
    pe_rope_plan *plan;
    EXPECT_STATUS(pe_rope_plan_init(&vision, 64, scratch, 1 << 20, &plan), PE_OK, "2-D plan");
    REFUSED(&x, pe_rope_plan_apply(plan, PE_DTYPE_FLOAT32, 0, 0, length, NULL, x.data, x.count), PE_ERR_POSITION,
            "2-D plan, no ids");
    buffer cs = buffer_new(2 * length * 8);
    buffer_snapshot(&cs);
    REFUSED(&cs,
            pe_rope_plan_cos_sin(plan, PE_DTYPE_FLOAT32, 0, 0, length, NULL, cs.data, cs.data + length * 8, length * 8),
            PE_ERR_POSITION, "2-D cos/sin, no ids");
    EXPECT_STATUS(pe_rope_plan_apply(plan, PE_DTYPE_FLOAT32, 0, 0, length, ids, x.data, x.count), PE_OK, "2-D plan");
    CHECK(guards_intact(&x), "2-D plan wrote past x");
    size_t with_cache = 0, without = 0;
    pe_rope_plan_size(&vision, 64, &with_cache);
    pe_rope_plan_size(&vision, 0, &without);
    CHECK(with_cache == without, "a 2-D plan sized a cache it never uses (%zu vs %zu bytes)", with_cache, without);
    buffer_free(&cs);
    buffer_free(&x);
    free(scratch);
}

void test_rope_axes_values(void) {
    void *scratch = scratch_of(1 << 20);
    uint32_t seed = 12345;
    /* mrope with three equal axes: plain RoPE's bits, offset or listed. */
    for (uint32_t r = 8; r <= 40; r += 4) {
        const uint32_t length = 37, head_dim = r + 2, count = length * 2 * head_dim;
        pe_rotary mrope = axes_rope(PE_ROPE_AXES_MROPE, head_dim, r), plain = mrope;
        plain.axes.type = PE_ROPE_AXES_NONE;
        float *x = malloc(count * sizeof(float)), *y = malloc(count * sizeof(float));
        uint32_t *ids = malloc(3 * length * sizeof(uint32_t));
        for (uint32_t i = 0; i < count; i++) x[i] = y[i] = random_float(&seed, 4.0f);
        for (uint32_t l = 0; l < length; l++) ids[3 * l] = ids[3 * l + 1] = ids[3 * l + 2] = 1000 + 3 * l;
        uint32_t *plain_ids = malloc(length * sizeof(uint32_t));
        for (uint32_t l = 0; l < length; l++) plain_ids[l] = 1000 + 3 * l;
        EXPECT_STATUS(pe_rope(&plain, 0, length, plain_ids, x, count, scratch, 1 << 20), PE_OK, "plain");
        EXPECT_STATUS(pe_rope(&mrope, 0, length, ids, y, count, scratch, 1 << 20), PE_OK, "mrope");
        CHECK(!memcmp(x, y, count * sizeof(float)), "r %u: mrope with equal axes differs from plain RoPE", r);
        free(x), free(y), free(ids), free(plain_ids);
    }
    /* 2-D: unit pairs rotate into the table of dim r/2 at the row (first q pairs) or the column. */
    const uint32_t r = 24, q = r / 4, row = 37, column = 1234567;
    pe_rotary vision = axes_rope(PE_ROPE_AXES_VISION_2D, r, r);
    vision.heads = 1;
    const pe_sinusoid half = {r / 2, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    float table_row[12], table_column[12], x[24];
    pe_table(&half, row, 1, table_row, 12, scratch, 1 << 20);
    pe_table(&half, column, 1, table_column, 12, scratch, 1 << 20);
    const uint32_t ids[2] = {row, column};
    for (uint32_t i = 0; i < r / 2; i++) {
        memset(x, 0, sizeof x);
        x[i] = 1.0f; /* x1 of pair i: (cos, sin) of its angle come out */
        EXPECT_STATUS(pe_rope(&vision, 0, 1, ids, x, 24, scratch, 1 << 20), PE_OK, "2-D unit pair");
        const float *t = i < q ? table_row : table_column;
        const uint32_t j = i % q; /* the table's pair: each axis restarts at w_0 */
        CHECK(float_bits(x[i]) == float_bits(t[q + j]) && float_bits(x[i + r / 2]) == float_bits(t[j]),
              "pair %u: (%.9g, %.9g), the table's (cos, sin) = (%.9g, %.9g)", i, x[i], x[i + r / 2], t[q + j], t[j]);
    }
    free(scratch);
}
