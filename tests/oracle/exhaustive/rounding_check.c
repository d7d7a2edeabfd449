/* rounding_check: every value of a sinusoidal table from posenc (the native
 * library, SIMD kernels) against the exact value rounded once to float32,
 * float16 and bfloat16, computed independently of posenc: issue 26's
 * exhaustive check, run by hand (run.sh), not in CI.
 *
 * Reference per value: the frequency w_i = BASE^(-2i/DIM) (or tensor2tensor's
 * BASE^(-i/(DIM/2-1))) by powq, the angle p w_i in __float128, split into two
 * doubles a + d, and sin/cos(a + d) to second order in d with glibc's sin and
 * cos (full argument reduction): within about 2^-51. Screen: a value whose
 * screen estimate lies within 2^-46 of a midpoint of a format is recomputed by
 * sincosq (error about 2^-80 at p near 2^31) and rounded from quad; a quad
 * value within 2^-72 of a midpoint is printed as a line
 *     HARD dim base freq p i cos
 * for mpmath (settle_hard.py) to settle at 300 bits, with posenc's bits.
 *
 * Usage: rounding_check DIM BASE FREQ FROM TO [RUNS SEED]
 *   every position FROM .. TO-1, then RUNS random runs of 64 positions below
 *   2^31 (xorshift64 from SEED). FREQ: paper or tensor2tensor. Prints counts
 *   (PROGRESS lines as it goes, SUMMARY at the end). */
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

#define ROWS 2048u

static uint64_t rng;
static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Format: t fraction bits, smallest normal exponent emin. */
typedef struct {
    int t, emin;
} fmt;
static const fmt F32 = {23, -126}, F16 = {10, -14}, BF16 = {7, -126};

/* The step of the format's grid at |x| (exponent from frexp, subnormals flat). */
static double grid_step(double x, fmt f) {
    int e;
    frexp(x, &e); /* |x| in [2^(e-1), 2^e) */
    e -= 1;
    if (e < f.emin) e = f.emin;
    return ldexp(1.0, e - f.t);
}

/* Distance from x to the nearest rounding midpoint of the format. */
static double midpoint_distance(double x, fmt f) {
    double s = grid_step(x, f), n = floor(fabs(x) / s);
    return fabs(fabs(x) - (n + 0.5) * s);
}

/* q rounded once to the format (nearest, ties to even), exactly in quad. */
static __float128 round_quad(__float128 q, fmt f, __float128 *midpoint_gap) {
    int e;
    frexpq(q, &e);
    e -= 1;
    if (e < f.emin) e = f.emin;
    __float128 s = ldexpq(1.0Q, e - f.t), n = fabsq(q) / s; /* exact: s a power of 2 */
    __float128 fl = floorq(n);
    *midpoint_gap = fabsq(n - fl - 0.5Q) * s;
    __float128 r = nearbyintq(n) * s;
    return q < 0 ? -r : r;
}

static uint16_t to16(double v, fmt f) {
    /* v is a value of the format: its bits. */
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    uint16_t sign = (uint16_t)((b >> 48) & 0x8000u);
    double a = fabs(v);
    if (a == 0) return sign;
    int bias = f.emin == -14 ? 15 : 127;
    int e;
    frexp(a, &e);
    e -= 1;
    if (e < f.emin) return (uint16_t)(sign | (uint16_t)ldexp(a, -f.emin + f.t)); /* subnormal */
    uint32_t frac = (uint32_t)(ldexp(a, -e + f.t) - ldexp(1.0, f.t));
    return (uint16_t)(sign | ((uint32_t)(e + bias) << f.t) | frac);
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 8) {
        fprintf(stderr, "usage: rounding_check DIM BASE FREQ FROM TO [RUNS SEED]\n");
        return 2;
    }
    const uint32_t dim = (uint32_t)atoi(argv[1]), half = dim / 2;
    const double base = atof(argv[2]);
    const int t2t = !strcmp(argv[3], "tensor2tensor");
    const uint32_t from = (uint32_t)strtoul(argv[4], 0, 10), to = (uint32_t)strtoul(argv[5], 0, 10);
    const uint32_t runs = argc == 8 ? (uint32_t)strtoul(argv[6], 0, 10) : 0;
    rng = argc == 8 ? strtoull(argv[7], 0, 10) | 1 : 1;

    pe_sinusoid enc = {dim, base, PE_LAYOUT_INTERLEAVED, t2t ? PE_FREQ_TENSOR2TENSOR : PE_FREQ_PAPER};
    size_t sb;
    if (pe_scratch_size(dim, &sb)) return 1;
    void *scratch = malloc(sb);
    float *t32 = malloc(sizeof(float) * dim * ROWS);
    uint16_t *t16 = malloc(2 * dim * ROWS), *tb16 = malloc(2 * dim * ROWS);
    uint32_t *pos = malloc(sizeof(uint32_t) * ROWS);
    __float128 *w = malloc(sizeof(__float128) * half);
    const uint32_t span = t2t ? (half > 1 ? half - 1 : 1) : half;
    for (uint32_t i = 0; i < half; i++)
        w[i] = t2t ? powq((__float128)base, -(__float128)i / span) : powq((__float128)base, -(__float128)(2 * i) / dim);

    uint64_t values = 0, quad = 0, hard = 0, wrong[3] = {0, 0, 0};
    const fmt fmts[3] = {F32, F16, BF16};
    uint64_t chunks = 0;
    uint64_t total_rows = (uint64_t)(to - from) + (uint64_t)runs * 64;
    for (uint64_t done = 0; done < total_rows;) {
        /* The next chunk: consecutive positions, or runs of 64 at random starts. */
        uint32_t n = 0;
        if (done < (uint64_t)(to - from)) {
            uint64_t left = (uint64_t)(to - from) - done;
            n = left < ROWS ? (uint32_t)left : ROWS;
            for (uint32_t r = 0; r < n; r++) pos[r] = from + (uint32_t)done + r;
        } else {
            while (n + 64 <= ROWS && done + n < total_rows) {
                uint32_t start = (uint32_t)(next_random() % ((1u << 31) - 64));
                for (uint32_t r = 0; r < 64; r++) pos[n + r] = start + r;
                n += 64;
            }
        }
        if (pe_table_at(&enc, pos, n, t32, (size_t)n * dim, scratch, sb) ||
            pe_table_at_dtype(&enc, PE_DTYPE_FLOAT16, pos, n, t16, (size_t)n * dim, scratch, sb) ||
            pe_table_at_dtype(&enc, PE_DTYPE_BFLOAT16, pos, n, tb16, (size_t)n * dim, scratch, sb)) {
            fprintf(stderr, "posenc refused\n");
            return 1;
        }
        for (uint32_t r = 0; r < n; r++) {
            for (uint32_t i = 0; i < half; i++) {
                __float128 angle = (__float128)pos[r] * w[i];
                double a = (double)angle, d = (double)(angle - a), sa = sin(a), ca = cos(a);
                for (int want_cos = 0; want_cos < 2; want_cos++) {
                    const size_t at = (size_t)r * dim + 2 * i + want_cos;
                    double v = want_cos ? ca - (sa * d + ca * d * d * 0.5) : sa + (ca * d - sa * d * d * 0.5);
                    values++;
                    int need_quad = 0;
                    for (int k = 0; k < 3; k++) need_quad |= midpoint_distance(v, fmts[k]) < 0x1p-46;
                    double want[3];
                    if (!need_quad) {
                        want[0] = (double)(float)v; /* v is far from every midpoint: it rounds like exact */
                        for (int k = 1; k < 3; k++) {
                            double s = grid_step(v, fmts[k]);
                            want[k] = copysign(nearbyint(fabs(v) / s) * s, v);
                        }
                    } else {
                        quad++;
                        __float128 s, c, gap;
                        sincosq(angle, &s, &c);
                        __float128 q = want_cos ? c : s;
                        int is_hard = 0;
                        for (int k = 0; k < 3; k++) {
                            want[k] = (double)round_quad(q, fmts[k], &gap);
                            is_hard |= gap < 0x1p-72Q;
                        }
                        if (is_hard) {
                            hard++;
                            printf("HARD %u %.17g %s %u %u %d %08x %04x %04x\n", dim, base, argv[3], pos[r], i,
                                   want_cos, (unsigned)(*(uint32_t *)&t32[at]), t16[at], tb16[at]);
                        }
                    }
                    if ((double)t32[at] != want[0]) {
                        if (wrong[0]++ < 20)
                            printf("WRONG f32 p=%u i=%u cos=%d got %a want %a\n", pos[r], i, want_cos, t32[at],
                                   want[0]);
                    }
                    if (t16[at] != to16(want[1], F16) && !(want[1] == 0 && (t16[at] & 0x7fff) == 0)) {
                        if (wrong[1]++ < 20)
                            printf("WRONG f16 p=%u i=%u cos=%d got %04x want %04x\n", pos[r], i, want_cos, t16[at],
                                   to16(want[1], F16));
                    }
                    if (tb16[at] != to16(want[2], BF16) && !(want[2] == 0 && (tb16[at] & 0x7fff) == 0)) {
                        if (wrong[2]++ < 20)
                            printf("WRONG bf16 p=%u i=%u cos=%d got %04x want %04x\n", pos[r], i, want_cos, tb16[at],
                                   to16(want[2], BF16));
                    }
                }
            }
        }
        done += n;
        if (++chunks % 64 == 0) {
            printf("PROGRESS values=%llu quad=%llu hard=%llu wrong_f32=%llu wrong_f16=%llu wrong_bf16=%llu\n",
                   (unsigned long long)values, (unsigned long long)quad, (unsigned long long)hard,
                   (unsigned long long)wrong[0], (unsigned long long)wrong[1], (unsigned long long)wrong[2]);
            fflush(stdout);
        }
    }
    printf("SUMMARY dim=%u base=%g freq=%s positions=%u..%u runs=%u values=%llu quad=%llu hard=%llu "
           "wrong_f32=%llu wrong_f16=%llu wrong_bf16=%llu\n",
           dim, base, argv[3], from, to, runs, (unsigned long long)values, (unsigned long long)quad,
           (unsigned long long)hard, (unsigned long long)wrong[0], (unsigned long long)wrong[1],
           (unsigned long long)wrong[2]);
    return wrong[0] || wrong[1] || wrong[2];
}
