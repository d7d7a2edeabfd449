/* commands.h: the native CLI's subcommands (one file each), listed in
 * posenc.c's table; src/js/cli/ holds their Node twins, same names. */
#ifndef POSENC_CLI_COMMANDS_H
#define POSENC_CLI_COMMANDS_H

#include "args.h"
#include "format.h"

/* Usage lines several subcommands share. */
#define CLI_TABLE_FORMATS_HELP                                                                         \
    "  --format F    text (4 decimals), csv or json (9 decimals), npy (NumPy .npy float32)\n"          \
    "                f32 (raw little-endian float32) or raw (the --dtype's own little-endian bytes)\n" \
    "                (default text)\n"                                                                 \
    "  --kernels K   auto, simd or scalar (default auto); all give the same bits\n"
#define CLI_COMMON_HELP                                          \
    "  --output FILE write to FILE instead of standard output\n" \
    "  --version     print the version\n"                        \
    "  -h, --help    print this help\n"

extern const char TABLE_USAGE[], ROPE_USAGE[], ALIBI_USAGE[], TABLE2D_USAGE[];
extern const char *const TABLE_OPTIONS[], *const ROPE_OPTIONS[], *const ALIBI_OPTIONS[], *const TABLE2D_OPTIONS[];
int cli_run_table(const cli_given *given, FILE *out, char **error);
int cli_run_rope(const cli_given *given, FILE *out, char **error);
int cli_run_alibi(const cli_given *given, FILE *out, char **error);
int cli_run_table2d(const cli_given *given, FILE *out, char **error);

/* --format among the NULL-terminated allowed ones (default text); 0 or exit code 2. */
int cli_format_option(const cli_given *given, const char *const *allowed, const char *listed, cli_format *format,
                      char **error);
/* --kernels auto, simd or scalar applied to the core; 0, 2 (bad value) or 1 (not in this build). */
int cli_kernels_option(const cli_given *given, char **error);
/* A required or optional count option: 0 or exit code 2 with the message "NAME must be WHAT; got V". */
int cli_count_option(const cli_given *given, const char *name, const char *fallback, uint32_t min, uint32_t max,
                     const char *what, uint32_t *value, char **error);

#endif
