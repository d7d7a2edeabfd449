/* ln and exp in double-double (see dd.h), for the frequencies: once per plan. */
#include <string.h>

#include "math/dd.h"
#include "math/f64math.h"

/* ln 2 = L1 + L2 + L3 to about 150 bits; L1 has 42 bits, so k * L1 is exact
 * for |k| < 2^11. */
#define PE_LN2_1   0x1.62e42fefa3800p-1
#define PE_LN2_2   0x1.ef35793c76730p-45
#define PE_LN2_3   0x1.f97b57a079a19p-103
#define PE_INV_LN2 0x1.71547652b82fep+0

/* x * 2^k without overflow or double rounding for the k we meet. */
static double scale2(double x, int k) {
    while (k < -1000) {
        x *= 0x1p-1000;
        k += 1000;
    }
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double p;
    memcpy(&p, &bits, sizeof p);
    return x * p;
}

pe_dd pe_exp_dd_nonpositive(pe_dd y) {
    if (y.hi < -745.2) return pe_dd_make(0.0, 0.0);
    /* y = k ln2 + r, |r| <= ln2/2 + tiny, r in double-double. */
    double kd = (y.hi * PE_INV_LN2 - PE_ROUND_MAGIC) + PE_ROUND_MAGIC;
    pe_dd r = pe_dd_add(y, pe_dd_make(-kd * PE_LN2_1, 0.0)); /* exact product */
    r = pe_dd_add(r, pe_two_prod(-kd, PE_LN2_2));
    r = pe_dd_add(r, pe_dd_make(-kd * PE_LN2_3, 0.0));
    /* e^r by Taylor: term 27 is below 1e-40. */
    pe_dd sum = pe_dd_make(1.0, 0.0), term = pe_dd_make(1.0, 0.0);
    for (int n = 1; n <= 27; n++) {
        term = pe_dd_div_d(pe_dd_mul(term, r), (double)n);
        sum = pe_dd_add(sum, term);
    }
    int k = (int)kd;
    return pe_dd_make(scale2(sum.hi, k), scale2(sum.lo, k));
}

pe_dd pe_log_dd(double x) {
    /* One Newton step from the double log: y + (x e^-y - 1) - (x e^-y - 1)^2 / 2. */
    double y = pe_log(x);
    pe_dd t = pe_dd_add(pe_dd_mul_d(pe_exp_dd_nonpositive(pe_dd_make(-y, 0.0)), x), pe_dd_make(-1.0, 0.0));
    pe_dd r = pe_dd_add(pe_dd_make(y, 0.0), t);
    return pe_dd_add(r, pe_dd_make(-0.5 * t.hi * t.hi, 0.0));
}
