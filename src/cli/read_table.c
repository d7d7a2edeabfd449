/* read_table.c: see read_table.h. Small, strict readers: anything they do not
 * understand is refused with a message, never guessed. */
#include "read_table.h"

#include "read_formats.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fail cli_read_fail

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exponent = (h >> 10) & 31, mantissa = h & 1023, bits;
    if (exponent == 31)
        bits = sign | 0x7f800000u | (mantissa << 13);
    else if (exponent)
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    else if (mantissa) { /* subnormal: exact as a float */
        float f = (float)mantissa * (1.0f / 16777216.0f);
        return sign ? -f : f;
    } else
        bits = sign;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* count elements of kind ('2' f16, 'b' bf16, '4' f32, '8' f64) at data into out. */
static void decode(const unsigned char *data, size_t count, char kind, int little, float *out) {
    int size = kind == '8' ? 8 : kind == '4' ? 4 : 2;
    for (size_t k = 0; k < count; k++) {
        unsigned char b[8];
        for (int j = 0; j < size; j++) b[j] = data[k * size + (little ? j : size - 1 - j)];
        if (kind == '8') {
            double d;
            memcpy(&d, b, 8);
            out[k] = (float)d;
        } else if (kind == '4') {
            memcpy(&out[k], b, 4);
        } else {
            uint16_t h = (uint16_t)(b[0] | b[1] << 8);
            if (kind == 'b') {
                uint32_t bits = (uint32_t)h << 16;
                memcpy(&out[k], &bits, 4);
            } else {
                out[k] = half_to_float(h);
            }
        }
    }
}

/* Strict UTF-8 (TextDecoder's fatal mode): no overlongs, surrogates or values past U+10FFFF. */
int cli_utf8_valid(const unsigned char *b, size_t n) {
    for (size_t k = 0; k < n;) {
        unsigned c = b[k];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (!len || k + len > n || (len == 2 && c < 0xc2) || (len == 4 && c > 0xf4)) return 0;
        for (size_t j = 1; j < len; j++)
            if ((b[k + j] & 0xc0) != 0x80) return 0;
        if (len == 3 && ((c == 0xe0 && b[k + 1] < 0xa0) || (c == 0xed && b[k + 1] >= 0xa0))) return 0;
        if (len == 4 && ((c == 0xf0 && b[k + 1] < 0x90) || (c == 0xf4 && b[k + 1] >= 0x90))) return 0;
        k += len;
    }
    return 1;
}

size_t cli_json_char(uint32_t u, char *out) {
    static const char SHORT[] = "btn-fr"; /* u = 8 ... 13: b t n (11 has no short escape) f r */
    if (u == '"' || u == '\\') return out[0] = '\\', out[1] = (char)u, 2;
    if (u >= 8 && u <= 13 && u != 11) return out[0] = '\\', out[1] = SHORT[u - 8], 2;
    if (u < 0x20 || (u >= 0xd800 && u <= 0xdfff)) return (size_t)snprintf(out, 7, "\\u%04x", (unsigned)u);
    if (u < 0x80) return out[0] = (char)u, 1;
    if (u < 0x800) return out[0] = (char)(0xc0 | u >> 6), out[1] = (char)(0x80 | (u & 0x3f)), 2;
    if (u < 0x10000)
        return out[0] = (char)(0xe0 | u >> 12), out[1] = (char)(0x80 | (u >> 6 & 0x3f)),
               out[2] = (char)(0x80 | (u & 0x3f)), 3;
    out[0] = (char)(0xf0 | u >> 18), out[1] = (char)(0x80 | (u >> 12 & 0x3f));
    out[2] = (char)(0x80 | (u >> 6 & 0x3f)), out[3] = (char)(0x80 | (u & 0x3f));
    return 4;
}

int cli_read_fail(char *error, size_t bytes, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(error, bytes, format, args);
    va_end(args);
    return 1;
}

void cli_js_integer(double v, char *out, size_t out_bytes) {
    char digits[40];
    int precision = 1;
    /* The shortest digits that read back as v, as JavaScript picks them. */
    for (; precision < 17; precision++) {
        snprintf(digits, sizeof digits, "%.*e", precision - 1, v);
        if (strtod(digits, NULL) == v) break;
    }
    snprintf(digits, sizeof digits, "%.*e", precision - 1, v);
    int exponent = atoi(strchr(digits, 'e') + 1);
    if (exponent >= 21) { /* d.ddde+NN */
        char *e = strchr(digits, 'e');
        *e = 0;
        snprintf(out, out_bytes, "%se+%d", digits, exponent);
        return;
    }
    char plain[40];
    size_t n = 0;
    for (const char *c = digits; *c && *c != 'e'; c++)
        if (*c != '.') plain[n++] = *c;
    while ((int)n < exponent + 1) plain[n++] = '0';
    plain[n] = 0;
    snprintf(out, out_bytes, "%s", plain);
}

void cli_shape_text(const uint64_t *shape, int axes, char *out, size_t out_bytes) {
    size_t at = (size_t)snprintf(out, out_bytes, "(");
    for (int k = 0; k < axes && at < out_bytes; k++) {
        char number[40];
        cli_js_integer((double)shape[k], number, sizeof number);
        at += (size_t)snprintf(out + at, out_bytes - at, "%s%s", k ? ", " : "", number);
    }
    if (at < out_bytes) snprintf(out + at, out_bytes - at, "%s)", axes == 1 ? "," : "");
}

int cli_tensor_shape(const char *what, const uint64_t *shape, int axes, uint32_t want_rows, uint32_t want_dim,
                     uint64_t *rows, uint64_t *dim, char *error, size_t eb) {
    char text[512];
    if (axes > CLI_MAX_AXES)
        return cli_read_fail(error, eb, "%s has %d axes; a position table has at most %d (NumPy's limit)", what, axes,
                             CLI_MAX_AXES);
    cli_shape_text(shape, axes, text, sizeof text);
    int first = 0;
    while (axes - first > 2 && shape[first] == 1) first++;
    if (axes - first != 2)
        return cli_read_fail(
            error, eb,
            "%s has shape %s; a position table must be 2-D (rows, dim), after dropping leading axes of size 1", what,
            text);
    *rows = shape[first];
    *dim = shape[first + 1];
    if ((*rows == 0 || *dim == 0) && (*rows > 2147483648u || *dim > 2147483648u))
        return cli_read_fail(error, eb, "%s has shape %s; each axis of a position table is at most 2^31", what, text);
    char wrong[64] = "";
    if (want_rows && *rows != want_rows) snprintf(wrong, sizeof wrong, "%u rows", (unsigned)want_rows);
    if (want_dim && *dim != want_dim)
        snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), "%sdim %u", wrong[0] ? " and " : "",
                 (unsigned)want_dim);
    if (wrong[0])
        return cli_read_fail(error, eb, "%s has shape %s, so %llu rows of dim %llu; expected %s", what, text,
                             (unsigned long long)*rows, (unsigned long long)*dim, wrong);
    return 0;
}

int64_t cli_element_count(const uint64_t *shape, int axes, int size, size_t available) {
    for (int k = 0; k < axes; k++)
        if (shape[k] == 0) return 0;
    double count = 1;
    for (int k = 0; k < axes; k++) {
        count *= (double)shape[k];
        if (count * size > (double)available) return -1;
    }
    return (int64_t)count;
}

int cli_decode_table(const unsigned char *data, uint64_t rows, uint64_t dim, char kind, int little, cli_table *out,
                     char *error, size_t eb) {
    if (rows > UINT32_MAX || dim > UINT32_MAX)
        return cli_read_fail(error, eb, "the table (%llu x %llu) is too large", (unsigned long long)rows,
                             (unsigned long long)dim);
    out->rows = (uint32_t)rows;
    out->dim = (uint32_t)dim;
    out->values = malloc(rows * dim * sizeof(float) + 1);
    if (!out->values) return cli_read_fail(error, eb, "out of memory");
    decode(data, rows * dim, kind, little, out->values);
    return 0;
}

/* ---- text ---- */

static int is_text(const unsigned char *b, size_t size) {
    for (size_t k = 0; k < size; k++)
        if (!(b[k] == '\t' || b[k] == '\n' || b[k] == '\r' || (b[k] >= 32 && b[k] < 127))) return 0;
    return size > 0;
}

static int same_word(const char *a, const char *word) { /* a equals word, ignoring ASCII case */
    for (; *a && *word; a++, word++)
        if ((*a | 32) != *word) return 0;
    return *a == *word;
}

/* One field: a plain decimal number, nan or [+-]inf(inity) (any case); 0 when not a number. */
static int parse_field(const char *p, size_t n, double *value) {
    char text[64];
    if (n == 0 || n >= sizeof text) return 0;
    memcpy(text, p, n);
    text[n] = 0;
    const char *t = text + (text[0] == '+' || text[0] == '-');
    if (same_word(t, "nan") || same_word(t, "inf") || same_word(t, "infinity")) {
        double v = t[0] == 'n' || t[0] == 'N' ? 0.0 / 0.0 : 1.0 / 0.0;
        *value = text[0] == '-' ? -v : v;
        return 1;
    }
    /* decimal grammar: digits [. digits] [e[+-]digits] (the Node CLI's regex) */
    const char *q = t;
    int digits = 0;
    while (*q >= '0' && *q <= '9') q++, digits++;
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++) digits++;
    if (!digits) return 0;
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') q++;
        if (!(*q >= '0' && *q <= '9')) return 0;
        while (*q >= '0' && *q <= '9') q++;
    }
    if (*q) return 0;
    *value = strtod(text, NULL);
    return 1;
}

static int is_separator(char c) {
    return c == ',' || c == ' ' || c == '\t' || c == ';';
}

static int read_text(const unsigned char *b, size_t size, uint32_t want_rows, uint32_t want_dim, cli_table *out,
                     char *error, size_t eb) {
    const char *p = (const char *)b, *end = p + size;
    size_t cap = 1024, count = 0, dim = 0, rows = 0, line = 0;
    float *values = malloc(cap * sizeof *values);
    if (!values) return fail(error, eb, "out of memory");
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        line++;
        size_t fields = 0, first = count;
        int header = 0;
        for (const char *q = p; q < eol;) {
            while (q < eol && (is_separator(*q) || *q == '\r')) q++;
            if (q >= eol) break;
            const char *f = q;
            while (q < eol && !is_separator(*q) && *q != '\r') q++;
            double v;
            if (!parse_field(f, (size_t)(q - f), &v)) {
                if (rows == 0 && !header && fields == 0) {
                    header = 1;
                }
                if (!(rows == 0 && header)) {
                    free(values);
                    return fail(error, eb, "line %zu, field %zu: '%.*s' is not a number", line, fields + 1,
                                (int)(q - f > 40 ? 40 : q - f), f);
                }
                fields++;
                continue;
            }
            if (header) {
                free(values);
                return fail(error, eb, "line %zu mixes names and numbers", line);
            }
            if (count == cap) {
                float *grown = realloc(values, (cap *= 2) * sizeof *values);
                if (!grown) {
                    free(values);
                    return fail(error, eb, "out of memory");
                }
                values = grown;
            }
            values[count++] = (float)v;
            fields++;
        }
        p = eol + 1;
        if (header || fields == 0) continue;
        if (rows == 0)
            dim = fields;
        else if (fields != dim) {
            free(values);
            return fail(error, eb, "line %zu has %zu numbers; the first row has %zu", line, fields, dim);
        }
        (void)first;
        rows++;
    }
    if (rows == 0) {
        free(values);
        return fail(error, eb, "the text holds no numbers");
    }
    if ((want_rows && rows != want_rows) || (want_dim && dim != want_dim)) {
        free(values);
        return fail(error, eb, "the table is %zu x %zu, not the --rows/--dim given", rows, dim);
    }
    out->values = values;
    out->rows = (uint32_t)rows;
    out->dim = (uint32_t)dim;
    return 0;
}

/* ---- JSON: an array of rows of numbers, or a flat array with --rows and/or --dim ---- */

static const char *json_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* A JSON number, or NaN / Infinity / -Infinity as Python's json writes them; NULL when none is at p. */
static const char *json_number(const char *p, const char *end, double *value) {
    const char *q = p;
    if (q < end && *q == '-') q++;
    static const char *const words[] = {"NaN", "Infinity"};
    for (int k = 0; k < 2; k++) {
        size_t n = strlen(words[k]);
        if ((size_t)(end - q) >= n && !memcmp(q, words[k], n) && !(k == 0 && q != p)) {
            *value = k == 0 ? 0.0 / 0.0 : (q != p ? -1.0 : 1.0) / 0.0;
            return q + n;
        }
    }
    const char *digits = q;
    while (q < end && *q >= '0' && *q <= '9') q++;
    if (q == digits) return NULL;
    if (q < end && *q == '.') {
        const char *fraction = ++q;
        while (q < end && *q >= '0' && *q <= '9') q++;
        if (q == fraction) return NULL;
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < end && (*q == '+' || *q == '-')) q++;
        const char *exponent = q;
        while (q < end && *q >= '0' && *q <= '9') q++;
        if (q == exponent) return NULL;
    }
    char text[64];
    if ((size_t)(q - p) >= sizeof text) return NULL;
    memcpy(text, p, (size_t)(q - p));
    text[q - p] = 0;
    *value = strtod(text, NULL);
    return q;
}

static int read_json(const unsigned char *b, size_t size, uint32_t want_rows, uint32_t want_dim, cli_table *out,
                     char *error, size_t eb) {
    const char *start = (const char *)b, *end = start + size, *p = json_space(start, end);
    size_t cap = 1024, count = 0, rows = 0, dim = 0;
    float *values = malloc(cap * sizeof *values);
    if (!values) return fail(error, eb, "out of memory");
    p = json_space(p + 1, end); /* past the opening '[' */
    const int nested = p < end && *p == '[';
    int ok = 1;
    while (ok) {
        size_t in_row = 0;
        if (nested) {
            if (!(p < end && *p == '[')) break;
            p = json_space(p + 1, end);
        }
        while (p < end && *p != ']') {
            double v;
            const char *next = json_number(p, end, &v);
            if (!next) {
                ok = 0;
                break;
            }
            if (count == cap) {
                float *grown = realloc(values, (cap *= 2) * sizeof *values);
                if (!grown) {
                    free(values);
                    return fail(error, eb, "out of memory");
                }
                values = grown;
            }
            values[count++] = (float)v;
            in_row++;
            p = json_space(next, end);
            if (p < end && *p == ',')
                p = json_space(p + 1, end);
            else if (!(p < end && *p == ']'))
                ok = 0;
        }
        if (!ok || p >= end) {
            ok = 0;
            break;
        }
        p = json_space(p + 1, end); /* past ']' */
        if (!nested) break;
        rows++;
        if (rows == 1)
            dim = in_row;
        else if (in_row != dim) {
            free(values);
            return fail(error, eb, "JSON row %zu has %zu numbers; the first row has %zu", rows, in_row, dim);
        }
        if (p < end && *p == ',')
            p = json_space(p + 1, end);
        else if (p < end && *p == ']') {
            p = json_space(p + 1, end);
            break;
        } else
            ok = 0;
    }
    if (!ok || p != end) {
        free(values);
        return fail(error, eb, "not a JSON array of rows of numbers (at byte %zu)",
                    (size_t)((p < end ? p : end) - start));
    }
    if (count == 0) {
        free(values);
        return fail(error, eb, "the JSON holds no numbers");
    }
    if (!nested) { /* a flat array: the shape from --rows and/or --dim */
        if (!want_rows && !want_dim) {
            free(values);
            return fail(error, eb, "a flat JSON array needs --rows and/or --dim");
        }
        rows = want_rows ? want_rows : count / want_dim;
        dim = want_dim ? want_dim : count / want_rows;
        if (rows * dim != count) {
            free(values);
            return fail(error, eb, "the array holds %zu numbers, not --rows x --dim", count);
        }
    } else if ((want_rows && rows != want_rows) || (want_dim && dim != want_dim)) {
        free(values);
        return fail(error, eb, "the table is %zu x %zu, not the --rows/--dim given", rows, dim);
    }
    out->values = values;
    out->rows = (uint32_t)rows;
    out->dim = (uint32_t)dim;
    return 0;
}

/* Text whose first non-blank character is '[' is JSON (by content, whatever the file's name); other text is
 * CSV or whitespace-separated. */
static int is_json(const unsigned char *b, size_t size) {
    const char *p = json_space((const char *)b, (const char *)b + size);
    return p < (const char *)b + size && *p == '[';
}

int cli_read_table(const unsigned char *bytes, size_t size, const char *name, uint32_t rows, uint32_t dim,
                   cli_table *out, char *error, size_t error_bytes) {
    static const unsigned char npy[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size >= 6 && !memcmp(bytes, npy, 6)) {
        if (name)
            return fail(error, error_bytes,
                        "name picks a tensor of a .safetensors file; this is an .npy file, which holds one array");
        return cli_read_npy(bytes, size, rows, dim, out, error, error_bytes);
    }
    if (size >= 9 && bytes[8] == '{')
        return cli_read_safetensors(bytes, size, name, rows, dim, out, error, error_bytes);
    if (name) return fail(error, error_bytes, "--name is for .safetensors files");
    if (is_text(bytes, size) && is_json(bytes, size)) return read_json(bytes, size, rows, dim, out, error, error_bytes);
    if (is_text(bytes, size)) return read_text(bytes, size, rows, dim, out, error, error_bytes);
    /* raw little-endian float32 */
    if (!rows && !dim) return fail(error, error_bytes, "a raw float32 file needs --rows and/or --dim");
    if (size % 4)
        return fail(error, error_bytes, "a raw float32 file has a multiple of 4 bytes; this one has %zu", size);
    uint64_t count = size / 4;
    uint64_t r = rows ? rows : (dim ? count / dim : 0), d = dim ? dim : count / rows;
    if (r * d != count)
        return fail(error, error_bytes, "the file holds %llu floats, not --rows x --dim", (unsigned long long)count);
    return cli_decode_table(bytes, r, d, '4', 1, out, error, error_bytes);
}
