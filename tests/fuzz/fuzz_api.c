/* fuzz_api.c: a libFuzzer harness over the whole C API (clang-14, ASan+UBSan).
 *
 * Each input picks the kernel set (scalar or SIMD) and an entry point, then
 * reads that call's arguments from the bytes: sizes from a list of edge values
 * or raw, doubles as raw bit patterns (NaN, inf, huge and tiny included),
 * output counts exact or off by one. Every output and scratch buffer sits
 * between guard bytes that must come back untouched; a refused call must leave
 * its output untouched too; a successful call's outputs must be finite and in
 * their documented range (tables and RoPE cos/sin in [-1, 1], ALiBi slopes in
 * (0, 1], biases <= 0, resampled values between the table's extremes, RoPE
 * frequencies finite and >= 0). A violation aborts with what and where.
 *
 * RoPE goes through pe_rope, a plan's apply (float32, float16, bfloat16; a
 * cache or none; plan memory misaligned) or its cos/sin caches, with position
 * axes (mrope sections, 2-D vision) and xPos (scale base, gamma, role,
 * center): an accepted call's positions lie within xPos's reach and its
 * values within the attention factor times the largest scale (computed here
 * with libm); a plan gives pe_rope's bits; mrope with three equal axes gives
 * plain RoPE's. Build with -DFUZZ_TRACE to see which status an input gets.
 *
 * The relative-position targets are in fuzz_relative.c, pe_diagnose and
 * pe_config_read in fuzz_readers.c; what they share in fuzz_input.c. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "posenc.h"

/* ---- the calls ----------------------------------------------------------- */

static pe_sinusoid take_sinusoid(bytes *in) {
    pe_sinusoid enc;
    enc.dim = take_size(in, 0);
    enc.base = take_double(in, 10000.0);
    enc.layout = (pe_layout)(take(in, 1) % 3);
    enc.frequencies = (pe_frequencies)(take(in, 1) % 3);
    return enc;
}

/* A scratch of pe_scratch_size(dim) bytes, or a size off by one. */
static void *take_scratch(bytes *in, guarded *g, uint32_t dim, size_t *bytes_out) {
    size_t need = 0;
    if (pe_scratch_size(dim, &need) != PE_OK || need > MAX_BYTES) need = 64;
    *bytes_out = take_count(in, need);
    if (*bytes_out > need + 1) *bytes_out = need;
    return guard_alloc(g, *bytes_out);
}

/* The table-like calls: one-shot or plan, float32 or another dtype, rows or positions, or a recipe. */
static void fuzz_tables(bytes *in, int which) {
    static const char *const NAMES[] = {"pe_table",           "pe_table_at",
                                        "pe_table_dtype",     "pe_table_at_dtype",
                                        "pe_recipe_table",    "plan table",
                                        "plan table_at",      "plan dtype",
                                        "plan recipe",        "pe_plan_init_frequencies + table",
                                        "plan table_at dtype"};
    const char *call = NAMES[which];
    pe_sinusoid enc = take_sinusoid(in);
    const uint32_t offset = take_position(in), length = take_size(in, 512);
    const pe_dtype dtype = (pe_dtype)(take(in, 1) % 5);
    const pe_recipe recipe = (pe_recipe)(take(in, 1) % 4);
    uint32_t positions[64];
    const size_t count = take(in, 1) % 65;
    for (size_t k = 0; k < count; k++) positions[k] = take_position(in);
    const size_t rows = (which == 1 || which == 3 || which == 6 || which == 10) ? count : length;
    const size_t elem = dtype == PE_DTYPE_FLOAT64                                   ? 8
                        : (dtype == PE_DTYPE_FLOAT16 || dtype == PE_DTYPE_BFLOAT16) ? 2
                                                                                    : 4;
    const int is_dtype = which == 2 || which == 3 || which == 7 || which == 10;
    const size_t dim_for_size = enc.dim <= PE_MAX_DIM ? enc.dim : 2;
    if (rows * dim_for_size * 8 > MAX_BYTES) return;
    const size_t out_count = take_count(in, rows * dim_for_size);
    if (out_count * 8 > MAX_BYTES + 8) return;
    guarded out_g, scratch_g, w_g;
    void *out = guard_alloc(&out_g, out_count * (is_dtype ? elem : 4));
    size_t scratch_bytes;
    void *scratch = take_scratch(in, &scratch_g, enc.dim, &scratch_bytes);
    pe_status st;
    pe_plan *plan = NULL;
    double *w = guard_alloc(&w_g, (dim_for_size / 2) * sizeof(double));
    if (which == 9) {
        for (size_t i = 0; i < dim_for_size / 2; i++)
            w[i] = take(in, 1) < 128 ? take_double(in, 0.5) : ldexp(1.0, -(int)take(in, 1) % 64);
    }
    switch (which) {
    case 0: st = pe_table(&enc, offset, length, out, out_count, scratch, scratch_bytes); break;
    case 1: st = pe_table_at(&enc, positions, count, out, out_count, scratch, scratch_bytes); break;
    case 2: st = pe_table_dtype(&enc, dtype, offset, length, out, out_count, scratch, scratch_bytes); break;
    case 3: st = pe_table_at_dtype(&enc, dtype, positions, count, out, out_count, scratch, scratch_bytes); break;
    case 4: st = pe_recipe_table(&enc, recipe, offset, length, out, out_count, scratch, scratch_bytes); break;
    default:
        st = which == 9 ? pe_plan_init_frequencies(enc.dim, enc.layout, w, scratch, scratch_bytes, &plan)
                        : pe_plan_init(&enc, scratch, scratch_bytes, &plan);
        if (st != PE_OK) {
            guard_check(&scratch_g, call, 1); /* a refused plan leaves its memory as it was */
            if (plan != NULL) fail("a refused plan was handed out", call);
            break;
        }
        if (which == 5 || which == 9) st = pe_plan_table(plan, offset, length, out, out_count);
        if (which == 6) st = pe_plan_table_at(plan, positions, count, out, out_count);
        if (which == 7) st = pe_plan_table_dtype(plan, dtype, offset, length, out, out_count);
        if (which == 8) st = pe_plan_recipe_table(plan, recipe, offset, length, out, out_count);
        if (which == 10) st = pe_plan_table_at_dtype(plan, dtype, positions, count, out, out_count);
        break;
    }
    guard_check(&out_g, call, st != PE_OK);
    guard_check(&scratch_g, call, st != PE_OK && which <= 4); /* a refused one-shot call leaves its scratch */
    guard_check(&w_g, call, 0);
    if (st == PE_OK) {
        if (!is_dtype || dtype == PE_DTYPE_FLOAT32) {
            /* The float16 recipe's infinite positions (>= 65520) give NaN, as the header says. */
            if (!((which == 4 || which == 8) && recipe == PE_RECIPE_FLOAT16))
                floats_within(out, out_count, -1.0f, 1.0f, call);
        } else if (dtype == PE_DTYPE_FLOAT64) {
            /* float64 rows are within 1e-12 of exact (posenc.h), so a sine near 1 may exceed it by that much. */
            for (size_t k = 0; k < out_count; k++)
                if (!(fabs(((double *)out)[k]) <= 1.0 + 1e-12))
                    fail("a float64 value outside [-1 - 1e-12, 1 + 1e-12]", call);
        } else {
            for (size_t k = 0; k < out_count; k++)
                if (!(fabsf(half_to_float(((uint16_t *)out)[k], dtype == PE_DTYPE_BFLOAT16)) <= 1.0f))
                    fail("a 16-bit value outside [-1, 1]", call);
        }
    }
    guard_free(&out_g);
    guard_free(&scratch_g);
    guard_free(&w_g);
}

/* x of small values, for the adds and RoPE; returns the largest |x|. */
static float fill_x(bytes *in, float *x, size_t n) {
    float largest = 0.0f;
    for (size_t k = 0; k < n; k++) {
        x[k] = (float)(int8_t)take(in, 1) / 16.0f;
        largest = fmaxf(largest, fabsf(x[k]));
    }
    return largest;
}

static void fuzz_adds(bytes *in, int which) {
    const char *call = which == 0 ? "pe_add" : which == 1 ? "pe_plan_add" : "pe_add_table";
    pe_sinusoid enc = take_sinusoid(in);
    const uint32_t offset = take_position(in), length = take_size(in, 256), batch = (uint32_t)take(in, 1) % 4;
    const size_t dim = enc.dim <= 1024 ? enc.dim : 2;
    const size_t x_count = take_count(in, (size_t)batch * length * dim);
    if (x_count > (1u << 20)) return;
    const float scale = (float)take_double(in, 1.0);
    guarded x_g, scratch_g, table_g;
    float *x = guard_alloc(&x_g, x_count * sizeof(float));
    const float largest = fill_x(in, x, x_count);
    float *before = malloc(x_count * sizeof(float) + 1);
    if (!before) abort();
    memcpy(before, x, x_count * sizeof(float));
    size_t scratch_bytes;
    void *scratch = take_scratch(in, &scratch_g, enc.dim, &scratch_bytes);
    const uint32_t table_rows = take_size(in, 512);
    float *table = guard_alloc(&table_g, (size_t)table_rows * dim * sizeof(float));
    fill_x(in, table, (size_t)table_rows * dim);
    pe_status st;
    pe_plan *plan;
    if (which == 0)
        st = pe_add(&enc, scale, offset, length, x, x_count, scratch, scratch_bytes);
    else if (which == 1) {
        st = pe_plan_init(&enc, scratch, scratch_bytes, &plan);
        if (st == PE_OK) st = pe_plan_add(plan, scale, offset, length, x, x_count);
    } else
        st = pe_add_table(table, table_rows, enc.dim, scale, offset, length, x, x_count);
    guard_check(&x_g, call, 0);
    if (st != PE_OK && memcmp(x, before, x_count * sizeof(float)) != 0) fail("a refused call changed x", call);
    free(before);
    guard_check(&scratch_g, call, 0);
    guard_check(&table_g, call, 0);
    /* |x * scale| rounded, plus a value of magnitude <= 8 (a table entry) or <= 1 (PE). */
    const double bound = (double)largest * fabs((double)scale) * (1.0 + 0x1p-23) + 8.0 * (1.0 + 0x1p-23);
    if (st == PE_OK && bound < 1e38) floats_within(x, x_count, (float)-bound, (float)bound, call);
    guard_free(&x_g);
    guard_free(&scratch_g);
    guard_free(&table_g);
}

/* ---- RoPE ----------------------------------------------------------------- */

/* A RoPE input reads its fields in a fixed order, and the position axes, xPos
 * and the entry point come last: an input that ends before them (the older
 * seeds) is plain RoPE through pe_rope, as it was when it was found. */

static void take_scaling(bytes *in, pe_rope_scaling *sc) {
    sc->type = (pe_rope_scaling_type)(take(in, 1) % 6);
    sc->factor = take_double(in, 4.0);
    sc->original_max_position_embeddings = take_size(in, 0);
    sc->beta_fast = take(in, 1) < 128 ? 0.0 : take_double(in, 32.0);
    sc->beta_slow = take(in, 1) < 128 ? 0.0 : take_double(in, 1.0);
    sc->attention_factor = take(in, 1) < 128 ? 0.0 : take_double(in, 1.0);
    sc->mscale = take(in, 1) < 128 ? 0.0 : take_double(in, 1.0);
    sc->mscale_all_dim = take(in, 1) < 128 ? 0.0 : take_double(in, 1.0);
    sc->no_truncate = (int)(take(in, 1) & 1);
    sc->low_freq_factor = take_double(in, 1.0);
    sc->high_freq_factor = take_double(in, 4.0);
    sc->sequence_length = take(in, 1) < 128 ? 0 : take_size(in, 0);
}

/* Several position axes: mostly none; mrope with sections that split r/2
 * (valid) or raw ones; 2-D; or an unknown type. */
static void take_axes(bytes *in, pe_rotary *rope) {
    const uint8_t how = (uint8_t)take(in, 1);
    if (how < 96) return;
    pe_rope_axes *a = &rope->axes;
    a->type = how < 176 ? PE_ROPE_AXES_MROPE : how < 250 ? PE_ROPE_AXES_VISION_2D : (pe_rope_axes_type)take_u32(in);
    const uint32_t half = (rope->rotary_dim ? rope->rotary_dim : rope->head_dim) / 2;
    if (take(in, 1) < 200 && half >= 3) {
        a->mrope_section[0] = 1 + (uint32_t)take(in, 2) % (half - 2);
        a->mrope_section[1] = 1 + (uint32_t)take(in, 2) % (half - a->mrope_section[0] - 1);
        a->mrope_section[2] = half - a->mrope_section[0] - a->mrope_section[1];
    } else {
        for (int k = 0; k < PE_ROPE_MROPE_AXES; k++) a->mrope_section[k] = take_size(in, 0);
    }
}

/* xPos: mostly off; else torchscale's defaults, nearby values or raw bits. */
static void take_xpos(bytes *in, pe_xpos *x) {
    if (take(in, 1) < 128) return;
    x->scale_base = take_double(in, 512.0);
    x->gamma = take_double(in, 0.4);
    x->key = (int)(take(in, 1) & 1);
    x->center = take(in, 1) < 160 ? (uint32_t)take(in, 2) : take_position(in);
}

static uint32_t axes_of(const pe_rotary *rope) {
    return rope->axes.type == PE_ROPE_AXES_MROPE       ? PE_ROPE_MROPE_AXES
           : rope->axes.type == PE_ROPE_AXES_VISION_2D ? 2
                                                       : 1;
}

/* The largest xPos scale among a call's positions, zeta_0^(|p - center| /
 * scale_base) inverted (pair 0 has the smallest zeta), in libm's double; -1
 * when a position lies beyond the documented reach (a scale past 2^64),
 * which the call must refuse. 1 when xPos is off or nothing is rotated. */
static double xpos_largest_scale(const pe_xpos *x, uint32_t offset, uint32_t length, const uint32_t *positions,
                                 uint32_t axes) {
    if (x->scale_base == 0.0) return 1.0;
    const double per_step = -log(x->gamma / (1.0 + x->gamma)) / x->scale_base;
    double largest = 1.0;
    for (uint64_t k = 0; k < (uint64_t)length * axes; k++) {
        const uint32_t p = positions ? positions[k] : offset + (uint32_t)k;
        const double d = fabs((double)p - (double)x->center), t = d == 0.0 ? 0.0 : d * per_step;
        if (t > 64.0 * 0.6931471805599453 * (1.0 + 1e-9)) return -1.0;
        if (exp(t) > largest) largest = exp(t);
    }
    return largest;
}

static uint16_t half_bits_exact(float f, int bfloat) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (bfloat || f == 0.0f) return (uint16_t)(bits >> 16 & (bfloat ? 0xffffu : 0x8000u));
    int e;
    const float m = frexpf(fabsf(f), &e); /* |f| = 2m 2^(e-1), 1 <= 2m < 2; f is a float16 normal */
    return (uint16_t)((bits >> 16 & 0x8000u) | (uint32_t)(e - 1 + 15) << 10 | (uint32_t)((2.0f * m - 1.0f) * 1024.0f));
}

/* 16-bit results within bound (rounded once to the dtype: 2^-8 relative),
 * infinite only where bound passes the dtype's largest value. */
static void halves_within(const uint16_t *v, size_t n, int bfloat, double bound, const char *call) {
    const double widest = bfloat ? 3.3895313892515355e38 : 65504.0, limit = bound * (1.0 + 0x1p-7);
    for (size_t k = 0; k < n; k++) {
        const float f = half_to_float(v[k], bfloat);
        if (isinf(f) ? limit < widest : !(fabsf(f) <= limit)) {
            fprintf(stderr, "fuzz_api: %s: value %zu is %g, beyond %g\n", call, k, (double)f, bound);
            abort();
        }
    }
}

/* pe_rope of a copy of x_before into out (scratch of the size it asks for). */
static pe_status one_shot_rope(const pe_rotary *rope, uint32_t offset, uint32_t length, const uint32_t *positions,
                               const float *x_before, size_t x_count, float *out) {
    size_t need;
    pe_status st = pe_rope_scratch_size(rope, &need);
    if (st != PE_OK) return st;
    void *scratch = malloc(need);
    if (!scratch) abort();
    memcpy(out, x_before, x_count * sizeof(float));
    st = pe_rope(rope, offset, length, positions, out, x_count, scratch, need);
    free(scratch);
    return st;
}

/* x must equal pe_rope of x_before with rope, bit for bit (what: the rule broken). */
static void same_as_one_shot(const pe_rotary *rope, uint32_t offset, uint32_t length, const uint32_t *positions,
                             const float *x_before, const float *x, size_t x_count, const char *what,
                             const char *call) {
    float *expected = malloc(x_count * sizeof(float) + 1);
    if (!expected) abort();
    if (one_shot_rope(rope, offset, length, positions, x_before, x_count, expected) != PE_OK ||
        memcmp(expected, x, x_count * sizeof(float)) != 0)
        fail(what, call);
    free(expected);
}

/* A plan in caller memory, possibly misaligned (the plan aligns itself
 * within the 16 bytes pe_rope_plan_size adds), its size exact or off by one. */
static pe_rope_plan *take_plan(bytes *in, const pe_rotary *rope, guarded *g, pe_status *st) {
    const uint32_t cache_rows = take(in, 1) < 160 ? take_size(in, 300) : take_size(in, 0);
    size_t need = 0;
    if (pe_rope_plan_size(rope, cache_rows, &need) != PE_OK || need > MAX_BYTES) need = 64;
    size_t bytes = take_count(in, need);
    if (bytes > need + 1) bytes = need;
    const uint8_t nulls = (uint8_t)take(in, 1); /* the shift; 254 and 255 also a NULL plan or memory pointer */
    const size_t shift = nulls % 16;
    uint8_t *memory = (uint8_t *)guard_alloc(g, bytes + shift) + shift;
    pe_rope_plan *plan = NULL;
    *st = pe_rope_plan_init(rope, cache_rows, nulls == 255 ? NULL : memory, bytes, nulls == 254 ? NULL : &plan);
    if ((nulls == 255 || nulls == 254) && *st == PE_OK) fail("a NULL argument was accepted", "pe_rope_plan_init");
    if (nulls == 254) return NULL;
    trace("pe_rope_plan_init", *st);
    return *st == PE_OK ? plan : NULL;
}

/* pe_rope_plan_cos_sin: both caches guarded, untouched on a refusal, within
 * the attention factor times the largest xPos scale. */
static void fuzz_rope_cos_sin(bytes *in, pe_rope_plan *plan, const pe_rotary *rope, uint32_t offset, uint32_t length,
                              const uint32_t *positions, double attention, double largest_scale) {
    const char *call = "pe_rope_plan_cos_sin";
    const pe_dtype dtype = (pe_dtype)(take(in, 1) % 5);
    const int expand = (int)(take(in, 1) & 1);
    const uint32_t r = rope->rotary_dim ? rope->rotary_dim : rope->head_dim;
    const size_t count = take_count(in, (size_t)length * (expand ? r : r / 2));
    const size_t elem = dtype == PE_DTYPE_FLOAT64 ? 8 : dtype == PE_DTYPE_FLOAT16 || dtype == PE_DTYPE_BFLOAT16 ? 2 : 4;
    if (count > MAX_BYTES / 8) return;
    guarded cos_g, sin_g;
    void *cos = guard_alloc(&cos_g, count * elem), *sin = guard_alloc(&sin_g, count * elem);
    const pe_status st = pe_rope_plan_cos_sin(plan, dtype, expand, offset, length, positions, cos, sin, count);
    trace(call, st);
    guard_check(&cos_g, call, st != PE_OK);
    guard_check(&sin_g, call, st != PE_OK);
    if (st == PE_OK && largest_scale < 0.0) fail("a position beyond xPos's reach was accepted", call);
    if (st == PE_OK && attention > 0.0) {
        const double bound = attention * largest_scale;
        for (int k = 0; k < 2; k++) {
            void *v = k ? sin : cos;
            if (dtype == PE_DTYPE_FLOAT32)
                floats_within(v, count, (float)-(bound * (1.0 + 0x1p-20)), (float)(bound * (1.0 + 0x1p-20)), call);
            else if (dtype == PE_DTYPE_FLOAT64) {
                for (size_t j = 0; j < count; j++)
                    if (!(fabs(((double *)v)[j]) <= bound * (1.0 + 1e-9)))
                        fail("a float64 value beyond its bound", call);
            } else
                halves_within(v, count, dtype == PE_DTYPE_BFLOAT16, bound, call);
        }
    }
    guard_free(&cos_g);
    guard_free(&sin_g);
}

static void fuzz_rope(bytes *in) {
    pe_rotary rope;
    memset(&rope, 0, sizeof rope);
    rope.heads = take_size(in, 0);
    rope.head_dim = take_size(in, 0);
    rope.rotary_dim = take(in, 1) < 128 ? 0 : take_size(in, 0);
    rope.base = take_double(in, 10000.0);
    rope.layout = (pe_layout)(take(in, 1) % 3);
    rope.order = (pe_rope_order)(take(in, 1) % 3);
    rope.inverse = (int)(take(in, 1) & 1);
    take_scaling(in, &rope.scaling);
    const uint32_t length = take_size(in, 64), batch = (uint32_t)take(in, 1) % 3;
    const uint32_t offset = take(in, 1) < 200 ? take_position(in) : 0;
    uint32_t first_axis[64];
    const int with_positions = take(in, 1) < 64;
    for (uint32_t k = 0; k < length; k++) first_axis[k] = take_position(in);
    const size_t heads = rope.heads <= 16 ? rope.heads : 1, head_dim = rope.head_dim <= 256 ? rope.head_dim : 2;
    const size_t x_count = take_count(in, (size_t)batch * length * heads * head_dim);
    if (x_count > (1u << 20)) return;
    guarded x_g, scratch_g, w_g, plan_g;
    memset(&plan_g, 0, sizeof plan_g);
    float *x = guard_alloc(&x_g, x_count * sizeof(float));
    const float largest = fill_x(in, x, x_count);
    const uint8_t scratch_pick = (uint8_t)take(in, 1);
    const uint32_t scratch_raw = scratch_pick >= 250 ? take_u32(in) : 0;
    const size_t w_count = take_count(in, (rope.rotary_dim ? rope.rotary_dim : head_dim) / 2);
    if (w_count > 65536) {
        guard_free(&x_g);
        return;
    }
    /* The newer fields: axes, xPos, the entry point, then the other axes' positions. */
    take_axes(in, &rope);
    take_xpos(in, &rope.xpos);
    const unsigned api = (unsigned)take(in, 1) % 3; /* pe_rope, pe_rope_plan_apply, pe_rope_plan_cos_sin */
    const uint32_t axes = axes_of(&rope);
    const int same_axes = rope.axes.type == PE_ROPE_AXES_MROPE && take(in, 1) < 64;
    uint32_t *positions = malloc((size_t)length * axes * sizeof(uint32_t) + 1); /* exact: ASan sees an overread */
    if (!positions) abort();
    for (uint32_t l = 0; l < length; l++)
        for (uint32_t a = 0; a < axes; a++)
            positions[l * axes + a] = a == 0 || same_axes ? first_axis[l] : take_position(in);
    const uint32_t *given = with_positions ? positions : NULL;
    const double largest_scale = xpos_largest_scale(&rope.xpos, offset, length, given, axes);
#ifdef FUZZ_TRACE
    fprintf(stderr, "fuzz_api: r %u, axes %d, xpos %.17g %.17g key %d center %u, offset %u length %u%s, scale %g\n",
            rope.rotary_dim ? rope.rotary_dim : rope.head_dim, (int)rope.axes.type, rope.xpos.scale_base,
            rope.xpos.gamma, rope.xpos.key, rope.xpos.center, offset, length, given ? " listed" : "", largest_scale);
    for (uint32_t k = 0; given && k < length * axes; k++) fprintf(stderr, " %u", positions[k]);
    if (given) fprintf(stderr, "\n");
#endif

    size_t need = 0;
    if (pe_rope_scratch_size(&rope, &need) != PE_OK || need > MAX_BYTES) need = 64;
    size_t scratch_bytes = scratch_pick < 220   ? need
                           : scratch_pick < 235 ? need + 1
                           : scratch_pick < 250 ? need - 1
                                                : scratch_raw;
    if (scratch_bytes > need + 1) scratch_bytes = need;
    void *scratch = guard_alloc(&scratch_g, scratch_bytes);
    double *w = guard_alloc(&w_g, w_count * sizeof(double)), attention = -1.0;
    pe_status fst = pe_rope_frequencies(&rope, w, w_count, &attention);
    guard_check(&w_g, "pe_rope_frequencies", fst != PE_OK);
    if (fst == PE_OK) {
        for (size_t i = 0; i < w_count; i++)
            if (!(w[i] >= 0.0 && w[i] <= PE_MAX_FREQUENCY))
                fail("a frequency outside [0, PE_MAX_FREQUENCY]", "pe_rope_frequencies");
        if (!(attention > 0.0 && attention <= FLT_MAX))
            fail("an attention factor not in (0, FLT_MAX]", "pe_rope_frequencies");
    } else
        attention = -1.0;
    uint32_t reach = 0;
    if (pe_rope_xpos_reach(&rope, &reach) == PE_OK && rope.xpos.scale_base != 0.0 && reach < PE_MAX_POSITION) {
        /* reach = floor(64 ln 2 / |ln zeta_0| * scale_base): its scale is within 2^64, reach + 2's is not. */
        const double per_step = -log(rope.xpos.gamma / (1.0 + rope.xpos.gamma)) / rope.xpos.scale_base;
        if (reach && !((double)reach * per_step <= 64.0 * 0.6931471805599453 * (1.0 + 1e-9)))
            fail("the reach's scale passes 2^64", "pe_rope_xpos_reach");
        if (!((double)(reach + 2) * per_step > 64.0 * 0.6931471805599453))
            fail("a scale within 2^64 lies beyond the reach", "pe_rope_xpos_reach");
    }
    float *before = malloc(x_count * sizeof(float) + 1);
    if (!before) abort();
    memcpy(before, x, x_count * sizeof(float));
    const char *call = api == 0 ? "pe_rope" : api == 1 ? "pe_rope_plan_apply" : "pe_rope_plan_init";
    pe_status st;
    pe_dtype dtype = PE_DTYPE_FLOAT32;
    uint16_t *x16 = NULL;
    guarded x16_g;
    memset(&x16_g, 0, sizeof x16_g);
    if (api == 0)
        st = pe_rope(&rope, offset, length, given, x, x_count, scratch, scratch_bytes), trace(call, st);
    else {
        pe_rope_plan *plan = take_plan(in, &rope, &plan_g, &st);
        guard_check(&plan_g, "pe_rope_plan_init", st != PE_OK); /* a refused plan leaves its memory as it was */
        if (plan && api == 1) {
            dtype = (pe_dtype)(take(in, 1) % 4); /* FLOAT64 is refused */
            const uint32_t sequence_length = take(in, 1) < 200 ? 0 : take_size(in, 0);
            void *target = x;
            if (dtype == PE_DTYPE_FLOAT16 || dtype == PE_DTYPE_BFLOAT16) {
                x16 = guard_alloc(&x16_g, x_count * sizeof(uint16_t));
                for (size_t k = 0; k < x_count; k++) x16[k] = half_bits_exact(x[k], dtype == PE_DTYPE_BFLOAT16);
                target = x16;
            }
            uint16_t *x16_before = malloc(x_count * sizeof(uint16_t) + 1);
            if (!x16_before) abort();
            if (x16) memcpy(x16_before, x16, x_count * sizeof(uint16_t));
            st = pe_rope_plan_apply(plan, dtype, sequence_length, offset, length, given, target, x_count);
            trace(call, st);
            if (x16) {
                guard_check(&x16_g, call, 0);
                if (st != PE_OK && memcmp(x16, x16_before, x_count * sizeof(uint16_t)) != 0)
                    fail("a refused call changed x", call);
            }
            free(x16_before);
            /* A plan gives pe_rope's very bits, with or without its cache. */
            if (st == PE_OK && dtype == PE_DTYPE_FLOAT32 && sequence_length == 0)
                same_as_one_shot(&rope, offset, length, given, before, x, x_count, "a plan differs from pe_rope", call);
        } else if (plan) {
            fuzz_rope_cos_sin(in, plan, &rope, offset, length, given, attention, largest_scale);
            st = PE_OK;
        }
    }
    guard_check(&x_g, call, 0);
    if ((st != PE_OK || api == 2) && memcmp(x, before, x_count * sizeof(float)) != 0)
        fail("a refused call changed x", call);
    guard_check(&scratch_g, call, 0);
    if (st == PE_OK && api != 2 && largest_scale < 0.0) fail("a position beyond xPos's reach was accepted", call);
    if (st == PE_OK && api != 2 && attention > 0.0) {
        /* A rotation keeps a pair's length (2 ulp), times the attention factor and xPos's largest scale. */
        const double bound = (double)largest * 1.4143 * attention * largest_scale * (1.0 + 0x1p-20);
        if (x16)
            halves_within(x16, x_count, dtype == PE_DTYPE_BFLOAT16, bound, call);
        else
            floats_within(x, x_count, (float)-bound, (float)bound, call);
    }
    /* Three equal axes are plain RoPE, bit for bit. */
    if (st == PE_OK && api != 2 && same_axes && given && !x16) {
        pe_rotary plain = rope;
        memset(&plain.axes, 0, sizeof plain.axes);
        same_as_one_shot(&plain, offset, length, first_axis, before, x, x_count,
                         "mrope with three equal axes differs from plain RoPE", call);
    }
    free(before);
    free(positions);
    guard_free(&x_g);
    guard_free(&scratch_g);
    guard_free(&w_g);
    if (plan_g.block) guard_free(&plan_g);
    if (x16_g.block) guard_free(&x16_g);
}

static void fuzz_alibi_resample_2d(bytes *in, int which) {
    const char *call = which == 0   ? "pe_alibi_slopes"
                       : which == 1 ? "pe_alibi_bias"
                       : which == 2 ? "pe_resample_table"
                       : which == 3 ? "pe_table_2d"
                                    : "pe_narrow_f64";
    guarded out_g, in_g, scratch_g;
    memset(&in_g, 0, sizeof in_g);
    memset(&scratch_g, 0, sizeof scratch_g);
    pe_status st;
    size_t out_count;
    float lo = -1.0f, hi = 1.0f;
    float *out;
    if (which == 0) {
        const uint32_t heads = take_size(in, 0);
        out_count = take_count(in, heads <= PE_MAX_HEADS ? heads : 1);
        if (out_count > PE_MAX_HEADS + 1) return;
        out = guard_alloc(&out_g, out_count * sizeof(float));
        st = pe_alibi_slopes(heads, out, out_count);
        lo = 0x1p-126f; /* (0, 1]: the smallest slope is 2^-8 for a power of two, 2^-8(h+1)/P otherwise */
    } else if (which == 1) {
        /* Keys up to 8400: rows of 256 keys or more are copied from a ramp, in two tiles past 8129. */
        pe_alibi a = {take_size(in, 0), take_size(in, 128), take_size(in, 8400), take_position(in),
                      (int)(take(in, 1) & 1)};
        const uint32_t first = take_size(in, 0), count = take_size(in, 16);
        out_count = take_count(in, (size_t)count * a.query_length * a.key_length);
        if (out_count > (1u << 20)) return;
        out = guard_alloc(&out_g, out_count * sizeof(float));
        st = pe_alibi_bias(&a, first, count, out, out_count);
        lo = -INFINITY, hi = 0.0f;
        if (st == PE_OK && !a.causal) lo = -FLT_MAX; /* finite without the mask */
    } else if (which == 2) {
        const uint32_t rows = take_size(in, 64), dim = take_size(in, 64), new_rows = take_size(in, 256);
        float *table = guard_alloc(&in_g, (size_t)rows * dim * sizeof(float));
        lo = hi = 0.0f;
        for (size_t k = 0; k < (size_t)rows * dim; k++) {
            table[k] = (float)(int8_t)take(in, 1);
            lo = fminf(lo, table[k]), hi = fmaxf(hi, table[k]);
        }
        out_count = take_count(in, (size_t)new_rows * dim);
        if (out_count > (1u << 20)) {
            guard_free(&in_g);
            return;
        }
        out = guard_alloc(&out_g, out_count * sizeof(float));
        st = pe_resample_table(table, rows, dim, new_rows, out, out_count);
    } else if (which == 3) {
        pe_grid2d grid = {take_size(in, 64), take_size(in, 64), take_size(in, 0), take_double(in, 10000.0),
                          (int)(take(in, 1) & 1)};
        size_t need = 64;
        if (pe_table_2d_scratch_size(&grid, &need) != PE_OK || need > MAX_BYTES) need = 64;
        const size_t dim = grid.dim <= 4096 ? grid.dim : 4;
        out_count = take_count(in, ((size_t)grid.height * grid.width + (grid.cls_token != 0)) * dim);
        if (out_count > (1u << 20)) return;
        out = guard_alloc(&out_g, out_count * sizeof(float));
        void *scratch = guard_alloc(&scratch_g, need);
        st = pe_table_2d(&grid, out, out_count, scratch, take(in, 1) < 240 ? need : need - 1);
    } else {
        const size_t count = take(in, 1) % 64;
        double *values = (double *)guard_alloc(&in_g, count * sizeof(double));
        for (size_t k = 0; k < count; k++) values[k] = take_f64(in);
        const pe_dtype dtype = (pe_dtype)(take(in, 1) % 5);
        out = guard_alloc(&out_g, count * 8);
        st = pe_narrow_f64(dtype, values, count, out, count);
        out_count = 0; /* any value narrows to something: no range to check */
        if (st != PE_OK) guard_check(&out_g, call, 1);
    }
    guard_check(&out_g, call, st != PE_OK);
    if (in_g.block) guard_check(&in_g, call, 0), guard_free(&in_g);
    if (scratch_g.block) guard_check(&scratch_g, call, 0), guard_free(&scratch_g);
    if (st == PE_OK) floats_within(out, out_count, lo, hi, call);
    guard_free(&out_g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_null_sweep(); /* once a process: every entry point's NULL pointers */
    bytes in = {data, size};
    const uint8_t head = (uint8_t)take(&in, 1);
    if (pe_use_kernels(head & 1 ? PE_KERNELS_SIMD : PE_KERNELS_SCALAR) != PE_OK) abort();
    const unsigned which = (head >> 1) % 25;
    if (which < 10)
        fuzz_tables(&in, (int)which);
    else if (which < 13)
        fuzz_adds(&in, (int)which - 10);
    else if (which == 13)
        fuzz_rope(&in);
    else if (which < 19)
        fuzz_alibi_resample_2d(&in, (int)which - 14);
    else if (which < 22)
        fuzz_relative(&in, (int)which - 19);
    else if (which == 22)
        fuzz_diagnose(&in);
    else if (which == 23)
        fuzz_config(&in);
    else
        fuzz_tables(&in, 10);
    (void)pe_status_str((pe_status)take_u32(&in)); /* never NULL, any value */
    return 0;
}
