/* The whole numbers n in a range whose angle n s falls in a window modulo
 * 2 pi, listed in about sqrt(range) steps: a denominator q of a good rational
 * approximation of s / 2 pi splits the range into q arithmetic progressions
 * whose angles drift slowly (by q s - 2 pi round(q s / 2 pi) per step), and
 * each progression's hits are where its drifting line crosses the window.
 * diag_far.c enumerates float32 positions so (column 0 at inv_freq 1), and
 * diag_far_longrope.c float32 angles or positions (column 0 at 1 / factor).
 * Both check cells and place their window the same way (below). */
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

#define MAX_Q 65536.0 /* denominators tried */

int diag_far_enumerate(double s, double lo, double hi, double c, double t, uint64_t *hits, uint64_t max_hits,
                       void (*visit)(void *ctx, double n), void *ctx) {
    const double beta = s / DIAG_TWO_PI, range = hi - lo, width = 2.0 * t / DIAG_TWO_PI;
    double q = 1.0, delta = 1.0;
    if (!(range > 0.0)) return 1;
    for (double k = 1.0; k <= MAX_Q; k += 1.0) {
        const double x = k * beta, e = x - diag_round_int(x);
        if ((e < 0 ? -e : e) * (range / k + 1.0) < 0.25) {
            q = k, delta = e;
            break;
        }
    }
    if (delta == 1.0) return 1; /* no such q (never for a range below 2^32) */
    for (double b = 0.0; b < q && b < range; b += 1.0) {
        const double n0 = lo + b, last = diag_floor((hi - 1.0 - n0) / q);
        const double turns = (n0 * s - (c - t)) / DIAG_TWO_PI, phi = turns - diag_floor(turns);
        const double end = phi + last * delta, top = end > phi ? end : phi, bottom = end > phi ? phi : end;
        for (double m = diag_floor(bottom); m <= top; m += 1.0) {
            if (delta == 0.0) break;
            double ja = (m - phi) / delta, jb = (m + width - phi) / delta;
            if (ja > jb) {
                const double x = ja;
                ja = jb, jb = x;
            }
            double j = diag_floor(ja);
            j = j < 0.0 ? 0.0 : j;
            for (; j <= jb + 1.0 && j <= last; j += 1.0) {
                if ((*hits)++ >= max_hits) return 0;
                visit(ctx, n0 + q * j);
            }
        }
    }
    return 1;
}

int diag_far_cell_fits(pe_dtype storage, int is_cos, double amp, double a, double angle) {
    double sn, cs;
    pe_sincos(angle, &sn, &cs);
    const double model = (is_cos ? cs : sn) * amp, e = a - model;
    return (e < 0 ? -e : e) <= diag_cache_cell_tol(storage, a, model, amp);
}

uint32_t diag_far_window(const diag_work *w, pe_dtype storage, int is_cos, double amp, const uint32_t *rows, uint32_t n,
                         double centre[2], double *tol) {
    uint32_t ref = 0;
    double best_tol = 1e300, best_a = 0.0;
    for (uint32_t i = 0; i < n; i++) { /* the steepest slope of acos or asin */
        double u = diag_at(&w->v, rows[i], w->col_sin[0]) / amp;
        u = u > 1.0 ? 1.0 : u < -1.0 ? -1.0 : u;
        /* the cell check's tolerance (diag_far_cell_fits) and the cell's own rounding, over the amplitude */
        const double v = u * amp, du = (diag_cache_cell_tol(storage, v, v, amp) + diag_ulp(storage, v)) / amp;
        const double root = diag_sqrt(1.0 - u * u), slope = root > diag_sqrt(2.0 * du) ? root : diag_sqrt(2.0 * du);
        if (du / slope < best_tol) {
            best_tol = du / slope, ref = i;
            best_a = is_cos ? diag_atan2(root, u) : diag_atan2(u, root);
        }
    }
    const double a = best_a < 0.0 ? best_a + DIAG_TWO_PI : best_a, b = is_cos ? DIAG_TWO_PI - a : DIAG_PI - a;
    centre[0] = a, centre[1] = b < 0.0 ? b + DIAG_TWO_PI : b;
    *tol = best_tol;
    return ref;
}

uint32_t diag_far_rows(const diag_work *w, uint32_t *rows, uint32_t max, uint32_t *r0) {
    uint32_t n = 0;
    *r0 = w->first_row;
    while (*r0 < w->v.rows && w->zero[*r0]) (*r0)++;
    for (uint32_t r = *r0; r < w->v.rows && n < max; r++)
        if (!w->zero[r]) rows[n++] = r;
    return n;
}

uint32_t diag_far_grids(const pe_diagnosis *d, double grids[DIAG_FAR_GRIDS]) {
    uint32_t n = 0;
    if (!d->position_grid)
        grids[n++] = 1.0;
    else
        for (double g = d->position_grid; g <= 128.0 && n < DIAG_FAR_GRIDS; g *= 2.0) {
            grids[n++] = g;
            if (d->position_grid_whole) break;
        }
    return n;
}
