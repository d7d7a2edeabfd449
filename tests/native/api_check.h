/* api_check.h: the scaffolding of the C API unit tests (api_test.c, beyond/,
 * math/): pass/fail counters, status checks that say what was
 * expected, and float buffers inside sentinel guards that prove a call wrote
 * nothing it should not. The definitions are in api_check.c, linked into each program. */
#ifndef API_CHECK_H
#define API_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"

extern int passed, failed;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            passed++;                                                       \
        } else {                                                            \
            failed++;                                                       \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* Counts one check: the call returned want. The label is a printf format.
 * The caller's file and line travel along, so a failure points at the test. */
#define EXPECT_STATUS(call, want, ...) expect_status((call), (want), __FILE__, __LINE__, __VA_ARGS__)

void expect_status(pe_status got, pe_status want, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* --- sentinel-guarded float buffers --------------------------------------- */

#define GUARD_FLOATS 16

typedef struct {
    float *block; /* guard | data | guard */
    float *data;
    size_t count;
    float *pristine; /* the block as filled, to prove nothing was written */
} buffer;

float sentinel(size_t k);
buffer buffer_new(size_t count);
/* Marks the current contents as the state a refusal must leave. */
void buffer_snapshot(buffer *b);
int buffer_untouched(const buffer *b);
int guards_intact(const buffer *b);
void buffer_free(buffer *b);

/* --- shared helpers ------------------------------------------------------- */

/* pe_scratch_size(dim), or exit 2. */
size_t table_scratch(uint32_t dim);
/* A small deterministic generator for test data (xorshift32). */
uint32_t next_random(uint32_t *state);

#endif
