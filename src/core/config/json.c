/* json.c: the JSON reader of json.h. One recursive walker (skip) both checks
 * the grammar and finds where a value ends; the accessors reuse it on a
 * checked document. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

#define BAD ((size_t)-1)

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
static int is_digit(char c) {
    return c >= '0' && c <= '9';
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

/* Past the closing quote of the string opening at `at`. */
static size_t string_end(const pe_json *j, size_t at) {
    for (size_t i = at + 1; i < j->bytes; i++) {
        unsigned char c = (unsigned char)j->text[i];
        if (c == '"') return i + 1;
        if (c < 0x20) return BAD;
        if (c == '\\') {
            if (++i >= j->bytes) return BAD;
            char e = j->text[i];
            if (e == 'u') {
                for (int k = 0; k < 4; k++) {
                    char h = ++i < j->bytes ? j->text[i] : '\0';
                    if (!is_digit(h) && !((h | 0x20) >= 'a' && (h | 0x20) <= 'f')) return BAD;
                }
            } else if (!strchr("\"\\/bfnrt", e) || e == '\0') {
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

/* Past the value starting at (or after whitespace from) `at`; BAD when malformed. */
static size_t skip(const pe_json *j, size_t at, int depth) {
    at = pe_json_space(j, at);
    if (at >= j->bytes || depth > PE_JSON_DEPTH) return BAD;
    char c = j->text[at];
    if (c == '"') return string_end(j, at);
    if (c == 't') return literal(j, at, "true");
    if (c == 'f') return literal(j, at, "false");
    if (c == 'n') return literal(j, at, "null");
    if (c != '{' && c != '[') return number_end(j, at);
    char close = c == '{' ? '}' : ']';
    size_t i = pe_json_space(j, at + 1);
    if (i < j->bytes && j->text[i] == close) return i + 1;
    for (;;) {
        if (c == '{') {
            if (i >= j->bytes || j->text[i] != '"') return BAD;
            i = string_end(j, i);
            if (i == BAD) return BAD;
            i = pe_json_space(j, i);
            if (i >= j->bytes || j->text[i] != ':') return BAD;
            i++;
        }
        i = skip(j, i, depth + 1);
        if (i == BAD) return BAD;
        i = pe_json_space(j, i);
        if (i >= j->bytes) return BAD;
        if (j->text[i] == close) return i + 1;
        if (j->text[i] != ',') return BAD;
        i = pe_json_space(j, i + 1);
    }
}

int pe_json_check(const pe_json *j) {
    if (!j->text) return 0;
    size_t end = skip(j, 0, 0);
    return end != BAD && pe_json_space(j, end) == j->bytes;
}

/* The next item of the container at `container` ('{' or '['): *cursor is 0
 * before the first item and then the offset after the last one read. */
static int next_item(const pe_json *j, size_t container, size_t *cursor, pe_json_span *key, size_t *value) {
    size_t i = *cursor ? pe_json_space(j, *cursor) : pe_json_space(j, pe_json_space(j, container) + 1);
    if (i >= j->bytes || j->text[i] == '}' || j->text[i] == ']') return 0;
    if (j->text[i] == ',') i = pe_json_space(j, i + 1);
    if (key) {
        size_t end = string_end(j, i);
        key->at = i + 1;
        key->length = end - i - 2;
        i = pe_json_space(j, end) + 1; /* past ':' */
    }
    *value = pe_json_space(j, i);
    *cursor = skip(j, *value, 0);
    return 1;
}

int pe_json_member(const pe_json *j, size_t object, size_t *cursor, pe_json_span *key, size_t *value) {
    return pe_json_kind(j, object) == '{' && next_item(j, object, cursor, key, value);
}

int pe_json_element(const pe_json *j, size_t array, size_t *cursor, size_t *value) {
    return pe_json_kind(j, array) == '[' && next_item(j, array, cursor, NULL, value);
}

int pe_json_span_is(const pe_json *j, pe_json_span span, const char *name) {
    return strlen(name) == span.length && !memcmp(j->text + span.at, name, span.length);
}

int pe_json_find(const pe_json *j, size_t object, const char *name, size_t *value) {
    size_t cursor = 0, at;
    pe_json_span key;
    while (pe_json_member(j, object, &cursor, &key, &at)) {
        if (pe_json_span_is(j, key, name)) {
            if (pe_json_kind(j, at) == 'n') return 0;
            *value = at;
            return 1;
        }
    }
    return 0;
}

int pe_json_number(const pe_json *j, size_t at, double *value) {
    at = pe_json_space(j, at);
    size_t end = number_end(j, at);
    char digits[128];
    if (end == BAD || end - at >= sizeof digits) return 0;
    memcpy(digits, j->text + at, end - at);
    digits[end - at] = '\0';
    *value = strtod(digits, NULL); /* correctly rounded in glibc and in Emscripten's musl */
    return 1;
}

int pe_json_string(const pe_json *j, size_t at, pe_json_span *span) {
    at = pe_json_space(j, at);
    if (at >= j->bytes || j->text[at] != '"') return 0;
    span->at = at + 1;
    span->length = string_end(j, at) - at - 2;
    return 1;
}

int pe_json_string_is(const pe_json *j, size_t at, const char *text) {
    pe_json_span span;
    return pe_json_string(j, at, &span) && pe_json_span_is(j, span, text);
}
