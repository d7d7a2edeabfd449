/* args.c: see args.h and src/js/cli-args.js. */
#include "args.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char CLI_USAGE[] =
    "usage: posenc table --length N --dim D [options]\n"
    "\n"
    "Prints the sinusoidal positional-encoding table of positions offset ... offset+N-1\n"
    "(one row per position, D columns).\n"
    "\n"
    "  --length N    number of positions, 0 to 2147483648 (required)\n"
    "  --dim D       embedding size, even, 2 to 65536 (required)\n"
    "  --base T      frequency base, a finite number above 1 (default 10000)\n"
    "  --offset P    first position (default 0); offset + length <= 2147483648\n"
    "  --layout L    interleaved [s0 c0 s1 c1 ...] or split [s0 s1 ... c0 c1 ...] (default interleaved)\n"
    "  --frequencies F  paper, w_i = T^(-2i/D), or tensor2tensor, w_i = T^(-i/(D/2-1)) (default paper)\n"
    "  --preset P    vaswani, tensor2tensor, fairseq or marian: sets --layout and --frequencies\n"
    "  --format F    text (4 decimals), csv or json (9 decimals), npy (NumPy .npy float32)\n"
    "                or f32 (raw little-endian float32) (default text)\n"
    "  --kernels K   auto, simd or scalar (default auto); all give the same bits\n"
    "  -h, --help    print this help\n";

#define MAX_POSITION 2147483648.0

enum {
    OPT_LENGTH,
    OPT_DIM,
    OPT_BASE,
    OPT_OFFSET,
    OPT_LAYOUT,
    OPT_FORMAT,
    OPT_KERNELS,
    OPT_FREQUENCIES,
    OPT_PRESET,
    OPT_COUNT
};
static const char *const OPTIONS[OPT_COUNT] = {"--length", "--dim",     "--base",        "--offset", "--layout",
                                               "--format", "--kernels", "--frequencies", "--preset"};

/* The package's presets (src/js/presets.js): name, layout, frequencies. */
static const char *const PRESETS[][3] = {{"vaswani", "interleaved", "paper"},
                                         {"tensor2tensor", "split", "tensor2tensor"},
                                         {"fairseq", "split", "tensor2tensor"},
                                         {"marian", "split", "paper"}};

/* Formats the message into a fresh allocation (arguments echo user input of any length). */
static int fail(char **error, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    *error = malloc((size_t)(n > 0 ? n : 0) + 1);
    if (!*error) return 1;
    va_start(ap, format);
    vsnprintf(*error, (size_t)n + 1, format, ap);
    va_end(ap);
    return 1;
}

static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int same_ignoring_case(const char *a, const char *b) {
    while (*a && lower((unsigned char)*a) == lower((unsigned char)*b)) a++, b++;
    return *a == *b || lower((unsigned char)*a) == lower((unsigned char)*b);
}

/* Levenshtein distance; option names are short. */
static size_t distance(const char *a, const char *b) {
    size_t n = strlen(b);
    if (n > 63) n = 63;
    size_t row[64], next[64];
    for (size_t j = 0; j <= n; j++) row[j] = j;
    for (size_t i = 1; a[i - 1]; i++) {
        next[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t best = row[j] + 1;
            if (next[j - 1] + 1 < best) best = next[j - 1] + 1;
            size_t swap = row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (swap < best) best = swap;
            next[j] = best;
        }
        memcpy(row, next, (n + 1) * sizeof row[0]);
    }
    return row[n];
}

/* The option a typo most likely meant, or NULL (same rule as errors.js closest). */
static const char *closest(const char *name) {
    const char *best = NULL;
    size_t best_distance = (size_t)-1;
    for (int k = 0; k < OPT_COUNT; k++) {
        size_t d = same_ignoring_case(OPTIONS[k], name) ? 0 : distance(name, OPTIONS[k]);
        if (d < best_distance) {
            best = OPTIONS[k];
            best_distance = d;
        }
    }
    size_t third = strlen(name) / 3;
    size_t limit = third < 1 ? 1 : third > 2 ? 2 : third;
    return best_distance <= limit ? best : NULL;
}

/* Decimal digits only (1 to 12 of them), at most 2^31. */
static int parse_count(const char *text, uint32_t *value) {
    size_t n = strlen(text);
    if (n < 1 || n > 12 || strspn(text, "0123456789") != n) return 0;
    double v = strtod(text, NULL);
    if (v > MAX_POSITION) return 0;
    *value = (uint32_t)v;
    return 1;
}

static size_t digits(const char *s) {
    return strspn(s, "0123456789");
}

/* [+-]? (digits .? digits* | . digits) ([eE] [+-]? digits)?  then strtod,
 * so that JS's Number() and C agree on the value. */
static int parse_decimal(const char *text, double *value) {
    const char *p = text;
    if (*p == '+' || *p == '-') p++;
    size_t whole = digits(p);
    p += whole;
    if (*p == '.') {
        p++;
        size_t fraction = digits(p);
        if (whole == 0 && fraction == 0) return 0;
        p += fraction;
    } else if (whole == 0) {
        return 0;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        size_t exponent = digits(p);
        if (exponent == 0) return 0;
        p += exponent;
    }
    if (*p != '\0') return 0;
    *value = strtod(text, NULL);
    return 1;
}

int cli_parse_args(int argc, char **argv, cli_args *args, char **error) {
    *error = NULL;
    memset(args, 0, sizeof *args);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            args->help = 1;
            return 0;
        }
    }
    if (argc < 2) return fail(error, "missing command: try 'posenc table --length 10 --dim 4' or 'posenc --help'");
    if (strcmp(argv[1], "table") != 0)
        return fail(error, "unknown command '%s'; the only command is 'table' (see posenc --help)", argv[1]);

    const char *given[OPT_COUNT] = {NULL};
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return fail(error, "unexpected argument '%s' (options start with --; see posenc --help)", arg);
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        int k = 0;
        while (k < OPT_COUNT && !(strlen(OPTIONS[k]) == name_len && !strncmp(OPTIONS[k], arg, name_len))) k++;
        if (k == OPT_COUNT) {
            char *name = malloc(name_len + 1);
            if (!name) return fail(error, "out of memory");
            memcpy(name, arg, name_len);
            name[name_len] = '\0';
            const char *guess = closest(name);
            if (guess)
                fail(error, "unknown option '%s' (did you mean '%s'?)", name, guess);
            else
                fail(error, "unknown option '%s'", name);
            free(name);
            return 1;
        }
        if (eq)
            given[k] = eq + 1;
        else if (i + 1 < argc)
            given[k] = argv[++i];
        else
            return fail(error, "%s needs a value", OPTIONS[k]);
    }

    if (!given[OPT_DIM]) return fail(error, "--dim is required (the embedding size, an even number from 2 to 65536)");
    if (!given[OPT_LENGTH]) return fail(error, "--length is required (the number of positions)");
    if (!parse_count(given[OPT_DIM], &args->dim) || args->dim < 2 || args->dim > 65536)
        return fail(error, "--dim must be an even integer from 2 to 65536; got %s", given[OPT_DIM]);
    if (args->dim % 2)
        return fail(error, "--dim must be an even number (sines and cosines come in pairs); got %s", given[OPT_DIM]);
    if (!parse_count(given[OPT_LENGTH], &args->length))
        return fail(error, "--length must be an integer from 0 to 2147483648; got %s", given[OPT_LENGTH]);
    const char *offset = given[OPT_OFFSET] ? given[OPT_OFFSET] : "0";
    if (!parse_count(offset, &args->offset))
        return fail(error, "--offset must be an integer from 0 to 2147483648; got %s", offset);
    if ((uint64_t)args->offset + args->length > 2147483648u)
        return fail(error, "--offset + --length must be at most 2147483648; got %u + %u", (unsigned)args->offset,
                    (unsigned)args->length);
    const char *base = given[OPT_BASE];
    args->base = 10000.0;
    if (base && (!parse_decimal(base, &args->base) || !(args->base > 1.0 && args->base <= DBL_MAX)))
        return fail(error, "--base must be a finite number above 1; got %s", base);
    const char *layout = given[OPT_LAYOUT], *frequencies = given[OPT_FREQUENCIES], *preset = given[OPT_PRESET];
    if (preset) {
        int k = 0;
        while (k < 4 && strcmp(preset, PRESETS[k][0])) k++;
        if (k == 4) return fail(error, "--preset must be vaswani, tensor2tensor, fairseq or marian; got %s", preset);
        if (layout && strcmp(layout, PRESETS[k][1]))
            return fail(error, "--layout must be %s with --preset %s; got %s", PRESETS[k][1], preset, layout);
        if (frequencies && strcmp(frequencies, PRESETS[k][2]))
            return fail(error, "--frequencies must be %s with --preset %s; got %s", PRESETS[k][2], preset, frequencies);
        layout = PRESETS[k][1];
        frequencies = PRESETS[k][2];
    }
    if (!layout) layout = "interleaved";
    if (strcmp(layout, "interleaved") && strcmp(layout, "split"))
        return fail(error, "--layout must be interleaved or split; got %s", layout);
    args->split = !strcmp(layout, "split");
    if (!frequencies) frequencies = "paper";
    if (strcmp(frequencies, "paper") && strcmp(frequencies, "tensor2tensor"))
        return fail(error, "--frequencies must be paper or tensor2tensor; got %s", frequencies);
    args->tensor2tensor = !strcmp(frequencies, "tensor2tensor");
    static const char *const FORMATS[] = {"text", "csv", "json", "npy", "f32"};
    const char *format = given[OPT_FORMAT] ? given[OPT_FORMAT] : "text";
    int f = 0;
    while (f < 5 && strcmp(format, FORMATS[f])) f++;
    if (f == 5) return fail(error, "--format must be text, csv, json, npy or f32; got %s", format);
    args->format = (cli_format)f;
    const char *kernels = given[OPT_KERNELS] ? given[OPT_KERNELS] : "auto";
    if (!strcmp(kernels, "auto"))
        args->kernels = KERNELS_AUTO;
    else if (!strcmp(kernels, "simd"))
        args->kernels = KERNELS_SIMD;
    else if (!strcmp(kernels, "scalar"))
        args->kernels = KERNELS_SCALAR;
    else
        return fail(error, "--kernels must be auto, simd or scalar; got %s", kernels);
    return 0;
}
