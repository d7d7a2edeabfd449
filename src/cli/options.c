/* options.c: option checks several subcommands share (commands.h), with the
 * messages src/js/cli/options.js prints. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "posenc.h"

static const char *const FORMAT_NAMES[] = {"text", "csv", "json", "npy", "f32", "raw", NULL};
static const char *const DTYPE_NAMES[] = {"float32", "float16", "bfloat16", "float64", NULL}; /* by pe_dtype */

int cli_format_option(const cli_given *given, const char *const *allowed, const char *listed, cli_format *format,
                      char **error) {
    const char *text = cli_value(given, "--format");
    if (!text) text = "text";
    if (cli_pick(text, allowed) < 0) return cli_fail(error, 2, "--format must be %s; got %s", listed, text);
    *format = (cli_format)cli_pick(text, FORMAT_NAMES);
    return 0;
}

int cli_dtype_format_check(const cli_given *given, pe_dtype dtype, cli_format format, char **error) {
    if (dtype != PE_DTYPE_FLOAT32 && format == FORMAT_F32)
        return cli_fail(error, 2, "--format f32 writes float32: use --format raw for --dtype %s", DTYPE_NAMES[dtype]);
    if (dtype == PE_DTYPE_BFLOAT16 && format == FORMAT_NPY)
        return cli_fail(error, 2, "--format npy has no bfloat16 (NumPy lacks the type): use --format raw");
    return 0;
}

int cli_kernels_option(const cli_given *given, char **error) {
    static const char *const KERNELS[] = {"auto", "simd", "scalar", NULL};
    const char *text = cli_value(given, "--kernels");
    int k = cli_pick(text ? text : "auto", KERNELS);
    if (k < 0) return cli_fail(error, 2, "--kernels must be auto, simd or scalar; got %s", text);
    if (k == 0) return 0;
    pe_status st = pe_use_kernels(k == 1 ? PE_KERNELS_SIMD : PE_KERNELS_SCALAR);
    return st == PE_OK ? 0 : cli_fail(error, 1, "%s", pe_status_str(st));
}

int cli_count_option(const cli_given *given, const char *name, const char *fallback, uint32_t min, uint32_t max,
                     const char *what, uint32_t *value, char **error) {
    const char *text = cli_value(given, name);
    if (!text && !fallback) return cli_fail(error, 2, "%s is required (%s)", name, what);
    if (!text) text = fallback;
    if (!cli_parse_count(text, value) || *value < min || *value > max)
        return cli_fail(error, 2, "%s must be %s; got %s", name, what, text);
    return 0;
}

int cli_dtype_option(const cli_given *given, const char *const *allowed, const char *listed, pe_dtype *dtype,
                     char **error) {
    const char *text = cli_value(given, "--dtype");
    if (!text) text = allowed[0];
    if (cli_pick(text, allowed) < 0) return cli_fail(error, 2, "--dtype must be %s; got %s", listed, text);
    *dtype = (pe_dtype)cli_pick(text, DTYPE_NAMES);
    return 0;
}

int cli_narrow_values(pe_dtype dtype, double *values, uint32_t count, char **error) {
    if (dtype == PE_DTYPE_FLOAT64) return 0;
    if (dtype == PE_DTYPE_FLOAT32) {
        for (uint32_t k = 0; k < count; k++) values[k] = (float)values[k];
        return 0;
    }
    uint16_t *bits = malloc((size_t)count * sizeof *bits + 2);
    pe_status st = bits ? pe_narrow_f64(dtype, values, count, bits, count) : PE_ERR_NULL;
    for (uint32_t k = 0; st == PE_OK && k < count; k++) values[k] = cli_widen16(bits[k], dtype);
    free(bits);
    return st == PE_OK ? 0 : cli_fail(error, 1, "%s", bits ? pe_status_str(st) : "out of memory");
}

int cli_write_value_list(FILE *out, cli_format format, pe_dtype dtype, const char *index_name, const char *value_name,
                         const double *values, uint32_t count, char **error) {
    if (format == FORMAT_TEXT || format == FORMAT_CSV || format == FORMAT_JSON) {
        cli_write_values(out, format, index_name, value_name, values, count, dtype == PE_DTYPE_FLOAT64 ? 16 : 8);
        return 0;
    }
    static const char *const DESCR[] = {"<f4", "<f2", "", "<f8"}; /* by pe_dtype; bfloat16 refused before */
    if (format == FORMAT_NPY) cli_write_npy_header(out, DESCR[dtype], &count, 1);
    if (dtype == PE_DTYPE_FLOAT64) {
        cli_write_le(out, values, 8, count);
        return 0;
    }
    /* float32 and the 16-bit types: each value already rounded to the type, so it converts exactly. */
    const size_t width = dtype == PE_DTYPE_FLOAT32 ? 4 : 2;
    void *bytes = malloc((size_t)count * width + 8);
    pe_status st = bytes ? PE_OK : PE_ERR_NULL;
    if (st == PE_OK && width == 4)
        for (uint32_t k = 0; k < count; k++) ((float *)bytes)[k] = (float)values[k];
    if (st == PE_OK && width == 2) st = pe_narrow_f64(dtype, values, count, bytes, count);
    if (st == PE_OK) cli_write_le(out, bytes, width, count);
    free(bytes);
    return st == PE_OK ? 0 : cli_fail(error, 1, "%s", bytes ? pe_status_str(st) : "out of memory");
}
