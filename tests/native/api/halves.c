/* halves.c: float16 and bfloat16 by integer arithmetic, independent of the
 * core: round to nearest even from double, and widen back. */
#include "halves.h"
#include "support.h"

const half_format F16 = {10, 15, 0x7C00, 0x0200, "float16"};
const half_format BF16 = {7, 127, 0x7F80, 0x0040, "bfloat16"};

/* x rounded to the format, to nearest with ties to even, for x not NaN: the
 * magnitude as an integer count of the target's ulp, rounded by comparing
 * the dropped bits with one half. (The core adds a bias and shifts; this
 * divides and compares, so the two share no code.) */
uint16_t round_half(double x, const half_format *fmt) {
    const uint64_t bits = double_bits(x);
    const uint16_t sign = (uint16_t)((bits >> 48) & 0x8000u);
    const int biased = (int)((bits >> 52) & 0x7FF);
    if (biased == 0x7FF) return sign | fmt->inf;
    uint64_t m = bits & ((1ull << 52) - 1);
    int e = biased - 1075; /* x = m 2^e */
    if (biased)
        m |= 1ull << 52;
    else
        e = -1074;
    if (m == 0) return sign;
    /* The exponent of x's leading bit, and of the target's ulp there (normal
     * or, below the smallest normal, the subnormal spacing). */
    int lead = e;
    for (uint64_t v = m; v > 1; v >>= 1) lead++;
    const int min_normal = 1 - fmt->bias;
    const int ulp = (lead > min_normal ? lead : min_normal) - fmt->fraction;
    const int drop = ulp - e; /* x / 2^ulp = m / 2^drop */
    uint64_t q;
    if (drop <= 0) {
        q = m << -drop; /* never: the target has fewer bits than double */
    } else if (drop > 60) {
        q = 0; /* below a quarter ulp */
    } else {
        q = m >> drop;
        const uint64_t rest = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
        if (rest > half || (rest == half && (q & 1))) q++;
    }
    /* q counts ulps, implicit bit included: the exponent field starts at 1
     * below the implicit bit, so a carry lands in the exponent by itself. */
    const int exponent_field = (lead > min_normal ? lead : min_normal) + fmt->bias - 1;
    const uint64_t magnitude = ((uint64_t)(exponent_field > 0 ? exponent_field : 0) << fmt->fraction) + q;
    return (uint16_t)(sign | (magnitude >= fmt->inf ? fmt->inf : magnitude));
}

/* The exact value of a finite 16-bit pattern. */
double widen_half(uint16_t h, const half_format *fmt) {
    const int field = (h & 0x7FFF) >> fmt->fraction;
    const uint32_t fraction = h & ((1u << fmt->fraction) - 1);
    double v = field ? (double)(fraction | (1u << fmt->fraction)) : (double)fraction;
    int e = (field ? field : 1) - fmt->bias - fmt->fraction;
    for (; e > 0; e--) v *= 2.0;
    for (; e < 0; e++) v *= 0.5;
    return h & 0x8000 ? -v : v;
}
