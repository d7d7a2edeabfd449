/* config_option.h: `--config FILE` (see config_option.c). */
#ifndef POSENC_CLI_CONFIG_OPTION_H
#define POSENC_CLI_CONFIG_OPTION_H

#include "args.h"
#include "posenc.h"

typedef struct cli_config {
    pe_config config;
    char *text; /* the file; the config's factors point into `factors` */
    double *factors;
} cli_config;

/* 0, or an exit code with *error set; cli_free_config in every case. */
int cli_read_config(const char *path, const char *layer_type, cli_config *config, char **error);
/* cli_read_config of text already read (bytes of it, outliving config): config->text stays NULL. */
int cli_interpret_config(const char *text, size_t bytes, const char *layer_type, cli_config *config, char **error);
void cli_free_config(cli_config *config);

/* "rope", "alibi", "sinusoidal", "learned" or "relative". */
const char *cli_config_kind(const pe_config *c);

#endif
