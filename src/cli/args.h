/* args.h: argument parsing of `posenc table`, mirrored by src/js/cli-args.js
 * (same options, same checks in the same order, same messages). */
#ifndef POSENC_CLI_ARGS_H
#define POSENC_CLI_ARGS_H

#include <stdint.h>

#include "format.h"

typedef enum cli_kernels { KERNELS_AUTO, KERNELS_SIMD, KERNELS_SCALAR } cli_kernels;

typedef struct cli_args {
    int help; /* --help or -h: print usage and nothing else */
    uint32_t length;
    uint32_t dim;
    double base;
    uint32_t offset;
    int split;         /* layout: 0 interleaved, 1 split */
    int tensor2tensor; /* frequencies: 0 paper, 1 tensor2tensor */
    cli_format format;
    cli_kernels kernels;
} cli_args;

extern const char CLI_USAGE[];

/* 0 on success; otherwise sets *error to a malloc'd one-line message (no
 * "posenc: ", no newline; NULL when even that allocation failed) and returns nonzero. */
int cli_parse_args(int argc, char **argv, cli_args *args, char **error);

#endif
