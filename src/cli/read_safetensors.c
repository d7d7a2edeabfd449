/* read_safetensors.c: one tensor of a .safetensors file as a position table,
 * by the rules and with the messages of src/js/learned/safetensors.js and
 * safetensors-rules.js: an 8-byte header length, a UTF-8 JSON object header
 * read in full (strict JSON), unique names, a __metadata__ of strings,
 * data_offsets that tile the data exactly, F16/BF16/F32/F64 tensors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_formats.h"

#define NOT_ST       "not a valid .safetensors file: "
#define MAX_TENSORS  4096
#define NAMES_SHOWN  20
#define SAFE_INTEGER 9007199254740991.0

typedef enum { J_OBJECT, J_ARRAY, J_STRING, J_NUMBER, J_TRUE, J_FALSE, J_NULL, J_MISSING } json_type;

/* A value as the checks need it: type, a string's text, an array's items
 * (the first CLI_MAX_AXES + 1) and whether all are integers >= 0 below 2^53;
 * an object's dtype / shape / data_offsets fields, when asked for. */
typedef struct json_value {
    json_type type;
    char text[64];
    double number;
    double items[CLI_MAX_AXES + 1];
    int count, all_integers, all_strings; /* all_strings: an object whose values are all strings */
    const char *raw;                      /* its text in the header, raw_length bytes */
    size_t raw_length;
} json_value;

typedef struct entry {
    char name[256];
    json_value value, dtype, shape, offsets;
} entry;

typedef struct json_scan {
    const char *p, *end;
    int depth;
} json_scan;

static void space(json_scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static int literal(json_scan *s, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n)) return 0;
    s->p += n;
    return 1;
}

/* Four hex digits of a \\u escape into *u. */
static int hex4(json_scan *s, uint32_t *u) {
    *u = 0;
    for (int k = 0; k < 4; k++, s->p++) {
        const char *digits = "0123456789abcdef", *at;
        if (s->p >= s->end || !*s->p || !(at = strchr(digits, *s->p | 32))) return 0;
        *u = *u << 4 | (uint32_t)(at - digits);
    }
    return 1;
}

/* A JSON string kept as JSON.stringify writes it between quotes: escapes
 * decoded ("\\u0031" is 1, a surrogate pair one character), then the
 * characters that need one re-escaped (cli_json_char). So names compare as
 * the decoded strings do, a NUL never cuts one short, and messages quote them
 * as the package's show() and printable() do. Cut before the first character
 * that would pass out_bytes - 1. */
static int string(json_scan *s, char *out, size_t out_bytes) {
    size_t n = 0;
    int full = 0;
    if (s->p >= s->end || *s->p != '"') return 0;
    for (s->p++;;) {
        if (s->p >= s->end || (unsigned char)*s->p < 0x20) return 0;
        char c = *s->p++, piece[8];
        size_t length = 1;
        if (c == '"') break;
        piece[0] = c; /* ASCII, or a byte of a UTF-8 character: as it is */
        if (c == '\\') {
            if (s->p >= s->end) return 0;
            c = *s->p++;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            uint32_t u, low;
            if (c == 'u') {
                if (!hex4(s, &u)) return 0;
                json_scan next = *s;
                if (u >= 0xd800 && u < 0xdc00 && next.end - next.p >= 6 && next.p[0] == '\\' && next.p[1] == 'u' &&
                    (next.p += 2, hex4(&next, &low)) && low >= 0xdc00 && low <= 0xdfff)
                    *s = next, u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
            } else if (c && strchr(from, c)) {
                u = (unsigned char)to[strchr(from, c) - from];
            } else {
                return 0;
            }
            length = cli_json_char(u, piece);
        }
        if (full || n + length >= out_bytes)
            full = 1;
        else
            memcpy(out + n, piece, length), n += length;
    }
    out[n] = 0;
    return 1;
}

static int number(json_scan *s, double *value) {
    const char *start = s->p;
    if (s->p < s->end && *s->p == '-') s->p++;
    if (s->p >= s->end || *s->p < '0' || *s->p > '9') return 0;
    if (*s->p == '0')
        s->p++;
    else
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    if (s->p < s->end && *s->p == '.') {
        if (++s->p >= s->end || *s->p < '0' || *s->p > '9') return 0;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
        if (s->p >= s->end || *s->p < '0' || *s->p > '9') return 0;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    }
    char text[64];
    size_t n = (size_t)(s->p - start) < sizeof text - 1 ? (size_t)(s->p - start) : sizeof text - 1;
    memcpy(text, start, n);
    text[n] = 0;
    *value = strtod(text, NULL);
    return 1;
}

static int value(json_scan *s, json_value *v, entry *fields);

/* An object's members; with fields, its dtype, shape and data_offsets land there. */
static int object(json_scan *s, json_value *v, entry *fields) {
    v->type = J_OBJECT;
    v->all_strings = 1;
    space(s);
    if (s->p < s->end && *s->p == '}') return s->p++, 1;
    for (;;) {
        char key[64];
        json_value *member = malloc(sizeof *member);
        space(s);
        int ok = member && string(s, key, sizeof key);
        space(s);
        ok = ok && s->p < s->end && *s->p++ == ':' && value(s, member, NULL);
        if (ok && member->type != J_STRING) v->all_strings = 0;
        if (ok && fields && !strcmp(key, "dtype")) fields->dtype = *member;
        if (ok && fields && !strcmp(key, "shape")) fields->shape = *member;
        if (ok && fields && !strcmp(key, "data_offsets")) fields->offsets = *member;
        free(member);
        if (!ok) return 0;
        space(s);
        if (s->p < s->end && *s->p == ',')
            s->p++;
        else
            return s->p < s->end && *s->p++ == '}';
    }
}

static int array(json_scan *s, json_value *v) {
    v->type = J_ARRAY;
    v->count = 0;
    v->all_integers = 1;
    space(s);
    if (s->p < s->end && *s->p == ']') return s->p++, 1;
    for (;;) {
        json_value *item = malloc(sizeof *item);
        int ok = item && value(s, item, NULL);
        if (ok) {
            double n = item->number;
            int integer = item->type == J_NUMBER && n >= 0 && n <= SAFE_INTEGER && n == (double)(uint64_t)n;
            if (!integer) v->all_integers = 0;
            if (v->count <= CLI_MAX_AXES) v->items[v->count] = item->type == J_NUMBER ? n : -1;
            v->count++;
        }
        free(item);
        if (!ok) return 0;
        space(s);
        if (s->p < s->end && *s->p == ',')
            s->p++;
        else
            return s->p < s->end && *s->p++ == ']';
    }
}

static int value(json_scan *s, json_value *v, entry *fields) {
    space(s);
    if (s->p >= s->end || ++s->depth > 256) return 0;
    int ok;
    v->raw = s->p;
    char c = *s->p;
    if (c == '{')
        s->p++, ok = object(s, v, fields);
    else if (c == '[')
        s->p++, ok = array(s, v);
    else if (c == '"')
        v->type = J_STRING, ok = string(s, v->text, sizeof v->text);
    else if (literal(s, "true"))
        v->type = J_TRUE, ok = 1;
    else if (literal(s, "false"))
        v->type = J_FALSE, ok = 1;
    else if (literal(s, "null"))
        v->type = J_NULL, ok = 1;
    else
        v->type = J_NUMBER, ok = number(s, &v->number);
    v->raw_length = (size_t)(s->p - v->raw);
    s->depth--;
    return ok;
}

/* A double as JavaScript's String(x) prints it: the shortest digits that
 * read back, positional from 1e-7 to below 1e21, else d.ddde+NN / e-NN. */
static void js_number(double x, char *out, size_t bytes) {
    if (x == (double)(int64_t)x && x > -1e21 && x < 1e21) {
        char digits[32];
        cli_js_integer(x < 0 ? -x : x, digits, sizeof digits);
        snprintf(out, bytes, "%s%s", x < 0 ? "-" : "", digits);
        return;
    }
    char e[32];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, x);
        if (strtod(e, NULL) == x) break;
    }
    snprintf(e, sizeof e, "%.*e", p - 1, x);
    int exponent = atoi(strchr(e, 'e') + 1);
    if (exponent >= -7 + 1 && exponent < 21) {
        snprintf(out, bytes, "%.*f", p - 1 - exponent > 0 ? p - 1 - exponent : 0, x);
    } else {
        *strchr(e, 'e') = 0;
        snprintf(out, bytes, "%se%c%d", e, exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    }
}

/* JSON.stringify of what the messages show: the value's text without the
 * spaces between tokens ("undefined" when missing), at most bytes - 1 long. */
static void show(const json_value *v, char *out, size_t bytes) {
    if (v->type == J_MISSING) {
        snprintf(out, bytes, "undefined");
        return;
    }
    size_t n = 0;
    for (size_t k = 0; k < v->raw_length && n + 1 < bytes; k++) {
        char c = v->raw[k];
        json_scan scan = {v->raw + k, v->raw + v->raw_length, 0};
        char kept[256];
        if (c == '"' && string(&scan, kept, sizeof kept)) { /* a string as JSON.stringify writes it */
            n += (size_t)snprintf(out + n, bytes - n, "\"%s\"", kept);
            if (n >= bytes) n = bytes - 1;
            k = (size_t)(scan.p - v->raw) - 1;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) { /* a number as JavaScript prints it: 8e12 -> 8000000000000 */
            char *after;
            double x = strtod(v->raw + k, &after);
            char text[64];
            js_number(x, text, sizeof text);
            n += (size_t)snprintf(out + n, bytes - n, "%s", text);
            if (n >= bytes) n = bytes - 1;
            k = (size_t)(after - v->raw) - 1;
            continue;
        }
        if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r')) out[n++] = c;
    }
    out[n] = 0;
}

static int valid_offsets(const json_value *o) {
    return o->type == J_ARRAY && o->count == 2 && o->all_integers && o->items[0] <= o->items[1];
}

/* "it holds N tensors: "pos", "a", …" with names that look positional first (safetensors.js listNames). */
static void list_names(const entry *entries, int count, char *out, size_t bytes) {
    if (count == 0) {
        snprintf(out, bytes, "it holds no tensors");
        return;
    }
    size_t at = (size_t)snprintf(out, bytes, "it holds %d tensor%s: ", count, count == 1 ? "" : "s");
    int shown = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < count && shown < NAMES_SHOWN && at < bytes; k++) {
            const char *n = entries[k].name;
            int positional = 0;
            for (const char *c = n; c[0] && c[1] && c[2] && !positional; c++)
                positional = (c[0] | 32) == 'p' && (c[1] | 32) == 'o' && (c[2] | 32) == 's';
            if (positional != (pass == 0)) continue;
            at += (size_t)snprintf(out + at, bytes - at, "%s\"%s\"", shown ? ", " : "", n);
            shown++;
        }
    }
    if (count > NAMES_SHOWN && at < bytes) snprintf(out + at, bytes - at, " and %d more", count - NAMES_SHOWN);
}

/* The header's checks, in safetensors.js's order; 0 with *picked, or 1 with the message. */
static int check(const entry *entries, int count, const char *duplicate, const json_value *metadata, size_t data,
                 const char *name, const entry **picked, char *error, size_t eb) {
    for (int k = 0; k < count; k++) { /* checkComplete */
        const json_value *o = entries[k].value.type == J_OBJECT ? &entries[k].offsets : NULL;
        if (o && o->type == J_ARRAY && o->count >= 2 && o->items[1] > (double)data &&
            o->items[1] == (double)(uint64_t)o->items[1] && o->items[1] <= SAFE_INTEGER)
            return cli_read_fail(error, eb,
                                 NOT_ST "tensor \"%s\" ends at byte %.0f of the data, but the file holds only %zu "
                                        "bytes of data (truncated?)",
                                 entries[k].name, o->items[1], data);
    }
    if (duplicate)
        return cli_read_fail(error, eb, NOT_ST "the header names \"%s\" twice; names must be unique", duplicate);
    if (metadata->type != J_MISSING && !(metadata->type == J_OBJECT && metadata->all_strings)) {
        char got[81]; /* safetensors-rules.js shows 80 characters */
        show(metadata, got, sizeof got);
        return cli_read_fail(error, eb, NOT_ST "__metadata__ must be an object of strings; got %s", got);
    }
    const entry *order[MAX_TENSORS];
    for (int k = 0; k < count; k++) {
        const entry *e = &entries[k];
        if (e->value.type != J_OBJECT)
            return cli_read_fail(error, eb, NOT_ST "the header entry of tensor \"%s\" is not an object", e->name);
        if (!valid_offsets(&e->offsets)) {
            char got[128];
            show(&e->offsets, got, sizeof got);
            return cli_read_fail(error, eb,
                                 NOT_ST "the data_offsets of tensor \"%s\" must be [begin, end] with 0 ≤ begin ≤ end; "
                                        "got %s",
                                 e->name, got);
        }
        /* insertion sort by (begin, end), stable as JS's sort */
        int at = k;
        while (at > 0 && (order[at - 1]->offsets.items[0] > e->offsets.items[0] ||
                          (order[at - 1]->offsets.items[0] == e->offsets.items[0] &&
                           order[at - 1]->offsets.items[1] > e->offsets.items[1])))
            order[at] = order[at - 1], at--;
        order[at] = e;
    }
    double next = 0;
    for (int k = 0; k < count; k++) {
        double begin = order[k]->offsets.items[0];
        if (begin != next)
            return cli_read_fail(error, eb,
                                 NOT_ST "tensor \"%s\" starts at byte %.0f of the data where byte %.0f was next: the "
                                        "data_offsets must tile the data in order, without %s",
                                 order[k]->name, begin, next, begin < next ? "overlap" : "gaps");
        next = order[k]->offsets.items[1];
    }
    if (next != (double)data)
        return cli_read_fail(error, eb,
                             NOT_ST "the tensors' data ends at byte %.0f but the file holds %zu bytes of data; the "
                                    "data_offsets must cover the data exactly",
                             next, data);
    char names[2048];
    if (!name && count != 1) {
        list_names(entries, count, names, sizeof names);
        return cli_read_fail(error, eb, "name must say which tensor to read: %s", names);
    }
    *picked = NULL;
    for (int k = 0; k < count && name; k++)
        if (!strcmp(entries[k].name, name)) *picked = &entries[k];
    if (!name) *picked = &entries[0];
    if (!*picked) {
        list_names(entries, count, names, sizeof names);
        return cli_read_fail(error, eb, "this .safetensors file has no tensor named \"%s\"; %s", name, names);
    }
    return 0;
}

/* --name kept as string() keeps the header's names (a quote as \\", a tab as
 * \\t), so the two compare and the message quotes it as JSON.stringify does. */
static void kept_name(const char *name, char *out, size_t out_bytes) {
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        char piece[8];
        const size_t length = *c < 0x80 ? cli_json_char(*c, piece) : (piece[0] = (char)*c, 1);
        if (n + length >= out_bytes) break;
        memcpy(out + n, piece, length), n += length;
    }
    out[n] = 0;
}

int cli_read_safetensors(const unsigned char *b, size_t size, const char *name, uint32_t want_rows, uint32_t want_dim,
                         cli_table *out, char *error, size_t eb) {
    char wanted[256];
    if (name) kept_name(name, wanted, sizeof wanted), name = wanted;
    uint64_t length = 0;
    for (int k = 7; k >= 0; k--) length = length << 8 | b[k];
    if (length > size - 8) {
        char text[48]; /* safetensors.js reads the length as a double (rounded past 2^53) */
        cli_js_integer((double)(length >> 32) * 4294967296.0 + (double)(length & 0xffffffffu), text, sizeof text);
        return cli_read_fail(error, eb,
                             NOT_ST "the header length is %s bytes but only %zu bytes follow it (truncated, or not "
                                    "a .safetensors file)",
                             text, size - 8);
    }
    json_scan s = {(const char *)b + 8, (const char *)b + 8 + length, 0};
    entry *entries = malloc(MAX_TENSORS * sizeof *entries);
    json_value *metadata = malloc(sizeof *metadata);
    if (!entries || !metadata) {
        free(entries);
        free(metadata);
        return cli_read_fail(error, eb, "out of memory");
    }
    metadata->type = J_MISSING;
    int count = 0, ok = cli_utf8_valid(b + 8, length), is_object = 0, code = 0;
    char duplicate[256] = "", key[256];
    space(&s);
    if (ok && s.p < s.end && *s.p == '{') { /* the top-level object, member by member */
        is_object = 1;
        s.p++;
        space(&s);
        if (s.p < s.end && *s.p == '}')
            s.p++;
        else
            for (;;) {
                space(&s);
                entry scratch;
                ok = string(&s, key, sizeof key);
                space(&s);
                ok = ok && s.p < s.end && *s.p++ == ':';
                int k = 0;
                while (k < count && strcmp(entries[k].name, key)) k++;
                if (ok && !strcmp(key, "__metadata__")) k = -1;
                if (ok && k == count && count == MAX_TENSORS) {
                    code = cli_read_fail(error, eb, "the header lists more than %d tensors", MAX_TENSORS);
                    break;
                }
                entry *e = k < 0 ? &scratch : &entries[k];
                if (ok && k >= 0 && k < count && !duplicate[0]) snprintf(duplicate, sizeof duplicate, "%s", key);
                if (ok && k < 0 && metadata->type != J_MISSING && !duplicate[0])
                    snprintf(duplicate, sizeof duplicate, "%s", key);
                e->dtype.type = e->shape.type = e->offsets.type = J_MISSING;
                ok = ok && value(&s, &e->value, k < 0 ? NULL : e);
                if (ok && k < 0) *metadata = e->value;
                if (ok && k == count) snprintf(entries[count++].name, sizeof entries[0].name, "%s", key);
                if (!ok) break;
                space(&s);
                if (s.p < s.end && *s.p == ',') {
                    s.p++;
                    continue;
                }
                ok = s.p < s.end && *s.p++ == '}';
                break;
            }
    } else if (ok) {
        json_value *v = malloc(sizeof *v);
        ok = v && value(&s, v, NULL);
        free(v);
    }
    space(&s);
    const entry *e = NULL;
    if (!code && (!ok || s.p != s.end)) /* safetensors.js adds JSON.parse's own words */
        code = cli_read_fail(error, eb, NOT_ST "the header is not UTF-8 JSON");
    else if (!code && !is_object)
        code = cli_read_fail(error, eb, NOT_ST "the header is not a JSON object");
    size_t data = size - 8 - (size_t)length;
    if (!code) code = check(entries, count, duplicate[0] ? duplicate : NULL, metadata, data, name, &e, error, eb);
    char what[300], text[512], got[128];
    if (!code && e) snprintf(what, sizeof what, "tensor \"%s\"", e->name);
    char kind = 0;
    int element = 0;
    if (!code && e->dtype.type != J_STRING) code = cli_read_fail(error, eb, NOT_ST "%s has no dtype string", what);
    if (!code) {
        static const char *const DTYPES[] = {"F16", "BF16", "F32", "F64"};
        static const char KINDS[] = {'2', 'b', '4', '8'};
        for (int k = 0; k < 4; k++)
            if (!strcmp(e->dtype.text, DTYPES[k])) kind = KINDS[k], element = k == 3 ? 8 : k == 2 ? 4 : 2;
        if (!kind)
            code = cli_read_fail(error, eb, "%s has dtype %s; supported: F32, F16, BF16, F64", what, e->dtype.text);
    }
    if (!code && !(e->shape.type == J_ARRAY && e->shape.all_integers)) {
        show(&e->shape, got, sizeof got);
        code = cli_read_fail(error, eb, NOT_ST "the shape of %s must be a list of integers ≥ 0; got %s", what, got);
    }
    uint64_t shape[CLI_MAX_AXES + 1], rows = 0, dim = 0;
    int axes = code ? 0 : e->shape.count;
    for (int k = 0; k < axes && k <= CLI_MAX_AXES; k++) shape[k] = (uint64_t)e->shape.items[k];
    uint64_t begin = code ? 0 : (uint64_t)e->offsets.items[0], span = code ? 0 : (uint64_t)e->offsets.items[1] - begin;
    if (!code) {
        int64_t count_ = cli_element_count(shape, axes <= CLI_MAX_AXES ? axes : CLI_MAX_AXES, element, span);
        if (count_ < 0 || (uint64_t)count_ * element != span) {
            cli_shape_text(shape, axes <= CLI_MAX_AXES ? axes : CLI_MAX_AXES, text, sizeof text);
            show(&e->offsets, got, sizeof got);
            code = cli_read_fail(error, eb,
                                 NOT_ST "%s has shape %s of %s, which is not the %llu bytes its data_offsets %s span",
                                 what, text, e->dtype.text, (unsigned long long)span, got);
        }
    }
    if (!code) {
        char where[340];
        snprintf(where, sizeof where, "%s of the .safetensors file", what);
        code = cli_tensor_shape(where, shape, axes, want_rows, want_dim, &rows, &dim, error, eb);
    }
    if (!code) code = cli_decode_table(b + 8 + length + begin, rows, dim, kind, 1, out, error, eb);
    free(entries);
    free(metadata);
    return code;
}
