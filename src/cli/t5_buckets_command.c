/* t5_buckets_command.c: `posenc t5-buckets`, T5's relative attention buckets
 * (pe_t5_buckets), one line per query row (src/js/cli/t5-buckets.js prints
 * the same bytes). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "posenc.h"

#define CHUNK_VALUES 65536u    /* buckets made and written per core call (at least one row) */
#define MAX_KEYS     16777216u /* 2^24: a row is made whole, so it is allocated whole (64 MiB) */

const char T5_BUCKETS_USAGE[] =
    "usage: posenc t5-buckets --query-length N [options]\n"
    "\n"
    "Prints T5's relative attention buckets (HF transformers' _relative_position_bucket):\n"
    "one line per query row, one bucket per key. Query row i sits at key position offset + i.\n"
    "\n"
    "  --query-length N   query rows, 0 to 2147483648 (required)\n"
    "  --key-length K     keys, 0 to 16777216 (default N; a row is made whole, at most 64 MiB)\n"
    "  --offset P         key position of query row 0 (default K - N: the last query on the last key)\n"
    "  --num-buckets B    4 to 1024, or 2 to 1024 with --causal (default 32)\n"
    "  --max-distance D   above the exact distances (B/4, or B/2 with --causal), at most 2147483648\n"
    "                     (default 128)\n"
    "  --causal           the decoder's buckets: keys ahead of the query share bucket 0\n"
    "  --format F         text (spaces), csv or json (default text); or the (query_length, key_length)\n"
    "                     int32 array: npy (<i4) or raw (little-endian int32); f32 is refused (the\n"
    "                     buckets are integers)\n" CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc t5-buckets --query-length 4 --key-length 6\n"
    "  posenc t5-buckets --query-length 1 --key-length 512 --offset 511 --causal --format json\n"
    "  posenc t5-buckets --query-length 512 --format npy --output buckets.npy\n";

const char *const T5_BUCKETS_OPTIONS[] = {"--query-length", "--key-length", "--offset", "--num-buckets",
                                          "--max-distance", "--format",     "--output", NULL};
const char *const T5_BUCKETS_FLAGS[] = {"--causal", NULL};

static int parse(const cli_given *g, pe_t5 *t5, cli_format *format, char **error) {
    const char *range = "an integer from 0 to 2147483648";
    uint32_t queries, keys, offset, buckets, distance;
    int causal = cli_flag(g, "--causal");
    if (!cli_value(g, "--query-length"))
        return cli_fail(error, 2, "--query-length is required (the number of query rows)");
    int code = cli_count_option(g, "--query-length", NULL, 0, PE_MAX_POSITION, range, &queries, error);
    if (!code)
        code = cli_count_option(g, "--key-length", cli_value(g, "--query-length"), 0, MAX_KEYS,
                                "an integer from 0 to 16777216 (a row of buckets is made whole, at most 64 MiB)", &keys,
                                error);
    if (code) return code;
    const char *offset_text = cli_value(g, "--offset");
    if (offset_text) {
        code = cli_count_option(g, "--offset", NULL, 0, PE_MAX_POSITION, range, &offset, error);
        if (!code && (uint64_t)offset + queries > PE_MAX_POSITION)
            code = cli_fail(error, 2, "--offset + --query-length must be at most 2147483648; got %s + %u", offset_text,
                            (unsigned)queries);
    } else if (queries > keys) {
        code = cli_fail(error, 2,
                        "--query-length is above --key-length, so --offset must be given (the key position of query "
                        "row 0)");
    } else {
        offset = keys - queries;
    }
    if (code) return code;
    const char *buckets_text = cli_value(g, "--num-buckets") ? cli_value(g, "--num-buckets") : "32";
    if (!cli_parse_count(buckets_text, &buckets) || buckets < (causal ? 2u : 4u) || buckets > PE_T5_MAX_BUCKETS)
        return cli_fail(error, 2,
                        causal ? "--num-buckets must be an integer from 2 to 1024 with --causal; got %s"
                               : "--num-buckets must be an integer from 4 to 1024; got %s",
                        buckets_text);
    const uint32_t exact = (causal ? buckets : buckets / 2) / 2;
    const char *distance_text = cli_value(g, "--max-distance") ? cli_value(g, "--max-distance") : "128";
    if (!cli_parse_count(distance_text, &distance) || distance <= exact)
        return cli_fail(error, 2,
                        "--max-distance must be an integer above %u (the exact distances) and at most 2147483648; "
                        "got %s",
                        (unsigned)exact, distance_text);
    static const char *const FORMATS[] = {"text", "csv", "json", "npy", "f32", "raw", NULL};
    if ((code = cli_format_option(g, FORMATS, "text, csv, json, npy or raw", format, error))) return code;
    if (*format == FORMAT_F32)
        return cli_fail(error, 2,
                        "--format f32 writes float32, and T5's buckets are integers: use --format raw (int32) or npy "
                        "(<i4)");
    pe_t5 request = {queries, keys, offset, buckets, distance, !causal};
    *t5 = request;
    return 0;
}

/* Rows of buckets; row `first` is the output's first row. */
static void write_rows(FILE *out, cli_format format, const int32_t *values, uint32_t rows, uint32_t keys,
                       uint64_t first) {
    if (format == FORMAT_NPY || format == FORMAT_RAW) {
        cli_write_le(out, values, 4, (size_t)rows * keys);
        return;
    }
    const char sep = format == FORMAT_TEXT ? ' ' : ',';
    for (uint32_t i = 0; i < rows; i++) {
        if (format == FORMAT_JSON) fputs(first + i == 0 ? "\n  [" : ",\n  [", out);
        for (uint32_t j = 0; j < keys; j++) {
            if (j) fputc(sep, out);
            fprintf(out, "%d", (int)values[(size_t)i * keys + j]);
        }
        fputs(format == FORMAT_JSON ? "]" : "\n", out);
    }
}

int cli_run_t5_buckets(const cli_given *given, FILE *out, char **error) {
    pe_t5 t5;
    cli_format format;
    int code = parse(given, &t5, &format, error);
    if (code) return code;
    const uint32_t keys = t5.key_length;
    const uint32_t per_call = keys == 0 ? CHUNK_VALUES : keys >= CHUNK_VALUES ? 1 : CHUNK_VALUES / keys;
    int32_t *values = malloc((size_t)(per_call < t5.query_length ? per_call : t5.query_length) * keys * 4 + 4);
    if (!values) return cli_fail(error, 1, "out of memory");
    if (format == FORMAT_JSON) fputc('[', out);
    const uint32_t shape[2] = {t5.query_length, keys};
    if (format == FORMAT_NPY) cli_write_npy_header(out, "<i4", shape, 2);
    pe_status st = PE_OK;
    /* A failed write (a closed pipe, a full disk) ends the loop; main reports it. */
    for (uint32_t i0 = 0; i0 < t5.query_length && st == PE_OK && !ferror(out); i0 += per_call) {
        pe_t5 chunk = t5;
        chunk.query_length = t5.query_length - i0 < per_call ? t5.query_length - i0 : per_call;
        chunk.query_offset = t5.query_offset + i0;
        st = pe_t5_buckets(&chunk, values, (size_t)chunk.query_length * keys);
        if (st == PE_OK) write_rows(out, format, values, chunk.query_length, keys, i0);
    }
    free(values);
    if (st != PE_OK) return cli_fail(error, 1, "%s", pe_status_str(st));
    if (format == FORMAT_JSON) fputs("\n]\n", out);
    return 0;
}
