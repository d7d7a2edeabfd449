/* support.c: the helpers support.h declares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

const pe_sinusoid enc8 = {8, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER};

bytes bytes_new(size_t size) {
    bytes b;
    size_t total = size + 2 * GUARD_BYTES;
    b.block = malloc(total);
    b.pristine = malloc(total);
    if (!b.block || !b.pristine) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t k = 0; k < total; k++) b.block[k] = (unsigned char)(0xA7u ^ (k * 37u)); /* no value repeats soon */
    b.data = b.block + GUARD_BYTES;
    b.size = size;
    memcpy(b.pristine, b.block, total);
    return b;
}

int bytes_untouched(const bytes *b) {
    return !memcmp(b->block, b->pristine, b->size + 2 * GUARD_BYTES);
}

int bytes_guards_intact(const bytes *b) {
    return !memcmp(b->block, b->pristine, GUARD_BYTES) &&
           !memcmp(b->data + b->size, b->pristine + GUARD_BYTES + b->size, GUARD_BYTES);
}

void bytes_free(bytes *b) {
    free(b->block);
    free(b->pristine);
}

void *scratch_of(size_t bytes_needed) {
    void *p = malloc(bytes_needed ? bytes_needed : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

void use_kernels(pe_kernels k) {
    if (pe_use_kernels(k) != PE_OK) {
        fprintf(stderr, "pe_use_kernels(%d) failed\n", (int)k);
        exit(2);
    }
}

/* A float in [-span, span) on a 2^-20 grid. */
float random_float(uint32_t *state, float span) {
    return ((float)(next_random(state) % (1u << 21)) / (float)(1u << 20) - 1.0f) * span;
}

uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

uint64_t double_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

double double_of_bits(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* The call, given exactly need bytes of scratch at each byte alignment,
 * writes only inside them: a size function that asks for too little (or a
 * core that aligns past the end) shows here, below ASan's granularity. */
void check_scratch_confined(scratch_call call, const void *ctx, size_t need, const char *what) {
    bytes block = bytes_new(need + 16);
    const size_t total = block.size + 2 * GUARD_BYTES;
    size_t stray = 0;
    for (size_t shift = 0; shift < 16; shift++) {
        memcpy(block.block, block.pristine, total);
        EXPECT_STATUS(call(ctx, block.data + shift, need), PE_OK, "%s with scratch at +%zu bytes", what, shift);
        for (size_t k = 0; k < total; k++) {
            const int inside = k >= GUARD_BYTES + shift && k < GUARD_BYTES + shift + need;
            stray += !inside && block.block[k] != block.pristine[k];
        }
    }
    CHECK(stray == 0, "%s: %zu bytes written outside the scratch it asked for", what, stray);
    bytes_free(&block);
}
