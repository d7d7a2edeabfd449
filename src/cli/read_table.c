/* read_table.c: see read_table.h. Small, strict readers: anything they do not
 * understand is refused with a message, never guessed. */
#include "read_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *error, size_t bytes, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(error, bytes, format, args);
    va_end(args);
    return 1;
}

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

/* rows x dim from a shape after dropping leading axes of size 1; 0 when not 2-D. */
static int table_shape(const uint64_t *shape, int axes, uint64_t *rows, uint64_t *dim) {
    while (axes > 2 && shape[0] == 1) shape++, axes--;
    if (axes != 2) return 0;
    *rows = shape[0];
    *dim = shape[1];
    return 1;
}

static int finish(const unsigned char *data, size_t available, uint64_t rows, uint64_t dim, char kind, int little,
                  uint32_t want_rows, uint32_t want_dim, cli_table *out, char *error, size_t error_bytes) {
    int size = kind == '8' ? 8 : kind == '4' ? 4 : 2;
    if (rows > UINT32_MAX || dim > UINT32_MAX || (dim && rows > (uint64_t)(SIZE_MAX / 8) / dim))
        return fail(error, error_bytes, "the table (%llu x %llu) is too large", (unsigned long long)rows,
                    (unsigned long long)dim);
    if (rows * dim * size > available)
        return fail(error, error_bytes, "the data is truncated: %llu x %llu values need %llu bytes, the file has %zu",
                    (unsigned long long)rows, (unsigned long long)dim, (unsigned long long)(rows * dim * size),
                    available);
    if ((want_rows && rows != want_rows) || (want_dim && dim != want_dim))
        return fail(error, error_bytes, "the table is %llu x %llu, not the --rows/--dim given",
                    (unsigned long long)rows, (unsigned long long)dim);
    out->rows = (uint32_t)rows;
    out->dim = (uint32_t)dim;
    out->values = malloc(rows * dim * sizeof(float) + 1);
    if (!out->values) return fail(error, error_bytes, "out of memory");
    decode(data, rows * dim, kind, little, out->values);
    return 0;
}

/* ---- .npy ---- */

static int read_npy(const unsigned char *b, size_t size, uint32_t want_rows, uint32_t want_dim, cli_table *out,
                    char *error, size_t eb) {
    if (size < 10 || b[6] < 1 || b[6] > 3) return fail(error, eb, ".npy: not version 1.0, 2.0 or 3.0");
    size_t start = b[6] >= 2 ? 12 : 10;
    if (size < start) return fail(error, eb, ".npy: truncated preamble");
    size_t length = b[6] >= 2 ? (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24
                              : (size_t)b[8] | (size_t)b[9] << 8;
    if (start + length > size) return fail(error, eb, ".npy: the header runs past the end of the file");
    char *header = malloc(length + 1);
    if (!header) return fail(error, eb, "out of memory");
    memcpy(header, b + start, length);
    header[length] = 0;
    const char *descr = strstr(header, "'descr'"), *fortran = strstr(header, "'fortran_order'"),
               *shape = strstr(header, "'shape'");
    char kind = 0;
    int little = 1, axes = 0, ok = descr && fortran && shape;
    uint64_t dims[8];
    if (ok) {
        const char *q = strchr(descr + 7, '\'');
        ok = q && (q[1] == '<' || q[1] == '>' || q[1] == '|') && q[2] == 'f' &&
             (q[3] == '2' || q[3] == '4' || q[3] == '8') && q[4] == '\'';
        if (ok)
            kind = q[3], little = q[1] != '>';
        else
            fail(error, eb, ".npy: the dtype must be float16, float32 or float64");
    } else {
        fail(error, eb, ".npy: the header lacks 'descr', 'fortran_order' or 'shape'");
    }
    if (ok && strstr(fortran, "True") && strstr(fortran, "True") < shape + 999) {
        const char *t = strstr(fortran, "True"), *f = strstr(fortran, "False");
        if (!f || t < f) ok = 0, fail(error, eb, ".npy: the array is in Fortran order; save it in C order");
    }
    if (ok) {
        const char *p = strchr(shape, '(');
        ok = p != NULL;
        for (p = p ? p + 1 : p; ok && *p && *p != ')';) {
            if (*p == ' ' || *p == ',') {
                p++;
                continue;
            }
            char *end;
            unsigned long long n = strtoull(p, &end, 10);
            if (end == p || axes == 8) {
                ok = 0;
                break;
            }
            dims[axes++] = n;
            p = end;
        }
        if (!ok) fail(error, eb, ".npy: cannot read the shape");
    }
    free(header);
    if (!ok) return 1;
    uint64_t rows, dim;
    if (!table_shape(dims, axes, &rows, &dim)) return fail(error, eb, ".npy: the array is not 2-D (rows, dim)");
    return finish(b + start + length, size - start - length, rows, dim, kind, little, want_rows, want_dim, out, error,
                  eb);
}

/* ---- .safetensors (a small JSON scanner for its header) ---- */

typedef struct scan {
    const char *p, *end;
} scan;

static void skip_space(scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t')) s->p++;
}

/* A JSON string without escapes into out (cut at out_bytes); 0 when not a string. */
static int scan_string(scan *s, char *out, size_t out_bytes) {
    skip_space(s);
    if (s->p >= s->end || *s->p != '"') return 0;
    size_t n = 0;
    for (s->p++; s->p < s->end && *s->p != '"'; s->p++) {
        if (*s->p == '\\') s->p++;
        if (n + 1 < out_bytes) out[n++] = *s->p;
    }
    if (out_bytes) out[n] = 0;
    if (s->p >= s->end) return 0;
    s->p++;
    return 1;
}

/* Skips any JSON value. */
static int skip_value(scan *s) {
    skip_space(s);
    int depth = 0;
    char tmp[2];
    do {
        if (s->p >= s->end) return 0;
        if (*s->p == '"') {
            if (!scan_string(s, tmp, sizeof tmp)) return 0;
            continue;
        }
        if (*s->p == '{' || *s->p == '[')
            depth++;
        else if (*s->p == '}' || *s->p == ']')
            depth--;
        else if (depth == 0 && (*s->p == ','))
            return 1;
        s->p++;
    } while (depth > 0 || (s->p < s->end && *s->p != ',' && *s->p != '}' && *s->p != ']'));
    return 1;
}

static int scan_numbers(scan *s, uint64_t *out, int max) {
    skip_space(s);
    if (s->p >= s->end || *s->p != '[') return -1;
    int n = 0;
    for (s->p++;;) {
        skip_space(s);
        if (s->p < s->end && *s->p == ']') {
            s->p++;
            return n;
        }
        char *end;
        unsigned long long v = strtoull(s->p, &end, 10);
        if (end == s->p || n == max) return -1;
        out[n++] = v;
        s->p = end;
        skip_space(s);
        if (s->p < s->end && *s->p == ',') s->p++;
    }
}

static int read_safetensors(const unsigned char *b, size_t size, const char *name, uint32_t want_rows,
                            uint32_t want_dim, cli_table *out, char *error, size_t eb) {
    uint64_t length = 0;
    for (int k = 7; k >= 0; k--) length = length << 8 | b[k];
    if (length > size - 8) return fail(error, eb, ".safetensors: the header runs past the end of the file");
    scan s = {(const char *)b + 8, (const char *)b + 8 + length};
    skip_space(&s);
    if (s.p >= s.end || *s.p != '{') return fail(error, eb, ".safetensors: the header is not a JSON object");
    s.p++;
    char key[256], dtype[16], found_dtype[16] = "";
    uint64_t shape[8], offsets[2], found_shape[8], found_offsets[2] = {0, 0};
    int tensors = 0, found = 0, found_axes = 0;
    for (;;) {
        skip_space(&s);
        if (s.p < s.end && *s.p == '}') break;
        if (!scan_string(&s, key, sizeof key)) return fail(error, eb, ".safetensors: cannot read the header");
        skip_space(&s);
        if (s.p >= s.end || *s.p != ':') return fail(error, eb, ".safetensors: cannot read the header");
        s.p++;
        if (!strcmp(key, "__metadata__")) {
            if (!skip_value(&s)) return fail(error, eb, ".safetensors: cannot read the header");
        } else {
            tensors++;
            skip_space(&s);
            if (s.p >= s.end || *s.p != '{')
                return fail(error, eb, ".safetensors: the entry of \"%s\" is not an object", key);
            s.p++;
            int axes = -1, offset_count = -1;
            dtype[0] = 0;
            for (;;) {
                char field[32];
                skip_space(&s);
                if (s.p < s.end && *s.p == '}') {
                    s.p++;
                    break;
                }
                if (!scan_string(&s, field, sizeof field))
                    return fail(error, eb, ".safetensors: cannot read the header");
                skip_space(&s);
                if (s.p >= s.end || *s.p != ':') return fail(error, eb, ".safetensors: cannot read the header");
                s.p++;
                if (!strcmp(field, "dtype"))
                    scan_string(&s, dtype, sizeof dtype);
                else if (!strcmp(field, "shape"))
                    axes = scan_numbers(&s, shape, 8);
                else if (!strcmp(field, "data_offsets"))
                    offset_count = scan_numbers(&s, offsets, 2);
                else if (!skip_value(&s))
                    return fail(error, eb, ".safetensors: cannot read the header");
                skip_space(&s);
                if (s.p < s.end && *s.p == ',') s.p++;
            }
            if ((name && !strcmp(name, key)) || (!name && tensors == 1)) {
                if (axes < 0 || offset_count != 2)
                    return fail(error, eb, ".safetensors: \"%s\" lacks a shape or data_offsets", key);
                found = 1;
                found_axes = axes;
                memcpy(found_shape, shape, sizeof shape);
                memcpy(found_offsets, offsets, sizeof offsets);
                memcpy(found_dtype, dtype, sizeof dtype);
            }
        }
        skip_space(&s);
        if (s.p < s.end && *s.p == ',') s.p++;
    }
    if (!name && tensors != 1)
        return fail(error, eb, ".safetensors: the file holds %d tensors; pick one with --name", tensors);
    if (!found) return fail(error, eb, ".safetensors: no tensor named \"%s\"", name);
    char kind = !strcmp(found_dtype, "F32")    ? '4'
                : !strcmp(found_dtype, "F16")  ? '2'
                : !strcmp(found_dtype, "BF16") ? 'b'
                : !strcmp(found_dtype, "F64")  ? '8'
                                               : 0;
    if (!kind) return fail(error, eb, ".safetensors: dtype %s; supported: F32, F16, BF16, F64", found_dtype);
    uint64_t rows, dim;
    if (!table_shape(found_shape, found_axes, &rows, &dim))
        return fail(error, eb, ".safetensors: the tensor is not 2-D (rows, dim)");
    size_t data = 8 + length;
    if (found_offsets[0] > found_offsets[1] || found_offsets[1] > size - data)
        return fail(error, eb, ".safetensors: the tensor's data_offsets run past the end of the file");
    return finish(b + data + found_offsets[0], found_offsets[1] - found_offsets[0], rows, dim, kind, 1, want_rows,
                  want_dim, out, error, eb);
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

int cli_read_table(const unsigned char *bytes, size_t size, const char *name, uint32_t rows, uint32_t dim,
                   cli_table *out, char *error, size_t error_bytes) {
    static const unsigned char npy[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size >= 6 && !memcmp(bytes, npy, 6)) {
        if (name) return fail(error, error_bytes, "--name picks a tensor of a .safetensors file; this is an .npy file");
        return read_npy(bytes, size, rows, dim, out, error, error_bytes);
    }
    if (size >= 9 && bytes[8] == '{') return read_safetensors(bytes, size, name, rows, dim, out, error, error_bytes);
    if (name) return fail(error, error_bytes, "--name is for .safetensors files");
    if (is_text(bytes, size)) return read_text(bytes, size, rows, dim, out, error, error_bytes);
    /* raw little-endian float32 */
    if (!rows && !dim) return fail(error, error_bytes, "a raw float32 file needs --rows and/or --dim");
    if (size % 4)
        return fail(error, error_bytes, "a raw float32 file has a multiple of 4 bytes; this one has %zu", size);
    uint64_t count = size / 4;
    uint64_t r = rows ? rows : (dim ? count / dim : 0), d = dim ? dim : count / rows;
    if (r * d != count)
        return fail(error, error_bytes, "the file holds %llu floats, not --rows x --dim", (unsigned long long)count);
    return finish(bytes, size, r, d, '4', 1, 0, 0, out, error, error_bytes);
}
