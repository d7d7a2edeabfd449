/* read_formats.h: the parts of read_table.c that its .npy and .safetensors
 * readers (read_npy.c, read_safetensors.c) share. Messages are the package's
 * (src/js/learned/) word for word, so both CLIs refuse a file alike. */
#ifndef POSENC_CLI_READ_FORMATS_H
#define POSENC_CLI_READ_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "read_table.h"

#define CLI_MAX_AXES 64 /* NumPy 2's NPY_MAXDIMS, as src/js/learned/shape.js */

/* Writes the formatted message into error (error_bytes); returns 1. */
int cli_read_fail(char *error, size_t error_bytes, const char *format, ...);

/* 1 when the n bytes are strict UTF-8, as TextDecoder's fatal mode reads them. */
int cli_utf8_valid(const unsigned char *bytes, size_t n);

/* Code point u of a string from a file as JSON.stringify writes it inside
 * quotes: \" and \\, \b \f \n \r \t, \u00xx for the other controls (NUL
 * included), \udxxx for a lone surrogate, else UTF-8. Writes at most 6 bytes
 * (no terminator) and returns how many; messages quote file strings so
 * (decode.js printable), which keeps them one printable line. */
size_t cli_json_char(uint32_t u, char *out);

/* "(2, 3)", "(5,)" or "()" (shape.js shapeText). */
void cli_shape_text(const uint64_t *shape, int axes, char *out, size_t out_bytes);

/* An integer-valued double >= 0 as JavaScript's String(v) prints it (digits, or d.ddde+NN from 1e21). */
void cli_js_integer(double v, char *out, size_t out_bytes);

/* rows x dim of a tensor named `what` after dropping leading axes of size 1,
 * checked against want_rows / want_dim (0: not given); 0, or 1 with the
 * message of shape.js tableShape. */
int cli_tensor_shape(const char *what, const uint64_t *shape, int axes, uint32_t want_rows, uint32_t want_dim,
                     uint64_t *rows, uint64_t *dim, char *error, size_t error_bytes);

/* The elements of shape, or -1 when they need more than `available` bytes
 * at `size` bytes each (shape.js elementCount: checked as it multiplies). */
int64_t cli_element_count(const uint64_t *shape, int axes, int size, size_t available);

/* out->values: count elements of kind ('2' f16, 'b' bf16, '4' f32, '8' f64) at data, rounded to float32; 0 or 1. */
int cli_decode_table(const unsigned char *data, uint64_t rows, uint64_t dim, char kind, int little, cli_table *out,
                     char *error, size_t error_bytes);

int cli_read_npy(const unsigned char *bytes, size_t size, uint32_t rows, uint32_t dim, cli_table *out, char *error,
                 size_t error_bytes);
int cli_read_safetensors(const unsigned char *bytes, size_t size, const char *name, uint32_t rows, uint32_t dim,
                         cli_table *out, char *error, size_t error_bytes);

#endif
