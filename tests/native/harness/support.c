/* The harness's shared plumbing (harness.h): guarded buffers, parsing and
 * binary I/O. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

void die(int code, const char *what, const char *detail) {
    fprintf(stderr, "harness: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(code);
}

/* --- guarded buffers ------------------------------------------------------ */

guarded guarded_alloc(size_t bytes, size_t shift, const char *name) {
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
void guarded_check(const guarded *g) {
    size_t total = 2 * GUARD_BYTES + (size_t)(g->data - g->block - GUARD_BYTES) + g->bytes;
    size_t lo = (size_t)(g->data - g->block), hi = lo + g->bytes;
    for (size_t k = 0; k < total; k++) {
        if (k >= lo && k < hi) continue;
        if (g->block[k] != GUARD_BYTE(k)) {
            fprintf(stderr,
                    "harness: guard of %s changed at byte %ld relative to its start "
                    "(0x%02x, expected 0x%02x)\n",
                    g->name, (long)k - (long)lo, g->block[k], GUARD_BYTE(k));
            exit(3);
        }
    }
}

void guarded_free(guarded *g) {
    guarded_check(g);
    free(g->block);
    g->block = g->data = NULL;
}

/* --- parsing -------------------------------------------------------------- */

uint64_t parse_uint(const char *s, uint64_t max, const char *what) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-' || v > max) die(2, "bad integer for", what);
    return v;
}

double parse_double(const char *s, const char *what) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end) die(2, "bad number for", what);
    return v;
}

float parse_float(const char *s, const char *what) {
    char *end;
    float v = strtof(s, &end);
    if (end == s || *end) die(2, "bad number for", what);
    return v;
}

pe_layout parse_layout(const char *s) {
    if (!strcmp(s, "interleaved")) return PE_LAYOUT_INTERLEAVED;
    if (!strcmp(s, "split")) return PE_LAYOUT_SPLIT;
    return (pe_layout)parse_uint(s, UINT32_MAX, "LAYOUT");
}

pe_dtype parse_dtype(const char *s) {
    const char *const names[] = {"float32", "float16", "bfloat16", "float64"};
    for (int k = 0; k < 4; k++)
        if (!strcmp(s, names[k])) return (pe_dtype)k;
    return (pe_dtype)parse_uint(s, UINT32_MAX, "DTYPE");
}

size_t dtype_size(pe_dtype dtype) {
    return dtype == PE_DTYPE_FLOAT64 ? 8 : dtype == PE_DTYPE_FLOAT32 ? 4 : 2;
}

/* LAYOUT[:FREQUENCIES], e.g. split:tensor2tensor; the frequencies default to
 * paper. */
pe_sinusoid parse_sinusoid(char **arg) {
    pe_sinusoid enc;
    enc.dim = (uint32_t)parse_uint(arg[0], UINT32_MAX, "DIM");
    enc.base = parse_double(arg[1], "BASE");
    char layout[64];
    snprintf(layout, sizeof layout, "%s", arg[2]);
    char *colon = strchr(layout, ':');
    enc.frequencies = PE_FREQ_PAPER;
    if (colon) {
        *colon = 0;
        if (!strcmp(colon + 1, "tensor2tensor"))
            enc.frequencies = PE_FREQ_TENSOR2TENSOR;
        else if (strcmp(colon + 1, "paper"))
            enc.frequencies = (pe_frequencies)parse_uint(colon + 1, UINT32_MAX, "FREQUENCIES");
    }
    enc.layout = parse_layout(layout);
    return enc;
}

void check_status(pe_status st, const char *call) {
    if (st == PE_OK) return;
    fprintf(stderr, "harness: %s returned status %d: %s\n", call, (int)st, pe_status_str(st));
    exit(4);
}

/* --- binary I/O ----------------------------------------------------------- */

void read_exact(void *dst, size_t bytes, const char *what) {
    if (bytes && fread(dst, 1, bytes, stdin) != bytes) die(2, "stdin ended early while reading", what);
}

/* Reads stdin to its end into a malloc'd block; *bytes gets its size. */
unsigned char *read_all(size_t *bytes) {
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

void write_floats(const void *data, size_t count, int framed) {
    uint32_t n = (uint32_t)count;
    if (framed && (count > UINT32_MAX || fwrite(&n, sizeof n, 1, stdout) != 1)) die(1, "write failed", "stdout");
    if (count && fwrite(data, sizeof(float), count, stdout) != count) die(1, "write failed", "stdout");
}

size_t mul_sizes(size_t a, size_t b, const char *what) {
    if (a && b > SIZE_MAX / a) die(2, "size overflows", what);
    return a * b;
}

/* Scratch of exactly the size the core asks for, guarded. */
guarded scratch_for(uint32_t dim) {
    size_t bytes = 0;
    check_status(pe_scratch_size(dim, &bytes), "pe_scratch_size");
    return guarded_alloc(bytes, 0, "scratch");
}

/* Splits a comma list in place into at most max fields; returns the count. */
int split_commas(char *list, char **fields, int max) {
    int n = 0;
    for (char *p = list;; p++) {
        if (n == max) die(2, "too many comma-separated fields in", list);
        fields[n++] = p;
        while (*p && *p != ',') p++;
        if (!*p) return n;
        *p = 0;
    }
}

uint32_t parse_named(const char *s, const char *const *names, int count, const char *what) {
    for (int k = 0; k < count; k++)
        if (!strcmp(s, names[k])) return (uint32_t)k;
    return (uint32_t)parse_uint(s, UINT32_MAX, what);
}

/* Reads one request line into words; returns the count, 0 at end of input. */
int read_request(char *line, size_t cap, char **words) {
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

void *read_block(size_t count, size_t size, const char *what) {
    size_t bytes = mul_sizes(count, size, what);
    void *p = malloc(bytes ? bytes : 1);
    if (!p) die(2, "out of memory", what);
    read_exact(p, bytes, what);
    return p;
}

void write_elements(const void *data, size_t bytes, int framed) {
    size_t words = (bytes + 3) / 4;
    uint32_t n = (uint32_t)words;
    if (framed && (words > UINT32_MAX || fwrite(&n, sizeof n, 1, stdout) != 1)) die(1, "write failed", "stdout");
    if (bytes && fwrite(data, 1, bytes, stdout) != bytes) die(1, "write failed", "stdout");
    static const unsigned char pad[3] = {0, 0, 0};
    if (bytes % 4 && fwrite(pad, 1, 4 - bytes % 4, stdout) != 4 - bytes % 4) die(1, "write failed", "stdout");
}
