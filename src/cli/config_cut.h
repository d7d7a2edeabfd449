/* config_cut.h: a config whose RoPE is keyed by layer type, cut to one layer
 * type (config_cut.c), so that `posenc config` reads each type in time
 * proportional to the config without the other types' entries. */
#ifndef POSENC_CLI_CONFIG_CUT_H
#define POSENC_CLI_CONFIG_CUT_H

#include <stddef.h>

typedef struct cli_config_cut cli_config_cut;

/* The cut of json (bytes bytes, a document the core accepted: valid JSON, an
 * object), or NULL when the config is of another shape (no dict keyed by
 * layer type: read whole) or memory ran out. Linear in bytes. */
cli_config_cut *cli_config_cut_new(const char *json, size_t bytes);

/* The config with only layer type `name`'s entry in its dict (and
 * layer_types, when present, [name]): malloc'd, *length bytes, not
 * NUL-terminated; NULL when the dict has no such key (read whole) or memory
 * ran out. pe_config_read answers it as it answers the whole config for
 * `name`. Time: bytes outside the dict and layer_types, plus the entry. */
char *cli_config_cut_for(const cli_config_cut *cut, const char *name, size_t *length);

void cli_config_cut_free(cli_config_cut *cut);

#endif
