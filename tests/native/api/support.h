/* support.h: what the C API tests of the families share: byte buffers inside
 * guards (for uint16 and double outputs), a refusal check that also proves
 * the output untouched, scratch and kernel helpers, a small generator, bit
 * views, and a check that a call stays inside the scratch it asked for. */
#ifndef BEYOND_SUPPORT_H
#define BEYOND_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "../api_check.h"
#include "posenc.h"

#define GUARD_BYTES 64

typedef struct {
    unsigned char *block; /* guard | data | guard */
    unsigned char *data;  /* 16-byte aligned: malloc's alignment plus GUARD_BYTES */
    size_t size;
    unsigned char *pristine;
} bytes;

bytes bytes_new(size_t size);
int bytes_untouched(const bytes *b);
int bytes_guards_intact(const bytes *b);
void bytes_free(bytes *b);

#define UNTOUCHED(b) _Generic((b), buffer * : buffer_untouched, bytes * : bytes_untouched)(b)

/* Counts two checks: the call returned want, and out (a buffer or bytes) is
 * bit for bit as it was. The label is a printf format. */
#define REFUSED(out, call, want, ...)                                            \
    do {                                                                         \
        EXPECT_STATUS(call, want, __VA_ARGS__);                                  \
        CHECK(UNTOUCHED(out), "output written by a refused call: " __VA_ARGS__); \
    } while (0)

/* d = 8, base 10000, interleaved: the encoding most tests use. */
extern const pe_sinusoid enc8;

void *scratch_of(size_t bytes_needed);
void use_kernels(pe_kernels k);
/* A float in [-span, span) on a 2^-20 grid. */
float random_float(uint32_t *state, float span);
uint32_t float_bits(float f);
uint64_t double_bits(double d);
double double_of_bits(uint64_t u);

typedef pe_status (*scratch_call)(const void *ctx, void *scratch, size_t scratch_bytes);
/* The call, given exactly need bytes of scratch at each byte alignment,
 * writes only inside them (see support.c). */
void check_scratch_confined(scratch_call call, const void *ctx, size_t need, const char *what);

#endif
