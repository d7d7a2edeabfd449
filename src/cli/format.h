/* format.h: output formats of `posenc table`, mirrored line for line by
 * src/js/shared/format.js so the native and Node CLIs print the same bytes. */
#ifndef POSENC_CLI_FORMAT_H
#define POSENC_CLI_FORMAT_H

#include <stdint.h>
#include <stdio.h>

/* FORMAT_RAW: the values' own little-endian bytes (float32, float16 or bfloat16). */
typedef enum cli_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_NPY, FORMAT_F32, FORMAT_RAW } cli_format;

/* Longest text cli_format_fixed writes for a float32 in [-1, 1] is far below this. */
#define CLI_FIXED_MAX 48

/* value with `digits` decimals (0 ... 9): s = value * 10^digits in double,
 * rounded half to even to n; '-' when the sign bit is set (-0 gives -0.0000);
 * then |n| / 10^digits, '.', |n| mod 10^digits zero-padded. Returns the length. */
size_t cli_format_fixed(char *out, float value, int digits);

/* Before the rows: csv header, json's "[\n", or the npy header with NumPy's
 * descr ("<f4" float32, "<f2" float16). */
void cli_write_prologue(FILE *out, cli_format format, uint32_t length, uint32_t dim, const char *descr);

/* NPY 1.0 header of a little-endian C-order array of shape[0 .. ndim) (ndim 1 or 2; a 1-D shape
 * prints as NumPy's "(n,)"), padded to a multiple of 64 bytes; descr is NumPy's ("<f4", "<i4", ...). */
void cli_write_npy_header(FILE *out, const char *descr, const uint32_t *shape, int ndim);

/* count values of `width` bytes each (2, 4 or 8; host order) as little-endian bytes, whatever the host's order. */
void cli_write_le(FILE *out, const void *values, size_t width, size_t count);

/* A float16 or bfloat16 bit pattern (dtype 1 or 2 of pe_dtype) as the float it stands for (exact). */
float cli_widen16(uint16_t bits, int dtype);

/* 16-bit values (float16 or bfloat16 bits) as little-endian bytes. */
void cli_write_u16(FILE *out, const uint16_t *values, size_t count);

/* rows x dim values (row-major); first_row is the row's index in the whole
 * table, position the absolute position of values' first row. */
void cli_write_rows(FILE *out, cli_format format, const float *values, uint32_t rows, uint32_t dim, uint32_t first_row,
                    uint32_t position);

/* After the rows: json's closing bracket ("]\n" alone for an empty table). */
void cli_write_epilogue(FILE *out, cli_format format, uint32_t length);

/* value in exponent form with `digits` decimals, as C's "%.*e" prints it
 * (correctly rounded; exponent sign and at least two digits): 1.5e-05 -> "1.50e-05" for 2. */
size_t cli_format_exp(char *out, double value, int digits);

/* A list of doubles (one per index) in text (one value per line), csv
 * ("index_name,value_name" header, then "i,v") or json ([v, ...]), each value
 * in exponent form with `digits` decimals. */
void cli_write_values(FILE *out, cli_format format, const char *index_name, const char *value_name,
                      const double *values, uint32_t count, int digits);

#endif
