/* From the fitted frequencies to a convention: log w_k against k is a line
 * for every geometric rule (w_k = f^-1 T^(-k/n), n = h for the paper's rule
 * and RoPE, h - 1 for tensor2tensor's), fitted with weights from each w_k's
 * precision. Paper and tensor2tensor differ only in n, so the rule is the one
 * whose T is a round number. A line with an intercept is linear scaling (f);
 * a bend is YaRN (the ramp is linear in k) or Llama 3 (linear in frequency);
 * anything else is reported pair by pair. */
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

#define GEOMETRIC_CHI2 30.0 /* reduced chi-square a geometric rule may leave */
#define W_FLOOR        3e-8 /* relative spread of w_k a float32 inv_freq adds */

double diag_exp(double x) {
    return x <= 0 ? pe_exp_nonpositive(x) : 1.0 / pe_exp_nonpositive(-x);
}

double diag_round_int(double x) {
    return (x + PE_ROUND_MAGIC) - PE_ROUND_MAGIC;
}

double diag_floor(double x) {
    const double r = diag_round_int(x);
    return r > x ? r - 1.0 : r;
}

double diag_snap(double x, double rel, int *round) {
    *round = 0;
    /* zero, infinities and NaN have no digits (and would keep the scaling loops below going forever) */
    if (x == 0.0 || !diag_finite(x)) return x;
    if (x < 0.0) return -diag_snap(-x, rel, round);
    for (int digits = 1; digits <= 3; digits++) {
        /* x = m * 10^k with m in [10^(digits-1), 10^digits); 10^k kept as an exact integer (up) or its inverse (down)
         */
        double up = 1.0, down = 1.0, limit = digits == 1 ? 10.0 : digits == 2 ? 100.0 : 1000.0;
        while (x / up >= limit) up *= 10.0;
        while (x * down < limit / 10.0) down *= 10.0;
        double r = up > 1.0 ? diag_round_int(x / up) * up : diag_round_int(x * down) / down, diff = (x - r) / x;
        if (diff < rel && -diff < rel) {
            *round = 1;
            return r;
        }
    }
    return x;
}

static int digits_for(double rel) {
    int digits = 0;
    for (double r = 4.0 * rel; r < 0.1 && digits < 12; r *= 10.0) digits++;
    return digits;
}

typedef struct line {
    double a, b, var_a, var_b, chi2;
} line;

/* Weighted least squares y_k = a + b k over k in [k0, k1), u_k = 1 / var(y_k); with_intercept 0 fixes a = 0. */
static line fit_log_line(const diag_work *w, uint32_t k0, uint32_t k1, int with_intercept) {
    double su = 0.0, sk = 0.0;
    for (uint32_t k = k0; k < k1; k++) su += w->tmp[k], sk += w->tmp[k] * k;
    double mk = with_intercept && su > 0 ? sk / su : 0.0;
    double sxx = 0.0, sxy = 0.0, sy = 0.0;
    for (uint32_t k = k0; k < k1; k++) {
        if (w->tmp[k] == 0.0) continue;
        double y = -pe_log(w->w[k]), x = k - mk;
        sxx += w->tmp[k] * x * x;
        sxy += w->tmp[k] * x * y;
        sy += w->tmp[k] * y;
    }
    line l = {0, 0, 0, 0, 0};
    l.b = sxx > 0 ? sxy / sxx : 0.0;
    l.var_b = sxx > 0 ? 1.0 / sxx : 1.0;
    if (with_intercept && su > 0) {
        l.a = sy / su - l.b * mk;
        l.var_a = 1.0 / su + mk * mk * l.var_b;
    }
    double chi = 0.0;
    uint32_t used = 0;
    for (uint32_t k = k0; k < k1; k++) {
        if (w->tmp[k] == 0.0) continue;
        double e = -pe_log(w->w[k]) - l.a - l.b * k;
        chi += w->tmp[k] * e * e;
        used++;
    }
    uint32_t dof = used > (uint32_t)(1 + with_intercept) ? used - 1 - with_intercept : 1;
    l.chi2 = chi / dof;
    return l;
}

/* Paper or tensor2tensor: the rule whose base is round. */
static void pick_rule(pe_diagnosis *d, double b, double var_b, uint32_t h) {
    double rel = h * diag_sqrt(var_b);
    double paper = diag_exp(b * h), t2t = h > 1 ? diag_exp(b * (h - 1)) : paper;
    /* float32 inv_freq formulas bend the line by up to about 1e-7 log T: 2e-6 covers every peer */
    double tol = 5.0 * rel > 2e-6 ? 5.0 * rel : 2e-6;
    int paper_round, t2t_round;
    double paper_snap = diag_snap(paper, tol, &paper_round), t2t_snap = diag_snap(t2t, tol, &t2t_round);
    const int finite = diag_finite(paper) && diag_finite(t2t) && rel == rel;
    d->base_digits = finite ? digits_for(rel) : 0;
    if (!finite || rel > 1e-2 || h < 2) {
        d->rule = -1;
        d->base = finite ? paper : 0.0; /* a slope past double's range: no base */
        d->base_round = 0;
    } else if (t2t_round && !paper_round) {
        d->rule = 1;
        d->base = t2t_snap;
        d->base_round = 1;
    } else {
        d->rule = 0;
        d->base = paper_snap;
        d->base_round = paper_round;
    }
}

static void exact_frequencies(diag_work *w, const pe_diagnosis *d, double factor) {
    double n = d->rule == 1 && w->h > 1 ? w->h - 1 : w->h;
    double log_base = pe_log(d->base);
    for (uint32_t k = 0; k < w->h; k++) w->model_w[k] = pe_exp_nonpositive(-(k * log_base) / n) / factor;
}

/* The factor of the scaled low frequencies: the largest ratio among the pairs
 * the cells determine well, then of the pairs within 1% of it the best
 * determined one's. The last pairs alone may hardly turn (a cos cache of a
 * few thousand rows holds cos of 1e-3 rad), and a cos near 1 in float32 reads
 * their frequencies biased high: the lowest pair's ratio is no plateau. */
static double plateau(const diag_work *w, pe_dtype storage, double *best_rel) {
    const uint32_t h = w->h;
    /* well determined: to 1e-4 in float32, as the storage's own precision allows in float16 and bfloat16 */
    const double tight = storage == PE_DTYPE_BFLOAT16 ? 1e-2 : storage == PE_DTYPE_FLOAT16 ? 2e-3 : 1e-4;
    double top = 0.0;
    for (uint32_t k = 0; k < h; k++)
        if (w->w[k] > 0.0 && w->sigma[k] < tight * w->w[k] && w->tmp[k] > top) top = w->tmp[k];
    double last = top > 0.0 ? top : w->tmp[h - 1], best = last;
    *best_rel = 1e300;
    for (uint32_t k = 0; k < h; k++) {
        if (!(w->w[k] > 0.0) || w->tmp[k] < 0.99 * last || w->tmp[k] > 1.01 * last) continue;
        double rel = w->sigma[k] / w->w[k];
        if (rel < *best_rel) *best_rel = rel, best = w->tmp[k];
    }
    return best;
}

/* YaRN or Llama 3 from the blend s_k between scaled (0) and unscaled (1). */
static void fit_bands(diag_work *w, pe_diagnosis *d, double b0, double f) {
    const uint32_t h = w->h; /* ratios stored in tmp by the caller */
    double sk = 0, ss = 0, sw = 0, n = 0, skk = 0, sks = 0, sww = 0, sws = 0;
    for (uint32_t k = 0; k < h; k++) {
        double s = (1.0 / w->tmp[k] - 1.0 / f) / (1.0 - 1.0 / f);
        if (!(s > 0.002 && s < 0.998)) continue;
        double wu = pe_exp_nonpositive(-b0 * k);
        n++, sk += k, ss += s, sw += wu, skk += (double)k * k, sks += k * s, sww += wu * wu, sws += wu * s;
    }
    d->scaling = PE_DIAG_SCALING_BANDED;
    if (n < 3) return;
    double bk = (n * sks - sk * ss) / (n * skk - sk * sk), ak = (ss - bk * sk) / n;
    double bw = (n * sws - sw * ss) / (n * sww - sw * sw), aw = (ss - bw * sw) / n;
    double rk = 0, rw = 0;
    for (uint32_t k = 0; k < h; k++) {
        double s = (1.0 / w->tmp[k] - 1.0 / f) / (1.0 - 1.0 / f);
        if (!(s > 0.002 && s < 0.998)) continue;
        double wu = pe_exp_nonpositive(-b0 * k);
        rk += (s - ak - bk * k) * (s - ak - bk * k);
        rw += (s - aw - bw * wu) * (s - aw - bw * wu);
    }
    /* each model only where its ramp runs the right way: s falls with k (YaRN), rises with frequency from a
     * positive one (Llama 3); a few rows of a cache can fit either backwards (negative wavelengths), or put
     * YaRN's ramp thousands of pairs away (HF's ends lie within d = 2h pairs of the table's, untruncated) */
    const double yarn_high = -ak / bk, yarn_low = yarn_high + 1.0 / bk;
    int yarn_ok = bk < 0.0 && yarn_low > -4.0 * h && yarn_high < 4.0 * h;
    int llama3_ok = bw > 0.0 && aw < 0.0 && diag_finite(bw);
    if (yarn_ok && (rk <= rw || !llama3_ok)) {
        d->scaling = PE_DIAG_SCALING_YARN;
        d->band_high = yarn_high; /* s = 0 */
        d->band_low = yarn_low;   /* s = 1 */
    } else if (llama3_ok) {
        d->scaling = PE_DIAG_SCALING_LLAMA3;
        d->band_low = -2 * DIAG_PI * bw / aw;         /* wavelength where s = 0 */
        d->band_high = 2 * DIAG_PI * bw / (1.0 - aw); /* wavelength where s = 1 */
    }
}

/* Weights 1 / var(log w_k) with a relative floor. A w_k the cells do not
 * determine (a column constant in its dtype: cos of a tiny angle is 1 in
 * bfloat16) gets weight 0. Returns 0 (rule "other") when fewer than two are left. */
static int set_weights(diag_work *w, pe_diagnosis *d, double floor) {
    uint32_t good = 0;
    for (uint32_t k = 0; k < w->h; k++) {
        double rel = w->sigma[k] / w->w[k];
        int usable = w->w[k] > 0.0 && rel < 0.5 && w->psd[k] < 1.0; /* psd 10: no phase line */
        w->tmp[k] = usable ? 1.0 / (rel * rel + floor * floor) : 0.0;
        good += usable;
    }
    if (good >= 2 || w->h < 2) return 1;
    d->rule = 2;
    for (uint32_t j = 0; j < w->h; j++) w->model_w[j] = w->w[j] > 0 ? w->w[j] : 0.0;
    return 0;
}

void diag_fit_rule(diag_work *w, pe_diagnosis *d) {
    const uint32_t h = w->h;
    d->scaling = PE_DIAG_SCALING_NONE;
    d->factor = 1.0;
    d->rule = -1;
    d->base = 0.0;
    if (!set_weights(w, d, W_FLOOR)) return;
    if (h < 2) {
        w->model_w[0] = w->w[0];
        d->base_digits = 0;
        return;
    }
    line free = fit_log_line(w, 0, h, 1);
    if (free.chi2 >= GEOMETRIC_CHI2 && d->storage != PE_DTYPE_FLOAT32) {
        /* every step in float16 or bfloat16 rounds inv_freq itself: half an ulp of the dtype per pair */
        set_weights(w, d, d->storage == PE_DTYPE_FLOAT16 ? 0x1p-11 : 0x1p-8);
        free = fit_log_line(w, 0, h, 1);
        if (free.chi2 >= GEOMETRIC_CHI2) { /* not that either: a scaled float32 inv_freq, cast at the end (HF) */
            set_weights(w, d, W_FLOOR);
            free = fit_log_line(w, 0, h, 1);
        }
    }
    int intercept = !(free.a * free.a <= 16.0 * free.var_a || (free.a < 1e-7 && -free.a < 1e-7));
    line l = intercept ? free : fit_log_line(w, 0, h, 0);
    if (l.chi2 < GEOMETRIC_CHI2) {
        pick_rule(d, l.b, l.var_b * (l.chi2 > 1.0 ? l.chi2 : 1.0), h);
        if (intercept) {
            int round;
            d->scaling = PE_DIAG_SCALING_LINEAR;
            d->factor = diag_snap(diag_exp(l.a), 5.0 * diag_sqrt(l.var_a) + 1e-9, &round);
        }
        if (d->base_round)
            exact_frequencies(w, d, d->factor);
        else
            for (uint32_t k = 0; k < h; k++) w->model_w[k] = diag_exp(-l.a - l.b * k);
        return;
    }
    /* Not one line: the high frequencies give the base, the rest their factors. */
    uint32_t m = h / 8 > 3 ? h / 8 : 3;
    line head = fit_log_line(w, 0, m < h ? m : h, 0);
    pick_rule(d, head.b, head.var_b, h);
    if (d->rule == 1) d->rule = 0; /* RoPE's rule is the paper's */
    double b0 = d->base_round ? pe_log(d->base) / h : head.b;
    int banded = 1, finite = 1;
    for (uint32_t k = 0; k < h; k++) {
        /* ratio unscaled / fitted; an undetermined pair keeps its neighbour's */
        w->tmp[k] = w->w[k] > 0.0 ? diag_exp(-pe_log(w->w[k]) - b0 * k) : (k ? w->tmp[k - 1] : 1.0);
        finite &= diag_finite(w->tmp[k]);
        /* the lowest frequencies are the least determined (a cos cache hardly turns there): within 5 sigma */
        double slack = 1e-4 + (w->w[k] > 0.0 ? 5.0 * w->sigma[k] / w->w[k] : 0.0);
        if (k > 0 && w->tmp[k] < w->tmp[k - 1] - slack * w->tmp[k - 1]) banded = 0;
    }
    for (uint32_t k = 0; k < h; k++) w->model_w[k] = w->w[k];
    if (!finite) { /* ratios past double's range: nothing geometric, no factors to tell */
        d->rule = 2;
        return;
    }
    double f_rel, f = plateau(w, d->storage, &f_rel);
    if (banded && w->tmp[0] < 1.0001 && w->tmp[0] > 0.9999 && f > 1.001) {
        int round;
        d->factor = diag_snap(f, 1e-4 > 5.0 * f_rel ? 1e-4 : 5.0 * f_rel, &round);
        fit_bands(w, d, b0, f);
        return;
    }
    /* the spread of the ratios over the pairs that determine theirs (a pair the cells hardly fix says nothing;
     * a few that stray past 5 sigma are noise: float32 angles of large positions) */
    double lo = 1e300, hi = 0.0;
    uint32_t fixed = 0, astray = 0;
    for (uint32_t k = 0; k < h; k++) {
        if (!(w->w[k] > 0.0 && w->sigma[k] < 1e-3 * w->w[k] && w->psd[k] < 1.0)) continue;
        fixed++;
        double off = w->tmp[k] - w->tmp[0], slack = 1e-4 + 5.0 * w->sigma[k] / w->w[k];
        if (off > slack || -off > slack) {
            astray++;
            continue;
        }
        if (w->tmp[k] < lo) lo = w->tmp[k];
        if (w->tmp[k] > hi) hi = w->tmp[k];
    }
    if (hi == 0.0 || astray * 10 > fixed) { /* spread: the ratios of every pair */
        lo = hi = w->tmp[0];
        for (uint32_t k = 1; k < h; k++) {
            if (w->tmp[k] < lo) lo = w->tmp[k];
            if (w->tmp[k] > hi) hi = w->tmp[k];
        }
    }
    if (hi < lo * 1.001) { /* one line after all, with noisy cells: the rule from the whole line */
        pick_rule(d, l.b, l.var_b * l.chi2, h);
        if (d->base_round) exact_frequencies(w, d, 1.0);
        return;
    }
    d->rule = 2;
    d->scaling = PE_DIAG_SCALING_PER_PAIR;
    d->factor = hi;
    d->band_low = lo;
}
