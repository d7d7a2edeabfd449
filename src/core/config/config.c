/* config.c: pe_config_read (posenc.h, "Model configs"): which position scheme
 * a model's config.json describes, read with HF transformers' names and
 * fallbacks. The RoPE part is in config_rope.c; this file decides the kind,
 * reads ALiBi, relative, learned and sinusoidal configs, refuses unknown keys
 * that change the math, and lists the keys it did not use. */
#include <string.h>

#include "config_reader.h"

/* Substrings of a top-level key that mark it as part of the position scheme. */
static const char *const POSITION_WORDS[] = {"rope", "rotary", "alibi", "position", "pos_emb", "relative_attention",
                                             "ntk",  NULL};

static const char *const RELATIVE_TYPES[] = {"t5", "mt5", "umt5", "longt5", "switch_transformers", NULL};
static const char *const LEARNED_TYPES[] = {"gpt2", "bert",        "roberta",   "xlm-roberta", "distilbert", "electra",
                                            "opt",  "gpt_bigcode", "camembert", "bart",        "mbart",      NULL};
static const char *const OFFSET2_TYPES[] = {"roberta", "xlm-roberta", "camembert", "opt",
                                            "bart",    "mbart",       NULL}; /* row 2 is position 0 */
static const char *const SINUSOIDAL_TYPES[] = {"marian", "m2m_100", "fsmt", NULL};
static const char *const ROPE_KEYS[] = {"rope_theta", "rope_scaling",    "rope_parameters",       "rotary_pct",
                                        "rotary_dim", "rotary_emb_base", "partial_rotary_factor", "qk_rope_head_dim",
                                        NULL};
/* Keys that look like position keys but that HF's modeling code never reads, so they change nothing: listed as
 * ignored, never refused. BLOOM's config.json carries offset_alibi: 100, a Megatron-DeepSpeed training setting
 * that modeling_bloom.py's build_alibi_tensor does not take (bigscience/bloom, bloom-560m ... as shipped). */
static const char *const INERT_POSITION_KEYS[] = {"offset_alibi", NULL};

int pe_config_type_in(const pe_config_reader *r, const char *const *types) {
    for (int k = 0; types[k]; k++)
        if (pe_json_span_is(&r->j, r->model_type, types[k])) return 1;
    return 0;
}

/* The key decoded (its canonical form), searched in the keys buffer above the lines written. */
static int is_position_key(pe_config_reader *r, pe_json_span key) {
    const char *text = r->j.text + key.at;
    size_t length = key.length;
    if (memchr(text, '\\', length) && r->keys_length + 1 + length <= r->scratch_low) {
        char *decoded = r->keys + r->keys_length + 1; /* past the terminator: scratch until the next line */
        length = pe_json_canonical(&r->j, key, decoded);
        text = decoded;
    }
    for (int k = 0; INERT_POSITION_KEYS[k]; k++)
        if (length == strlen(INERT_POSITION_KEYS[k]) && !memcmp(text, INERT_POSITION_KEYS[k], length)) return 0;
    for (int w = 0; POSITION_WORDS[w]; w++) {
        size_t n = strlen(POSITION_WORDS[w]);
        for (size_t at = 0; at + n <= length; at++)
            if (!memcmp(text + at, POSITION_WORDS[w], n)) return 1;
    }
    return 0;
}

/* A value that turns nothing on: null, false, 0, "" or an empty container. */
static int is_off(const pe_json *j, size_t at) {
    char c = pe_json_kind(j, at);
    double v;
    if (c == 'n' || c == 'f') return 1;
    if (c == '"') return j->text[pe_json_space(j, at) + 1] == '"';
    if (c == '{' || c == '[') {
        size_t cursor = 0, value;
        return c == '{' ? !pe_json_member(j, at, &cursor, &(pe_json_span){0, 0}, &value)
                        : !pe_json_element(j, at, &cursor, &value);
    }
    return pe_json_number(j, at, &v) && v == 0.0;
}

static pe_status read_alibi(pe_config_reader *r, pe_config *c) {
    size_t attn;
    c->kind = PE_CONFIG_ALIBI;
    if (pe_config_get(r, r->cfg, "attn_config", &attn)) {
        size_t at;
        pe_config_get(r, attn, "alibi", &at);
        double max = 8.0;
        if (pe_config_get(r, attn, "alibi_bias_max", &at) && (!pe_json_number(&r->j, at, &max) || max != 8.0))
            return pe_config_refuse(r, PE_ERR_SCALING, "attn_config.alibi_bias_max",
                                    "must be 8: posenc's slopes are 2^(-8(h+1)/n), MPT's alibi_bias_max = 8");
    }
    if (c->heads == 0)
        return pe_config_refuse(r, PE_ERR_CONFIG, "n_head", "needed for ALiBi: the number of attention heads");
    if (c->heads > PE_MAX_HEADS) /* one slope a head: pe_alibi_* take at most PE_MAX_HEADS */
        return pe_config_refuse(r, PE_ERR_CONFIG, r->heads_key,
                                "must be at most 65536 for ALiBi (PE_MAX_HEADS: one slope a head)");
    return PE_OK;
}

static pe_status read_relative(pe_config_reader *r, pe_config *c, int shaw) {
    c->kind = PE_CONFIG_RELATIVE;
    c->shaw = shaw;
    if (shaw) {
        if (c->max_positions < 2)
            return pe_config_refuse(r, PE_ERR_CONFIG, "max_position_embeddings",
                                    "needed for relative_key: the clipping distance is max_position_embeddings - 1");
        c->max_relative = c->max_positions - 1;
        return PE_OK;
    }
    pe_status s;
    if ((s = pe_config_count(r, r->cfg, "relative_attention_num_buckets", 32, &c->num_buckets)) != PE_OK) return s;
    if ((s = pe_config_count(r, r->cfg, "relative_attention_max_distance", 128, &c->max_distance)) != PE_OK) return s;
    size_t at;
    c->encoder_decoder = !pe_config_get(r, r->cfg, "is_encoder_decoder", &at) || pe_json_kind(&r->j, at) == 't';
    return PE_OK;
}

/* Whisper: the encoder adds sinusoids(max_source_positions, d_model) (split sin | cos, T^(-i/(d/2-1)),
 * as fairseq's), the decoder a learned table of max_target_positions rows; layer_type "decoder" picks
 * the decoder's, anything else the encoder's. */
static pe_status read_whisper(pe_config_reader *r, const char *layer_type, pe_config *c) {
    pe_status s;
    uint32_t source, target;
    if ((s = pe_config_count(r, r->cfg, "max_source_positions", 1500, &source)) != PE_OK) return s;
    if ((s = pe_config_count(r, r->cfg, "max_target_positions", 448, &target)) != PE_OK) return s;
    if (!c->hidden_size) return pe_config_refuse(r, PE_ERR_CONFIG, "d_model", "needed: the embedding size");
    c->position_offset = 0;
    if (layer_type && !strcmp(layer_type, "decoder")) {
        c->kind = PE_CONFIG_LEARNED;
        c->max_positions = target;
        return PE_OK;
    }
    c->kind = PE_CONFIG_SINUSOIDAL;
    c->max_positions = source;
    c->layout = PE_LAYOUT_SPLIT;
    c->frequencies = PE_FREQ_TENSOR2TENSOR;
    return PE_OK;
}

/* ViT: ViTEmbeddings' learned table, the [CLS] row then one row a patch in raster order: (image_size / patch_size)^2
 * + 1 rows of hidden_size (ViTConfig's defaults 224 and 16; HF floors the division). */
static pe_status read_vit(pe_config_reader *r, pe_config *c) {
    uint32_t image, patch;
    pe_status s;
    if ((s = pe_config_count(r, r->cfg, "image_size", 224, &image)) != PE_OK) return s;
    if ((s = pe_config_count(r, r->cfg, "patch_size", 16, &patch)) != PE_OK) return s;
    const uint64_t side = image / patch, rows = side * side + 1;
    if (side == 0 || rows > 4294967295u)
        return pe_config_refuse(r, PE_ERR_CONFIG, "patch_size",
                                "must be at most image_size, with at most 2^32 - 1 rows");
    if (!c->hidden_size) return pe_config_refuse(r, PE_ERR_CONFIG, "hidden_size", "needed: the table's columns");
    c->kind = PE_CONFIG_LEARNED;
    c->max_positions = (uint32_t)rows;
    c->position_offset = 0;
    return PE_OK;
}

/* position_embedding_type: absent or "absolute" (learned), "relative_key" (Shaw); others refused. */
static pe_status embedding_type(pe_config_reader *r, int *shaw) {
    size_t at;
    *shaw = 0;
    if (!pe_config_get(r, r->cfg, "position_embedding_type", &at) || pe_json_string_is(&r->j, at, "absolute"))
        return PE_OK;
    if (pe_json_string_is(&r->j, at, "relative_key")) {
        *shaw = 1;
        return PE_OK;
    }
    return pe_config_refuse(
        r, PE_ERR_SCALING, "position_embedding_type",
        "must be absolute or relative_key (relative_key_query's query term is not a posenc scheme)");
}

static pe_status read_kind(pe_config_reader *r, const char *layer_type, double *factors, size_t factors_count,
                           pe_config *c) {
    const pe_json *j = &r->j;
    size_t at, attn;
    int shaw = 0;
    if (pe_config_type_in(r, RELATIVE_TYPES) || pe_config_find(r, r->cfg, "relative_attention_num_buckets", &at))
        return read_relative(r, c, 0);
    if (pe_config_type_in(r, (const char *const[]){"mamba", "mamba2", "falcon_mamba", "jamba", NULL})) {
        c->kind = PE_CONFIG_NONE; /* state-space layers, and Jamba's attention without positions */
        return PE_OK;
    }
    int mpt_alibi = pe_config_get(r, r->cfg, "attn_config", &attn) && pe_json_find(j, attn, "alibi", &at) &&
                    pe_json_kind(j, at) == 't';
    int alibi_flag = pe_config_get(r, r->cfg, "alibi", &at) && pe_json_kind(j, at) == 't';
    if (pe_config_type_in(r, (const char *const[]){"bloom", NULL}) || mpt_alibi || alibi_flag) return read_alibi(r, c);
    for (int k = 0; ROPE_KEYS[k]; k++)
        if (pe_config_find(r, r->cfg, ROPE_KEYS[k], &at))
            return pe_config_read_rope(r, layer_type, factors, factors_count, c);
    if (pe_config_rope_type(r)) return pe_config_read_rope(r, layer_type, factors, factors_count, c);
    if (pe_config_type_in(r, SINUSOIDAL_TYPES)) {
        c->kind = PE_CONFIG_SINUSOIDAL;
        /* Marian: split halves, w_i = T^(-2i/d); fairseq (M2M-100, FSMT): split, T^(-i/(d/2-1)), from row 2. */
        int marian = pe_json_span_is(j, r->model_type, "marian");
        c->layout = PE_LAYOUT_SPLIT;
        c->frequencies = marian ? PE_FREQ_PAPER : PE_FREQ_TENSOR2TENSOR;
        c->position_offset = marian ? 0 : 2;
        pe_config_get(r, r->cfg, "scale_embedding", &at); /* the embedding's scale, not the positions' */
        return c->hidden_size ? PE_OK : pe_config_refuse(r, PE_ERR_CONFIG, "d_model", "needed: the embedding size");
    }
    if (pe_json_span_is(j, r->model_type, "whisper")) return read_whisper(r, layer_type, c);
    pe_status s = embedding_type(r, &shaw);
    if (s != PE_OK) return s;
    if (shaw) return read_relative(r, c, 1);
    if (pe_json_span_is(j, r->model_type, "vit")) return read_vit(r, c);
    if (pe_config_type_in(r, LEARNED_TYPES)) {
        c->kind = PE_CONFIG_LEARNED;
        c->position_offset = pe_config_type_in(r, OFFSET2_TYPES) ? 2 : 0;
        if (c->max_positions == 0 || c->hidden_size == 0)
            return pe_config_refuse(r, PE_ERR_CONFIG, "max_position_embeddings",
                                    "needed with hidden_size for learned positions: the table's rows and columns");
        return PE_OK;
    }
    return pe_config_refuse(r, PE_ERR_CONFIG, "model_type",
                            "names no position scheme posenc knows, and the config has no RoPE, ALiBi or T5 keys");
}

/* A top-level key about positions that nothing read and that turns something on. The keys that could be (about
 * positions, on, not ignored by HF's class) are the document's, collected once: a reading marks at most
 * PE_CONFIG_MAX_USED keys, so the first unread one is among the first PE_CONFIG_MAX_USED + 1 of them, and a
 * reading for each layer type (pe_config_read_types) costs no walk of the config. */
static pe_status refuse_unread_position_keys(pe_config_reader *r) {
    pe_config_mark_layer_keys(r); /* read by pe_config_layer_read (config_layers.c) */
    if (!r->candidates_ready) {
        size_t at;
        pe_json_span key;
        pe_config_iter it;
        pe_config_iter_init(r, &it, r->cfg);
        while (r->candidate_count < PE_CONFIG_MAX_USED + 1 && pe_config_next(r, &it, &key, &at))
            if (is_position_key(r, key) && !is_off(&r->j, at) && !pe_config_hf_ignores(r, key))
                r->candidate[r->candidate_count++] = key;
        r->candidates_ready = 1;
    }
    for (int k = 0; k < r->candidate_count; k++)
        if (!pe_config_used(r, r->cfg, r->candidate[k]))
            return pe_config_refuse_span(r, PE_ERR_SCALING, r->candidate[k],
                                         "changes the position encoding and posenc does not read it for this model");
    return PE_OK;
}

/* Opens json for reading (both entry points): the JSON checked (depth, an object), the dict to read (text_config's
 * when there is one, with its prefix) and the model type. PE_OK, or the refusal written to keys. */
pe_status pe_config_open(pe_config_reader *r, const char *json, size_t json_bytes, char *keys, size_t keys_bytes) {
    pe_config_reader_init(r, json, json_bytes, keys, keys_bytes);
    pe_json_verdict verdict = pe_json_check(&r->j);
    if (verdict == PE_JSON_TOO_DEEP)
        return pe_config_refuse(r, PE_ERR_CONFIG, "(config)",
                                "nests objects and arrays deeper than 1000 levels, posenc's limit for a config.json");
    if (verdict != PE_JSON_VALID || pe_json_kind(&r->j, 0) != '{')
        return pe_config_refuse(r, PE_ERR_CONFIG, "(config)", "must be a JSON object: the text of a config.json");
    /* The jump table at the top of the scratch, when it leaves 7 * json_bytes for the lines and the indexes: the
     * reading walks the config's members dozens of times, and without it each walk scans every value again. */
    const size_t jump_bytes = pe_json_jump_slots(json_bytes) * sizeof(uint32_t), top = r->scratch_low & ~(size_t)3;
    if (top >= jump_bytes && top - jump_bytes >= 7 * json_bytes + 1024) {
        r->scratch_low = top - jump_bytes;
        pe_json_jumps(&r->j, (uint32_t *)(void *)(r->keys + r->scratch_low));
    }
    size_t at;
    if (pe_config_get(r, r->root, "text_config", &at) && pe_json_kind(&r->j, at) == '{') {
        r->cfg = at;
        r->prefix = "text_config.";
        pe_config_get(r, r->root, "model_type", &at); /* the checkpoint's; text_config's names the text model */
    }
    if (!pe_config_get(r, r->cfg, "model_type", &at) || !pe_json_string(&r->j, at, &r->model_type))
        if (r->cfg == r->root || !pe_config_get(r, r->root, "model_type", &at) ||
            !pe_json_string(&r->j, at, &r->model_type))
            r->model_type.length = 0;
    return PE_OK;
}

/* One layer type's reading of an opened document into *c (nothing written elsewhere but keys). */
static pe_status read_one(pe_config_reader *r, const char *layer_type, double *factors, size_t factors_count,
                          pe_config *c) {
    memset(c, 0, sizeof *c);
    pe_status s = pe_config_read_sizes(r, c);
    if (s == PE_OK) s = read_kind(r, layer_type, factors, factors_count, c);
    if (s == PE_OK) s = refuse_unread_position_keys(r);
    return s;
}

/* The arguments both entry points share, checked: PE_OK or the refusal. */
static pe_status check_args(const char *json, size_t json_bytes, const double *factors, size_t factors_count,
                            const void *out, char *keys, size_t keys_bytes) {
    if (keys && keys_bytes) keys[0] = '\0'; /* keys is NUL-terminated whatever the answer */
    if (!json || !out || !keys || (!factors && factors_count)) return PE_ERR_NULL;
    if (json_bytes > PE_CONFIG_MAX_BYTES) return PE_ERR_TOO_LARGE;
    if (keys_bytes < 256 || (keys_bytes - 256) / 8 < json_bytes) return PE_ERR_OUT_SIZE;
    return PE_OK;
}

pe_status pe_config_read(const char *json, size_t json_bytes, const char *layer_type, double *factors,
                         size_t factors_count, pe_config *out, char *keys, size_t keys_bytes) {
    pe_status s = check_args(json, json_bytes, factors, factors_count, out, keys, keys_bytes);
    if (s != PE_OK) return s;
    pe_config_reader r;
    if ((s = pe_config_open(&r, json, json_bytes, keys, keys_bytes)) != PE_OK) return s;
    pe_config c;
    if ((s = read_one(&r, layer_type, factors, factors_count, &c)) != PE_OK) return s;
    pe_config_list_unused(&r);
    if (r.overflow) return PE_ERR_OUT_SIZE;
    pe_config_write_factors(&r, factors);
    *out = c;
    return PE_OK;
}

/* The reader as the document's opening left it, before the next layer type's reading: no lines, no keys read
 * but the opening's, no lists, no index past the document's (an entry's index is its type's alone). */
typedef struct reader_mark {
    int used_count, index_count;
    size_t scratch_low;
} reader_mark;

static void restart(pe_config_reader *r, reader_mark m) {
    r->used_count = m.used_count;
    r->index_count = m.index_count;
    r->scratch_low = m.scratch_low;
    r->keys_length = 0;
    r->keys[0] = '\0';
    r->overflow = 0;
    r->factor_lists[0] = r->factor_lists[1] = 0;
    r->factor_half = 0;
}

pe_status pe_config_read_types(const char *json, size_t json_bytes, double *factors, size_t factors_count,
                               pe_config *out, uint32_t count, char *keys, size_t keys_bytes, uint32_t *refused) {
    if (refused) *refused = count;
    pe_status s = check_args(json, json_bytes, factors, factors_count, out, keys, keys_bytes);
    if (s != PE_OK) return s;
    pe_config_reader r;
    if ((s = pe_config_open(&r, json, json_bytes, keys, keys_bytes)) != PE_OK) return s;
    r.batch = 1;
    const int opened_used = r.used_count;
    pe_config c;
    /* The reading for no layer type: its refusal, or the list of the types. */
    s = read_one(&r, NULL, factors, factors_count, &c);
    if (s == PE_OK || (s == PE_ERR_LAYER_TYPE && r.keys_length == 0)) {
        r.keys_length = 0, keys[0] = '\0';
        return PE_ERR_LAYER_TYPE; /* one RoPE for every layer (or none): no layer types */
    }
    if (s != PE_ERR_LAYER_TYPE) return s;
    uint32_t types = 0;
    for (size_t k = 0; k < r.keys_length; k++) types += keys[k] == '\n';
    if (types > count) {
        r.keys_length = 0, keys[0] = '\0';
        return PE_ERR_OUT_SIZE;
    }
    /* The names move to the top of the scratch, one NUL-terminated after another; the lines start again at 0. */
    const size_t names_bytes = r.keys_length;
    /* the names (a key of the text each, or Gemma's two) leave the lines most of keys_bytes */
    if (names_bytes >= r.scratch_low) return PE_ERR_OUT_SIZE; /* cannot happen with the documented size */
    char *names = keys + r.scratch_low - names_bytes;
    memmove(names, keys, names_bytes);
    for (size_t k = 0; k < names_bytes; k++)
        if (names[k] == '\n') names[k] = '\0';
    const reader_mark mark = {opened_used, r.index_count, r.scratch_low - names_bytes};
    /* Every type read twice: first to refuse before anything is written, then to write. */
    for (int write = 0; write < 2; write++) {
        size_t used = 0; /* factors taken by the types before */
        const char *name = names;
        for (uint32_t t = 0; t < types; t++, name += strlen(name) + 1) {
            restart(&r, mark);
            s = read_one(&r, name, factors ? factors + used : NULL, factors_count - used, &c);
            if (s != PE_OK && refused) *refused = t;
            if (s != PE_OK) return s;
            if (r.overflow) return PE_ERR_OUT_SIZE;
            const size_t taken = 2 * (size_t)r.factor_half;
            if (write) {
                pe_config_write_factors(&r, factors + used);
                out[t] = c;
            }
            used += taken;
            if (write && t + 1 == types) pe_config_list_unused(&r); /* the last type's, as pe_config_read lists */
        }
    }
    return r.overflow ? PE_ERR_OUT_SIZE : PE_OK;
}
