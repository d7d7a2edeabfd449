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
        w->w[i] = fit_cache_column(w, w->col_sin[i], is_cos, &A, !is_cos && i == 0, &w->sigma[i]);
        w->phase0[i] = is_cos ? DIAG_PI / 2 : 0.0;
        w->src[w->col_sin[i]] = w->src[w->col_cos[i]] = is_cos ? w->h + i : i;
        w->psd[i] = 0.0, w->mx[i] = w->my[i] = 0.0, w->stride[i] = 0;
    }
    d->scale = A;
}
