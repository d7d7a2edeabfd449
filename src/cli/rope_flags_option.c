/* rope_flags_option.c: see rope_flags_option.h. The parameters are HF's
 * rope_scaling keys spelled as flags (factor -> --factor,
 * original_max_position_embeddings -> --original-max-position-embeddings),
 * each read by the rope types that read the key (src/js/rope/scaling.js). */
#include "rope_flags_option.h"

#include <float.h>
#include <string.h>

#include "commands.h"

const char *const CLI_ROPE_DESCRIPTION_OPTIONS[] = {
    "--head-dim",         "--rotary-dim",     "--base",
    "--scaling",          "--factor",         "--original-max-position-embeddings",
    "--beta-fast",        "--beta-slow",      "--attention-factor",
    "--mscale",           "--mscale-all-dim", "--low-freq-factor",
    "--high-freq-factor", "--truncate",       NULL};

/* The --scaling types and the parameters each reads (indices into the options above, from 4). */
static const char *const TYPES[] = {"default", "linear", "dynamic", "yarn", "llama3", NULL};
static const pe_rope_scaling_type TYPE_VALUES[] = {PE_ROPE_SCALING_NONE, PE_ROPE_SCALING_LINEAR,
                                                   PE_ROPE_SCALING_DYNAMIC, PE_ROPE_SCALING_YARN,
                                                   PE_ROPE_SCALING_LLAMA3};
#define P(k) (1u << (k))
static const unsigned READS[] = {0, P(4), P(4) | P(5), P(4) | P(5) | P(6) | P(7) | P(8) | P(9) | P(10) | P(13),
                                 P(4) | P(5) | P(11) | P(12)};
static const char *const LISTS[] = {
    "it has none",
    "--factor",
    "--factor, --original-max-position-embeddings",
    "--factor, --original-max-position-embeddings, --beta-fast, --beta-slow, --attention-factor, --mscale, "
    "--mscale-all-dim, --truncate",
    "--factor, --original-max-position-embeddings, --low-freq-factor, --high-freq-factor",
};

const char *cli_rope_description_given(const cli_given *given) {
    for (int k = 0; CLI_ROPE_DESCRIPTION_OPTIONS[k]; k++)
        if (cli_value(given, CLI_ROPE_DESCRIPTION_OPTIONS[k])) return CLI_ROPE_DESCRIPTION_OPTIONS[k];
    return NULL;
}

/* A finite decimal of `name` at least min (above it when `above`) into *value;
 * *value untouched when absent. 0 or exit code 2. */
static int number(const cli_given *given, const char *name, double min, int above, const char *what, double *value,
                  char **error) {
    const char *text = cli_value(given, name);
    double v;
    if (!text) return 0;
    if (!cli_parse_decimal(text, &v) || !(v >= -DBL_MAX && v <= DBL_MAX) || v < min || (above && v == min))
        return cli_fail(error, 2, "%s must be %s; got %s", name, what, text);
    *value = v;
    return 0;
}

int cli_rope_flags(const cli_given *given, pe_config *config, char **error) {
    memset(config, 0, sizeof *config);
    config->kind = PE_CONFIG_ROPE;
    pe_rotary *rope = &config->rope;
    uint32_t head_dim, rotary_dim;
    int code =
        cli_count_option(given, "--head-dim", NULL, 2, PE_MAX_DIM, "an integer from 2 to 65536", &head_dim, error);
    if (code) return code;
    const char *rotary_text = cli_value(given, "--rotary-dim");
    if (!rotary_text && head_dim % 2)
        return cli_fail(error, 2, "--head-dim must be even (RoPE turns pairs) unless --rotary-dim is given; got %u",
                        (unsigned)head_dim);
    if (rotary_text &&
        (!cli_parse_count(rotary_text, &rotary_dim) || rotary_dim < 2 || rotary_dim > head_dim || rotary_dim % 2))
        return cli_fail(error, 2, "--rotary-dim must be an even integer from 2 to --head-dim (%u); got %s",
                        (unsigned)head_dim, rotary_text);
    rope->head_dim = head_dim;
    rope->rotary_dim = rotary_text ? rotary_dim : head_dim;
    rope->heads = 1;
    rope->base = 10000.0;
    if ((code = number(given, "--base", 1.0, 1, "a number above 1 and at most 1e300", &rope->base, error))) return code;
    if (rope->base > PE_MAX_BASE)
        return cli_fail(error, 2, "--base must be a number above 1 and at most 1e300; got %s",
                        cli_value(given, "--base"));
    const char *type_text = cli_value(given, "--scaling") ? cli_value(given, "--scaling") : "default";
    const int type = cli_pick(type_text, TYPES);
    if (type < 0)
        return cli_fail(error, 2, "--scaling must be default, linear, dynamic, yarn or llama3; got %s", type_text);
    for (int k = 4; CLI_ROPE_DESCRIPTION_OPTIONS[k]; k++)
        if (cli_value(given, CLI_ROPE_DESCRIPTION_OPTIONS[k]) && !(READS[type] & P(k)))
            return cli_fail(error, 2, "%s is not a parameter of --scaling %s (%s)", CLI_ROPE_DESCRIPTION_OPTIONS[k],
                            type_text, LISTS[type]);
    pe_rope_scaling *s = &rope->scaling;
    s->type = TYPE_VALUES[type];
    if (type == 0) return 0;
    if (!cli_value(given, "--factor"))
        return cli_fail(error, 2, "--factor is required with --scaling %s (a number at least 1)", type_text);
    if ((code = number(given, "--factor", 1.0, 0, "a number at least 1", &s->factor, error))) return code;
    if (type == 1) return 0;
    const char *original = cli_value(given, "--original-max-position-embeddings");
    if (!original)
        return cli_fail(error, 2,
                        "--original-max-position-embeddings is required with --scaling %s (the context length the "
                        "model was trained with)",
                        type_text);
    double length;
    if (!cli_parse_decimal(original, &length) || strspn(original, "0123456789") != strlen(original) || length < 1 ||
        length > 4294967295.0)
        return cli_fail(error, 2, "--original-max-position-embeddings must be an integer from 1 to 4294967295; got %s",
                        original);
    s->original_max_position_embeddings = (uint32_t)length;
    if (type == 2 && rope->rotary_dim < 4)
        return cli_fail(error, 2, "--scaling dynamic needs a rotary dimension of at least 4; got %u",
                        (unsigned)rope->rotary_dim);
    if (type == 3) {
        if ((code = number(given, "--beta-fast", 0.0, 0, "a number at least 0 (0: 32)", &s->beta_fast, error)) ||
            (code = number(given, "--beta-slow", 0.0, 0, "a number at least 0 (0: 1)", &s->beta_slow, error)) ||
            (code = number(given, "--attention-factor", 0.0, 1, "a number above 0 and below 3.4e38",
                           &s->attention_factor, error)) ||
            (code = number(given, "--mscale", -DBL_MAX, 0, "a finite number", &s->mscale, error)) ||
            (code = number(given, "--mscale-all-dim", -DBL_MAX, 0, "a finite number", &s->mscale_all_dim, error)))
            return code;
        if (s->attention_factor > FLT_MAX)
            return cli_fail(error, 2, "--attention-factor must be a number above 0 and below 3.4e38; got %s",
                            cli_value(given, "--attention-factor"));
        const char *truncate = cli_value(given, "--truncate");
        s->no_truncate = truncate && !strcmp(truncate, "false");
    }
    if (type == 4) {
        for (int k = 11; k <= 12; k++)
            if (!cli_value(given, CLI_ROPE_DESCRIPTION_OPTIONS[k]))
                return cli_fail(error, 2, "%s is required with --scaling llama3 (a number above 0)",
                                CLI_ROPE_DESCRIPTION_OPTIONS[k]);
        if ((code = number(given, "--low-freq-factor", 0.0, 1, "a number above 0", &s->low_freq_factor, error)) ||
            (code = number(given, "--high-freq-factor", s->low_freq_factor, 1, "a number above --low-freq-factor",
                           &s->high_freq_factor, error)))
            return code;
    }
    return 0;
}
