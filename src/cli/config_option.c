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

static int interpret(size_t bytes, const char *layer_type, cli_config *config, char **error);

int cli_read_config(const char *path, const char *layer_type, cli_config *config, char **error) {
    memset(config, 0, sizeof *config);
    size_t bytes = 0;
    int code = cli_read_input("--config", "a config.json", path, CLI_MAX_CONFIG_BYTES, &config->text, &bytes, error);
    return code ? code : interpret(bytes, layer_type, config, error);
}

int cli_config_from_text(const char *json, size_t bytes, const char *layer_type, cli_config *config, char **error) {
    memset(config, 0, sizeof *config);
    config->text = malloc(bytes + 1);
    if (!config->text) return cli_fail(error, 1, "out of memory");
    memcpy(config->text, json, bytes);
    config->text[bytes] = '\0';
    return interpret(bytes, layer_type, config, error);
}

/* pe_config_read of config->text (bytes long) for layer_type, with the CLIs' messages. */
static int interpret(size_t bytes, const char *layer_type, cli_config *config, char **error) {
    int code = 0;
    config->factors = malloc((bytes / 2 + 2) * sizeof(double));
    char *keys = malloc(8 * bytes + 256);
    if (!config->factors || !keys) {
        free(keys);
        return cli_fail(error, 1, "out of memory");
    }
    pe_status st = pe_config_read(config->text, bytes, layer_type, config->factors, bytes / 2 + 2, &config->config,
                                  keys, 8 * bytes + 256);
    if (st == PE_ERR_CONFIG || st == PE_ERR_SCALING) {
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
