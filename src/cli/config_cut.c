/* config_cut.c: one layer type's config cut from a config whose RoPE dict
 * (rope_parameters, else rope_scaling, of text_config when it is an object)
 * is keyed by layer type, every value an object. Reading each layer type of
 * the whole config costs the whole config each time, quadratic in the layer
 * types (3,000 types: minutes); the cut keeps the text byte for byte but for
 * the dict, which holds only that type's entry, and layer_types, which names
 * only that type. Members of the config (and of the top level, when the
 * config is text_config) that a later member of the same key hides are left
 * out too: JSON reads only the last, and a hidden 6 MB list would otherwise be
 * copied and read again for every type. pe_config_read reads the same entry,
 * the same keys around it and the same numbers as written (no number is
 * parsed and printed again), so the answer for that type is the whole
 * config's. src/js/runtime/config-cut.js cuts the same way (the JS CLI prints
 * the same bytes).
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

/* A key set: the decoded keys of an object's members and an open-addressing table of them, where a repeated key
 * leads to its last member (JSON's rule). */
typedef struct keyset {
    size_t count;    /* members, duplicates included */
    span *keys;      /* each member's key, quotes included */
    span *values;    /* each member's value */
    char *names;     /* the keys decoded, one after another */
    size_t *name_at; /* member k's decoded key: names[name_at[k] ... name_at[k + 1]) */
    uint32_t *table; /* member index + 1, 0 empty */
    size_t mask;
} keyset;

/* A replaced part of the text: a member left out, the dict or layer_types. */
typedef enum edit_kind { EDIT_DROP, EDIT_DICT, EDIT_TYPES } edit_kind;
typedef struct edit {
    span at;
    edit_kind kind;
} edit;

struct cli_config_cut {
    const char *text;
    size_t bytes;
    keyset dict; /* the keyed dict's members */
    edit *edits; /* in text order, none overlapping */
    size_t edit_count, edit_cap;
    size_t copied; /* bytes of the text outside the edits */
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

static void keyset_free(keyset *k) {
    free(k->keys);
    free(k->values);
    free(k->names);
    free(k->name_at);
    free(k->table);
}

/* The member of k whose decoded key is name[0 ... n), the last of that key; -1 when none. */
static long keyset_find(const keyset *k, const char *name, size_t n) {
    for (size_t slot = hash(name, n) & k->mask;; slot = (slot + 1) & k->mask) {
        if (!k->table[slot]) return -1;
        const size_t m = k->table[slot] - 1;
        if (k->name_at[m + 1] - k->name_at[m] == n && !memcmp(k->names + k->name_at[m], name, n)) return (long)m;
    }
}

/* The key set of the object at `object`; 0 when memory ran out. */
static int keyset_build(const cli_config_cut *c, size_t object, keyset *k) {
    memset(k, 0, sizeof *k);
    span key, value;
    for (size_t i = object + 1; member(c, &i, &key, &value);) k->count++;
    if (k->count > UINT32_MAX / 4) return 0;
    k->keys = malloc((k->count + 1) * sizeof *k->keys);
    k->values = malloc((k->count + 1) * sizeof *k->values);
    k->name_at = malloc((k->count + 1) * sizeof *k->name_at);
    k->names = malloc(skip_value(c, object) - object);
    size_t slots = 4;
    while (slots < 2 * k->count) slots *= 2;
    k->mask = slots - 1;
    k->table = calloc(slots, sizeof *k->table);
    if (!k->keys || !k->values || !k->name_at || !k->names || !k->table) return 0;
    size_t m = 0, at = 0;
    k->name_at[0] = 0;
    for (size_t i = object + 1; member(c, &i, &k->keys[m], &k->values[m]); m++) {
        const size_t n = decode(c, k->keys[m], k->names + at);
        size_t slot = hash(k->names + at, n) & k->mask;
        for (; k->table[slot]; slot = (slot + 1) & k->mask) {
            const size_t other = k->table[slot] - 1;
            if (k->name_at[other + 1] - k->name_at[other] == n &&
                !memcmp(k->names + k->name_at[other], k->names + at, n))
                break;
        }
        k->table[slot] = (uint32_t)m + 1; /* a repeated key: the later member takes the slot */
        at += n;
        k->name_at[m + 1] = at;
    }
    return 1;
}

static int add_edit(cli_config_cut *c, span at, edit_kind kind) {
    if (c->edit_count == c->edit_cap) {
        const size_t cap = 2 * c->edit_cap + 4;
        edit *grown = realloc(c->edits, cap * sizeof *grown);
        if (!grown) return 0;
        c->edits = grown;
        c->edit_cap = cap;
    }
    c->edits[c->edit_count++] = (edit){at, kind};
    return 1;
}

/* Leaves out the members of `object` that a later member of the same key hides, each from its key to the next
 * member's key (a hidden member is never the last); 0 when memory ran out. */
static int drop_hidden(cli_config_cut *c, size_t object) {
    keyset k;
    int ok = keyset_build(c, object, &k);
    for (size_t m = 0; ok && m + 1 < k.count; m++) {
        const long last = keyset_find(&k, k.names + k.name_at[m], k.name_at[m + 1] - k.name_at[m]);
        if (last != (long)m) ok = add_edit(c, (span){k.keys[m].at, k.keys[m + 1].at}, EDIT_DROP);
    }
    keyset_free(&k);
    return ok;
}

static int by_position(const void *a, const void *b) {
    const size_t x = ((const edit *)a)->at.at, y = ((const edit *)b)->at.at;
    return (x > y) - (x < y);
}

void cli_config_cut_free(cli_config_cut *cut) {
    if (!cut) return;
    keyset_free(&cut->dict);
    free(cut->edits);
    free(cut);
}

cli_config_cut *cli_config_cut_new(const char *json, size_t bytes) {
    cli_config_cut *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->text = json;
    c->bytes = bytes;
    /* The object read as the config, then its dict, as the core picks them (a null value is absent). */
    const size_t root = space(c, 0);
    size_t cfg = root;
    span v, dict;
    if (cfg >= bytes || json[cfg] != '{') goto whole;
    if (find(c, cfg, "text_config", &v) && json[v.at] == '{') cfg = v.at;
    if (!(find(c, cfg, "rope_parameters", &dict) && !is_null(c, dict)) &&
        !(find(c, cfg, "rope_scaling", &dict) && !is_null(c, dict)))
        goto whole;
    if (json[dict.at] != '{') goto whole;
    if (!add_edit(c, dict, EDIT_DICT)) goto whole;
    if (find(c, cfg, "layer_types", &v) && !add_edit(c, v, EDIT_TYPES)) goto whole;
    if (!drop_hidden(c, cfg) || (cfg != root && !drop_hidden(c, root))) goto whole;
    qsort(c->edits, c->edit_count, sizeof *c->edits, by_position);
    c->copied = bytes;
    for (size_t e = 0; e < c->edit_count; e++) c->copied -= c->edits[e].at.end - c->edits[e].at.at;
    /* Keyed by layer type: every value an object (counting the ones a later duplicate hides too; when one of
     * those is not, the config is read whole, which is always right). */
    if (!keyset_build(c, dict.at, &c->dict) || c->dict.count == 0) goto whole;
    for (size_t m = 0; m < c->dict.count; m++)
        if (json[c->dict.values[m].at] != '{') goto whole;
    return c;
whole:
    cli_config_cut_free(c);
    return NULL;
}

char *cli_config_cut_for(const cli_config_cut *c, const char *name, size_t *length) {
    const long k = keyset_find(&c->dict, name, strlen(name));
    if (k < 0) return NULL;
    const span key = c->dict.keys[k], value = c->dict.values[k];
    const size_t key_bytes = key.end - key.at, value_bytes = value.end - value.at;
    char *out = malloc(c->copied + 2 * key_bytes + value_bytes + 8);
    if (!out) return NULL;
    size_t from = 0, to = 0;
    for (size_t e = 0; e < c->edit_count; e++) {
        const edit *x = &c->edits[e];
        memcpy(out + to, c->text + from, x->at.at - from);
        to += x->at.at - from;
        from = x->at.end;
        if (x->kind == EDIT_DROP) continue;
        out[to++] = x->kind == EDIT_DICT ? '{' : '[';
        memcpy(out + to, c->text + key.at, key_bytes);
        to += key_bytes;
        if (x->kind == EDIT_DICT) {
            out[to++] = ':';
            memcpy(out + to, c->text + value.at, value_bytes);
            to += value_bytes;
        }
        out[to++] = x->kind == EDIT_DICT ? '}' : ']';
    }
    memcpy(out + to, c->text + from, c->bytes - from);
    *length = to + c->bytes - from;
    return out;
}
