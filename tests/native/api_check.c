/* api_check.c: the definitions behind api_check.h. */
#include "api_check.h"

int passed, failed;

void expect_status(pe_status got, pe_status want, const char *file, int line, const char *fmt, ...) {
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ": got %d (%s), want %d (%s)\n", (int)got, pe_status_str(got), (int)want, pe_status_str(want));
}

float sentinel(size_t k) {
    uint32_t bits = 0x7FC00000u | (uint32_t)((k * 2654435761u) & 0x3FFFFFu); /* quiet NaNs nobody computes */
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

buffer buffer_new(size_t count) {
    buffer b;
    size_t total = count + 2 * GUARD_FLOATS;
    b.block = malloc(total * sizeof(float));
    b.pristine = malloc(total * sizeof(float));
    if (!b.block || !b.pristine) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t k = 0; k < total; k++) b.block[k] = sentinel(k);
    b.data = b.block + GUARD_FLOATS;
    b.count = count;
    memcpy(b.pristine, b.block, total * sizeof(float));
    return b;
}

void buffer_snapshot(buffer *b) {
    memcpy(b->pristine, b->block, (b->count + 2 * GUARD_FLOATS) * sizeof(float));
}

int buffer_untouched(const buffer *b) {
    return !memcmp(b->block, b->pristine, (b->count + 2 * GUARD_FLOATS) * sizeof(float));
}

int guards_intact(const buffer *b) {
    size_t g = GUARD_FLOATS * sizeof(float);
    return !memcmp(b->block, b->pristine, g) && !memcmp(b->data + b->count, b->pristine + GUARD_FLOATS + b->count, g);
}

void buffer_free(buffer *b) {
    free(b->block);
    free(b->pristine);
}

/* API_CHECK_H */

size_t table_scratch(uint32_t dim) {
    size_t need = 0;
    pe_status st = pe_scratch_size(dim, &need);
    if (st != PE_OK) {
        fprintf(stderr, "pe_scratch_size(%u): %s\n", dim, pe_status_str(st));
        exit(2);
    }
    return need;
}

/* A small deterministic generator for test data. */
uint32_t next_random(uint32_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}
