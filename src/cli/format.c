/* format.c: the table output formats, see format.h and src/js/shared/format.js. */
#include "format.h"

#include <math.h> /* signbit, isnan, isinf: macros, no libm needed */
#include <string.h>

static const uint64_t POW10[] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u};
static const int DIGITS[] = {4, 9, 9, 0, 0, 0}; /* by cli_format */

/* Decimal digits of n, most significant first; returns the count. */
static size_t put_uint(char *out, uint64_t n, int min_digits) {
    char reversed[24];
    int count = 0;
    do {
        reversed[count++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0 || count < min_digits);
    for (int i = 0; i < count; i++) out[i] = reversed[count - 1 - i];
    return (size_t)count;
}

size_t cli_format_fixed(char *out, float value, int digits) {
    double v = value;
    if (isnan(v)) {
        memcpy(out, "nan", 3);
        return 3;
    }
    size_t at = 0;
    if (signbit(v)) out[at++] = '-';
    if (isinf(v)) {
        memcpy(out + at, "inf", 3);
        return at + 3;
    }
    double s = v * (double)POW10[digits]; /* exact for a float32 |v| <= 1 */
    if (s < 0) s = -s;
    uint64_t n = (uint64_t)s;
    double rest = s - (double)n; /* exact */
    if (rest > 0.5 || (rest == 0.5 && (n & 1u))) n++;
    at += put_uint(out + at, n / POW10[digits], 1);
    if (digits > 0) {
        out[at++] = '.';
        at += put_uint(out + at, n % POW10[digits], digits);
    }
    return at;
}

void cli_write_prologue(FILE *out, cli_format format, uint32_t length, uint32_t dim, const char *descr) {
    if (format == FORMAT_CSV) {
        fputs("position", out);
        for (uint32_t j = 0; j < dim; j++) fprintf(out, ",d%u", (unsigned)j);
        fputc('\n', out);
    } else if (format == FORMAT_JSON) {
        fputs("[\n", out);
    } else if (format == FORMAT_NPY) {
        const uint32_t shape[2] = {length, dim};
        cli_write_npy_header(out, descr, shape, 2);
    }
}

void cli_write_npy_header(FILE *out, const char *descr, const uint32_t *shape, int ndim) {
    char dict[160];
    int n = ndim == 1 ? snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%u,), }", descr,
                                 (unsigned)shape[0])
                      : snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%u, %u), }",
                                 descr, (unsigned)shape[0], (unsigned)shape[1]);
    size_t unpadded = 10 + (size_t)n + 1; /* magic 6 + version 2 + length 2, dict, '\n' */
    size_t pad = (64 - unpadded % 64) % 64;
    size_t header_len = (size_t)n + pad + 1;
    const unsigned char magic[10] = {
        0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(header_len & 0xff), (unsigned char)(header_len >> 8)};
    fwrite(magic, 1, sizeof magic, out);
    fwrite(dict, 1, (size_t)n, out);
    for (size_t i = 0; i < pad; i++) fputc(' ', out);
    fputc('\n', out);
}

void cli_write_le(FILE *out, const void *values, size_t width, size_t count) {
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    if (first == 1) { /* little-endian host: the bytes as they lie */
        fwrite(values, width, count, out);
        return;
    }
    unsigned char bytes[4096];
    const unsigned char *in = values;
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        for (size_t b = 0; b < width; b++) bytes[used++] = in[i * width + width - 1 - b];
        if (used == sizeof bytes) { /* 4096 is a multiple of 2, 4 and 8 */
            fwrite(bytes, 1, used, out);
            used = 0;
        }
    }
    fwrite(bytes, 1, used, out);
}

/* float32 values as little-endian bytes, whatever the host's byte order. */
static void write_f32(FILE *out, const float *values, size_t count) {
    cli_write_le(out, values, 4, count);
}

void cli_write_rows(FILE *out, cli_format format, const float *values, uint32_t rows, uint32_t dim, uint32_t first_row,
                    uint32_t position) {
    if (format == FORMAT_NPY || format == FORMAT_F32 || format == FORMAT_RAW) {
        write_f32(out, values, (size_t)rows * dim);
        return;
    }
    const int digits = DIGITS[format];
    char text[CLI_FIXED_MAX + 2];
    for (uint32_t r = 0; r < rows; r++) {
        const float *row = values + (size_t)r * dim;
        if (format == FORMAT_CSV) fprintf(out, "%u", (unsigned)(position + r));
        if (format == FORMAT_JSON) fputs(first_row + r == 0 ? "[" : ",\n[", out);
        for (uint32_t j = 0; j < dim; j++) {
            size_t at = 0;
            if (j > 0 || format == FORMAT_CSV) text[at++] = format == FORMAT_TEXT ? ' ' : ',';
            at += cli_format_fixed(text + at, row[j], digits);
            fwrite(text, 1, at, out);
        }
        fputs(format == FORMAT_JSON ? "]" : "\n", out);
    }
}

void cli_write_epilogue(FILE *out, cli_format format, uint32_t length) {
    if (format == FORMAT_JSON) fputs(length == 0 ? "]\n" : "\n]\n", out);
}

size_t cli_format_exp(char *out, double value, int digits) {
    int n = snprintf(out, CLI_FIXED_MAX, "%.*e", digits, value);
    return n > 0 ? (size_t)n : 0;
}

void cli_write_values(FILE *out, cli_format format, const char *index_name, const char *value_name,
                      const double *values, uint32_t count, int digits) {
    char text[CLI_FIXED_MAX];
    if (format == FORMAT_CSV) fprintf(out, "%s,%s\n", index_name, value_name);
    if (format == FORMAT_JSON) fputs("[", out);
    for (uint32_t i = 0; i < count; i++) {
        size_t n = cli_format_exp(text, values[i], digits);
        if (format == FORMAT_CSV) fprintf(out, "%u,", (unsigned)i);
        if (format == FORMAT_JSON) fputs(i == 0 ? "\n" : ",\n", out);
        fwrite(text, 1, n, out);
        if (format != FORMAT_JSON) fputc('\n', out);
    }
    if (format == FORMAT_JSON) fputs(count == 0 ? "]\n" : "\n]\n", out);
}

void cli_write_u16(FILE *out, const uint16_t *values, size_t count) {
    cli_write_le(out, values, 2, count);
}

float cli_widen16(uint16_t bits, int dtype) {
    uint32_t sign = (uint32_t)(bits & 0x8000u) << 16, word;
    if (dtype == 2) { /* bfloat16: the top half of a float32 */
        word = (uint32_t)bits << 16;
    } else {
        uint32_t exponent = (bits >> 10) & 0x1fu, fraction = bits & 0x3ffu;
        if (exponent == 0x1f) {
            word = sign | 0x7f800000u | (fraction << 13);
        } else if (exponent != 0) {
            word = sign | ((exponent + 112) << 23) | (fraction << 13);
        } else if (fraction == 0) {
            word = sign;
        } else { /* subnormal: value fraction * 2^-24, exact in float */
            float v = (float)fraction * 0x1p-24f;
            memcpy(&word, &v, 4);
            word |= sign;
        }
    }
    float v;
    memcpy(&v, &word, 4);
    return v;
}
