/* rope_command.c: `posenc rope --config config.json`, a model's RoPE
 * frequencies (or its attention factor) as the core computes them
 * (src/js/cli/rope.js prints the same bytes). */
#include <stdlib.h>

#include "commands.h"
#include "config_option.h"
#include "posenc.h"

const char ROPE_USAGE[] =
    "usage: posenc rope --config config.json [options]\n"
    "\n"
    "Prints the RoPE frequencies w_i (one per rotated pair) of a model's config.json, read as HF\n"
    "transformers reads it (rope_theta, rope_scaling / rope_parameters, partial_rotary_factor, ...).\n"
    "\n"
    "  --config FILE      a model's config.json (required)\n"
    "  --layer-type T     the layer type, when the RoPE differs by layer type (Gemma 3: full_attention\n"
    "                     or sliding_attention)\n"
    "  --length N         positions offset ... offset+N-1 (default 0); dynamic NTK scales for\n"
    "                     L = offset + N\n"
    "  --offset P         first position (default 0)\n"
    "  --what W           frequencies (default) or attention-factor; cos-sin arrives with the cos/sin\n"
    "                     caches\n"
    "  --dtype T          float64 (default: the core's values), float32, float16 or bfloat16: each\n"
    "                     value rounded once to that type\n"
    "  --format F         text (one value per line), csv or json; 17 significant digits for float64,\n"
    "                     9 for the others\n" CLI_COMMON_HELP;

const char *const ROPE_OPTIONS[] = {"--config", "--layer-type", "--length", "--offset", "--what",
                                    "--dtype",  "--format",     "--output", NULL};

int cli_run_rope(const cli_given *given, FILE *out, char **error) {
    static const char *const FORMATS[] = {"text", "csv", "json", NULL};
    static const char *const WHAT[] = {"frequencies", "attention-factor", "cos-sin", NULL};
    const char *path = cli_value(given, "--config");
    if (!path) return cli_fail(error, 2, "--config is required (a model's config.json)");
    uint32_t length, offset;
    int code =
        cli_count_option(given, "--length", "0", 0, 2147483648u, "an integer from 0 to 2147483648", &length, error);
    if (!code)
        code =
            cli_count_option(given, "--offset", "0", 0, 2147483648u, "an integer from 0 to 2147483648", &offset, error);
    if (code) return code;
    if ((uint64_t)offset + length > 2147483648u)
        return cli_fail(error, 2, "--offset + --length must be at most 2147483648; got %u + %u", (unsigned)offset,
                        (unsigned)length);
    const char *what_text = cli_value(given, "--what") ? cli_value(given, "--what") : "frequencies";
    int what = cli_pick(what_text, WHAT);
    if (what < 0)
        return cli_fail(error, 2, "--what must be frequencies, attention-factor or cos-sin; got %s", what_text);
    if (what == 2)
        return cli_fail(error, 2,
                        "--what cos-sin is not available yet: it needs the cos/sin caches (use --what frequencies)");
    cli_format format;
    pe_dtype dtype;
    static const char *const DTYPES[] = {"float64", "float32", "float16", "bfloat16", NULL};
    if ((code = cli_dtype_option(given, DTYPES, "float64, float32, float16 or bfloat16", &dtype, error))) return code;
    if ((code = cli_format_option(given, FORMATS, "text, csv or json", &format, error))) return code;

    cli_config cfg;
    code = cli_read_config(path, cli_value(given, "--layer-type"), &cfg, error);
    pe_config *c = &cfg.config;
    if (!code && c->kind != PE_CONFIG_ROPE)
        code = cli_fail(error, 1, "the config describes a model with %s positions, not RoPE (see posenc %s --config)",
                        cli_config_kind(c), c->kind == PE_CONFIG_ALIBI ? "alibi" : "rope --help");
    if (!code && c->longrope)
        code = cli_fail(error, 1,
                        "rope_type 'longrope' is not supported yet: HF's short/long factors arrive with the RoPE "
                        "variants of issue 12");
    double *w = NULL, attention = 1.0;
    if (!code) {
        c->rope.heads = 1;
        c->rope.scaling.sequence_length = offset + length;
        w = malloc((c->rope.rotary_dim / 2 + 1) * sizeof *w);
        pe_status st = w ? pe_rope_frequencies(&c->rope, w, c->rope.rotary_dim / 2, &attention) : PE_ERR_NULL;
        if (st != PE_OK) code = cli_fail(error, 1, "%s", w ? pe_status_str(st) : "out of memory");
    }
    const int digits = dtype == PE_DTYPE_FLOAT64 ? 16 : 8;
    if (!code && what == 0) code = cli_narrow_values(dtype, w, c->rope.rotary_dim / 2, error);
    if (!code && what == 1) code = cli_narrow_values(dtype, &attention, 1, error);
    if (!code && what == 0) cli_write_values(out, format, "pair", "frequency", w, c->rope.rotary_dim / 2, digits);
    if (!code && what == 1) cli_write_values(out, format, "index", "attention_factor", &attention, 1, digits);
    free(w);
    cli_free_config(&cfg);
    return code;
}
