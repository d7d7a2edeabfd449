/* RoPE: checks, scratch, and the rotation of x tile by tile. cos and sin of
 * a tile of rows come from a plan for the scaled frequencies (the sinusoidal
 * table's machinery, so they have its accuracy and bits), are laid out for
 * the kernel once per tile, and serve every batch item and head. */
#include <float.h>

#include "common/check.h"
#include "common/kernel_table.h"
#include "sinusoid/plan.h"
#include "sinusoid/rope/rope_kernels.h"

/* Floats of cos/sin per tile: with r <= 512 a tile is a whole 64-row block,
 * so the plan never recomputes the rows before a tile's first. */
#define PE_ROPE_TILE_FLOATS 32768u

static size_t align16(size_t bytes) {
    return (bytes + 15) & ~(size_t)15;
}

static uint32_t rotary_of(const pe_rotary *rope) {
    return rope->rotary_dim ? rope->rotary_dim : rope->head_dim;
}

/* Rows per tile: a power of two from 8 to PE_BLOCK_ROWS, so tiles aligned to
 * their size never straddle a block. */
static uint32_t tile_rows(uint32_t r) {
    uint32_t rows = PE_BLOCK_ROWS;
    while (rows > 8 && (size_t)rows * r > PE_ROPE_TILE_FLOATS) rows /= 2;
    return rows;
}

/* Scratch: the plan, w, a tile of raw [sin | cos] rows, a tile of [C | S] rows. */
static size_t scratch_bytes_for(uint32_t r) {
    size_t rows = tile_rows(r);
    return 16 + align16(pe_plan_bytes(r)) + align16((size_t)(r / 2) * sizeof(double)) +
           align16(rows * r * sizeof(float)) + align16(rows * 2 * r * sizeof(float));
}

static pe_status check_rope(const pe_rotary *rope) {
    if (!rope) return PE_ERR_NULL;
    if (rope->head_dim == 0 || rope->head_dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE;
    const uint32_t r = rotary_of(rope);
    if (r % 2 || r > rope->head_dim) return PE_ERR_ROTARY_DIM;
    if (rope->heads == 0 || rope->heads > PE_MAX_HEADS) return PE_ERR_HEADS;
    if (!(rope->base > 1.0 && rope->base <= DBL_MAX)) return PE_ERR_BASE; /* NaN fails too */
    if ((unsigned)rope->layout > PE_LAYOUT_SPLIT) return PE_ERR_LAYOUT;
    if ((unsigned)rope->order > PE_ROPE_BHLD) return PE_ERR_ORDER;
    return pe_rope_check_scaling(&rope->scaling, r);
}

pe_status pe_rope_scratch_size(const pe_rotary *rope, size_t *bytes) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    if (!bytes) return PE_ERR_NULL;
    *bytes = scratch_bytes_for(rotary_of(rope));
    return PE_OK;
}

pe_status pe_rope_frequencies(const pe_rotary *rope, double *w, size_t w_count, double *attention_factor) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    if (w_count != rotary_of(rope) / 2) return PE_ERR_OUT_SIZE;
    if (!w || !attention_factor) return PE_ERR_NULL;
    double factor;
    if ((st = pe_rope_scaled_frequencies(rope, rope->scaling.sequence_length, w, &factor)) != PE_OK) return st;
    *attention_factor = factor;
    return PE_OK;
}

/* [sin | cos] rows from the plan -> [C | S] rows in the layout of x's pairs,
 * scaled by the attention factor in float32 (HF: cos * factor, sin * factor). */
static void lay_out(const float *raw, float *cs, uint32_t rows, uint32_t r, pe_layout layout, float factor,
                    int inverse) {
    const uint32_t half = r / 2;
    for (uint32_t k = 0; k < rows; k++) {
        const float *sin_row = raw + (size_t)k * r, *cos_row = sin_row + half;
        float *c = cs + (size_t)k * 2 * r, *s = c + r;
        for (uint32_t i = 0; i < half; i++) {
            float cv = cos_row[i] * factor, sv = sin_row[i] * factor;
            float first = inverse ? sv : -sv; /* S of x1: x1' = x1 cos - x2 sin */
            uint32_t j1 = layout == PE_LAYOUT_SPLIT ? i : 2 * i;
            uint32_t j2 = layout == PE_LAYOUT_SPLIT ? i + half : 2 * i + 1;
            c[j1] = c[j2] = cv;
            s[j1] = first;
            s[j2] = -first;
        }
    }
}

pe_status pe_rope(const pe_rotary *rope, uint32_t offset, uint32_t length, const uint32_t *positions, float *x,
                  size_t x_count, void *scratch, size_t scratch_bytes) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    const uint32_t r = rotary_of(rope);
    size_t row, slab;
    if ((st = pe_check_product(rope->heads, rope->head_dim, &row)) != PE_OK) return st;
    if ((st = pe_check_product(length, row, &slab)) != PE_OK) return st;
    if (slab == 0 ? x_count != 0 : x_count % slab != 0) return PE_ERR_X_SIZE;
    if (x_count && !x) return PE_ERR_NULL;
    /* The largest position + 1: dynamic NTK's sequence length by default. */
    uint32_t end = 0;
    if (positions) {
        if (offset != 0) return PE_ERR_POSITION;
        for (uint32_t l = 0; l < length; l++) {
            if (positions[l] >= PE_MAX_POSITION) return PE_ERR_POSITION;
            if (positions[l] + 1 > end) end = positions[l] + 1;
        }
    } else {
        if ((uint64_t)offset + length > PE_MAX_POSITION) return PE_ERR_POSITION;
        end = offset + length;
    }
    if (!scratch) return PE_ERR_NULL;
    if (scratch_bytes < scratch_bytes_for(r)) return PE_ERR_SCRATCH;

    /* Scratch, aligned to 16: plan | w | raw tile | cs tile. */
    unsigned char *at = (unsigned char *)(((uintptr_t)scratch + 15) & ~(uintptr_t)15);
    void *plan_memory = at;
    const size_t plan_bytes = pe_plan_bytes(r);
    at += align16(plan_bytes);
    double *w = (double *)at;
    at += align16((size_t)(r / 2) * sizeof(double));
    const uint32_t rows = tile_rows(r);
    float *raw = (float *)at;
    float *cs = (float *)(at + align16((size_t)rows * r * sizeof(float)));

    double factor;
    uint32_t seq_len = rope->scaling.sequence_length ? rope->scaling.sequence_length : end;
    if ((st = pe_rope_scaled_frequencies(rope, seq_len, w, &factor)) != PE_OK) return st;
    /* Unscaled frequencies take the sinusoidal table's own plan (w_i in
     * double-double, the same bits as pe_table); scaled ones are the doubles
     * the formulas give. */
    const pe_rope_scaling *sc = &rope->scaling;
    const int unscaled = sc->type == PE_ROPE_SCALING_NONE ||
                         (sc->type == PE_ROPE_SCALING_DYNAMIC && seq_len <= sc->original_max_position_embeddings);
    const pe_sinusoid enc = {r, rope->base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    pe_plan *plan;
    st = unscaled ? pe_plan_init(&enc, plan_memory, plan_bytes, &plan)
                  : pe_plan_init_frequencies(r, PE_LAYOUT_SPLIT, w, plan_memory, plan_bytes, &plan);
    if (st != PE_OK) return st == PE_ERR_FREQUENCY_VALUE ? PE_ERR_SCALING : st;
    if (x_count == 0) return PE_OK;

    const pe_rope_rotate_fn rotate = pe_kernel_table_current()->rope_rotate;
    const size_t dim = rope->head_dim, heads = rope->heads, batch = x_count / slab;
    for (uint32_t l0 = 0; l0 < length;) {
        /* A tile ends where an aligned tile of absolute positions ends. */
        uint32_t g = positions ? rows : rows - (offset + l0) % rows;
        if (g > length - l0) g = length - l0;
        if (positions)
            pe_plan_table_at(plan, positions + l0, g, raw, (size_t)g * r);
        else
            pe_plan_table(plan, offset + l0, g, raw, (size_t)g * r);
        lay_out(raw, cs, g, r, rope->layout, (float)factor, rope->inverse);
        for (size_t b = 0; b < batch; b++) {
            if (rope->order == PE_ROPE_BLHD) {
                for (uint32_t k = 0; k < g; k++)
                    rotate(x + ((b * length + l0 + k) * heads) * dim, heads, dim, cs + (size_t)k * 2 * r, 0, r,
                           rope->layout);
            } else {
                for (size_t h = 0; h < heads; h++)
                    rotate(x + ((b * heads + h) * length + l0) * dim, g, dim, cs, (size_t)2 * r, r, rope->layout);
            }
        }
        l0 += g;
    }
    return PE_OK;
}
