/* config_defaults.c: what HF's config classes assume for keys a config.json
 * leaves out (config_reader.h), and the models whose RoPE base differs by
 * layer type through top-level keys (Gemma 3, ModernBERT). The defaults are
 * the __init__ defaults of transformers' configuration_<model>.py; only those
 * that change a position answer are listed. */
#include <string.h>

#include "config_reader.h"

static const struct {
    const char *model_type, *key;
    double value;
} DEFAULTS[] = {
    /* Gemma3TextConfig: google/gemma-3-4b-it ships text_config without heads, head_dim or thetas. */
    {"gemma3_text", "num_attention_heads", 8},
    {"gemma3_text", "num_key_value_heads", 4},
    {"gemma3_text", "head_dim", 256},
    {"gemma3_text", "rope_theta", 1000000},
    {"gemma3_text", "rope_local_base_freq", 10000},
    {"gemma3_text", "sliding_window_pattern", 6},
    {"gemma3_text", "max_position_embeddings", 131072},
    /* ModernBertConfig */
    {"modernbert", "global_rope_theta", 160000},
    {"modernbert", "local_rope_theta", 10000},
    {"modernbert", "global_attn_every_n_layers", 3},
    /* Llama4TextConfig, SmolLM3Config: every no_rope_layer_interval-th layer has no RoPE. */
    {"llama4_text", "no_rope_layer_interval", 4},
    {"llama4_text", "rope_theta", 500000},
    {"smollm3", "no_rope_layer_interval", 4},
    {"smollm3", "rope_theta", 2000000},
    /* Cohere2Config: every sliding_window_pattern-th layer is global (and has no RoPE). */
    {"cohere2", "sliding_window_pattern", 4},
    /* sliding_window where the config class defaults it (the per-layer answer's window; Mixtral, Phi-3,
     * Starcoder2 and SmolLM3 default it to None). Qwen2-VL and Qwen2.5-VL slide from layer 80 by default. */
    {"mistral", "sliding_window", 4096},
    {"gemma2", "sliding_window", 4096},
    {"gemma3_text", "sliding_window", 4096},
    {"cohere2", "sliding_window", 4096},
    {"gpt_oss", "sliding_window", 128},
    {"olmo3", "sliding_window", 4096},
    {"qwen2", "sliding_window", 4096},
    {"qwen3", "sliding_window", 4096},
    {"qwen2_moe", "sliding_window", 4096},
    {"qwen3_moe", "sliding_window", 4096},
    {"qwen2_vl", "sliding_window", 4096},
    {"qwen2_vl", "max_window_layers", 80},
    {"qwen2_5_vl", "sliding_window", 4096},
    {"qwen2_5_vl", "max_window_layers", 80},
    {"qwen2_vl_text", "sliding_window", 4096},
    {"qwen2_vl_text", "max_window_layers", 80},
    {"qwen2_5_vl_text", "sliding_window", 4096},
    {"qwen2_5_vl_text", "max_window_layers", 80},
    /* JambaConfig: attention every attn_layer_period layers from attn_layer_offset. */
    {"jamba", "attn_layer_period", 8},
    {"jamba", "attn_layer_offset", 4},
};

/* The model_type defaults are looked up by: Gemma 3's text config inside a gemma3 checkpoint is gemma3_text. */
static const char *class_of(const pe_config_reader *r) {
    static const char *const ALIASES[][2] = {
        {"gemma3", "gemma3_text"}, {"llama4", "llama4_text"}, {"gemma3_text", "gemma3_text"}};
    for (size_t k = 0; k < sizeof ALIASES / sizeof ALIASES[0]; k++)
        if (pe_json_span_is(&r->j, r->model_type, ALIASES[k][0])) return ALIASES[k][1];
    return NULL;
}

int pe_config_model_default(const pe_config_reader *r, const char *key, double *value) {
    size_t at;
    const char *alias = class_of(r);
    for (size_t k = 0; k < sizeof DEFAULTS / sizeof DEFAULTS[0]; k++) {
        if (strcmp(DEFAULTS[k].key, key)) continue;
        if (alias ? strcmp(alias, DEFAULTS[k].model_type)
                  : !pe_json_span_is(&r->j, r->model_type, DEFAULTS[k].model_type))
            continue;
        /* given: no default (looked for only now: a scan of cfg's members, once a layer type) */
        if (pe_json_find(&r->j, r->cfg, key, &at)) return 0;
        *value = DEFAULTS[k].value;
        return 1;
    }
    return 0;
}

static int is_modernbert(const pe_config_reader *r) {
    return pe_json_span_is(&r->j, r->model_type, "modernbert");
}

int pe_config_split_bases(pe_config_reader *r) {
    size_t at;
    double v;
    if (is_modernbert(r)) {
        /* HF reads position_embedding_type into the class and never uses it. */
        if (pe_json_find(&r->j, r->cfg, "position_embedding_type", &at) && pe_json_string_is(&r->j, at, "absolute"))
            pe_config_get(r, r->cfg, "position_embedding_type", &at);
        return 1;
    }
    return pe_config_get(r, r->cfg, "rope_local_base_freq", &at) ||
           pe_config_model_default(r, "rope_local_base_freq", &v);
}

/* A number key of cfg, else its default; refused when given and not a number. */
static pe_status number_or_default(pe_config_reader *r, const char *key, double *value) {
    size_t at;
    if (pe_config_get(r, r->cfg, key, &at)) {
        if (!pe_json_number(&r->j, at, value)) return pe_config_refuse(r, PE_ERR_SCALING, key, "must be a number");
        if (!(*value - *value == 0)) /* 1e400 reads as infinity */
            return pe_config_refuse(r, PE_ERR_SCALING, key,
                                    "must be a finite number: it is past the range of a double");
        return *value > 1.0 && *value <= PE_MAX_BASE ? PE_OK
                                                     : pe_config_refuse(r, PE_ERR_SCALING, key, PE_CONFIG_BASE_RANGE);
    }
    return pe_config_model_default(r, key, value) ? PE_OK
                                                  : pe_config_refuse(r, PE_ERR_SCALING, key, "must be a number");
}

pe_status pe_config_split_base(pe_config_reader *r, int local, int theta_given, double *base) {
    (void)theta_given;
    if (is_modernbert(r)) {
        /* ModernBertConfig: global layers rotate with global_rope_theta, local ones with
         * local_rope_theta, or global_rope_theta when that is null. */
        double global;
        pe_status s = number_or_default(r, "global_rope_theta", &global);
        size_t at;
        if (s != PE_OK || !local) {
            *base = global;
            if (s == PE_OK) pe_config_get(r, r->cfg, "local_rope_theta", &at); /* read with the pair */
            return s;
        }
        if (pe_json_find(&r->j, r->cfg, "local_rope_theta", &at) ||
            pe_config_model_default(r, "local_rope_theta", base))
            return number_or_default(r, "local_rope_theta", base);
        *base = global; /* local_rope_theta: null */
        pe_config_get(r, r->cfg, "local_rope_theta", &at);
        return PE_OK;
    }
    return local ? number_or_default(r, "rope_local_base_freq", base) : PE_OK;
}
