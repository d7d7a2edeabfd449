/* format.h: output formats of `posenc table`, mirrored line for line by
 * src/js/format.js so the native and Node CLIs print the same bytes. */
#ifndef POSENC_CLI_FORMAT_H
#define POSENC_CLI_FORMAT_H

#include <stdint.h>
#include <stdio.h>

typedef enum cli_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_NPY, FORMAT_F32 } cli_format;

/* Longest text cli_format_fixed writes for a float32 in [-1, 1] is far below this. */
#define CLI_FIXED_MAX 48

/* value with `digits` decimals (0 ... 9): s = value * 10^digits in double,
 * rounded half to even to n; '-' when the sign bit is set (-0 gives -0.0000);
 * then |n| / 10^digits, '.', |n| mod 10^digits zero-padded. Returns the length. */
size_t cli_format_fixed(char *out, float value, int digits);

/* Before the rows: csv header, json's "[\n", or the npy header. */
void cli_write_prologue(FILE *out, cli_format format, uint32_t length, uint32_t dim);

/* rows x dim values (row-major); first_row is the row's index in the whole
 * table, position the absolute position of values' first row. */
void cli_write_rows(FILE *out, cli_format format, const float *values, uint32_t rows, uint32_t dim, uint32_t first_row,
                    uint32_t position);

/* After the rows: json's closing bracket ("]\n" alone for an empty table). */
void cli_write_epilogue(FILE *out, cli_format format, uint32_t length);

#endif
