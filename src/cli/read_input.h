/* read_input.h: the native CLI's one reader of input files (src/js/cli/read-input.js is
 * its Node twin, with the same caps and messages): `--config FILE`, `--position-ids
 * @FILE` and `identify FILE`. "-" is standard input. A regular file is read by its
 * size, refused before reading when it is above the cap; any other input (a pipe, a
 * FIFO, a device such as /dev/zero) is read until its end or until it passes the
 * cap, never further. */
#ifndef POSENC_CLI_READ_INPUT_H
#define POSENC_CLI_READ_INPUT_H

#include <stddef.h>

/* The caps (README "Limits"). */
#define CLI_MAX_CONFIG_BYTES ((size_t)64 << 20)  /* PE_CONFIG_MAX_BYTES */
#define CLI_MAX_IDS_BYTES    ((size_t)64 << 20)  /* --position-ids @FILE */
#define CLI_MAX_TABLE_BYTES  ((size_t)256 << 20) /* identify FILE */

/* The whole input at path into *data (malloc'd, NUL-terminated after *size
 * bytes). 0; else an exit code (2: it cannot be opened or read, 1: above the
 * cap) with *error: "WHAT: cannot read PATH: REASON" or "WHAT: PATH is larger
 * than CAP, posenc's limit for NOUN". */
int cli_read_input(const char *what, const char *noun, const char *path, size_t cap, char **data, size_t *size,
                   char **error);

#endif
