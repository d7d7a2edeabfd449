/* table.c: `posenc table`, the sinusoidal table (src/js/cli/table.js prints the same bytes). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "posenc.h"

const char TABLE_USAGE[] =
    "usage: posenc table --length N --dim D [options]\n"
    "\n"
    "Prints the sinusoidal positional-encoding table of positions offset ... offset+N-1\n"
    "(one row per position, D columns).\n"
    "\n"
    "  --length N    number of positions, 0 to 2147483648 (required)\n"
    "  --dim D       embedding size, even, 2 to 65536 (required)\n"
    "  --base T      frequency base, above 1 and at most 1e300 (default 10000)\n"
    "  --offset P    first position (default 0); offset + length <= 2147483648\n"
    "  --layout L    interleaved [s0 c0 s1 c1 ...] or split [s0 s1 ... c0 c1 ...] (default interleaved)\n"
    "  --frequencies F  paper, w_i = T^(-2i/D), or tensor2tensor, w_i = T^(-i/(D/2-1)) (default paper)\n"
    "  --preset P    vaswani, tensor2tensor, fairseq or marian: sets --layout and --frequencies\n"
    "  --dtype T     float32 (default), float16 or bfloat16: each value the nearest of that "
    "type\n" CLI_TABLE_FORMATS_HELP CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc table --length 10 --dim 4\n"
    "  posenc table --length 2048 --dim 512 --format npy --output pe.npy\n"
    "  posenc table --length 8 --dim 16 --preset tensor2tensor --format csv\n"
    "  posenc table --length 4096 --dim 128 --dtype bfloat16 --format raw --output pe.bf16\n";

const char *const TABLE_OPTIONS[] = {"--length",  "--dim",         "--base",   "--offset", "--layout", "--format",
                                     "--kernels", "--frequencies", "--preset", "--dtype",  "--output", NULL};

/* The package's presets (src/js/sinusoid/presets.js): name, layout, frequencies. */
static const char *const PRESETS[][3] = {{"vaswani", "interleaved", "paper"},
                                         {"tensor2tensor", "split", "tensor2tensor"},
                                         {"fairseq", "split", "tensor2tensor"},
                                         {"marian", "split", "paper"}};

typedef struct table_args {
    uint32_t length, dim, offset;
    double base;
    int split, tensor2tensor;
    cli_format format;
    pe_dtype dtype;
} table_args;

static int parse(const cli_given *g, table_args *a, char **error) {
    const char *dim = cli_value(g, "--dim"), *length = cli_value(g, "--length");
    if (!dim) return cli_fail(error, 2, "--dim is required (the embedding size, an even number from 2 to 65536)");
    if (!length) return cli_fail(error, 2, "--length is required (the number of positions)");
    if (!cli_parse_count(dim, &a->dim) || a->dim < 2 || a->dim > 65536)
        return cli_fail(error, 2, "--dim must be an even integer from 2 to 65536; got %s", dim);
    if (a->dim % 2)
        return cli_fail(error, 2, "--dim must be an even number (sines and cosines come in pairs); got %s", dim);
    if (!cli_parse_count(length, &a->length))
        return cli_fail(error, 2, "--length must be an integer from 0 to 2147483648; got %s", length);
    const char *offset = cli_value(g, "--offset") ? cli_value(g, "--offset") : "0";
    if (!cli_parse_count(offset, &a->offset))
        return cli_fail(error, 2, "--offset must be an integer from 0 to 2147483648; got %s", offset);
    if ((uint64_t)a->offset + a->length > 2147483648u)
        return cli_fail(error, 2, "--offset + --length must be at most 2147483648; got %u + %u", (unsigned)a->offset,
                        (unsigned)a->length);
    const char *base = cli_value(g, "--base");
    a->base = 10000.0;
    if (base && (!cli_parse_decimal(base, &a->base) || !(a->base > 1.0 && a->base <= PE_MAX_BASE)))
        return cli_fail(error, 2, "--base must be above 1 and at most 1e300; got %s", base);
    const char *layout = cli_value(g, "--layout"), *frequencies = cli_value(g, "--frequencies");
    const char *preset = cli_value(g, "--preset");
    if (preset) {
        int k = 0;
        while (k < 4 && strcmp(preset, PRESETS[k][0])) k++;
        if (k == 4)
            return cli_fail(error, 2, "--preset must be vaswani, tensor2tensor, fairseq or marian; got %s", preset);
        if (layout && strcmp(layout, PRESETS[k][1]))
            return cli_fail(error, 2, "--layout must be %s with --preset %s; got %s", PRESETS[k][1], preset, layout);
        if (frequencies && strcmp(frequencies, PRESETS[k][2]))
            return cli_fail(error, 2, "--frequencies must be %s with --preset %s; got %s", PRESETS[k][2], preset,
                            frequencies);
        layout = PRESETS[k][1];
        frequencies = PRESETS[k][2];
    }
    if (!layout) layout = "interleaved";
    if (strcmp(layout, "interleaved") && strcmp(layout, "split"))
        return cli_fail(error, 2, "--layout must be interleaved or split; got %s", layout);
    a->split = !strcmp(layout, "split");
    if (!frequencies) frequencies = "paper";
    if (strcmp(frequencies, "paper") && strcmp(frequencies, "tensor2tensor"))
        return cli_fail(error, 2, "--frequencies must be paper or tensor2tensor; got %s", frequencies);
    a->tensor2tensor = !strcmp(frequencies, "tensor2tensor");
    static const char *const FORMATS[] = {"text", "csv", "json", "npy", "f32", "raw", NULL};
    int code = cli_format_option(g, FORMATS, "text, csv, json, npy, f32 or raw", &a->format, error);
    static const char *const DTYPES[] = {"float32", "float16", "bfloat16", NULL};
    if (!code) code = cli_dtype_option(g, DTYPES, "float32, float16 or bfloat16", &a->dtype, error);
    if (!code) code = cli_dtype_format_check(g, a->dtype, a->format, error);
    return code;
}

/* Rows are generated, formatted and written about CHUNK_FLOATS floats at a
 * time, and at least one BLOCK: the core reseeds every 64 absolute positions,
 * so chunks end on multiples of 64 (same rule as src/js/runtime/chunks.js). */
#define CHUNK_FLOATS 65536u
#define BLOCK        64u

/* End of the chunk starting at start (same rule as src/js/runtime/chunks.js). */
static uint64_t chunk_end(uint64_t start, uint64_t end, uint64_t max_rows) {
    uint64_t next = max_rows >= BLOCK ? (start + max_rows) / BLOCK * BLOCK
                                      : (start + max_rows < (start / BLOCK + 1) * BLOCK ? start + max_rows
                                                                                        : (start / BLOCK + 1) * BLOCK);
    return next > end ? end : next;
}

int cli_run_table(const cli_given *given, FILE *out, char **error) {
    table_args a;
    int code = parse(given, &a, error);
    if (code == 0) code = cli_kernels_option(given, error);
    if (code != 0) return code;
    pe_sinusoid enc = {a.dim, a.base, a.split ? PE_LAYOUT_SPLIT : PE_LAYOUT_INTERLEAVED,
                       a.tensor2tensor ? PE_FREQ_TENSOR2TENSOR : PE_FREQ_PAPER};
    size_t scratch_bytes = 0;
    pe_status st = pe_scratch_size(a.dim, &scratch_bytes);
    if (st != PE_OK) return cli_fail(error, 1, "%s", pe_status_str(st));
    void *scratch = malloc(scratch_bytes ? scratch_bytes : 1);
    if (!scratch) return cli_fail(error, 1, "out of memory");
    uint32_t max_rows = CHUNK_FLOATS / a.dim > BLOCK ? CHUNK_FLOATS / a.dim : BLOCK;
    float *values = malloc((size_t)max_rows * a.dim * sizeof *values);
    uint16_t *bits = malloc((size_t)max_rows * a.dim * sizeof *bits);
    if (!values || !bits) {
        free(scratch);
        free(values);
        free(bits);
        return cli_fail(error, 1, "out of memory");
    }
    cli_write_prologue(out, a.format, a.length, a.dim, a.dtype == PE_DTYPE_FLOAT16 ? "<f2" : "<f4");
    uint64_t end = (uint64_t)a.offset + a.length;
    /* A failed write (a closed pipe, a full disk) ends the loop; main reports it. */
    for (uint64_t start = a.offset; start < end && st == PE_OK && !ferror(out);) {
        uint64_t next = chunk_end(start, end, max_rows);
        uint32_t rows = (uint32_t)(next - start);
        size_t count = (size_t)rows * a.dim;
        if (a.dtype == PE_DTYPE_FLOAT32) {
            st = pe_table(&enc, (uint32_t)start, rows, values, count, scratch, scratch_bytes);
        } else {
            st = pe_table_dtype(&enc, a.dtype, (uint32_t)start, rows, bits, count, scratch, scratch_bytes);
            for (size_t i = 0; st == PE_OK && i < count; i++) values[i] = cli_widen16(bits[i], a.dtype);
        }
        if (st == PE_OK && a.dtype != PE_DTYPE_FLOAT32 && (a.format == FORMAT_NPY || a.format == FORMAT_RAW))
            cli_write_u16(out, bits, count);
        else if (st == PE_OK)
            cli_write_rows(out, a.format, values, rows, a.dim, (uint32_t)(start - a.offset), (uint32_t)start);
        start = next;
    }
    free(scratch);
    free(values);
    free(bits);
    if (st != PE_OK) return cli_fail(error, 1, "%s", pe_status_str(st));
    cli_write_epilogue(out, a.format, a.length);
    return 0;
}
