/* json.h: a small JSON reader for model configs (config.json), with no
 * allocation and no copies: values are addressed by their byte offset in the
 * caller's text, which must outlive every call. pe_json_check validates a
 * whole document once (RFC 8259 grammar, strict UTF-8 in strings, nesting at
 * most PE_CONFIG_MAX_DEPTH, posenc.h); the other calls assume a checked
 * document and never read past its end.
 *
 * Strings are compared as JSON reads them: escapes decoded, so "\u0074ype"
 * is "type". Keys are named in their canonical form, the one JSON.stringify
 * writes (decoded, with \" \\ \b \f \n \r \t and \u00xx for the other
 * controls and \udxxx for a lone surrogate escaped, everything else as
 * UTF-8), which is never longer than the key as written. */
#ifndef POSENC_CONFIG_JSON_H
#define POSENC_CONFIG_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef struct pe_json {
    const char *text; /* not NUL-terminated: `bytes` bytes */
    size_t bytes;
    /* Optional (pe_json_jumps): where each long value ends, so that walking past it costs no scan. NULL: every
     * value is scanned, which makes a walk over an object cost the bytes of its values. */
    const uint32_t *jumps;
    uint32_t jump_mask;
} pe_json;

/* A value this long or longer is found in the jump table; a shorter one is scanned (at most this many bytes). */
#define PE_JSON_JUMP_MIN 512u

/* A string's raw bytes between its quotes (escapes left as written). */
typedef struct pe_json_span {
    size_t at, length;
} pe_json_span;

/* pe_json_check's answer. */
typedef enum pe_json_verdict { PE_JSON_VALID = 0, PE_JSON_MALFORMED = 1, PE_JSON_TOO_DEEP = 2 } pe_json_verdict;

/* Whether the text is one JSON value with only whitespace around it. */
pe_json_verdict pe_json_check(const pe_json *j);

/* The uint32 slots pe_json_jumps takes for a document of `bytes` bytes (at most PE_CONFIG_MAX_BYTES): a
 * power of two, two a value: at most bytes / 8 bytes of memory. */
size_t pe_json_jump_slots(size_t bytes);

/* Records in slots (pe_json_jump_slots(j->bytes) of them) where every string, object and array of at least
 * PE_JSON_JUMP_MIN bytes of the checked document j ends, and makes j's walks use them: walking an object's members
 * (pe_json_member, pe_json_find) then costs the members, not the bytes of their values, so a reading that walks a
 * config many times stays linear in its size. One pass; values past the table's room (never in a document of
 * one level) are scanned as before. */
void pe_json_jumps(pe_json *j, uint32_t *slots);

/* The offset of the first non-space byte at or after `at`. */
size_t pe_json_space(const pe_json *j, size_t at);

/* The first byte of the value at `at`: '{', '[', '"', 't', 'f', 'n' or a number's. */
char pe_json_kind(const pe_json *j, size_t at);

/* Members of the object at `object`, in text order, duplicates included:
 * start with *cursor = 0; returns 1 with the key and the value's offset, 0
 * after the last member. */
int pe_json_member(const pe_json *j, size_t object, size_t *cursor, pe_json_span *key, size_t *value);

/* Elements of the array at `array`, as pe_json_member. */
int pe_json_element(const pe_json *j, size_t array, size_t *cursor, size_t *value);

/* The value of member `name` of the object at `object`, the last one when the
 * key repeats (as JSON.parse and Python's json): 1 and *value when present and
 * not null, else 0 (HF treats null as absent). */
int pe_json_find(const pe_json *j, size_t object, const char *name, size_t *value);

/* 1 when the decoded span equals the NUL-terminated name. */
int pe_json_span_is(const pe_json *j, pe_json_span span, const char *name);

/* 1 when the two spans decode to the same string. */
int pe_json_spans_equal(const pe_json *j, pe_json_span a, pe_json_span b);

/* A hash of the decoded span (equal strings, equal hashes). */
uint32_t pe_json_span_hash(const pe_json *j, pe_json_span span);

/* The span's canonical form (above) into out, which has span.length bytes at
 * least; returns its length (no terminator). */
size_t pe_json_canonical(const pe_json *j, pe_json_span span, char *out);

/* The canonical form's first whole characters, at most max bytes, into out; returns its length. */
size_t pe_json_canonical_prefix(const pe_json *j, pe_json_span span, char *out, size_t max);

/* The number at `at` as the nearest double; 0 when it is not a number. */
int pe_json_number(const pe_json *j, size_t at, double *value);

/* 1 when the value at `at` is a string that decodes to `text`. */
int pe_json_string_is(const pe_json *j, size_t at, const char *text);

/* The raw bytes between the quotes of the string at `at`; 0 when not a string. */
int pe_json_string(const pe_json *j, size_t at, pe_json_span *span);

#endif
