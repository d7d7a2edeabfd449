/* fuzz_input.h: what every fuzz target shares: arguments read from the
 * fuzzer's bytes, buffers between guard bytes, range checks and the failure
 * report (abort with what and where). One harness, several files: the
 * targets of each family in a file of their own (fuzz_*.c). */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

/* The rest of the input; reading past its end gives zeros. */
typedef struct bytes {
    const uint8_t *data;
    size_t size;
} bytes;

uint64_t take(bytes *in, int n); /* n <= 8 bytes, little-endian */
uint32_t take_u32(bytes *in);
double take_f64(bytes *in); /* raw bits: NaN, infinities, subnormals included */
/* A size: mostly small or an edge value, sometimes raw; reduced modulo cap + 1 when cap is nonzero. */
uint32_t take_size(bytes *in, uint32_t cap);
/* A position-like number: small, near 2^31, or raw. */
uint32_t take_position(bytes *in);
/* A double: usual, near it, or raw bits. */
double take_double(bytes *in, double usual);
/* An output count: exact most of the time, else off by one or raw. */
size_t take_count(bytes *in, size_t exact);

#define GUARD      64
#define GUARD_BYTE 0xA5
#define FILL_BYTE  0x5C
#define MAX_BYTES  ((size_t)8 << 20) /* the largest buffer a target allocates */

/* bytes of FILL_BYTE between GUARD bytes of GUARD_BYTE on each side; malloc'd (abort when it fails). */
typedef struct guarded {
    uint8_t *block;
    size_t bytes;
} guarded;

void *guard_alloc(guarded *g, size_t bytes);
/* Aborts when a guard byte changed, or (untouched) when the buffer is not all FILL_BYTE any more. */
void guard_check(guarded *g, const char *call, int untouched);
void guard_free(guarded *g);

/* Prints "fuzz_api: call: what" and aborts: libFuzzer saves the input. */
void fail(const char *what, const char *call);
/* Built with -DFUZZ_TRACE: prints each call's status. */
void trace(const char *call, pe_status st);
/* Aborts unless lo <= v[k] <= hi for every k (NaN fails). */
void floats_within(const float *v, size_t n, float lo, float hi, const char *call);
float half_to_float(uint16_t h, int bfloat);

/* fuzz_nulls.c: each pointer argument of every public entry point NULL in turn (once a process). */
void fuzz_null_sweep(void);
/* The targets outside fuzz_api.c. */
void fuzz_relative(bytes *in, int which); /* 0 pe_t5_buckets, 1 pe_t5_bias, 2 pe_shaw_indices */
void fuzz_diagnose(bytes *in);            /* pe_diagnose on raw or generated tables, then its text and JSON */
void fuzz_config(bytes *in);              /* pe_config_read on the rest of the input as config.json text */
/* fuzz_config_check.c: pe_config_read's verdict against a JSON reader of the fuzzer's own; the layer reader. */
void check_json_verdict(const char *json, size_t json_bytes, pe_status st, const char *keys);
/* The fields of an accepted pe_config_read against the fuzzer's own reading of the text (fuzz_config_check.c). */
void check_config_meaning(const char *json, size_t json_bytes, const char *layer, pe_status st, const pe_config *c);
void check_layers(const char *json, size_t json_bytes, int mode, uint32_t range_from, uint32_t range_count);

#endif
