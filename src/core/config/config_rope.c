/* config_rope.c: the RoPE part of pe_config_read (posenc.h states the rules):
 * head and rotary sizes, the base, and the scaling dict (rope_parameters or
 * rope_scaling, one for all layers or one per layer type) with HF's fallbacks. */
#include <stdio.h>
#include <string.h>

#include "config_reader.h"

static const char *const ROPE_TYPES[] = {
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen2_vl", "qwen2_5_vl", "phi", "phi3",
    "gemma", "gemma2", "gemma3", "gemma3_text", "deepseek_v2", "deepseek_v3", "gpt_neox", "gptj", "codegen", "stablelm",
    "olmo", "olmo2", "starcoder2", "cohere", "granite", "persimmon", "falcon", "internlm2", "mistral3", "cohere2",
    "smollm3", "llama4", "llama4_text", "qwen3_vl", "qwen3_vl_text", "qwen3_5", "qwen3_5_text", "qwen3_next", "gpt_oss",
    "olmo3", "ministral3", "glm", "glm4", "modernbert", "minicpm", "exaone4",
    /* GLM-4's first release (THUDM/glm-4-9b-chat, June 2024): the authors' modeling_chatglm.py (trust_remote_code),
     * before transformers' "glm" port; see chatglm_rope below. */
    "chatglm",
    /* Falcon's first published configs (tiiuae/falcon-40b, -7b, May 2023): the authors' modelling_RW.py,
     * rotate_half RoPE with base 10000, before transformers' "falcon" port. */
    "RefinedWeb", "RefinedWebModel", NULL};
/* Pairs (x[2i], x[2i+1]): GPT-J's rotate_every_two; DeepSeek's reference code permutes to it. */
/* Cohere's and GLM's rotate_half take x[..., ::2] and x[..., 1::2]; Llama 4 views pairs as complex numbers. */
static const char *const INTERLEAVED_TYPES[] = {"gptj", "codegen", "deepseek_v2", "deepseek_v3", "cohere",  "cohere2",
                                                "glm",  "glm4",    "llama4",      "llama4_text", "chatglm", NULL};

static const char *const MINISTRAL3[] = {"ministral3", NULL};

/* Keys each rope_type reads besides rope_type, type, rope_theta and partial_rotary_factor. */
static const struct {
    const char *type;
    pe_rope_scaling_type scaling;
    const char *keys[9];
} TYPES[] = {
    {"default", PE_ROPE_SCALING_NONE, {"mrope_section", "mrope_interleaved"}},
    {"mrope", PE_ROPE_SCALING_NONE, {"mrope_section", "mrope_interleaved"}}, /* Qwen2-VL's legacy type */
    {"linear", PE_ROPE_SCALING_LINEAR, {"factor"}},
    {"dynamic", PE_ROPE_SCALING_DYNAMIC, {"factor", "original_max_position_embeddings"}},
    {"yarn",
     PE_ROPE_SCALING_YARN,
     {"factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "attention_factor", "mscale",
      "mscale_all_dim", "truncate"}},
    {"llama3",
     PE_ROPE_SCALING_LLAMA3,
     {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}},
    {"longrope",
     PE_ROPE_SCALING_NONE,
     {"short_factor", "long_factor", "factor", "attention_factor", "original_max_position_embeddings"}},
};
#define TYPE_COUNT (sizeof TYPES / sizeof TYPES[0])

int pe_config_rope_type(const pe_config_reader *r) {
    return pe_config_type_in(r, ROPE_TYPES);
}

/* The scaling dict being read: where it is and its dotted name for messages. */
typedef struct dict {
    size_t at; /* 0: none */
    char name[160];
} dict;

static pe_status refuse_key(pe_config_reader *r, pe_status status, const dict *d, const char *key, const char *reason) {
    char name[200];
    snprintf(name, sizeof name, "%.150s.%.40s", d->name, key);
    return pe_config_refuse(r, status, name, reason);
}

/* A number written past the double range (1e400) reads as infinity, as in Python's json: refused, as a config
 * object's Infinity is, rather than given as a base or factor. */
static const char FINITE[] = "must be a finite number: it is past the range of a double";

/* An optional number of the dict: 1 when present (and a number), 0 when absent; refused otherwise. */
static pe_status dict_number(pe_config_reader *r, const dict *d, const char *key, double *v, int *present) {
    size_t at;
    *present = d->at && pe_config_get(r, d->at, key, &at);
    if (*present && !pe_json_number(&r->j, at, v)) return refuse_key(r, PE_ERR_SCALING, d, key, "must be a number");
    if (*present && !(*v - *v == 0)) return refuse_key(r, PE_ERR_SCALING, d, key, FINITE);
    return PE_OK;
}

static pe_status head_dim(pe_config_reader *r, pe_config *c, uint32_t *dim) {
    size_t at;
    pe_status s;
    if (pe_config_type_in(r, (const char *const[]){"deepseek_v2", "deepseek_v3", NULL}) ||
        pe_config_find(r, r->cfg, "qk_rope_head_dim", &at)) {
        s = pe_config_count(r, r->cfg, "qk_rope_head_dim", 0, dim);
        if (s == PE_OK && *dim == 0)
            return pe_config_refuse(r, PE_ERR_CONFIG, "qk_rope_head_dim",
                                    "needed for DeepSeek's RoPE: the rotated part of each head");
        return s;
    }
    if ((s = pe_config_count(r, r->cfg, "head_dim", 0, dim)) != PE_OK || *dim) return s;
    double fallback;
    if (pe_config_model_default(r, "head_dim", &fallback)) { /* the config class's default (Gemma 3: 256) */
        *dim = (uint32_t)fallback;
        return PE_OK;
    }
    if (c->hidden_size == 0 || c->heads == 0)
        return pe_config_refuse(
            r, PE_ERR_CONFIG, "hidden_size",
            "needed with num_attention_heads when head_dim is absent (head_dim = hidden_size / heads)");
    *dim = c->hidden_size / c->heads; /* HF: hidden_size // num_attention_heads */
    return PE_OK;
}

/* Which dict holds this layer type's RoPE, and the layer count. */
static pe_status pick_dict(pe_config_reader *r, const char *layer_type, dict *d, int *local, pe_config *c) {
    size_t at, value;
    pe_json_span key;
    const char *top = pe_config_get(r, r->cfg, "rope_parameters", &at) ? "rope_parameters" : NULL;
    if (!top && pe_config_get(r, r->cfg, "rope_scaling", &at)) top = "rope_scaling";
    *local = 0;
    d->at = 0;
    if (top && pe_json_kind(&r->j, at) != '{')
        return pe_config_refuse(r, PE_ERR_SCALING, top,
                                "must be an object such as { \"rope_type\": \"linear\", \"factor\": 2 }");
    if (top) {
        d->at = pe_json_space(&r->j, at);
        snprintf(d->name, sizeof d->name, "%s", top); /* pe_config_refuse adds the prefix (text_config.) */
    }
    /* Per layer type: every value of the dict is an object. Counted once a document: pe_config_read_types reads
     * every layer type with one reader, and a walk a type would make it quadratic in the types. */
    pe_config_iter it;
    if (d->at && r->dict_seen != d->at) {
        r->dict_seen = d->at;
        r->dict_objects = 0, r->dict_all = 1;
        pe_config_iter_init(r, &it, d->at);
        while (pe_config_next(r, &it, &key, &value)) {
            r->dict_objects++;
            r->dict_all = r->dict_all && pe_json_kind(&r->j, value) == '{';
        }
    }
    const uint32_t objects = d->at ? r->dict_objects : 0;
    const int all = d->at ? r->dict_all : 1;
    /* Gemma 3's rope_local_base_freq, ModernBERT's two thetas: unless the dict is already per layer type. */
    int gemma_local = !(objects > 0 && all) && pe_config_split_bases(r);
    if (!(objects > 0 && all) && !gemma_local) {
        if (!layer_type) return PE_OK;
        r->keys_length = 0; /* a layer type named for RoPE that is one for all layers: no list */
        r->keys[0] = '\0';
        return PE_ERR_LAYER_TYPE;
    }
    pe_config_get(r, r->cfg, "layer_types", &at); /* says which layers use which: read with the dict */
    if (gemma_local) {
        /* Gemma 3 before v5: full_attention uses rope_theta and the dict, sliding_attention rope_local_base_freq. */
        c->layer_types = 2;
        if (layer_type && !strcmp(layer_type, "full_attention")) return PE_OK;
        if (layer_type && !strcmp(layer_type, "sliding_attention")) {
            *local = 1;
            d->at = 0;
            return PE_OK;
        }
        r->keys_length = 0;
        pe_config_write_line(r, "", "full_attention", 14);
        pe_config_write_line(r, "", "sliding_attention", 17);
        return PE_ERR_LAYER_TYPE;
    }
    c->layer_types = objects;
    r->types_dict = d->at;
    if (layer_type && pe_config_find(r, d->at, layer_type, &value)) { /* through the dict's index */
        pe_config_get(r, d->at, layer_type, &value);
        d->at = pe_json_space(&r->j, value);
        size_t n = strlen(d->name);
        snprintf(d->name + n, sizeof d->name - n, ".%s", layer_type);
        return PE_OK;
    }
    r->keys_length = 0;
    pe_config_iter_init(r, &it, d->at);
    while (pe_config_next(r, &it, &key, &value)) pe_config_write_key(r, "", key);
    return PE_ERR_LAYER_TYPE;
}

/* rope_type (or the legacy type) of the dict: an index into TYPES. */
static pe_status scaling_type(pe_config_reader *r, const dict *d, size_t *type) {
    size_t at_new, at_old;
    int has_new = d->at && pe_config_get(r, d->at, "rope_type", &at_new);
    int has_old = d->at && pe_config_get(r, d->at, "type", &at_old);
    pe_json_span name = {0, 0}, old = {0, 0};
    *type = 0;
    if (has_new && !pe_json_string(&r->j, at_new, &name))
        return refuse_key(r, PE_ERR_SCALING, d, "rope_type", "must be a string");
    if (has_old && !pe_json_string(&r->j, at_old, &old))
        return refuse_key(r, PE_ERR_SCALING, d, "type", "must be a string");
    if (has_new && has_old && !pe_json_spans_equal(&r->j, name, old))
        return refuse_key(r, PE_ERR_SCALING, d, "type", "must equal rope_type (it is its legacy name) or be left out");
    if (!has_new) name = old;
    if (!has_new && !has_old) return PE_OK;
    for (size_t k = 0; k < TYPE_COUNT; k++)
        if (pe_json_span_is(&r->j, name, TYPES[k].type)) {
            *type = k;
            return PE_OK;
        }
    return refuse_key(r, PE_ERR_SCALING, d, has_new ? "rope_type" : "type",
                      "must be default, linear, dynamic, yarn, llama3, longrope or mrope");
}

/* Every key of the dict is one this rope_type reads. */
static pe_status known_keys(pe_config_reader *r, const dict *d, size_t type) {
    size_t value;
    pe_json_span key;
    pe_config_iter it;
    static const char *const COMMON[] = {"rope_type", "type", "rope_theta", "partial_rotary_factor"};
    if (d->at) pe_config_iter_init(r, &it, d->at);
    while (d->at && pe_config_next(r, &it, &key, &value)) {
        int known = 0;
        for (int k = 0; k < 4 && !known; k++) known = pe_json_span_is(&r->j, key, COMMON[k]);
        for (int k = 0; k < 9 && TYPES[type].keys[k] && !known; k++)
            known = pe_json_span_is(&r->j, key, TYPES[type].keys[k]);
        /* Ministral 3's query scale, whatever the rope_type (its class skips it in the rope validation): described
         * per layer (config_layers.c), never part of the rotation. */
        if (!known && pe_config_type_in(r, MINISTRAL3)) known = pe_json_span_is(&r->j, key, "llama_4_scaling_beta");
        if (known) continue;
        char name[200];
        name[pe_json_canonical_prefix(&r->j, key, name, sizeof name - 1)] = '\0'; /* its first characters name it */
        char reason[160];
        snprintf(reason, sizeof reason,
                 "is not a key of rope_type '%s' that posenc knows (HF's names), so it is refused", TYPES[type].type);
        return refuse_key(r, PE_ERR_SCALING, d, name, reason);
    }
    return PE_OK;
}

/* original_max_position_embeddings: the top-level one (Phi-3) first, else the dict's, else max_position_embeddings. */
static pe_status original_length(pe_config_reader *r, const dict *d, pe_config *c, int dict_first, uint32_t *l0) {
    size_t at;
    uint32_t top = 0, inner = 0;
    pe_status s = pe_config_count(r, r->cfg, "original_max_position_embeddings", 0, &top);
    if (s == PE_OK && d->at && pe_config_get(r, d->at, "original_max_position_embeddings", &at))
        s = pe_config_count(r, d->at, "original_max_position_embeddings", 0, &inner);
    if (s != PE_OK) return s;
    *l0 = dict_first ? (inner ? inner : top) : (top ? top : inner);
    if (!*l0) *l0 = c->max_positions;
    if (!*l0)
        return pe_config_refuse(r, PE_ERR_SCALING, "max_position_embeddings",
                                "needed: the scaling needs original_max_position_embeddings, which falls back to it");
    return PE_OK;
}

void pe_config_write_factors(const pe_config_reader *r, double *factors) {
    for (int list = 0; list < 2 && r->factor_half; list++) {
        size_t cursor = 0, value;
        uint32_t n = 0;
        while (n < r->factor_half && pe_json_element(&r->j, r->factor_lists[list], &cursor, &value))
            if (pe_json_number(&r->j, value, &factors[list * r->factor_half + n])) n++;
    }
}

static pe_status longrope(pe_config_reader *r, const dict *d, uint32_t rotary, double *factors, size_t factors_count,
                          pe_config *c) {
    static const char *const LISTS[2] = {"short_factor", "long_factor"};
    const uint32_t half = rotary / 2;
    /* The lists first: a head_dim the lists do not match is the config's fault, named by its key, whatever
     * factors_count is (lists that match fit the documented factors_count). */
    for (int list = 0; list < 2; list++) {
        size_t at, cursor = 0, value;
        uint32_t n = 0;
        if (!pe_config_get(r, d->at, LISTS[list], &at) || pe_json_kind(&r->j, at) != '[')
            return refuse_key(r, PE_ERR_SCALING, d, LISTS[list], "must be a list of rotary_dim / 2 numbers");
        while (pe_json_element(&r->j, at, &cursor, &value)) {
            double v;
            if (n >= half || !pe_json_number(&r->j, value, &v) || !(v > 0.0 && v <= 1.7976931348623157e308))
                return refuse_key(r, PE_ERR_SCALING, d, LISTS[list],
                                  "must be a list of rotary_dim / 2 finite numbers above 0");
            n++;
        }
        if (n != half)
            return refuse_key(r, PE_ERR_SCALING, d, LISTS[list], "must have rotary_dim / 2 numbers, one per pair");
        r->factor_lists[list] = at;
    }
    if (factors_count < 2 * (size_t)half) return PE_ERR_SCRATCH;
    r->factor_half = half; /* written by pe_config_write_factors once everything else is accepted */
    c->short_factor = factors;
    c->long_factor = factors + half;
    int present;
    pe_status s = dict_number(r, d, "attention_factor", &c->longrope_attention_factor, &present);
    if (s != PE_OK) return s;
    uint32_t l0;
    if ((s = original_length(r, d, c, 0, &l0)) != PE_OK) return s;
    c->rope.scaling.original_max_position_embeddings = l0;
    if ((s = dict_number(r, d, "factor", &c->longrope_factor, &present)) != PE_OK) return s;
    if (!present) c->longrope_factor = c->max_positions ? (double)c->max_positions / l0 : 1.0;
    c->longrope = 1;
    return PE_OK;
}

static pe_status mrope_section(pe_config_reader *r, const dict *d, pe_config *c) {
    size_t at, cursor = 0, value;
    if (!d->at || !pe_config_get(r, d->at, "mrope_section", &at)) return PE_OK;
    while (pe_json_element(&r->j, at, &cursor, &value)) {
        double v;
        if (c->mrope_sections >= 4 || !pe_json_number(&r->j, value, &v) || !(v >= 1.0 && v <= 65536.0) ||
            v != (double)(uint32_t)v)
            return refuse_key(r, PE_ERR_SCALING, d, "mrope_section",
                              "must be a list of up to 4 whole numbers of pairs");
        c->mrope_section[c->mrope_sections++] = (uint32_t)v;
    }
    if (pe_json_kind(&r->j, at) != '[' || c->mrope_sections == 0)
        return refuse_key(r, PE_ERR_SCALING, d, "mrope_section", "must be a list of up to 4 whole numbers of pairs");
    if (pe_config_get(r, d->at, "mrope_interleaved", &at)) { /* Qwen3-VL: pairs by index mod 3 */
        char t = pe_json_kind(&r->j, at);
        if (t != 't' && t != 'f') return refuse_key(r, PE_ERR_SCALING, d, "mrope_interleaved", "must be true or false");
        c->mrope_interleaved = t == 't';
    }
    return PE_OK;
}

/* The numbers of the scaling types the core computes (pe_rope_scaling). */
static pe_status scaling_numbers(pe_config_reader *r, const dict *d, size_t type, pe_config *c) {
    pe_rope_scaling *sc = &c->rope.scaling;
    int present;
    pe_status s;
    sc->type = TYPES[type].scaling;
    if (sc->type == PE_ROPE_SCALING_NONE) return PE_OK;
    if ((s = dict_number(r, d, "factor", &sc->factor, &present)) != PE_OK) return s;
    int factor_given = present;
    if (sc->type == PE_ROPE_SCALING_LINEAR || sc->type == PE_ROPE_SCALING_DYNAMIC) {
        if (!present) return refuse_key(r, PE_ERR_SCALING, d, "factor", "must be given for this rope_type");
        if (sc->type == PE_ROPE_SCALING_LINEAR) return PE_OK;
    }
    /* Dynamic NTK reads the dict's value first (HF: max_position_embeddings); the others the top-level one first. */
    if ((s = original_length(r, d, c, sc->type == PE_ROPE_SCALING_DYNAMIC, &sc->original_max_position_embeddings)) !=
        PE_OK)
        return s;
    if (!factor_given && sc->type == PE_ROPE_SCALING_YARN && c->max_positions)
        sc->factor = (double)c->max_positions / sc->original_max_position_embeddings;
    else if (!factor_given)
        return refuse_key(r, PE_ERR_SCALING, d, "factor", "must be given for this rope_type");
    if (sc->type == PE_ROPE_SCALING_LLAMA3) {
        if ((s = dict_number(r, d, "low_freq_factor", &sc->low_freq_factor, &present)) != PE_OK) return s;
        if (!present) return refuse_key(r, PE_ERR_SCALING, d, "low_freq_factor", "must be given for rope_type llama3");
        if ((s = dict_number(r, d, "high_freq_factor", &sc->high_freq_factor, &present)) != PE_OK) return s;
        if (!present) return refuse_key(r, PE_ERR_SCALING, d, "high_freq_factor", "must be given for rope_type llama3");
        return PE_OK;
    }
    if (sc->type != PE_ROPE_SCALING_YARN) return PE_OK;
    static const char *const YARN[] = {"beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim"};
    double *fields[] = {&sc->beta_fast, &sc->beta_slow, &sc->attention_factor, &sc->mscale, &sc->mscale_all_dim};
    for (int k = 0; k < 5; k++)
        if ((s = dict_number(r, d, YARN[k], fields[k], &present)) != PE_OK) return s;
    size_t at;
    if (pe_config_get(r, d->at, "truncate", &at)) {
        char t = pe_json_kind(&r->j, at);
        if (t != 't' && t != 'f') return refuse_key(r, PE_ERR_SCALING, d, "truncate", "must be true or false");
        sc->no_truncate = t == 'f';
    }
    return PE_OK;
}

/* ChatGLM / GLM-4 as the authors' modeling_chatglm.py builds it: ChatGLMModel makes
 * RotaryEmbedding(rotary_dim // 2, rope_ratio) with rotary_dim = kv_channels (else hidden_size //
 * num_attention_heads), so the first half of each head rotates, theta_i = (10000 * rope_ratio)^(-2i / n_elem)
 * with n_elem = rotary_dim // 2 (forward_impl: base = base * self.rope_ratio), on adjacent pairs
 * (apply_rotary_pos_emb reshapes x[..., :rot_dim] to (rot_dim / 2, 2)). No scaling dict, no rope_theta. */
static pe_status chatglm_rope(pe_config_reader *r, pe_config *c) {
    size_t at;
    uint32_t dim = 0;
    pe_status s = pe_config_count(r, r->cfg, "kv_channels", 0, &dim);
    if (s != PE_OK) return s;
    if (!dim && c->heads) dim = c->hidden_size / c->heads;
    if (!dim)
        return pe_config_refuse(r, PE_ERR_CONFIG, "kv_channels",
                                "needed (or hidden_size and num_attention_heads): ChatGLM's head size");
    double ratio = 1.0; /* ChatGLMConfig's default */
    if (pe_config_get(r, r->cfg, "rope_ratio", &at) &&
        (!pe_json_number(&r->j, at, &ratio) || !(10000.0 * ratio > 1.0 && ratio <= PE_MAX_BASE / 10000.0)))
        return pe_config_refuse(r, PE_ERR_SCALING, "rope_ratio",
                                "must be a number that makes the base 10000 * rope_ratio above 1 and at most 1e300");
    static const char *const NOT_CHATGLM[] = {"rope_scaling", "rope_parameters", "rope_theta", "partial_rotary_factor",
                                              "rotary_pct",   "rotary_dim",      NULL};
    for (int k = 0; NOT_CHATGLM[k]; k++)
        if (pe_config_get(r, r->cfg, NOT_CHATGLM[k], &at) && pe_json_kind(&r->j, at) != 'n')
            return pe_config_refuse(r, PE_ERR_SCALING, NOT_CHATGLM[k],
                                    "is not read by modeling_chatglm.py (ChatGLM's base is 10000 * rope_ratio)");
    const uint32_t rotary = dim / 2;
    if (rotary < 2 || rotary % 2)
        return pe_config_refuse(r, PE_ERR_CONFIG, "kv_channels",
                                "must be a multiple of 4: ChatGLM rotates kv_channels / 2 dimensions, in pairs");
    c->rope.head_dim = dim;
    c->rope.rotary_dim = rotary;
    c->rope.heads = c->heads;
    c->rope.base = 10000.0 * ratio;
    c->rope.layout = PE_LAYOUT_INTERLEAVED;
    c->rope.order = PE_ROPE_BLHD;
    c->rope.scaling.type = PE_ROPE_SCALING_NONE;
    return PE_OK;
}

pe_status pe_config_read_rope(pe_config_reader *r, const char *layer_type, double *factors, size_t factors_count,
                              pe_config *c) {
    const pe_json *j = &r->j;
    size_t at;
    pe_status s;
    uint32_t dim;
    c->kind = PE_CONFIG_ROPE;
    if (pe_config_type_in(r, (const char *const[]){"chatglm", NULL})) {
        if (layer_type) { /* one RoPE for all layers: no layer types */
            r->keys_length = 0;
            r->keys[0] = '\0';
            return PE_ERR_LAYER_TYPE;
        }
        return chatglm_rope(r, c);
    }
    if ((s = head_dim(r, c, &dim)) != PE_OK) return s;
    dict d;
    int local;
    if ((s = pick_dict(r, layer_type, &d, &local, c)) != PE_OK) return s;
    size_t type;
    if ((s = scaling_type(r, &d, &type)) != PE_OK || (s = known_keys(r, &d, type)) != PE_OK) return s;

    /* The rotated part: partial_rotary_factor (top level over the dict's, as HF v5), rotary_pct, or rotary_dim. */
    double fraction = 1.0, v;
    int present;
    uint32_t rotary = dim;
    if ((s = dict_number(r, &d, "partial_rotary_factor", &fraction, &present)) != PE_OK) return s;
    static const char *const FRACTIONS[] = {"partial_rotary_factor", "rotary_pct"};
    for (int k = 0; k < 2; k++) {
        if (!pe_config_get(r, r->cfg, FRACTIONS[k], &at)) continue;
        if (!pe_json_number(j, at, &fraction) || !(fraction > 0.0 && fraction <= 1.0))
            return pe_config_refuse(r, PE_ERR_SCALING, FRACTIONS[k], "must be a number above 0 and at most 1");
    }
    if (!(fraction > 0.0 && fraction <= 1.0))
        return refuse_key(r, PE_ERR_SCALING, &d, "partial_rotary_factor", "must be a number above 0 and at most 1");
    rotary = (uint32_t)((double)dim * fraction); /* HF: int(head_dim * partial_rotary_factor) */
    if ((s = pe_config_count(r, r->cfg, "rotary_dim", rotary, &rotary)) != PE_OK) return s;
    if (rotary < 2 || rotary % 2 || rotary > dim)
        return pe_config_refuse(
            r, PE_ERR_SCALING, "partial_rotary_factor",
            "gives an odd rotary dimension, or none: RoPE rotates pairs (rotary_dim = int(head_dim * factor))");

    /* The base: the dict's rope_theta, else rope_theta, else rotary_emb_base (GPT-NeoX), else 10000. */
    double base = 10000.0;
    int theta_given = 0;
    pe_config_model_default(r, "rope_theta", &base); /* the class's default when absent (Gemma 3: 10^6) */
    static const char *const BASES[] = {"rope_theta", "rotary_emb_base"};
    const char *base_key = NULL;
    for (int k = 0; k < 2 && !theta_given; k++)
        if (pe_config_get(r, r->cfg, BASES[k], &at)) {
            if (!pe_json_number(j, at, &base)) return pe_config_refuse(r, PE_ERR_SCALING, BASES[k], "must be a number");
            if (!(base - base == 0)) return pe_config_refuse(r, PE_ERR_SCALING, BASES[k], FINITE);
            theta_given = 1;
            base_key = BASES[k];
        }
    if ((s = dict_number(r, &d, "rope_theta", &v, &present)) != PE_OK) return s;
    if (present) base = v;
    const double given = base;
    if ((s = pe_config_split_base(r, local, theta_given, &base)) != PE_OK) return s;
    /* The base the layers use, when a key gave it (split bases check their own keys, config_defaults.c). */
    if (base == given && !(base > 1.0 && base <= PE_MAX_BASE)) {
        if (present) return refuse_key(r, PE_ERR_SCALING, &d, "rope_theta", PE_CONFIG_BASE_RANGE);
        if (base_key) return pe_config_refuse(r, PE_ERR_SCALING, base_key, PE_CONFIG_BASE_RANGE);
    }

    if (pe_config_get(r, r->cfg, "rotary", &at) && pe_json_kind(j, at) != 't') /* GPT-J's switch */
        return pe_config_refuse(r, PE_ERR_SCALING, "rotary", "must be true: a RoPE model without rotary is not RoPE");
    int interleaved = pe_config_type_in(r, INTERLEAVED_TYPES);
    if (pe_config_get(r, r->cfg, "rope_interleave", &at)) interleaved = pe_json_kind(j, at) == 't';
    c->rope.head_dim = dim;
    c->rope.rotary_dim = rotary;
    c->rope.heads = c->heads;
    c->rope.base = base;
    c->rope.layout = interleaved ? PE_LAYOUT_INTERLEAVED : PE_LAYOUT_SPLIT;
    c->rope.order = PE_ROPE_BLHD;
    if ((s = mrope_section(r, &d, c)) != PE_OK) return s;
    if (pe_config_type_in(r, MINISTRAL3) && (s = dict_number(r, &d, "llama_4_scaling_beta", &v, &present)) != PE_OK)
        return s; /* read (and checked) here, reported by the per-layer answer as the layers' query scale */
    if (!strcmp(TYPES[type].type, "longrope")) return longrope(r, &d, rotary, factors, factors_count, c);
    return scaling_numbers(r, &d, type, c);
}
