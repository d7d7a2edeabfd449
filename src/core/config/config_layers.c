/* config_layers.c: pe_config_layer_read (posenc.h, "Model configs"): which
 * layers of a model have positions, as HF's modeling code builds them, and
 * which keys of a config the per-layer answer reads (so pe_config_read does
 * not refuse them) or HF never reads (so they are listed as ignored). */
#include <stdio.h>
#include <string.h>

#include "config_reader.h"

/* Keys the per-layer answer reads: pe_config_read marks them as used. */
static const char *const LAYER_KEYS[] = {"no_rope_layers",
                                         "no_rope_layer_interval",
                                         "sliding_window_pattern",
                                         "global_attn_every_n_layers",
                                         "attn_layer_period",
                                         "attn_layer_offset",
                                         "layers_block_type",
                                         "attention_chunk_size",
                                         NULL};

/* Llama4TextConfig's keys of the query scale its NoPE layers apply (posenc.h, "query scale"). */
static const char *const LLAMA4_SCALE_KEYS[] = {"attn_temperature_tuning", "floor_scale", "attn_scale", NULL};

/* Keys about positions that HF's class for the model never reads: listed as ignored, not refused. */
static const struct {
    const char *model_type, *key;
} HF_IGNORES[] = {
    {"bloom", "offset_alibi"},                    /* in bigscience's configs; BloomConfig has no such argument */
    {"mpt", "learned_pos_emb"},                   /* MptConfig keeps it; MptModel has no position table (ALiBi only) */
    {"phi3", "original_max_position_embeddings"}, /* Phi3 reads it for longrope only */
    {"chatglm", "original_rope"}, /* modeling_chatglm.py keeps it as RotaryEmbedding.original_impl, never used */
};

/* How a model's attention slides, as its HF class reads sliding_window (masking_utils: a query sees the keys
 * q - window < k <= q). */
enum slide_rule {
    SLIDE_NONE,  /* the class never reads sliding_window */
    SLIDE_ALL,   /* every attention layer slides when it is a number (MistralAttention, Phi3, Starcoder2, Mixtral) */
    SLIDE_TYPED, /* the layers named sliding_attention slide (Gemma 2/3, Cohere 2, gpt-oss, OLMo 3) */
    SLIDE_QWEN,  /* Qwen2Config: only when use_sliding_window; layer_types, else layers from max_window_layers on */
    SLIDE_QWEN2_MOE, /* Qwen2MoeConfig: only when use_sliding_window; layer_types, else the even layers below
                        max_window_layers (its __post_init__: (i + 1) % 2 and i < max_window_layers) */
    SLIDE_QWEN3_MOE, /* Qwen3MoeConfig: only when use_sliding_window, then every layer (MixtralModel's mask) */
    SLIDE_MODERNBERT /* the sliding_attention layers, two-sided: |q - k| <= local_attention // 2 */
};

static enum slide_rule slide_rule_of(const pe_config_reader *r) {
    if (pe_config_type_in(r, (const char *const[]){"mistral", "mixtral", "phi3", "starcoder2", "ministral3", NULL}))
        return SLIDE_ALL;
    if (pe_config_type_in(
            r, (const char *const[]){"gemma2", "gemma3", "gemma3_text", "cohere2", "gpt_oss", "olmo3", NULL}))
        return SLIDE_TYPED;
    if (pe_config_type_in(r, (const char *const[]){"qwen2", "qwen3", "qwen2_vl", "qwen2_vl_text", "qwen2_5_vl",
                                                   "qwen2_5_vl_text", "smollm3", NULL}))
        return SLIDE_QWEN;
    if (pe_config_type_in(r, (const char *const[]){"qwen2_moe", NULL})) return SLIDE_QWEN2_MOE;
    if (pe_config_type_in(r, (const char *const[]){"qwen3_moe", NULL})) return SLIDE_QWEN3_MOE;
    if (pe_config_type_in(r, (const char *const[]){"modernbert", NULL})) return SLIDE_MODERNBERT;
    return SLIDE_NONE;
}

void pe_config_mark_layer_keys(pe_config_reader *r) {
    size_t at;
    for (int k = 0; LAYER_KEYS[k]; k++) pe_config_get(r, r->cfg, LAYER_KEYS[k], &at);
    /* The sliding keys are read only by the models whose class reads them (elsewhere they stay ignored). */
    const enum slide_rule rule = slide_rule_of(r);
    if (rule == SLIDE_MODERNBERT)
        pe_config_get(r, r->cfg, "local_attention", &at);
    else if (rule != SLIDE_NONE)
        pe_config_get(r, r->cfg, "sliding_window", &at);
    if (rule == SLIDE_QWEN || rule == SLIDE_QWEN2_MOE || rule == SLIDE_QWEN3_MOE)
        pe_config_get(r, r->cfg, "use_sliding_window", &at);
    if (rule == SLIDE_QWEN || rule == SLIDE_QWEN2_MOE) pe_config_get(r, r->cfg, "max_window_layers", &at);
    /* Llama 4's query scale on its NoPE layers (read_query_scale) */
    if (pe_config_type_in(r, (const char *const[]){"llama4", "llama4_text", NULL}))
        for (int k = 0; LLAMA4_SCALE_KEYS[k]; k++) pe_config_get(r, r->cfg, LLAMA4_SCALE_KEYS[k], &at);
}

int pe_config_hf_ignores(const pe_config_reader *r, pe_json_span key) {
    for (size_t k = 0; k < sizeof HF_IGNORES / sizeof HF_IGNORES[0]; k++)
        if (pe_json_span_is(&r->j, r->model_type, HF_IGNORES[k].model_type) &&
            pe_json_span_is(&r->j, key, HF_IGNORES[k].key))
            return 1;
    return 0;
}

static int type_is(const pe_config_reader *r, const char *const *types) {
    return pe_config_type_in(r, types);
}

/* A whole number of cfg, else the class's default, else fallback. */
static uint32_t whole(pe_config_reader *r, const char *key, uint32_t fallback) {
    size_t at;
    double v;
    if (pe_json_find(&r->j, r->cfg, key, &at) && pe_json_number(&r->j, at, &v) && v >= 0 && v <= 4294967295.0 &&
        v == (double)(uint32_t)v)
        return (uint32_t)v;
    return pe_config_model_default(r, key, &v) ? (uint32_t)v : fallback;
}

/* text (a name of at most 23 bytes) into a kind or layer_type field, NUL-terminated. */
static void set_text(char *out, const char *text) {
    size_t n = strlen(text);
    if (n > 23) n = 23;
    memcpy(out, text, n);
    out[n] = '\0';
}

static uint32_t kv_heads_of(pe_config_reader *r, uint32_t heads) {
    size_t at;
    static const char *const NAMES[] = {"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num",
                                        NULL};
    /* HF's FalconAttention: multi_query means one key/value head unless new_decoder_architecture is on
     * (config_reader.c's read_kv_heads reads the same for pe_config.kv_heads). */
    const int multi_query = pe_json_find(&r->j, r->cfg, "multi_query", &at) && pe_json_kind(&r->j, at) == 't';
    const int new_architecture =
        pe_json_find(&r->j, r->cfg, "new_decoder_architecture", &at) && pe_json_kind(&r->j, at) == 't';
    if (multi_query && !new_architecture) return 1;
    /* ChatGLM's SelfAttention (config_reader.c's read_kv_heads reads the same). */
    if (type_is(r, (const char *const[]){"chatglm", NULL}) &&
        !(pe_json_find(&r->j, r->cfg, "multi_query_attention", &at) && pe_json_kind(&r->j, at) == 't'))
        return heads;
    for (int k = 0; NAMES[k]; k++) {
        uint32_t v = whole(r, NAMES[k], 0);
        if (v) return v;
    }
    return heads;
}

/* An array member of cfg walked element by element: the walk over many layers reads each element once. */
typedef struct list_walk {
    size_t array, cursor;
    int present; /* the member is an array */
} list_walk;

static list_walk walk_of(const pe_config_reader *r, const char *key) {
    list_walk w = {0, 0, 0};
    w.present = pe_json_find(&r->j, r->cfg, key, &w.array) && pe_json_kind(&r->j, w.array) == '[';
    return w;
}

/* The walk's next element; 0 past the end (and at every later call). */
static int next_element(const pe_config_reader *r, list_walk *w, size_t *value) {
    return w->present && pe_json_element(&r->j, w->array, &w->cursor, value);
}

/* The walk moved past its first n elements. */
static void skip_elements(const pe_config_reader *r, list_walk *w, uint32_t n) {
    size_t value;
    for (uint32_t k = 0; k < n && next_element(r, w, &value); k++) {
    }
}

/* 1 when the last `key` member of cfg is null: Llama4TextConfig keeps an explicit null (pe_json_find, as HF for most
 * keys, reads null as absent, which would mean the class default). */
static int given_null(const pe_config_reader *r, const char *key) {
    size_t cursor = 0, value;
    pe_json_span name;
    int null = 0;
    while (pe_json_member(&r->j, r->cfg, &cursor, &name, &value))
        if (pe_json_span_is(&r->j, name, key)) null = pe_json_kind(&r->j, value) == 'n';
    return null;
}

enum layer_family { FAMILY_PLAIN, FAMILY_ENCODER_DECODER, FAMILY_MAMBA, FAMILY_JAMBA };
enum layer_pattern { PATTERN_NONE, PATTERN_GEMMA2, PATTERN_GEMMA3, PATTERN_MODERNBERT };

/* What every layer's answer shares, read from the config once (a layer then costs the same whatever the
 * config's size: the answer for all layers is linear in the config). */
typedef struct layer_model {
    uint32_t layers, encoder, decoder, kv_heads, encoder_heads, decoder_heads;
    enum layer_family family;
    enum layer_pattern pattern;
    uint32_t period, offset; /* Jamba's attention layers */
    uint32_t every;          /* the pattern's period: sliding_window_pattern, global_attn_every_n_layers */
    int cohere2, no_rope, no_rope_listed;
    int llama4;        /* layer kinds chunked_attention (RoPE) and full_attention (NoPE), as Llama4TextConfig's */
    uint32_t chunk;    /* Llama 4's attention_chunk_size: default 8192, null 0 */
    uint32_t interval; /* no_rope_layer_interval when no_rope_layers is absent or empty */
    enum slide_rule slide;
    uint32_t window;      /* sliding_window as the class reads it (its default when absent, null 0); 0 none */
    uint32_t window_from; /* SLIDE_QWEN, SLIDE_QWEN2_MOE without layer_types: max_window_layers (default 28) */
    int named;            /* every layer with positions names its kind as its layer type */
    size_t dict;          /* rope_parameters, when it is present: layers whose kind it has name it */
    int has_dict;
    const char *count_key; /* the key the layer count was read from */
    /* The query scale (posenc.h, "query scale"): on every attention layer (Ministral 3) or the NoPE ones (Llama 4) */
    double scale_beta, scale_length; /* scale_length 0: none */
    uint32_t scale_shift;
    int scale_nope_only;
} layer_model;

/* The sliding window of the model's sliding layers (m->slide, m->window, m->window_from). */
static pe_status read_window(pe_config_reader *r, layer_model *m) {
    size_t at;
    double v = 0;
    m->slide = slide_rule_of(r);
    if (m->slide == SLIDE_NONE) return PE_OK;
    if (m->slide == SLIDE_MODERNBERT) {
        /* ModernBertConfig: local_attention (default 128) is the whole window; sliding_window = local_attention // 2
         * on each side (v4's eager mask: distance <= local_attention // 2; v5: the bidirectional overlay). */
        v = 128;
        const int given = given_null(r, "local_attention") || pe_json_find(&r->j, r->cfg, "local_attention", &at);
        /* null included: HF's None // 2 fails when the model is built */
        if (given && (given_null(r, "local_attention") || !pe_json_number(&r->j, at, &v) ||
                      !(v >= 2 && v <= 4294967295.0) || v != (double)(uint32_t)v))
            return pe_config_refuse(r, PE_ERR_CONFIG, "local_attention", "must be a whole number from 2 to 2^32 - 1");
        m->window = (uint32_t)v / 2;
        return PE_OK;
    }
    if (m->slide == SLIDE_QWEN || m->slide == SLIDE_QWEN2_MOE || m->slide == SLIDE_QWEN3_MOE) {
        /* Qwen2Config.__post_init__ (and the MoE classes'): sliding_window = sliding_window if use_sliding_window
         * else None (Qwen2-MoE: 0). */
        if (!pe_json_find(&r->j, r->cfg, "use_sliding_window", &at) || pe_json_kind(&r->j, at) != 't') return PE_OK;
        if (m->slide != SLIDE_QWEN3_MOE) m->window_from = whole(r, "max_window_layers", 28);
    }
    if (given_null(r, "sliding_window")) return PE_OK;
    if (pe_json_find(&r->j, r->cfg, "sliding_window", &at)) {
        if (!pe_json_number(&r->j, at, &v) || !(v >= 1 && v <= 4294967295.0) || v != (double)(uint32_t)v)
            return pe_config_refuse(r, PE_ERR_CONFIG, "sliding_window",
                                    "must be null or a whole number from 1 to 2^32 - 1");
    } else if (!pe_config_model_default(r, "sliding_window", &v)) {
        v = 0; /* Mixtral, Phi-3, Starcoder2, SmolLM3: None */
    }
    m->window = (uint32_t)v;
    return PE_OK;
}

/* layer_types and no_rope_layers, when given (not null), must be lists: HF indexes them by layer, so a number or an
 * object there fails when the model is built, and reading it as absent would answer for a config HF cannot load.
 * Each layer type is a name of at most 23 bytes (pe_config_layer.layer_type). One pass over each list. */
static pe_status check_lists(pe_config_reader *r) {
    size_t at;
    if (pe_json_find(&r->j, r->cfg, "no_rope_layers", &at) && pe_json_kind(&r->j, at) != '[')
        return pe_config_refuse(r, PE_ERR_CONFIG, "no_rope_layers", "must be a list of 0 or 1, one a layer");
    if (!pe_json_find(&r->j, r->cfg, "layer_types", &at)) return PE_OK;
    if (pe_json_kind(&r->j, at) != '[')
        return pe_config_refuse(r, PE_ERR_CONFIG, "layer_types", "must be a list of layer type names, one a layer");
    list_walk w = walk_of(r, "layer_types");
    size_t value;
    pe_json_span name;
    while (next_element(r, &w, &value))
        if (!pe_json_string(&r->j, value, &name) || name.length > 23)
            return pe_config_refuse(r, PE_ERR_CONFIG, "layer_types",
                                    "must list layer type names (strings of at most 23 bytes), one a layer");
    return PE_OK;
}

/* A finite number member of object, or fallback when absent; refused (naming `name`) when null or not one, or
 * when positive and it is not above 0. */
static pe_status scale_number(pe_config_reader *r, size_t object, const char *name, const char *shown, int positive,
                              double fallback, double *v) {
    size_t at;
    char reason[160];
    snprintf(reason, sizeof reason, "must be a finite number%s: the query scale 1 + beta ln(1 + floor(p / length))",
             positive ? " above 0" : "");
    *v = fallback;
    const int null = object == r->cfg && given_null(r, name);
    if (!null && !pe_json_find(&r->j, object, name, &at)) return PE_OK;
    if (null || !pe_json_number(&r->j, at, v) || !(*v - *v == 0) || (positive && !(*v > 0)))
        return pe_config_refuse(r, PE_ERR_CONFIG, shown, reason);
    return PE_OK;
}

/* The model's query scale: Ministral 3's from its rope dict (HF's Ministral3Attention: llama_4_scaling_beta and
 * original_max_position_embeddings, read with .get(), so without them its forward fails), Llama 4's from
 * attn_temperature_tuning, attn_scale and floor_scale (Llama4TextConfig's defaults True, 0.1, 8192). */
static pe_status read_query_scale(pe_config_reader *r, layer_model *m) {
    size_t at;
    double v;
    pe_status s;
    if (type_is(r, (const char *const[]){"ministral3", NULL})) {
        const char *dict = pe_json_find(&r->j, r->cfg, "rope_parameters", &at) ? "rope_parameters" : "rope_scaling";
        char beta[64], length[64];
        snprintf(beta, sizeof beta, "%s.llama_4_scaling_beta", dict);
        snprintf(length, sizeof length, "%s.original_max_position_embeddings", dict);
        const int object = m->has_dict && pe_json_kind(&r->j, m->dict) == '{';
        if (!object || !pe_json_find(&r->j, m->dict, "llama_4_scaling_beta", &at))
            return pe_config_refuse(r, PE_ERR_CONFIG, beta,
                                    "needed: Ministral 3 multiplies its queries by 1 + beta ln(1 + floor(p / "
                                    "original_max_position_embeddings)) and HF's forward fails without it");
        if ((s = scale_number(r, m->dict, "llama_4_scaling_beta", beta, 0, 0, &m->scale_beta)) != PE_OK) return s;
        if (!pe_json_find(&r->j, m->dict, "original_max_position_embeddings", &at))
            return pe_config_refuse(r, PE_ERR_CONFIG, length,
                                    "needed with llama_4_scaling_beta: Ministral 3's query scale divides the "
                                    "position by it, and HF's forward fails without it");
        if ((s = scale_number(r, m->dict, "original_max_position_embeddings", length, 1, 0, &m->scale_length)) != PE_OK)
            return s;
        m->scale_shift = 0;
        return PE_OK;
    }
    if (!m->llama4) return PE_OK;
    int on = 1; /* Llama4TextConfig's default; None, False and 0 turn it off (Python's truth) */
    if (given_null(r, "attn_temperature_tuning")) {
        on = 0;
    } else if (pe_json_find(&r->j, r->cfg, "attn_temperature_tuning", &at)) {
        const char kind = pe_json_kind(&r->j, at);
        if (kind == 't' || kind == 'f')
            on = kind == 't';
        else if (pe_json_number(&r->j, at, &v))
            on = v != 0;
        else
            return pe_config_refuse(r, PE_ERR_CONFIG, "attn_temperature_tuning",
                                    "must be true, false, null or a number: Llama 4 scales its NoPE layers' queries "
                                    "when it is true");
    }
    if (!on) return PE_OK;
    if ((s = scale_number(r, r->cfg, "attn_scale", "attn_scale", 0, 0.1, &m->scale_beta)) != PE_OK) return s;
    if ((s = scale_number(r, r->cfg, "floor_scale", "floor_scale", 1, 8192, &m->scale_length)) != PE_OK) return s;
    m->scale_shift = 1;
    m->scale_nope_only = 1;
    return PE_OK;
}

static pe_status read_model(pe_config_reader *r, layer_model *m) {
    pe_status s;
    memset(m, 0, sizeof *m);
    m->encoder = whole(r, "encoder_layers", 0);
    m->decoder = whole(r, "decoder_layers", 0);
    m->count_key = "num_hidden_layers";
    if (!m->encoder && type_is(r, (const char *const[]){"t5", "mt5", "umt5", "longt5", "switch_transformers", NULL})) {
        m->encoder = whole(r, "num_layers", 0);
        m->decoder = whole(r, "num_decoder_layers", m->encoder);
    }
    static const char *const COUNTS[] = {"num_hidden_layers", "n_layer", "num_layers", "n_layers", NULL};
    for (int k = 0; COUNTS[k] && !m->layers; k++) {
        m->layers = whole(r, COUNTS[k], 0);
        if (m->layers) m->count_key = COUNTS[k];
    }
    uint64_t layers = m->layers;
    if (m->encoder && m->decoder) {
        layers = (uint64_t)m->encoder + m->decoder;
        m->count_key = "encoder_layers";
    }
    if (!layers) {
        return pe_config_refuse(r, PE_ERR_CONFIG, "num_hidden_layers",
                                "needed for a per-layer answer: the number of layers (n_layer, num_layers)");
    }
    if (layers > PE_CONFIG_MAX_LAYERS) {
        char reason[160];
        snprintf(reason, sizeof reason, "makes %llu layers; posenc answers at most %u (PE_CONFIG_MAX_LAYERS)",
                 (unsigned long long)layers, (unsigned)PE_CONFIG_MAX_LAYERS);
        return pe_config_refuse(r, PE_ERR_TOO_LARGE, m->count_key, reason);
    }
    m->layers = (uint32_t)layers;
    static const char *const HEADS[] = {"num_attention_heads", "n_head", "n_heads", "num_heads", NULL};
    uint32_t heads = 0;
    for (int k = 0; HEADS[k] && !heads; k++) heads = whole(r, HEADS[k], 0);
    m->kv_heads = kv_heads_of(r, heads);
    if (m->encoder && m->decoder) {
        m->family = FAMILY_ENCODER_DECODER;
        /* BART's and Whisper's attribute_map: num_attention_heads is encoder_attention_heads. */
        m->encoder_heads = whole(r, "encoder_attention_heads", 0);
        m->decoder_heads = whole(r, "decoder_attention_heads", 0);
    } else if (type_is(r, (const char *const[]){"mamba", "mamba2", "falcon_mamba", NULL})) {
        m->family = FAMILY_MAMBA;
    } else if (type_is(r, (const char *const[]){"jamba", NULL})) {
        /* JambaConfig.layers_block_type: attention where i % period == offset; no position encoding anywhere. */
        m->family = FAMILY_JAMBA;
        m->period = whole(r, "attn_layer_period", 8);
        m->offset = whole(r, "attn_layer_offset", 4);
    }
    if (type_is(r, (const char *const[]){"gemma2", NULL})) {
        m->pattern = PATTERN_GEMMA2;
    } else if (type_is(r, (const char *const[]){"gemma3", "gemma3_text", "cohere2", NULL})) {
        m->pattern = PATTERN_GEMMA3;
        m->every = whole(r, "sliding_window_pattern", 6);
    } else if (type_is(r, (const char *const[]){"modernbert", NULL})) {
        m->pattern = PATTERN_MODERNBERT;
        m->every = whole(r, "global_attn_every_n_layers", 3);
    }
    m->cohere2 = type_is(r, (const char *const[]){"cohere2", NULL});
    /* Llama 4, SmolLM3: no_rope_layers[i] == 0 means no RoPE; an empty or absent list is HF's default. */
    m->no_rope = type_is(r, (const char *const[]){"llama4", "llama4_text", "smollm3", NULL});
    m->llama4 = type_is(r, (const char *const[]){"llama4", "llama4_text", NULL});
    if (m->llama4) {
        size_t at;
        double v = 8192;
        if (given_null(r, "attention_chunk_size"))
            v = 0;
        else if (pe_json_find(&r->j, r->cfg, "attention_chunk_size", &at) &&
                 (!pe_json_number(&r->j, at, &v) || !(v >= 1 && v <= 4294967295.0) || v != (double)(uint32_t)v))
            return pe_config_refuse(r, PE_ERR_CONFIG, "attention_chunk_size",
                                    "must be null or a whole number from 1 to 2^32 - 1");
        m->chunk = (uint32_t)v;
    }
    if ((s = read_window(r, m)) != PE_OK) return s;
    if (m->no_rope) {
        list_walk w = walk_of(r, "no_rope_layers");
        size_t value;
        m->no_rope_listed = next_element(r, &w, &value);
        if (!m->no_rope_listed) m->interval = whole(r, "no_rope_layer_interval", 4);
    }
    if ((s = check_lists(r)) != PE_OK) return s;
    /* The positions differ by layer type (Gemma 3, ModernBERT, v5's per-type rope_parameters; Whisper's
     * encoder and decoder tables): name it. */
    m->named = pe_config_split_bases(r) || type_is(r, (const char *const[]){"whisper", NULL});
    /* The dict pe_config_read keys by layer type: rope_parameters, else rope_scaling (config_rope.c's pick_dict). */
    m->has_dict = pe_json_find(&r->j, r->cfg, "rope_parameters", &m->dict) ||
                  pe_json_find(&r->j, r->cfg, "rope_scaling", &m->dict);
    return read_query_scale(r, m);
}

/* Layer i of the model into l; types and no_rope are walks standing at element i of layer_types and
 * no_rope_layers. PE_OK, or the refusal of a malformed no_rope_layers entry (l then holds nothing useful). */
static pe_status answer_layer(pe_config_reader *r, const layer_model *m, uint32_t i, list_walk *types,
                              list_walk *no_rope, pe_config_layer *l) {
    size_t at, listed_at;
    memset(l, 0, sizeof *l);
    l->layers = m->layers;
    l->kv_heads = m->kv_heads;
    set_text(l->kind, "attention");
    pe_json_span s;
    /* layer_types[i] when it is a string of at most 23 bytes. */
    const int listed = next_element(r, types, &listed_at) && pe_json_string(&r->j, listed_at, &s) && s.length <= 23;
    if (m->family == FAMILY_ENCODER_DECODER) {
        set_text(l->kind, i < m->encoder ? "encoder" : "decoder");
        const uint32_t own = i < m->encoder ? m->encoder_heads : m->decoder_heads;
        if (own) l->kv_heads = own;
    } else if (m->family == FAMILY_MAMBA) {
        set_text(l->kind, "mamba");
        l->positions = PE_LAYER_NO_ATTENTION;
    } else if (m->family == FAMILY_JAMBA) {
        const int attention = m->period && i % m->period == m->offset;
        set_text(l->kind, attention ? "attention" : "mamba");
        l->positions = attention ? PE_LAYER_NOPE : PE_LAYER_NO_ATTENTION;
    } else if (listed) {
        memcpy(l->kind, r->j.text + s.at, s.length);
        l->kind[s.length] = '\0';
    } else if (m->pattern == PATTERN_GEMMA2) {
        set_text(l->kind, (i + 1) % 2 ? "sliding_attention" : "full_attention");
    } else if (m->pattern == PATTERN_GEMMA3) {
        set_text(l->kind, m->every && (i + 1) % m->every ? "sliding_attention" : "full_attention");
    } else if (m->pattern == PATTERN_MODERNBERT) {
        set_text(l->kind, m->every && i % m->every == 0 ? "full_attention" : "sliding_attention");
    }
    if (!strcmp(l->kind, "linear_attention") || !strcmp(l->kind, "mamba") || !strcmp(l->kind, "conv")) {
        l->positions = PE_LAYER_NO_ATTENTION;
    }
    /* Cohere 2 rotates its sliding layers only (Cohere2Attention: rope when sliding_window is set). */
    if (m->cohere2 && !strcmp(l->kind, "full_attention")) l->positions = PE_LAYER_NOPE;
    if (m->no_rope) {
        double v = 1;
        if (m->no_rope_listed) {
            if (!next_element(r, no_rope, &at) || !pe_json_number(&r->j, at, &v))
                return pe_config_refuse(r, PE_ERR_CONFIG, "no_rope_layers",
                                        "must list 0 or 1 for every layer (num_hidden_layers of them)");
        } else {
            v = m->interval && (i + 1) % m->interval == 0 ? 0 : 1;
        }
        if (v == 0) l->positions = PE_LAYER_NOPE;
        /* Llama4TextConfig's layer_types when the file has none: chunked where the layer rotates, else full. */
        if (m->llama4 && !listed) set_text(l->kind, v == 0 ? "full_attention" : "chunked_attention");
    }
    if (m->llama4 && !strcmp(l->kind, "chunked_attention")) l->attention_chunk = m->chunk;
    if (l->positions == PE_LAYER_NO_ATTENTION) l->kv_heads = 0;
    /* The layer's attention window: every attention layer, the sliding_attention ones, or Qwen's from
     * max_window_layers on (its layer_types default) unless the config lists the types. */
    const int sliding = !strcmp(l->kind, "sliding_attention");
    if (l->positions != PE_LAYER_NO_ATTENTION &&
        (m->slide == SLIDE_ALL || m->slide == SLIDE_QWEN3_MOE ||
         ((m->slide == SLIDE_TYPED || m->slide == SLIDE_MODERNBERT) && sliding) ||
         (m->slide == SLIDE_QWEN && (types->present ? sliding : i >= m->window_from)) ||
         (m->slide == SLIDE_QWEN2_MOE && (types->present ? sliding : i % 2 == 0 && i < m->window_from))))
        l->sliding_window = m->window;
    l->sliding_bidirectional = l->sliding_window && m->slide == SLIDE_MODERNBERT;
    if (m->scale_length > 0 && l->positions != PE_LAYER_NO_ATTENTION &&
        (!m->scale_nope_only || l->positions == PE_LAYER_NOPE)) {
        l->query_scale_beta = m->scale_beta;
        l->query_scale_length = m->scale_length;
        l->query_scale_shift = m->scale_shift;
    }
    if (l->positions == PE_LAYER_CONFIG && (m->named || (m->has_dict && pe_config_find(r, m->dict, l->kind, &at))))
        set_text(l->layer_type, l->kind);
    return PE_OK;
}

pe_status pe_config_layers_read(const char *json, size_t json_bytes, uint32_t first, uint32_t count,
                                pe_config_layer *out, char *keys, size_t keys_bytes) {
    if (keys && keys_bytes) keys[0] = '\0';
    if (!json || !out || !keys) return PE_ERR_NULL;
    if (json_bytes > PE_CONFIG_MAX_BYTES) return PE_ERR_TOO_LARGE;
    if (keys_bytes < 256 || (keys_bytes - 256) / 8 < json_bytes) return PE_ERR_OUT_SIZE;
    pe_config_reader r;
    pe_status s = pe_config_open(&r, json, json_bytes, keys, keys_bytes);
    if (s != PE_OK) return s;
    layer_model m;
    if ((s = read_model(&r, &m)) != PE_OK) return s;
    if (count == 0 || first >= m.layers || count > m.layers - first) {
        char reason[96];
        if (first >= m.layers)
            snprintf(reason, sizeof reason, "has %u layers: layer must be 0 ... %u", m.layers, m.layers - 1);
        else
            snprintf(reason, sizeof reason, "has %u layers: count must be 1 ... %u", m.layers, m.layers - first);
        return pe_config_refuse(&r, PE_ERR_LAYER_TYPE, "num_hidden_layers", reason);
    }
    /* Two walks over the layers: the first finds any refusal, the second writes (refuse before writing). */
    for (int pass = 0; pass < 2; pass++) {
        list_walk types = walk_of(&r, "layer_types"), no_rope = walk_of(&r, "no_rope_layers");
        skip_elements(&r, &types, first);
        skip_elements(&r, &no_rope, first);
        for (uint32_t k = 0; k < count; k++) {
            pe_config_layer l;
            if ((s = answer_layer(&r, &m, first + k, &types, &no_rope, &l)) != PE_OK) return s;
            if (pass == 1) out[k] = l;
        }
    }
    keys[0] = '\0'; /* nothing to list: the reader's scratch at the far end is not text */
    return PE_OK;
}

pe_status pe_config_layer_read(const char *json, size_t json_bytes, uint32_t layer, pe_config_layer *out, char *keys,
                               size_t keys_bytes) {
    return pe_config_layers_read(json, json_bytes, layer, 1, out, keys, keys_bytes);
}
