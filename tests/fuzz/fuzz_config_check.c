/* fuzz_config_check.c: second readings of a config text for the config
 * target (fuzz_readers.c). json_verdict is a JSON reader of its own (recursive
 * descent over RFC 8259, strict UTF-8, PE_CONFIG_MAX_DEPTH), written apart
 * from src/core/config/json.c, whose verdict pe_config_read's must match: a
 * text it calls malformed, too deep or not an object is refused naming
 * "(config)", and no other text is. check_layers reads every layer of the text
 * with pe_config_layers_read (between guard bytes, refusing before writing,
 * NULL arguments refused) and each of the first ones again alone with
 * pe_config_layer_read: both answers must be the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

enum { VERDICT_OBJECT, VERDICT_OTHER_VALUE, VERDICT_MALFORMED, VERDICT_TOO_DEEP };

typedef struct reader {
    const unsigned char *t;
    size_t n, i;
    int too_deep;
} reader;

static void spaces(reader *r) {
    while (r->i < r->n && (r->t[r->i] == ' ' || r->t[r->i] == '\t' || r->t[r->i] == '\n' || r->t[r->i] == '\r')) r->i++;
}

/* Continuation bytes lo ... hi for the first, 0x80 ... 0xBF for the rest (Unicode's table of well-formed UTF-8). */
static int utf8(reader *r) {
    const unsigned char c = r->t[r->i];
    int more;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        more = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F; /* no UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F; /* nothing past U+10FFFF */
    } else
        return 0;
    for (int k = 1; k <= more; k++) {
        if (r->i + k >= r->n) return 0;
        const unsigned char b = r->t[r->i + k];
        if (k == 1 ? b < lo || b > hi : b < 0x80 || b > 0xBF) return 0;
    }
    r->i += (size_t)more + 1;
    return 1;
}

static int is_hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int string(reader *r) {
    if (r->i >= r->n || r->t[r->i] != '"') return 0;
    r->i++;
    while (r->i < r->n) {
        const unsigned char c = r->t[r->i];
        if (c == '"') {
            r->i++;
            return 1;
        }
        if (c < 0x20) return 0;
        if (c >= 0x80) {
            if (!utf8(r)) return 0;
            continue;
        }
        r->i++;
        if (c != '\\') continue;
        if (r->i >= r->n) return 0;
        const unsigned char e = r->t[r->i++];
        if (e == 'u') {
            for (int k = 0; k < 4; k++, r->i++)
                if (r->i >= r->n || !is_hex(r->t[r->i])) return 0;
        } else if (!memchr("\"\\/bfnrt", e, 8)) {
            return 0;
        }
    }
    return 0;
}

static int digits(reader *r) {
    size_t from = r->i;
    while (r->i < r->n && r->t[r->i] >= '0' && r->t[r->i] <= '9') r->i++;
    return r->i > from;
}

static int number(reader *r) {
    if (r->i < r->n && r->t[r->i] == '-') r->i++;
    if (r->i >= r->n) return 0;
    if (r->t[r->i] == '0')
        r->i++;
    else if (!digits(r))
        return 0;
    if (r->i < r->n && r->t[r->i] == '.') {
        r->i++;
        if (!digits(r)) return 0;
    }
    if (r->i < r->n && (r->t[r->i] == 'e' || r->t[r->i] == 'E')) {
        r->i++;
        if (r->i < r->n && (r->t[r->i] == '+' || r->t[r->i] == '-')) r->i++;
        if (!digits(r)) return 0;
    }
    return 1;
}

static int word(reader *r, const char *w) {
    const size_t len = strlen(w);
    if (r->n - r->i < len || memcmp(r->t + r->i, w, len)) return 0;
    r->i += len;
    return 1;
}

/* One value at r->i (spaces before it skipped), inside `depth` open containers. */
static int value(reader *r, unsigned depth) {
    spaces(r);
    if (r->i >= r->n) return 0;
    const unsigned char c = r->t[r->i];
    if (c == '{' || c == '[') {
        if (depth == PE_CONFIG_MAX_DEPTH) {
            r->too_deep = 1;
            return 0;
        }
        const unsigned char close = c == '{' ? '}' : ']';
        r->i++;
        spaces(r);
        if (r->i < r->n && r->t[r->i] == close) {
            r->i++;
            return 1;
        }
        for (;;) {
            if (c == '{') {
                spaces(r);
                if (!string(r)) return 0;
                spaces(r);
                if (r->i >= r->n || r->t[r->i] != ':') return 0;
                r->i++;
            }
            if (!value(r, depth + 1)) return 0;
            spaces(r);
            if (r->i >= r->n) return 0;
            if (r->t[r->i] == close) {
                r->i++;
                return 1;
            }
            if (r->t[r->i] != ',') return 0;
            r->i++;
        }
    }
    if (c == '"') return string(r);
    if (c == 't') return word(r, "true");
    if (c == 'f') return word(r, "false");
    if (c == 'n') return word(r, "null");
    return number(r);
}

static int json_verdict(const char *text, size_t length) {
    reader r = {(const unsigned char *)text, length, 0, 0};
    const int ok = value(&r, 0);
    if (r.too_deep) return VERDICT_TOO_DEEP;
    spaces(&r);
    if (!ok || r.i != length) return VERDICT_MALFORMED;
    r.i = 0;
    spaces(&r);
    return r.t[r.i] == '{' ? VERDICT_OBJECT : VERDICT_OTHER_VALUE;
}

void check_json_verdict(const char *json, size_t json_bytes, pe_status st, const char *keys) {
    const char *call = "pe_config_read (an independent JSON reading)";
    const int verdict = json_verdict(json, json_bytes);
    const int whole = st == PE_ERR_CONFIG && !strncmp(keys, "(config)\n", 9);
    if (verdict == VERDICT_OBJECT && whole) fail("refused a JSON object as not one", call);
    if (verdict != VERDICT_OBJECT && !whole) fail("read a text that is not a JSON object", call);
    if (whole && (verdict == VERDICT_TOO_DEEP) != (strstr(keys, "deeper than") != NULL))
        fail("too deep and malformed told apart otherwise", call);
}

#define SINGLES 24 /* layers read again one by one: each reading takes the whole text */

/* pe_config_layers_read of the text (mode: 0 every layer, 1 the range given by from and count, each taken modulo
 * the layers + 2, 2 ... 4 a NULL json, out or keys), checked as above. */
void check_layers(const char *json, size_t json_bytes, int mode, uint32_t range_from, uint32_t range_count) {
    const char *call = "pe_config_layers_read";
    const size_t keys_bytes = 8 * json_bytes + 256;
    char *keys = malloc(keys_bytes);
    if (!keys) abort();
    pe_config_layer first;
    const pe_status st0 = pe_config_layer_read(json, json_bytes, 0, &first, keys, keys_bytes);
    if (memchr(keys, 0, keys_bytes) == NULL) fail("keys is not NUL-terminated", "pe_config_layer_read");
    if (st0 == PE_OK && (first.layers == 0 || first.layers > PE_CONFIG_MAX_LAYERS))
        fail("a layer count out of range", call);
    uint32_t from = 0, count = st0 == PE_OK ? first.layers : 1 + range_count % 8;
    if (mode == 1) {
        from = range_from % (count + 2);
        count = range_count % (count + 2);
    }
    guarded out_g, keys_g;
    pe_config_layer *out = guard_alloc(&out_g, (size_t)(count ? count : 1) * sizeof *out);
    char *keys2 = guard_alloc(&keys_g, keys_bytes);
    const pe_status st = pe_config_layers_read(mode == 2 ? NULL : json, json_bytes, from, count, mode == 3 ? NULL : out,
                                               mode == 4 ? NULL : keys2, keys_bytes);
    trace(call, st);
    if (mode >= 2 && st != PE_ERR_NULL) fail("a NULL argument was not refused", call);
    guard_check(&out_g, call, st != PE_OK);
    guard_check(&keys_g, call, mode == 4);
    if (mode != 4 && memchr(keys2, 0, keys_bytes) == NULL) fail("keys is not NUL-terminated", call);
    if (mode < 2) {
        const int in_range = st0 == PE_OK && count > 0 && from < first.layers && count <= first.layers - from;
        if (st0 != PE_OK && from == 0 && count > 0 && st != st0)
            fail("another refusal than pe_config_layer_read's of layer 0", call);
        if (st0 == PE_OK && !in_range && st != PE_ERR_LAYER_TYPE) fail("a range past the layers was not refused", call);
        if (st == PE_OK) {
            /* Each layer alone: the same answer, or (the batch reads no layer alone) a refusal of the batch. */
            for (uint32_t k = 0; k < count && k < SINGLES; k++) {
                pe_config_layer one;
                memset(&one, 0, sizeof one);
                if (pe_config_layer_read(json, json_bytes, from + k, &one, keys, keys_bytes) != PE_OK)
                    fail("a layer of an accepted range refused alone", call);
                if (memcmp(&one, &out[k], sizeof one)) fail("a layer read alone differs from the range's", call);
                if (out[k].layers != first.layers || out[k].positions > PE_LAYER_NO_ATTENTION ||
                    !memchr(out[k].kind, 0, sizeof out[k].kind) ||
                    !memchr(out[k].layer_type, 0, sizeof out[k].layer_type))
                    fail("a layer out of its ranges", call);
            }
        } else if (st == PE_ERR_CONFIG && st0 == PE_OK) {
            /* A refusal after layer 0 was read: one layer of the range must be refused alone too. */
            int refused = 0;
            for (uint32_t k = 0; k < count && !refused; k++)
                refused = pe_config_layer_read(json, json_bytes, from + k, &first, keys, keys_bytes) != PE_OK;
            if (!refused) fail("a range refused though every layer of it reads alone", call);
        }
    }
    guard_free(&out_g);
    guard_free(&keys_g);
    free(keys);
}

/* ---- The meaning of an accepted config, from a reading of the fuzzer's own ----
 * A member is found as JSON.parse and Python's json find it: keys compared with
 * their escapes decoded, the last of a repeated key, null meaning absent (as HF
 * reads it). Only texts json_verdict calls an object are read, so the walk
 * below (the reader above, skipping values) never leaves the text. */

/* The string at `at` (its opening quote) decoded into out (cap bytes; longer ones are cut): its decoded length. */
static size_t decoded(const unsigned char *t, size_t at, char *out, size_t cap) {
    size_t n = 0;
    for (size_t i = at + 1; t[i] != '"'; i++) {
        unsigned u = t[i];
        if (u == '\\') {
            const unsigned char e = t[++i];
            if (e == 'u') {
                u = 0;
                for (int k = 1; k <= 4; k++)
                    u = 16 * u + (unsigned)(t[i + k] <= '9' ? t[i + k] - '0' : (t[i + k] | 0x20) - 'a' + 10);
                i += 4;
                if (u >= 0xD800 && u < 0xDC00 && t[i + 1] == '\\' && t[i + 2] == 'u') {
                    unsigned low = 0;
                    for (int k = 3; k <= 6; k++)
                        low = 16 * low + (unsigned)(t[i + k] <= '9' ? t[i + k] - '0' : (t[i + k] | 0x20) - 'a' + 10);
                    if (low >= 0xDC00 && low < 0xE000) {
                        u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                        i += 6;
                    }
                }
                /* As UTF-8; the names looked for are ASCII, so only the length of the rest matters. */
                const size_t bytes = u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
                if (bytes == 1 && n < cap) out[n] = (char)u;
                if (bytes > 1 && n < cap) out[n] = (char)0x80;
                n += bytes;
                continue;
            }
            const char *k = strchr("\"\\/bfnrt", e);
            u = (unsigned char)"\"\\/\b\f\n\r\t"[k - "\"\\/bfnrt"];
        }
        if (n < cap) out[n] = (char)u;
        n++;
    }
    return n;
}

/* The value of the last member `name` of the object at `object`: its offset, or 0 when absent or null. */
static size_t member_of(const char *json, size_t json_bytes, size_t object, const char *name) {
    reader r = {(const unsigned char *)json, json_bytes, object + 1, 0};
    const size_t length = strlen(name);
    size_t found = 0;
    char key[64];
    for (;;) {
        spaces(&r);
        if (r.t[r.i] == '}') break;
        if (r.t[r.i] == ',') r.i++, spaces(&r);
        const size_t key_at = r.i;
        string(&r);
        spaces(&r);
        r.i++; /* the colon */
        spaces(&r);
        const size_t value_at = r.i;
        value(&r, 0);
        if (decoded(r.t, key_at, key, sizeof key) == length && !memcmp(key, name, length))
            found = r.t[value_at] == 'n' ? 0 : value_at;
    }
    return found;
}

/* The number at `at` (0: absent) as a double: 1 when it is one. */
static int number_at(const char *json, size_t at, double *v) {
    if (!at || !(json[at] == '-' || (json[at] >= '0' && json[at] <= '9'))) return 0;
    *v = strtod(json + at, NULL); /* a number inside an object ends at a delimiter strtod stops at */
    return 1;
}

/* The first of `names` present in `object` (HF's fallbacks in posenc.h's order), as a whole number: 1 and *v. */
static int first_number(const char *json, size_t json_bytes, size_t object, const char *const *names, double *v) {
    for (int k = 0; names[k]; k++) {
        const size_t at = member_of(json, json_bytes, object, names[k]);
        if (at) return number_at(json, at, v);
    }
    return 0;
}

static int string_is(const char *json, size_t at, const char *text) {
    char s[32];
    return at && json[at] == '"' && decoded((const unsigned char *)json, at, s, sizeof s) == strlen(text) &&
           !memcmp(s, text, strlen(text));
}

void check_config_meaning(const char *json, size_t json_bytes, const char *layer, pe_status st, const pe_config *c) {
    const char *call = "pe_config_read (the fuzzer's own reading of the fields)";
    if (st != PE_OK || json_verdict(json, json_bytes) != VERDICT_OBJECT) return;
    size_t root = 0;
    while (json[root] != '{') root++;
    size_t cfg = root;
    const size_t text_config = member_of(json, json_bytes, root, "text_config");
    if (text_config && json[text_config] == '{') cfg = text_config;
    static const char *const HEADS[] = {"num_attention_heads", "n_head", "n_heads", "num_heads", NULL};
    static const char *const HIDDEN[] = {"hidden_size", "n_embd", "d_model", NULL};
    static const char *const POSITIONS[] = {"max_position_embeddings", "n_positions", "max_seq_len", NULL};
    static const char *const KV[] = {"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num", NULL};
    double v;
    if (first_number(json, json_bytes, cfg, HEADS, &v) && c->heads != v) fail("heads is not the config's", call);
    if (first_number(json, json_bytes, cfg, HIDDEN, &v) && c->hidden_size != v)
        fail("hidden_size is not the config's", call);
    if (first_number(json, json_bytes, cfg, POSITIONS, &v) && c->max_positions != v)
        fail("max_positions is not the config's", call);
    if (!member_of(json, json_bytes, cfg, "multi_query") && first_number(json, json_bytes, cfg, KV, &v) &&
        c->kv_heads != v)
        fail("kv_heads is not the config's", call);
    if (c->kind == PE_CONFIG_RELATIVE && !c->shaw &&
        number_at(json, member_of(json, json_bytes, cfg, "relative_attention_num_buckets"), &v) && c->num_buckets != v)
        fail("num_buckets is not the config's", call);
    if (c->kind != PE_CONFIG_ROPE || c->layer_types != 0) return; /* one RoPE for all layers from here */
    (void)layer;
    if (c->rope.heads != c->heads) fail("rope.heads is not heads", call);
    const size_t model_type = member_of(json, json_bytes, cfg, "model_type");
    if (!member_of(json, json_bytes, cfg, "qk_rope_head_dim") && !string_is(json, model_type, "deepseek_v2") &&
        !string_is(json, model_type, "deepseek_v3") &&
        number_at(json, member_of(json, json_bytes, cfg, "head_dim"), &v) && c->rope.head_dim != v)
        fail("rope.head_dim is not the config's head_dim", call);
    /* The dict: rope_parameters, else rope_scaling; the base: its rope_theta, else rope_theta, else
     * rotary_emb_base (a default only when none is given: not checked). */
    size_t dict = member_of(json, json_bytes, cfg, "rope_parameters");
    if (!dict) dict = member_of(json, json_bytes, cfg, "rope_scaling");
    if (dict && json[dict] != '{') fail("a dict that is not an object accepted", call);
    static const char *const BASES[] = {"rope_theta", "rotary_emb_base", NULL};
    if ((dict && number_at(json, member_of(json, json_bytes, dict, "rope_theta"), &v)) ||
        first_number(json, json_bytes, cfg, BASES, &v)) {
        if (c->rope.base != v) fail("rope.base is not the config's rope_theta", call);
    }
    const pe_rope_scaling_type type = c->rope.scaling.type;
    if (dict && !c->longrope && type != PE_ROPE_SCALING_NONE &&
        number_at(json, member_of(json, json_bytes, dict, "factor"), &v) && c->rope.scaling.factor != v)
        fail("the scaling factor is not the dict's", call);
    if (dict && type == PE_ROPE_SCALING_NONE && !c->longrope) {
        /* No scaling read: the dict's type, when it names one, is default or mrope. */
        size_t at = member_of(json, json_bytes, dict, "rope_type");
        if (!at) at = member_of(json, json_bytes, dict, "type");
        if (at && !string_is(json, at, "default") && !string_is(json, at, "mrope"))
            fail("a scaling type read as no scaling", call);
    }
}
