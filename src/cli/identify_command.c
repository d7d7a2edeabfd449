/* identify_command.c: `posenc identify FILE [options]`, the native side of
 * src/js/cli/identify.js: the same options, checks, messages and output. The
 * report itself is the core's (pe_diagnosis_text), so both CLIs print the
 * same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "posenc.h"
#include "read_input.h"
#include "read_table.h"

const char IDENTIFY_USAGE[] =
    "usage: posenc identify FILE [options]\n"
    "\n"
    "Names the positional-encoding convention of the table in FILE and its error\n"
    "against the exact table. FILE is .npy, .safetensors, CSV or whitespace-separated\n"
    "text (one row per line), JSON (an array of rows; told from CSV by its content),\n"
    "or raw little-endian float32 (give --rows and/or --dim).\n"
    "\n"
    "  --name T      the tensor of a .safetensors file (needed when it holds several)\n"
    "  --rows N      rows of a raw float32 file (checked against other files)\n"
    "  --dim D       columns of a raw float32 file (checked against other files)\n"
    "  --kind K      auto (default), table (sine-cosine pairs), cos-sin (a RoPE cos or sin cache)\n"
    "                or inv-freq (a model's inv_freq vector: one column or one row, read as\n"
    "                float32; auto reads a one-column or one-row FILE so)\n"
    "  --json        print the facts as one JSON object instead of the report\n" CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc identify pe.npy\n"
    "  posenc identify model.safetensors --name embed_positions.weight --json\n"
    "  posenc identify inv_freq.npy\n";

const char *const IDENTIFY_OPTIONS[] = {"--name", "--rows", "--dim", "--kind", "--output", NULL};
const char *const IDENTIFY_FLAGS[] = {"--json", NULL};

/* --rows or --dim: decimal digits, 1 ... 2^32 - 1 (0 when absent); 0 or exit code 2. */
static int shape_option(const cli_given *g, const char *name, uint32_t *value, char **error) {
    const char *text = cli_value(g, name);
    *value = 0;
    if (!text) return 0;
    size_t n = strlen(text);
    unsigned long long v = n >= 1 && n <= 10 && strspn(text, "0123456789") == n ? strtoull(text, NULL, 10) : 0;
    if (v < 1 || v > 4294967295ull)
        return cli_fail(error, 2, "%s must be an integer from 1 to 4294967295; got %s", name, text);
    *value = (uint32_t)v;
    return 0;
}

/* The table's values as an inv_freq vector (pe_diagnose_inv_freq); frees table. Refusals in diagnose.js's words. */
static int run_inv_freq(cli_table *table, const cli_given *given, FILE *out, char **error) {
    const size_t count = (size_t)table->rows * table->dim;
    double *values = count && count <= PE_INV_FREQ_MAX_COUNT ? malloc(count * sizeof *values) : NULL;
    if (!values) {
        free(table->values);
        if (count && count <= PE_INV_FREQ_MAX_COUNT) return cli_fail(error, 1, "out of memory");
        return cli_fail(error, 1, "table must be an inv_freq vector of 1 to %u values; got %zu",
                        (unsigned)PE_INV_FREQ_MAX_COUNT, count);
    }
    for (size_t k = 0; k < count; k++) values[k] = table->values[k];
    free(table->values);
    static pe_inv_freq_diagnosis result;
    uint32_t bad = 0;
    pe_status st = pe_diagnose_inv_freq(values, (uint32_t)count, &result, &bad);
    double x = st == PE_ERR_NOT_FINITE || st == PE_ERR_FREQUENCY_VALUE ? values[bad] : 0.0;
    free(values);
    if (st == PE_ERR_NOT_FINITE || st == PE_ERR_FREQUENCY_VALUE) {
        const char *what = x != x         ? "NaN"
                           : x - x != 0.0 ? (x > 0 ? "Infinity" : "-Infinity")
                           : x == 0.0     ? "0"
                           : x < 0.0      ? "negative"
                                          : "above 4";
        return cli_fail(error, 1, "table[%u] is %s; an inv_freq vector holds finite frequencies above 0 and at most 4",
                        (unsigned)bad, what);
    }
    if (st != PE_OK) return cli_fail(error, 1, "%s", pe_status_str(st));
    static char report[16384];
    size_t written;
    if (cli_flag(given, "--json")) {
        pe_inv_freq_diagnosis_json(&result, report, sizeof report, &written);
        fputs(report, out);
        fputs("\n", out);
    } else {
        pe_inv_freq_diagnosis_text(&result, report, sizeof report, &written);
        fputs(report, out);
    }
    return 0;
}

int cli_run_identify(const cli_given *given, FILE *out, char **error) {
    const char *file = cli_value(given, "FILE"), *name = cli_value(given, "--name");
    const char *kind_text = cli_value(given, "--kind") ? cli_value(given, "--kind") : "auto";
    uint32_t rows, dim;
    int code = shape_option(given, "--rows", &rows, error);
    if (!code) code = shape_option(given, "--dim", &dim, error);
    if (code) return code;
    if (!file)
        return cli_fail(error, 2,
                        "identify needs a FILE (.npy, .safetensors, CSV or raw float32; see posenc identify --help)");
    static const char *const KINDS[] = {"auto", "table", "cos-sin", "inv-freq", NULL};
    static const pe_diag_kind KIND_CODES[] = {PE_DIAG_AUTO, PE_DIAG_TABLE, PE_DIAG_COS_SIN, PE_DIAG_AUTO};
    int k = cli_pick(kind_text, KINDS);
    if (k < 0) return cli_fail(error, 2, "--kind must be auto, table, cos-sin or inv-freq; got %s", kind_text);

    size_t size = 0;
    char *text;
    if ((code = cli_read_input("identify", "a table", file, CLI_MAX_TABLE_BYTES, &text, &size, error))) return code;
    unsigned char *bytes = (unsigned char *)text;
    cli_table table = {NULL, 0, 0};
    char message[512];
    int failed = cli_read_table(bytes, size, name, rows, dim, &table, message, sizeof message);
    free(bytes);
    if (failed) return cli_fail(error, 1, "%s", message);
    /* one column or one row: a frequency vector (identify.js's rule) */
    if (k == 3 || (k == 0 && (table.dim == 1 || table.rows == 1))) return run_inv_freq(&table, given, out, error);
    if (table.rows == 0 || table.dim == 0 || (table.rows < 2 && table.dim < 2)) { /* diagnose.js's words */
        if (table.rows == 0 || table.dim == 0)
            code =
                cli_fail(error, 1, "%s must be a whole number from 1 to 2^32 - 1; got 0", table.rows ? "dim" : "rows");
        else
            code = cli_fail(error, 1, "table must have two rows or two columns at least; got %u×%u",
                            (unsigned)table.rows, (unsigned)table.dim);
        free(table.values);
        return code;
    }
    size_t scratch_bytes = 0;
    pe_status st = pe_diagnose_scratch_size(table.rows, table.dim, &scratch_bytes);
    void *scratch = st == PE_OK ? malloc(scratch_bytes) : NULL;
    pe_diagnosis result;
    size_t bad = 0;
    if (st == PE_OK && !scratch)
        st = PE_ERR_NULL;
    else if (st == PE_OK)
        st = pe_diagnose(table.values, table.rows, table.dim, KIND_CODES[k], &result, &bad, scratch, scratch_bytes);
    free(scratch);
    float x = st == PE_ERR_NOT_FINITE ? table.values[bad] : 0.0f;
    free(table.values);
    if (st == PE_ERR_NOT_FINITE)
        return cli_fail(error, 1, "table[%zu, %zu] (row %zu, column %zu) is %s; identify needs finite numbers",
                        bad / table.dim, bad % table.dim, bad / table.dim, bad % table.dim,
                        x != x  ? "NaN"
                        : x > 0 ? "Infinity"
                                : "-Infinity");
    if (st != PE_OK) return cli_fail(error, 1, "%s", scratch_bytes && !scratch ? "out of memory" : pe_status_str(st));
    static char report[16384];
    size_t written;
    if (cli_flag(given, "--json")) {
        pe_diagnosis_json(&result, report, sizeof report, &written);
        fputs(report, out);
        fputs("\n", out);
    } else {
        pe_diagnosis_text(&result, report, sizeof report, &written);
        fputs(report, out);
    }
    return 0;
}
