/* pe_diagnose (posenc.h): the steps of diag_internal.h in order, on
 * caller-owned scratch carved here. Every refusal comes before result is
 * written. */
#include <string.h>

#include "diag_internal.h"
#include "math/f64math.h"

#define CHECK_NOT_SINUSOIDAL 0.05 /* rms error (relative to the amplitude) past which no convention is claimed */
#define IDENTIFIED_SHARE     0.99 /* share of sampled cells a recipe must reproduce */
#define NOISE_RMS            1e-5 /* rms off a recipe's values (relative to the amplitude) read as noise on it */

static size_t align16(size_t x) {
    return (x + 15) & ~(size_t)15;
}

/* The widest plan a table of rows x cols may need: either orientation, a cache doubled. */
static uint32_t plan_dim(uint32_t rows, uint32_t cols) {
    uint64_t n = rows > cols ? rows : cols;
    n *= 2;
    return n > PE_MAX_DIM ? PE_MAX_DIM : (uint32_t)n;
}

typedef struct layout_sizes {
    size_t zero, ints, doubles, fit, samples, values, chunk, memo, plan, total;
} layout_sizes;

static pe_status sizes(uint32_t rows, uint32_t cols, layout_sizes *s) {
    if (rows == 0 || cols == 0 || (rows < 2 && cols < 2)) return PE_ERR_SHAPE;
    const size_t n = rows > cols ? rows : cols, dim = plan_dim(rows, cols);
    if ((uint64_t)rows * cols > SIZE_MAX / 4) return PE_ERR_TOO_LARGE;
    pe_status st = pe_scratch_size((uint32_t)dim, &s->plan);
    if (st != PE_OK) return st;
    s->zero = align16(n);
    s->ints = align16(5 * n * sizeof(uint32_t));
    s->doubles = align16(10 * n * sizeof(double));
    s->fit = align16(2 * DIAG_FIT_SAMPLES * sizeof(double));
    s->samples = align16(2 * DIAG_SAMPLES * sizeof(uint32_t));
    s->values = align16(((size_t)DIAG_SAMPLES + 4) * dim * sizeof(double)); /* + the tried inv_freq arrays */
    s->chunk = align16((size_t)DIAG_CHUNK * dim * sizeof(float));
    s->memo = align16(2 * 2 * DIAG_MEMO_CAP * sizeof(double));
    s->total =
        s->zero + s->ints + s->doubles + s->fit + s->samples + s->values + s->chunk + s->memo + align16(s->plan) + 16;
    return PE_OK;
}

pe_status pe_diagnose_scratch_size(uint32_t rows, uint32_t cols, size_t *bytes) {
    if (!bytes) return PE_ERR_NULL;
    layout_sizes s;
    pe_status st = sizes(rows, cols, &s);
    if (st == PE_OK) *bytes = s.total;
    return st;
}

static void carve(diag_work *w, const layout_sizes *s, void *scratch, size_t n) {
    unsigned char *p = (unsigned char *)scratch;
    p += (16 - ((uintptr_t)p & 15)) & 15;
    w->zero = p, p += s->zero;
    w->col_sin = (uint32_t *)p, w->col_cos = w->col_sin + n, w->src = w->col_cos + n, w->stride = w->src + n;
    w->order = w->stride + n;
    p += s->ints;
    w->w = (double *)p, w->phase0 = w->w + n, w->sigma = w->phase0 + n, w->model_w = w->sigma + n,
    w->tmp = w->model_w + n, w->mx = w->tmp + n, w->my = w->mx + n, w->psd = w->my + n;
    w->freq = w->psd + n, w->freq_sd = w->freq + n;
    p += s->doubles;
    w->fx = (double *)p, w->fy = w->fx + DIAG_FIT_SAMPLES, p += s->fit;
    w->sample = (uint32_t *)p, w->positions = w->sample + DIAG_SAMPLES, p += s->samples;
    w->values = (double *)p, p += s->values;
    w->chunk = (float *)p, p += s->chunk;
    w->memo[0].lo_hi = (double *)p, w->memo[1].lo_hi = w->memo[0].lo_hi + 2 * DIAG_MEMO_CAP, p += s->memo;
    w->plan_memory = p;
    w->plan_bytes = s->plan;
}

/* The fitted convention's exact float64 values at the sampled rows (w->values). */
static pe_status sample_values(diag_work *w, const pe_diagnosis *d) {
    const uint32_t p0 = diag_first_position(w, d);
    for (uint32_t s = 0; s < w->samples; s++) w->positions[s] = p0 + (w->sample[s] - w->first_row);
    pe_plan *plan;
    pe_status st = diag_model_plan(w, d, &plan);
    if (st != PE_OK) return st;
    return pe_plan_table_at_dtype(plan, PE_DTYPE_FLOAT64, w->positions, w->samples, w->values,
                                  (size_t)w->samples * 2 * w->h);
}

/* The convention read (model_w, offset, scale): the recipe that reproduces the cells, the error, the scaling's
 * parameters, and the verdict. */
static void finish(diag_work *w, pe_diagnosis *d) {
    diag_pick_samples(w);
    if (sample_values(w, d) != PE_OK) return;
    diag_match_recipe(w, d);
    diag_error_bands(w, d);
    diag_scaling_params(w, d);
    /* far from exact, but reproduced cell for cell by a recipe (every step in bfloat16) is sinusoidal too */
    d->sinusoidal = d->rms_error < CHECK_NOT_SINUSOIDAL || d->recipe_match >= IDENTIFIED_SHARE;
    d->identified = d->sinusoidal && d->recipe_match >= IDENTIFIED_SHARE;
}

/* inv_freq values within a few ulps of a formula's (PyTorch's float32 exp and pow are not correctly rounded):
 * that formula is the recipe; inv_formula_share says how many are its correctly rounded values. */
static void name_recipe(diag_work *w, pe_diagnosis *d, pe_diag_recipe formula) {
    if (d->recipe != PE_DIAG_RECIPE_F32_FITTED || formula < PE_DIAG_RECIPE_F32_HF || formula > PE_DIAG_RECIPE_F32_EXP)
        return;
    float *inv = (float *)w->tmp;
    uint32_t same = 0;
    if (!diag_inv_formula(w, d, formula, 0, inv)) return;
    for (uint32_t k = 0; k < w->h; k++) {
        const double ulp = diag_ulp(PE_DTYPE_FLOAT32, (double)inv[k]), off = (double)inv[k] - w->w[k];
        if (off > 4.5 * ulp || -off > 4.5 * ulp) return; /* not that formula's after all */
        same += (double)inv[k] == w->w[k];
    }
    d->recipe = formula;
    d->inv_formula = formula;
    d->inv_formula_share = (double)same / w->h;
}

/* Noisy cells (a table printed to a few decimals, or perturbed): no recipe reproduces them cell for cell, but
 * the convention, first position and recipe do within the noise (rms off the recipe's values, relative to the
 * amplitude); the text gives the match. */
static void within_noise(pe_diagnosis *d, pe_diag_recipe formula, double rms) {
    if (d->identified || !d->offset_known || !(rms < NOISE_RMS)) return;
    d->identified = d->sinusoidal = 1;
    d->recipe = formula;
    d->recipe_tied = PE_DIAG_RECIPE_UNKNOWN;
}

/* Noise wider than NOISE_RMS (a table perturbed, or printed to a few decimals): the reading's convention fits the
 * cells to a small rms spread evenly, as noise is (the largest cell within NOISY_PEAK rms of it over at least
 * NOISY_CELLS cells; a wrong reading's error is large, or concentrated in some rows or columns), at a round base
 * and a first position read. Identified with no recipe: the verdict says noisy and quotes the rms. Past 2^24, or
 * where only the slow columns are sinusoids, the reading is not trusted so far. */
#define NOISY_RMS   0.02
#define NOISY_PEAK  6.0
#define NOISY_CELLS 256
static int digits_of(double x) { /* significant digits of a whole number (a snapped base) */
    int n = 0;
    while (x >= 10.0 && diag_round_int(x / 10.0) * 10.0 == x) x /= 10.0;
    for (; x >= 1.0; x /= 10.0) n++;
    return n;
}

/* Paper's base T and tensor2tensor's T^((h-1)/h) give one set of frequencies: with noise a base of three digits
 * is round too, so the rule is the one whose base has fewer digits at the reading's precision (fairseq at 13500
 * paper is 10000 tensor2tensor). */
static void rounder_rule(pe_diagnosis *d) {
    const double h = d->pairs;
    if (d->pairs < 2 || d->base_digits < 1) return;
    const double alt = diag_exp(pe_log(d->base) * (d->rule ? h / (h - 1.0) : (h - 1.0) / h));
    double rel = 0.5;
    for (int k = 1; k < d->base_digits; k++) rel /= 10.0;
    int round;
    const double snapped = diag_snap(alt, rel, &round);
    if (!round || digits_of(snapped) >= digits_of(d->base)) return;
    d->rule = !d->rule, d->base = snapped;
}

static void within_wide_noise(const diag_work *w, pe_diagnosis *d) {
    if (d->identified || !d->sinusoidal || !d->offset_known || !d->base_round || d->rule < 0 || d->rule > 1 ||
        d->position_grid || (w->searched & PE_DIAG_SEARCHED_SLOW_ONLY) || d->recipe_match >= 0.5)
        return;
    if (d->scaling != PE_DIAG_SCALING_NONE && d->scaling != PE_DIAG_SCALING_LINEAR) return;
    if ((uint64_t)(d->rows - d->zero_rows) * d->cols < NOISY_CELLS) return;
    if (!(d->rms_error > 0.0 && d->rms_error < NOISY_RMS && d->max_error <= NOISY_PEAK * d->rms_error)) return;
    rounder_rule(d);
    d->identified = 1;
    d->recipe = d->recipe_tied = PE_DIAG_RECIPE_UNKNOWN;
}

/* A cache read again at HF's own parameters (read: an exact HF reading); the reading wins when the cells fit it.
 * Returns 1 then. */
static int reread_at_hf(diag_work *w, pe_diagnosis *d, int (*read)(diag_work *, pe_diagnosis *, double *),
                        pe_diag_recipe formula) {
    pe_diagnosis alt = *d;
    double rms;
    if (!read(w, &alt, &rms)) return 0;
    finish(w, &alt);
    within_noise(&alt, formula, rms);
    if (!alt.identified) return 0;
    *d = alt;
    return 1;
}

/* A cache reading's cells missed bit for bit (diag_exact_bits.c) when stored as float16 or bfloat16, where the
 * true set misses all but none; 0 in float32, where PyTorch's sin and cos miss many. */
static uint32_t narrow_cells_missed(const diag_work *w, const pe_diagnosis *d) {
    const int narrow = d->storage == PE_DTYPE_FLOAT16 || d->storage == PE_DTYPE_BFLOAT16;
    return narrow ? diag_cache_cells_missed(w, d) : 0;
}

/* An unscaled or linear cache read within an ulp but missing cells bit for bit: a Llama 3 or YaRN set of HF's
 * that misses fewer (Llama 3 changes only slow columns, which a narrow cache of few rows hardly shows) wins. */
static void fewer_missed_scaled(diag_work *w, pe_diagnosis *d, uint32_t missed) {
    pe_diagnosis alt = *d;
    double rms;
    if (!diag_exact_cache_scaled(w, &alt, &rms) || narrow_cells_missed(w, &alt) >= missed) return;
    finish(w, &alt);
    if (alt.identified) *d = alt;
}

/* A float32 table the reading did not identify, identified only with fitted inv_freq values, or without its
 * first position (float32 angles near 2^24 hide the position's last digits from the phase lines): read again
 * with each recipe's own frequencies at any first position (diag_exact.c). Wins when it identifies the table.
 * Returns 1 when a cache was identified at one of HF's parameter sets regenerated value by value (which no
 * reading with fitted frequencies may overrule: fitted ones describe only the columns that turn). */
static int fit_exact(diag_work *w, pe_diagnosis *d) {
    /* a scaled cache identified with fitted frequencies at parameters off HF's canonical sets (YaRN's betas not
     * 32 and 1): HF's own sets are read too, and one the cells fit (alone) wins */
    if (d->kind == PE_DIAG_COS_SIN && d->pairs > 0 && d->identified && d->scaling == PE_DIAG_SCALING_YARN &&
        !(d->beta_fast == 32.0 && d->beta_slow == 1.0))
        return reread_at_hf(w, d, diag_exact_cache_scaled, PE_DIAG_RECIPE_F32_FITTED);
    /* an unscaled cache identified at a base that is not round (frequencies fitted from position 0): HF's dynamic
     * NTK base from a common rope_theta, regenerated as HF does, wins when the cells fit it */
    if (d->kind == PE_DIAG_COS_SIN && d->pairs > 0 && d->identified && d->scaling == PE_DIAG_SCALING_NONE &&
        !d->base_round)
        return reread_at_hf(w, d, diag_exact_cache_dynamic, PE_DIAG_RECIPE_F32_HF);
    if (d->kind == PE_DIAG_COS_SIN && d->pairs > 0 && !d->identified) {
        pe_diagnosis alt = *d;
        double rms;
        if (diag_exact_cache(w, &alt, &rms)) {
            const uint32_t missed = narrow_cells_missed(w, &alt);
            finish(w, &alt);
            name_recipe(w, &alt, PE_DIAG_RECIPE_F32_HF);
            within_noise(&alt, PE_DIAG_RECIPE_F32_HF, rms);
            if (alt.identified) {
                *d = alt;
                if (missed > 0) fewer_missed_scaled(w, d, missed);
                return 1;
            }
        }
        /* at a base that is not round: HF's dynamic NTK base from a common rope_theta */
        alt = *d;
        if (diag_exact_cache_dynamic(w, &alt, &rms)) {
            finish(w, &alt);
            within_noise(&alt, PE_DIAG_RECIPE_F32_HF, rms);
            if (alt.identified) {
                *d = alt;
                return 1;
            }
        }
        /* not an unscaled or linear cache: HF's YaRN and Llama 3 parameter sets */
        alt = *d;
        if (diag_exact_cache_scaled(w, &alt, &rms)) {
            finish(w, &alt);
            within_noise(&alt, PE_DIAG_RECIPE_F32_FITTED, rms);
            if (alt.identified) {
                *d = alt;
                return 1;
            }
        }
        /* LongRoPE: per-column factors, read where the columns fix them */
        alt = *d;
        if (diag_exact_cache_longrope(w, &alt, &rms)) {
            finish(w, &alt);
            if (alt.identified) {
                *d = alt;
                return 1;
            }
            w->open_lo = w->open_hi = NULL; /* that reading's, not another's */
        }
        /* far out (diag_far.c): the position from column 0, then HF's sets; then the LongRoPE lists shipped
         * models carry (diag_far_longrope.c) */
        return reread_at_hf(w, d, diag_exact_cache_far, PE_DIAG_RECIPE_F32_FITTED) ||
               reread_at_hf(w, d, diag_exact_cache_far_lists, PE_DIAG_RECIPE_F32_FITTED) ||
               reread_at_hf(w, d, diag_exact_cache_far_search, PE_DIAG_RECIPE_F32_FITTED);
    }
    if (d->kind != PE_DIAG_TABLE || d->storage != PE_DTYPE_FLOAT32 || d->pairs == 0 ||
        (d->identified && d->recipe != PE_DIAG_RECIPE_F32_FITTED && d->offset_known))
        return 0;
    pe_diagnosis alt = *d;
    pe_diag_recipe formula;
    double rms;
    if (!diag_exact_table(w, &alt, &formula, &rms)) return 0;
    finish(w, &alt);
    name_recipe(w, &alt, formula);
    within_noise(&alt, formula, rms);
    if (alt.identified) *d = alt;
    return 0;
}

/* from0: a cache read as starting at position 0 (diag_cache0.c) */
static void fit_reading(diag_work *w, pe_diagnosis *d, pe_diag_kind kind, int from0) {
    if (d->rows - d->zero_rows < 2 || d->cols > PE_MAX_DIM / 2 || !diag_structure(w, d, kind)) return;
    if (d->kind == PE_DIAG_TABLE)
        diag_fit_pairs(w, d);
    else if (from0)
        diag_fit_cache_from0(w, d);
    else
        diag_fit_cache(w, d);
    if (from0 && d->kind == PE_DIAG_TABLE) return;
    d->pairs = w->h;
    w->searched |= from0 ? PE_DIAG_SEARCHED_FROM0 : PE_DIAG_SEARCHED_PHASE;
    if (!(d->scale > 0.0)) return;
    diag_fit_rule(w, d);
    if (!from0) {
        diag_fit_offset(w, d, 0);
        /* a scaled cache the rule read as unscaled from its turning columns: the first position from those, then
         * the slow columns' frequencies at it, and the rule again */
        if (d->kind == PE_DIAG_COS_SIN && !d->offset_known && diag_refit_loose(w, d)) {
            diag_fit_rule(w, d);
            diag_fit_offset(w, d, 0);
        }
    }
    double one_ulp = 4.0 * diag_ulp(d->storage, 1.0);
    if (d->scale - 1.0 < one_ulp && 1.0 - d->scale < one_ulp) d->scale = 1.0;
    double turns = 0.0;
    for (uint32_t k = 0; k < w->h; k++) {
        if (!(w->model_w[k] >= 0.0 && w->model_w[k] <= 1e6)) return;
        turns = w->model_w[k] > turns ? w->model_w[k] : turns;
    }
    /* columns that do not turn over the rows (a constant table) are no sinusoids of the position */
    if (turns * (d->rows - w->first_row) < 1e-3) {
        d->pairs = 0; /* no sinusoid's structure to report either */
        return;
    }
    finish(w, d);
}

static void fit(diag_work *w, pe_diagnosis *d, pe_diag_kind kind) {
    const pe_diagnosis before = *d;
    const diag_view full = w->v;
    fit_reading(w, d, kind, 0);
    const int at_hf_set = fit_exact(w, d);
    if (d->kind != PE_DIAG_COS_SIN || (d->identified && (at_hf_set || !(d->offset_known && d->offset == 0.0)))) return;
    /* a cache that starts at position 0, or that the reading at any position does not identify: the reading
     * from position 0 too, which fits each column's frequency from its own cells (scaled caches of few rows,
     * LongRoPE's factors); it wins when it identifies the cache */
    pe_diagnosis from0 = before;
    const diag_view reading = w->v;
    w->v = full;
    diag_zero_rows(w, &from0);
    fit_reading(w, &from0, kind, 1);
    if (from0.identified) {
        from0.offset_searched = d->offset_searched;
        /* per-pair factors the rows leave open: a YaRN or Llama 3 set of HF's that fits every cell names them */
        if (from0.scaling == PE_DIAG_SCALING_PER_PAIR && from0.pair_factors_open > 0)
            reread_at_hf(w, &from0, diag_exact_cache_scaled, PE_DIAG_RECIPE_F32_FITTED);
        *d = from0;
    } else
        w->v = reading;
    /* else the first reading's facts stand (what follows reads the cells again, not the working arrays) */
}

static int same_cells(const diag_view *v, uint32_t r1, uint32_t c1, uint32_t r2, uint32_t c2, uint32_t count) {
    for (uint32_t k = 0; k < count; k++)
        if (diag_at(v, r1, c1 + k) != diag_at(v, r2, c2 + k)) return 0;
    return 1;
}

/* A 2-D grid as MAE builds it (posenc.h, pe_grid2d): token y * W + x holds
 * [1-D table of dim/2 at x | the same at y]. Finds the smallest W with the
 * first half repeating every W tokens, the second half constant along a grid
 * row and equal to the first half's row y, and reads the first half's W rows
 * as a 1-D table. */
static int try_grid(diag_work *w, pe_diagnosis *d) {
    const diag_view full = w->v;
    const uint32_t half = full.cols / 2, first = w->first_row, n = full.rows - first;
    if (full.cols % 4 != 0 || n < 4 || d->zero_rows != d->leading_zero_rows) return 0;
    for (uint32_t width = 2; width <= n / 2; width++) {
        if (n % width) continue;
        uint32_t height = n / width, side = height < width ? height : width, ok = 1;
        for (uint32_t r = first; r + width < full.rows && ok; r += width / 2 + 1)
            ok = same_cells(&full, r, 0, r + width, 0, half);
        for (uint32_t x = 1; x < width && ok; x++) ok = same_cells(&full, first, half, first + x, half, half);
        for (uint32_t y = 1; y < side && ok; y++) ok = same_cells(&full, first + y * width, half, first + y, 0, half);
        if (!ok) continue;
        pe_diagnosis one = *d;
        w->searched |= PE_DIAG_SEARCHED_GRID;
        w->v.rows = first + width;
        w->v.cols = half;
        one.rows = width;
        one.cols = half;
        fit(w, &one, PE_DIAG_TABLE);
        if (!one.identified) {
            w->v = full;
            return 0;
        }
        one.rows = d->rows;
        one.cols = d->cols;
        one.grid_height = height;
        one.grid_width = width;
        *d = one;
        return 1;
    }
    return 0;
}

/* Rows repeating on a float32 position grid past 2^24 (HF's position_ids.float()): its grid points, one row a
 * run, are a cache at whole positions of inv_freq times the step g (diag_grid_points), so a linear (or unscaled)
 * cache reads there as linear with factor f / g at first position p / g. Mapped back, the row at the first grid
 * point fixes the first position exactly. Other scalings are left to the verdict's words (their parameters do not
 * scale with the step). Returns 1 when identified. */
static int try_grid_points(diag_work *w, pe_diagnosis *d, const pe_diagnosis *before, const diag_view *full,
                           pe_diag_kind kind) {
    diag_view points;
    uint32_t first;
    if (!diag_grid_points(full, d, &points, &first) || points.rows < 8) return 0;
    pe_diagnosis one = *before;
    w->v = points;
    one.rows = points.rows;
    diag_zero_rows(w, &one);
    fit(w, &one, kind);
    w->v = *full;
    const int linear = one.scaling == PE_DIAG_SCALING_LINEAR, unscaled = one.scaling == PE_DIAG_SCALING_NONE;
    if (!one.identified || !one.offset_known || !(linear || unscaled)) return 0;
    const double g = d->position_grid, factor = (linear ? one.factor : 1.0) * g;
    one.scaling = factor == 1.0 ? PE_DIAG_SCALING_NONE : PE_DIAG_SCALING_LINEAR;
    one.factor = factor == 1.0 ? 0.0 : factor;
    one.offset = one.offset * g - (double)(first - before->leading_zero_rows);
    one.offset_sd *= g;
    one.first_above_1e6 = one.first_above_1e6 < 0 ? -1 : (int64_t)(one.first_above_1e6 * g);
    one.first_above_1e3 = one.first_above_1e3 < 0 ? -1 : (int64_t)(one.first_above_1e3 * g);
    one.rows = d->rows, one.cols = d->cols, one.transposed = d->transposed;
    one.leading_zero_rows = d->leading_zero_rows, one.zero_rows = d->zero_rows;
    one.first_inner_zero_row = d->first_inner_zero_row;
    one.position_grid = d->position_grid, one.distinct_rows = d->distinct_rows;
    one.position_grid_whole = d->position_grid_whole, one.position_grid_phase = d->position_grid_phase;
    *d = one;
    return 1;
}

static int zero_column(const diag_view *v, uint32_t c) {
    for (uint32_t r = 0; r < v->rows; r++)
        if (diag_at(v, r, c) != 0.0) return 0;
    return 1;
}

pe_status pe_diagnose(const float *table, uint32_t rows, uint32_t cols, pe_diag_kind kind, pe_diagnosis *result,
                      size_t *bad_cell, void *scratch, size_t scratch_bytes) {
    if (!table || !result || !scratch) return PE_ERR_NULL;
    if ((unsigned)kind > PE_DIAG_COS_SIN) return PE_ERR_KIND;
    layout_sizes s;
    pe_status st = sizes(rows, cols, &s);
    if (st != PE_OK) return st;
    if (scratch_bytes < s.total) return PE_ERR_SCRATCH;
    const size_t cells = (size_t)rows * cols;
    for (size_t k = 0; k < cells; k++) {
        float x = table[k];
        if (x - x != 0.0f) { /* NaN or infinite */
            if (bad_cell) *bad_cell = k;
            return PE_ERR_NOT_FINITE;
        }
    }
    pe_diagnosis *d = result;
    memset(d, 0, sizeof *d);
    diag_work work;
    diag_work *w = &work;
    memset(w, 0, sizeof *w);
    d->transposed = diag_transposed(table, rows, cols);
    w->v.data = table;
    w->v.rows = d->transposed ? cols : rows;
    w->v.cols = d->transposed ? rows : cols;
    w->v.rs = d->transposed ? 1 : cols;
    w->v.cs = d->transposed ? cols : 1;
    d->rows = w->v.rows;
    d->cols = w->v.cols;
    d->rule = -1;
    d->recipe = d->recipe_tied = PE_DIAG_RECIPE_UNKNOWN;
    d->first_above_1e6 = d->first_above_1e3 = -1;
    for (int b = 0; b < PE_DIAG_BANDS; b++) d->band_error[b] = -1.0;
    for (int k = 0; k < PE_DIAG_NEAREST; k++) d->nearest_distance[k] = -1.0;
    carve(w, &s, scratch, rows > cols ? rows : cols);
    diag_zero_rows(w, d);
    d->storage = diag_storage(&w->v);
    diag_position_grid(&w->v, d);
    const diag_view full = w->v;
    const pe_diagnosis before = *d;
    fit(w, d, kind);
    if (!d->identified && kind != PE_DIAG_COS_SIN) {
        pe_diagnosis grid = before;
        diag_zero_rows(w, &grid); /* a cache reading may have taken a zero row as position 0 */
        if (try_grid(w, &grid)) *d = grid;
    }
    if (!d->identified && full.cols >= 3 && full.cols % 2 == 1 && zero_column(&full, full.cols - 1)) {
        /* fairseq's odd embedding_dim: the table of dim - 1, then a column of zeros */
        pe_diagnosis trimmed = before;
        w->v = full;
        w->v.cols = trimmed.cols = full.cols - 1;
        diag_zero_rows(w, &trimmed);
        fit(w, &trimmed, kind);
        if (trimmed.identified) {
            trimmed.cols = full.cols;
            trimmed.zero_last_columns = 1;
            *d = trimmed;
        }
        w->v = full;
    }
    if (!d->identified && d->position_grid) try_grid_points(w, d, &before, &full, kind);
    within_wide_noise(w, d);
    if (!d->sinusoidal && d->rows - d->zero_rows >= 8) {
        /* no convention read, but the columns are sinusoids of the position (a cache at parameters outside the
         * search): never "learned or random"; the verdict says what was searched and the reading nearest */
        pe_diagnosis fresh = before;
        w->v = full;
        diag_zero_rows(w, &fresh);
        /* the loose count too: far out (1.3e7) float32 angles blur the fast columns of a peer's cache */
        d->sinusoidal = diag_columns_sinusoidal(w, 0);
        if (!d->sinusoidal && diag_columns_sinusoidal(w, 1)) {
            d->sinusoidal = 1;
            w->searched |= PE_DIAG_SEARCHED_SLOW_ONLY;
        }
        diag_view points;
        uint32_t first;
        if (!d->sinusoidal && diag_grid_points(&full, d, &points, &first)) {
            /* rows repeating on a float32 grid: the columns are sinusoids of the grid points */
            w->v = points;
            diag_zero_rows(w, &fresh);
            d->sinusoidal = diag_columns_sinusoidal(w, 1);
            w->v = full;
            diag_zero_rows(w, &fresh);
        }
    }
    d->searched = w->searched, d->searched_candidates = w->searched_candidates;
    d->searched_budget_spent = w->searched_budget_spent;
    d->searched_positions = w->searched_positions > d->offset_searched ? w->searched_positions : d->offset_searched;
    if (!d->identified && d->cols <= PE_MAX_DIM) {
        pe_diagnosis fresh = before;
        w->v = full;
        diag_zero_rows(w, &fresh);
        diag_pick_samples(w);
        diag_nearest(w, d);
    }
    return PE_OK;
}
