/* The RoPE scaling found by diag_rule.c, said in the parameters users hold:
 * HF's rope_scaling keys (modeling_rope_utils.py, _compute_*_parameters).
 * The frequencies rarely fix every key, so each reading states what they fix
 * and gives the canonical set: HF's defaults for what they leave open, round
 * numbers (powers of two first) within the ranges they leave.
 *
 *   YaRN      the ramp runs over pair indices from low to high, HF's
 *             floor/ceil of d ln(L0 / (2 pi beta)) / (2 ln theta) for
 *             beta_fast and beta_slow: only L0 / beta_fast and L0 / beta_slow
 *             are fixed (to intervals when truncated), so beta_fast 32 and
 *             beta_slow 1 (the defaults) give the range of L0.
 *   Llama 3   the blend is linear in frequency between wavelengths
 *             L0 / low_freq_factor and L0 / high_freq_factor: only the two
 *             quotients are fixed; low_freq_factor 1 is canonical.
 *   dynamic   the base is rope_theta (f L / L0 - f + 1)^(d / (d - 2)) at the
 *             sequence length L the cache was built at: rope_theta a common
 *             base, L the cache's positions, L0 a power of two making f round.
 *   LongRoPE  w_k = 1 / (e_k theta^(2k/d)): only e_k theta^(2k/d) is fixed, so
 *             theta is the common base making most e_k round (configs write
 *             them with two decimals); the amplitude sqrt(1 + ln f / ln L0)
 *             gives f and L0 as powers of two.
 * Every step is plain double arithmetic on the core's exp and log. */
#include "diag_internal.h"
#include "math/f64math.h"

const double diag_rope_thetas[DIAG_ROPE_THETA_COUNT] = {10000.0, 500000.0, 1e6, 100000.0, 50000.0, 5e6, 1e7};

static int close_to(double x, double target, double rel) {
    double e = x - target;
    return e <= rel * target && -e <= rel * target;
}

/* The roundest number in [lo, hi] (0 < lo <= hi < infinity): a power of two if
 * one is there (the one nearest the middle), else the coarsest multiple of a
 * power of ten; lo when the interval is too narrow for either, or is not such
 * an interval (bounds from an extreme base overflow). */
double diag_roundest_in(double lo, double hi) {
    if (!(lo > 0.0 && lo <= hi && hi <= 0x1p1000)) return lo;
    double best = 0.0, middle = diag_sqrt(lo) * diag_sqrt(hi); /* lo * hi may overflow */
    for (double p = 1.0; p <= hi && p < 0x1p60; p *= 2.0)
        if (p >= lo &&
            (best == 0.0 || (p > middle ? p / middle : middle / p) < (best > middle ? best / middle : middle / best)))
            best = p;
    if (best > 0.0) return best;
    double step = 1.0;
    while (step * 10.0 <= hi) step *= 10.0;
    for (int k = 0; k < 40; k++, step /= 10.0) {
        double x = diag_round_int(lo / step + 0.5 - 1e-12) * step;
        if (x < lo) x += step;
        if (x <= hi) return x;
    }
    return lo;
}

/* A power of two within rel of x, else 0. */
static double power_of_two_near(double x, double rel) {
    for (double p = 1.0; p < 0x1p60; p *= 2.0)
        if (close_to(x, p, rel)) return p;
    return 0.0;
}

/* x as a power of two, else 1-3 significant digits, within rel; else x. */
static double round_param(double x, double rel) {
    double p = power_of_two_near(x, rel);
    int round;
    return p > 0.0 ? p : diag_snap(x, rel, &round);
}

/* L0 / beta for a correction dimension c: d ln(L0 / (2 pi beta)) / (2 ln theta) = c. */
static double over_beta(double c, double dim, double log_theta) {
    return DIAG_TWO_PI * diag_exp(2.0 * c * log_theta / dim);
}

static void yarn(pe_diagnosis *d) {
    const double dim = 2.0 * d->pairs, log_theta = pe_log(d->base);
    const double low = d->band_low, high = d->band_high;
    double fast_lo, fast_hi, slow_lo, slow_hi;
    d->rope_theta = d->base;
    d->truncated =
        close_to(low + 1.0, diag_round_int(low) + 1.0, 0.02) && close_to(high + 1.0, diag_round_int(high) + 1.0, 0.02);
    if (d->truncated) {
        /* low = max(floor(c_fast), 0), high = min(ceil(c_slow), dim - 1) */
        double l = diag_round_int(low), hh = diag_round_int(high);
        fast_lo = l > 0.0 ? over_beta(l, dim, log_theta) : 1e-300;
        fast_hi = over_beta(l + 1.0, dim, log_theta);
        slow_lo = over_beta(hh - 1.0, dim, log_theta);
        slow_hi = hh < dim - 1.0 ? over_beta(hh, dim, log_theta) : 1e300;
    } else {
        fast_lo = over_beta(low, dim, log_theta) * (1.0 - 1e-3), fast_hi = fast_lo * (1.0 + 2e-3) / (1.0 - 1e-3);
        slow_lo = over_beta(high, dim, log_theta) * (1.0 - 1e-3), slow_hi = slow_lo * (1.0 + 2e-3) / (1.0 - 1e-3);
    }
    d->params_canonical = 1;
    d->beta_fast = 32.0, d->beta_slow = 1.0; /* HF's defaults */
    double lo = 32.0 * fast_lo > slow_lo ? 32.0 * fast_lo : slow_lo,
           hi = 32.0 * fast_hi < slow_hi ? 32.0 * fast_hi : slow_hi;
    if (!(lo <= hi)) {
        /* the defaults do not fit: beta_slow 1 gives L0, then beta_fast its range */
        lo = slow_lo, hi = slow_hi < 1e299 ? slow_hi : slow_lo * 4.0;
        double l0 = diag_roundest_in(lo, hi);
        d->beta_fast = diag_roundest_in(l0 / fast_hi, l0 / fast_lo);
    }
    d->original_lo = lo, d->original_hi = hi;
    d->original_max = diag_roundest_in(lo, hi);
    /* HF multiplies cos and sin by attention_factor, by default 0.1 mscale ln(factor) + 1 */
    d->attention_factor = d->mscale = 0.0;
    if (!close_to(d->scale, 1.0, 1e-6) && d->factor > 1.0) {
        d->attention_factor = d->scale;
        int round;
        d->mscale = diag_snap((d->scale - 1.0) / (0.1 * pe_log(d->factor)), 1e-4, &round);
    }
}

static void llama3(pe_diagnosis *d) {
    /* band_low: the wavelength L0 / low_freq_factor; band_high: L0 / high_freq_factor */
    d->rope_theta = d->base;
    d->params_canonical = 1;
    d->low_freq_factor = 1.0;
    d->original_max = round_param(d->band_low, 1e-3);
    d->high_freq_factor = round_param(d->original_max / d->band_high, 1e-3);
}

/* The base of a cache is not round: HF's dynamic NTK rule from a common rope_theta below it (or the one the
 * exact reading, diag_exact_dynamic.c, found with its alpha: then the cells fixed the base and it is dynamic
 * even when no round factor and power-of-two original give alpha at the cache's length). */
static void dynamic(const diag_work *w, pe_diagnosis *d) {
    const double dim = 2.0 * d->pairs, positions = d->offset + (double)(d->rows - w->first_row);
    const int read_exactly = d->dynamic_alpha > 1.0 && d->rope_theta > 0.0 && d->rope_theta < d->base;
    double theta = read_exactly ? d->rope_theta : 0.0;
    for (unsigned k = 0; k < DIAG_ROPE_THETA_COUNT && !read_exactly; k++)
        if (diag_rope_thetas[k] < d->base * (1.0 - 1e-6) && diag_rope_thetas[k] > theta) theta = diag_rope_thetas[k];
    if (theta == 0.0 || dim < 4.0) return;
    d->rope_theta = theta;
    if (!read_exactly) d->dynamic_alpha = diag_exp(pe_log(d->base / theta) * (dim - 2.0) / dim);
    d->seq_len = positions;
    if (read_exactly) d->scaling = PE_DIAG_SCALING_DYNAMIC; /* factor, original: canonical below, when round */
    /* alpha - 1 = f (L / L0 - 1): the largest power-of-two L0 below L with f round */
    for (double l0 = 0x1p30; l0 >= 64.0; l0 /= 2.0) {
        if (l0 >= positions) continue;
        double f = (d->dynamic_alpha - 1.0) / (positions / l0 - 1.0);
        int round;
        double snapped = diag_snap(f, 1e-5, &round);
        if (round && snapped > 1.0) {
            d->scaling = PE_DIAG_SCALING_DYNAMIC;
            d->factor = snapped;
            d->original_max = l0;
            d->params_canonical = 1;
            return;
        }
    }
}

/* e_k = 1 / (w_k theta^(2k/d)): how many are round to two decimals, within their precision. */
static uint32_t round_factors(const diag_work *w, double log_theta) {
    uint32_t round = 0;
    for (uint32_t k = 0; k < w->h; k++) {
        if (!(w->w[k] > 0.0)) continue;
        double e = diag_exp(-pe_log(w->w[k]) - 2.0 * k * log_theta / (2.0 * w->h));
        double rel = 4e-7 + 5.0 * w->sigma[k] / w->w[k];
        round += close_to(e, diag_round_int(e * 100.0) / 100.0, rel);
    }
    return round;
}

static void longrope(const diag_work *w, pe_diagnosis *d) {
    uint32_t best = 0;
    double theta = diag_rope_thetas[0];
    for (unsigned k = 0; k < DIAG_ROPE_THETA_COUNT; k++) {
        uint32_t n = round_factors(w, pe_log(diag_rope_thetas[k]));
        if (n > best) best = n, theta = diag_rope_thetas[k];
    }
    d->rope_theta = d->base = theta;
    d->base_round = 1;
    d->rule = 0;
    d->params_canonical = 1;
    const double log_theta = pe_log(theta);
    d->band_low = 1e300, d->band_high = 0.0;
    d->pair_factors = w->h <= PE_DIAG_PAIR_FACTORS ? w->h : 0;
    for (uint32_t k = 0; k < w->h; k++) {
        double e = w->w[k] > 0.0 ? diag_exp(-pe_log(w->w[k]) - 2.0 * k * log_theta / (2.0 * w->h)) : 0.0;
        if (k < d->pair_factors) d->pair_factor[k] = e;
        if (e > 0.0 && e < d->band_low) d->band_low = e;
        if (e > d->band_high) d->band_high = e;
    }
    d->factor = 0.0;
    d->long_factors = -1;
    d->attention_factor = 0.0;
    double amp = d->scale;
    if (!close_to(d->scale, 1.0, 1e-6)) {
        d->attention_factor = d->scale;
        /* HF's default attention sqrt(1 + ln f / ln L0), f = max_position_embeddings / L0: the smallest
         * power-of-two L0 giving a power-of-two f */
        double q = d->scale * d->scale - 1.0;
        /* the amplitude is read to half an ulp of the storage (float16: 5e-4 of it), so q = ln f / ln L0 to
         * 2 A dA, and f = L0^q to ln(L0) 2 A dA relative */
        const double dq = d->scale * diag_ulp(d->storage, d->scale);
        for (double l0 = 256.0; l0 <= 0x1p24 && q > 0.0; l0 *= 2.0) {
            double f = power_of_two_near(diag_exp(q * pe_log(l0)), 1e-4 + pe_log(l0) * dq);
            if (f > 1.0) {
                d->factor = f;
                d->original_max = l0;
                /* HF takes long_factor for a cache built past L0 positions, short_factor up to it: rows within
                 * the first L0 positions may be either (a longer cache's first rows), and only rows past L0 tell */
                d->long_factors = d->offset + (double)(d->rows - w->first_row) > l0 ? 1 : -1;
                /* the attention factor HF computes from them, not the amplitude read to the storage's ulp */
                amp = d->attention_factor = diag_sqrt(1.0 + pe_log(f) / pe_log(l0));
                break;
            }
        }
    }
    /* the factors as far as the cells fix them */
    d->pair_factors_open = diag_pair_ranges(w, d, amp, log_theta);
    if (d->pair_factors == 0) return;
    /* the band from what the cells fix: a fixed factor's value, an open one's bounds (never the value picked
     * inside its range); an open range without an upper bound adds only its lower one (the text says "or more") */
    d->band_low = 1e300, d->band_high = 0.0;
    for (uint32_t k = 0; k < d->pair_factors; k++) {
        const int open = d->pair_factor_open[k];
        const double lo = open ? d->pair_factor_lo[k] : d->pair_factor[k];
        const double hi = open && d->pair_factor_hi[k] < 1e299 ? d->pair_factor_hi[k] : lo;
        if (lo > 0.0 && lo < d->band_low) d->band_low = lo;
        if (hi > d->band_high) d->band_high = hi;
    }
}

/* x when finite, else 0: a degenerate fit never reaches the JSON as nan. */
static void finite_or_zero(double *x) {
    if (!(*x - *x == 0.0)) *x = 0.0;
}

void diag_scaling_params(diag_work *w, pe_diagnosis *d) {
    switch (d->scaling) {
    case PE_DIAG_SCALING_YARN: yarn(d); break;
    case PE_DIAG_SCALING_LLAMA3: llama3(d); break;
    case PE_DIAG_SCALING_PER_PAIR:
        if (d->longrope_list > 0)
            diag_longrope_list_params(w, d); /* a shipped list: every factor given */
        else if (d->longrope_list == 0)      /* < 0: diag_far_longrope_search.c set the factors */
            longrope(w, d);
        break;
    case PE_DIAG_SCALING_NONE:
        if (d->kind == PE_DIAG_COS_SIN && d->rule == 0 && !d->base_round && d->base_digits >= 4) dynamic(w, d);
        break;
    default: d->rope_theta = d->base;
    }
    double *fields[] = {&d->factor,     &d->band_low,     &d->band_high,       &d->attention_factor,
                        &d->rope_theta, &d->original_max, &d->original_lo,     &d->original_hi,
                        &d->beta_fast,  &d->beta_slow,    &d->low_freq_factor, &d->high_freq_factor,
                        &d->mscale,     &d->seq_len,      &d->dynamic_alpha};
    for (unsigned k = 0; k < sizeof fields / sizeof fields[0]; k++) finite_or_zero(fields[k]);
    for (uint32_t k = 0; k < d->pair_factors; k++) {
        finite_or_zero(&d->pair_factor[k]);
        finite_or_zero(&d->pair_factor_lo[k]);
        finite_or_zero(&d->pair_factor_hi[k]);
    }
}
