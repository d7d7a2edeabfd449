/* alibi_command.c: `posenc alibi`, ALiBi's per-head slopes for --heads N or a
 * model's config.json (src/js/cli/alibi.js prints the same bytes). */
#include <stdlib.h>

#include "commands.h"
#include "config_option.h"
#include "posenc.h"

const char ALIBI_USAGE[] =
    "usage: posenc alibi (--heads N | --config config.json) [options]\n"
    "\n"
    "Prints ALiBi's slopes m_h, one per head (Press et al.; BLOOM's and MPT's): the float32 nearest\n"
    "2^(-8(h+1)/n), with every other slope of 2n for the heads past the largest power of two.\n"
    "\n"
    "  --heads N     number of attention heads, 1 to 65536\n"
    "  --config FILE a model's config.json (BLOOM, MPT with attn_config.alibi, ...) instead of --heads\n"
    "  --dtype T     float32 (the slopes' type, the only one)\n"
    "  --format F    text (one value per line), csv or json, values with 9 significant digits; or the\n"
    "                (heads,) float32 array: npy (<f4), f32 or raw (little-endian float32)\n" CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc alibi --heads 12\n"
    "  posenc alibi --config bloom.json --format json\n"
    "  posenc alibi --heads 32 --format npy --output slopes.npy\n";

const char *const ALIBI_OPTIONS[] = {"--heads", "--config", "--dtype", "--format", "--output", NULL};

int cli_run_alibi(const cli_given *given, FILE *out, char **error) {
    static const char *const FORMATS[] = {"text", "csv", "json", "npy", "f32", "raw", NULL};
    const char *path = cli_value(given, "--config");
    if (path && cli_value(given, "--heads")) return cli_fail(error, 2, "give --heads or --config, not both");
    if (!path && !cli_value(given, "--heads"))
        return cli_fail(error, 2, "--heads is required (the number of attention heads), or --config");
    uint32_t heads = 0;
    int code =
        path ? 0 : cli_count_option(given, "--heads", NULL, 1, 65536, "an integer from 1 to 65536", &heads, error);
    cli_format format;
    pe_dtype dtype;
    static const char *const DTYPES[] = {"float32", NULL};
    if (!code) code = cli_dtype_option(given, DTYPES, "float32 (the slopes' type)", &dtype, error);
    if (!code) code = cli_format_option(given, FORMATS, "text, csv, json, npy, f32 or raw", &format, error);
    if (code) return code;
    if (path) {
        cli_config cfg;
        code = cli_read_config(path, NULL, &cfg, error);
        if (!code && cfg.config.kind != PE_CONFIG_ALIBI)
            code = cli_fail(error, 1, "the config describes a model with %s positions, not ALiBi",
                            cli_config_kind(&cfg.config));
        heads = cfg.config.heads;
        cli_free_config(&cfg);
        if (code) return code;
    }
    float *slopes = malloc(heads * sizeof *slopes);
    double *values = malloc(heads * sizeof *values);
    pe_status st = slopes && values ? pe_alibi_slopes(heads, slopes, heads) : PE_ERR_NULL;
    for (uint32_t h = 0; st == PE_OK && h < heads; h++) values[h] = slopes[h];
    if (st == PE_OK)
        code = cli_write_value_list(out, format, PE_DTYPE_FLOAT32, "head", "slope", values, heads, error);
    else
        code = cli_fail(error, 1, "%s", slopes && values ? pe_status_str(st) : "out of memory");
    free(slopes);
    free(values);
    return code;
}
