/* posenc: the native CLI. `posenc table --length N --dim D [options]` prints
 * a positional-encoding table; src/js/cli.js prints the same bytes. */
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "format.h"
#include "posenc.h"

/* Rows are generated, formatted and written about CHUNK_FLOATS floats at a
 * time, and at least one BLOCK: the core reseeds every 64 absolute positions,
 * so chunks end on multiples of 64 (same rule as src/js/chunks.js). */
#define CHUNK_FLOATS 65536u
#define BLOCK        64u

static int die(int code, const char *message) {
    fprintf(stderr, "posenc: %s\n", message);
    return code;
}

/* End of the chunk starting at start (same rule as src/js/chunks.js). */
static uint64_t chunk_end(uint64_t start, uint64_t end, uint64_t max_rows) {
    uint64_t next = max_rows >= BLOCK ? (start + max_rows) / BLOCK * BLOCK
                                      : (start + max_rows < (start / BLOCK + 1) * BLOCK ? start + max_rows
                                                                                        : (start / BLOCK + 1) * BLOCK);
    return next > end ? end : next;
}

static int print_table(const cli_args *a) {
    if (a->kernels != KERNELS_AUTO) {
        pe_status st = pe_use_kernels(a->kernels == KERNELS_SIMD ? PE_KERNELS_SIMD : PE_KERNELS_SCALAR);
        if (st != PE_OK) return die(1, pe_status_str(st));
    }
    pe_sinusoid enc = {a->dim, a->base, a->split ? PE_LAYOUT_SPLIT : PE_LAYOUT_INTERLEAVED,
                       a->tensor2tensor ? PE_FREQ_TENSOR2TENSOR : PE_FREQ_PAPER};
    size_t scratch_bytes = 0;
    pe_status st = pe_scratch_size(a->dim, &scratch_bytes);
    if (st != PE_OK) return die(1, pe_status_str(st));
    uint32_t max_rows = CHUNK_FLOATS / a->dim > BLOCK ? CHUNK_FLOATS / a->dim : BLOCK;
    void *scratch = malloc(scratch_bytes ? scratch_bytes : 1);
    float *values = malloc((size_t)max_rows * a->dim * sizeof *values);
    if (!scratch || !values) {
        free(scratch);
        free(values);
        return die(1, "out of memory");
    }
    static char out_buffer[1 << 16];
    setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);

    cli_write_prologue(stdout, a->format, a->length, a->dim);
    uint64_t end = (uint64_t)a->offset + a->length;
    for (uint64_t start = a->offset; start < end && st == PE_OK;) {
        uint64_t next = chunk_end(start, end, max_rows);
        uint32_t rows = (uint32_t)(next - start);
        st = pe_table(&enc, (uint32_t)start, rows, values, (size_t)rows * a->dim, scratch, scratch_bytes);
        if (st == PE_OK)
            cli_write_rows(stdout, a->format, values, rows, a->dim, (uint32_t)(start - a->offset), (uint32_t)start);
        start = next;
    }
    free(scratch);
    free(values);
    if (st != PE_OK) return die(1, pe_status_str(st));
    cli_write_epilogue(stdout, a->format, a->length);
    if (fflush(stdout) != 0 || ferror(stdout)) return die(1, "could not write the output");
    return 0;
}

int main(int argc, char **argv) {
    cli_args args;
    char *error = NULL;
    if (cli_parse_args(argc, argv, &args, &error) != 0) {
        die(2, error ? error : "out of memory");
        free(error);
        return 2;
    }
    if (args.help) {
        fputs(CLI_USAGE, stdout);
        return 0;
    }
    return print_table(&args);
}
