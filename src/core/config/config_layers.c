/* config_layers.c: pe_config_layer_read (posenc.h, "Model configs"): which
 * layers of a model have positions, as HF's modeling code builds them, and
 * which keys of a config the per-layer answer reads (so pe_config_read does
 * not refuse them) or HF never reads (so they are listed as ignored). */
#include <stdio.h>
#include <string.h>

#include "config_reader.h"

/* Keys the per-layer answer reads: pe_config_read marks them as used. */
static const char *const LAYER_KEYS[] = {
    "no_rope_layers",    "no_rope_layer_interval", "sliding_window_pattern", "global_attn_every_n_layers",
    "attn_layer_period", "attn_layer_offset",      "layers_block_type",      NULL};

/* Keys about positions that HF's class for the model never reads: listed as ignored, not refused. */
static const struct {
    const char *model_type, *key;
} HF_IGNORES[] = {
    {"bloom", "offset_alibi"},                    /* in bigscience's configs; BloomConfig has no such argument */
    {"mpt", "learned_pos_emb"},                   /* MptConfig keeps it; MptModel has no position table (ALiBi only) */
    {"phi3", "original_max_position_embeddings"}, /* Phi3 reads it for longrope only */
};

void pe_config_mark_layer_keys(pe_config_reader *r) {
    size_t at;
    for (int k = 0; LAYER_KEYS[k]; k++) pe_config_get(r, r->cfg, LAYER_KEYS[k], &at);
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

/* Element i of the array member `key` of cfg: its offset; 0 when there is none. */
static int element(const pe_config_reader *r, const char *key, uint32_t i, size_t *value) {
    size_t at, cursor = 0;
    if (!pe_json_find(&r->j, r->cfg, key, &at) || pe_json_kind(&r->j, at) != '[') return 0;
    for (uint32_t k = 0; pe_json_element(&r->j, at, &cursor, value); k++)
        if (k == i) return 1;
    return 0;
}

static int array_length(const pe_config_reader *r, const char *key) {
    size_t at, cursor = 0, value;
    int n = 0;
    if (!pe_json_find(&r->j, r->cfg, key, &at) || pe_json_kind(&r->j, at) != '[') return -1;
    while (pe_json_element(&r->j, at, &cursor, &value)) n++;
    return n;
}

static void set_text(char *out, const char *text) {
    snprintf(out, 24, "%s", text);
}

/* The string element i of layer_types into out (at most 23 bytes); 0 when absent or not a string. */
static int listed_type(const pe_config_reader *r, uint32_t i, char *out) {
    size_t at;
    pe_json_span s;
    if (!element(r, "layer_types", i, &at) || !pe_json_string(&r->j, at, &s) || s.length > 23) return 0;
    memcpy(out, r->j.text + s.at, s.length);
    out[s.length] = '\0';
    return 1;
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
    for (int k = 0; NAMES[k]; k++) {
        uint32_t v = whole(r, NAMES[k], 0);
        if (v) return v;
    }
    return heads;
}

pe_status pe_config_layer_read(const char *json, size_t json_bytes, uint32_t layer, pe_config_layer *out, char *keys,
                               size_t keys_bytes) {
    if (keys && keys_bytes) keys[0] = '\0';
    if (!json || !out || !keys) return PE_ERR_NULL;
    if (json_bytes > PE_CONFIG_MAX_BYTES) return PE_ERR_TOO_LARGE;
    if (keys_bytes < 256 || (keys_bytes - 256) / 8 < json_bytes) return PE_ERR_OUT_SIZE;
    pe_config_reader r;
    pe_status opened = pe_config_open(&r, json, json_bytes, keys, keys_bytes);
    if (opened != PE_OK) return opened;
    size_t at;

    pe_config_layer l;
    memset(&l, 0, sizeof l);
    /* Encoder-decoder models (T5, BART, Whisper): the encoder's layers, then the decoder's. */
    uint32_t encoder = whole(&r, "encoder_layers", 0), decoder = whole(&r, "decoder_layers", 0);
    if (!encoder && type_is(&r, (const char *const[]){"t5", "mt5", "umt5", "longt5", "switch_transformers", NULL})) {
        encoder = whole(&r, "num_layers", 0);
        decoder = whole(&r, "num_decoder_layers", encoder);
    }
    static const char *const COUNTS[] = {"num_hidden_layers", "n_layer", "num_layers", "n_layers", NULL};
    for (int k = 0; COUNTS[k] && !l.layers; k++) l.layers = whole(&r, COUNTS[k], 0);
    if (encoder && decoder) l.layers = encoder + decoder;
    if (!l.layers) {
        return pe_config_refuse(&r, PE_ERR_CONFIG, "num_hidden_layers",
                                "needed for a per-layer answer: the number of layers (n_layer, num_layers)");
    }
    if (layer >= l.layers) {
        char reason[96];
        snprintf(reason, sizeof reason, "has %u layers: layer must be 0 ... %u", l.layers, l.layers - 1);
        return pe_config_refuse(&r, PE_ERR_LAYER_TYPE, "num_hidden_layers", reason);
    }
    static const char *const HEADS[] = {"num_attention_heads", "n_head", "n_heads", "num_heads", NULL};
    uint32_t heads = 0;
    for (int k = 0; HEADS[k] && !heads; k++) heads = whole(&r, HEADS[k], 0);
    l.kv_heads = kv_heads_of(&r, heads);
    set_text(l.kind, "attention");

    char listed[24];
    if (encoder && decoder) {
        set_text(l.kind, layer < encoder ? "encoder" : "decoder");
        /* BART's and Whisper's attribute_map: num_attention_heads is encoder_attention_heads. */
        const uint32_t own = whole(&r, layer < encoder ? "encoder_attention_heads" : "decoder_attention_heads", 0);
        if (own) l.kv_heads = own;
    } else if (type_is(&r, (const char *const[]){"mamba", "mamba2", "falcon_mamba", NULL})) {
        set_text(l.kind, "mamba");
        l.positions = PE_LAYER_NO_ATTENTION;
    } else if (type_is(&r, (const char *const[]){"jamba", NULL})) {
        /* JambaConfig.layers_block_type: attention where i % period == offset; no position encoding anywhere. */
        const uint32_t period = whole(&r, "attn_layer_period", 8), offset = whole(&r, "attn_layer_offset", 4);
        const int attention = period && layer % period == offset;
        set_text(l.kind, attention ? "attention" : "mamba");
        l.positions = attention ? PE_LAYER_NOPE : PE_LAYER_NO_ATTENTION;
    } else if (listed_type(&r, layer, listed)) {
        set_text(l.kind, listed);
    } else if (type_is(&r, (const char *const[]){"gemma2", NULL})) {
        set_text(l.kind, (layer + 1) % 2 ? "sliding_attention" : "full_attention");
    } else if (type_is(&r, (const char *const[]){"gemma3", "gemma3_text", "cohere2", NULL})) {
        const uint32_t pattern = whole(&r, "sliding_window_pattern", 6);
        set_text(l.kind, pattern && (layer + 1) % pattern ? "sliding_attention" : "full_attention");
    } else if (type_is(&r, (const char *const[]){"modernbert", NULL})) {
        const uint32_t every = whole(&r, "global_attn_every_n_layers", 3);
        set_text(l.kind, every && layer % every == 0 ? "full_attention" : "sliding_attention");
    }
    if (!strcmp(l.kind, "linear_attention") || !strcmp(l.kind, "mamba") || !strcmp(l.kind, "conv")) {
        l.positions = PE_LAYER_NO_ATTENTION;
    }
    /* Cohere 2 rotates its sliding layers only (Cohere2Attention: rope when sliding_window is set). */
    if (type_is(&r, (const char *const[]){"cohere2", NULL}) && !strcmp(l.kind, "full_attention"))
        l.positions = PE_LAYER_NOPE;
    /* Llama 4, SmolLM3: no_rope_layers[i] == 0 means no RoPE; an empty or absent list is HF's default. */
    if (type_is(&r, (const char *const[]){"llama4", "llama4_text", "smollm3", NULL})) {
        double v = 1;
        if (array_length(&r, "no_rope_layers") > 0) {
            if (!element(&r, "no_rope_layers", layer, &at) || !pe_json_number(&r.j, at, &v))
                return pe_config_refuse(&r, PE_ERR_CONFIG, "no_rope_layers",
                                        "must list 0 or 1 for every layer (num_hidden_layers of them)");
        } else {
            const uint32_t interval = whole(&r, "no_rope_layer_interval", 4);
            v = interval && (layer + 1) % interval == 0 ? 0 : 1;
        }
        if (v == 0) l.positions = PE_LAYER_NOPE;
    }
    if (l.positions == PE_LAYER_NO_ATTENTION) l.kv_heads = 0;
    /* The positions differ by layer type (Gemma 3, ModernBERT, v5's per-type rope_parameters; Whisper's
     * encoder and decoder tables): name it. */
    if (l.positions == PE_LAYER_CONFIG &&
        (pe_config_split_bases(&r) || type_is(&r, (const char *const[]){"whisper", NULL}) ||
         (pe_json_find(&r.j, r.cfg, "rope_parameters", &at) && pe_json_find(&r.j, at, l.kind, &at))))
        set_text(l.layer_type, l.kind);
    keys[0] = '\0'; /* nothing to list: the reader's scratch at the far end is not text */
    *out = l;
    return PE_OK;
}
