/* log_scan: the float32 log T5's buckets take (src/core/relative/log_f32.c)
 * against a more precise oracle on EVERY float32 in [1, 2^31], the range of
 * every argument a bucket can see (float(n) / max_exact for distances n below
 * 2^31). The oracle: glibc's double log rounded to float32, unless that
 * double lies within 2^-40 (relative) of a midpoint between two floats; then
 * quad precision (logq, 113 bits) decides. Prints one summary line; exit 1
 * on any difference. Not part of the library: libm and libquadmath are fine
 * here.
 *
 *   log_scan        the scan
 *   log_scan at     float32 x on stdin -> float32 log(x) on stdout, each
 *                   rounded once from quad precision (the JS reference's oracle
 *                   for the arguments double precision cannot decide) */
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "relative/relative_kernels.h"

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Distance from d to the nearest midpoint between r and its neighbours, relative to d. */
static double midpoint_distance(double d, float r) {
    double up = ((double)r + (double)nextafterf(r, INFINITY)) / 2,
           down = ((double)r + (double)nextafterf(r, -INFINITY)) / 2;
    return fmin(fabs(d - up), fabs(d - down)) / fabs(d);
}

static int quad_logs(void) {
    float x;
    while (fread(&x, sizeof x, 1, stdin) == 1) {
        float y = (float)logq((__float128)x);
        if (fwrite(&y, sizeof y, 1, stdout) != 1) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "at") == 0) return quad_logs();
    const uint32_t first = bits_of(1.0f), last = bits_of(2147483648.0f);
    unsigned long differ = 0, decided_in_quad = 0;
    for (uint32_t u = first; u <= last; u++) {
        const float x = float_of(u);
        const double d = log((double)x);
        float want = (float)d;
        if (d != 0.0 && midpoint_distance(d, want) < 0x1p-40) {
            want = (float)logq((__float128)x);
            decided_in_quad++;
        }
        const float got = pe_relative_log_f32(x);
        if (bits_of(got) != bits_of(want)) {
            if (differ < 10) printf("log(%a): %a, correctly rounded %a\n", x, got, want);
            differ++;
        }
    }
    printf("log_f32 on all %lu floats in [1, 2^31]: %lu differ from the correctly rounded log (%lu decided in quad "
           "precision)\n",
           (unsigned long)(last - first + 1), differ, decided_in_quad);
    return differ == 0 ? 0 : 1;
}
