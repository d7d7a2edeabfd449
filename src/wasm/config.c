/* Wasm export of the config family (posenc.h, "Model configs"). The result
 * travels as CONFIG's doubles (src/js/runtime/boundary.js names every slot;
 * build.sh generates pe_wasm_config_out from it), so the loader never lays out
 * a C struct. LONGROPE's short_factor then long_factor (rotary_dim / 2 each)
 * stay in factors. */
#include "export.h"
#include "pe_wasm_boundary.h"

EXPORT("pe_wasm_config_read")
int pe_wasm_config_read(const char *json, size_t json_bytes, const char *layer_type, double *factors,
                        size_t factors_count, double *out, char *keys, size_t keys_bytes) {
    pe_config c;
    pe_status s = pe_config_read(json, json_bytes, layer_type, factors, factors_count, &c, keys, keys_bytes);
    if (s != PE_OK) return s;
    pe_wasm_config_out(&c, out);
    return PE_OK;
}

/* Every layer type (posenc.h, pe_config_read_types) through `configs`, the caller's room for count of them, then
 * CONFIG's doubles at fields + PE_WASM_CONFIG_DOUBLES * t for type t (its longrope lists stay in factors). */
_Static_assert(sizeof(pe_config) == 296, "config-read.js's CONFIG_STRUCT");
EXPORT("pe_wasm_config_read_types")
int pe_wasm_config_read_types(const char *json, size_t json_bytes, double *factors, size_t factors_count,
                              pe_config *configs, uint32_t count, double *fields, char *keys, size_t keys_bytes,
                              uint32_t *refused) {
    pe_status s =
        pe_config_read_types(json, json_bytes, factors, factors_count, configs, count, keys, keys_bytes, refused);
    if (s != PE_OK) return s;
    for (uint32_t t = 0; t < count; t++) /* count: the types pe_config_read listed (config-read.js) */
        pe_wasm_config_out(&configs[t], fields + (size_t)PE_WASM_CONFIG_DOUBLES * t);
    return PE_OK;
}

/* Layers 0 ... count - 1 (posenc.h, pe_config_layers_read) through `layers`, the caller's room for count of
 * them, then as pe_wasm_config_layer writes one: CONFIG_LAYER's doubles at out + PE_WASM_CONFIG_LAYER_DOUBLES * k
 * and the text block (CONFIG_LAYER_TEXT, 48 bytes) at text + 48k for layer k. */
_Static_assert(sizeof(pe_config_layer) == 96, "config-read.js's LAYER_STRUCT");
EXPORT("pe_wasm_config_layers")
int pe_wasm_config_layers(const char *json, size_t json_bytes, uint32_t count, pe_config_layer *layers, double *out,
                          char *text, char *keys, size_t keys_bytes) {
    pe_status s = pe_config_layers_read(json, json_bytes, 0, count, layers, keys, keys_bytes);
    if (s != PE_OK) return s;
    for (uint32_t i = 0; i < count; i++) {
        pe_wasm_config_layer_out(&layers[i], out + (size_t)PE_WASM_CONFIG_LAYER_DOUBLES * i);
        for (int k = 0; k < 24; k++) {
            text[48 * i + k] = layers[i].kind[k];
            text[48 * i + 24 + k] = layers[i].layer_type[k];
        }
    }
    return PE_OK;
}

/* One layer (posenc.h, pe_config_layer_read): CONFIG_LAYER's doubles into out;
 * kind and layer_type as NUL-terminated text into text (CONFIG_LAYER_TEXT:
 * 48 bytes, kind at 0, layer_type at 24). */
EXPORT("pe_wasm_config_layer")
int pe_wasm_config_layer(const char *json, size_t json_bytes, uint32_t layer, double *out, char *text, char *keys,
                         size_t keys_bytes) {
    pe_config_layer l;
    pe_status s = pe_config_layer_read(json, json_bytes, layer, &l, keys, keys_bytes);
    if (s != PE_OK) return s;
    pe_wasm_config_layer_out(&l, out);
    for (int k = 0; k < 24; k++) {
        text[k] = l.kind[k];
        text[24 + k] = l.layer_type[k];
    }
    return PE_OK;
}
