/* The first position p0 of the rows, from the phase lines of diag_phase.c at
 * the frequencies W_k the rule settled on (model_w). Pair k gives
 * phi_k = p0 W_k mod 2 pi, to within its phase's sd plus what a float32 angle
 * or inv_freq adds (2^-23 p0 W_k: float32 data carry p0 only to about 7
 * digits through their high frequencies, all of it through the low ones).
 *
 * The lowest usable frequency W_a leaves p0 = (phi_a + 2 pi m) / W_a, one
 * branch m per 2 pi / W_a positions (62832 for base 10000): every branch
 * below 2^31 is scored against the other pairs, lowest frequency first (a
 * branch and bound that drops most branches after a pair or two), like a
 * Chinese remainder over the incommensurate frequencies. The best branch is
 * then refined by weighted least squares, taking in higher frequencies as the
 * estimate narrows enough to unwrap them, and rounded to a whole position
 * when its uncertainty allows. A cache is read both as cos and as sin (its
 * quadrature angle is the cos angle; a sin column's is it - pi/2): the
 * reading the phases agree with wins, and its amplitude is fitted last. */
#include "diag_internal.h"
#include "math/dd.h"
#include "math/f64math.h"
#include "math/sincos.h"

/* A float32 inv_freq formula: a few float32 roundings of a power (the tutorial's exp(2k * float32(-ln T / d)) is
 * up to 6e-7 off). */
#define REL_F32     1e-6
#define INFORMATIVE 0.5  /* a pair whose phase is known to less than this (rad) takes part in the refinement */
#define CONSISTENT  30.0 /* chi-square per pair below which the phases agree */
#define TWO_PI_HI   6.283185307179586
#define TWO_PI_LO   2.4492935982947064e-16

/* (p W - phi) wrapped into [-pi, pi], p W in double-double (p < 2^32, W <= pi). */
static double residual(double p, double wk, double phi) {
    pe_dd a = pe_two_prod(p, wk);
    double k = diag_round_int(a.hi / TWO_PI_HI);
    pe_dd t = pe_two_prod(k, TWO_PI_HI);
    double r = ((a.hi - t.hi) - t.lo) + a.lo - k * TWO_PI_LO;
    return diag_wrap(r - phi);
}

/* The frequency each pair's angles turn at, and its sd: the rule's W_k (which a float32 inv_freq formula
 * leaves up to rel off) combined with the fitted slope (which knows the float32 value the peer used, to sigma). */
static void frequencies(diag_work *w, double rel) {
    for (uint32_t k = 0; k < w->h; k++) {
        double m = w->model_w[k], r = rel * m + 1e-300, f = w->w[k], s = w->sigma[k];
        if (!(f > 0.0 && s > 0.0 && s < m)) {
            w->freq[k] = m, w->freq_sd[k] = r;
            continue;
        }
        double a = 1.0 / (r * r), b = 1.0 / (s * s);
        w->freq[k] = (a * m + b * f) / (a + b);
        w->freq_sd[k] = 1.0 / diag_sqrt(a + b);
    }
}

/* The sd of pair k's phase at first position p: its reading at the line's mean row, and the frequency's sd
 * carried from there back to position 0 (plus double rounding). */
static double sigma_at(const diag_work *w, uint32_t k, double p, double rel_angle) {
    double x = p + w->mx[k], fs = x * w->freq_sd[k], wp = x * w->freq[k] * rel_angle;
    return diag_sqrt(w->psd[k] * w->psd[k] + fs * fs + wp * wp + 1e-30 * x * x);
}

typedef struct fit_result {
    double p, u, chi; /* position, its sd, chi-square per informative pair */
    double searched;  /* positions searched: [0, searched) */
} fit_result;

/* Pairs usable for the offset, by W ascending (insertion sort: h <= 4096); tight: only the pairs whose own
 * frequency the cells fix (diag_loose). */
static uint32_t sort_pairs(diag_work *w, int tight) {
    uint32_t n = 0;
    for (uint32_t k = w->h; k-- > 0;) {
        double wk = w->model_w[k];
        if (!(wk > 1e-12 && wk < 3.2 && w->psd[k] < INFORMATIVE) || (tight && diag_loose(w, k))) continue;
        uint32_t j = n++;
        while (j > 0 && w->model_w[w->order[j - 1]] > wk) w->order[j] = w->order[j - 1], j--;
        w->order[j] = k;
    }
    return n;
}

/* The score of branch position p (sd p_sd) over up to `pairs` pairs in order, each pair refining p as it is
 * taken in (a sequential least squares: the lowest frequencies first, so that each next one is unwrapped by
 * the estimate so far): minus twice the log-likelihood against uniform phases, each pair adding
 * min(e^2 / sd^2, C) - C with C = 2 ln(sqrt(2 pi) / sd). A pair that matches gains what it can tell, one that
 * cannot match (and is then left out) or knows nothing adds 0. Lower is better; *refined the position. */
static double score(const diag_work *w, const double *phi, uint32_t n, uint32_t pairs, double p, double p_sd,
                    double rel_angle, double *refined, double *refined_sd) {
    double total = 0.0, precision = 1.0 / (p_sd * p_sd + 1e-300);
    for (uint32_t j = 1, used = 0; j < n && used < pairs; j++) {
        uint32_t k = w->order[j];
        double wk = w->freq[k], spread2 = wk * wk / precision;
        /* the pairs come by frequency, lowest first: past one the estimate cannot unwrap, none can be (the
         * precision grows only with a pair taken in); without this stop a float16 cache of 512 pairs scanned
         * them all on every branch */
        if (spread2 > 4.0) break;
        double s = sigma_at(w, k, p, rel_angle), eff2 = s * s + spread2;
        if (eff2 > 4.0) continue;
        used++;
        double e = residual(p, wk, phi[k]), term = e * e / eff2, cap = pe_log(2.0 * DIAG_PI / eff2);
        if (term < cap) {
            double gain = wk * wk / (s * s);
            p -= (wk * e / (s * s)) / (precision + gain);
            precision += gain;
            total += term - cap;
        }
    }
    if (refined) *refined = p, *refined_sd = 1.0 / diag_sqrt(precision);
    return total;
}

#define FINALISTS 8

static fit_result search(diag_work *w, const double *phi, uint32_t n, double positions, double rel_angle) {
    /* the work in proportion to the table's cells, within [40k, 250k] terms: a few rows cost little */
    double cells = (double)(w->v.rows - w->first_row) * w->v.cols * 8.0;
    const double budget = cells < 4e4 ? 4e4 : cells > 2.5e5 ? 2.5e5 : cells;
    fit_result best = {0.0, 1e300, 1e300, 0.0};
    if (n == 0) return best;
    const uint32_t a = w->order[0];
    const double wa = w->freq[a], pa = diag_wrap(phi[a]); /* [-pi, pi]: branch 0 may sit just below 0 */
    double branches = positions * wa / TWO_PI_HI + 1.0;
    if (branches > budget / 2) branches = budget / 2;
    best.searched = (pa + TWO_PI_HI * branches) / wa;
    if (best.searched > positions) best.searched = positions;
    /* every branch on the lowest few pairs (about 250k terms in all), the best few on every pair */
    uint32_t pairs = (uint32_t)(budget / branches);
    pairs = pairs < 2 ? 2 : pairs > 24 ? 24 : pairs;
    double fin_p[FINALISTS], fin_s[FINALISTS];
    uint32_t fins = 0;
    for (uint32_t m = 0; m < (uint32_t)branches; m++) {
        double p = (pa + TWO_PI_HI * m) / wa;
        if (p > positions + 0.5) break;
        double p_sd = sigma_at(w, a, p, rel_angle) / wa;
        if (p < -0.5 - 3.0 * p_sd) continue;
        double sc = score(w, phi, n, pairs, p, p_sd, rel_angle, NULL, NULL);
        if (fins == FINALISTS && sc >= fin_s[FINALISTS - 1]) continue;
        uint32_t j = fins < FINALISTS ? fins++ : FINALISTS - 1;
        while (j > 0 && fin_s[j - 1] > sc) fin_p[j] = fin_p[j - 1], fin_s[j] = fin_s[j - 1], j--;
        fin_p[j] = p, fin_s[j] = sc;
    }
    double best_score = 1e300, best_p = 0.0, best_sd = 1.0;
    for (uint32_t j = 0; j < fins; j++) {
        double p_sd = sigma_at(w, a, fin_p[j], rel_angle) / wa;
        double refined, refined_sd;
        double sc = score(w, phi, n, n, fin_p[j], p_sd, rel_angle, &refined, &refined_sd);
        if (sc < best_score) best_score = sc, best_p = refined, best_sd = refined_sd;
    }
    /* refine: weighted least squares, taking in each pair once the estimate can unwrap it */
    double p = best_p, u = best_sd;
    for (int round = 0; round < 12; round++) {
        double s1 = 0.0, s2 = 0.0;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t k = w->order[j];
            double wk = w->freq[k], s = sigma_at(w, k, p, rel_angle);
            if (s > INFORMATIVE || wk * u > 0.25) continue;
            double e = residual(p, wk, phi[k]);
            if (e * e > 25.0 * (s * s + wk * wk * u * u)) continue; /* an outlier: left out */
            s1 += wk * e / (s * s), s2 += wk * wk / (s * s);
        }
        if (!(s2 > 0.0)) break;
        p -= s1 / s2;
        double u_new = 1.0 / diag_sqrt(s2);
        int done = !(u_new < 0.9 * u);
        u = u_new;
        if (done && round > 0) break;
    }
    double chi = 0.0;
    uint32_t used = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t k = w->order[j];
        double s = sigma_at(w, k, p, rel_angle);
        if (s > INFORMATIVE || w->freq[k] * u > 0.25) continue;
        double e = residual(p, w->freq[k], phi[k]);
        chi += e * e / (s * s), used++;
    }
    best.p = p, best.u = u, best.chi = used ? chi / used : 1e300;
    return best;
}

/* Phases at the first row under a reading: the phase line's mean point carried back at W_k, plus shift. */
static void phases(const diag_work *w, double shift, double *phi) {
    for (uint32_t k = 0; k < w->h; k++) phi[k] = diag_wrap(w->my[k] - w->freq[k] * w->mx[k] + shift);
}

/* The search at the storage's precision: float32 first; every step in float16 / bfloat16 (the angles and
 * inv_freq carry the dtype's rounding) when float32 does not fit. Leaves freq and phi as the result's. */
static fit_result best_reading(diag_work *w, double shift, double *phi, uint32_t n, double positions,
                               pe_dtype storage) {
    frequencies(w, REL_F32);
    phases(w, shift, phi);
    fit_result r = search(w, phi, n, positions, 0.0);
    if (r.chi > CONSISTENT && storage != PE_DTYPE_FLOAT32) {
        double rel = storage == PE_DTYPE_FLOAT16 ? 0x1p-10 : 0x1p-7;
        frequencies(w, rel);
        phases(w, shift, phi);
        fit_result narrow = search(w, phi, n, positions, rel);
        if (narrow.chi < r.chi) return narrow;
        frequencies(w, REL_F32);
        phases(w, shift, phi);
    }
    return r;
}

/* A cache's amplitude: least squares of the cells on the model over a few rows, where the angles are exact
 * enough; kept as the peak read so far when none are. */
static void cache_amplitude(diag_work *w, pe_diagnosis *d) {
    const uint32_t first = w->first_row, rows = w->v.rows, n = rows - first, step = n > 64 ? n / 64 : 1;
    double vm = 0.0, mm = 0.0;
    for (uint32_t r = first; r < rows; r += step) {
        double p = d->offset + (r - first);
        for (uint32_t k = 0; k < w->h; k++) {
            double wk = w->freq[k];
            if (!(wk > 0.0) || (p + 1.0) * w->freq_sd[k] > 1e-4) continue;
            double s, c;
            pe_sincos(p * wk, &s, &c);
            double m = d->cache_cos ? c : s, v = diag_at(&w->v, r, w->col_sin[k]);
            vm += v * m, mm += m * m;
        }
    }
    if (mm > 0.0 && vm > 0.0) d->scale = vm / mm;
    /* no attention factor (HF's are 0.1 ln f + 1 or sqrt(1 + ln f / ln L0), well above 1.0001): exactly 1 */
    if (d->scale > 0.9999 && d->scale < 1.0001) d->scale = 1.0;
    /* HF multiplies by a float32 attention factor: the float32 nearest, when that close */
    double f = (double)(float)d->scale;
    if (d->storage == PE_DTYPE_FLOAT32 && f - d->scale < 1e-6 * f && d->scale - f < 1e-6 * f) d->scale = f;
}

void diag_fit_offset(diag_work *w, pe_diagnosis *d, int tight) {
    const double positions = (double)PE_MAX_POSITION - (w->v.rows - w->first_row);
    double *phi = w->tmp;
    const int cache = d->kind == PE_DIAG_COS_SIN;
    if (cache) diag_cache_phases(w);
    const uint32_t n = sort_pairs(w, tight);
    fit_result r = best_reading(w, 0.0, phi, n, positions, d->storage);
    if (cache) {
        fit_result as_sin = best_reading(w, DIAG_PI / 2, phi, n, positions, d->storage);
        d->cache_cos = !(as_sin.chi < r.chi);
        if (d->cache_cos) /* again, for its frequencies and phases */
            r = best_reading(w, 0.0, phi, n, positions, d->storage);
        else
            r = as_sin;
        for (uint32_t i = 0; i < w->h; i++) w->src[w->col_sin[i]] = w->src[w->col_cos[i]] = d->cache_cos ? w->h + i : i;
    }
    d->offset_searched = r.searched;
    double whole = diag_round_int(r.p), off = r.p - whole;
    if (off < 0) off = -off;
    d->offset_known = n > 0 && r.chi < CONSISTENT && r.u < 0.3 && off < (3.0 * r.u > 0.05 ? 3.0 * r.u : 0.05);
    d->offset = d->offset_known ? whole : (n > 0 ? r.p : 0.0);
    if (d->offset < 0.0) d->offset = 0.0;
    d->offset_sd = r.u < 1e300 ? r.u : 0.0;
    for (uint32_t k = 0; k < w->h; k++) w->phase0[k] = phi[k];
    if (cache) cache_amplitude(w, d);
}
