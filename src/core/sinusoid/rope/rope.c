/* RoPE: checks, plans, and the rotation of x tile by tile. cos and sin of a
 * tile of rows come from a sinusoidal plan for the scaled frequencies (the
 * table's machinery, so they have its accuracy and bits), are laid out for the
 * kernel once per tile (or read from the plan's cache, laid out the same way
 * at init), and serve every batch item and head. pe_rope is a plan made in
 * scratch and applied once, so the two give the same bits by construction. */
#include <float.h>
#include <string.h>

#include "common/check.h"
#include "common/kernel_table.h"
#include "sinusoid/plan.h"
#include "sinusoid/rope/rope_axes.h"
#include "sinusoid/rope/rope_kernels.h"
#include "sinusoid/rope/rope_xpos.h"

/* Floats of cos/sin per tile: with r <= 512 a tile is a whole 64-row block,
 * so the plan never recomputes the rows before a tile's first. */
#define PE_ROPE_TILE_FLOATS 32768u
/* Floats of the row buffer (at least 2 * rotary_dim: a row of doubles). */
#define PE_ROPE_WIDE_FLOATS 256u
#define PE_ROPE_PLAN_MAGIC  0x726f7065u /* "rope" */
#define PE_ROPE_NOT_BUILT   UINT32_MAX

struct pe_rope_plan {
    uint32_t magic;
    pe_rotary rope;
    uint32_t r, tile_rows, wide_floats, cache_rows;
    uint32_t cs_row;    /* floats of a laid-out [C | S] row: 2 * pe_rope_cs_floats (rope_kernels.h) */
    uint32_t built_for; /* DYNAMIC's L the inner plan holds (0: unscaled), or PE_ROPE_NOT_BUILT */
    int built;          /* nonzero once the inner plan for built_for is whole: an L may equal PE_ROPE_NOT_BUILT */
    uint32_t tile_at;   /* cs holds the whole aligned tile of rows from this position, or PE_ROPE_NOT_BUILT */
    double factor;      /* the attention factor */
    pe_plan *plan;      /* cos and sin of the scaled w */
    void *plan_memory;
    double *w;
    double *lz;             /* xPos: ln(zeta_i) / scale_base (rope_xpos.h) */
    float *raw;             /* a tile of [sin | cos] rows from the plan */
    float *cs;              /* a tile of [C | S] rows (rope_kernels.h); float64 rows for pe_rope_plan_cos_sin */
    float *wide;            /* a row of float64 for pe_rope_plan_cos_sin */
    float *cache;           /* cache_rows [C | S] rows, positions 0 ... cache_rows - 1 */
    pe_rope_axis_runs runs; /* several position axes (rope_axes.h): runs.axes > 0 */
    float *axis_rows;       /* runs.axes > 0: a tile of one axis's inner rows (float64 rows fit) */
    uint32_t *axis_ids;     /* runs.axes > 0: a tile of one axis's positions */
};

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

/* Room for a float64 row of r values. */
static uint32_t wide_floats(uint32_t r) {
    return 2 * r > PE_ROPE_WIDE_FLOATS ? 2 * r : PE_ROPE_WIDE_FLOATS;
}

/* Scalings whose frequencies follow each call's sequence length. */
static int follows_length(const pe_rope_scaling *sc) {
    return sc->type == PE_ROPE_SCALING_DYNAMIC || sc->type == PE_ROPE_SCALING_LONGROPE;
}

static int dynamic_unfixed(const pe_rotary *rope) {
    return follows_length(&rope->scaling) && rope->scaling.sequence_length == 0;
}

/* Rows the plan caches: none while the frequencies follow each call, nor for
 * 2-D RoPE (its rows always come from two positions). */
static uint32_t cacheable_rows(const pe_rotary *rope, uint32_t cache_rows) {
    return dynamic_unfixed(rope) || rope->axes.type == PE_ROPE_AXES_VISION_2D ? 0 : cache_rows;
}

/* Plan memory, aligned to 16: header | inner plan | w (then LongRoPE's short
 * and long factors, then xPos's lz) | raw | cs | wide | axis rows and ids (several axes only) | cache
 * (cache_rows laid-out rows; cs holds a tile of float64 rows too, so 2r floats a row). */
static size_t plan_bytes_for(const pe_rotary *rope, uint32_t cache_rows) {
    const uint32_t r = rotary_of(rope), cs_row = 2 * pe_rope_cs_floats(r, rope->layout);
    const int axes = rope->axes.type != PE_ROPE_AXES_NONE;
    const size_t rows = tile_rows(r);
    return 16 + align16(sizeof(pe_rope_plan)) + align16(pe_plan_bytes(r)) +
           align16((size_t)4 * (r / 2) * sizeof(double)) + align16(rows * r * sizeof(float)) +
           align16(rows * 2 * r * sizeof(float)) + align16((size_t)wide_floats(r) * sizeof(float)) +
           (axes ? align16(rows * 2 * r * sizeof(float)) + align16(rows * sizeof(uint32_t)) : 0) +
           (size_t)cache_rows * cs_row * sizeof(float);
}

static pe_status check_rope(const pe_rotary *rope) {
    if (!rope) return PE_ERR_NULL;
    if (rope->head_dim == 0 || rope->head_dim > PE_MAX_DIM) return PE_ERR_DIM_RANGE;
    const uint32_t r = rotary_of(rope);
    if (r % 2 || r > rope->head_dim) return PE_ERR_ROTARY_DIM;
    if (rope->heads == 0 || rope->heads > PE_MAX_HEADS) return PE_ERR_HEADS;
    if (pe_check_base(rope->base) != PE_OK) return PE_ERR_BASE;
    if ((unsigned)rope->layout > PE_LAYOUT_SPLIT) return PE_ERR_LAYOUT;
    if ((unsigned)rope->order > PE_ROPE_BHLD) return PE_ERR_ORDER;
    pe_status st = pe_rope_check_scaling(&rope->scaling, r);
    if (st == PE_OK) st = pe_rope_check_axes(rope, r);
    if (st == PE_OK) st = pe_xpos_check(&rope->xpos, rope->scaling.type);
    /* xPos's scales follow one position per row: not with several axes. */
    if (st == PE_OK && pe_xpos_on(&rope->xpos) && rope->axes.type != PE_ROPE_AXES_NONE) st = PE_ERR_XPOS;
    return st;
}

pe_status pe_rope_scratch_size(const pe_rotary *rope, size_t *bytes) {
    return pe_rope_plan_size(rope, 0, bytes);
}

pe_status pe_rope_plan_size(const pe_rotary *rope, uint32_t cache_rows, size_t *bytes) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    if (cache_rows > PE_ROPE_MAX_CACHE_ROWS) return PE_ERR_TOO_LARGE;
    if (!bytes) return PE_ERR_NULL;
    *bytes = plan_bytes_for(rope, cacheable_rows(rope, cache_rows));
    return PE_OK;
}

pe_status pe_rope_xpos_reach(const pe_rotary *rope, uint32_t *reach) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    if (!reach) return PE_ERR_NULL;
    *reach = PE_MAX_POSITION;
    if (pe_xpos_on(&rope->xpos)) {
        double lz0;
        pe_xpos_log_zeta(&rope->xpos, 1, &lz0); /* pair 0 is the same for every r */
        *reach = pe_xpos_reach(&lz0);
    }
    return PE_OK;
}

pe_status pe_rope_frequencies(const pe_rotary *rope, double *w, size_t w_count, double *attention_factor) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    if (w_count != rotary_of(rope) / 2) return PE_ERR_OUT_SIZE;
    if (!w || !attention_factor) return PE_ERR_NULL;
    double factor = 1.0;
    if (rope->axes.type == PE_ROPE_AXES_VISION_2D)
        pe_rope_vision_frequencies(rope, rotary_of(rope), w);
    else if ((st = pe_rope_scaled_frequencies(rope, rope->scaling.sequence_length, w, &factor)) != PE_OK)
        return st;
    *attention_factor = factor;
    return PE_OK;
}

/* [sin | cos] rows from the plan -> [C | S] rows (the rope_lay_out kernel). */
static void lay_out(const float *raw, float *cs, uint32_t rows, uint32_t r, pe_layout layout, float factor,
                    int inverse) {
    pe_kernel_table_current()->rope_lay_out(raw, cs, rows, r, layout, factor, inverse);
}

/* The inner plan for DYNAMIC's sequence length seq_len (any length for the
 * other types, whose frequencies do not depend on it). */
static pe_status build_for(pe_rope_plan *p, uint32_t seq_len) {
    const pe_rope_scaling *sc = &p->rope.scaling;
    const int dynamic = sc->type == PE_ROPE_SCALING_DYNAMIC;
    /* DYNAMIC: a plan per L above L0; LONGROPE: one for the short factors, one for the long. */
    const uint32_t longer = seq_len > sc->original_max_position_embeddings;
    const uint32_t key = !longer || !follows_length(sc) ? 0 : dynamic ? seq_len : 1;
    if (p->built && key == p->built_for) return PE_OK;
    p->built = 0; /* until the new plan is whole */
    p->built_for = PE_ROPE_NOT_BUILT;
    p->tile_at = PE_ROPE_NOT_BUILT;
    double factor;
    pe_status st = pe_rope_scaled_frequencies(&p->rope, seq_len, p->w, &factor);
    if (st != PE_OK) return st;
    /* Unscaled frequencies take the sinusoidal table's own plan (w_i in
     * double-double, the same bits as pe_table); scaled ones are the doubles
     * the formulas give. */
    const int unscaled = sc->type == PE_ROPE_SCALING_NONE || (dynamic && key == 0);
    const pe_sinusoid enc = {p->r, p->rope.base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    const size_t bytes = pe_plan_bytes(p->r);
    st = p->rope.axes.type == PE_ROPE_AXES_VISION_2D
             ? pe_rope_vision_plan(&p->rope, p->r, p->plan_memory, bytes, &p->plan)
         : unscaled ? pe_plan_init(&enc, p->plan_memory, bytes, &p->plan)
                    : pe_plan_init_frequencies(p->r, PE_LAYOUT_SPLIT, p->w, p->plan_memory, bytes, &p->plan);
    if (st != PE_OK) return st == PE_ERR_FREQUENCY_VALUE ? PE_ERR_SCALING : st;
    p->factor = factor;
    p->built_for = key;
    p->built = 1;
    return PE_OK;
}

/* xPos: the g laid-out [C | S] rows at cs (positions first + k, or
 * positions[k]) times their scales; p->raw holds the scale rows (it is free
 * once laid out) and p->wide a row of doubles. */
static void xpos_scale_rows(pe_rope_plan *p, uint32_t first, const uint32_t *positions, uint32_t g, float *cs) {
    if (!pe_xpos_on(&p->rope.xpos)) return;
    pe_xpos_rows(&p->rope.xpos, p->lz, p->r, p->rope.layout, first, positions, g, p->raw, (double *)(void *)p->wide);
    pe_kernel_table_current()->rope_xpos_scale(cs, p->raw, g, p->cs_row / 2);
}

/* xPos: every position of a call within the scales' range (the extremes
 * of a run decide). */
static pe_status check_xpos_positions(const pe_rope_plan *p, uint32_t length, uint32_t offset,
                                      const uint32_t *positions) {
    const pe_xpos *x = &p->rope.xpos;
    if (!pe_xpos_on(x) || length == 0) return PE_OK;
    const uint32_t reach = pe_xpos_reach(p->lz);
    if (!positions)
        return pe_xpos_check_position(x, reach, offset) != PE_OK
                   ? PE_ERR_XPOS_RANGE
                   : pe_xpos_check_position(x, reach, offset + length - 1);
    for (uint32_t l = 0; l < length; l++)
        if (pe_xpos_check_position(x, reach, positions[l]) != PE_OK) return PE_ERR_XPOS_RANGE;
    return PE_OK;
}

/* [sin | cos] rows of the inner plan for rows l0 ... l0 + g - 1 of a call
 * (several axes: composed from each axis's positions). */
static void raw_rows(pe_rope_plan *p, uint32_t offset, const uint32_t *positions, uint32_t l0, uint32_t g, float *raw) {
    if (positions && p->runs.axes)
        pe_rope_axes_rows(p->plan, &p->runs, PE_DTYPE_FLOAT32, positions + (size_t)l0 * p->runs.axes, g, p->r,
                          p->axis_ids, p->axis_rows, raw);
    else if (positions)
        pe_plan_table_at(p->plan, positions + l0, g, raw, (size_t)g * p->r);
    else
        pe_plan_table(p->plan, offset + l0, g, raw, (size_t)g * p->r);
}

pe_status pe_rope_plan_init(const pe_rotary *rope, uint32_t cache_rows, void *memory, size_t bytes,
                            pe_rope_plan **plan) {
    size_t need;
    pe_status st = pe_rope_plan_size(rope, cache_rows, &need);
    if (st != PE_OK) return st;
    if (!memory || !plan) return PE_ERR_NULL;
    if (bytes < need) return PE_ERR_SCRATCH;
    /* Every refusal before the plan memory is written. */
    if (rope->axes.type != PE_ROPE_AXES_VISION_2D &&
        (st = pe_rope_check_frequencies(rope, rope->scaling.sequence_length)) != PE_OK)
        return st;
    const uint32_t r = rotary_of(rope);
    unsigned char *at = (unsigned char *)(((uintptr_t)memory + 15) & ~(uintptr_t)15);
    pe_rope_plan *p = (pe_rope_plan *)(void *)at;
    at += align16(sizeof(pe_rope_plan));
    p->magic = 0;
    p->rope = *rope;
    p->r = r;
    p->cs_row = 2 * pe_rope_cs_floats(r, rope->layout);
    p->tile_rows = tile_rows(r);
    p->wide_floats = wide_floats(r);
    p->cache_rows = cacheable_rows(rope, cache_rows);
    p->runs = pe_rope_axis_runs_of(rope, r);
    p->built_for = PE_ROPE_NOT_BUILT;
    p->built = 0;
    p->tile_at = PE_ROPE_NOT_BUILT;
    p->plan_memory = at;
    at += align16(pe_plan_bytes(r));
    p->w = (double *)(void *)at;
    if (rope->scaling.type == PE_ROPE_SCALING_LONGROPE) {
        /* The plan's own copies: the caller's arrays may go once it is made. */
        double *factors = p->w + r / 2;
        for (uint32_t i = 0; i < r / 2; i++) {
            factors[i] = rope->scaling.short_factor[i];
            factors[r / 2 + i] = rope->scaling.long_factor[i];
        }
        p->rope.scaling.short_factor = factors;
        p->rope.scaling.long_factor = factors + r / 2;
    }
    p->lz = p->w + 3 * (size_t)(r / 2);
    if (pe_xpos_on(&rope->xpos)) {
        pe_xpos_log_zeta(&rope->xpos, r / 2, p->lz);
        /* The cache holds rows 0 ... cache_rows - 1 within the scales' range only. */
        const uint32_t reach = pe_xpos_reach(p->lz), c = rope->xpos.center;
        const uint64_t last = (uint64_t)c + reach + 1;
        if (c > reach)
            p->cache_rows = 0;
        else if (p->cache_rows > last)
            p->cache_rows = (uint32_t)last;
    }
    at += align16((size_t)4 * (r / 2) * sizeof(double));
    p->raw = (float *)(void *)at;
    at += align16((size_t)p->tile_rows * r * sizeof(float));
    p->cs = (float *)(void *)at;
    at += align16((size_t)p->tile_rows * 2 * r * sizeof(float));
    p->wide = (float *)(void *)at;
    at += align16((size_t)p->wide_floats * sizeof(float));
    p->axis_rows = (float *)(void *)at;
    p->axis_ids = NULL;
    if (p->runs.axes) {
        at += align16((size_t)p->tile_rows * 2 * r * sizeof(float));
        p->axis_ids = (uint32_t *)(void *)at;
        at += align16((size_t)p->tile_rows * sizeof(uint32_t));
    }
    p->cache = (float *)(void *)at;
    if ((st = build_for(p, rope->scaling.sequence_length)) != PE_OK) return st;
    for (uint32_t l0 = 0; l0 < p->cache_rows; l0 += p->tile_rows) {
        const uint32_t g = p->cache_rows - l0 < p->tile_rows ? p->cache_rows - l0 : p->tile_rows;
        raw_rows(p, 0, NULL, l0, g, p->raw);
        lay_out(p->raw, p->cache + (size_t)l0 * p->cs_row, g, r, rope->layout, (float)p->factor, rope->inverse);
        xpos_scale_rows(p, l0, NULL, g, p->cache + (size_t)l0 * p->cs_row);
    }
    p->magic = PE_ROPE_PLAN_MAGIC;
    *plan = p;
    return PE_OK;
}

static pe_status check_plan(const pe_rope_plan *p) {
    return p && p->magic == PE_ROPE_PLAN_MAGIC ? PE_OK : PE_ERR_PLAN;
}

/* Positions of a call (one per row, or for several axes one per axis a row,
 * row-major): all below PE_MAX_POSITION; *end = the largest + 1. 2-D RoPE
 * needs them listed. */
static pe_status check_positions(const pe_rotary *rope, uint32_t length, uint32_t offset, const uint32_t *positions,
                                 uint32_t *end) {
    *end = 0;
    if (!positions && length && rope->axes.type == PE_ROPE_AXES_VISION_2D) return PE_ERR_POSITION;
    if (positions) {
        if (offset != 0) return PE_ERR_POSITION;
        const uint64_t count = (uint64_t)length * pe_rope_axes_count(rope->axes.type);
        for (uint64_t l = 0; l < count; l++) {
            if (positions[l] >= PE_MAX_POSITION) return PE_ERR_POSITION;
            if (positions[l] + 1 > *end) *end = positions[l] + 1;
        }
        return PE_OK;
    }
    if ((uint64_t)offset + length > PE_MAX_POSITION) return PE_ERR_POSITION;
    *end = offset + length;
    return PE_OK;
}

/* count head vectors of x (elements x_at + k * stride, dtype) rotated in
 * place by cs + k * cs_stride. */
typedef struct rotation {
    const pe_kernel_table *k;
    pe_dtype dtype;
    void *x;
    uint32_t r;
    pe_layout layout;
} rotation;

static void rotate_vectors(const rotation *t, size_t x_at, size_t count, size_t stride, const float *cs,
                           size_t cs_stride) {
    if (t->dtype == PE_DTYPE_FLOAT32)
        t->k->rope_rotate((float *)t->x + x_at, count, stride, cs, cs_stride, t->r, t->layout);
    else
        t->k->rope_rotate16((uint16_t *)t->x + x_at, count, stride, cs, cs_stride, t->r, t->layout,
                            t->dtype == PE_DTYPE_FLOAT16);
}

/* Rows l0 ... l0 + g - 1 of every batch item, with their [C | S] rows at cs. */
static void rotate_rows(const pe_rope_plan *p, const rotation *t, size_t heads, size_t batch, uint32_t length,
                        uint32_t l0, uint32_t g, const float *cs) {
    const size_t dim = p->rope.head_dim, cs_row = p->cs_row;
    for (size_t b = 0; b < batch; b++) {
        if (p->rope.order == PE_ROPE_BLHD) {
            for (uint32_t k = 0; k < g; k++)
                rotate_vectors(t, ((b * length + l0 + k) * heads) * dim, heads, dim, cs + k * cs_row, 0);
        } else {
            for (size_t h = 0; h < heads; h++)
                rotate_vectors(t, ((b * heads + h) * length + l0) * dim, g, dim, cs, cs_row);
        }
    }
}

pe_status pe_rope_plan_apply(pe_rope_plan *plan, pe_dtype dtype, uint32_t sequence_length, uint32_t offset,
                             uint32_t length, const uint32_t *positions, void *x, size_t x_count) {
    return pe_rope_plan_apply_heads(plan, dtype, 0, sequence_length, offset, length, positions, x, x_count);
}

pe_status pe_rope_plan_apply_heads(pe_rope_plan *plan, pe_dtype dtype, uint32_t heads, uint32_t sequence_length,
                                   uint32_t offset, uint32_t length, const uint32_t *positions, void *x,
                                   size_t x_count) {
    pe_status st = check_plan(plan);
    if (st != PE_OK) return st;
    pe_rope_plan *p = plan;
    if (dtype != PE_DTYPE_FLOAT32 && dtype != PE_DTYPE_FLOAT16 && dtype != PE_DTYPE_BFLOAT16) return PE_ERR_DTYPE;
    if (heads == 0) heads = p->rope.heads; /* 0: the plan's own count */
    if (heads > PE_MAX_HEADS) return PE_ERR_HEADS;
    size_t row, slab;
    if ((st = pe_check_product(heads, p->rope.head_dim, &row)) != PE_OK) return st;
    if ((st = pe_check_product(length, row, &slab)) != PE_OK) return st;
    if (slab == 0 ? x_count != 0 : x_count % slab != 0) return PE_ERR_X_SIZE;
    if (x_count && !x) return PE_ERR_NULL;
    uint32_t end;
    if ((st = check_positions(&p->rope, length, offset, positions, &end)) != PE_OK) return st;
    if ((st = check_xpos_positions(p, length, offset, positions)) != PE_OK) return st;
    /* The largest position + 1: dynamic NTK's sequence length by default. */
    const uint32_t seq_len = p->rope.scaling.sequence_length ? p->rope.scaling.sequence_length
                             : sequence_length               ? sequence_length
                                                             : end;
    if ((st = build_for(p, seq_len)) != PE_OK) return st;
    if (x_count == 0) return PE_OK;
    /* One listed position of one axis (a decoding step given position ids):
     * the offset path, whose tile is kept for the next step; a row's values
     * are the same bits whichever way it is asked for. */
    if (positions && length == 1 && !p->runs.axes) {
        offset = positions[0];
        positions = NULL;
    }

    const uint32_t r = p->r, rows = p->tile_rows;
    const size_t cs_row = p->cs_row;
    const rotation t = {pe_kernel_table_current(), dtype, x, r, p->rope.layout};
    const size_t batch = x_count / slab;
    const int cached = end <= p->cache_rows && !(positions && p->runs.axes); /* the cache holds one-axis rows */
    for (uint32_t l0 = 0; l0 < length;) {
        /* A tile ends where an aligned tile of absolute positions ends. */
        uint32_t g = positions ? rows : rows - (offset + l0) % rows;
        if (g > length - l0) g = length - l0;
        const float *cs = p->cs;
        if (cached && !positions) {
            g = length - l0; /* the cache is one tile */
            cs = p->cache + (size_t)(offset + l0) * cs_row;
        } else if (cached) {
            for (uint32_t k = 0; k < g; k++)
                memcpy(p->cs + k * cs_row, p->cache + positions[l0 + k] * cs_row, cs_row * 4);
        } else if (!positions) {
            /* The whole aligned tile, kept for the next call: decoding one
             * token a call then makes cos/sin once per tile_rows tokens (the
             * recurrence runs from the block start anyway). */
            const uint32_t start = offset + l0 - (offset + l0) % rows;
            if (p->tile_at != start) {
                p->tile_at = PE_ROPE_NOT_BUILT;
                raw_rows(p, start, NULL, 0, rows, p->raw);
                lay_out(p->raw, p->cs, rows, r, p->rope.layout, (float)p->factor, p->rope.inverse);
                xpos_scale_rows(p, start, NULL, rows, p->cs);
                p->tile_at = start;
            }
            cs = p->cs + (size_t)(offset + l0 - start) * cs_row;
        } else {
            p->tile_at = PE_ROPE_NOT_BUILT;
            raw_rows(p, offset, positions, l0, g, p->raw);
            lay_out(p->raw, p->cs, g, r, p->rope.layout, (float)p->factor, p->rope.inverse);
            xpos_scale_rows(p, 0, positions + l0, g, p->cs);
        }
        rotate_rows(p, &t, heads, batch, length, l0, g, cs);
        l0 += g;
    }
    return PE_OK;
}

pe_status pe_rope(const pe_rotary *rope, uint32_t offset, uint32_t length, const uint32_t *positions, float *x,
                  size_t x_count, void *scratch, size_t scratch_bytes) {
    pe_status st = check_rope(rope);
    if (st != PE_OK) return st;
    size_t row, slab;
    if ((st = pe_check_product(rope->heads, rope->head_dim, &row)) != PE_OK) return st;
    if ((st = pe_check_product(length, row, &slab)) != PE_OK) return st;
    if (slab == 0 ? x_count != 0 : x_count % slab != 0) return PE_ERR_X_SIZE;
    if (x_count && !x) return PE_ERR_NULL;
    uint32_t end;
    if ((st = check_positions(rope, length, offset, positions, &end)) != PE_OK) return st;
    if (!scratch) return PE_ERR_NULL;
    if (scratch_bytes < plan_bytes_for(rope, 0)) return PE_ERR_SCRATCH;
    /* The plan is built for this call's sequence length from the start. */
    pe_rotary fixed = *rope;
    if (dynamic_unfixed(&fixed)) fixed.scaling.sequence_length = end;
    pe_rope_plan *plan;
    if ((st = pe_rope_plan_init(&fixed, 0, scratch, scratch_bytes, &plan)) != PE_OK) return st;
    return pe_rope_plan_apply(plan, PE_DTYPE_FLOAT32, 0, offset, length, positions, x, x_count);
}

/* One row of cos or sin values v[0 .. half-1] (float64) into row l of out,
 * expanded for the layout when asked. */
static void put_row(const double *v, uint32_t half, int expand, pe_layout layout, pe_dtype dtype, double *line,
                    void *out, size_t at) {
    const uint32_t n = expand ? 2 * half : half;
    for (uint32_t i = 0; i < half; i++) {
        if (!expand)
            line[i] = v[i];
        else if (layout == PE_LAYOUT_SPLIT)
            line[i] = line[i + half] = v[i];
        else
            line[2 * i] = line[2 * i + 1] = v[i];
    }
    if (dtype == PE_DTYPE_FLOAT64)
        memcpy((double *)out + at, line, (size_t)n * sizeof(double));
    else
        pe_narrow_f64(dtype, line, n, (uint16_t *)out + at, n);
}

pe_status pe_rope_plan_cos_sin(pe_rope_plan *plan, pe_dtype dtype, int expand, uint32_t offset, uint32_t length,
                               const uint32_t *positions, void *cos, void *sin, size_t count) {
    pe_status st = check_plan(plan);
    if (st != PE_OK) return st;
    pe_rope_plan *p = plan;
    if ((unsigned)dtype > PE_DTYPE_FLOAT64) return PE_ERR_DTYPE;
    const uint32_t r = p->r, half = r / 2, per_row = expand ? r : half;
    if (count != (uint64_t)length * per_row) return PE_ERR_OUT_SIZE;
    if (count && (!cos || !sin)) return PE_ERR_NULL;
    uint32_t end;
    if ((st = check_positions(&p->rope, length, offset, positions, &end)) != PE_OK) return st;
    if ((st = check_xpos_positions(p, length, offset, positions)) != PE_OK) return st;
    const uint32_t seq_len = p->rope.scaling.sequence_length ? p->rope.scaling.sequence_length : end;
    if ((st = build_for(p, seq_len)) != PE_OK) return st;
    const pe_layout layout = p->rope.layout;
    const int xpos = pe_xpos_on(&p->rope.xpos);
    double *scale = (double *)(void *)p->wide; /* xPos: a row's scales */
    for (uint32_t l0 = 0; l0 < length; l0 += p->tile_rows) {
        const uint32_t g = length - l0 < p->tile_rows ? length - l0 : p->tile_rows;
        if (dtype == PE_DTYPE_FLOAT32) {
            const float factor = (float)p->factor;
            raw_rows(p, offset, positions, l0, g, p->raw);
            for (uint32_t k = 0; k < g; k++) {
                const float *sin_row = p->raw + (size_t)k * r, *cos_row = sin_row + half;
                float *c = (float *)cos + (size_t)(l0 + k) * per_row, *s = (float *)sin + (size_t)(l0 + k) * per_row;
                if (xpos)
                    pe_xpos_scales(&p->rope.xpos, p->lz, half, positions ? positions[l0 + k] : offset + l0 + k, scale);
                for (uint32_t i = 0; i < half; i++) {
                    float cv = cos_row[i] * factor, sv = sin_row[i] * factor;
                    if (xpos) cv = cv * (float)scale[i], sv = sv * (float)scale[i]; /* the kernel's products */
                    const uint32_t j1 = expand && layout == PE_LAYOUT_INTERLEAVED ? 2 * i : i;
                    c[j1] = cv, s[j1] = sv;
                    if (expand)
                        c[j1 + (layout == PE_LAYOUT_SPLIT ? half : 1)] = cv,
                                                                   s[j1 + (layout == PE_LAYOUT_SPLIT ? half : 1)] = sv;
                }
            }
            continue;
        }
        /* float64 [sin | cos] rows in the cs tile (2r floats = r doubles a row). */
        p->tile_at = PE_ROPE_NOT_BUILT;
        double *rows64 = (double *)(void *)p->cs, *line = (double *)(void *)p->wide;
        /* Without a factor or xPos scales the 16-bit values are the plan's
         * own, rounded once: the plan settles its float64 rows for them. */
        p->plan->settle_for = p->factor == 1.0 && !xpos ? dtype : PE_DTYPE_FLOAT64;
        if (positions && p->runs.axes)
            pe_rope_axes_rows(p->plan, &p->runs, PE_DTYPE_FLOAT64, positions + (size_t)l0 * p->runs.axes, g, r,
                              p->axis_ids, p->axis_rows, rows64);
        else if (positions)
            pe_plan_table_at_dtype(p->plan, PE_DTYPE_FLOAT64, positions + l0, g, rows64, (size_t)g * r);
        else
            pe_plan_table_dtype(p->plan, PE_DTYPE_FLOAT64, offset + l0, g, rows64, (size_t)g * r);
        p->plan->settle_for = PE_DTYPE_FLOAT64;
        if (p->factor != 1.0)
            for (size_t k = 0; k < (size_t)g * r; k++) rows64[k] *= p->factor;
        for (uint32_t k = 0; k < g; k++) {
            const size_t at = (size_t)(l0 + k) * per_row;
            if (xpos) {
                double *row = rows64 + (size_t)k * r;
                pe_xpos_scales(&p->rope.xpos, p->lz, half, positions ? positions[l0 + k] : offset + l0 + k, scale);
                for (uint32_t i = 0; i < half; i++) row[i] *= scale[i], row[half + i] *= scale[i];
            }
            put_row(rows64 + (size_t)k * r + half, half, expand, layout, dtype, line, cos, at);
            put_row(rows64 + (size_t)k * r, half, expand, layout, dtype, line, sin, at);
        }
    }
    return PE_OK;
}
