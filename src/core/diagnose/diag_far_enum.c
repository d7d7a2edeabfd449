/* The whole numbers n in a range whose angle n s falls in a window modulo
 * 2 pi, listed in about sqrt(range) steps: a denominator q of a good rational
 * approximation of s / 2 pi splits the range into q arithmetic progressions
 * whose angles drift slowly (by q s - 2 pi round(q s / 2 pi) per step), and
 * each progression's hits are where its drifting line crosses the window.
 * diag_far.c enumerates float32 positions so (column 0 at inv_freq 1), and
 * diag_far_longrope.c float32 angles or positions (column 0 at 1 / factor). */
#include "diag_internal.h"

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
