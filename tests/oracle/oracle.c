/* oracle: sinusoidal positional encodings in quad precision, for tests.
 *
 * Independent of the core: the frequency is BASE^(-2i/DIM) by powq (or, with
 * FREQUENCIES tensor2tensor, BASE^(-i/max(DIM/2-1, 1))), the angle
 * p * w_i is formed in __float128 and sinq/cosq (libquadmath, full argument
 * reduction) give the value, which is rounded once to double. The error of a
 * printed value is below 1e-16 absolute for every position below 2^32 and
 * any DIM, BASE; far below the float32 core's promised 6e-8.
 *
 * Usage:
 *   oracle table DIM BASE LAYOUT OFFSET LENGTH [FREQUENCIES]
 *       writes LENGTH x DIM little-endian float64: rows OFFSET ... OFFSET+LENGTH-1
 *   oracle at DIM BASE LAYOUT [FREQUENCIES]
 *       reads little-endian uint32 positions on stdin, writes their rows the same way
 *   oracle freqs HALF
 *       reads HALF little-endian float64 frequencies w_i, then uint32 positions, on
 *       stdin; writes per position the split row [sin(p w_0) ... sin(p w_{HALF-1}),
 *       cos(p w_0) ...] (RoPE's scaled frequencies: each w_i taken exactly)
 *   oracle rounded FORMAT DIM BASE LAYOUT [FREQUENCIES]
 *       as `at`, but each value rounded once from quad to FORMAT (float32:
 *       float32 values; float16, bfloat16: uint16 bit patterns), nearest, ties
 *       to even: the correctly rounded table wherever the exact value is
 *       farther than about 2^-80 from a midpoint (issue 26's hard cases are
 *       2^-60 and more away)
 * LAYOUT is `interleaved` ([s0 c0 s1 c1 ...]) or `split` ([s0 s1 ... c0 c1 ...]);
 * FREQUENCIES is `paper` (the default) or `tensor2tensor`.
 * Exit 2 with a message on bad arguments, 1 on an I/O failure.
 */
#include <errno.h>
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage_exit(const char *why) {
    fprintf(stderr,
            "oracle: %s\n"
            "usage: oracle table DIM BASE LAYOUT OFFSET LENGTH [FREQUENCIES]\n"
            "       oracle at DIM BASE LAYOUT [FREQUENCIES]   (uint32 positions on stdin)\n"
            "       oracle freqs HALF   (HALF float64 frequencies, then uint32 positions, on stdin)\n"
            "       oracle rounded FORMAT DIM BASE LAYOUT [FREQUENCIES]   (as at, rounded once to FORMAT)\n",
            why);
    exit(2);
}

static uint64_t parse_uint(const char *s, uint64_t max, const char *what) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v > max) {
        fprintf(stderr, "oracle: bad %s '%s' (an integer 0...%llu)\n", what, s, (unsigned long long)max);
        exit(2);
    }
    return v;
}

typedef struct {
    uint32_t dim;
    int split;
    __float128 *freq; /* dim/2 frequencies BASE^(-2i/DIM) */
} encoding;

static encoding parse_encoding(char **argv, const char *frequencies) {
    encoding e;
    e.dim = (uint32_t)parse_uint(argv[0], 1u << 20, "DIM");
    if (e.dim == 0 || e.dim % 2) usage_exit("DIM must be even and positive");
    char *end;
    double base = strtod(argv[1], &end);
    if (end == argv[1] || *end || !isfinite(base) || !(base > 1)) usage_exit("BASE must be finite and > 1");
    if (!strcmp(argv[2], "interleaved"))
        e.split = 0;
    else if (!strcmp(argv[2], "split"))
        e.split = 1;
    else
        usage_exit("LAYOUT must be interleaved or split");
    e.freq = malloc(sizeof(__float128) * (e.dim / 2));
    if (!e.freq) {
        fprintf(stderr, "oracle: out of memory\n");
        exit(1);
    }
    /* The base is the double the caller named, taken exactly. */
    __float128 qbase = base;
    int t2t = 0;
    if (!strcmp(frequencies, "tensor2tensor"))
        t2t = 1;
    else if (strcmp(frequencies, "paper"))
        usage_exit("FREQUENCIES must be paper or tensor2tensor");
    uint32_t half = e.dim / 2, span = half > 1 ? half - 1 : 1;
    for (uint32_t i = 0; i < half; i++)
        e.freq[i] = t2t ? powq(qbase, -(__float128)i / (__float128)span)
                        : powq(qbase, -(__float128)(2 * (uint64_t)i) / (__float128)e.dim);
    return e;
}

/* 0: float64 rows; else the `rounded` command's format. */
static enum { OUT_F64, OUT_F32, OUT_F16, OUT_BF16 } out_format = OUT_F64;

/* q rounded once to t fraction bits with smallest normal exponent emin
 * (nearest, ties to even), as the 16-bit pattern with exponent bias `bias`. */
static uint16_t round16(__float128 q, int t, int emin, int bias) {
    uint16_t sign = q < 0 ? 0x8000u : 0u;
    if (q == 0) return sign;
    int e;
    frexpq(q, &e);
    e -= 1;
    if (e < emin) e = emin;
    __float128 n = nearbyintq(fabsq(q) / ldexpq(1.0Q, e - t)); /* integer in [0, 2^(t+1)] */
    uint32_t m = (uint32_t)n;
    if (m == (2u << t)) m >>= 1, e++;               /* rounded up to the next binade */
    if (m < (1u << t)) return (uint16_t)(sign | m); /* subnormal (e == emin) */
    return (uint16_t)(sign | ((uint32_t)(e + bias) << t) | (m - (1u << t)));
}

static void put_value(__float128 q, double *row, uint32_t at) {
    switch (out_format) {
    case OUT_F64: row[at] = (double)q; break;
    case OUT_F32: ((float *)row)[at] = (float)q; break; /* libgcc's conversion: rounded once */
    case OUT_F16: ((uint16_t *)row)[at] = round16(q, 10, -14, 15); break;
    case OUT_BF16: ((uint16_t *)row)[at] = round16(q, 7, -126, 127); break;
    }
}

static size_t value_bytes(void) {
    return out_format == OUT_F64 ? 8 : out_format == OUT_F32 ? 4 : 2;
}

static void write_row(const encoding *e, uint64_t p, double *row) {
    uint32_t half = e->dim / 2;
    for (uint32_t i = 0; i < half; i++) {
        __float128 s, c;
        sincosq((__float128)p * e->freq[i], &s, &c);
        if (out_format != OUT_F64) {
            put_value(s, row, e->split ? i : 2 * i);
            put_value(c, row, e->split ? half + i : 2 * i + 1);
            continue;
        }
        if (e->split) {
            row[i] = (double)s;
            row[half + i] = (double)c;
        } else {
            row[2 * i] = (double)s;
            row[2 * i + 1] = (double)c;
        }
    }
    if (fwrite(row, value_bytes(), e->dim, stdout) != e->dim) {
        fprintf(stderr, "oracle: write failed\n");
        exit(1);
    }
}

/* Given frequencies (float64 on stdin, then the positions): RoPE's tests. */
static int given_frequencies(const char *half_arg) {
    encoding e;
    uint32_t half = (uint32_t)parse_uint(half_arg, 1u << 19, "HALF");
    if (half == 0) usage_exit("HALF must be positive");
    e.dim = 2 * half;
    e.split = 1;
    e.freq = malloc(sizeof(__float128) * half);
    double *row = malloc(sizeof(double) * e.dim);
    if (!e.freq || !row) {
        fprintf(stderr, "oracle: out of memory\n");
        return 1;
    }
    for (uint32_t i = 0; i < half; i++) {
        double w;
        if (fread(&w, sizeof w, 1, stdin) != 1) usage_exit("stdin ended inside the frequencies");
        if (!isfinite(w) || w < 0) usage_exit("a frequency is not finite and >= 0");
        e.freq[i] = w;
    }
    uint32_t p;
    while (fread(&p, sizeof p, 1, stdin) == 1) write_row(&e, p, row);
    if (ferror(stdin)) {
        fprintf(stderr, "oracle: read failed\n");
        return 1;
    }
    if (fflush(stdout)) {
        fprintf(stderr, "oracle: write failed\n");
        return 1;
    }
    free(row);
    free(e.freq);
    return 0;
}

int main(int argc, char **argv) {
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc < 2) usage_exit("no command");
    if (!strcmp(argv[1], "freqs") && argc == 3) return given_frequencies(argv[2]);
    if (!strcmp(argv[1], "rounded") && argc >= 3) {
        if (!strcmp(argv[2], "float32"))
            out_format = OUT_F32;
        else if (!strcmp(argv[2], "float16"))
            out_format = OUT_F16;
        else if (!strcmp(argv[2], "bfloat16"))
            out_format = OUT_BF16;
        else
            usage_exit("FORMAT must be float32, float16 or bfloat16");
        argv[2] = "at";
        argv++;
        argc--;
    }
    int table = !strcmp(argv[1], "table"), at = !strcmp(argv[1], "at");
    if (!(table && (argc == 7 || argc == 8)) && !(at && (argc == 5 || argc == 6)))
        usage_exit("bad command or argument count");
    int given = (table && argc == 8) || (at && argc == 6);
    encoding e = parse_encoding(argv + 2, given ? argv[argc - 1] : "paper");
    double *row = malloc(sizeof(double) * e.dim);
    if (!row) {
        fprintf(stderr, "oracle: out of memory\n");
        return 1;
    }
    if (table) {
        uint64_t offset = parse_uint(argv[5], UINT32_MAX, "OFFSET");
        uint64_t length = parse_uint(argv[6], UINT32_MAX, "LENGTH");
        for (uint64_t r = 0; r < length; r++) write_row(&e, offset + r, row);
    } else {
        unsigned char buf[1 << 14];
        size_t have = 0, got;
        while ((got = fread(buf + have, 1, sizeof buf - have, stdin)) > 0) {
            have += got;
            size_t whole = have / 4 * 4;
            for (size_t k = 0; k < whole; k += 4) {
                uint32_t p;
                memcpy(&p, buf + k, 4); /* little-endian hosts only, as the tests run */
                write_row(&e, p, row);
            }
            memmove(buf, buf + whole, have - whole);
            have -= whole;
        }
        if (ferror(stdin)) {
            fprintf(stderr, "oracle: read failed\n");
            return 1;
        }
        if (have) usage_exit("stdin ended inside a uint32 position");
    }
    if (fflush(stdout)) {
        fprintf(stderr, "oracle: write failed\n");
        return 1;
    }
    free(row);
    free(e.freq);
    return 0;
}
