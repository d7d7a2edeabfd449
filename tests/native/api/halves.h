/* halves.h: the test's own float16 and bfloat16 (halves.c). */
#ifndef BEYOND_HALVES_H
#define BEYOND_HALVES_H

#include <stdint.h>

/* The format of a 16-bit float: fraction bits and exponent bias. */
typedef struct {
    int fraction, bias;
    uint16_t inf, quiet;
    const char *name;
} half_format;

extern const half_format F16, BF16;

/* x rounded to nearest, ties to even, in fmt's bits. */
uint16_t round_half(double x, const half_format *fmt);
/* The double a 16-bit pattern stands for. */
double widen_half(uint16_t h, const half_format *fmt);

#endif
