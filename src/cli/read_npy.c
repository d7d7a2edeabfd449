/* read_npy.c: a position table from NumPy's .npy format (versions 1.0, 2.0,
 * 3.0), by the rules and with the messages of src/js/learned/npy.js: the
 * header is a Python dict literal read in full (dicts, tuples, lists, strings,
 * integers, True, False, None); 'descr' one of <f2 <f4 <f8 >f2 >f4 >f8,
 * 'fortran_order' a bool, 'shape' a tuple of integers >= 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_formats.h"

#define NOT_NPY "not a valid .npy file: "

typedef enum { PY_DICT, PY_SEQUENCE, PY_STRING, PY_INT, PY_TRUE, PY_FALSE, PY_NONE } py_type;

/* A parsed value: its type; a string's text (escapes resolved, cut at 63
 * characters); a sequence's integers (the first CLI_MAX_AXES + 1) and count. */
typedef struct py_value {
    py_type type;
    char text[64];
    double number;
    uint64_t items[CLI_MAX_AXES + 1];
    int count, all_integers; /* all_integers: every item an integer >= 0 below 2^53 */
    const char *raw;         /* its text in the header, raw_length bytes */
    size_t raw_length;
} py_value;

typedef struct py_scan {
    const char *p, *end;
    int depth, latin1; /* latin1: versions 1.0 and 2.0, whose header bytes are characters U+0000 ... U+00FF */
} py_scan;

static void space(py_scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static int value(py_scan *s, py_value *v);

/* The items of a tuple or list up to `close`; 0 on a syntax error. */
static int sequence(py_scan *s, char close, py_value *v) {
    v->type = PY_SEQUENCE;
    v->count = 0;
    v->all_integers = 1;
    for (;;) {
        space(s);
        if (s->p < s->end && *s->p == close) return s->p++, 1;
        py_value *item = malloc(sizeof *item);
        if (!item || !value(s, item)) return free(item), 0;
        int integer = item->type == PY_INT && item->number >= 0 && item->number <= 9007199254740991.0;
        if (!integer) v->all_integers = 0;
        if (v->count <= CLI_MAX_AXES) v->items[v->count] = integer ? (uint64_t)item->number : 0;
        v->count++;
        free(item);
        space(s);
        if (s->p < s->end && *s->p == ',')
            s->p++;
        else if (s->p >= s->end || *s->p != close)
            return 0;
    }
}

/* One character of a string at *p (a byte; latin-1 headers' bytes are
 * U+0000 ... U+00FF, UTF-8 ones pass as they are) as the messages quote it:
 * JSON.stringify's escapes (cli_json_char), so a NUL reads \\u0000 in both
 * CLIs instead of cutting C's text short. */
static size_t message_char(const py_scan *s, char c, char *piece) {
    const unsigned char u = (unsigned char)c;
    return u < 0x80 || s->latin1 ? cli_json_char(u, piece) : (piece[0] = c, 1);
}

static int string(py_scan *s, char quote, py_value *v) {
    size_t n = 0;
    v->type = PY_STRING;
    for (;;) {
        if (s->p >= s->end) return 0;
        char c = *s->p++, piece[8];
        if (c == quote) break;
        if (c == '\\') {
            if (s->p >= s->end) return 0;
            c = *s->p++;
        }
        const size_t length = message_char(s, c, piece);
        if (n + length < sizeof v->text) memcpy(v->text + n, piece, length), n += length;
    }
    v->text[n] = 0;
    return 1;
}

/* The header dict: the three keys npy.js reads, in *descr, *fortran, *shape (type -1 when absent). */
static int dict(py_scan *s, py_value *v, py_value *descr, py_value *fortran, py_value *shape) {
    v->type = PY_DICT;
    for (;;) {
        space(s);
        if (s->p < s->end && *s->p == '}') return s->p++, 1;
        py_value key, *item = malloc(sizeof *item);
        if (!item) return 0;
        int ok = value(s, &key) && key.type == PY_STRING;
        space(s);
        ok = ok && s->p < s->end && *s->p++ == ':' && value(s, item);
        if (ok && descr && !strcmp(key.text, "descr")) *descr = *item;
        if (ok && fortran && !strcmp(key.text, "fortran_order")) *fortran = *item;
        if (ok && shape && !strcmp(key.text, "shape")) *shape = *item;
        free(item);
        if (!ok) return 0;
        space(s);
        if (s->p < s->end && *s->p == ',')
            s->p++;
        else if (s->p >= s->end || *s->p != '}')
            return 0;
    }
}

static int value(py_scan *s, py_value *v) {
    space(s);
    if (s->p >= s->end || ++s->depth > 256) return 0;
    char c = *s->p;
    int ok;
    v->raw = s->p;
    if (c == '{')
        s->p++, ok = dict(s, v, NULL, NULL, NULL);
    else if (c == '(' || c == '[')
        s->p++, ok = sequence(s, c == '(' ? ')' : ']', v);
    else if (c == '\'' || c == '"')
        s->p++, ok = string(s, c, v);
    else {
        static const char *const WORDS[] = {"True", "False", "None"};
        static const py_type TYPES[] = {PY_TRUE, PY_FALSE, PY_NONE};
        ok = 0;
        for (int k = 0; k < 3 && !ok; k++) {
            size_t n = strlen(WORDS[k]);
            if ((size_t)(s->end - s->p) >= n && !memcmp(s->p, WORDS[k], n)) s->p += n, v->type = TYPES[k], ok = 1;
        }
        const char *q = s->p + (!ok && (c == '-' || c == '+'));
        if (!ok && q < s->end && *q >= '0' && *q <= '9') { /* [-+]?\d+[lL]? as Number() reads it */
            char digits[48];
            size_t n = 0;
            while (q < s->end && *q >= '0' && *q <= '9') {
                if (n + 1 < sizeof digits) digits[n++] = *q;
                q++;
            }
            digits[n] = 0;
            v->number = strtod(digits, NULL) * (c == '-' ? -1 : 1);
            if (q < s->end && (*q == 'l' || *q == 'L')) q++;
            s->p = q, v->type = PY_INT, ok = 1;
        }
    }
    v->raw_length = (size_t)(s->p - v->raw);
    s->depth--;
    return ok;
}

/* JSON.stringify of the value npy.js made of a literal: tuples as lists,
 * 'text' as "text", True/False/None as true/false/null, no L suffix or '+',
 * no spaces between tokens and no trailing commas. */
static void show(const py_scan *s, const py_value *v, char *out, size_t bytes) {
    size_t n = 0;
    const char *p = v->raw, *end = v->raw + v->raw_length;
    while (p < end && n + 8 < bytes) {
        char c = *p++;
        if (c == '\'' || c == '"') {
            out[n++] = '"';
            while (p < end && *p != c && n + 10 < bytes) {
                if (*p == '\\' && p + 1 < end) p++;
                n += message_char(s, *p++, out + n);
            }
            p++;
            out[n++] = '"';
        } else if (c == ',') {
            const char *q = p;
            while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
            if (q < end && *q != ')' && *q != ']' && *q != '}') out[n++] = ',';
        } else if (c == '(' || c == ')') {
            out[n++] = c == '(' ? '[' : ']';
        } else if (c == 'T' || c == 'F' || c == 'N') {
            const char *word = c == 'T' ? "true" : c == 'F' ? "false" : "null";
            n += (size_t)snprintf(out + n, bytes - n, "%s", word);
            p += strlen(word) - 1 + (c == 'N');
        } else if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 'l' || c == 'L' || c == '+')) {
            out[n++] = c;
        }
    }
    out[n] = 0;
}

int cli_read_npy(const unsigned char *b, size_t size, uint32_t want_rows, uint32_t want_dim, cli_table *out,
                 char *error, size_t eb) {
    if (size < 10) return cli_read_fail(error, eb, NOT_NPY "the file ends after %zu bytes, inside the preamble", size);
    int major = b[6], minor = b[7];
    if (major < 1 || major > 3)
        return cli_read_fail(error, eb, NOT_NPY "format version %d.%d is not 1.0, 2.0 or 3.0", major, minor);
    size_t start = major >= 2 ? 12 : 10;
    if (size < start)
        return cli_read_fail(error, eb, NOT_NPY "the file ends after %zu bytes, inside the preamble", size);
    uint64_t length = major >= 2 ? (uint64_t)b[8] | (uint64_t)b[9] << 8 | (uint64_t)b[10] << 16 | (uint64_t)b[11] << 24
                                 : (uint64_t)b[8] | (uint64_t)b[9] << 8;
    if (start + length > size)
        return cli_read_fail(error, eb,
                             NOT_NPY "the header says it is %llu bytes long but the file ends %zu bytes after the "
                                     "preamble",
                             (unsigned long long)length, size - start);
    if (major == 3 && !cli_utf8_valid(b + start, (size_t)length))
        return cli_read_fail(error, eb, NOT_NPY "the version 3.0 header is not UTF-8");
    py_scan s = {(const char *)b + start, (const char *)b + start + length, 0, major < 3};
    py_value *top = malloc(4 * sizeof *top);
    if (!top) return cli_read_fail(error, eb, "out of memory");
    py_value *descr = top + 1, *fortran = top + 2, *shape = top + 3;
    descr->type = fortran->type = shape->type = (py_type)-1;
    space(&s);
    int ok;
    if (s.p < s.end && *s.p == '{')
        s.p++, ok = dict(&s, top, descr, fortran, shape);
    else
        ok = value(&s, top);
    space(&s);
    int code = 0;
    char text[512];
    if (!ok || s.p != s.end) /* npy.js adds the parser's own words and the header's first 80 characters */
        code = cli_read_fail(error, eb, NOT_NPY "the header is not a Python dict literal");
    else if (top->type != PY_DICT)
        code = cli_read_fail(error, eb, NOT_NPY "the header is not a dict");
    else if ((int)descr->type < 0 || (int)fortran->type < 0 || (int)shape->type < 0)
        code = cli_read_fail(error, eb, NOT_NPY "the header has no '%s' key",
                             (int)descr->type < 0     ? "descr"
                             : (int)fortran->type < 0 ? "fortran_order"
                                                      : "shape");
    else if (descr->type != PY_STRING)
        code = cli_read_fail(error, eb,
                             "the .npy array has a structured dtype; a position table must be float16, float32 or "
                             "float64");
    else if (strlen(descr->text) != 3 || (descr->text[0] != '<' && descr->text[0] != '>') || descr->text[1] != 'f' ||
             !strchr("248", descr->text[2]))
        code = cli_read_fail(error, eb,
                             "the .npy array has dtype '%s'; supported: float16, float32, float64 in either byte order "
                             "('<f2', '<f4', '<f8', '>f2', '>f4', '>f8')",
                             descr->text);
    else if (fortran->type != PY_TRUE && fortran->type != PY_FALSE)
        show(&s, fortran, text, sizeof text),
            code = cli_read_fail(error, eb, NOT_NPY "'fortran_order' must be True or False; got %s", text);
    else if (shape->type != PY_SEQUENCE || !shape->all_integers)
        show(&s, shape, text, sizeof text),
            code = cli_read_fail(error, eb, NOT_NPY "'shape' must be a tuple of integers ≥ 0; got %s", text);
    int axes = shape->count;
    if (!code && fortran->type == PY_TRUE) {
        int spread = 0;
        for (int k = 0; k < axes && k <= CLI_MAX_AXES; k++) spread += shape->items[k] != 1;
        cli_shape_text(shape->items, axes <= CLI_MAX_AXES ? axes : CLI_MAX_AXES, text, sizeof text);
        if (spread > 1)
            code = cli_read_fail(error, eb,
                                 "the .npy array %s is stored in Fortran (column-major) order; save it in C order, "
                                 "e.g. np.save(path, np.ascontiguousarray(table))",
                                 text);
    }
    uint64_t rows = 0, dim = 0;
    if (!code)
        code = cli_tensor_shape("the .npy array", shape->items, axes, want_rows, want_dim, &rows, &dim, error, eb);
    char kind = descr->text[2];
    int element = kind - '0', little = descr->text[0] == '<';
    size_t available = size - start - (size_t)length;
    if (!code && cli_element_count(shape->items, axes, element, available) < 0) {
        double needs = element;
        for (int k = 0; k < axes; k++) needs *= (double)shape->items[k];
        char bytes[48];
        cli_js_integer(needs, bytes, sizeof bytes);
        cli_shape_text(shape->items, axes, text, sizeof text);
        code = cli_read_fail(error, eb,
                             NOT_NPY "the data is truncated: shape %s of '%s' needs %s bytes after the header, the "
                                     "file has %zu",
                             text, descr->text, bytes, available);
    }
    free(top);
    if (code) return code;
    return cli_decode_table(b + start + length, rows, dim, kind, little, out, error, eb);
}
