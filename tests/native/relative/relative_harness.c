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
 * status other than PE_OK ends it with exit 4; bad input with exit 2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

#define SENTINELS 16
#define SENTINEL 0x7fc0dead

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

int main(int argc, char **argv) {
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
