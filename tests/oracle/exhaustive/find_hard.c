/* find_hard: the values of a sinusoidal table nearest to a rounding midpoint
 * of float32, float16 and bfloat16, in quad precision: the screened hard cases
 * of tests/sinusoid-rounding.test.js come from runs of this search.
 *
 * Usage: find_hard DIM BASE FROM TO KEEP
 *   scans positions FROM .. TO-1 (paper frequencies BASE^(-2i/DIM)); prints the
 *   KEEP values per format whose exact value lies nearest to a midpoint, as
 *   `FORMAT DIM BASE POSITION PAIR sin|cos DISTANCE_IN_STEPS`. */
#include <math.h>
#include <quadmath.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int t, emin;
    const char *name;
} fmt;
static const fmt FMTS[3] = {{23, -126, "float32"}, {10, -14, "float16"}, {7, -126, "bfloat16"}};

typedef struct {
    double dist;
    unsigned p, i;
    int cos;
} hit;

/* Distance from x to the nearest midpoint of the format, in steps of its grid. */
static __float128 distance_in_steps(__float128 x, fmt f) {
    int e;
    frexpq(x, &e);
    e -= 1;
    if (e < f.emin) e = f.emin;
    __float128 n = fabsq(x) / ldexpq(1.0Q, e - f.t);
    return fabsq(n - floorq(n) - 0.5Q);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: find_hard DIM BASE FROM TO KEEP\n");
        return 2;
    }
    const unsigned dim = (unsigned)atoi(argv[1]), from = (unsigned)strtoul(argv[3], 0, 10);
    const unsigned to = (unsigned)strtoul(argv[4], 0, 10), keep = (unsigned)atoi(argv[5]);
    const double base = atof(argv[2]);
    hit *best[3];
    for (int k = 0; k < 3; k++) {
        best[k] = malloc(sizeof(hit) * keep);
        for (unsigned n = 0; n < keep; n++) best[k][n].dist = 1;
    }
    for (unsigned i = 0; i < dim / 2; i++) {
        const __float128 w = powq((__float128)base, -(__float128)(2 * i) / dim);
        for (unsigned p = from; p < to; p++) {
            const __float128 angle = (__float128)p * w;
            const double a = (double)angle, d = (double)(angle - a), sa = sin(a), ca = cos(a);
            for (int c = 0; c < 2; c++) {
                const double v = c ? ca - sa * d : sa + ca * d; /* within 2^-44: a screen */
                for (int k = 0; k < 3; k++) {
                    const fmt f = FMTS[k];
                    if ((double)distance_in_steps(v, f) > best[k][keep - 1].dist + 1e-3 &&
                        (double)distance_in_steps(v, f) > 1e-3)
                        continue;
                    __float128 s, co;
                    sincosq(angle, &s, &co);
                    const double dist = (double)distance_in_steps(c ? co : s, f);
                    if (dist >= best[k][keep - 1].dist) continue;
                    unsigned n = keep - 1;
                    while (n > 0 && best[k][n - 1].dist > dist) best[k][n] = best[k][n - 1], n--;
                    best[k][n] = (hit){dist, p, i, c};
                }
            }
        }
    }
    for (int k = 0; k < 3; k++)
        for (unsigned n = 0; n < keep; n++)
            if (best[k][n].dist < 1)
                printf("%s %u %g %u %u %s %.3e\n", FMTS[k].name, dim, base, best[k][n].p, best[k][n].i,
                       best[k][n].cos ? "cos" : "sin", best[k][n].dist);
    return 0;
}
