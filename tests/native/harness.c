/* harness: drives the posenc C API from the command line, for the tests.
 *
 * Every buffer the core writes or reads (out, x, table, positions, scratch)
 * lives between two 64-byte guards of a known pattern; a changed guard, or a
 * changed input the core must only read, ends the run with exit 3. Scratch is
 * exactly pe_scratch_size() bytes. All data is little-endian binary.
 *
 * One request per run:
 *   harness table    KERNELS DIM BASE LAYOUT OFFSET LENGTH        -> LENGTH*DIM float32
 *   harness at       KERNELS DIM BASE LAYOUT                      stdin: uint32 positions
 *                                                                 -> count*DIM float32
 *   harness add      KERNELS DIM BASE LAYOUT OFFSET LENGTH SCALE  stdin: float32 x
 *                                                                 -> x after the add
 *   harness addtable KERNELS LENGTH DIM TABLE_ROWS OFFSET SCALE   stdin: float32 x, then
 *                                                                 TABLE_ROWS*DIM float32 table
 *                                                                 -> x after the add
 * Many requests per run (one process for a whole sweep):
 *   harness serve KERNELS     stdin: requests, each a text line then its binary data
 *       table DIM BASE LAYOUT OFFSET LENGTH
 *       at DIM BASE LAYOUT COUNT                        + COUNT uint32
 *       add DIM BASE LAYOUT OFFSET LENGTH SCALE XCOUNT  + XCOUNT float32
 *       addtable LENGTH DIM TABLE_ROWS OFFSET SCALE XCOUNT + XCOUNT float32 + TABLE_ROWS*DIM float32
 *     stdout: per request, a uint32 N then N float32 (the request's output).
 *     Request k places its float buffers k % 4 floats past a 16-byte boundary,
 *     so the kernels meet every alignment.
 *
 * ALiBi and learned tables (same framing in serve mode, without KERNELS):
 *   harness slopes   KERNELS HEADS                                -> HEADS float32
 *   harness alibi    KERNELS HEADS QLEN KLEN OFFSET CAUSAL FIRST COUNT
 *                                                                 -> COUNT*QLEN*KLEN float32
 *   harness resample KERNELS ROWS DIM NEWROWS  stdin: ROWS*DIM float32 -> NEWROWS*DIM float32
 *
 * Self-check of the guards (must exit 3):
 *   harness damage KERNELS    writes one float past a guarded buffer
 *
 * KERNELS is scalar or simd (pe_use_kernels). LAYOUT is interleaved, split or
 * a raw integer (to pass values outside the enum), optionally followed by
 * :paper, :tensor2tensor or :INTEGER for the frequencies. BASE and SCALE are C
 * numbers (strtod / strtof: decimal, hex float, inf, nan).
 * Exit: 0 ok; 2 bad usage or input; 3 a guard or a read-only input changed;
 * 4 the core returned a status other than PE_OK (printed with pe_status_str).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

#define GUARD_BYTES 64
#define GUARD_BYTE(k) ((unsigned char)(0xA5 ^ (k) * 29u))

static void die(int code, const char *what, const char *detail) {
    fprintf(stderr, "harness: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(code);
}

/* --- guarded buffers ------------------------------------------------------ */

typedef struct {
    unsigned char *block; /* guard | shift | data | guard */
    unsigned char *data;
    size_t bytes;
    const char *name;
} guarded;

static guarded guarded_alloc(size_t bytes, size_t shift, const char *name) {
    guarded g = {NULL, NULL, bytes, name};
    if (bytes > SIZE_MAX / 2) die(2, "buffer too large", name);
    size_t total = 2 * GUARD_BYTES + shift + bytes;
    g.block = malloc(total);
    if (!g.block) die(2, "out of memory", name);
    for (size_t k = 0; k < total; k++) g.block[k] = GUARD_BYTE(k);
    g.data = g.block + GUARD_BYTES + shift;
    return g;
}

/* Guards cover the shift too: everything outside [data, data+bytes). */
static void guarded_check(const guarded *g) {
    size_t total = 2 * GUARD_BYTES + (size_t)(g->data - g->block - GUARD_BYTES) + g->bytes;
    size_t lo = (size_t)(g->data - g->block), hi = lo + g->bytes;
    for (size_t k = 0; k < total; k++) {
        if (k >= lo && k < hi) continue;
        if (g->block[k] != GUARD_BYTE(k)) {
            fprintf(stderr, "harness: guard of %s changed at byte %ld relative to its start "
                    "(0x%02x, expected 0x%02x)\n", g->name, (long)k - (long)lo,
                    g->block[k], GUARD_BYTE(k));
            exit(3);
        }
    }
}

static void guarded_free(guarded *g) {
    guarded_check(g);
    free(g->block);
    g->block = g->data = NULL;
}

/* --- parsing -------------------------------------------------------------- */

static uint64_t parse_uint(const char *s, uint64_t max, const char *what) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-' || v > max) die(2, "bad integer for", what);
    return v;
}

static double parse_double(const char *s, const char *what) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end) die(2, "bad number for", what);
    return v;
}

static float parse_float(const char *s, const char *what) {
    char *end;
    float v = strtof(s, &end);
    if (end == s || *end) die(2, "bad number for", what);
    return v;
}

static pe_layout parse_layout(const char *s) {
    if (!strcmp(s, "interleaved")) return PE_LAYOUT_INTERLEAVED;
    if (!strcmp(s, "split")) return PE_LAYOUT_SPLIT;
    return (pe_layout)parse_uint(s, UINT32_MAX, "LAYOUT");
}

/* LAYOUT[:FREQUENCIES], e.g. split:tensor2tensor; the frequencies default to
 * paper. */
static pe_sinusoid parse_sinusoid(char **arg) {
    pe_sinusoid enc;
    enc.dim = (uint32_t)parse_uint(arg[0], UINT32_MAX, "DIM");
    enc.base = parse_double(arg[1], "BASE");
    char layout[64];
    snprintf(layout, sizeof layout, "%s", arg[2]);
    char *colon = strchr(layout, ':');
    enc.frequencies = PE_FREQ_PAPER;
    if (colon) {
        *colon = 0;
        if (!strcmp(colon + 1, "tensor2tensor")) enc.frequencies = PE_FREQ_TENSOR2TENSOR;
        else if (strcmp(colon + 1, "paper")) enc.frequencies = (pe_frequencies)parse_uint(colon + 1, UINT32_MAX, "FREQUENCIES");
    }
    enc.layout = parse_layout(layout);
    return enc;
}

static void check_status(pe_status st, const char *call) {
    if (st == PE_OK) return;
    fprintf(stderr, "harness: %s returned status %d: %s\n", call, (int)st, pe_status_str(st));
    exit(4);
}

/* --- binary I/O ----------------------------------------------------------- */

static void read_exact(void *dst, size_t bytes, const char *what) {
    if (bytes && fread(dst, 1, bytes, stdin) != bytes) die(2, "stdin ended early while reading", what);
}

/* Reads stdin to its end into a malloc'd block; *bytes gets its size. */
static unsigned char *read_all(size_t *bytes) {
    size_t cap = 1 << 16, n = 0, got;
    unsigned char *buf = malloc(cap);
    if (!buf) die(2, "out of memory", "stdin");
    while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) die(2, "out of memory", "stdin");
            buf = bigger;
            cap *= 2;
        }
    }
    if (ferror(stdin)) die(2, "read failed", "stdin");
    *bytes = n;
    return buf;
}

static void write_floats(const void *data, size_t count, int framed) {
    uint32_t n = (uint32_t)count;
    if (framed && (count > UINT32_MAX || fwrite(&n, sizeof n, 1, stdout) != 1)) die(1, "write failed", "stdout");
    if (count && fwrite(data, sizeof(float), count, stdout) != count) die(1, "write failed", "stdout");
}

static size_t mul_sizes(size_t a, size_t b, const char *what) {
    if (a && b > SIZE_MAX / a) die(2, "size overflows", what);
    return a * b;
}

/* Scratch of exactly the size the core asks for, guarded. */
static guarded scratch_for(uint32_t dim) {
    size_t bytes = 0;
    check_status(pe_scratch_size(dim, &bytes), "pe_scratch_size");
    return guarded_alloc(bytes, 0, "scratch");
}

/* --- the four operations -------------------------------------------------- */
/* Each takes its inputs already in memory, writes its float32 output. */

static void run_table(pe_sinusoid enc, uint32_t offset, uint32_t length, size_t shift, int framed) {
    size_t count = mul_sizes(length, enc.dim, "LENGTH*DIM");
    guarded out = guarded_alloc(mul_sizes(count, sizeof(float), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table(&enc, offset, length, (float *)out.data, count, scratch.data, scratch.bytes),
                 "pe_table");
    guarded_check(&out);
    guarded_free(&scratch);
    write_floats(out.data, count, framed);
    guarded_free(&out);
}

static void run_at(pe_sinusoid enc, const void *positions, size_t count, size_t shift, int framed) {
    guarded pos = guarded_alloc(mul_sizes(count, sizeof(uint32_t), "positions"), shift, "positions");
    if (count) memcpy(pos.data, positions, pos.bytes);
    size_t out_count = mul_sizes(count, enc.dim, "COUNT*DIM");
    guarded out = guarded_alloc(mul_sizes(out_count, sizeof(float), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table_at(&enc, (const uint32_t *)pos.data, count, (float *)out.data, out_count,
                             scratch.data, scratch.bytes), "pe_table_at");
    if (count && memcmp(pos.data, positions, pos.bytes)) die(3, "positions changed", "pe_table_at");
    guarded_free(&pos);
    guarded_free(&scratch);
    guarded_check(&out);
    write_floats(out.data, out_count, framed);
    guarded_free(&out);
}

static void run_add(pe_sinusoid enc, uint32_t offset, uint32_t length, float scale, const void *x,
                    size_t x_count, size_t shift, int framed) {
    guarded gx = guarded_alloc(mul_sizes(x_count, sizeof(float), "x"), shift, "x");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_add(&enc, (float *)gx.data, x_count, offset, length, scale, scratch.data, scratch.bytes),
                 "pe_add");
    guarded_free(&scratch);
    guarded_check(&gx);
    write_floats(gx.data, x_count, framed);
    guarded_free(&gx);
}

static void run_addtable(uint32_t length, uint32_t dim, uint32_t rows, uint32_t offset, float scale,
                         const void *x, size_t x_count, const void *table, size_t shift, int framed) {
    size_t table_bytes = mul_sizes(mul_sizes(rows, dim, "TABLE_ROWS*DIM"), sizeof(float), "table");
    guarded gx = guarded_alloc(mul_sizes(x_count, sizeof(float), "x"), shift, "x");
    guarded gt = guarded_alloc(table_bytes, shift, "table");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (table_bytes) memcpy(gt.data, table, table_bytes);
    check_status(pe_add_table((float *)gx.data, x_count, length, dim, (const float *)gt.data, rows, offset,
                              scale), "pe_add_table");
    if (table_bytes && memcmp(gt.data, table, table_bytes)) die(3, "table changed", "pe_add_table");
    guarded_free(&gt);
    guarded_check(&gx);
    write_floats(gx.data, x_count, framed);
    guarded_free(&gx);
}

/* --- ALiBi and learned tables -------------------------------------------- */

static void run_slopes(uint32_t heads, size_t shift, int framed) {
    guarded out = guarded_alloc(mul_sizes(heads, sizeof(float), "slopes"), shift, "slopes");
    check_status(pe_alibi_slopes(heads, (float *)out.data, heads), "pe_alibi_slopes");
    guarded_check(&out);
    write_floats(out.data, heads, framed);
    guarded_free(&out);
}

/* words: HEADS QLEN KLEN OFFSET CAUSAL FIRST COUNT */
static void run_alibi(char **w, size_t shift, int framed) {
    pe_alibi alibi;
    alibi.heads = (uint32_t)parse_uint(w[0], UINT32_MAX, "HEADS");
    alibi.query_length = (uint32_t)parse_uint(w[1], UINT32_MAX, "QLEN");
    alibi.key_length = (uint32_t)parse_uint(w[2], UINT32_MAX, "KLEN");
    alibi.query_offset = (uint32_t)parse_uint(w[3], UINT32_MAX, "OFFSET");
    alibi.causal = (int)parse_uint(w[4], 1, "CAUSAL");
    uint32_t first = (uint32_t)parse_uint(w[5], UINT32_MAX, "FIRST");
    uint32_t count = (uint32_t)parse_uint(w[6], UINT32_MAX, "COUNT");
    size_t n = mul_sizes(mul_sizes(count, alibi.query_length, "COUNT*QLEN"), alibi.key_length, "COUNT*QLEN*KLEN");
    guarded out = guarded_alloc(mul_sizes(n, sizeof(float), "bias"), shift, "bias");
    check_status(pe_alibi_bias(&alibi, first, count, (float *)out.data, n), "pe_alibi_bias");
    guarded_check(&out);
    write_floats(out.data, n, framed);
    guarded_free(&out);
}

static void run_resample(uint32_t rows, uint32_t dim, uint32_t new_rows, const void *table, size_t shift,
                         int framed) {
    size_t table_bytes = mul_sizes(mul_sizes(rows, dim, "ROWS*DIM"), sizeof(float), "table");
    size_t n = mul_sizes(new_rows, dim, "NEWROWS*DIM");
    guarded gt = guarded_alloc(table_bytes, shift, "table");
    guarded out = guarded_alloc(mul_sizes(n, sizeof(float), "resampled"), shift, "resampled");
    if (table_bytes) memcpy(gt.data, table, table_bytes);
    check_status(pe_resample_table((const float *)gt.data, rows, dim, (float *)out.data, new_rows, n),
                 "pe_resample_table");
    if (table_bytes && memcmp(gt.data, table, table_bytes)) die(3, "table changed", "pe_resample_table");
    guarded_free(&gt);
    guarded_check(&out);
    write_floats(out.data, n, framed);
    guarded_free(&out);
}

/* --- serve: many requests ------------------------------------------------- */

#define MAX_WORDS 10

/* Reads one request line into words; returns the count, 0 at end of input. */
static int read_request(char *line, size_t cap, char **words) {
    size_t n = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 >= cap) die(2, "request line too long", NULL);
        line[n++] = (char)c;
    }
    if (c == EOF && n == 0) return 0;
    line[n] = 0;
    int count = 0;
    for (char *w = strtok(line, " \t\r"); w; w = strtok(NULL, " \t\r")) {
        if (count == MAX_WORDS) die(2, "too many words in request", NULL);
        words[count++] = w;
    }
    if (count == 0) die(2, "empty request line", NULL);
    return count;
}

static void *read_block(size_t count, size_t size, const char *what) {
    size_t bytes = mul_sizes(count, size, what);
    void *p = malloc(bytes ? bytes : 1);
    if (!p) die(2, "out of memory", what);
    read_exact(p, bytes, what);
    return p;
}

static void serve(void) {
    char line[1024];
    char *w[MAX_WORDS];
    int n;
    for (size_t k = 0; (n = read_request(line, sizeof line, w)) > 0; k++) {
        size_t shift = (k % 4) * sizeof(float);
        if (!strcmp(w[0], "table") && n == 6) {
            run_table(parse_sinusoid(w + 1), (uint32_t)parse_uint(w[4], UINT32_MAX, "OFFSET"),
                      (uint32_t)parse_uint(w[5], UINT32_MAX, "LENGTH"), shift, 1);
        } else if (!strcmp(w[0], "at") && n == 5) {
            size_t count = (size_t)parse_uint(w[4], SIZE_MAX, "COUNT");
            void *pos = read_block(count, sizeof(uint32_t), "positions");
            run_at(parse_sinusoid(w + 1), pos, count, shift, 1);
            free(pos);
        } else if (!strcmp(w[0], "add") && n == 8) {
            size_t x_count = (size_t)parse_uint(w[7], SIZE_MAX, "XCOUNT");
            void *x = read_block(x_count, sizeof(float), "x");
            run_add(parse_sinusoid(w + 1), (uint32_t)parse_uint(w[4], UINT32_MAX, "OFFSET"),
                    (uint32_t)parse_uint(w[5], UINT32_MAX, "LENGTH"), parse_float(w[6], "SCALE"), x,
                    x_count, shift, 1);
            free(x);
        } else if (!strcmp(w[0], "addtable") && n == 7) {
            uint32_t length = (uint32_t)parse_uint(w[1], UINT32_MAX, "LENGTH");
            uint32_t dim = (uint32_t)parse_uint(w[2], UINT32_MAX, "DIM");
            uint32_t rows = (uint32_t)parse_uint(w[3], UINT32_MAX, "TABLE_ROWS");
            size_t x_count = (size_t)parse_uint(w[6], SIZE_MAX, "XCOUNT");
            void *x = read_block(x_count, sizeof(float), "x");
            void *table = read_block(mul_sizes(rows, dim, "TABLE_ROWS*DIM"), sizeof(float), "table");
            run_addtable(length, dim, rows, (uint32_t)parse_uint(w[4], UINT32_MAX, "OFFSET"),
                         parse_float(w[5], "SCALE"), x, x_count, table, shift, 1);
            free(x);
            free(table);
        } else if (!strcmp(w[0], "slopes") && n == 2) {
            run_slopes((uint32_t)parse_uint(w[1], UINT32_MAX, "HEADS"), shift, 1);
        } else if (!strcmp(w[0], "alibi") && n == 8) {
            run_alibi(w + 1, shift, 1);
        } else if (!strcmp(w[0], "resample") && n == 4) {
            uint32_t rows = (uint32_t)parse_uint(w[1], UINT32_MAX, "ROWS");
            uint32_t dim = (uint32_t)parse_uint(w[2], UINT32_MAX, "DIM");
            void *table = read_block(mul_sizes(rows, dim, "ROWS*DIM"), sizeof(float), "table");
            run_resample(rows, dim, (uint32_t)parse_uint(w[3], UINT32_MAX, "NEWROWS"), table, shift, 1);
            free(table);
        } else {
            die(2, "bad request", w[0]);
        }
    }
}

/* --- main ----------------------------------------------------------------- */

static void usage(void) {
    die(2, "usage: harness table|at|add|addtable|slopes|alibi|resample|serve KERNELS ... (see the top of harness.c)", NULL);
}

int main(int argc, char **argv) {
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc < 3) usage();
    const char *cmd = argv[1];
    if (!strcmp(argv[2], "scalar")) check_status(pe_use_kernels(PE_KERNELS_SCALAR), "pe_use_kernels");
    else if (!strcmp(argv[2], "simd")) check_status(pe_use_kernels(PE_KERNELS_SIMD), "pe_use_kernels");
    else die(2, "KERNELS must be scalar or simd, got", argv[2]);
    char **a = argv + 3;
    int n = argc - 3;

    if (!strcmp(cmd, "damage") && n == 0) {
        guarded g = guarded_alloc(4 * sizeof(float), 0, "damage self-check");
        float one = 1.0f;
        memcpy(g.data + 4 * sizeof(float), &one, sizeof one); /* inside the guard: allocated, so no ASan report */
        guarded_free(&g); /* exits 3 */
        die(1, "the guard check missed a write past the end", NULL);
    } else if (!strcmp(cmd, "serve") && n == 0) {
        serve();
    } else if (!strcmp(cmd, "table") && n == 5) {
        run_table(parse_sinusoid(a), (uint32_t)parse_uint(a[3], UINT32_MAX, "OFFSET"),
                  (uint32_t)parse_uint(a[4], UINT32_MAX, "LENGTH"), 0, 0);
    } else if (!strcmp(cmd, "at") && n == 3) {
        size_t bytes;
        unsigned char *in = read_all(&bytes);
        if (bytes % sizeof(uint32_t)) die(2, "stdin is not a whole number of uint32 positions", NULL);
        run_at(parse_sinusoid(a), in, bytes / sizeof(uint32_t), 0, 0);
        free(in);
    } else if (!strcmp(cmd, "add") && n == 6) {
        size_t bytes;
        unsigned char *in = read_all(&bytes);
        if (bytes % sizeof(float)) die(2, "stdin is not a whole number of float32", NULL);
        run_add(parse_sinusoid(a), (uint32_t)parse_uint(a[3], UINT32_MAX, "OFFSET"),
                (uint32_t)parse_uint(a[4], UINT32_MAX, "LENGTH"), parse_float(a[5], "SCALE"), in,
                bytes / sizeof(float), 0, 0);
        free(in);
    } else if (!strcmp(cmd, "addtable") && n == 5) {
        uint32_t length = (uint32_t)parse_uint(a[0], UINT32_MAX, "LENGTH");
        uint32_t dim = (uint32_t)parse_uint(a[1], UINT32_MAX, "DIM");
        uint32_t rows = (uint32_t)parse_uint(a[2], UINT32_MAX, "TABLE_ROWS");
        size_t table_bytes = mul_sizes(mul_sizes(rows, dim, "TABLE_ROWS*DIM"), sizeof(float), "table");
        size_t bytes;
        unsigned char *in = read_all(&bytes);
        if (bytes < table_bytes || (bytes - table_bytes) % sizeof(float))
            die(2, "stdin must hold float32 x then TABLE_ROWS*DIM float32", NULL);
        size_t x_bytes = bytes - table_bytes;
        run_addtable(length, dim, rows, (uint32_t)parse_uint(a[3], UINT32_MAX, "OFFSET"),
                     parse_float(a[4], "SCALE"), in, x_bytes / sizeof(float), in + x_bytes, 0, 0);
        free(in);
    } else if (!strcmp(cmd, "slopes") && n == 1) {
        run_slopes((uint32_t)parse_uint(a[0], UINT32_MAX, "HEADS"), 0, 0);
    } else if (!strcmp(cmd, "alibi") && n == 7) {
        run_alibi(a, 0, 0);
    } else if (!strcmp(cmd, "resample") && n == 3) {
        uint32_t rows = (uint32_t)parse_uint(a[0], UINT32_MAX, "ROWS");
        uint32_t dim = (uint32_t)parse_uint(a[1], UINT32_MAX, "DIM");
        size_t bytes;
        unsigned char *in = read_all(&bytes);
        if (bytes != mul_sizes(mul_sizes(rows, dim, "ROWS*DIM"), sizeof(float), "table"))
            die(2, "stdin must hold ROWS*DIM float32", NULL);
        run_resample(rows, dim, (uint32_t)parse_uint(a[2], UINT32_MAX, "NEWROWS"), in, 0, 0);
        free(in);
    } else {
        usage();
    }
    if (fflush(stdout)) die(1, "write failed", "stdout");
    return 0;
}
