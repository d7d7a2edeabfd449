/* `posenc t5-buckets`: T5's relative attention buckets (pe_t5_buckets), one
 * line per query row. Mirrored by src/js/relative/cli-t5-buckets.js: the same
 * options, the same checks in the same order, the same messages and bytes. */
#include "t5_buckets.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

#define POSENC_VERSION "0.1.0" /* package.json's version (tests/relative-cli.test.js holds them equal) */
#define CHUNK_VALUES   65536u  /* buckets made and written per core call (at least one row) */
#define NO_VALUE       0xffffffffffffffffull

static const char USAGE[] =
    "usage: posenc t5-buckets --query-length N [options]\n"
    "\n"
    "Prints T5's relative attention buckets (HF transformers' _relative_position_bucket):\n"
    "one line per query row, one bucket per key. Query row i sits at key position offset + i.\n"
    "\n"
    "  --query-length N   query rows, 0 to 2147483648 (required)\n"
    "  --key-length K     keys, 0 to 2147483648 (default N)\n"
    "  --offset P         key position of query row 0 (default K - N: the last query on the last key)\n"
    "  --num-buckets B    4 to 1024, or 2 to 1024 with --causal (default 32)\n"
    "  --max-distance D   above the exact distances (B/4, or B/2 with --causal), at most 2147483648\n"
    "                     (default 128)\n"
    "  --causal           the decoder's buckets: keys ahead of the query share bucket 0\n"
    "  --format F         text (spaces), csv or json (default text)\n"
    "  --output FILE      write to FILE instead of standard output\n"
    "  --version          print the version\n"
    "  -h, --help         print this help\n";

static int usage_error(const char *message, const char *a, const char *b) {
    fputs("posenc: ", stderr);
    fprintf(stderr, message, a, b);
    fputc('\n', stderr);
    return 2;
}

/* Decimal digits only (1 to 12 of them), at most 2^31; NO_VALUE when not. */
static uint64_t parse_count(const char *text) {
    size_t n = strlen(text);
    if (n == 0 || n > 12 || strspn(text, "0123456789") != n) return NO_VALUE;
    uint64_t v = strtoull(text, NULL, 10);
    return v <= PE_MAX_POSITION ? v : NO_VALUE;
}

enum { QUERY, KEY, OFFSET, BUCKETS, DISTANCE, FORMAT, OUTPUT, VALUED };
static const char *const NAMES[VALUED] = {"--query-length", "--key-length", "--offset", "--num-buckets",
                                          "--max-distance", "--format",     "--output"};

typedef struct options {
    const char *given[VALUED]; /* the text of each valued option, NULL when absent */
    int causal;
} options;

static int parse(int argc, char **argv, options *o) {
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return usage_error("unexpected argument '%s' (see posenc t5-buckets --help)", arg, "");
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (len == 8 && strncmp(arg, "--causal", 8) == 0) {
            if (eq) return usage_error("--causal takes no value; got '%s'", arg, "");
            o->causal = 1;
            continue;
        }
        int k = 0;
        while (k < VALUED && !(strlen(NAMES[k]) == len && strncmp(arg, NAMES[k], len) == 0)) k++;
        if (k == VALUED) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), arg);
            return usage_error("unknown option '%s' (see posenc t5-buckets --help)", name, "");
        }
        if (eq)
            o->given[k] = eq + 1;
        else if (i + 1 < argc)
            o->given[k] = argv[++i];
        else
            return usage_error("%s needs a value", NAMES[k], "");
    }
    return 0;
}

typedef struct request {
    pe_t5 t5;
    int format; /* 0 text, 1 csv, 2 json */
} request;

static int check(const options *o, request *r) {
    char got[32];
    if (!o->given[QUERY]) return usage_error("--query-length is required (the number of query rows)%s%s", "", "");
    uint64_t queries = parse_count(o->given[QUERY]);
    if (queries == NO_VALUE)
        return usage_error("--query-length must be an integer from 0 to 2147483648; got %s%s", o->given[QUERY], "");
    uint64_t keys = o->given[KEY] ? parse_count(o->given[KEY]) : queries;
    if (keys == NO_VALUE)
        return usage_error("--key-length must be an integer from 0 to 2147483648; got %s%s", o->given[KEY], "");
    uint64_t offset;
    if (o->given[OFFSET]) {
        offset = parse_count(o->given[OFFSET]);
        if (offset == NO_VALUE)
            return usage_error("--offset must be an integer from 0 to 2147483648; got %s%s", o->given[OFFSET], "");
        if (offset + queries > PE_MAX_POSITION) {
            snprintf(got, sizeof got, "%llu", (unsigned long long)queries);
            return usage_error("--offset + --query-length must be at most 2147483648; got %s + %s", o->given[OFFSET],
                               got);
        }
    } else if (queries > keys) {
        return usage_error(
            "--query-length is above --key-length, so --offset must be given (the key position of query row 0)%s%s", "",
            "");
    } else {
        offset = keys - queries;
    }
    const uint64_t least = o->causal ? 2 : 4;
    uint64_t buckets = o->given[BUCKETS] ? parse_count(o->given[BUCKETS]) : 32;
    if (buckets == NO_VALUE || buckets < least || buckets > PE_T5_MAX_BUCKETS) {
        return usage_error(o->causal ? "--num-buckets must be an integer from 2 to 1024 with --causal; got %s%s"
                                     : "--num-buckets must be an integer from 4 to 1024; got %s%s",
                           o->given[BUCKETS], "");
    }
    const uint64_t exact = (o->causal ? buckets : buckets / 2) / 2;
    uint64_t distance = o->given[DISTANCE] ? parse_count(o->given[DISTANCE]) : 128;
    if (distance == NO_VALUE || distance <= exact) {
        snprintf(got, sizeof got, "%llu", (unsigned long long)exact);
        return usage_error(
            "--max-distance must be an integer above %s (the exact distances) and at most 2147483648; got %s", got,
            o->given[DISTANCE] ? o->given[DISTANCE] : "128");
    }
    const char *format = o->given[FORMAT] ? o->given[FORMAT] : "text";
    r->format = strcmp(format, "text") == 0 ? 0 : strcmp(format, "csv") == 0 ? 1 : strcmp(format, "json") == 0 ? 2 : -1;
    if (r->format < 0) return usage_error("--format must be text, csv or json; got %s%s", format, "");
    pe_t5 t5 = {(uint32_t)queries, (uint32_t)keys, (uint32_t)offset, (uint32_t)buckets, (uint32_t)distance, !o->causal};
    r->t5 = t5;
    return 0;
}

/* Rows of buckets in the request's format; row `first` is the output's first row. */
static void write_rows(FILE *out, int format, const int32_t *values, uint32_t rows, uint32_t keys, uint64_t first) {
    const char sep = format == 1 ? ',' : format == 2 ? ',' : ' ';
    for (uint32_t i = 0; i < rows; i++) {
        if (format == 2) fputs(first + i == 0 ? "\n  [" : ",\n  [", out);
        for (uint32_t j = 0; j < keys; j++) {
            if (j) fputc(sep, out);
            fprintf(out, "%d", (int)values[(size_t)i * keys + j]);
        }
        fputs(format == 2 ? "]" : "\n", out);
    }
}

static int print_buckets(const request *r, const char *path) {
    FILE *out = path ? fopen(path, "wb") : stdout;
    if (!out) return usage_error("could not open %s for writing%s", path, "");
    const uint32_t keys = r->t5.key_length;
    const uint32_t per_call = keys == 0 ? CHUNK_VALUES : keys >= CHUNK_VALUES ? 1 : CHUNK_VALUES / keys;
    int32_t *values =
        malloc((size_t)(per_call < r->t5.query_length ? per_call : r->t5.query_length) * keys * sizeof *values + 4);
    if (!values) return usage_error("out of memory%s%s", "", "");
    if (r->format == 2) fputc('[', out);
    pe_status st = PE_OK;
    for (uint32_t i0 = 0; i0 < r->t5.query_length && st == PE_OK; i0 += per_call) {
        pe_t5 chunk = r->t5;
        chunk.query_length = r->t5.query_length - i0 < per_call ? r->t5.query_length - i0 : per_call;
        chunk.query_offset = r->t5.query_offset + i0;
        st = pe_t5_buckets(&chunk, values, (size_t)chunk.query_length * keys);
        if (st == PE_OK) write_rows(out, r->format, values, chunk.query_length, keys, i0);
    }
    free(values);
    if (r->format == 2) fputs("\n]\n", out);
    int failed = st != PE_OK || fflush(out) != 0 || ferror(out);
    if (path && fclose(out) != 0) failed = 1;
    if (st != PE_OK)
        fprintf(stderr, "posenc: %s\n", pe_status_str(st));
    else if (failed)
        fprintf(stderr, "posenc: could not write the output\n");
    return failed ? 1 : 0;
}

int cli_t5_buckets(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(USAGE, stdout);
            return 0;
        }
    }
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--version") == 0) {
            puts("posenc " POSENC_VERSION);
            return 0;
        }
    }
    options o;
    request r;
    int code = parse(argc, argv, &o);
    if (code == 0) code = check(&o, &r);
    if (code != 0) return code;
    return print_buckets(&r, o.given[OUTPUT]);
}
