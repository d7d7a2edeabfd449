/* A cos or sin cache read as starting at position 0 (the reading before
 * diag_offset.c, kept as a second try): a first guess of each column's
 * frequency from acos or asin where the branch is known, then Gauss-Newton
 * on w over ever longer spans. pe_diagnose uses it when the reading at any
 * first position identifies nothing, so a cache of few rows from position 0
 * is read as well as before. */
#include "diag_internal.h"
#include "math/sincos.h"

/* One column of a cache from position 0: A cos(w x) or A sin(w x). Refines
 * w (and A when fit_amplitude) by Gauss-Newton over ever longer spans. */
static double fit_cache_column(diag_work *w, uint32_t col, int is_cos, double *amplitude, int fit_amplitude,
                               double *sd) {
    const uint32_t first = w->first_row, n = w->v.rows - first;
    double A = *amplitude;
    const double limit = is_cos ? DIAG_PI : DIAG_PI / 2;
    /* First guess: the inverse function on a span still inside its branch. */
    double guess = 0.0;
    for (uint32_t x = 1; x < n; x *= 2) {
        double u = diag_at(&w->v, first + x, col) / A;
        if (u > 1.0) u = 1.0;
        if (u < -1.0) u = -1.0;
        double root = diag_sqrt(1.0 - u * u);
        double angle = is_cos ? diag_atan2(root, u) : diag_atan2(u, root);
        guess = angle / x;
        if (angle > limit / 2.2 || angle < 0.0) break;
    }
    double wv = guess;
    uint32_t span = 16;
    if (wv > 0.0 && 4.0 / wv > span) span = 4.0 / wv < n ? (uint32_t)(4.0 / wv) : n; /* past n reads nothing more */
    double rss = 0.0, jj = 0.0;
    for (int stage = 0; stage < 12; stage++) {
        uint32_t end = span < n - 1 ? span : n - 1;
        uint32_t m = end + 1 < DIAG_FIT_SAMPLES ? end + 1 : DIAG_FIT_SAMPLES;
        for (int iter = 0; iter < 2; iter++) {
            double ej = 0.0, vf = 0.0, ff = 0.0;
            jj = 0.0;
            rss = 0.0;
            for (uint32_t k = 0; k < m; k++) {
                uint32_t x = m > 1 ? (uint32_t)(((uint64_t)k * end) / (m - 1)) : 0;
                double s, c, v = diag_at(&w->v, first + x, col);
                pe_sincos(wv * x, &s, &c);
                double f = is_cos ? c : s, df = is_cos ? -(double)x * s : (double)x * c;
                double e = v - A * f;
                ej += e * A * df;
                jj += A * df * A * df;
                vf += v * f;
                ff += f * f;
                rss += e * e;
            }
            /* a step is taken only when finite: cells near float32's limits can overflow the sums */
            const double step = jj > 0.0 ? ej / jj : 0.0, fitted = ff > 0.0 ? vf / ff : 0.0;
            if (diag_finite(wv + step)) wv += step;
            if (fit_amplitude && fitted != 0.0 && diag_finite(fitted)) A = fitted;
            if (wv < 0.0) wv = -wv;
        }
        if (end == n - 1) break;
        span = span < n / 8 ? span * 8 : n;
    }
    *amplitude = A;
    *sd = jj > 0.0 ? diag_sqrt((rss / (n > 2 ? n : 2)) / jj) : 1.0;
    return wv;
}

void diag_fit_cache_from0(diag_work *w, pe_diagnosis *d) {
    /* A sin cache starts with sin(0) = 0: its first row reads as a zero row. */
    int is_cos = d->leading_zero_rows == 0;
    if (!is_cos) {
        d->leading_zero_rows--;
        d->zero_rows--;
        w->first_row = d->leading_zero_rows;
        w->zero[w->first_row] = 0;
    }
    d->cache_cos = is_cos;
    double A = 0.0;
    if (is_cos) {
        for (uint32_t i = 0; i < w->h; i++) A += diag_at(&w->v, w->first_row, w->col_sin[i]);
        A /= w->h;
    } else {
        for (uint32_t r = w->first_row; r < w->v.rows && r < w->first_row + 64; r++) {
            double v = diag_at(&w->v, r, w->col_sin[0]);
            if (v > A) A = v;
            if (-v > A) A = -v;
        }
    }
    d->offset = 0.0;
    d->offset_known = A > 0.0;
    for (uint32_t i = 0; i < w->h && A > 0.0; i++) {
        /* a cos cache's first row is A rounded to the storage: float16 and bfloat16 leave A to be fitted too */
        w->w[i] = fit_cache_column(w, w->col_sin[i], is_cos, &A, (!is_cos || d->storage != PE_DTYPE_FLOAT32) && i == 0,
                                   &w->sigma[i]);
        w->phase0[i] = is_cos ? DIAG_PI / 2 : 0.0;
        w->src[w->col_sin[i]] = w->src[w->col_cos[i]] = is_cos ? w->h + i : i;
        w->psd[i] = 0.0, w->mx[i] = w->my[i] = 0.0, w->stride[i] = 0;
    }
    d->scale = A;
}

/* Sum of squares of column col against A f(wv (p0 + x)), f cos or sin, over m rows spread over the column. */
static double column_rss(const diag_work *w, uint32_t col, int is_cos, double A, double p0, double wv, uint32_t m) {
    const uint32_t first = w->first_row, n = w->v.rows - first;
    double rss = 0.0;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t x = m > 1 ? (uint32_t)(((uint64_t)k * (n - 1)) / (m - 1)) : 0;
        if (w->zero[first + x]) continue;
        double s, c;
        pe_sincos(wv * (p0 + x), &s, &c);
        double e = diag_at(&w->v, first + x, col) - A * (is_cos ? c : s);
        rss += e * e;
    }
    return rss;
}

/* Gauss-Newton on wv alone (p0 and A known) over m rows; *sd from the curvature and the residual spread. */
static double refine_column(const diag_work *w, uint32_t col, int is_cos, double A, double p0, double wv, uint32_t m,
                            double *sd) {
    const uint32_t first = w->first_row, n = w->v.rows - first;
    double jj = 0.0, rss = 0.0;
    for (int iter = 0; iter < 4; iter++) {
        double ej = 0.0;
        jj = 0.0, rss = 0.0;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t x = m > 1 ? (uint32_t)(((uint64_t)k * (n - 1)) / (m - 1)) : 0;
            if (w->zero[first + x]) continue;
            double s, c, t = p0 + x;
            pe_sincos(wv * t, &s, &c);
            double f = is_cos ? c : s, df = A * (is_cos ? -t * s : t * c), e = diag_at(&w->v, first + x, col) - A * f;
            ej += e * df, jj += df * df, rss += e * e;
        }
        if (!(jj > 0.0) || !diag_finite(wv + ej / jj)) break;
        wv += ej / jj;
    }
    /* cells rounded to float32 at least: a floor of 3e-8 A per cell */
    double s2 = rss / (m > 2 ? m - 1 : 1), floor = 9e-16 * A * A;
    *sd = jj > 0.0 ? diag_sqrt((s2 > floor ? s2 : floor) / jj) : wv;
    return wv;
}

int diag_refit_loose(diag_work *w, pe_diagnosis *d) {
    const uint32_t n = w->v.rows - w->first_row;
    uint32_t loose = 0;
    double slowest_tight = 0.0;
    for (uint32_t k = 0; k < w->h; k++) {
        if (diag_loose(w, k))
            loose++;
        else if (slowest_tight == 0.0 || w->w[k] < slowest_tight)
            slowest_tight = w->w[k];
    }
    if (loose == 0 || loose == w->h || n < 8) return 0;
    diag_fit_offset(w, d, 1);
    if (!d->offset_known) return 0;
    /* the amplitude from the determined columns alone (the offset's fit took in the loose ones at the rule's
     * frequencies) */
    double vm = 0.0, mm = 0.0;
    for (uint32_t x = 0; x<n; x += n> 64 ? n / 64 : 1) {
        double p = d->offset + x;
        for (uint32_t k = 0; k < w->h && !w->zero[w->first_row + x]; k++) {
            if (diag_loose(w, k) || !(w->freq[k] > 0.0) || (p + 1.0) * w->freq_sd[k] > 1e-4) continue;
            double s, c;
            pe_sincos(p * w->freq[k], &s, &c);
            double m = d->cache_cos ? c : s;
            vm += diag_at(&w->v, w->first_row + x, w->col_sin[k]) * m, mm += m * m;
        }
    }
    if (!(mm > 0.0 && vm > 0.0)) return 0;
    d->scale = vm / mm;
    const double p0 = d->offset, A = d->scale, spacing = 2.0 * DIAG_PI / (p0 + n);
    const uint32_t coarse = n < 64 ? n : 64, fine = n < DIAG_FIT_SAMPLES ? n : DIAG_FIT_SAMPLES;
    const int is_cos = d->cache_cos;
    for (uint32_t k = 0; k < w->h; k++) {
        if (!diag_loose(w, k)) continue;
        /* every frequency from 0 to past the slowest determined one, in steps of an eighth of the spacing of
         * the frequencies that the first position leaves equally good (2 pi / p0): the best, refined */
        double top = 5.0 * (w->w[k] > 0.0 ? w->w[k] : slowest_tight);
        if (top > slowest_tight) top = slowest_tight;
        /* and a geometric grid down to 1e-9 of the top: a column that hardly turns (whose cells barely leave
         * 1 or 0) has its best frequency anywhere below the linear grid's first step */
        const double step = spacing / 8.0;
        const int linear = top / step <= 2048.0;
        const uint32_t steps = linear ? (uint32_t)(top / step) + 1 : 0;
        double best = 1e300, best_w = 0.0;
        for (uint32_t j = 0; j < steps + 240; j++) {
            double wv = j < steps ? (j + 1) * step : top * diag_exp(-0.0866 * (double)(j - steps)); /* 2^(-1/8) */
            double rss = column_rss(w, w->col_sin[k], is_cos, A, p0, wv, coarse);
            if (rss < best) best = rss, best_w = wv;
        }
        double sd;
        double wv = refine_column(w, w->col_sin[k], is_cos, A, p0, best_w, fine, &sd);
        if (!(wv > 0.0)) continue;
        /* a spacing of candidates the cells cannot tell apart leaves the frequency loose */
        w->w[k] = wv;
        w->sigma[k] = linear || top < spacing ? sd : wv;
    }
    return 1;
}
