/* relative_harness: drives the relative family of the posenc C API (T5
 * buckets and bias, Shaw indices) for the tests, natively, with the scalar or
 * the SIMD kernels. tests/support/relative-harness.js speaks to it.
 *
 *   relative_harness serve KERNELS      (KERNELS: scalar or simd)
 *     stdin, one request after another:
 *       t5 QLEN KLEN OFFSET BUCKETS MAX_DISTANCE BIDIRECTIONAL
 *       t5bias QLEN KLEN OFFSET BUCKETS MAX_DISTANCE BIDIRECTIONAL HEADS FIRST COUNT
 *           + BUCKETS*HEADS float32 (the table)
 *       shaw QLEN KLEN OFFSET MAX_RELATIVE
 *     stdout, per request: a uint32 N, then N 32-bit words (int32 buckets or
 *     indices, float32 bias), little-endian.
 *
 * Every output lies between 16 sentinel words on each side, request k's
 * output k % 4 words past a 16-byte boundary (every alignment for the SIMD
 * stores); a changed sentinel or a changed table ends the run with exit 3. A
 * status other than PE_OK ends it with exit 4; bad input with exit 2.
 *
 *   relative_harness refusals
 *     calls each entry point with bad arguments: each must return its status
 *     and leave out (and the table) untouched; prints the count, exit 1 if not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

#define SENTINELS 16
#define SENTINEL  0x7fc0dead

static void die(int code, const char *what) {
    fprintf(stderr, "relative_harness: %s\n", what);
    exit(code);
}

/* Room for count words between sentinels, shifted by `shift` words. */
static uint32_t *sentinel_alloc(size_t count, size_t shift, uint32_t **block) {
    size_t total = 2 * SENTINELS + 4 + count;
    *block = malloc(total * sizeof **block);
    if (!*block) die(2, "out of memory");
    for (size_t k = 0; k < total; k++) (*block)[k] = SENTINEL ^ (uint32_t)k;
    return *block + SENTINELS + shift;
}

static void sentinel_check(const uint32_t *block, const uint32_t *data, size_t count) {
    size_t total = 2 * SENTINELS + 4 + count, lo = (size_t)(data - block), hi = lo + count;
    for (size_t k = 0; k < total; k++) {
        if ((k < lo || k >= hi) && block[k] != (SENTINEL ^ (uint32_t)k)) die(3, "a sentinel around the output changed");
    }
}

static void emit(const uint32_t *words, size_t count) {
    uint32_t n = (uint32_t)count;
    if (fwrite(&n, 4, 1, stdout) != 1 || fwrite(words, 4, count, stdout) != count) die(2, "write failed");
}

static void check(pe_status st) {
    if (st != PE_OK) die(4, pe_status_str(st));
}

static size_t plane_of(uint32_t q, uint32_t k, uint32_t heads) {
    return (size_t)q * k * heads;
}

/* One bad call: status `want`, and out (8 words, poisoned) unchanged. */
typedef struct refusal {
    const char *what;
    pe_status want;
    int op; /* 0 buckets, 1 bias, 2 shaw */
    pe_t5 t5;
    pe_shaw shaw;
    uint32_t heads, first, count;
    size_t table_count, out_count;
} refusal;

static int refusals(void) {
    static const refusal cases[] = {
        {"3 buckets bidirectional", PE_ERR_BUCKETS, 0, {2, 2, 0, 3, 128, 1}, {0}, 0, 0, 0, 0, 4},
        {"1 bucket causal", PE_ERR_BUCKETS, 0, {2, 2, 0, 1, 128, 0}, {0}, 0, 0, 0, 0, 4},
        {"1025 buckets", PE_ERR_BUCKETS, 0, {2, 2, 0, 1025, 128, 1}, {0}, 0, 0, 0, 0, 4},
        {"max_distance = max_exact", PE_ERR_BUCKETS, 0, {2, 2, 0, 32, 8, 1}, {0}, 0, 0, 0, 0, 4},
        {"max_distance above 2^31", PE_ERR_BUCKETS, 0, {2, 2, 0, 32, PE_MAX_POSITION + 1, 1}, {0}, 0, 0, 0, 0, 4},
        {"offset + queries past 2^31", PE_ERR_POSITION, 0, {2, 2, PE_MAX_POSITION - 1, 32, 128, 1}, {0}, 0, 0, 0, 0, 4},
        {"keys past 2^31", PE_ERR_POSITION, 0, {0, PE_MAX_POSITION + 1, 0, 32, 128, 1}, {0}, 0, 0, 0, 0, 0},
        {"out too small", PE_ERR_OUT_SIZE, 0, {2, 2, 0, 32, 128, 1}, {0}, 0, 0, 0, 0, 3},
        {"bias: heads 0", PE_ERR_HEADS, 1, {2, 2, 0, 4, 128, 1}, {0}, 0, 0, 0, 0, 4},
        {"bias: head range past heads", PE_ERR_HEADS, 1, {2, 2, 0, 4, 128, 1}, {0}, 2, 1, 2, 8, 8},
        {"bias: table not buckets x heads", PE_ERR_TABLE_ROWS, 1, {2, 2, 0, 4, 128, 1}, {0}, 2, 0, 2, 7, 8},
        {"bias: bad buckets first", PE_ERR_BUCKETS, 1, {2, 2, 0, 2, 128, 1}, {0}, 2, 0, 2, 4, 8},
        {"bias: out too large", PE_ERR_OUT_SIZE, 1, {2, 2, 0, 4, 128, 1}, {0}, 1, 0, 1, 4, 5},
        {"shaw: k = 2^30", PE_ERR_MAX_RELATIVE, 2, {0}, {2, 2, 0, PE_SHAW_MAX_RELATIVE + 1}, 0, 0, 0, 0, 4},
        {"shaw: offset past 2^31", PE_ERR_POSITION, 2, {0}, {2, 2, PE_MAX_POSITION - 1, 1}, 0, 0, 0, 0, 4},
        {"shaw: out too small", PE_ERR_OUT_SIZE, 2, {0}, {2, 2, 0, 1}, 0, 0, 0, 0, 2},
    };
    const size_t n = sizeof cases / sizeof cases[0];
    int failed = 0;
    for (size_t c = 0; c < n; c++) {
        const refusal *r = &cases[c];
        uint32_t out[8];
        float table[8];
        for (int k = 0; k < 8; k++) out[k] = SENTINEL ^ (uint32_t)k, table[k] = (float)k;
        pe_status got = r->op == 0   ? pe_t5_buckets(&r->t5, (int32_t *)out, r->out_count)
                        : r->op == 1 ? pe_t5_bias(&r->t5, table, r->table_count, r->heads, r->first, r->count,
                                                  (float *)out, r->out_count)
                                     : pe_shaw_indices(&r->shaw, (int32_t *)out, r->out_count);
        int touched = 0;
        for (int k = 0; k < 8; k++) touched |= out[k] != (SENTINEL ^ (uint32_t)k) || table[k] != (float)k;
        if (got != r->want || touched) {
            printf("%s: status %d (%s), expected %d%s\n", r->what, got, pe_status_str(got), r->want,
                   touched ? "; out or table was written" : "");
            failed = 1;
        }
    }
    /* NULL pointers and the overlap of out with table. */
    pe_t5 t5 = {1, 2, 0, 4, 128, 1};
    float shared[10] = {0};
    if (pe_t5_buckets(NULL, NULL, 0) != PE_ERR_NULL || pe_t5_buckets(&t5, NULL, 2) != PE_ERR_NULL ||
        pe_t5_bias(&t5, NULL, 4, 1, 0, 1, shared, 2) != PE_ERR_NULL ||
        pe_t5_bias(&t5, shared, 4, 1, 0, 1, shared + 3, 2) != PE_ERR_OVERLAP ||
        pe_shaw_indices(NULL, NULL, 0) != PE_ERR_NULL) {
        printf("a NULL pointer or an overlap was not refused\n");
        failed = 1;
    }
    printf("%zu refusals checked\n", n + 5);
    return failed;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "refusals") == 0) return refusals();
    if (argc != 3 || strcmp(argv[1], "serve") != 0) die(2, "usage: relative_harness serve scalar|simd");
    check(pe_use_kernels(strcmp(argv[2], "simd") == 0 ? PE_KERNELS_SIMD : PE_KERNELS_SCALAR));
    char op[16];
    for (size_t request = 0; scanf("%15s", op) == 1; request++) {
        unsigned q, k, offset, a, b, c = 0, heads = 0, first = 0, count = 0;
        uint32_t *block, *out;
        size_t n;
        if (strcmp(op, "t5") == 0 || strcmp(op, "t5bias") == 0) {
            if (scanf("%u %u %u %u %u %u", &q, &k, &offset, &a, &b, &c) != 6) die(2, "bad t5 request");
            pe_t5 t5 = {q, k, offset, a, b, (int)c};
            if (op[2] == 0) {
                n = plane_of(q, k, 1);
                out = sentinel_alloc(n, request % 4, &block);
                check(pe_t5_buckets(&t5, (int32_t *)out, n));
            } else {
                if (scanf("%u %u %u", &heads, &first, &count) != 3 || getchar() != '\n') die(2, "bad t5bias request");
                size_t table_count = (size_t)a * heads;
                float *table = malloc((table_count ? table_count : 1) * sizeof *table);
                float *copy = malloc((table_count ? table_count : 1) * sizeof *copy);
                if (!table || !copy) die(2, "out of memory");
                if (fread(table, 4, table_count, stdin) != table_count) die(2, "short table");
                memcpy(copy, table, table_count * sizeof *table);
                n = plane_of(q, k, count);
                out = sentinel_alloc(n, request % 4, &block);
                check(pe_t5_bias(&t5, table, table_count, heads, first, count, (float *)out, n));
                if (memcmp(copy, table, table_count * sizeof *table) != 0) die(3, "the table changed");
                free(table);
                free(copy);
            }
        } else if (strcmp(op, "shaw") == 0) {
            if (scanf("%u %u %u %u", &q, &k, &offset, &a) != 4) die(2, "bad shaw request");
            pe_shaw shaw = {q, k, offset, a};
            n = plane_of(q, k, 1);
            out = sentinel_alloc(n, request % 4, &block);
            check(pe_shaw_indices(&shaw, (int32_t *)out, n));
        } else {
            die(2, "unknown request");
        }
        sentinel_check(block, out, n);
        emit(out, n);
        free(block);
    }
    return fflush(stdout) == 0 ? 0 : 2;
}
