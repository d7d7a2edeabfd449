/* identify.c: `posenc identify FILE [options]`, the native side of
 * src/js/cli-identify.js: the same options, checks, messages and output. The
 * report itself is the core's (pe_diagnosis_text), so both CLIs print the
 * same bytes. */
#include "identify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"
#include "read_table.h"

const char CLI_IDENTIFY_USAGE[] =
    "usage: posenc identify FILE [options]\n"
    "\n"
    "Names the positional-encoding convention of the table in FILE and its error\n"
    "against the exact table. FILE is .npy, .safetensors, CSV or whitespace-separated\n"
    "text (one row per line), or raw little-endian float32 (give --rows and/or --dim).\n"
    "\n"
    "  --name T      the tensor of a .safetensors file (needed when it holds several)\n"
    "  --rows N      rows of a raw float32 file (checked against other files)\n"
    "  --dim D       columns of a raw float32 file (checked against other files)\n"
    "  --kind K      auto (default), table (sine-cosine pairs) or cos-sin (a RoPE cos or sin cache)\n"
    "  --json        print the facts as one JSON object instead of the report\n"
    "  -h, --help    print this help\n";

static int usage_error(const char *message, const char *value) {
    fprintf(stderr, "posenc: ");
    fprintf(stderr, message, value);
    fprintf(stderr, "\n");
    return 2;
}

/* Decimal digits, 1 ... 2^32 - 1; 0 when not. */
static uint32_t parse_count(const char *text) {
    size_t n = strlen(text);
    if (n == 0 || n > 10 || strspn(text, "0123456789") != n) return 0;
    unsigned long long v = strtoull(text, NULL, 10);
    return v <= 4294967295ull ? (uint32_t)v : 0;
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *bytes = malloc(cap);
    while (bytes) {
        n += fread(bytes + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char *grown = realloc(bytes, cap *= 2);
        if (!grown) free(bytes);
        bytes = grown;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(bytes);
        return NULL;
    }
    *size = n;
    return bytes;
}

int cli_identify(int argc, char **argv) {
    const char *file = NULL, *name = NULL, *kind_text = "auto";
    uint32_t rows = 0, dim = 0;
    int json = 0;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(CLI_IDENTIFY_USAGE, stdout);
            return 0;
        }
    }
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--json")) {
            json = 1;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0) {
            if (file) return usage_error("identify reads one FILE; '%s' is a second one", arg);
            file = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        char option[32];
        snprintf(option, sizeof option, "%.*s", (int)(len < 31 ? len : 31), arg);
        if (strcmp(option, "--name") && strcmp(option, "--rows") && strcmp(option, "--dim") && strcmp(option, "--kind"))
            return usage_error("unknown option '%s' for identify (see posenc identify --help)", option);
        if (!value) return usage_error("%s needs a value", option);
        if (!strcmp(option, "--name"))
            name = value;
        else if (!strcmp(option, "--kind"))
            kind_text = value;
        else {
            uint32_t n = parse_count(value);
            if (!n) {
                fprintf(stderr, "posenc: %s must be an integer from 1 to 4294967295; got %s\n", option, value);
                return 2;
            }
            if (!strcmp(option, "--rows"))
                rows = n;
            else
                dim = n;
        }
    }
    if (!file)
        return usage_error(
            "%sidentify needs a FILE (.npy, .safetensors, CSV or raw float32; see posenc identify --help)", "");
    pe_diag_kind kind = !strcmp(kind_text, "auto")      ? PE_DIAG_AUTO
                        : !strcmp(kind_text, "table")   ? PE_DIAG_TABLE
                        : !strcmp(kind_text, "cos-sin") ? PE_DIAG_COS_SIN
                                                        : (pe_diag_kind)-1;
    if ((int)kind < 0) return usage_error("--kind must be auto, table or cos-sin; got %s", kind_text);

    size_t size = 0;
    unsigned char *bytes = read_file(file, &size);
    if (!bytes) {
        fprintf(stderr, "posenc: cannot read '%s'\n", file);
        return 1;
    }
    cli_table table = {NULL, 0, 0};
    char error[512];
    int failed = cli_read_table(bytes, size, name, rows, dim, &table, error, sizeof error);
    free(bytes);
    if (failed) {
        fprintf(stderr, "posenc: %s\n", error);
        return 1;
    }
    size_t scratch_bytes = 0;
    pe_status st = pe_diagnose_scratch_size(table.rows, table.dim, &scratch_bytes);
    void *scratch = st == PE_OK ? malloc(scratch_bytes) : NULL;
    pe_diagnosis result;
    size_t bad = 0;
    if (st == PE_OK && !scratch) {
        free(table.values);
        fprintf(stderr, "posenc: out of memory\n");
        return 1;
    }
    if (st == PE_OK) st = pe_diagnose(table.values, table.rows, table.dim, kind, &result, &bad, scratch, scratch_bytes);
    free(scratch);
    if (st == PE_ERR_NOT_FINITE) {
        float x = table.values[bad];
        fprintf(stderr, "posenc: table[%zu, %zu] (row %zu, column %zu) is %s; identify needs finite numbers\n",
                bad / table.dim, bad % table.dim, bad / table.dim, bad % table.dim,
                x != x  ? "NaN"
                : x > 0 ? "Infinity"
                        : "-Infinity");
    } else if (st != PE_OK) {
        fprintf(stderr, "posenc: %s\n", pe_status_str(st));
    }
    free(table.values);
    if (st != PE_OK) return 1;
    static char report[16384];
    size_t written;
    if (json)
        pe_diagnosis_json(&result, report, sizeof report, &written);
    else
        pe_diagnosis_text(&result, report, sizeof report, &written);
    fputs(report, stdout);
    if (json) fputs("\n", stdout);
    return fflush(stdout) == 0 ? 0 : 1;
}
