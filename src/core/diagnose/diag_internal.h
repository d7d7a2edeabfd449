/* Internal to the diagnose family (posenc.h, pe_diagnose): the view of the
 * table being read, the working arrays carved from the caller's scratch, and
 * the steps, one file each:
 *
 *   diag_shape.c     orientation, zero rows, storage dtype, column structure
 *   diag_phase.c     per-pair frequencies and phases, the first position
 *   diag_rule.c      base, frequency rule and RoPE scaling from the frequencies
 *   diag_scaling.c   that scaling in HF's rope_scaling parameters
 *   diag_pair_range.c  how far the cells fix LongRoPE's per-pair factors
 *   diag_exact.c     a float32 table read with each recipe's own frequencies, at any first position
 *   diag_exact_scaled.c  a YaRN or Llama 3 cache read at HF's parameter sets, at any first position
 *   diag_exact_dynamic.c a dynamic NTK cache read at HF's rescaled base, at any first position
 *   diag_exact_longrope.c a LongRoPE cache at the factors its recurrences fix, at any first position
 *   diag_exact_bits.c  a cache reading's cells counted bit for bit (to part rival parameter sets)
 *   diag_hf_sets.c   HF's canonical contexts, YaRN and Llama 3 factors, YaRN's ramp (for the two above and below)
 *   diag_far.c       a cache far out (near 2^24 and past it): the position from column 0, then HF's sets
 *   diag_recipe.c    which precision recipe reproduces the cells
 *   diag_compare.c   error against the exact table; distances when nothing fits
 *   diag_text.c      the verdict in words and as JSON
 *   diag_scaling_text.c  the RoPE scaling's part of both
 *
 * Every step is plain scalar C with -ffp-contract=off and the core's own
 * math (f64math.h), so native and wasm builds reach the same verdict and
 * print the same bytes. */
#ifndef PE_DIAG_INTERNAL_H
#define PE_DIAG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "posenc.h"

/* Cell (r, c) of the table as read: data[r * rs + c * cs]. */
typedef struct diag_view {
    const float *data;
    size_t rs, cs;
    uint32_t rows, cols;
} diag_view;

static inline double diag_at(const diag_view *v, uint32_t r, uint32_t c) {
    return (double)v->data[(size_t)r * v->rs + (size_t)c * v->cs];
}

/* 1 when x is neither infinite nor NaN (x - x is NaN for both). */
static inline int diag_finite(double x) {
    return x - x == 0.0;
}

/* Square root without libm (the same bits on every build): x scaled into
 * [1, 4) by powers of 4, six Newton steps, within 1 ulp. 0 for x <= 0 and
 * NaN, infinity for infinity (which no scaling brings into [1, 4)). */
static inline double diag_sqrt(double x) {
    if (!(x > 0.0)) return 0.0;
    if (!diag_finite(x)) return x;
    double scale = 1.0;
    while (x >= 4.0) x *= 0.25, scale *= 2.0;
    while (x < 1.0) x *= 4.0, scale *= 0.5;
    double y = 1.5;
    for (int k = 0; k < 6; k++) y = 0.5 * (y + x / y);
    return y * scale;
}

/* x rounded to float16 / bfloat16 (nearest, ties to even, once from double)
 * through the public pe_narrow_f64, and back to its exact value. */
static inline double diag_narrow(double x, pe_dtype dtype) {
    uint16_t h;
    pe_narrow_f64(dtype, &x, 1, &h, 1);
    if (dtype == PE_DTYPE_BFLOAT16) {
        uint32_t bits = (uint32_t)h << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    int exponent = (h >> 10) & 31, mantissa = h & 1023;
    double v = exponent == 0    ? mantissa * 0x1p-24
               : exponent == 31 ? (mantissa ? x - x + (x - x) : 1.0 / 0.0)
                                : (1024 + mantissa) * 0x1p-25 * (double)(1u << exponent);
    return (h & 0x8000) ? -v : v;
}

/* rope_theta values checkpoints use, the most common first: the bases every search at HF's own parameters tries
 * (defined in diag_scaling.c). */
#define DIAG_ROPE_THETA_COUNT 7u
extern const double diag_rope_thetas[DIAG_ROPE_THETA_COUNT];

/* HF's canonical scaled parameter sets (diag_hf_sets.c), each list the common first: original contexts
 * (original_max_position_embeddings), YaRN factors and Llama 3 factors. */
#define DIAG_HF_CONTEXT_COUNT       12u
#define DIAG_HF_YARN_FACTOR_COUNT   8u
#define DIAG_HF_LLAMA3_FACTOR_COUNT 5u
extern const double diag_hf_contexts[DIAG_HF_CONTEXT_COUNT];
extern const double diag_hf_yarn_factors[DIAG_HF_YARN_FACTOR_COUNT];
extern const double diag_hf_llama3_factors[DIAG_HF_LLAMA3_FACTOR_COUNT];
struct freq_model;
/* YaRN's ramp at context l0 as HF truncates it (beta_fast 32, beta_slow 1): low = max(floor(c(32)), 0), high =
 * min(ceil(c(1)), dim - 1) with c(beta) = dim ln(l0 / (2 pi beta)) / (2 ln base). 1 and m's ramp_low / ramp_high
 * set when the ramp meets m's columns (low < count, high > 0); 0 and m untouched when not. */
int diag_yarn_ramp(struct freq_model *m, double l0);

/* Rows sampled for the recipe match and the distances. */
#define DIAG_SAMPLES 192u

/* The intervals of first positions left after a cache search's slowest DIAG_MEMO_DEPTH pairs (diag_exact.c):
 * candidates that share those pairs' float32 frequencies (YaRN or Llama 3 at one factor, any context) and read
 * the same cells the same way share them, so the walk over their many branches is done once. */
#define DIAG_MEMO_DEPTH 3u
#define DIAG_MEMO_CAP   1024u
typedef struct diag_memo {
    int valid, cache_cos;
    diag_view v;
    uint32_t r0, count;
    pe_dtype storage;
    double amp;
    uint32_t pair[DIAG_MEMO_DEPTH];
    float inv[DIAG_MEMO_DEPTH];
    double *lo_hi; /* DIAG_MEMO_CAP intervals [lo, hi] */
} diag_memo;

typedef struct diag_work {
    diag_view v;
    unsigned char *zero;         /* rows: 1 for a row of zeros */
    uint32_t first_row;          /* the first row read as a position */
    uint32_t h;                  /* frequencies (pairs, or distinct columns of a cache) */
    uint32_t *col_sin, *col_cos; /* TABLE: each pair's columns; a cache: col_sin = its column */
    uint32_t *src;               /* cols: index into a split plan row [sin_0..sin_h-1 cos_0..cos_h-1], or UINT32_MAX */
    double *w, *phase0, *sigma;  /* h: fitted frequency, phase at the first row, sd of w */
    double *freq, *freq_sd;      /* h: the frequency the phases turn at, its sd (diag_offset.c) */
    double *mx, *my, *psd;       /* h: the phase line's mean row and mean unwrapped angle; sd of a phase read there */
    uint32_t *stride;            /* h: a cache column's quadrature stride (rows), 0 for a pair */
    uint32_t *order;             /* h: pairs by frequency, lowest first (diag_offset.c) */
    double *model_w;             /* h: the frequencies of the identified convention */
    double *tmp;                 /* h doubles */
    double *fx, *fy;             /* DIAG_FIT_SAMPLES points of one line fit */
    uint32_t *sample;            /* DIAG_SAMPLES rows */
    uint32_t *positions;         /* their positions */
    uint32_t samples;
    double *values; /* DIAG_SAMPLES * 2 * h doubles (a plan's float64 rows) */
    void *plan_memory;
    size_t plan_bytes;
    float *chunk;      /* DIAG_CHUNK rows of 2h floats */
    diag_memo memo[2]; /* a cache search's, read as sin [0] and as cos [1] */
    /* what was searched (pe_diagnosis.searched...): gathered over every reading, tried ones included */
    uint32_t searched, searched_candidates;
    double searched_positions;
    int searched_budget_spent;
    double search_limit;    /* > 0: diag_exact_cache_at searches first positions [0, search_limit] only */
    uint64_t reading_nodes; /* > 0: diag_exact_cache_at's steps per reading (cos or sin), else its own cap */
    /* the LongRoPE reading's (diag_exact_longrope.c; else NULL): per column, the frequencies several two-decimal
     * factors span that all fit the cells (0 when one does), for diag_pair_ranges to state as open */
    const double *open_lo, *open_hi;
} diag_work;

/* A search of first positions [0, limit] ran (cut short by its step budget when spent). */
static inline void diag_searched_to(diag_work *w, double limit, int spent) {
    if (limit + 1.0 > w->searched_positions) w->searched_positions = limit + 1.0;
    if (spent) w->searched_budget_spent = 1;
}

#define DIAG_CHUNK       64u
#define DIAG_FIT_SAMPLES 1024u
#define DIAG_PI          3.141592653589793
#define DIAG_TWO_PI      6.283185307179586

/* diag_shape.c */
int diag_transposed(const float *table, uint32_t rows, uint32_t cols);
void diag_zero_rows(diag_work *w, pe_diagnosis *d);
pe_dtype diag_storage(const diag_view *v);
/* Rows repeating in runs as float32 positions past 2^24 make them: sets position_grid, distinct_rows,
 * position_grid_whole and position_grid_phase (after diag_zero_rows). */
void diag_position_grid(const diag_view *v, pe_diagnosis *d);
/* out: v's rows at the grid's points (one a run, every position_grid-th from row *first, whose position is a
 * multiple of the step); 0 when d's grid is not whole or its phase unknown. */
int diag_grid_points(const diag_view *v, const pe_diagnosis *d, diag_view *out, uint32_t *first);
/* 1 when every column is a sinusoid of the row (a linear recurrence down the rows) of one amplitude; loose: two
 * columns at least and an eighth of the turning ones (float32 angles past 2^23 rad, far out or on a float32
 * position grid, blur all but the slow columns; noise and random walks still fail it). */
int diag_columns_sinusoidal(const diag_work *w, int loose);
/* Sets kind, layout, duplicated and the column arrays; returns 0 when no structure fits. */
int diag_structure(diag_work *w, pe_diagnosis *d, pe_diag_kind kind);

/* diag_phase.c */
double diag_atan2(double y, double x);
/* x wrapped into [-pi, pi]. */
double diag_wrap(double x);
/* Frequencies (w, sigma) and phase lines (mx, my, psd) of each pair; sets cos_first, src and scale. */
void diag_fit_pairs(diag_work *w, pe_diagnosis *d);
/* The same for each column of a cache, read in quadrature with a stride; cache_cos and src are set by the offset. */
void diag_fit_cache(diag_work *w, pe_diagnosis *d);
/* diag_cache0.c: a cache read from position 0 (sets the offset, cache_cos, src and scale). */
void diag_fit_cache_from0(diag_work *w, pe_diagnosis *d);
/* A cache's phase lines again, read in quadrature at the frequencies model_w (after the rule). */
void diag_cache_phases(diag_work *w);

/* diag_offset.c: the first position from the phase lines at the frequencies model_w (after the rule): every
 * branch of the lowest frequency below 2^31 scored against the others, the best refined from low frequencies
 * to high. A cache is tried as cos and as sin; its amplitude is fitted last. tight: only the pairs that are not
 * loose (a scaled cache, whose rule extrapolated the loose pairs' frequencies from the unscaled ones). */
void diag_fit_offset(diag_work *w, pe_diagnosis *d, int tight);
/* A cache column the cells hardly turn over its rows: its fitted frequency is loose (sigma of half of it or more). */
static inline int diag_loose(const diag_work *w, uint32_t k) {
    return !(w->w[k] > 0.0 && w->sigma[k] < 0.5 * w->w[k]);
}
/* diag_cache0.c: a scaled cache whose rule could not hold its loose pairs: with the first position found from
 * the others, each loose column's frequency fitted to its cells (returns 0 when there are none or no position). */
int diag_refit_loose(diag_work *w, pe_diagnosis *d);

/* diag_rule.c: base, rule, scaling; fills w->model_w. */
void diag_fit_rule(diag_work *w, pe_diagnosis *d);
/* e^x for any x (the core's exp), and x rounded to a whole number (|x| < 2^51). */
double diag_exp(double x);
double diag_round_int(double x);
/* The whole number at or below x (|x| < 2^51). */
double diag_floor(double x);
/* The roundest number in [lo, hi]: a power of two nearest the middle, else the coarsest multiple of a power of
 * ten; lo when there is none (diag_scaling.c). For lengths read off a scaling (original context, beta). */
double diag_roundest_in(double lo, double hi);
/* x rounded to 1, 2 or 3 significant digits, the roundest within rel
 * (relative; a negative x as -snap(-x)); else x, and x itself when it is 0,
 * infinite or NaN. *round = whether it snapped. */
double diag_snap(double x, double rel, int *round);

/* diag_scaling.c: HF's rope_scaling parameters of the scaling found (after the
 * recipe and the error, which it leaves as they are). */
void diag_scaling_params(diag_work *w, pe_diagnosis *d);

/* diag_pair_range.c: each listed LongRoPE factor bracketed by the cells (pair_factor_lo/hi), at amplitude amp and
 * base e^log_theta; a factor the bracket fixes replaces the fit (two decimals when it holds one such value).
 * Returns the pairs left open. */
uint32_t diag_pair_ranges(const diag_work *w, pe_diagnosis *d, double amp, double log_theta);

/* diag_text.c: text appended to a caller buffer, cut short when full (used counts what was asked). */
typedef struct diag_sink {
    char *out;
    size_t size, used;
} diag_sink;
void diag_put(diag_sink *s, const char *format, ...);

/* A nearest reading the cells do not bear out: not identified, not read from the slow columns alone, and under
 * half of the sampled cells within an ulp of it. Its first position and scaling parameters are the fit's values,
 * not what the cells fix: the text names what was searched and what is open instead of quoting them. */
static inline int diag_nearest_unread(const pe_diagnosis *d) {
    return !d->identified && !(d->searched & PE_DIAG_SEARCHED_SLOW_ONLY) && d->recipe_match < 0.5;
}

/* A cache the readings did not identify whose scaling the verdict says is not read: rows in runs past 2^24, or
 * only the slow columns sinusoidal (far out); the nearest reading's scaling and factor are a blurred fit's, so
 * neither the words nor the JSON give them. */
static inline int diag_scaling_unread(const pe_diagnosis *d) {
    return !d->identified && d->kind == PE_DIAG_COS_SIN &&
           (d->position_grid || (d->searched & PE_DIAG_SEARCHED_SLOW_ONLY));
}
/* The verdict names the scaling's family, or none, but no parameter: the JSON carries none either. */
static inline int diag_params_unread(const pe_diagnosis *d) {
    return diag_nearest_unread(d) || diag_scaling_unread(d);
}

/* diag_scaling_text.c */
/* The scaling in words; full adds what the data fix and the LongRoPE factors. */
void diag_scaling_words(diag_sink *s, const pe_diagnosis *d, int full);
/* "ropeScaling":{...} (HF's names) or null, and for LongRoPE "pairFactorsOpen" and "pairFactorRanges", each
 * followed by a comma. */
void diag_scaling_json(diag_sink *s, const pe_diagnosis *d);

/* diag_recipe.c */
void diag_pick_samples(diag_work *w);
void diag_match_recipe(diag_work *w, pe_diagnosis *d);
double diag_round_storage(pe_dtype storage, double x);
/* inv_freq as a peer formula computes it in float32 (recipe F32_ROUNDED ... F32_EXP; variant 1: the exp
 * formula's quotient from a float32 log) at d's rule, base and scaling; 0 when it does not apply. */
int diag_inv_formula(const diag_work *w, const pe_diagnosis *d, pe_diag_recipe recipe, int variant, float *inv);
double diag_ulp(pe_dtype storage, double x);
/* An ulp of float32 at |x| (inline: diag_exact.c's walk asks for it per branch). */
static inline double diag_ulp32(double x) {
    return diag_ulp(PE_DTYPE_FLOAT32, x < 0 ? -x : x);
}

/* How far a cos/sin cache's cell v may sit from the model value of HF's float32 recipe (attention factor a32):
 * half an ulp of the storage above either |v| or |model| (conservative at a binade's edge), plus two float32
 * ulps of a32 for PyTorch's float32 cos and the product with the attention factor. */
static inline double diag_cache_cell_tol(pe_dtype storage, double v, double model, double a32) {
    const double av = v < 0.0 ? -v : v, am = model < 0.0 ? -model : model;
    return 0.5 * diag_ulp(storage, (av > am ? av : am) * (1.0 + 0x1p-8)) + 2.0 * diag_ulp(PE_DTYPE_FLOAT32, a32);
}

/* diag_exact.c: a float32 table (pairs) read exactly: the base from the rows' angle steps, each recipe's own
 * inv_freq (and its neighbours within NEIGHBOURS ulps), the first position searched over [0, 2^31). On success
 * (1) sets rule, base, offset, model_w (exact frequencies), w (the inv_freq values the cells fit) and *formula
 * (the recipe whose inv_freq they are) and *rms (the cells off that recipe's float64 sin and cos, relative to the
 * amplitude: noise when no recipe matches cell for cell); the recipe match and the error are the caller's. */
int diag_exact_table(diag_work *w, pe_diagnosis *d, pe_diag_recipe *formula, double *rms);

/* diag_exact.c: the same for a RoPE cos or sin cache at HF's float32 inv_freq, unscaled or linear: base and
 * factor from each column's recurrence, each column's two angles at the first row (cos: +-theta, sin: theta,
 * pi - theta), tried as cos and as sin. Sets cache_cos, src, scaling and factor too; *rms as diag_exact_table. */
int diag_exact_cache(diag_work *w, pe_diagnosis *d, double *rms);

/* diag_exact.c: the line log w_k = a - k ln(T) / h through the columns diag_cache_step reads: *base T,
 * *factor e^-a (HF's linear factor) and their relative sds; 0 when fewer than 3 columns are read. */
int diag_cache_line(diag_work *w, double *base, double *factor, double *rel_b, double *rel_a);
/* diag_exact.c: the largest |cell| of a cache's read rows, and whether a cache of amplitude amp (HF's attention
 * factor, taken in float32) can hold it: cos and sin are at most 1 and every rounding on the way is monotone, so
 * no cell exceeds the amplitude as stored, but for PEAK_NOISE (a cache printed to 6 decimals, or noise on it). */
#define PEAK_NOISE 1e-5
double diag_cache_peak(const diag_work *w);
int diag_peak_allows(pe_dtype storage, double peak, double amp);
/* diag_exact_dynamic.c: a cos or sin cache at HF's dynamic NTK base rope_theta alpha^(d / (d - 2)): the base
 * from the columns' recurrences, alpha the roundest value within its precision (alpha - 1 a multiple of 1 / 2^j)
 * the cells fit at HF's float32 inv_freq, at any first position. On success (1) sets base (the dynamic one, not
 * round), rule, scaling NONE (diag_scaling.c names it), dynamic_alpha, rope_theta, model_w and what
 * diag_exact_cache_at sets. */
int diag_exact_cache_dynamic(diag_work *w, pe_diagnosis *d, double *rms);
/* diag_exact.c: a cache column's frequency from its recurrence (least squares 2 cos(w) over the first rows, no
 * first position enters) and its relative sd; 0 when the column turns too little or too much per row to tell. */
int diag_cache_step(const diag_work *w, uint32_t k, double *wk, double *rel);
/* diag_exact.c: each positive sd[k] (of h) raised to the median of the positive ones, count of them read. */
void diag_floor_at_median(double *sd, uint32_t h, uint32_t count);
/* diag_exact.c: a cos or sin cache read at the float32 inv_freq inv (HF's, any scaling; falling with k, w->order
 * set by the caller) and amplitude amp (HF's attention_factor, taken in float32): the first position searched
 * over [0, 2^31) as cos and as sin. On success (1) sets cache_cos, src, offset, scale and w (the inv values the
 * cells fit, within NEIGHBOURS ulps), *share (cells within an ulp) and *rms; the rest is the caller's. Uses freq,
 * freq_sd, sigma and the chunk as scratch. budget (or NULL): search steps left, spent here. */
int diag_exact_cache_at(diag_work *w, pe_diagnosis *d, const float *inv, double amp, uint64_t *budget, double *share,
                        double *rms);
/* diag_exact.c: 1 when the memos of both readings (cos and sin) hold the first pairs of a search at inv and amp:
 * diag_exact_cache_at then walks only what they left (a few dozen steps, not tens of thousands). */
int diag_memo_covers(const diag_work *w, pe_dtype storage, const float *inv, double amp);
/* diag_exact_bits.c: the sampled cells of a cache reading (after diag_exact_cache_at: w->w, d's offset, scale,
 * cache_cos and storage) that HF's float32 recipe with correctly rounded float32 sin/cos does not give bit for
 * bit. Stored as float16 or bfloat16, the true set misses all but none; one column's frequency off misses some. */
uint32_t diag_cache_cells_missed(const diag_work *w, const pe_diagnosis *d);
/* diag_exact_scaled.c: a YaRN or Llama 3 cache at any first position: each column's frequency from its
 * recurrence, HF's canonical parameter sets (common bases, beta_fast 32 / beta_slow 1, low_freq_factor 1 /
 * high_freq_factor 4, power-of-two contexts) ranked against them, the best few read exactly by
 * diag_exact_cache_at. On success (1) sets the scaling, its band, base, model_w and what diag_exact_cache_at
 * sets. */
int diag_exact_cache_scaled(diag_work *w, pe_diagnosis *d, double *rms);
/* diag_exact_longrope.c: a LongRoPE cache at any first position: the columns whose two-decimal factor their
 * recurrence fixes (at a common rope_theta) read cell by cell by diag_exact_cache_at at HF's attention factors
 * near the fitted amplitude, then each other column's frequency from its cells at that position. On success (1)
 * sets the scaling (per pair), base, model_w and w (every column's inv_freq; 0 where no branch fits) and what
 * diag_exact_cache_at sets. */
int diag_exact_cache_longrope(diag_work *w, pe_diagnosis *d, double *rms);

/* diag_far.c: a cache far out, where float32 angles blur the columns' recurrences (near 2^24) or rows repeat in
 * runs (past it): the first position from column 0 (inv_freq 1, or 1 / a power-of-two linear factor) enumerated
 * over [0, 2^31) on the float32 grid, then HF's sets at the common rope_theta values checked cell by cell. On
 * success (1) sets what diag_exact_cache_scaled sets; offset_known only when one first position fits. */
int diag_exact_cache_far(diag_work *w, pe_diagnosis *d, double *rms);
/* diag_far_enum.c: calls visit(ctx, n) for every whole n in [lo, hi) whose angle n s (exact in double) lies within
 * t of c modulo 2 pi, in about sqrt(hi - lo) steps (and a few n just outside, which visit checks); *hits counts
 * the calls, and the walk stops once it reaches max_hits (returns 0 then, else 1). */
int diag_far_enumerate(double s, double lo, double hi, double c, double t, uint64_t *hits, uint64_t max_hits,
                       void (*visit)(void *ctx, double n), void *ctx);
/* diag_far_enum.c: 1 when cache cell a is HF's cos (is_cos) or sin of the float32 angle times the float32
 * amplitude amp, within diag_cache_cell_tol (PyTorch's float32 sin and cos are within an ulp, not correctly
 * rounded, and the product with the amplitude rounds once more). */
int diag_far_cell_fits(pe_dtype storage, int is_cos, double amp, double a, double angle);
/* diag_far_enum.c: of the n rows' column-0 cells, the one (index into rows) that fixes its angle best (the steepest
 * slope of acos or asin); its two angles modulo 2 pi (cos: +-angle, sin: angle and pi - angle) into centre and the
 * angle's reach (the cell check's tolerance and the cell's rounding, over the slope) into *tol. */
uint32_t diag_far_window(const diag_work *w, pe_dtype storage, int is_cos, double amp, const uint32_t *rows, uint32_t n,
                         double centre[2], double *tol);
/* diag_far_enum.c: the first nonzero row from first_row (*r0) and up to max nonzero rows from it (their count). */
uint32_t diag_far_rows(const diag_work *w, uint32_t *rows, uint32_t max, uint32_t *r0);
/* diag_far_enum.c: the float32 grid steps the far readings search: 1 (whole positions below 2^24) when rows do not
 * repeat in runs, else the runs' step (and its doublings up to 128 while it is a lower bound only). */
#define DIAG_FAR_GRIDS 8u
uint32_t diag_far_grids(const pe_diagnosis *d, double grids[DIAG_FAR_GRIDS]);

/* diag_longrope_lists.c: the LongRoPE factor lists shipped models' configs carry. */
typedef struct diag_longrope_list {
    const char *model; /* the model whose config (or conversion script) ships the list */
    int is_long;       /* 1 long_factor, 0 short_factor */
    uint32_t pairs;    /* the list's length: rotary dim / 2 */
    double rope_theta, original_max, max_position;
    const double *factors; /* as the config writes them (HF takes them as float32) */
} diag_longrope_list;
#define DIAG_LONGROPE_LIST_COUNT 6u
extern const diag_longrope_list diag_longrope_lists[DIAG_LONGROPE_LIST_COUNT];
/* diag_far_longrope.c: a LongRoPE cache far out read at each shipped list of its width: every column's float32
 * inv_freq from the list, the first position from column 0's float32 angles, every cell checked. On success (1)
 * sets what diag_exact_cache_far sets, the scaling per pair and longrope_list. */
int diag_exact_cache_far_lists(diag_work *w, pe_diagnosis *d, double *rms);
/* diag_far_longrope_search.c: a far LongRoPE cache at two-decimal factors no shipped list carries (column 0's
 * 1.00 to 4.00, the others' 1.00 to 300.00, at the common rope_theta): on one solution (1) sets what
 * diag_exact_cache_far_lists sets, every factor (or its open range) and longrope_list -1. */
int diag_exact_cache_far_search(diag_work *w, pe_diagnosis *d, double *rms);
/* diag_far_longrope.c: the rope_scaling parameters of a cache read at a shipped list (d->longrope_list > 0). */
void diag_longrope_list_params(diag_work *w, pe_diagnosis *d);

/* diag_compare.c */
/* Position of the first row read: the fitted offset, whole, >= 0, keeping positions below 2^31. */
uint32_t diag_first_position(const diag_work *w, const pe_diagnosis *d);
pe_status diag_model_plan(diag_work *w, const pe_diagnosis *d, pe_plan **plan);
void diag_error_bands(diag_work *w, pe_diagnosis *d);
void diag_nearest(diag_work *w, pe_diagnosis *d);

#endif
