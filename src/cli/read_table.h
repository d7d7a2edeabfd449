/* read_table.h: a table of floats from a file's bytes, for `posenc identify`,
 * with the same rules as the package's readers (src/js/learned/) and the
 * Node CLI's CSV reader (src/js/cli/identify.js): .npy (f2/f4/f8, either byte
 * order, C order, leading axes of size 1 dropped), .safetensors (F16, BF16,
 * F32, F64; --name picks the tensor, needed when there are several), CSV or
 * whitespace-separated text (a header line of names skipped), and raw
 * little-endian float32 with --rows and/or --dim. Values are rounded to
 * float32 once. */
#ifndef POSENC_CLI_READ_TABLE_H
#define POSENC_CLI_READ_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_table {
    float *values; /* malloc'd rows * dim floats, row-major */
    uint32_t rows, dim;
} cli_table;

/* 0 on success; else writes a one-line message into error (error_bytes). rows, dim: 0 when not given. */
int cli_read_table(const unsigned char *bytes, size_t size, const char *name, uint32_t rows, uint32_t dim,
                   cli_table *out, char *error, size_t error_bytes);

#endif
