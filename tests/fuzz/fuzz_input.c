/* fuzz_input.c: reading arguments from the fuzzer's bytes, guarded buffers
 * and range checks, shared by every target (see fuzz_input.h). */
#include "fuzz_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading arguments from the input ----------------------------------- */

uint64_t take(bytes *in, int n) {
    uint64_t v = 0;
    for (int k = 0; k < n; k++) v |= (uint64_t)(in->size ? (in->size--, *in->data++) : 0) << (8 * k);
    return v;
}
uint32_t take_u32(bytes *in) {
    return (uint32_t)take(in, 4);
}
double take_f64(bytes *in) {
    uint64_t bits = take(in, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A size: mostly small or an edge value, sometimes raw; capped where outputs are allocated. */
uint32_t take_size(bytes *in, uint32_t cap) {
    static const uint32_t EDGE[] = {0,   1,    2,     3,     4,           5,           7,           8,          9,
                                    15,  16,   17,    31,    32,          33,          63,          64,         65,
                                    128, 4096, 65536, 65538, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu};
    const uint8_t how = (uint8_t)take(in, 1);
    uint32_t v = how < 96 ? how % 70 : how < 200 ? EDGE[how % (sizeof EDGE / sizeof *EDGE)] : take_u32(in);
    return cap && v > cap ? v % (cap + 1) : v;
}
/* A position-like number: small, near 2^31, or raw. */
uint32_t take_position(bytes *in) {
    const uint8_t how = (uint8_t)take(in, 1);
    if (how < 100) return (uint32_t)take(in, 2);
    if (how < 200) return 0x80000000u - 1u - (uint32_t)take(in, 2);
    return take_u32(in);
}
/* A double: a usual value, or raw bits. */
double take_double(bytes *in, double usual) {
    const uint8_t how = (uint8_t)take(in, 1);
    if (how < 64) return usual;
    if (how < 128) return usual * (1.0 + (double)(int8_t)take(in, 1) / 64.0);
    return take_f64(in);
}
/* An output count: exact most of the time, else off by one or raw. */
size_t take_count(bytes *in, size_t exact) {
    const uint8_t how = (uint8_t)take(in, 1);
    if (how < 220) return exact;
    if (how < 235) return exact + 1;
    if (how < 250) return exact - 1;
    return take_u32(in);
}

/* ---- guarded buffers ----------------------------------------------------- */

void *guard_alloc(guarded *g, size_t bytes) {
    g->bytes = bytes;
    g->block = malloc(bytes + 2 * GUARD);
    if (!g->block) abort();
    memset(g->block, GUARD_BYTE, GUARD);
    memset(g->block + GUARD, FILL_BYTE, bytes);
    memset(g->block + GUARD + bytes, GUARD_BYTE, GUARD);
    return g->block + GUARD;
}

void fail(const char *what, const char *call) {
    fprintf(stderr, "fuzz_api: %s: %s\n", call, what);
    abort();
}

void guard_check(guarded *g, const char *call, int untouched) {
    for (size_t k = 0; k < GUARD; k++)
        if (g->block[k] != GUARD_BYTE || g->block[GUARD + g->bytes + k] != GUARD_BYTE)
            fail("a guard byte changed", call);
    if (untouched)
        for (size_t k = 0; k < g->bytes; k++)
            if (g->block[GUARD + k] != FILL_BYTE) fail("a refused call wrote its output", call);
}

/* Built with -DFUZZ_TRACE, each RoPE call prints its status: a seed's author sees what it reaches. */
void trace(const char *call, pe_status st) {
#ifdef FUZZ_TRACE
    fprintf(stderr, "fuzz_api: %s -> %s\n", call, pe_status_name(st));
#else
    (void)call, (void)st;
#endif
}

void guard_free(guarded *g) {
    free(g->block);
}

/* ---- ranges of results --------------------------------------------------- */

void floats_within(const float *v, size_t n, float lo, float hi, const char *call) {
    for (size_t k = 0; k < n; k++)
        if (!(v[k] >= lo && v[k] <= hi)) {
            fprintf(stderr, "fuzz_api: %s: value %zu is %g, outside [%g, %g]\n", call, k, v[k], lo, hi);
            abort();
        }
}

float half_to_float(uint16_t h, int bfloat) {
    if (bfloat) {
        uint32_t bits = (uint32_t)h << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    const int e = (h >> 10) & 31, m = h & 1023;
    const float mag = e == 31 ? (m ? NAN : INFINITY) : e ? ldexpf(1024.0f + m, e - 25) : ldexpf((float)m, -24);
    return h & 0x8000 ? -mag : mag;
}
