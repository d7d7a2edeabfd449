/* Frequencies from the cells. A sine-cosine pair gives its angle directly
 * (atan2), unwrapped down the rows and fitted by a least-squares line: slope
 * w, intercept the phase at the first row. The first position then follows
 * from the phases, lowest frequency first, each higher one picking its 2 pi
 * branch from the estimate so far (so offsets below 2 pi / w_min, 62832 for
 * base 10000, are read exactly). A cache column (cos or sin alone) is read
 * from position 0: a first guess from acos or asin where the branch is known,
 * then Gauss-Newton on w over ever longer spans. */
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

/* atan of |t| <= 1 in two reductions: above tan(pi/8), pi/4 + atan((a - 1)/(a + 1));
 * then above tan(pi/16), pi/8 + atan((a - tan(pi/8))/(1 + a tan(pi/8)));
 * |a| <= tan(pi/16) < 0.2 is left, and the series to a^25 (first omitted
 * term below 1e-19). About 1 ulp. */
static double atan_small(double t) {
    const double tan_pi_8 = 0.41421356237309503, tan_pi_16 = 0.19891236737965800;
    double a = t < 0 ? -t : t, offset = 0.0;
    if (a > tan_pi_8) {
        a = (a - 1.0) / (a + 1.0);
        offset = DIAG_PI / 4;
    }
    if (a > tan_pi_16) {
        a = (a - tan_pi_8) / (1.0 + a * tan_pi_8);
        offset += DIAG_PI / 8;
    } else if (a < -tan_pi_16) {
        a = (a + tan_pi_8) / (1.0 - a * tan_pi_8);
        offset -= DIAG_PI / 8;
    }
    double z = a * a, sum = 0.0;
    for (int n = 25; n >= 3; n -= 2) sum = (n % 4 == 1 ? 1.0 : -1.0) / n + z * sum;
    double r = offset + (a + a * z * sum);
    return t < 0 ? -r : r;
}

double diag_atan2(double y, double x) {
    if (x == 0.0 && y == 0.0) return 0.0;
    double ay = y < 0 ? -y : y, ax = x < 0 ? -x : x;
    if (ay <= ax) {
        double a = atan_small(y / x);
        return x > 0 ? a : (y >= 0 ? a + DIAG_PI : a - DIAG_PI);
    }
    return (y > 0 ? DIAG_PI / 2 : -DIAG_PI / 2) - atan_small(x / y);
}

/* x wrapped into (-pi, pi]. */
static double wrap(double x) {
    double k = x / (2 * DIAG_PI);
    k = (k + PE_ROUND_MAGIC) - PE_ROUND_MAGIC; /* nearest integer */
    return x - k * 2 * DIAG_PI;
}

static double round_int(double x) {
    return (x + PE_ROUND_MAGIC) - PE_ROUND_MAGIC;
}

/* Least squares y = a + b x over n points: b, a and the sd of b. */
static void line_fit(const double *x, const double *y, uint32_t n, double *slope, double *intercept, double *sd) {
    double mx = 0.0, my = 0.0;
    for (uint32_t k = 0; k < n; k++) mx += x[k], my += y[k];
    mx /= n, my /= n;
    double sxx = 0.0, sxy = 0.0;
    for (uint32_t k = 0; k < n; k++) sxx += (x[k] - mx) * (x[k] - mx), sxy += (x[k] - mx) * (y[k] - my);
    double b = sxx > 0.0 ? sxy / sxx : 0.0, a = my - b * mx, rss = 0.0;
    for (uint32_t k = 0; k < n; k++) rss += (y[k] - a - b * x[k]) * (y[k] - a - b * x[k]);
    double s2 = n > 2 ? rss / (n - 2) : 0.0;
    if (s2 < 1e-16) s2 = 1e-16; /* float32 cells: never better than about 1e-8 rad */
    *slope = b;
    *intercept = a;
    *sd = sxx > 0.0 ? diag_sqrt(s2 / sxx) : 1.0;
}

static double pair_angle(const diag_work *w, uint32_t r, uint32_t i) {
    return diag_atan2(diag_at(&w->v, r, w->col_sin[i]), diag_at(&w->v, r, w->col_cos[i]));
}

/* Pair i: the unwrapped phase line over the rows, x = r - first_row. */
static void fit_pair(diag_work *w, uint32_t i, double *amplitude2, uint32_t *amplitude_count) {
    const uint32_t first = w->first_row, rows = w->v.rows, span = rows - first;
    double w_est = 0.0;
    for (uint32_t r = first; r + 1 < rows; r++) {
        if (w->zero[r] || w->zero[r + 1]) continue;
        w_est = wrap(pair_angle(w, r + 1, i) - pair_angle(w, r, i));
        break;
    }
    double aw = w_est < 0 ? -w_est : w_est;
    uint32_t cover = (span + DIAG_FIT_SAMPLES / 4 - 1) / (DIAG_FIT_SAMPLES / 4);
    uint32_t step = aw > 0.0 && 0.5 / aw < cover ? (uint32_t)(0.5 / aw) : cover;
    if (step < 1) step = 1;
    /* Stage 1: consecutive samples close enough to unwrap one after another. */
    uint32_t n = 0;
    double last = 0.0, unwrapped = 0.0;
    for (uint32_t r = first; r < rows && n < DIAG_FIT_SAMPLES / 4; r += step) {
        if (w->zero[r]) continue;
        double raw = pair_angle(w, r, i);
        unwrapped = n == 0 ? raw : unwrapped + wrap(raw - last);
        last = raw;
        w->fx[n] = r - first;
        w->fy[n] = unwrapped;
        double s = diag_at(&w->v, r, w->col_sin[i]), c = diag_at(&w->v, r, w->col_cos[i]);
        *amplitude2 += s * s + c * c;
        (*amplitude_count)++;
        n++;
    }
    double slope, intercept, sd;
    line_fit(w->fx, w->fy, n, &slope, &intercept, &sd);
    /* Stage 2: samples across the whole span, unwrapped against the line so far. */
    if (n > 1 && w->fx[n - 1] + 1 < span) {
        uint32_t m = DIAG_FIT_SAMPLES / 2;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t x = (uint32_t)(((uint64_t)k * (span - 1)) / (m - 1));
            if (w->zero[first + x]) continue;
            double predicted = intercept + slope * x;
            w->fx[n] = x;
            w->fy[n] = predicted + wrap(pair_angle(w, first + x, i) - predicted);
            n++;
        }
        line_fit(w->fx, w->fy, n, &slope, &intercept, &sd);
    }
    w->w[i] = slope;
    w->phase0[i] = intercept;
    w->sigma[i] = sd;
}

/* The first position from the phases, lowest frequency first. */
static void fit_offset(diag_work *w, pe_diagnosis *d) {
    double p = 0.0;
    int started = 0;
    for (uint32_t k = w->h; k-- > 0;) {
        double wi = w->w[k];
        if (!(wi > 1e-9 && wi < 3.0)) continue;
        if (!started) {
            double phase = wrap(w->phase0[k] - (DIAG_PI - 0.5)) + (DIAG_PI - 0.5); /* in (-0.5, 2 pi - 0.5] */
            p = phase / wi;
            started = 1;
            continue;
        }
        double turns = round_int((p * wi - w->phase0[k]) / (2 * DIAG_PI));
        p = (w->phase0[k] + turns * 2 * DIAG_PI) / wi;
    }
    double whole = round_int(p);
    d->offset_known = started && (p - whole < 0.01 && whole - p < 0.01);
    d->offset = d->offset_known ? whole : p;
}

void diag_fit_pairs(diag_work *w, pe_diagnosis *d) {
    double amplitude2 = 0.0, direction = 0.0;
    uint32_t count = 0;
    for (uint32_t i = 0; i < w->h; i++) {
        fit_pair(w, i, &amplitude2, &count);
        direction += w->w[i];
    }
    /* Angles that run backwards: the columns are (cos, sin), atan2 reads pi/2 - angle. */
    d->cos_first = direction < 0.0;
    for (uint32_t i = 0; i < w->h; i++) {
        if (d->cos_first) {
            uint32_t t = w->col_sin[i];
            w->col_sin[i] = w->col_cos[i];
            w->col_cos[i] = t;
            w->w[i] = -w->w[i];
            w->phase0[i] = DIAG_PI / 2 - w->phase0[i];
        }
        w->src[w->col_sin[i]] = i;
        w->src[w->col_cos[i]] = w->h + i;
    }
    d->scale = count ? diag_sqrt(amplitude2 / count) : 0.0;
    fit_offset(w, d);
}

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

void diag_fit_cache(diag_work *w, pe_diagnosis *d) {
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
    }
    d->scale = A;
}
