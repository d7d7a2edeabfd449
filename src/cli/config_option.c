/* config_option.c: `--config FILE` of the rope and alibi subcommands: the
 * file read whole and interpreted by the core's pe_config_read, the one
 * reading of configs that src/js/cli/config-option.js also uses (through
 * wasm), with the same messages. */
#include <stdlib.h>
#include <string.h>

#include "config_option.h"
#include "posenc.h"
#include "read_input.h"

/* "'a', 'b'" of the newline-separated names. */
static void quoted_list(const char *lines, char *out, size_t size) {
    size_t at = 0;
    out[0] = '\0';
    for (const char *p = lines; *p && at < size;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        at += (size_t)snprintf(out + at, size - at, "%s'%.*s'", at ? ", " : "", (int)n, p);
        p = end ? end + 1 : p + n;
    }
}

int cli_read_config(const char *path, const char *layer_type, cli_config *config, char **error) {
    memset(config, 0, sizeof *config);
    size_t bytes = 0;
    char *text = NULL;
    int code = cli_read_input("--config", "a config.json", path, CLI_MAX_CONFIG_BYTES, &text, &bytes, error);
    if (code) return code;
    code = cli_interpret_config(text, bytes, layer_type, config, error);
    config->text = text;
    return code;
}

/* With no layer type named, fromConfig (the JS CLI) reads every layer type the core listed in `keys`, in order, and
 * a refusal in one of them is its answer: the same here, before "--layer-type is required", in one reading of the
 * config for all of them (pe_config_read_types: one reading a type was quadratic in the types). PE_ERR_LAYER_TYPE
 * (keys untouched) when every type reads, else the first refusal with its two lines in keys (keys_bytes >=
 * 8 * bytes + 256); PE_ERR_NULL when memory ran out. */
static pe_status read_each_type(const char *text, size_t bytes, char *keys, size_t keys_bytes) {
    uint32_t types = 0;
    for (const char *p = keys; *p; p++) types += *p == '\n';
    pe_config *configs = malloc((types + 1) * sizeof *configs);
    double *factors = malloc((bytes / 2 + 2) * sizeof *factors);
    char *lines = malloc(keys_bytes);
    pe_status st = configs && factors && lines ? pe_config_read_types(text, bytes, factors, bytes / 2 + 2, configs,
                                                                      types, lines, keys_bytes, NULL)
                                               : PE_ERR_NULL;
    if (st == PE_OK)
        st = PE_ERR_LAYER_TYPE;
    else if (st != PE_ERR_NULL)
        memcpy(keys, lines, strlen(lines) + 1);
    free(configs);
    free(factors);
    free(lines);
    return st;
}

int cli_interpret_config(const char *text, size_t bytes, const char *layer_type, cli_config *config, char **error) {
    memset(config, 0, sizeof *config);
    int code = 0;
    config->factors = malloc((bytes / 2 + 2) * sizeof(double));
    char *keys = malloc(8 * bytes + 256);
    if (!config->factors || !keys) {
        free(keys);
        return cli_fail(error, 1, "out of memory");
    }
    pe_status st =
        pe_config_read(text, bytes, layer_type, config->factors, bytes / 2 + 2, &config->config, keys, 8 * bytes + 256);
    if (st == PE_ERR_LAYER_TYPE && !layer_type && keys[0]) st = read_each_type(text, bytes, keys, 8 * bytes + 256);
    if (st == PE_ERR_NULL) {
        free(keys);
        return cli_fail(error, 1, "out of memory");
    }
    if (st == PE_OK || (st == PE_ERR_LAYER_TYPE && !layer_type && keys[0])) {
        /* More layers than PE_CONFIG_MAX_LAYERS: refused, as the JS CLI's fromConfig refuses its per-layer answer. */
        char *layer_keys = malloc(8 * bytes + 256);
        pe_config_layer first;
        if (layer_keys &&
            pe_config_layer_read(text, bytes, 0, &first, layer_keys, 8 * bytes + 256) == PE_ERR_TOO_LARGE) {
            memcpy(keys, layer_keys, strlen(layer_keys) + 1);
            st = PE_ERR_TOO_LARGE;
        }
        free(layer_keys);
    }
    if (st == PE_ERR_CONFIG || st == PE_ERR_SCALING || (st == PE_ERR_TOO_LARGE && strchr(keys, '\n'))) {
        char *reason = strchr(keys, '\n');
        if (reason) *reason++ = '\0';
        if (reason && strchr(reason, '\n')) *strchr(reason, '\n') = '\0';
        code = cli_fail(error, 1, "config key '%s' %s", keys, reason ? reason : "");
    } else if (st == PE_ERR_LAYER_TYPE) {
        /* The whole list, as the Node CLI prints it: each name quoted and followed by ", " at most. */
        size_t lines = 1;
        for (const char *p = keys; *p; p++) lines += *p == '\n';
        size_t list_bytes = strlen(keys) + 4 * lines + 1;
        char *list = malloc(list_bytes);
        if (!list) {
            free(keys);
            return cli_fail(error, 1, "out of memory");
        }
        quoted_list(keys, list, list_bytes);
        code =
            layer_type && !keys[0]
                ? cli_fail(error, 2, "--layer-type is not used: the config's RoPE is the same for every layer; got %s",
                           layer_type)
            : layer_type
                ? cli_fail(error, 2, "--layer-type must be one of the config's layer types (%s); got %s", list,
                           layer_type)
                : cli_fail(error, 2, "--layer-type is required: the config's RoPE differs by layer type (%s)", list);
        free(list);
    } else if (st != PE_OK) {
        code = cli_fail(error, 1, "%s", pe_status_str(st));
    }
    free(keys);
    return code;
}

void cli_free_config(cli_config *config) {
    free(config->text);
    free(config->factors);
}

const char *cli_config_kind(const pe_config *c) {
    static const char *const KINDS[] = {"", "rope", "alibi", "sinusoidal", "learned", "relative", "none"};
    return KINDS[c->kind];
}
