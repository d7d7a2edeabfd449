/* json.c: the JSON reader of json.h. One walker (skip) both checks the
 * grammar and finds where a value ends; it keeps its open containers in a bit
 * stack, not in C recursion, so the depth bound costs no call stack. The
 * accessors reuse it on a checked document. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

#include "../posenc.h"

#define BAD ((size_t)-1)

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
static int is_digit(char c) {
    return c >= '0' && c <= '9';
}
static int hex_value(char h) {
    if (is_digit(h)) return h - '0';
    h = (char)(h | 0x20);
    return h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
}

size_t pe_json_space(const pe_json *j, size_t at) {
    while (at < j->bytes && is_space(j->text[at])) at++;
    return at;
}

char pe_json_kind(const pe_json *j, size_t at) {
    at = pe_json_space(j, at);
    return at < j->bytes ? j->text[at] : '\0';
}

static size_t literal(const pe_json *j, size_t at, const char *word) {
    size_t n = strlen(word);
    return at + n <= j->bytes && !memcmp(j->text + at, word, n) ? at + n : BAD;
}

/* The length of the strict UTF-8 sequence at b (n bytes left), or 0 when it
 * is not one (overlong, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_length(const unsigned char *b, size_t n) {
    unsigned c = b[0];
    size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!len || len > n || (len == 2 && c < 0xc2) || (len == 4 && c > 0xf4)) return 0;
    for (size_t k = 1; k < len; k++)
        if ((b[k] & 0xc0) != 0x80) return 0;
    if (len == 3 && ((c == 0xe0 && b[1] < 0xa0) || (c == 0xed && b[1] >= 0xa0))) return 0;
    if (len == 4 && ((c == 0xf0 && b[1] < 0x90) || (c == 0xf4 && b[1] >= 0x90))) return 0;
    return len;
}

/* Past the closing quote of the string opening at `at`. */
static size_t string_end(const pe_json *j, size_t at) {
    const unsigned char *t = (const unsigned char *)j->text;
    for (size_t i = at + 1; i < j->bytes; i++) {
        unsigned char c = t[i];
        if (c == '"') return i + 1;
        if (c < 0x20) return BAD;
        if (c >= 0x80) {
            size_t len = utf8_length(t + i, j->bytes - i);
            if (!len) return BAD;
            i += len - 1;
        } else if (c == '\\') {
            if (++i >= j->bytes) return BAD;
            char e = (char)t[i];
            if (e == 'u') {
                for (int k = 0; k < 4; k++)
                    if (++i >= j->bytes || hex_value((char)t[i]) < 0) return BAD;
            } else if (e == '\0' || !strchr("\"\\/bfnrt", e)) {
                return BAD;
            }
        }
    }
    return BAD;
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static size_t number_end(const pe_json *j, size_t at) {
    size_t i = at;
    const char *t = j->text;
    if (i < j->bytes && t[i] == '-') i++;
    if (i >= j->bytes || !is_digit(t[i])) return BAD;
    if (t[i] == '0')
        i++;
    else
        while (i < j->bytes && is_digit(t[i])) i++;
    if (i < j->bytes && t[i] == '.') {
        if (++i >= j->bytes || !is_digit(t[i])) return BAD;
        while (i < j->bytes && is_digit(t[i])) i++;
    }
    if (i < j->bytes && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < j->bytes && (t[i] == '+' || t[i] == '-')) i++;
        if (i >= j->bytes || !is_digit(t[i])) return BAD;
        while (i < j->bytes && is_digit(t[i])) i++;
    }
    return i;
}

/* A scalar (string, literal or number) at `at`: past its end, or BAD. */
static size_t scalar_end(const pe_json *j, size_t at) {
    char c = j->text[at];
    if (c == '"') return string_end(j, at);
    if (c == 't') return literal(j, at, "true");
    if (c == 'f') return literal(j, at, "false");
    if (c == 'n') return literal(j, at, "null");
    return number_end(j, at);
}

/* Past the value starting at (or after whitespace from) `at`; BAD when
 * malformed, and *too_deep set when containers nest past PE_CONFIG_MAX_DEPTH.
 * The open containers are bits of `objects` (1: an object, 0: an array). */
static size_t skip_value(const pe_json *j, size_t at, int *too_deep) {
    unsigned char objects[(PE_CONFIG_MAX_DEPTH + 7) / 8];
    size_t depth = 0, i = pe_json_space(j, at);
    for (;;) {
        /* A value at i. */
        if (i >= j->bytes) return BAD;
        char c = j->text[i];
        if (c == '{' || c == '[') {
            if (depth == PE_CONFIG_MAX_DEPTH) {
                *too_deep = 1;
                return BAD;
            }
            if (c == '{')
                objects[depth / 8] |= (unsigned char)(1u << depth % 8);
            else
                objects[depth / 8] &= (unsigned char)~(1u << depth % 8);
            depth++;
            i = pe_json_space(j, i + 1);
            if (i < j->bytes && j->text[i] == (c == '{' ? '}' : ']')) {
                depth--;
                i++;
            } else {
                if (c == '{') { /* the first key */
                    if (i >= j->bytes || j->text[i] != '"' || (i = string_end(j, i)) == BAD) return BAD;
                    i = pe_json_space(j, i);
                    if (i >= j->bytes || j->text[i] != ':') return BAD;
                    i = pe_json_space(j, i + 1);
                }
                continue;
            }
        } else if ((i = scalar_end(j, i)) == BAD) {
            return BAD;
        }
        /* After a value: close containers, or go on to the next item. */
        for (;;) {
            if (depth == 0) return i;
            int object = (objects[(depth - 1) / 8] >> (depth - 1) % 8) & 1;
            i = pe_json_space(j, i);
            if (i >= j->bytes) return BAD;
            if (j->text[i] == (object ? '}' : ']')) {
                depth--;
                i++;
                continue;
            }
            if (j->text[i] != ',') return BAD;
            i = pe_json_space(j, i + 1);
            if (object) {
                if (i >= j->bytes || j->text[i] != '"' || (i = string_end(j, i)) == BAD) return BAD;
                i = pe_json_space(j, i);
                if (i >= j->bytes || j->text[i] != ':') return BAD;
                i = pe_json_space(j, i + 1);
            }
            break;
        }
    }
}

/* ---- the jump table (json.h) ---- */

size_t pe_json_jump_slots(size_t bytes) {
    size_t slots = 16;
    while (slots < 4 * (bytes / PE_JSON_JUMP_MIN) + 16) slots *= 2;
    return 2 * slots; /* start + 1, end: a load of a half at most */
}

static uint32_t jump_hash(size_t at) {
    return (uint32_t)at * 2654435761u;
}

/* Past the value at `at` from the table, or 0 when it is not there. */
static size_t jump(const pe_json *j, size_t at) {
    if (!j->jumps) return 0;
    for (uint32_t s = jump_hash(at) & j->jump_mask;; s = (s + 1) & j->jump_mask) {
        const uint32_t *slot = j->jumps + 2 * s;
        if (slot[0] == 0) return 0;
        if (slot[0] == at + 1) return slot[1];
    }
}

void pe_json_jumps(pe_json *j, uint32_t *slots) {
    const size_t count = pe_json_jump_slots(j->bytes) / 2, room = count / 2;
    const uint32_t mask = (uint32_t)(count - 1);
    memset(slots, 0, 2 * count * sizeof *slots);
    uint32_t open[PE_CONFIG_MAX_DEPTH]; /* the checked document nests at most this deep */
    size_t depth = 0, used = 0;
    const char *t = j->text;
    for (size_t i = 0; i < j->bytes && used < room; i++) {
        size_t start = i, end = 0;
        if (t[i] == '"') {
            for (i++; t[i] != '"'; i++) /* checked: every string closes, every escape is whole */
                if (t[i] == '\\') i++;
            end = i + 1;
        } else if (t[i] == '{' || t[i] == '[') {
            open[depth++] = (uint32_t)i;
        } else if (t[i] == '}' || t[i] == ']') {
            start = open[--depth];
            end = i + 1;
        }
        if (!end || end - start < PE_JSON_JUMP_MIN) continue;
        uint32_t s = jump_hash(start) & mask;
        while (slots[2 * s]) s = (s + 1) & mask;
        slots[2 * s] = (uint32_t)start + 1;
        slots[2 * s + 1] = (uint32_t)end;
        used++;
    }
    j->jumps = slots;
    j->jump_mask = mask;
}

static size_t skip(const pe_json *j, size_t at) {
    int too_deep = 0;
    at = pe_json_space(j, at);
    const size_t end = jump(j, at);
    return end ? end : skip_value(j, at, &too_deep);
}

/* Past the closing quote of the checked string at `at`. */
static size_t checked_string_end(const pe_json *j, size_t at) {
    const size_t end = jump(j, at);
    return end ? end : string_end(j, at);
}

pe_json_verdict pe_json_check(const pe_json *j) {
    if (!j->text) return PE_JSON_MALFORMED;
    int too_deep = 0;
    size_t end = skip_value(j, 0, &too_deep);
    if (too_deep) return PE_JSON_TOO_DEEP;
    return end != BAD && pe_json_space(j, end) == j->bytes ? PE_JSON_VALID : PE_JSON_MALFORMED;
}

/* The next item of the container at `container` ('{' or '['): *cursor is 0
 * before the first item and then the offset after the last one read. */
static int next_item(const pe_json *j, size_t container, size_t *cursor, pe_json_span *key, size_t *value) {
    size_t i = *cursor ? pe_json_space(j, *cursor) : pe_json_space(j, pe_json_space(j, container) + 1);
    if (i >= j->bytes || j->text[i] == '}' || j->text[i] == ']') return 0;
    if (j->text[i] == ',') i = pe_json_space(j, i + 1);
    if (key) {
        size_t end = checked_string_end(j, i);
        key->at = i + 1;
        key->length = end - i - 2;
        i = pe_json_space(j, end) + 1; /* past ':' */
    }
    *value = pe_json_space(j, i);
    *cursor = skip(j, *value);
    return 1;
}

int pe_json_member(const pe_json *j, size_t object, size_t *cursor, pe_json_span *key, size_t *value) {
    return pe_json_kind(j, object) == '{' && next_item(j, object, cursor, key, value);
}

int pe_json_element(const pe_json *j, size_t array, size_t *cursor, size_t *value) {
    return pe_json_kind(j, array) == '[' && next_item(j, array, cursor, NULL, value);
}

/* ---- decoded strings ---- */

/* The four hex digits at t. */
static unsigned hex4(const char *t) {
    return (unsigned)(hex_value(t[0]) << 12 | hex_value(t[1]) << 8 | hex_value(t[2]) << 4 | hex_value(t[3]));
}

/* The canonical bytes (json.h) of the next character of span, from *i (an
 * offset within the span), into out (at most 6); returns how many, 0 at its end. */
static size_t canonical_next(const pe_json *j, pe_json_span span, size_t *i, char *out) {
    static const char HEX[] = "0123456789abcdef";
    if (*i >= span.length) return 0;
    const char *t = j->text + span.at;
    char c = t[(*i)++];
    if (c != '\\') return out[0] = c, 1;
    char e = t[(*i)++];
    uint32_t u;
    switch (e) {
    case 'u':
        u = hex4(t + *i);
        *i += 4;
        if (u >= 0xd800 && u <= 0xdbff && *i + 6 <= span.length && t[*i] == '\\' && t[*i + 1] == 'u') {
            uint32_t low = hex4(t + *i + 2);
            if (low >= 0xdc00 && low <= 0xdfff) {
                *i += 6;
                u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
            }
        }
        break;
    case 'b': u = 8; break;
    case 't': u = 9; break;
    case 'n': u = 10; break;
    case 'f': u = 12; break;
    case 'r': u = 13; break;
    default: u = (unsigned char)e; break; /* " \ / */
    }
    static const char SHORT[] = "btn-fr"; /* u = 8 ... 13 */
    if (u == '"' || u == '\\') return out[0] = '\\', out[1] = (char)u, 2;
    if (u >= 8 && u <= 13 && u != 11) return out[0] = '\\', out[1] = SHORT[u - 8], 2;
    if (u < 0x20 || (u >= 0xd800 && u <= 0xdfff)) {
        out[0] = '\\', out[1] = 'u';
        for (int k = 0; k < 4; k++) out[2 + k] = HEX[(u >> (12 - 4 * k)) & 15];
        return 6;
    }
    if (u < 0x80) return out[0] = (char)u, 1;
    if (u < 0x800) return out[0] = (char)(0xc0 | u >> 6), out[1] = (char)(0x80 | (u & 0x3f)), 2;
    if (u < 0x10000)
        return out[0] = (char)(0xe0 | u >> 12), out[1] = (char)(0x80 | (u >> 6 & 0x3f)),
               out[2] = (char)(0x80 | (u & 0x3f)), 3;
    out[0] = (char)(0xf0 | u >> 18), out[1] = (char)(0x80 | (u >> 12 & 0x3f));
    out[2] = (char)(0x80 | (u >> 6 & 0x3f)), out[3] = (char)(0x80 | (u & 0x3f));
    return 4;
}

static int has_escape(const pe_json *j, pe_json_span span) {
    return memchr(j->text + span.at, '\\', span.length) != NULL;
}

size_t pe_json_canonical(const pe_json *j, pe_json_span span, char *out) {
    if (!has_escape(j, span)) {
        memcpy(out, j->text + span.at, span.length);
        return span.length;
    }
    size_t i = 0, n = 0, k;
    char c[6];
    while ((k = canonical_next(j, span, &i, c)) > 0) memcpy(out + n, c, k), n += k;
    return n;
}

size_t pe_json_canonical_prefix(const pe_json *j, pe_json_span span, char *out, size_t max) {
    size_t i = 0, n = 0, k;
    char c[6];
    while ((k = canonical_next(j, span, &i, c)) > 0 && n + k <= max) memcpy(out + n, c, k), n += k;
    return n;
}

int pe_json_span_is(const pe_json *j, pe_json_span span, const char *name) {
    size_t n = strlen(name);
    if (!has_escape(j, span)) return n == span.length && !memcmp(j->text + span.at, name, n);
    size_t i = 0, at = 0, k;
    char c[6];
    while ((k = canonical_next(j, span, &i, c)) > 0) {
        if (at + k > n || memcmp(name + at, c, k)) return 0;
        at += k;
    }
    return at == n;
}

int pe_json_spans_equal(const pe_json *j, pe_json_span a, pe_json_span b) {
    if (!has_escape(j, a) && !has_escape(j, b))
        return a.length == b.length && !memcmp(j->text + a.at, j->text + b.at, a.length);
    size_t ia = 0, ib = 0, na = 0, nb = 0, ka = 0, kb = 0;
    char ca[6], cb[6];
    for (;;) { /* byte by byte through the two canonical streams */
        if (ka == na) ka = 0, na = canonical_next(j, a, &ia, ca);
        if (kb == nb) kb = 0, nb = canonical_next(j, b, &ib, cb);
        if (na == 0 || nb == 0) return na == 0 && nb == 0;
        if (ca[ka++] != cb[kb++]) return 0;
    }
}

uint32_t pe_json_span_hash(const pe_json *j, pe_json_span span) {
    uint32_t h = 2166136261u; /* FNV-1a over the canonical bytes */
    size_t i = 0, k;
    char c[6];
    while ((k = canonical_next(j, span, &i, c)) > 0)
        for (size_t m = 0; m < k; m++) h = (h ^ (unsigned char)c[m]) * 16777619u;
    return h;
}

int pe_json_find(const pe_json *j, size_t object, const char *name, size_t *value) {
    size_t cursor = 0, at, found = BAD;
    pe_json_span key;
    while (pe_json_member(j, object, &cursor, &key, &at))
        if (pe_json_span_is(j, key, name)) found = at; /* the last one wins */
    if (found == BAD || pe_json_kind(j, found) == 'n') return 0;
    *value = found;
    return 1;
}

int pe_json_number(const pe_json *j, size_t at, double *value) {
    at = pe_json_space(j, at);
    size_t end = number_end(j, at);
    char digits[128];
    if (end == BAD) return 0;
    if (end - at >= sizeof digits) {
        /* A long number inside the object is followed by a delimiter, where strtod stops. */
        if (end >= j->bytes) return 0;
        *value = strtod(j->text + at, NULL);
        return 1;
    }
    memcpy(digits, j->text + at, end - at);
    digits[end - at] = '\0';
    *value = strtod(digits, NULL); /* correctly rounded in glibc and in Emscripten's musl */
    return 1;
}

int pe_json_string(const pe_json *j, size_t at, pe_json_span *span) {
    at = pe_json_space(j, at);
    if (at >= j->bytes || j->text[at] != '"') return 0;
    span->at = at + 1;
    span->length = checked_string_end(j, at) - at - 2;
    return 1;
}

int pe_json_string_is(const pe_json *j, size_t at, const char *text) {
    pe_json_span span;
    return pe_json_string(j, at, &span) && pe_json_span_is(j, span, text);
}
