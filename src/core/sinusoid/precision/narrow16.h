/* Internal: the two 16-bit formats as parameters of one rounding rule.
 * A format has T fraction bits and exponent bias B (IEEE-style: subnormals,
 * infinities, NaN). From a float64 with magnitude bits a (sign cleared):
 *
 *   a > +inf                 NaN: quiet, sign kept
 *   a >= INF_FROM            infinity: the midpoint past the largest finite
 *                            value and above (ties go to the even infinity)
 *   a >= MIN_NORMAL          normal: drop 52 - T fraction bits with rounding,
 *                            re-bias the exponent (a mantissa carry moves into
 *                            the exponent, as it should)
 *   below                    subnormal or zero: the integer nearest
 *                            |x| / 2^(1 - B - T), ties to even */
#ifndef PE_NARROW16_H
#define PE_NARROW16_H

#include <stdint.h>

#define PE_F16_FRACTION  10u
#define PE_F16_BIAS      15u
#define PE_BF16_FRACTION 7u
#define PE_BF16_BIAS     127u

#define PE_F64_INF_BITS      0x7ff0000000000000ull
#define PE_F64_FRACTION_MASK 0x000fffffffffffffull
#define PE_F64_IMPLICIT      (1ull << 52)

/* Smallest normal: 2^(1 - B). */
#define PE_MIN_NORMAL_BITS(bias) ((uint64_t)(1024u - (bias)) << 52)
/* 2^(B + 1) minus half an ulp of the largest finite value. */
#define PE_INF_FROM_BITS(t, bias) (((uint64_t)(1024u + (bias)) << 52) - (1ull << (51u - (t))))
/* The narrow infinity and quiet NaN. */
#define PE_NARROW_INF(t, bias) ((uint64_t)(2u * (bias) + 1u) << (t))
#define PE_NARROW_NAN(t, bias) (PE_NARROW_INF(t, bias) | (1ull << ((t)-1u)))
/* Subtracted from the float64 exponent field after the shift: (1023 - B) << T. */
#define PE_REBIAS(t, bias) ((uint64_t)(1023u - (bias)) << (t))

#endif
