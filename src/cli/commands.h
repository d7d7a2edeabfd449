/* commands.h: the native CLI's subcommands (one file each), listed in
 * posenc.c's table; src/js/cli/ holds their Node twins, same names. */
#ifndef POSENC_CLI_COMMANDS_H
#define POSENC_CLI_COMMANDS_H

#include "args.h"
#include "format.h"
#include "posenc.h"

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

extern const char TABLE_USAGE[], ROPE_USAGE[], ALIBI_USAGE[], TABLE2D_USAGE[], T5_BUCKETS_USAGE[], IDENTIFY_USAGE[],
    CONFIG_USAGE[];
extern const char *const CONFIG_OPTIONS[];
int cli_run_config(const cli_given *given, FILE *out, char **error);
extern const char *const TABLE_OPTIONS[], *const ROPE_OPTIONS[], *const ROPE_FLAGS[], *const ALIBI_OPTIONS[],
                                                                                          *const TABLE2D_OPTIONS[],
                                                                                              *const TABLE2D_FLAGS[];
extern const char *const T5_BUCKETS_OPTIONS[], *const T5_BUCKETS_FLAGS[], *const IDENTIFY_OPTIONS[],
                                                                              *const IDENTIFY_FLAGS[];
int cli_run_table(const cli_given *given, FILE *out, char **error);
int cli_run_rope(const cli_given *given, FILE *out, char **error);
int cli_run_alibi(const cli_given *given, FILE *out, char **error);
int cli_run_table2d(const cli_given *given, FILE *out, char **error);
int cli_run_t5_buckets(const cli_given *given, FILE *out, char **error);
int cli_run_identify(const cli_given *given, FILE *out, char **error);

/* --format among the NULL-terminated allowed ones (default text); 0 or exit code 2. */
int cli_format_option(const cli_given *given, const char *const *allowed, const char *listed, cli_format *format,
                      char **error);
/* f32 only for float32 and npy not for bfloat16 (NumPy lacks it): 0 or exit code 2. */
int cli_dtype_format_check(const cli_given *given, pe_dtype dtype, cli_format format, char **error);
/* --dtype among the NULL-terminated allowed names (default the first), listed
 * as `listed` in the message; 0 with *dtype, or exit code 2. */
int cli_dtype_option(const cli_given *given, const char *const *allowed, const char *listed, pe_dtype *dtype,
                     char **error);
/* values[k] replaced by the dtype's value nearest it, rounded once from
 * float64 (pe_narrow_f64; float32 by the cast); FLOAT64 leaves them. 0 or exit code 1. */
int cli_narrow_values(pe_dtype dtype, double *values, uint32_t count, char **error);
/* count values, each already rounded to dtype (cli_narrow_values), as a list: text, csv or json
 * (cli_write_values; 17 significant digits for float64, 9 for the others), or a 1-D array of the
 * dtype in npy (<f8, <f4, <f2), f32 or raw (its little-endian bytes). cli_dtype_format_check has
 * refused f32 beside a dtype other than float32 and npy beside bfloat16. 0 or exit code 1. */
int cli_write_value_list(FILE *out, cli_format format, pe_dtype dtype, const char *index_name, const char *value_name,
                         const double *values, uint32_t count, char **error);
/* --kernels auto, simd or scalar applied to the core; 0, 2 (bad value) or 1 (not in this build). */
int cli_kernels_option(const cli_given *given, char **error);
/* A required or optional count option: 0 or exit code 2 with the message "NAME must be WHAT; got V". */
int cli_count_option(const cli_given *given, const char *name, const char *fallback, uint32_t min, uint32_t max,
                     const char *what, uint32_t *value, char **error);

#endif
