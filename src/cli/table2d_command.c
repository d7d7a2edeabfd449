/* table2d_command.c: `posenc table2d`, MAE's 2-D sin-cos table for a grid of
 * patches (src/js/cli/table2d.js prints the same bytes). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "posenc.h"

const char TABLE2D_USAGE[] =
    "usage: posenc table2d --height H --width W --dim D [options]\n"
    "\n"
    "Prints the 2-D sin-cos table of a H x W grid of patches as MAE builds it (one row per patch,\n"
    "row-major; the first D/2 columns encode the column x, the last D/2 the row y).\n"
    "\n"
    "  --height H    grid rows, 1 to 65536 (required)\n"
    "  --width W     grid columns, 1 to 65536 (required)\n"
    "  --dim D       embedding size, a multiple of 4, 4 to 65536 (required)\n"
    "  --base T      frequency base, above 1 and at most 1e300 (default 10000)\n"
    "  --cls-token   a leading row of zeros for the class token (--no-cls-token: none, the default)\n"
    "  --dtype T     float32 (the table's type, the only one)\n" CLI_TABLE_FORMATS_HELP CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc table2d --height 14 --width 14 --dim 768 --cls-token --format npy --output pos.npy\n"
    "  posenc table2d --height 2 --width 3 --dim 8 --format csv\n";

const char *const TABLE2D_OPTIONS[] = {"--height", "--width",   "--dim",    "--base", "--dtype",
                                       "--format", "--kernels", "--output", NULL};
const char *const TABLE2D_FLAGS[] = {"--cls-token", NULL};

#define MAX_FLOATS (1u << 28) /* one call's table: 1 GiB of float32 */

int cli_run_table2d(const cli_given *given, FILE *out, char **error) {
    static const char *const FORMATS[] = {"text", "csv", "json", "npy", "f32", "raw", NULL};
    pe_grid2d grid = {0, 0, 0, 10000.0, 0};
    const char *range = "an integer from 1 to 65536";
    int code = cli_count_option(given, "--height", NULL, 1, 65536, range, &grid.height, error);
    if (!code) code = cli_count_option(given, "--width", NULL, 1, 65536, range, &grid.width, error);
    if (!code)
        code = cli_count_option(given, "--dim", NULL, 4, 65536, "a multiple of 4 from 4 to 65536", &grid.dim, error);
    if (!code && grid.dim % 4)
        code = cli_fail(error, 2, "--dim must be a multiple of 4 from 4 to 65536; got %s", cli_value(given, "--dim"));
    const char *base = cli_value(given, "--base");
    if (!code && base && (!cli_parse_decimal(base, &grid.base) || !(grid.base > 1.0 && grid.base <= PE_MAX_BASE)))
        code = cli_fail(error, 2, "--base must be above 1 and at most 1e300; got %s", base);
    grid.cls_token = cli_flag(given, "--cls-token");
    cli_format format;
    pe_dtype dtype;
    static const char *const DTYPES[] = {"float32", NULL};
    if (!code) code = cli_dtype_option(given, DTYPES, "float32 (the table's type)", &dtype, error);
    if (!code) code = cli_format_option(given, FORMATS, "text, csv, json, npy, f32 or raw", &format, error);
    if (!code) code = cli_kernels_option(given, error);
    if (code) return code;
    uint64_t rows = (uint64_t)grid.height * grid.width + (grid.cls_token ? 1 : 0);
    if (rows * grid.dim > MAX_FLOATS)
        return cli_fail(error, 2, "the table has %llu values, more than one call makes (2^28): ask for a smaller grid",
                        (unsigned long long)(rows * grid.dim));
    size_t scratch_bytes = 0;
    pe_status st = pe_table_2d_scratch_size(&grid, &scratch_bytes);
    float *values = malloc(rows * grid.dim * sizeof *values + 1);
    void *scratch = malloc(scratch_bytes + 1);
    if (st == PE_OK)
        st = values && scratch ? pe_table_2d(&grid, values, rows * grid.dim, scratch, scratch_bytes) : PE_ERR_NULL;
    if (st == PE_OK) {
        cli_write_prologue(out, format, (uint32_t)rows, grid.dim, "<f4");
        cli_write_rows(out, format, values, (uint32_t)rows, grid.dim, 0, 0);
        cli_write_epilogue(out, format, (uint32_t)rows);
    }
    free(values);
    free(scratch);
    return st == PE_OK ? 0 : cli_fail(error, 1, "%s", values && scratch ? pe_status_str(st) : "out of memory");
}
