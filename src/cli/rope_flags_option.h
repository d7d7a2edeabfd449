/* rope_flags_option.h: the RoPE description given by flags instead of
 * --config (`posenc rope --head-dim 128 --base 500000 --scaling llama3 ...`),
 * with the checks and messages of src/js/cli/rope-flags.js. */
#ifndef POSENC_CLI_ROPE_FLAGS_OPTION_H
#define POSENC_CLI_ROPE_FLAGS_OPTION_H

#include "args.h"
#include "posenc.h"

/* The description flags, NULL-terminated, in the order they are checked. */
extern const char *const CLI_ROPE_DESCRIPTION_OPTIONS[];

/* The first description flag given (--head-dim, --base, ..., --truncate), or NULL. */
const char *cli_rope_description_given(const cli_given *given);

/* *config (zeroed, kind ROPE) with the head and rotary dims, base and scaling
 * the flags give; 0 or exit code 2 with *error set. */
int cli_rope_flags(const cli_given *given, pe_config *config, char **error);

#endif
