/* config_cut.c: one layer type's config cut from a config whose RoPE dict
 * (rope_parameters, else rope_scaling, of text_config when it is an object)
 * is keyed by layer type, every value an object. Reading each layer type of
 * the whole config costs the whole config each time, quadratic in the layer
 * types (3,000 types: minutes); the cut keeps the text byte for byte but for
 * the dict, which holds only that type's entry, and layer_types, which names
 * only that type. pe_config_read reads the same entry, the same keys around
 * it and the same numbers as written (no number is parsed and printed again),
 * so the answer for that type is the whole config's. src/js/config/
 * config-read.js cuts the same way (the JS CLI prints the same bytes).
 *
 * The text is one the core accepted (valid JSON, an object, nested at most
 * PE_CONFIG_MAX_DEPTH): the scan below does not check the grammar again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config_cut.h"

typedef struct span {
    size_t at, end; /* bytes [at, end) of the text */
} span;

struct cli_config_cut {
    const char *text;
    size_t bytes;
    span dict;       /* the keyed dict's value, braces included */
    span types;      /* layer_types's value; types.end == 0 when absent */
    size_t count;    /* the dict's members, duplicates included */
    span *keys;      /* each member's key, quotes included */
    span *values;    /* each member's value */
    char *names;     /* the keys decoded, one after another */
    size_t *name_at; /* member k's decoded key: names[name_at[k] ... name_at[k + 1]) */
    uint32_t *table; /* open addressing: member index + 1, 0 empty; the last of a key wins */
    size_t mask;
};

static size_t space(const cli_config_cut *c, size_t i) {
    while (i < c->bytes && (c->text[i] == ' ' || c->text[i] == '\t' || c->text[i] == '\n' || c->text[i] == '\r')) i++;
    return i;
}

/* i at a string's opening quote: the offset after its closing one. */
static size_t skip_string(const cli_config_cut *c, size_t i) {
    for (i++; i < c->bytes && c->text[i] != '"'; i++)
        if (c->text[i] == '\\') i++;
    return i + 1;
}

/* i at a value's first byte: the offset after its last. Iterative, so depth costs no stack. */
static size_t skip_value(const cli_config_cut *c, size_t i) {
    const char first = c->text[i];
    if (first == '"') return skip_string(c, i);
    if (first != '{' && first != '[') {
        while (i < c->bytes && !strchr(",]} \t\n\r", c->text[i])) i++;
        return i;
    }
    size_t depth = 0;
    while (i < c->bytes) {
        const char b = c->text[i];
        if (b == '"') {
            i = skip_string(c, i);
            continue;
        }
        if (b == '{' || b == '[') depth++;
        if ((b == '}' || b == ']') && --depth == 0) return i + 1;
        i++;
    }
    return i;
}

/* The next member of an object: *i just inside its brace or after the previous value. */
static int member(const cli_config_cut *c, size_t *i, span *key, span *value) {
    size_t at = space(c, *i);
    if (at < c->bytes && c->text[at] == ',') at = space(c, at + 1);
    if (at >= c->bytes || c->text[at] != '"') return 0;
    key->at = at;
    key->end = skip_string(c, at);
    value->at = space(c, space(c, key->end) + 1); /* past the colon */
    value->end = skip_value(c, value->at);
    *i = value->end;
    return 1;
}

static unsigned hex4(const char *p) {
    unsigned v = 0;
    for (int k = 0; k < 4; k++) v = 16 * v + (unsigned)(p[k] <= '9' ? p[k] - '0' : (p[k] | 0x20) - 'a' + 10);
    return v;
}

/* The key (quotes included) decoded as JSON reads it, into out (room for its raw length); its length. A lone
 * surrogate becomes its three bytes, which no layer type the core names has: that type is then read whole. */
static size_t decode(const cli_config_cut *c, span key, char *out) {
    size_t n = 0;
    for (size_t i = key.at + 1; i + 1 < key.end; i++) {
        char b = c->text[i];
        if (b != '\\') {
            out[n++] = b;
            continue;
        }
        b = c->text[++i];
        if (b != 'u') {
            static const char FROM[] = "\"\\/bfnrt", TO[] = "\"\\/\b\f\n\r\t";
            const char *k = strchr(FROM, b);
            out[n++] = k ? TO[k - FROM] : b;
            continue;
        }
        unsigned u = hex4(c->text + i + 1);
        i += 4;
        if (u >= 0xD800 && u < 0xDC00 && i + 6 < key.end && c->text[i + 1] == '\\' && c->text[i + 2] == 'u') {
            const unsigned low = hex4(c->text + i + 3);
            if (low >= 0xDC00 && low < 0xE000) {
                u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                i += 6;
            }
        }
        if (u < 0x80)
            out[n++] = (char)u;
        else if (u < 0x800) {
            out[n++] = (char)(0xC0 | u >> 6);
            out[n++] = (char)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            out[n++] = (char)(0xE0 | u >> 12);
            out[n++] = (char)(0x80 | (u >> 6 & 0x3F));
            out[n++] = (char)(0x80 | (u & 0x3F));
        } else {
            out[n++] = (char)(0xF0 | u >> 18);
            out[n++] = (char)(0x80 | (u >> 12 & 0x3F));
            out[n++] = (char)(0x80 | (u >> 6 & 0x3F));
            out[n++] = (char)(0x80 | (u & 0x3F));
        }
    }
    return n;
}

/* The last member `name` of the object at `object` (JSON's rule for a repeated key): 1 and its value, else 0. */
static int find(const cli_config_cut *c, size_t object, const char *name, span *found) {
    const size_t length = strlen(name);
    char decoded[512]; /* a key decodes to at least a sixth of its bytes (\u0072 is r): a longer one is no name */
    span key, value;
    int hit = 0;
    for (size_t i = object + 1; member(c, &i, &key, &value);) {
        if (key.end - key.at - 2 > sizeof decoded) continue;
        if (decode(c, key, decoded) == length && !memcmp(decoded, name, length)) {
            *found = value;
            hit = 1;
        }
    }
    return hit;
}

static int is_null(const cli_config_cut *c, span v) {
    return v.end - v.at == 4 && !memcmp(c->text + v.at, "null", 4);
}

static uint32_t hash(const char *p, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t k = 0; k < n; k++) h = (h ^ (unsigned char)p[k]) * 16777619u;
    return h;
}

void cli_config_cut_free(cli_config_cut *cut) {
    if (!cut) return;
    free(cut->keys);
    free(cut->values);
    free(cut->names);
    free(cut->name_at);
    free(cut->table);
    free(cut);
}

cli_config_cut *cli_config_cut_new(const char *json, size_t bytes) {
    cli_config_cut *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->text = json;
    c->bytes = bytes;
    /* The object read as the config, then its dict, as the core picks them (a null value is absent). */
    size_t cfg = space(c, 0);
    span v;
    if (cfg >= bytes || json[cfg] != '{') goto whole;
    if (find(c, cfg, "text_config", &v) && json[v.at] == '{') cfg = v.at;
    if (!(find(c, cfg, "rope_parameters", &c->dict) && !is_null(c, c->dict)) &&
        !(find(c, cfg, "rope_scaling", &c->dict) && !is_null(c, c->dict)))
        goto whole;
    if (json[c->dict.at] != '{') goto whole;
    if (find(c, cfg, "layer_types", &v)) c->types = v;
    /* Keyed by layer type: every value an object (counting the ones a later duplicate hides too; when one of
     * those is not, the config is read whole, which is always right). */
    span key;
    for (size_t i = c->dict.at + 1; member(c, &i, &key, &v); c->count++)
        if (json[v.at] != '{') goto whole;
    if (c->count == 0 || c->count > UINT32_MAX / 4) goto whole;
    c->keys = malloc(c->count * sizeof *c->keys);
    c->values = malloc(c->count * sizeof *c->values);
    c->name_at = malloc((c->count + 1) * sizeof *c->name_at);
    c->names = malloc(c->dict.end - c->dict.at);
    size_t slots = 4;
    while (slots < 2 * c->count) slots *= 2;
    c->mask = slots - 1;
    c->table = calloc(slots, sizeof *c->table);
    if (!c->keys || !c->values || !c->name_at || !c->names || !c->table) goto whole;
    size_t k = 0, at = 0;
    for (size_t i = c->dict.at + 1; member(c, &i, &c->keys[k], &c->values[k]); k++) {
        c->name_at[k] = at;
        const size_t n = decode(c, c->keys[k], c->names + at);
        size_t slot = hash(c->names + at, n) & c->mask;
        for (; c->table[slot]; slot = (slot + 1) & c->mask) {
            const size_t other = c->table[slot] - 1;
            const size_t m = c->name_at[other + 1] - c->name_at[other];
            if (m == n && !memcmp(c->names + c->name_at[other], c->names + at, n)) break;
        }
        c->table[slot] = (uint32_t)k + 1; /* a repeated key: the later member takes the slot */
        at += n;
        c->name_at[k + 1] = at;
    }
    return c;
whole:
    cli_config_cut_free(c);
    return NULL;
}

char *cli_config_cut_for(const cli_config_cut *c, const char *name, size_t *length) {
    const size_t n = strlen(name);
    size_t slot = hash(name, n) & c->mask, k;
    for (;; slot = (slot + 1) & c->mask) {
        if (!c->table[slot]) return NULL;
        k = c->table[slot] - 1;
        if (c->name_at[k + 1] - c->name_at[k] == n && !memcmp(c->names + c->name_at[k], name, n)) break;
    }
    const span key = c->keys[k], value = c->values[k];
    /* The two replaced values in text order (layer_types may come before or after the dict, or be absent). */
    span edits[2] = {c->dict, c->types};
    int dict_first = !c->types.end || c->dict.at < c->types.at;
    if (!dict_first) {
        edits[0] = c->types;
        edits[1] = c->dict;
    }
    const size_t key_bytes = key.end - key.at, value_bytes = value.end - value.at;
    const size_t total = c->bytes + 2 * key_bytes + value_bytes + 8;
    char *out = malloc(total);
    if (!out) return NULL;
    size_t from = 0, to = 0;
    for (int e = 0; e < 2; e++) {
        const span s = edits[e];
        if (!s.end) continue;
        memcpy(out + to, c->text + from, s.at - from);
        to += s.at - from;
        const int is_dict = s.at == c->dict.at;
        out[to++] = is_dict ? '{' : '[';
        memcpy(out + to, c->text + key.at, key_bytes);
        to += key_bytes;
        if (is_dict) {
            out[to++] = ':';
            memcpy(out + to, c->text + value.at, value_bytes);
            to += value_bytes;
        }
        out[to++] = is_dict ? '}' : ']';
        from = s.end;
    }
    memcpy(out + to, c->text + from, c->bytes - from);
    *length = to + c->bytes - from;
    return out;
}
