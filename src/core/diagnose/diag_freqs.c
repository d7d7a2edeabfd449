/* pe_diagnose_inv_freq (posenc.h): base, rotary dim, scaling and recipe of a
 * bare inv_freq vector. The values are exact data, not fitted phases, so every
 * hypothesis is settled by regenerating the vector (diag_freqs_recipes.c) and
 * counting the values it gives bit for bit:
 *
 *   1. log w_k against k: a line (no scaling; an intercept is linear scaling),
 *      or a line over the first pairs only, with w_0 = 1 (Llama 3, YaRN), or
 *      neither (LongRoPE's per-pair factors);
 *   2. the line's slope gives the base for each exponent denominator a vector
 *      of count values may have (2k/d with d = 2 count or 2 count - 1, or
 *      tensor2tensor's k/(count - 1)), snapped to common and round bases;
 *   3. each scaling's parameters from the ratios to the unscaled frequencies
 *      (a grid of HF's canonical values where only quotients are fixed);
 *   4. every candidate in every recipe, scored; the best wins, a recipe giving
 *      as many values is named beside it. A base that is not round is tried
 *      at its float32 neighbours (HF casts the base to float32 before pow):
 *      dynamic NTK's rescaled base. */
#include <string.h>

#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/f64math.h"

/* Bases checkpoints use as rope_theta. */
static const double COMMON_BASES[] = {10000.0, 500000.0, 1e6, 100000.0, 50000.0, 150000.0, 5e6, 1e7, 1e8, 1e9};
enum { COMMON_COUNT = sizeof COMMON_BASES / sizeof COMMON_BASES[0] };

#define MAX_RESIDUAL 3.0  /* a line fits when no value is off by more than this many ulps (as logs) */
#define F64_NEAR     64.0 /* float64 values: within this many ulps of our exact value (its own error ~16) */
#define NEAR         2.0  /* other values: torch's pow is an ulp off at times, and 1 / pow doubles it */

typedef struct score {
    uint32_t exact, near;
    double max_ulps; /* against the exact frequencies of the model */
    uint32_t worst;
} score;

typedef struct scan {
    const double *w;
    uint32_t n;
    pe_dtype storage;
    freq_model best;
    score best_score;
    int have;
    double ext[PE_DIAG_PAIR_FACTORS]; /* LongRoPE factors of the model being scored */
    double best_ext[PE_DIAG_PAIR_FACTORS];
    pe_diag_recipe tied;
} scan;

static double ulp64(double x) {
    int e = (int)((pe_bits(x) >> 52) & 0x7ff) - 1023;
    if (e < -1022) e = -1022;
    uint64_t bits = (uint64_t)(e - 52 + 1023) << 52;
    double u;
    memcpy(&u, &bits, sizeof u);
    return u;
}

static double storage_ulp(pe_dtype storage, double x) {
    return storage == PE_DTYPE_FLOAT64 ? ulp64(x) : diag_ulp(storage, x);
}

/* The relative precision of a stored value, as a distance in log w: its ulp, plus what rounding the exponent
 * (float32 2k/d in HF's pow, float32 k * step in the tutorial's exp) moves w by, |log w| half-ulps of float32
 * (float64 values: 8 half-ulps, our log's error included): several ulps of w at large bases. */
static double log_tol(pe_dtype storage, double w) {
    double spread = -pe_log(w) * (storage == PE_DTYPE_FLOAT64 ? 0x1p-49 : 0x1p-23);
    return storage_ulp(storage, w) / w + (spread > 0 ? spread : -spread);
}

static pe_dtype storage_of(const double *w, uint32_t n) {
    int f32 = 1, bf16 = 1, f16 = 1;
    for (uint32_t k = 0; k < n; k++) {
        f32 &= (double)(float)w[k] == w[k];
        bf16 &= diag_narrow(w[k], PE_DTYPE_BFLOAT16) == w[k];
        f16 &= diag_narrow(w[k], PE_DTYPE_FLOAT16) == w[k];
    }
    return !f32 ? PE_DTYPE_FLOAT64 : bf16 ? PE_DTYPE_BFLOAT16 : f16 ? PE_DTYPE_FLOAT16 : PE_DTYPE_FLOAT32;
}

static score score_model(const scan *sc, const freq_model *m) {
    score s = {0, 0, 0.0, 0};
    freq_model exact = *m;
    exact.recipe = PE_DIAG_RECIPE_EXACT;
    for (uint32_t k = 0; k < sc->n; k++) {
        double c = freq_value(m, k);
        if (sc->storage != PE_DTYPE_FLOAT64) c = diag_round_storage(sc->storage, c);
        double e = sc->w[k] - c, u = storage_ulp(sc->storage, c);
        e = (e < 0 ? -e : e) / u;
        const int f64 = sc->storage == PE_DTYPE_FLOAT64;
        s.exact += f64 ? e <= 1.0 : e == 0.0;
        s.near += e <= (f64 ? F64_NEAR : NEAR);
        double x = freq_value(&exact, k), off = (sc->w[k] - x) / storage_ulp(sc->storage, x);
        off = off < 0 ? -off : off;
        if (off > s.max_ulps || k == 0) s.max_ulps = off, s.worst = k;
    }
    return s;
}

static int better(const score *a, const score *b, uint32_t n) {
    const int a_all = a->near == n, b_all = b->near == n;
    if (a_all != b_all) return a_all;
    if (a->exact != b->exact) return a->exact > b->exact;
    return a->near > b->near;
}

/* Scores m in each recipe that applies; keeps the best model, and a tie in another recipe. */
static void consider(scan *sc, const freq_model *base_model) {
    static const pe_diag_recipe RECIPES[] = {PE_DIAG_RECIPE_EXACT, PE_DIAG_RECIPE_F32_HF, PE_DIAG_RECIPE_F32_EXP,
                                             PE_DIAG_RECIPE_F32_KERAS};
    const int scaled = base_model->scaling != PE_DIAG_SCALING_NONE;
    for (unsigned r = 0; r < sizeof RECIPES / sizeof RECIPES[0]; r++) {
        freq_model m = *base_model;
        m.recipe = RECIPES[r];
        if (sc->storage == PE_DTYPE_FLOAT64 && m.recipe != PE_DIAG_RECIPE_EXACT) continue;
        if (m.recipe != PE_DIAG_RECIPE_EXACT && m.rule == 1 && m.recipe != PE_DIAG_RECIPE_F32_EXP) continue;
        if (scaled && m.recipe != PE_DIAG_RECIPE_EXACT && m.recipe != PE_DIAG_RECIPE_F32_HF &&
            m.scaling != PE_DIAG_SCALING_LINEAR)
            continue;
        if (m.scaling == PE_DIAG_SCALING_PER_PAIR) m.ext = sc->ext;
        score s = score_model(sc, &m);
        if (!sc->have || better(&s, &sc->best_score, sc->n)) {
            /* the previous best stays named when it gives as many values in another recipe of the same model */
            int same_model = sc->have && sc->best.base == m.base && sc->best.scaling == m.scaling &&
                             sc->best.dim == m.dim && sc->best.rule == m.rule && sc->best.factor == m.factor;
            sc->tied = same_model && !better(&s, &sc->best_score, sc->n) ? sc->best.recipe : PE_DIAG_RECIPE_UNKNOWN;
            sc->best = m, sc->best_score = s, sc->have = 1;
            if (m.scaling == PE_DIAG_SCALING_PER_PAIR) memcpy(sc->best_ext, sc->ext, sizeof sc->ext);
        } else if (!better(&sc->best_score, &s, sc->n) && sc->tied == PE_DIAG_RECIPE_UNKNOWN &&
                   m.recipe != sc->best.recipe && s.near == sc->n) {
            sc->tied = m.recipe;
        }
    }
}

typedef struct line {
    double a, s, sd_s, max_res, rms_res;
} line;

/* Weighted least squares of -log w_k = a + s k over k < m (a = 0 when !intercept); residuals in tolerances. */
static line fit_line(const scan *sc, uint32_t m, int intercept) {
    double su = 0, sk = 0;
    for (uint32_t k = 0; k < m; k++) {
        double t = log_tol(sc->storage, sc->w[k]), u = 1.0 / (t * t);
        su += u, sk += u * k;
    }
    const double mk = intercept ? sk / su : 0.0;
    double sxx = 0, sxy = 0, sy = 0;
    for (uint32_t k = 0; k < m; k++) {
        double t = log_tol(sc->storage, sc->w[k]), u = 1.0 / (t * t), x = k - mk, y = -pe_log(sc->w[k]);
        sxx += u * x * x, sxy += u * x * y, sy += u * y;
    }
    line l = {0, 0, 0, 0, 0};
    l.s = sxx > 0 ? sxy / sxx : 0.0;
    l.sd_s = sxx > 0 ? diag_sqrt(1.0 / sxx) : 1.0;
    if (intercept) l.a = sy / su - l.s * mk;
    double sq = 0;
    for (uint32_t k = 0; k < m; k++) {
        double e = (-pe_log(sc->w[k]) - l.a - l.s * k), t = log_tol(sc->storage, sc->w[k]);
        sq += e * e;
        e = (e < 0 ? -e : e) / t;
        if (e > l.max_res) l.max_res = e;
    }
    l.rms_res = m ? diag_sqrt(sq / m) : 0.0;
    return l;
}

static int close_rel(double x, double target, double rel) {
    double e = x - target;
    return e <= rel * target && -e <= rel * target;
}

static freq_model model_at(const scan *sc, double base, int variant) {
    freq_model m;
    memset(&m, 0, sizeof m);
    m.base = base;
    m.count = sc->n;
    m.rule = variant == 2;
    m.dim = variant == 1 ? 2 * sc->n - 1 : 2 * sc->n;
    m.scaling = PE_DIAG_SCALING_NONE;
    m.factor = 1.0;
    return m;
}

/* The exponent denominator of a variant: 2k/d with d = 2n (0) or 2n - 1 (1), k/(n - 1) (2). */
static double denominator(uint32_t n, int variant) {
    return variant == 0 ? n : variant == 1 ? n - 0.5 : (n > 1 ? n - 1.0 : 1.0);
}

/* Llama 3 over a grid of HF's canonical values: only original/low and original/high are fixed. */
static void try_llama3(scan *sc, freq_model m, double factor) {
    static const double HIGH[] = {4.0, 2.0, 8.0, 3.0, 16.0, 1.5, 32.0, 6.0};
    m.scaling = PE_DIAG_SCALING_LLAMA3;
    m.factor = factor;
    m.low_freq_factor = 1.0;
    const double first[] = {8192.0};
    for (int pass = 0; pass < 2; pass++)
        for (double l0 = pass ? 64.0 : first[0]; pass ? l0 <= 0x1p22 : l0 == first[0]; l0 *= 2.0) {
            if (pass && l0 == first[0]) continue;
            m.original_max = l0;
            for (unsigned j = 0; j < sizeof HIGH / sizeof HIGH[0]; j++) {
                m.high_freq_factor = HIGH[j];
                consider(sc, &m);
            }
        }
}

/* YaRN: the ramp's ends from the blend s_k (1 unscaled ... 0 scaled), whole (truncated) and as fitted. */
static void try_yarn(scan *sc, freq_model m, double factor, const double *blend) {
    const uint32_t n = sc->n;
    m.scaling = PE_DIAG_SCALING_YARN;
    m.factor = factor;
    double sk = 0, ss = 0, skk = 0, sks = 0, count = 0;
    uint32_t head = 0, tail = n;
    /* a blend within the values' precision of 0 or 1 is not inside the ramp (float16, bfloat16: percents) */
#define EDGE(k) (0.001 + 3.0 * log_tol(sc->storage, sc->w[k]) * factor / (factor - 1.0))
    while (head + 1 < n && blend[head + 1] > 1.0 - EDGE(head + 1)) head++;
    while (tail > 0 && blend[tail - 1] < EDGE(tail - 1)) tail--;
    for (uint32_t k = head + 1; k < tail; k++)
        if (blend[k] > EDGE(k) && blend[k] < 1.0 - EDGE(k))
            count++, sk += k, ss += blend[k], skk += (double)k * k, sks += k * blend[k];
#undef EDGE
    double low = head, high = tail < n ? tail : n - 1;
    if (count >= 2) {
        double b = (count * sks - sk * ss) / (count * skk - sk * sk), a = (ss - b * sk) / count;
        if (b < 0) high = -a / b, low = (1.0 - a) / b;
    }
    /* whole ends near the estimate (a few pairs off in float16 or bfloat16) */
    for (int a = -2; a <= 2; a++)
        for (int b = -2; b <= 2; b++) {
            m.ramp_low = diag_round_int(low) + a, m.ramp_high = diag_round_int(high) + b;
            if (m.ramp_low >= 0.0 && m.ramp_high > m.ramp_low) consider(sc, &m);
        }
    if (count >= 2) {
        m.ramp_low = low, m.ramp_high = high;
        consider(sc, &m);
    }
}

/* Two decimals when within the values' precision (configs list LongRoPE factors so). */
static double two_decimals(double e, double rel) {
    double r = diag_round_int(e * 100.0) / 100.0;
    return close_rel(e, r, rel) ? r : e;
}

/* LongRoPE only with factors a config lists (two decimals each): factors as fitted would explain any vector. */
static void try_longrope(scan *sc, freq_model m) {
    if (sc->n > PE_DIAG_PAIR_FACTORS) return;
    m.scaling = PE_DIAG_SCALING_PER_PAIR;
    uint32_t ones = 0;
    for (uint32_t k = 0; k < sc->n; k++) {
        double u = freq_unscaled(&m, k), e = u / sc->w[k];
        sc->ext[k] = two_decimals(e, 4.0 * log_tol(sc->storage, sc->w[k]) + 1e-7);
        if (sc->ext[k] != diag_round_int(sc->ext[k] * 100.0) / 100.0 || !(sc->ext[k] > 0.0)) return;
        ones += sc->ext[k] == 1.0;
    }
    if (ones == sc->n) return; /* no scaling at all */
    consider(sc, &m);
}

/* Every scaling at this base. */
static void try_base(scan *sc, double base, int variant, int geometric, int head_one) {
    freq_model m = model_at(sc, base, variant);
    const uint32_t n = sc->n;
    if (geometric || n < 2) {
        if (head_one) {
            consider(sc, &m);
        } else {
            int round;
            m.scaling = PE_DIAG_SCALING_LINEAR;
            m.factor = diag_snap(1.0 / sc->w[0], 4.0 * log_tol(sc->storage, sc->w[0]) + 1e-9, &round);
            consider(sc, &m);
        }
        return;
    }
    if (variant != 0) return; /* HF's scalings use rotary dim 2n */
    if (head_one) {
        /* blend s_k between scaled (0) and unscaled (1), the scaled plateau from the last pair */
        double blend[PE_DIAG_PAIR_FACTORS * 2];
        if (n <= sizeof blend / sizeof blend[0]) {
            /* the scaled plateau's ratio at its best-stored pair of the last quarter (float16 subnormals hold a
             * few bits) */
            uint32_t at = n - 1;
            for (uint32_t k = n - 1 - n / 4; k < n; k++)
                if (log_tol(sc->storage, sc->w[k]) < log_tol(sc->storage, sc->w[at])) at = k;
            double last = sc->w[at] / freq_unscaled(&m, at);
            int round;
            double factor = diag_snap(1.0 / last, 4.0 * log_tol(sc->storage, sc->w[at]) + 1e-4, &round);
            if (factor > 1.0001) {
                for (uint32_t k = 0; k < n; k++) {
                    double r = sc->w[k] / freq_unscaled(&m, k);
                    blend[k] = (r - 1.0 / factor) / (1.0 - 1.0 / factor);
                }
                try_yarn(sc, m, factor, blend);
                try_llama3(sc, m, factor);
            }
        }
    }
    try_longrope(sc, m);
}

static int digits_of(double rel) {
    int digits = 0;
    for (double r = 4.0 * rel; r < 0.1 && digits < 15; r *= 10.0) digits++;
    return digits;
}

/* Bases near T: the common ones, then T snapped to 1-3 significant digits. */
static int round_bases(double t, double rel, double *out) {
    int count = 0;
    for (int c = 0; c < COMMON_COUNT; c++)
        if (close_rel(t, COMMON_BASES[c], rel)) out[count++] = COMMON_BASES[c];
    int round;
    double snapped = diag_snap(t, rel, &round);
    if (round && (count == 0 || snapped != out[0])) out[count++] = snapped;
    return count;
}

/* x moved by j float32 steps (x > 0 finite; j small). */
static float float_step(float x, int j) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = (uint32_t)((int64_t)bits + j);
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* L0 / beta at a correction dimension c: d ln(L0 / (2 pi beta)) / (2 ln T) = c (HF's find_correction_dim). */
static double over_beta(double c, double dim, double log_t) {
    return 2.0 * DIAG_PI * diag_exp(2.0 * c * log_t / dim);
}

static void yarn_params(pe_inv_freq_diagnosis *d, const freq_model *m) {
    const double dim = m->dim, log_t = pe_log(m->base), low = m->ramp_low, high = m->ramp_high;
    d->truncated = low == diag_round_int(low) && high == diag_round_int(high);
    double fast_lo, fast_hi, slow_lo, slow_hi;
    if (d->truncated) { /* low = max(floor(c_fast), 0), high = min(ceil(c_slow), dim - 1) */
        fast_lo = low > 0.0 ? over_beta(low, dim, log_t) : 0.0;
        fast_hi = over_beta(low + 1.0, dim, log_t);
        slow_lo = over_beta(high - 1.0, dim, log_t);
        slow_hi = high < dim - 1.0 ? over_beta(high, dim, log_t) : 0x1p59;
    } else {
        fast_lo = fast_hi = over_beta(low, dim, log_t);
        slow_lo = slow_hi = over_beta(high, dim, log_t);
        fast_lo *= 1.0 - 1e-6, fast_hi *= 1.0 + 1e-6, slow_lo *= 1.0 - 1e-6, slow_hi *= 1.0 + 1e-6;
    }
    d->beta_fast = 32.0, d->beta_slow = 1.0; /* HF's defaults */
    double lo = 32.0 * fast_lo > slow_lo ? 32.0 * fast_lo : slow_lo;
    double hi = 32.0 * fast_hi < slow_hi ? 32.0 * fast_hi : slow_hi;
    if (!(lo <= hi)) { /* not the default betas: beta_slow 1 fixes L0, then beta_fast its range */
        lo = slow_lo, hi = slow_hi < 0x1p58 ? slow_hi : slow_lo * 4.0;
        double l0 = diag_roundest_in(lo, hi);
        d->beta_fast = diag_roundest_in(l0 / fast_hi, fast_lo > 0.0 ? l0 / fast_lo : l0 / fast_hi * 1e6);
    }
    d->original_lo = lo, d->original_hi = hi;
    d->original_max = diag_roundest_in(lo, hi);
}

static void fill_scaling(pe_inv_freq_diagnosis *d, const freq_model *m, const scan *sc) {
    d->scaling = m->scaling;
    d->rope_theta = m->base;
    d->factor = m->scaling == PE_DIAG_SCALING_NONE ? 0.0 : m->factor;
    switch (m->scaling) {
    case PE_DIAG_SCALING_YARN: {
        d->ramp_low = m->ramp_low, d->ramp_high = m->ramp_high;
        yarn_params(d, m);
        uint32_t inside = 0;
        for (uint32_t k = 0; k < sc->n; k++) inside += k > m->ramp_low && k < m->ramp_high;
        d->ramp_fixed = inside >= 2;
        break;
    }
    case PE_DIAG_SCALING_LLAMA3: {
        d->low_freq_factor = m->low_freq_factor, d->high_freq_factor = m->high_freq_factor;
        d->original_max = m->original_max;
        d->ramp_low = m->original_max / m->low_freq_factor, d->ramp_high = m->original_max / m->high_freq_factor;
        uint32_t inside = 0;
        for (uint32_t k = 0; k < sc->n; k++) {
            double wavelength = 2.0 * DIAG_PI / freq_unscaled(m, k);
            inside += wavelength > d->ramp_high && wavelength < d->ramp_low;
        }
        d->ramp_fixed = inside >= 2;
        break;
    }
    case PE_DIAG_SCALING_PER_PAIR:
        d->pair_factors = sc->n;
        d->pair_factors_round = 1;
        for (uint32_t k = 0; k < sc->n; k++) {
            d->pair_factor[k] = sc->best_ext[k];
            d->pair_factors_round &= diag_round_int(sc->best_ext[k] * 100.0) / 100.0 == sc->best_ext[k];
        }
        break;
    default: break;
    }
}

/* A base that is not round, tried at the float32 values around T (HF's pow casts the base to float32). */
static void try_unround(scan *sc, double t) {
    if (!(diag_finite(t) && t > 1.0 && t < 3e38)) return;
    freq_model m = model_at(sc, t, 0);
    consider(sc, &m);
    const float center = (float)t;
    for (int j = -64; j <= 64; j++) {
        m.base = float_step(center, j);
        m.recipe = PE_DIAG_RECIPE_F32_HF;
        score s = score_model(sc, &m);
        if (sc->storage != PE_DTYPE_FLOAT64 && better(&s, &sc->best_score, sc->n)) {
            sc->best = m, sc->best_score = s, sc->tied = PE_DIAG_RECIPE_UNKNOWN;
        }
    }
}

static int is_round(double base) {
    for (int c = 0; c < COMMON_COUNT; c++)
        if (base == COMMON_BASES[c]) return 1;
    int round;
    return diag_snap(base, 1e-15, &round) == base && round;
}

pe_status pe_diagnose_inv_freq(const double *w, uint32_t n, pe_inv_freq_diagnosis *d, uint32_t *bad_index) {
    if (!w || !d) return PE_ERR_NULL;
    if (n == 0 || n > PE_INV_FREQ_MAX_COUNT) return PE_ERR_SHAPE;
    for (uint32_t k = 0; k < n; k++) {
        if (!diag_finite(w[k]) || !(w[k] > 0.0 && w[k] <= PE_MAX_FREQUENCY)) {
            if (bad_index) *bad_index = k;
            return diag_finite(w[k]) ? PE_ERR_FREQUENCY_VALUE : PE_ERR_NOT_FINITE;
        }
    }
    scan local;
    scan *sc = &local;
    memset(sc, 0, sizeof *sc);
    sc->w = w, sc->n = n, sc->storage = storage_of(w, n);
    memset(d, 0, sizeof *d);
    d->count = n;
    d->rotary_dim = 2 * n;
    d->storage = sc->storage;
    d->rule = -1;
    d->recipe = d->recipe_tied = PE_DIAG_RECIPE_UNKNOWN;

    const int head_one = w[0] == 1.0 || (sc->storage == PE_DTYPE_FLOAT64 && close_rel(w[0], 1.0, 1e-14));
    const line zero = {0, 0, 0, 0, 0};
    const line full = n >= 2 ? fit_line(sc, n, 1) : zero;
    const int geometric = n >= 2 && full.max_res <= MAX_RESIDUAL;
    line head = full;
    if (!geometric && head_one) { /* the unscaled pairs: the longest head through w_0 = 1 that is a line */
        for (uint32_t m = 2; m <= n; m++) {
            line l = fit_line(sc, m, 0);
            if (l.max_res > MAX_RESIDUAL && m > 2) break;
            head = l;
        }
    }
    d->fit_rms = full.rms_res;
    double digits_rel[3] = {1, 1, 1};
    if (n >= 2) {
        for (int variant = 0; variant < 3; variant++) {
            if (variant == 2 && n < 3) break;
            const double nn = denominator(n, variant), t = diag_exp(head.s * nn);
            digits_rel[variant] = nn * head.sd_s;
            if (!diag_finite(t) || !(t > 1.0)) continue;
            double bases[COMMON_COUNT + 1];
            int count = round_bases(t, 5.0 * digits_rel[variant] + 1e-9, bases);
            for (int b = 0; b < count; b++) try_base(sc, bases[b], variant, geometric, head_one);
        }
        if (!geometric) /* LongRoPE's factors are read at a common base whatever the slope */
            for (int c = 0; c < COMMON_COUNT; c++) try_base(sc, COMMON_BASES[c], 0, 0, 0);
        if (geometric && !(sc->have && sc->best_score.near == n)) try_unround(sc, diag_exp(head.s * n));
        if (!sc->have) try_unround(sc, diag_exp(head.s * n));
    } else {
        try_base(sc, 10000.0, 0, 1, head_one); /* one value: only a linear factor shows */
    }
    if (!sc->have) return PE_OK; /* no slope to read a base from (a vector rising with k) */
    const freq_model *m = &sc->best;
    d->identified = sc->best_score.near == n;
    d->rule = m->rule;
    d->rotary_dim = m->rule == 0 ? m->dim : 2 * n;
    d->base = n >= 2 ? m->base : 0.0;
    d->base_round = n >= 2 && is_round(m->base);
    d->base_digits = n >= 2 ? digits_of(digits_rel[m->rule ? 2 : m->dim == 2 * n ? 0 : 1]) : 0;
    if (m->scaling == PE_DIAG_SCALING_PER_PAIR) d->base_digits = 0; /* a common base, chosen: not measured */
    fill_scaling(d, m, sc);
    if (m->scaling == PE_DIAG_SCALING_NONE && !d->base_round && d->base > 0.0) {
        /* dynamic NTK: base = rope_theta alpha^(d/(d-2)), rope_theta a common base below */
        double theta = 0.0;
        for (int c = 0; c < COMMON_COUNT; c++)
            if (COMMON_BASES[c] < d->base * (1.0 - 1e-6) && COMMON_BASES[c] > theta) theta = COMMON_BASES[c];
        if (theta > 0.0 && d->rotary_dim > 2) {
            d->scaling = PE_DIAG_SCALING_DYNAMIC;
            d->rope_theta = theta;
            d->dynamic_alpha = diag_exp(pe_log(d->base / theta) * (d->rotary_dim - 2.0) / d->rotary_dim);
        }
    }
    d->recipe = m->recipe;
    d->recipe_tied = sc->tied;
    d->recipe_exact = sc->best_score.exact;
    d->recipe_near = sc->best_score.near;
    d->max_ulps = sc->best_score.max_ulps;
    d->worst_pair = sc->best_score.worst;
    return PE_OK;
}
