/* Wasm export of the config family (posenc.h, "Model configs"). The result
 * travels as 37 doubles, so the loader never lays out a C struct
 * (src/js/config/config-read.js reads them by the same names):
 *   0 kind  1 heads  2 hidden_size  3 max_positions  4 position_offset
 *   5 head_dim  6 rotary_dim  7 base  8 layout  9 scaling type  10 factor
 *   11 original_max_position_embeddings  12 beta_fast  13 beta_slow
 *   14 attention_factor  15 mscale  16 mscale_all_dim  17 no_truncate
 *   18 low_freq_factor  19 high_freq_factor  20 layer_types  21 longrope
 *   22 longrope factor  23 longrope attention_factor  24 mrope sections
 *   25-28 mrope_section  29 sinusoid layout  30 frequencies  31 shaw
 *   32 num_buckets  33 max_distance  34 max_relative  35 encoder_decoder
 *   36 mrope_interleaved  37 kv_heads
 * longrope's short_factor then long_factor (rotary_dim / 2 each) stay in factors. */
#include "export.h"

EXPORT("pe_wasm_config_read")
int pe_wasm_config_read(const char *json, size_t json_bytes, const char *layer_type, double *factors,
                        size_t factors_count, double *out, char *keys, size_t keys_bytes) {
    pe_config c;
    pe_status s = pe_config_read(json, json_bytes, layer_type, factors, factors_count, &c, keys, keys_bytes);
    if (s != PE_OK) return s;
    const pe_rope_scaling *sc = &c.rope.scaling;
    const double fields[38] = {c.kind,
                               c.heads,
                               c.hidden_size,
                               c.max_positions,
                               c.position_offset,
                               c.rope.head_dim,
                               c.rope.rotary_dim,
                               c.rope.base,
                               c.rope.layout,
                               sc->type,
                               sc->factor,
                               sc->original_max_position_embeddings,
                               sc->beta_fast,
                               sc->beta_slow,
                               sc->attention_factor,
                               sc->mscale,
                               sc->mscale_all_dim,
                               sc->no_truncate,
                               sc->low_freq_factor,
                               sc->high_freq_factor,
                               c.layer_types,
                               c.longrope,
                               c.longrope_factor,
                               c.longrope_attention_factor,
                               c.mrope_sections,
                               c.mrope_section[0],
                               c.mrope_section[1],
                               c.mrope_section[2],
                               c.mrope_section[3],
                               c.layout,
                               c.frequencies,
                               c.shaw,
                               c.num_buckets,
                               c.max_distance,
                               c.max_relative,
                               c.encoder_decoder,
                               c.mrope_interleaved,
                               c.kv_heads};
    for (int k = 0; k < 38; k++) out[k] = fields[k];
    return PE_OK;
}

/* Layers 0 ... count - 1 (posenc.h, pe_config_layers_read) through `layers`, the caller's room for count of
 * them, then as pe_wasm_config_layer writes one: out[3k ...] and text[48k ...] for layer k. */
_Static_assert(sizeof(pe_config_layer) == 60, "config-read.js's LAYER_STRUCT");
EXPORT("pe_wasm_config_layers")
int pe_wasm_config_layers(const char *json, size_t json_bytes, uint32_t count, pe_config_layer *layers, double *out,
                          char *text, char *keys, size_t keys_bytes) {
    pe_status s = pe_config_layers_read(json, json_bytes, 0, count, layers, keys, keys_bytes);
    if (s != PE_OK) return s;
    for (uint32_t i = 0; i < count; i++) {
        const pe_config_layer *l = &layers[i];
        out[3 * i] = l->layers;
        out[3 * i + 1] = l->kv_heads;
        out[3 * i + 2] = l->positions;
        for (int k = 0; k < 24; k++) {
            text[48 * i + k] = l->kind[k];
            text[48 * i + 24 + k] = l->layer_type[k];
        }
    }
    return PE_OK;
}

/* One layer (posenc.h, pe_config_layer_read): out[0] layers, [1] kv_heads, [2] positions; kind and
 * layer_type as NUL-terminated text into text (48 bytes: kind at 0, layer_type at 24). */
EXPORT("pe_wasm_config_layer")
int pe_wasm_config_layer(const char *json, size_t json_bytes, uint32_t layer, double *out, char *text, char *keys,
                         size_t keys_bytes) {
    pe_config_layer l;
    pe_status s = pe_config_layer_read(json, json_bytes, layer, &l, keys, keys_bytes);
    if (s != PE_OK) return s;
    out[0] = l.layers;
    out[1] = l.kv_heads;
    out[2] = l.positions;
    for (int k = 0; k < 24; k++) {
        text[k] = l.kind[k];
        text[24 + k] = l.layer_type[k];
    }
    return PE_OK;
}
