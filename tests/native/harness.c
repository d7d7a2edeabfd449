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
 * RoPE (same framing in serve mode, without KERNELS):
 *   harness rope KERNELS GEOMETRY SCALING       stdin: float32 x -> x rotated (offset + row positions)
 *   serve:  rope GEOMETRY SCALING XCOUNT POSCOUNT  + XCOUNT float32 x + POSCOUNT uint32 positions
 *           (POSCOUNT 0: positions offset + row; else the list, POSCOUNT = LENGTH) -> x rotated
 *   serve:  ropefreq GEOMETRY SCALING   -> rotary_dim/2 frequencies then the attention factor,
 *           as float64, framed as 2 * (rotary_dim/2 + 1) float32 words
 *   serve:  ropeplan GEOMETRY SCALING CACHEROWS DTYPE SEQLEN XCOUNT POSCOUNT  + XCOUNT elements of
 *           DTYPE (float32|float16|bfloat16) + POSCOUNT uint32 positions -> x rotated by a plan
 *           (pe_rope_plan_apply), its bytes framed as words
 *   serve:  ropecs GEOMETRY SCALING CACHEROWS DTYPE EXPAND POSCOUNT  + POSCOUNT uint32 positions
 *           -> cos then sin (pe_rope_plan_cos_sin), their bytes framed as words
 *   GEOMETRY = HEAD_DIM,ROTARY_DIM,HEADS,BASE,LAYOUT,ORDER,INVERSE,OFFSET,LENGTH
 *       (LAYOUT interleaved|split|INTEGER, ORDER blhd|bhld|INTEGER)
 *   SCALING = none, or TYPE,FACTOR,ORIGINAL,BETA_FAST,BETA_SLOW,ATTENTION_FACTOR,MSCALE,
 *       MSCALE_ALL_DIM,NO_TRUNCATE,LOW_FREQ_FACTOR,HIGH_FREQ_FACTOR,SEQUENCE_LENGTH
 *       (TYPE linear|dynamic|yarn|llama3|INTEGER; the pe_rope_scaling fields in order)
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

/* --- RoPE ----------------------------------------------------------------- */

/* Splits a comma list in place into at most max fields; returns the count. */
static int split_commas(char *list, char **fields, int max) {
    int n = 0;
    for (char *p = list;; p++) {
        if (n == max) die(2, "too many comma-separated fields in", list);
        fields[n++] = p;
        while (*p && *p != ',') p++;
        if (!*p) return n;
        *p = 0;
    }
}

static uint32_t parse_named(const char *s, const char *const *names, int count, const char *what) {
    for (int k = 0; k < count; k++)
        if (!strcmp(s, names[k])) return (uint32_t)k;
    return (uint32_t)parse_uint(s, UINT32_MAX, what);
}

typedef struct {
    pe_rotary rope;
    uint32_t offset, length;
} rope_request;

static rope_request parse_rope(const char *geometry, const char *scaling) {
    static const char *const orders[] = {"blhd", "bhld"};
    static const char *const types[] = {"none", "linear", "dynamic", "yarn", "llama3"};
    char g[512], sc[512];
    char *f[16];
    rope_request q;
    memset(&q, 0, sizeof q);
    snprintf(g, sizeof g, "%s", geometry);
    if (split_commas(g, f, 16) != 9) die(2, "GEOMETRY needs 9 fields", geometry);
    q.rope.head_dim = (uint32_t)parse_uint(f[0], UINT32_MAX, "HEAD_DIM");
    q.rope.rotary_dim = (uint32_t)parse_uint(f[1], UINT32_MAX, "ROTARY_DIM");
    q.rope.heads = (uint32_t)parse_uint(f[2], UINT32_MAX, "HEADS");
    q.rope.base = parse_double(f[3], "BASE");
    q.rope.layout = parse_layout(f[4]);
    q.rope.order = (pe_rope_order)parse_named(f[5], orders, 2, "ORDER");
    q.rope.inverse = (int)parse_uint(f[6], 1, "INVERSE");
    q.offset = (uint32_t)parse_uint(f[7], UINT32_MAX, "OFFSET");
    q.length = (uint32_t)parse_uint(f[8], UINT32_MAX, "LENGTH");
    if (!strcmp(scaling, "none")) return q;
    snprintf(sc, sizeof sc, "%s", scaling);
    if (split_commas(sc, f, 16) != 12) die(2, "SCALING needs 12 fields (or none)", scaling);
    pe_rope_scaling *s = &q.rope.scaling;
    s->type = (pe_rope_scaling_type)parse_named(f[0], types, 5, "TYPE");
    s->factor = parse_double(f[1], "FACTOR");
    s->original_max_position_embeddings = (uint32_t)parse_uint(f[2], UINT32_MAX, "ORIGINAL");
    s->beta_fast = parse_double(f[3], "BETA_FAST");
    s->beta_slow = parse_double(f[4], "BETA_SLOW");
    s->attention_factor = parse_double(f[5], "ATTENTION_FACTOR");
    s->mscale = parse_double(f[6], "MSCALE");
    s->mscale_all_dim = parse_double(f[7], "MSCALE_ALL_DIM");
    s->no_truncate = (int)parse_uint(f[8], 1, "NO_TRUNCATE");
    s->low_freq_factor = parse_double(f[9], "LOW_FREQ_FACTOR");
    s->high_freq_factor = parse_double(f[10], "HIGH_FREQ_FACTOR");
    s->sequence_length = (uint32_t)parse_uint(f[11], UINT32_MAX, "SEQUENCE_LENGTH");
    return q;
}

/* positions NULL: offset + row; else pos_count (= length) positions. */
static void run_rope(const rope_request *q, const void *x, size_t x_count, const void *positions, size_t pos_count,
                     size_t shift, int framed) {
    size_t bytes = 0;
    check_status(pe_rope_scratch_size(&q->rope, &bytes), "pe_rope_scratch_size");
    guarded scratch = guarded_alloc(bytes, shift, "scratch");
    guarded gx = guarded_alloc(mul_sizes(x_count, sizeof(float), "x"), shift, "x");
    guarded gp = guarded_alloc(mul_sizes(pos_count, sizeof(uint32_t), "positions"), shift, "positions");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (pos_count) memcpy(gp.data, positions, gp.bytes);
    check_status(pe_rope(&q->rope, (float *)gx.data, x_count, q->length, q->offset,
                         positions ? (const uint32_t *)gp.data : NULL, scratch.data, scratch.bytes), "pe_rope");
    if (pos_count && memcmp(gp.data, positions, gp.bytes)) die(3, "positions changed", "pe_rope");
    guarded_free(&gp);
    guarded_free(&scratch);
    guarded_check(&gx);
    write_floats(gx.data, x_count, framed);
    guarded_free(&gx);
}

/* The frequencies and attention factor, as float64 sent as pairs of words. */
static void run_rope_frequencies(const rope_request *q, int framed) {
    uint32_t r = q->rope.rotary_dim ? q->rope.rotary_dim : q->rope.head_dim;
    size_t half = r / 2;
    guarded w = guarded_alloc(mul_sizes(half + 1, sizeof(double), "frequencies"), 0, "frequencies");
    double *values = (double *)w.data;
    check_status(pe_rope_frequencies(&q->rope, values, half, values + half), "pe_rope_frequencies");
    guarded_check(&w);
    write_floats(values, 2 * (half + 1), framed);
    guarded_free(&w);
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

/* --- reduced precision, recipes, 2-D ---------------------------------------- */
/* Same framing in serve mode; in one-shot mode, `harness CMD KERNELS ARGS...`
 * with the same ARGS and stdin data:
 *   tabledtype DTYPE DIM BASE LAYOUT OFFSET LENGTH   -> LENGTH*DIM elements of DTYPE
 *   atdtype DTYPE DIM BASE LAYOUT COUNT              + COUNT uint32 -> COUNT*DIM elements
 *   narrow DTYPE COUNT                               + COUNT float64 -> COUNT elements
 *   recipe RECIPE DIM BASE LAYOUT OFFSET LENGTH      -> LENGTH*DIM float32
 *   table2d HEIGHT WIDTH DIM BASE CLS                -> (CLS + HEIGHT*WIDTH)*DIM float32
 * DTYPE is float32, float16, bfloat16, float64 or an integer; RECIPE is
 * float32-angle, float16, bfloat16 or an integer. Elements are framed as
 * 32-bit words: a uint32 word count, then the elements padded with zero bytes
 * to a whole word. */

static pe_dtype parse_dtype(const char *s) {
    static const char *const names[] = {"float32", "float16", "bfloat16", "float64"};
    for (int k = 0; k < 4; k++)
        if (!strcmp(s, names[k])) return (pe_dtype)k;
    return (pe_dtype)parse_uint(s, UINT32_MAX, "DTYPE");
}

static size_t dtype_size(pe_dtype dtype) {
    return dtype == PE_DTYPE_FLOAT64 ? 8 : dtype == PE_DTYPE_FLOAT32 ? 4 : 2;
}

static void write_elements(const void *data, size_t bytes, int framed) {
    size_t words = (bytes + 3) / 4;
    uint32_t n = (uint32_t)words;
    if (framed && (words > UINT32_MAX || fwrite(&n, sizeof n, 1, stdout) != 1)) die(1, "write failed", "stdout");
    if (bytes && fwrite(data, 1, bytes, stdout) != bytes) die(1, "write failed", "stdout");
    static const unsigned char pad[3] = {0, 0, 0};
    if (bytes % 4 && fwrite(pad, 1, 4 - bytes % 4, stdout) != 4 - bytes % 4) die(1, "write failed", "stdout");
}

static void run_table_dtype(pe_dtype dtype, pe_sinusoid enc, uint32_t offset, uint32_t length, size_t shift,
                            int framed) {
    size_t count = mul_sizes(length, enc.dim, "LENGTH*DIM");
    guarded out = guarded_alloc(mul_sizes(count, dtype_size(dtype), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table_dtype(&enc, dtype, offset, length, out.data, count, scratch.data, scratch.bytes),
                 "pe_table_dtype");
    guarded_free(&scratch);
    guarded_check(&out);
    write_elements(out.data, out.bytes, framed);
    guarded_free(&out);
}

static void run_at_dtype(pe_dtype dtype, pe_sinusoid enc, const void *positions, size_t count, size_t shift,
                         int framed) {
    guarded pos = guarded_alloc(mul_sizes(count, sizeof(uint32_t), "positions"), shift, "positions");
    if (count) memcpy(pos.data, positions, pos.bytes);
    size_t out_count = mul_sizes(count, enc.dim, "COUNT*DIM");
    guarded out = guarded_alloc(mul_sizes(out_count, dtype_size(dtype), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_table_at_dtype(&enc, dtype, (const uint32_t *)pos.data, count, out.data, out_count,
                                   scratch.data, scratch.bytes), "pe_table_at_dtype");
    if (count && memcmp(pos.data, positions, pos.bytes)) die(3, "positions changed", "pe_table_at_dtype");
    guarded_free(&pos);
    guarded_free(&scratch);
    guarded_check(&out);
    write_elements(out.data, out.bytes, framed);
    guarded_free(&out);
}

static void run_narrow(pe_dtype dtype, const void *in, size_t count, size_t shift, int framed) {
    guarded gin = guarded_alloc(mul_sizes(count, sizeof(double), "in"), shift, "in");
    if (count) memcpy(gin.data, in, gin.bytes);
    guarded out = guarded_alloc(mul_sizes(count, dtype_size(dtype), "out"), shift, "out");
    check_status(pe_narrow_f64((const double *)gin.data, count, dtype, out.data), "pe_narrow_f64");
    if (count && memcmp(gin.data, in, gin.bytes)) die(3, "input changed", "pe_narrow_f64");
    guarded_free(&gin);
    guarded_check(&out);
    write_elements(out.data, out.bytes, framed);
    guarded_free(&out);
}

static pe_recipe parse_recipe(const char *s) {
    static const char *const names[] = {"float32-angle", "float16", "bfloat16"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, names[k])) return (pe_recipe)k;
    return (pe_recipe)parse_uint(s, UINT32_MAX, "RECIPE");
}

static void run_recipe(pe_recipe recipe, pe_sinusoid enc, uint32_t offset, uint32_t length, size_t shift,
                       int framed) {
    size_t count = mul_sizes(length, enc.dim, "LENGTH*DIM");
    guarded out = guarded_alloc(mul_sizes(count, sizeof(float), "out"), shift, "out");
    guarded scratch = scratch_for(enc.dim);
    check_status(pe_recipe_table(&enc, recipe, offset, length, (float *)out.data, count, scratch.data,
                                 scratch.bytes), "pe_recipe_table");
    guarded_free(&scratch);
    guarded_check(&out);
    write_floats(out.data, count, framed);
    guarded_free(&out);
}

/* words: HEIGHT WIDTH DIM BASE CLS */
static void run_table2d(char **w, size_t shift, int framed) {
    pe_grid2d grid;
    grid.height = (uint32_t)parse_uint(w[0], UINT32_MAX, "HEIGHT");
    grid.width = (uint32_t)parse_uint(w[1], UINT32_MAX, "WIDTH");
    grid.dim = (uint32_t)parse_uint(w[2], UINT32_MAX, "DIM");
    grid.base = parse_double(w[3], "BASE");
    grid.cls_token = (int)parse_uint(w[4], 1, "CLS");
    size_t bytes = 0;
    check_status(pe_table_2d_scratch_size(&grid, &bytes), "pe_table_2d_scratch_size");
    size_t count = mul_sizes((size_t)grid.height * grid.width + (grid.cls_token ? 1 : 0), grid.dim, "ROWS*DIM");
    guarded out = guarded_alloc(mul_sizes(count, sizeof(float), "out"), shift, "out");
    guarded scratch = guarded_alloc(bytes, 0, "scratch");
    check_status(pe_table_2d(&grid, (float *)out.data, count, scratch.data, scratch.bytes), "pe_table_2d");
    guarded_free(&scratch);
    guarded_check(&out);
    write_floats(out.data, count, framed);
    guarded_free(&out);
}

/* One request of this section: w[0] the command, n words in all. Returns 0
 * when the command is not one of them (or has the wrong word count). */
static int precision_request(char **w, int n, size_t shift, int framed) {
    if (!strcmp(w[0], "tabledtype") && n == 7) {
        run_table_dtype(parse_dtype(w[1]), parse_sinusoid(w + 2), (uint32_t)parse_uint(w[5], UINT32_MAX, "OFFSET"),
                        (uint32_t)parse_uint(w[6], UINT32_MAX, "LENGTH"), shift, framed);
    } else if (!strcmp(w[0], "atdtype") && n == 6) {
        size_t count = (size_t)parse_uint(w[5], SIZE_MAX, "COUNT");
        void *pos = read_block(count, sizeof(uint32_t), "positions");
        run_at_dtype(parse_dtype(w[1]), parse_sinusoid(w + 2), pos, count, shift, framed);
        free(pos);
    } else if (!strcmp(w[0], "narrow") && n == 3) {
        size_t count = (size_t)parse_uint(w[2], SIZE_MAX, "COUNT");
        void *in = read_block(count, sizeof(double), "float64 values");
        run_narrow(parse_dtype(w[1]), in, count, shift, framed);
        free(in);
    } else if (!strcmp(w[0], "recipe") && n == 7) {
        run_recipe(parse_recipe(w[1]), parse_sinusoid(w + 2), (uint32_t)parse_uint(w[5], UINT32_MAX, "OFFSET"),
                   (uint32_t)parse_uint(w[6], UINT32_MAX, "LENGTH"), shift, framed);
    } else if (!strcmp(w[0], "table2d") && n == 6) {
        run_table2d(w + 1, shift, framed);
    } else {
        return 0;
    }
    return 1;
}

/* A RoPE plan with cache_rows cached rows, in guarded memory. */
static guarded rope_plan_for(const rope_request *q, uint32_t cache_rows, size_t shift, pe_rope_plan **plan) {
    size_t bytes = 0;
    check_status(pe_rope_plan_size(&q->rope, cache_rows, &bytes), "pe_rope_plan_size");
    guarded memory = guarded_alloc(bytes, shift, "plan");
    check_status(pe_rope_plan_init(&q->rope, cache_rows, memory.data, memory.bytes, plan), "pe_rope_plan_init");
    return memory;
}

static void run_rope_plan(char **w, size_t shift) {
    rope_request q = parse_rope(w[1], w[2]);
    const uint32_t cache_rows = (uint32_t)parse_uint(w[3], UINT32_MAX, "CACHEROWS");
    const pe_dtype dtype = parse_dtype(w[4]);
    const uint32_t seq_len = (uint32_t)parse_uint(w[5], UINT32_MAX, "SEQLEN");
    const size_t x_count = (size_t)parse_uint(w[6], SIZE_MAX, "XCOUNT");
    const size_t pos_count = (size_t)parse_uint(w[7], SIZE_MAX, "POSCOUNT");
    if (pos_count && pos_count != q.length) die(2, "POSCOUNT must be 0 or LENGTH", w[7]);
    void *x = read_block(x_count, dtype_size(dtype), "x");
    void *pos = read_block(pos_count, sizeof(uint32_t), "positions");
    pe_rope_plan *plan;
    guarded memory = rope_plan_for(&q, cache_rows, shift, &plan);
    guarded gx = guarded_alloc(mul_sizes(x_count, dtype_size(dtype), "x"), shift, "x");
    guarded gp = guarded_alloc(mul_sizes(pos_count, sizeof(uint32_t), "positions"), shift, "positions");
    if (x_count) memcpy(gx.data, x, gx.bytes);
    if (pos_count) memcpy(gp.data, pos, gp.bytes);
    check_status(pe_rope_plan_apply(plan, dtype, gx.data, x_count, q.length, q.offset,
                                    pos_count ? (const uint32_t *)gp.data : NULL, seq_len),
                 "pe_rope_plan_apply");
    guarded_check(&gp);
    guarded_check(&memory);
    guarded_check(&gx);
    write_elements(gx.data, gx.bytes, 1);
    guarded_free(&gp);
    guarded_free(&gx);
    guarded_free(&memory);
    free(x);
    free(pos);
}

static void run_rope_cos_sin(char **w, size_t shift) {
    rope_request q = parse_rope(w[1], w[2]);
    const uint32_t cache_rows = (uint32_t)parse_uint(w[3], UINT32_MAX, "CACHEROWS");
    const pe_dtype dtype = parse_dtype(w[4]);
    const int expand = (int)parse_uint(w[5], 1, "EXPAND");
    const size_t pos_count = (size_t)parse_uint(w[6], SIZE_MAX, "POSCOUNT");
    if (pos_count && pos_count != q.length) die(2, "POSCOUNT must be 0 or LENGTH", w[6]);
    void *pos = read_block(pos_count, sizeof(uint32_t), "positions");
    const uint32_t r = q.rope.rotary_dim ? q.rope.rotary_dim : q.rope.head_dim;
    const size_t count = mul_sizes(q.length, expand ? r : r / 2, "LENGTH*ROW");
    pe_rope_plan *plan;
    guarded memory = rope_plan_for(&q, cache_rows, shift, &plan);
    guarded both = guarded_alloc(mul_sizes(2 * count, dtype_size(dtype), "cos and sin"), shift, "cos and sin");
    unsigned char *cos = both.data, *sin = cos + count * dtype_size(dtype);
    check_status(pe_rope_plan_cos_sin(plan, dtype, q.length, q.offset, pos_count ? (const uint32_t *)pos : NULL,
                                      expand, cos, sin, count),
                 "pe_rope_plan_cos_sin");
    guarded_check(&memory);
    guarded_check(&both);
    write_elements(both.data, both.bytes, 1);
    guarded_free(&both);
    guarded_free(&memory);
    free(pos);
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
        } else if (!strcmp(w[0], "rope") && n == 5) {
            rope_request q = parse_rope(w[1], w[2]);
            size_t x_count = (size_t)parse_uint(w[3], SIZE_MAX, "XCOUNT");
            size_t pos_count = (size_t)parse_uint(w[4], SIZE_MAX, "POSCOUNT");
            if (pos_count && pos_count != q.length) die(2, "POSCOUNT must be 0 or LENGTH", w[4]);
            void *x = read_block(x_count, sizeof(float), "x");
            void *pos = read_block(pos_count, sizeof(uint32_t), "positions");
            run_rope(&q, x, x_count, pos_count ? pos : NULL, pos_count, shift, 1);
            free(x);
            free(pos);
        } else if (!strcmp(w[0], "ropefreq") && n == 3) {
            rope_request q = parse_rope(w[1], w[2]);
            run_rope_frequencies(&q, 1);
        } else if (!strcmp(w[0], "ropeplan") && n == 8) {
            run_rope_plan(w, shift);
        } else if (!strcmp(w[0], "ropecs") && n == 7) {
            run_rope_cos_sin(w, shift);
        } else if (precision_request(w, n, shift, 1)) {
            /* reduced precision, recipes, 2-D */
        } else {
            die(2, "bad request", w[0]);
        }
    }
}

/* One-shot form of precision_request: the command, then its arguments. */
static int precision_words(const char *cmd, char **args, int n) {
    char *w[MAX_WORDS];
    w[0] = (char *)cmd;
    for (int k = 0; k < n; k++) w[k + 1] = args[k];
    return precision_request(w, n + 1, 0, 0);
}

/* --- main ----------------------------------------------------------------- */

static void usage(void) {
    die(2, "usage: harness table|at|add|addtable|slopes|alibi|resample|rope|serve KERNELS ... (see the top of harness.c)", NULL);
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
    } else if (!strcmp(cmd, "rope") && n == 2) {
        rope_request q = parse_rope(a[0], a[1]);
        size_t bytes;
        unsigned char *in = read_all(&bytes);
        if (bytes % sizeof(float)) die(2, "stdin is not a whole number of float32", NULL);
        run_rope(&q, in, bytes / sizeof(float), NULL, 0, 0, 0);
        free(in);
    } else if (n + 1 <= MAX_WORDS && precision_words(cmd, a, n)) {
        /* reduced precision, recipes, 2-D */
    } else {
        usage();
    }
    if (fflush(stdout)) die(1, "write failed", "stdout");
    return 0;
}
