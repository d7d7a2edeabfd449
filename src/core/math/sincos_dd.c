/* sin or cos of a double-double angle, in double-double (math/sincos_dd.h).
 *
 * Reduction: x = n pi/2 + r with n = round(x.hi 2/pi) < 2^32.5 and pi/2 =
 * C1 + C2 + C3 to 163 bits (the rest, 2^-164, times n stays under 2^-130).
 * n C1 and n C2 are exact products (pe_two_prod), x.hi - n C1 an exact sum,
 * and the remaining terms, each under 2^-19, are added in double-double: five
 * additions of error <= 2^-105 (|a| + |b|) with |a|, |b| <= 0.79 give under
 * 2^-102. |r| <= pi/4 + 2^-20.
 *
 * Taylor: sin r = r + r z P(z), cos r = 1 + z Q(z), z = r^2, through r^29 and
 * r^30; the first omitted terms are under 2^-123. The coefficients are the
 * double-doubles nearest 1/k! (relative error 2^-106). Horner in
 * double-double keeps P and Q within 2^-102 relative (each step's product
 * 2^-104, its sum dominated by the coefficient), so r z P (<= 0.081) and z Q
 * (<= 0.31) are within 2^-103, and the last sum adds 2^-104. With the
 * reduction's 2^-102 (sin and cos have slope <= 1) the total is under
 * 2^-100.5; stated as 2^-100. */
#include "math/sincos_dd.h"
#include "math/f64math.h"

#define C1          0x1.921fb54442d18p+0
#define C2          0x1.1a62633145c07p-54
#define C3          (-0x1.f1976b7ed8fbcp-110)
#define TWO_OVER_PI 0x1.45f306dc9c883p-1

/* (-1)^k / (2k+3)!, k = 0 .. 13: S3 ... S29. */
static const double SIN_HI[14] = {-0x1.5555555555555p-3,  0x1.1111111111111p-7,   -0x1.a01a01a01a01ap-13,
                                  0x1.71de3a556c734p-19,  -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,
                                  -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,  -0x1.2f49b46814157p-57,
                                  0x1.71b8ef6dcf572p-66,  -0x1.761b41316381ap-75, 0x1.3f3ccdd165fa9p-84,
                                  -0x1.d1ab1c2dccea3p-94, 0x1.259f98b4358adp-103};
static const double SIN_LO[14] = {-0x1.5555555555555p-57,  0x1.1111111111111p-63,  -0x1.a01a01a01a01ap-73,
                                  -0x1.c154f8ddc6cp-73,    0x1.c062e06d1f209p-80,  0x1.f28e0cc748ebep-87,
                                  -0x1.1d8656b0ee8cbp-97,  0x1.ac981465ddc6cp-103, -0x1.2650f61dbdcb4p-112,
                                  -0x1.d043ae40c4647p-120, 0x1.3423c7d91404fp-130, -0x1.58ddadf344487p-139,
                                  -0x1.054d0c78aea14p-149, 0x1.eaf8c39dd9bc5p-157};
/* (-1)^(k+1) / (2k+2)!, k = 0 .. 14: C2 ... C30. */
static const double COS_HI[15] = {-0x1p-1,
                                  0x1.5555555555555p-5,
                                  -0x1.6c16c16c16c17p-10,
                                  0x1.a01a01a01a01ap-16,
                                  -0x1.27e4fb7789f5cp-22,
                                  0x1.1eed8eff8d898p-29,
                                  -0x1.93974a8c07c9dp-37,
                                  0x1.ae7f3e733b81fp-45,
                                  -0x1.6827863b97d97p-53,
                                  0x1.e542ba4020225p-62,
                                  -0x1.0ce396db7f853p-70,
                                  0x1.f2cf01972f578p-80,
                                  -0x1.88e85fc6a4e5ap-89,
                                  0x1.0a18a2635085dp-98,
                                  -0x1.3932c5047d60ep-108};
static const double COS_LO[15] = {0.0,
                                  0x1.5555555555555p-59,
                                  0x1.f49f49f49f49fp-65,
                                  0x1.a01a01a01a01ap-76,
                                  -0x1.cbbc05b4fa99ap-76,
                                  -0x1.2aec959e14c06p-83,
                                  -0x1.05d6f8a2efd1fp-92,
                                  0x1.1d8656b0ee8cbp-101,
                                  -0x1.eec01221a8b0bp-107,
                                  0x1.ea72b4afe3c2fp-120,
                                  0x1.aebcdbd20331cp-124,
                                  -0x1.9ada5fcc1ab14p-135,
                                  0x1.71c37ebd1654p-143,
                                  0x1.b9e2e28e1aa54p-153,
                                  -0x1.832b7b530a627p-162};

static pe_dd neg(pe_dd a) {
    return pe_dd_make(-a.hi, -a.lo);
}

/* Horner in double-double: c[count-1] ... c[0] at z. */
static pe_dd horner(pe_dd z, const double *hi, const double *lo, int count) {
    pe_dd acc = pe_dd_make(hi[count - 1], lo[count - 1]);
    for (int k = count - 2; k >= 0; k--) acc = pe_dd_add(pe_dd_make(hi[k], lo[k]), pe_dd_mul(z, acc));
    return acc;
}

pe_dd pe_sincos_dd(pe_dd x, int want_cos) {
    const double n = (x.hi * TWO_OVER_PI + PE_ROUND_MAGIC) - PE_ROUND_MAGIC;
    const uint64_t q = (uint64_t)n;
    pe_dd p1 = pe_two_prod(n, C1), p2 = pe_two_prod(n, C2), p3 = pe_two_prod(n, C3);
    pe_dd r = pe_two_sum(x.hi, -p1.hi);
    r = pe_dd_add(r, pe_dd_make(x.lo, 0.0));
    r = pe_dd_add(r, pe_dd_make(-p1.lo, 0.0));
    r = pe_dd_add(r, neg(p2));
    r = pe_dd_add(r, neg(p3));
    /* x = n pi/2 + r: cos x is sin or cos of r by the quadrant (as pe_sincos2). */
    const uint64_t k = q + (uint64_t)want_cos;
    pe_dd z = pe_dd_mul(r, r), v;
    if (k & 1)
        v = pe_dd_add(pe_dd_make(1.0, 0.0), pe_dd_mul(z, horner(z, COS_HI, COS_LO, 15)));
    else
        v = pe_dd_add(r, pe_dd_mul(pe_dd_mul(r, z), horner(z, SIN_HI, SIN_LO, 14)));
    return (k & 2) ? neg(v) : v;
}
