/* Frequencies and phases from the cells. A sine-cosine pair gives its angle
 * directly (atan2); a cache column (cos or sin alone) gives it in quadrature:
 * with a stride s, v(x - s) - v(x + s) = 2 A sin(w s) sin(theta(x)) beside
 * v(x) = A cos(theta(x)), so atan2 of the two is the angle (of a cos; a sin
 * column's is the angle - pi/2, which the offset search settles). The angles
 * are unwrapped down the rows and fitted by a least-squares line: slope w,
 * and the line's mean point (mean row, mean angle), from which the phase at
 * the first row follows for whichever frequency the rule settles on
 * (diag_offset.c). Nothing here assumes a first position. */
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

/* x wrapped into [-pi, pi]. */
double diag_wrap(double x) {
    double k = x / (2 * DIAG_PI);
    k = (k + PE_ROUND_MAGIC) - PE_ROUND_MAGIC; /* nearest integer */
    return x - k * 2 * DIAG_PI;
}

typedef struct line_stats {
    double slope, sd, mx, my, s2;
} line_stats;

/* Least squares y = a + b x over n points: slope, its sd, the mean point and the residual variance. */
static line_stats line_fit(const double *x, const double *y, uint32_t n) {
    line_stats l = {0.0, 1.0, 0.0, 0.0, 0.0};
    if (n == 0) return l;
    double mx = 0.0, my = 0.0;
    for (uint32_t k = 0; k < n; k++) mx += x[k], my += y[k];
    mx /= n, my /= n;
    double sxx = 0.0, sxy = 0.0;
    for (uint32_t k = 0; k < n; k++) sxx += (x[k] - mx) * (x[k] - mx), sxy += (x[k] - mx) * (y[k] - my);
    double b = sxx > 0.0 ? sxy / sxx : 0.0, rss = 0.0;
    for (uint32_t k = 0; k < n; k++) rss += (y[k] - my - b * (x[k] - mx)) * (y[k] - my - b * (x[k] - mx));
    double s2 = n > 2 ? rss / (n - 2) : 0.0;
    if (s2 < 1e-16) s2 = 1e-16; /* float32 cells: never better than about 1e-8 rad */
    l.slope = b;
    l.mx = mx, l.my = my, l.s2 = s2;
    l.sd = sxx > 0.0 ? diag_sqrt(s2 / sxx) : 1.0;
    return l;
}

/* The angle of series i at row r: a pair's atan2, or a cache column's quadrature reading with its stride at
 * frequency wq (rows r - s and r + s must exist). */
static double angle_at(const diag_work *w, uint32_t i, uint32_t r, double wq) {
    const uint32_t s = w->stride[i];
    if (s == 0) return diag_atan2(diag_at(&w->v, r, w->col_sin[i]), diag_at(&w->v, r, w->col_cos[i]));
    double sn, cs;
    pe_sincos(wq * s, &sn, &cs);
    const uint32_t c = w->col_sin[i];
    double q = (diag_at(&w->v, r - s, c) - diag_at(&w->v, r + s, c)) / (2.0 * sn);
    return diag_atan2(q, diag_at(&w->v, r, c));
}

/* Rows [lo, hi) where series i can be read: a cache column needs its stride on both sides. */
static void readable(const diag_work *w, uint32_t i, uint32_t *lo, uint32_t *hi) {
    *lo = w->first_row + w->stride[i];
    *hi = w->v.rows - w->stride[i];
}

/* Series i: the unwrapped angle line over its rows, x = r - first_row; wq the frequency of a quadrature reading. */
static void fit_series(diag_work *w, uint32_t i, double wq) {
    uint32_t lo, hi;
    readable(w, i, &lo, &hi);
    const uint32_t first = w->first_row, span = hi > lo ? hi - lo : 0;
    w->w[i] = 0.0, w->sigma[i] = 1.0, w->mx[i] = 0.0, w->my[i] = 0.0, w->psd[i] = 10.0;
    if (span == 0) return;
    double w_est = 0.0;
    for (uint32_t r = lo; r + 1 < hi; r++) {
        if (w->zero[r] || w->zero[r + 1]) continue;
        w_est = diag_wrap(angle_at(w, i, r + 1, wq) - angle_at(w, i, r, wq));
        break;
    }
    double aw = w_est < 0 ? -w_est : w_est;
    uint32_t cover = (span + DIAG_FIT_SAMPLES / 4 - 1) / (DIAG_FIT_SAMPLES / 4);
    uint32_t step = aw > 0.0 && 0.5 / aw < cover ? (uint32_t)(0.5 / aw) : cover;
    if (step < 1) step = 1;
    /* Stage 1: consecutive samples close enough to unwrap one after another. */
    uint32_t n = 0;
    double last = 0.0, unwrapped = 0.0;
    for (uint32_t r = lo; r < hi && n < DIAG_FIT_SAMPLES / 4; r += step) {
        if (w->zero[r]) continue;
        double raw = angle_at(w, i, r, wq);
        unwrapped = n == 0 ? raw : unwrapped + diag_wrap(raw - last);
        last = raw;
        w->fx[n] = r - first;
        w->fy[n] = unwrapped;
        n++;
    }
    line_stats l = line_fit(w->fx, w->fy, n);
    /* Stage 2: samples across the whole span, unwrapped against the line so far. */
    if (n > 1 && w->fx[n - 1] + 1 < (hi - 1) - first) {
        const uint32_t m = DIAG_FIT_SAMPLES / 2;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t r = lo + (uint32_t)(((uint64_t)k * (span - 1)) / (m - 1));
            if (w->zero[r]) continue;
            double x = r - first, predicted = l.my + l.slope * (x - l.mx);
            w->fx[n] = x;
            w->fy[n] = predicted + diag_wrap(angle_at(w, i, r, wq) - predicted);
            n++;
        }
        l = line_fit(w->fx, w->fy, n);
    }
    w->w[i] = l.slope;
    w->sigma[i] = l.sd;
    w->mx[i] = l.mx;
    w->my[i] = l.my;
    /* a phase read at the mean row: the residual spread over the points, plus its floor */
    w->psd[i] = diag_sqrt(l.s2 / n + 1e-16);
    if (l.s2 > 0.1) w->psd[i] = 10.0; /* not a line: no phase (float32 angles of huge arguments) */
}

void diag_fit_pairs(diag_work *w, pe_diagnosis *d) {
    double amplitude2 = 0.0, direction = 0.0;
    uint32_t count = 0;
    const uint32_t step = (w->v.rows - w->first_row) / 256 + 1;
    for (uint32_t i = 0; i < w->h; i++) {
        w->stride[i] = 0;
        fit_series(w, i, 0.0);
        direction += w->w[i];
        for (uint32_t r = w->first_row; r < w->v.rows; r += step) {
            if (w->zero[r]) continue;
            double s = diag_at(&w->v, r, w->col_sin[i]), c = diag_at(&w->v, r, w->col_cos[i]);
            amplitude2 += s * s + c * c;
            count++;
        }
    }
    /* Angles that run backwards: the columns are (cos, sin), atan2 reads pi/2 - angle. */
    d->cos_first = direction < 0.0;
    for (uint32_t i = 0; i < w->h; i++) {
        if (d->cos_first) {
            uint32_t t = w->col_sin[i];
            w->col_sin[i] = w->col_cos[i];
            w->col_cos[i] = t;
            w->w[i] = -w->w[i];
            w->my[i] = DIAG_PI / 2 - w->my[i];
        }
        w->src[w->col_sin[i]] = i;
        w->src[w->col_cos[i]] = w->h + i;
    }
    d->scale = count ? diag_sqrt(amplitude2 / count) : 0.0;
}

/* cos(w s) of a cache column from the recurrence v(x - s) + v(x + s) = 2 cos(w s) v(x), least squares over
 * up to DIAG_FIT_SAMPLES rows. */
static double recurrence_cos(const diag_work *w, uint32_t c, uint32_t s) {
    const uint32_t first = w->first_row, rows = w->v.rows;
    if (first + 2 * s >= rows) return 1.0;
    const uint32_t n = rows - first - 2 * s, m = n < DIAG_FIT_SAMPLES ? n : DIAG_FIT_SAMPLES;
    double tu = 0.0, uu = 0.0;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t r = first + s + (m > 1 ? (uint32_t)(((uint64_t)k * (n - 1)) / (m - 1)) : 0);
        double u = diag_at(&w->v, r, c), t = diag_at(&w->v, r - s, c) + diag_at(&w->v, r + s, c);
        tu += t * u, uu += u * u;
    }
    double x = uu > 0.0 ? tu / (2.0 * uu) : 1.0;
    return x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x;
}

/* A stride for frequency wv: a quarter turn where the rows allow, at least 1. */
static uint32_t stride_for(const diag_work *w, double wv) {
    const uint32_t n = w->v.rows - w->first_row, most = n >= 3 ? (n - 1) / 2 : 1;
    double s = wv > 0.0 ? 1.2 / wv : (double)most;
    if (s > most) s = most;
    return s < 1.0 ? 1u : (uint32_t)s;
}

void diag_fit_cache(diag_work *w, pe_diagnosis *d) {
    /* A sin cache from position 0 starts with sin(0) = 0: its first row reads as a zero row, but is data. */
    if (d->leading_zero_rows > 0) {
        d->leading_zero_rows--;
        d->zero_rows--;
        w->first_row = d->leading_zero_rows;
        w->zero[w->first_row] = 0;
    }
    double amplitude = 0.0;
    uint32_t count = 0;
    for (uint32_t i = 0; i < w->h; i++) {
        const uint32_t c = w->col_sin[i];
        /* the frequency from the recurrence at ever longer strides, while the column turns little per stride */
        uint32_t s = 1;
        double wv = 0.0;
        for (int round = 0; round < 6; round++) {
            double cs = recurrence_cos(w, c, s), sn = diag_sqrt(1.0 - cs * cs);
            wv = diag_atan2(sn, cs) / s;
            /* a reading near 0 is uncertain by about sqrt(1e-7) rad per stride: aim past it */
            double floor = 3e-4 / s, next = stride_for(w, wv > floor ? wv : floor);
            if (next <= s) break;
            s = (uint32_t)next;
        }
        w->stride[i] = stride_for(w, wv);
        fit_series(w, i, wv > 0.0 ? wv : 1e-9);
        if (w->w[i] < 0.0) w->w[i] = -w->w[i];
        /* a second reading at the fitted frequency (the quadrature is exact only at the true one) */
        for (int again = 0; again < 2 && w->w[i] > 0.0; again++) {
            w->stride[i] = stride_for(w, w->w[i]);
            fit_series(w, i, w->w[i]);
            if (w->w[i] < 0.0) w->w[i] = -w->w[i];
        }
        /* a quadrature reading at a wrong frequency bends the angles: a column turning less than a full turn
         * over its rows cannot fix its own frequency (the rule extrapolates it from the others) */
        if (w->w[i] * (w->v.rows - w->first_row) < 2 * DIAG_PI && w->sigma[i] < w->w[i]) w->sigma[i] = w->w[i];
        for (uint32_t r = w->first_row; r < w->v.rows && r < w->first_row + 64; r++) {
            double v = diag_at(&w->v, r, c);
            amplitude = v > amplitude ? v : -v > amplitude ? -v : amplitude;
        }
        count++;
    }
    d->scale = amplitude; /* refined by diag_fit_offset */
    d->offset = 0.0;
    d->offset_known = 0;
}

/* The mean angle of cache column i at frequency wq, read where the line was: my at mx. */
static void cache_phase(diag_work *w, uint32_t i, double wq) {
    uint32_t lo, hi;
    w->stride[i] = stride_for(w, wq);
    readable(w, i, &lo, &hi);
    w->psd[i] = 10.0;
    if (hi <= lo) return;
    const uint32_t first = w->first_row, n = hi - lo, m = n < DIAG_FIT_SAMPLES ? n : DIAG_FIT_SAMPLES;
    double ref = 0.0, sum = 0.0, sum2 = 0.0, sx = 0.0;
    uint32_t used = 0;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t r = lo + (m > 1 ? (uint32_t)(((uint64_t)k * (n - 1)) / (m - 1)) : 0);
        if (w->zero[r]) continue;
        double x = r - first, e = angle_at(w, i, r, wq) - wq * x;
        if (used == 0) ref = e;
        e = diag_wrap(e - ref);
        sum += e, sum2 += e * e, sx += x;
        used++;
    }
    if (!used) return;
    double mean = sum / used, var = sum2 / used - mean * mean;
    w->mx[i] = sx / used;
    w->my[i] = ref + mean + wq * w->mx[i];
    w->psd[i] = diag_sqrt((var > 0.0 ? var : 0.0) / used + 1e-16);
    /* the quadrature divides differences of cells by 2 sin(w s): their rounding (float32: 6e-8 of the amplitude),
     * over about n / 2s independent readings, is a floor the scatter may not show */
    double sn, cs, independent = (double)n / (2.0 * w->stride[i]);
    pe_sincos(wq * w->stride[i], &sn, &cs);
    double floor = 6e-8 / (sn > 1e-9 ? sn : 1e-9) / diag_sqrt(independent > 1.0 ? independent : 1.0);
    if (w->psd[i] < floor) w->psd[i] = floor;
    if (var > 0.1) w->psd[i] = 10.0;
}

void diag_cache_phases(diag_work *w) {
    for (uint32_t i = 0; i < w->h; i++)
        if (w->model_w[i] > 0.0) cache_phase(w, i, w->model_w[i]);
}
