/* Which computation produced the cells. Each candidate recipe recomputes the
 * sampled rows in the data's own dtype (exact values rounded once, float32
 * angles from each inv_freq formula the peers use, or every step in float16
 * or bfloat16); a cell matches when it lies within one ulp of the candidate
 * (a peer's sin may be 1 ulp off). The recipe matching the most cells wins;
 * another within 0.1% of it is reported as indistinguishable. */
#include <string.h>

#include "diag_internal.h"
#include "math/dd.h"
#include "math/f64math.h"
#include "math/sincos.h"

double diag_round_storage(pe_dtype storage, double x) {
    switch (storage) {
    case PE_DTYPE_FLOAT16:
    case PE_DTYPE_BFLOAT16: return diag_narrow(x, storage);
    default: return (double)(float)x;
    }
}

/* One ulp of the storage dtype at |x|, from the exponent bits of x. */
double diag_ulp(pe_dtype storage, double x) {
    const int mantissa = storage == PE_DTYPE_FLOAT16 ? 10 : storage == PE_DTYPE_BFLOAT16 ? 7 : 23;
    const int min_exponent = storage == PE_DTYPE_FLOAT16 ? -14 : -126; /* below it: subnormal spacing */
    int exponent = (int)((pe_bits(x) >> 52) & 0x7ff) - 1023;
    if (exponent < min_exponent) exponent = min_exponent;
    uint64_t bits = (uint64_t)(exponent - mantissa + 1023) << 52;
    double ulp;
    memcpy(&ulp, &bits, sizeof ulp);
    return ulp;
}

void diag_pick_samples(diag_work *w) {
    const uint32_t first = w->first_row, rows = w->v.rows;
    uint32_t n = 0, r = first;
    for (; r < rows && n < DIAG_SAMPLES / 4; r++)
        if (!w->zero[r]) w->sample[n++] = r;
    uint32_t rest = rows > r ? rows - r : 0, want = DIAG_SAMPLES - n;
    for (uint32_t k = 0; k < want && rest > 0; k++) {
        uint32_t row = r + (uint32_t)(((uint64_t)k * rest) / want);
        if (!w->zero[row] && row != w->sample[n - 1]) w->sample[n++] = row;
    }
    w->samples = n;
}

static float f32(double x) {
    return (float)x;
}

typedef enum angle_kind { ANGLE_EXACT, ANGLE_F32, ANGLE_NARROW, ANGLE_F64_NUMPY } angle_kind;

/* Whether cell (r, c) is within one ulp of A * value (and the product's rounding). */
static int matches(const diag_work *w, const pe_diagnosis *d, uint32_t r, uint32_t c, double value) {
    double e = diag_at(&w->v, r, c) - d->scale * value;
    if (e < 0) e = -e;
    /* float32: a peer's sin may be 1 ulp off; float16 and bfloat16 cells
     * rounded from float32 are the nearest value, so they must be equal. */
    double within = d->storage != PE_DTYPE_FLOAT32 && d->scale == 1.0 ? 0.5 : 1.001;
    double bound = d->scale * diag_ulp(d->storage, value) * within;
    /* a cache multiplied by an attention factor (HF: cos * attention_scaling) rounds the product once more: half
     * an ulp of the product, which may lie in the binade above the value's (float16 and bfloat16 caches too: HF
     * multiplies in float32 and casts the product) */
    if (d->scale != 1.0) bound += 0.5 * diag_ulp(d->storage, d->scale * value);
    return e <= bound;
}

/* Whether cell (r, c) is the candidate's value bit for bit (no attention factor). */
static int same(const diag_work *w, const pe_diagnosis *d, uint32_t r, uint32_t c, double value) {
    return d->scale == 1.0 && diag_at(&w->v, r, c) == value;
}

/* Share of sampled cells within one ulp of the candidate (*exact_share: bit for bit). inv: float32
 * inv_freq per pair (ANGLE_F32), or float64 div_term (ANGLE_F64_NUMPY, as doubles in inv64). Pair by
 * pair: one sin and cos per pair. */
static double match_share2(diag_work *w, const pe_diagnosis *d, angle_kind kind, const float *inv, const double *inv64,
                           double *exact_share) {
    const uint32_t h = w->h;
    const int cache = d->kind == PE_DIAG_COS_SIN, twin = cache && d->duplicated;
    uint64_t matched = 0, total = 0, bitwise = 0;
    for (uint32_t s = 0; s < w->samples; s++) {
        const uint32_t r = w->sample[s];
        const double *exact = w->values + (size_t)s * 2 * h;
        const double p = w->positions[s];
        const double pos = diag_round_storage(d->storage, p);
        for (uint32_t k = 0; k < h; k++) {
            double sv, cv;
            if (kind == ANGLE_EXACT) {
                sv = exact[k], cv = exact[h + k];
            } else if (kind == ANGLE_F32) {
                pe_sincos((double)f32((double)f32(p) * (double)inv[k]), &sv, &cv);
                sv = (double)f32(sv), cv = (double)f32(cv);
            } else if (kind == ANGLE_F64_NUMPY) {
                /* position * div_term rounded in float64 (the angle must be numpy's to the bit), then sin and
                 * cos within an ulp of float64's: their float32 rounding is numpy's but for 1 cell in ~10^8 */
                pe_sincos(p * inv64[k], &sv, &cv);
            } else { /* inv64: the dtype's own formula; inv: the value nearest the fitted one; else nearest exact */
                const double *wk = inv64 ? inv64 : inv ? w->w : w->model_w;
                double angle = diag_round_storage(d->storage, pos * diag_round_storage(d->storage, wk[k]));
                pe_sincos(angle, &sv, &cv);
            }
            sv = diag_round_storage(d->storage, sv);
            cv = diag_round_storage(d->storage, cv);
            if (!cache) {
                matched += matches(w, d, r, w->col_sin[k], sv) + matches(w, d, r, w->col_cos[k], cv);
                bitwise += same(w, d, r, w->col_sin[k], sv) + same(w, d, r, w->col_cos[k], cv);
                total += 2;
            } else {
                double v = d->cache_cos ? cv : sv;
                matched += matches(w, d, r, w->col_sin[k], v) * (1 + twin);
                bitwise += same(w, d, r, w->col_sin[k], v) * (1 + twin);
                total += 1 + twin;
            }
        }
    }
    if (exact_share) *exact_share = total ? (double)bitwise / (double)total : 0.0;
    return total ? (double)matched / (double)total : 0.0;
}

#define SNAP_ULPS 4 /* float32 inv_freq tried either side of the model's: HF's float32 pow, divisions, blends */

/* Sampled cells of pair k a float32 angle with this inv_freq reproduces within an ulp. */
static uint32_t pair_matches(const diag_work *w, const pe_diagnosis *d, uint32_t k, float inv) {
    const int cache = d->kind == PE_DIAG_COS_SIN;
    uint32_t m = 0;
    for (uint32_t s = 0; s < w->samples; s++) {
        const uint32_t r = w->sample[s];
        double sv, cv;
        pe_sincos((double)f32((double)f32(w->positions[s]) * (double)inv), &sv, &cv);
        sv = diag_round_storage(d->storage, (double)f32(sv));
        cv = diag_round_storage(d->storage, (double)f32(cv));
        if (!cache)
            m += matches(w, d, r, w->col_sin[k], sv) + matches(w, d, r, w->col_cos[k], cv);
        else
            m += matches(w, d, r, w->col_sin[k], d->cache_cos ? cv : sv);
    }
    return m;
}

/* Each pair's float32 inv_freq snapped to the value within SNAP_ULPS of the model's frequency (or the fitted
 * one) whose float32 angles reproduce the pair's cells best: a scaled cache's inv_freq comes from HF's float32
 * steps (pow, division, the YaRN or Llama 3 blend), each within an ulp or so of the model in float64. Pairs are
 * independent once the first position is known. */
static void snap_inv(const diag_work *w, const pe_diagnosis *d, float *inv) {
    for (uint32_t k = 0; k < w->h; k++) {
        const float fitted = f32(w->w[k]), model = f32(w->model_w[k] > 0.0 ? w->model_w[k] : w->w[k]);
        float best = model;
        uint32_t most = pair_matches(w, d, k, model);
        const double ulp = diag_ulp(PE_DTYPE_FLOAT32, (double)model);
        for (int j = -SNAP_ULPS; j <= SNAP_ULPS; j++) {
            const float v = j == 0 ? fitted : f32((double)model + j * ulp);
            if (!(v > 0.0f) || v == model) continue;
            const uint32_t m = pair_matches(w, d, k, v);
            if (m > most) most = m, best = v;
        }
        inv[k] = best;
    }
}

/* numpy's div_term = np.exp(np.arange(0, d, 2) * (-np.log(base) / d)) in float64, each step rounded once as
 * glibc's log and exp do (double-double, then rounded): near 2^31 an ulp of div_term moves the angle by 2e-7, so
 * it must be numpy's own. 0 when it does not apply. */
static int numpy_div_term(const diag_work *w, const pe_diagnosis *d, int log_ulps, double *div) {
    if (!(d->kind == PE_DIAG_TABLE && d->rule == 0 && d->base > 1.0 && d->base_round &&
          d->scaling == PE_DIAG_SCALING_NONE && d->storage == PE_DTYPE_FLOAT32))
        return 0;
    const pe_dd log_base = pe_log_dd(d->base);
    double log_t = log_base.hi + log_base.lo;
    /* numpy's own SIMD log is not correctly rounded (np.log(10000) is an ulp below): its neighbours too */
    uint64_t bits = pe_bits(log_t) + (uint64_t)(int64_t)log_ulps;
    memcpy(&log_t, &bits, sizeof log_t);
    const double step = -(log_t / (2.0 * w->h));
    for (uint32_t k = 0; k < w->h; k++) {
        pe_dd e = pe_exp_dd_nonpositive(pe_dd_make(2.0 * k * step, 0.0));
        div[k] = e.hi + e.lo;
    }
    return 1;
}

static double pow_f64(double base, double e) { /* base > 0 */
    double x = e * pe_log(base);
    return x <= 0 ? pe_exp_nonpositive(x) : 1.0 / pe_exp_nonpositive(-x);
}
static double exp_f64(double x) {
    return x <= 0 ? pe_exp_nonpositive(x) : 1.0 / pe_exp_nonpositive(-x);
}

/* inv_freq as each peer formula computes it in float32; 0 when it does not apply. */
int diag_inv_formula(const diag_work *w, const pe_diagnosis *d, pe_diag_recipe recipe, int variant, float *inv) {
    const uint32_t h = w->h, dim = 2 * h;
    const double T = d->base;
    const int paper = d->rule == 0, known = d->base > 1.0 && (d->rule == 0 || d->rule == 1);
    for (uint32_t k = 0; k < h; k++) {
        float e = f32((double)f32(2.0 * k) / (double)f32(dim));
        switch (recipe) {
        case PE_DIAG_RECIPE_F32_ROUNDED:
        case PE_DIAG_RECIPE_F32_FITTED:
            inv[k] = f32(recipe == PE_DIAG_RECIPE_F32_FITTED ? w->w[k] : w->model_w[k]);
            break;
        case PE_DIAG_RECIPE_F32_HF:
            if (!(paper && T > 1.0)) return 0;
            inv[k] = f32(1.0 / (double)f32(pow_f64(T, e)));
            if (d->scaling == PE_DIAG_SCALING_LINEAR)
                inv[k] = f32((double)inv[k] / d->factor);
            else if (d->scaling != PE_DIAG_SCALING_NONE)
                return 0;
            break;
        case PE_DIAG_RECIPE_F32_KERAS:
            if (!(known && paper && d->scaling == PE_DIAG_SCALING_NONE)) return 0;
            inv[k] = f32(pow_f64((double)f32(1.0 / T), e));
            break;
        case PE_DIAG_RECIPE_F32_EXP: {
            if (!(known && d->scaling == PE_DIAG_SCALING_NONE)) return 0;
            /* paper: arange(0, d, 2) * -(log T / d); tensor2tensor: arange(h) * -(log T / (h - 1)),
             * the quotient rounded from double (fairseq) or from float32 log T (tensor2tensor's TF) */
            double n = paper ? dim : (h > 1 ? h - 1 : 1), i = paper ? 2.0 * k : k;
            double c = variant ? -(double)f32((double)f32(pe_log(T)) / (double)f32(n)) : -(double)f32(pe_log(T) / n);
            inv[k] = f32(exp_f64((double)f32(i * (double)f32(c))));
            break;
        }
        default: return 0;
        }
    }
    return 1;
}

/* Keras's timescales with every step in the storage dtype (float16 or bfloat16):
 * pow(narrow(1 / base), narrow(narrow(2k) / narrow(d))), the power taken in float32 and narrowed (PyTorch
 * computes half types in float); 0 when it does not apply. */
static int narrow_keras(const diag_work *w, const pe_diagnosis *d, double *inv) {
    const pe_dtype t = d->storage;
    if (!(d->kind == PE_DIAG_TABLE && d->rule == 0 && d->base > 1.0 && d->base_round &&
          d->scaling == PE_DIAG_SCALING_NONE && (t == PE_DTYPE_FLOAT16 || t == PE_DTYPE_BFLOAT16)))
        return 0;
    const double lowest = diag_narrow(1.0 / d->base, t), dim = diag_narrow(2.0 * w->h, t);
    for (uint32_t k = 0; k < w->h; k++) {
        const double e = diag_narrow(diag_narrow(2.0 * k, t) / dim, t);
        inv[k] = diag_narrow((double)f32(pow_f64(lowest, e)), t);
    }
    return 1;
}

static int recipe_class(pe_diag_recipe r) {
    return r == PE_DIAG_RECIPE_EXACT       ? 0
           : r == PE_DIAG_RECIPE_F16       ? 2
           : r == PE_DIAG_RECIPE_BF16      ? 3
           : r == PE_DIAG_RECIPE_F64_NUMPY ? 4
                                           : 1;
}

/* The inv_freq formula that gives the most of the fitted float32 inv_freq values exactly. */
static void name_formula(diag_work *w, pe_diagnosis *d, float *inv) {
    d->inv_formula = PE_DIAG_RECIPE_UNKNOWN;
    d->inv_formula_share = 0.0;
    for (pe_diag_recipe r = PE_DIAG_RECIPE_F32_ROUNDED; r <= PE_DIAG_RECIPE_F32_EXP; r++) {
        for (int variant = 0; variant < (r == PE_DIAG_RECIPE_F32_EXP ? 2 : 1); variant++) {
            if (!diag_inv_formula(w, d, r, variant, inv)) continue;
            uint32_t same = 0;
            for (uint32_t k = 0; k < w->h; k++) same += inv[k] == f32(w->w[k]);
            double share = (double)same / w->h;
            if (share > d->inv_formula_share) d->inv_formula_share = share, d->inv_formula = r;
        }
    }
}

void diag_match_recipe(diag_work *w, pe_diagnosis *d) {
    /* In order of preference when shares are equal: the simplest explanation first. */
    static const pe_diag_recipe order[] = {
        PE_DIAG_RECIPE_EXACT,      PE_DIAG_RECIPE_F64_NUMPY, PE_DIAG_RECIPE_F32_ROUNDED,
        PE_DIAG_RECIPE_F32_HF,     PE_DIAG_RECIPE_F32_KERAS, PE_DIAG_RECIPE_F32_EXP,
        PE_DIAG_RECIPE_F32_FITTED, PE_DIAG_RECIPE_F16,       PE_DIAG_RECIPE_BF16};
    enum { COUNT = sizeof order / sizeof order[0] };
    double share[COUNT], exact[COUNT];
    float *inv = (float *)w->tmp; /* h floats fit in h doubles */
    /* inv_freq arrays already matched, in w->values past the sampled rows' exact values */
    enum { MAX_TRIED = 6 };
    float *seen_inv = (float *)(w->values + (size_t)w->samples * 2 * w->h);
    double seen_share[MAX_TRIED], seen_exact[MAX_TRIED];
    int tried = 0;
    const int fitted_only = d->scaling != PE_DIAG_SCALING_NONE && d->scaling != PE_DIAG_SCALING_LINEAR;
    double best = 0.0;
    for (unsigned j = 0; j < COUNT; j++) {
        pe_diag_recipe recipe = order[j];
        share[j] = -1.0;
        exact[j] = 0.0;
        if (recipe == PE_DIAG_RECIPE_EXACT) {
            share[j] = match_share2(w, d, ANGLE_EXACT, NULL, NULL, &exact[j]);
        } else if (recipe == PE_DIAG_RECIPE_F64_NUMPY) {
            double *div = (double *)(seen_inv + (size_t)MAX_TRIED * w->h); /* past the tried float32 arrays */
            for (int ulps = -1; ulps <= 1; ulps++) {
                double e = 0.0,
                       m = numpy_div_term(w, d, ulps, div) ? match_share2(w, d, ANGLE_F64_NUMPY, NULL, div, &e) : -1.0;
                if (m > share[j] || (m == share[j] && e > exact[j])) share[j] = m, exact[j] = e;
            }
        } else if (recipe == PE_DIAG_RECIPE_F16 || recipe == PE_DIAG_RECIPE_BF16) {
            if (d->storage == (recipe == PE_DIAG_RECIPE_F16 ? PE_DTYPE_FLOAT16 : PE_DTYPE_BFLOAT16)) {
                double e1 = 0.0, e2 = 0.0, e3 = 0.0;
                double nearest = match_share2(w, d, ANGLE_NARROW, NULL, NULL, &e1),
                       fitted = match_share2(w, d, ANGLE_NARROW, inv, NULL, &e2);
                share[j] = nearest > fitted ? nearest : fitted;
                exact[j] = nearest > fitted ? e1 : e2;
                double *narrow = (double *)(seen_inv + (size_t)MAX_TRIED * w->h); /* past the float32 arrays */
                if (narrow_keras(w, d, narrow)) {
                    double keras = match_share2(w, d, ANGLE_NARROW, NULL, narrow, &e3);
                    if (keras > share[j]) share[j] = keras, exact[j] = e3;
                }
            }
        } else if (!(fitted_only && recipe != PE_DIAG_RECIPE_F32_FITTED)) {
            for (int variant = 0; variant < (recipe == PE_DIAG_RECIPE_F32_EXP ? 2 : 1); variant++) {
                if (!diag_inv_formula(w, d, recipe, variant, inv)) continue;
                /* the same inv_freq as a formula already tried: the same share */
                int seen = -1;
                for (int k = 0; k < tried && seen < 0; k++)
                    if (!memcmp(inv, seen_inv + (size_t)k * w->h, w->h * sizeof *inv)) seen = k;
                double e = 0.0;
                double s = seen >= 0 ? seen_share[seen] : match_share2(w, d, ANGLE_F32, inv, NULL, &e);
                if (seen >= 0) e = seen_exact[seen];
                if (seen < 0 && tried < MAX_TRIED) {
                    memcpy(seen_inv + (size_t)tried * w->h, inv, w->h * sizeof *inv);
                    seen_exact[tried] = e;
                    seen_share[tried++] = s;
                }
                if (s > share[j] || (s == share[j] && e > exact[j])) share[j] = s, exact[j] = e;
            }
            if (recipe == PE_DIAG_RECIPE_F32_FITTED && d->offset_known && share[j] < 1.0) {
                snap_inv(w, d, inv);
                double e = 0.0, s = match_share2(w, d, ANGLE_F32, inv, NULL, &e);
                if (s > share[j]) {
                    share[j] = s, exact[j] = e;
                    for (uint32_t k = 0; k < w->h; k++) w->w[k] = (double)inv[k]; /* what the recipe uses */
                }
            }
        }
        if (share[j] > best) best = share[j];
    }
    d->recipe = d->recipe_tied = PE_DIAG_RECIPE_UNKNOWN;
    d->recipe_match = best;
    /* of the recipes as good within an ulp, the one giving the most cells bit for bit (numpy's float64 angles
     * against exact values; a recipe whose sin is correctly rounded against PyTorch's) */
    double best_exact = -1.0;
    for (unsigned j = 0; j < COUNT; j++)
        if (share[j] >= best - 0.0005 && exact[j] > best_exact) best_exact = exact[j];
    unsigned chosen = COUNT;
    for (unsigned j = 0; j < COUNT && best > 0.0; j++) {
        if (share[j] < best - 0.0005 || exact[j] < best_exact - 0.001) continue;
        chosen = j, d->recipe = order[j];
        break;
    }
    /* a recipe of another class within 0.001 of the chosen one, in cells within an ulp and bit for bit, is not
     * told apart, whether or not it passed the chooser's 0.0005: in 16 rows of Marian's table (pow in float64) at
     * 1.3e7 exact values leave one cell of 1,024 more than an ulp off and numpy's exp angles none (issue 24) */
    for (unsigned j = 0; j < COUNT && chosen < COUNT; j++) {
        if (j == chosen || share[j] < best - 0.001 || exact[j] < best_exact - 0.001) continue;
        if (recipe_class(order[j]) == recipe_class(d->recipe)) continue;
        d->recipe_tied = order[j];
        break;
    }
    if (chosen < COUNT) d->recipe_match = share[chosen], d->recipe_exact_share = exact[chosen];
    if (d->recipe == PE_DIAG_RECIPE_F32_FITTED) name_formula(w, d, inv);
}
