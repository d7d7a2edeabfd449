/* Double-double arithmetic: a value hi + lo with |lo| <= ulp(hi)/2, about 106
 * bits. Used once per plan for the frequencies, so that w_i and the angles
 * p * w_i keep their last bits up to p = 2^31. Error-free transformations
 * without FMA (Dekker's split), which -ffp-contract=off keeps exact. Every
 * operand is finite, with magnitudes between 2^-900 and 2^900 (no overflow,
 * no underflow of a lo part). The bounds are measured against __float128 by
 * tests/native/math/bounds.c. */
#ifndef PE_DD_H
#define PE_DD_H

typedef struct pe_dd {
    double hi, lo;
} pe_dd;

static inline pe_dd pe_dd_make(double hi, double lo) {
    pe_dd r = {hi, lo};
    return r;
}

/* Exact: hi + lo = a + b, hi = fl(a + b); domain |a| >= |b| (or a = 0). */
static inline pe_dd pe_fast_two_sum(double a, double b) {
    double s = a + b;
    return pe_dd_make(s, b - (s - a));
}

/* Exact: hi + lo = a + b, hi = fl(a + b); any order. */
static inline pe_dd pe_two_sum(double a, double b) {
    double s = a + b;
    double v = s - a;
    return pe_dd_make(s, (a - (s - v)) + (b - v));
}

/* Exact: hi + lo = a * b, hi = fl(a * b); domain |a|, |b| < 2^996 / 2^27
 * (the split must not overflow) and |a * b| >= 2^-969 (lo not subnormal). */
static inline pe_dd pe_two_prod(double a, double b) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double p = a * b;
    double ta = split * a, tb = split * b;
    double ah = ta - (ta - a), bh = tb - (tb - b);
    double al = a - ah, bl = b - bh;
    return pe_dd_make(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

/* |error| <= 2^-105 (|a| + |b|) (1.4 * 2^-106 measured, any signs). a + b. */
static inline pe_dd pe_dd_add(pe_dd a, pe_dd b) {
    pe_dd s = pe_two_sum(a.hi, b.hi);
    pe_dd t = pe_two_sum(a.lo, b.lo);
    s = pe_fast_two_sum(s.hi, s.lo + t.hi);
    return pe_fast_two_sum(s.hi, s.lo + t.lo);
}

/* Relative error <= 2^-104 (2.9 * 2^-106 measured). a * b. */
static inline pe_dd pe_dd_mul(pe_dd a, pe_dd b) {
    pe_dd p = pe_two_prod(a.hi, b.hi);
    return pe_fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

/* Relative error <= 2^-105 (1.5 * 2^-106 measured). a * b for a double b. */
static inline pe_dd pe_dd_mul_d(pe_dd a, double b) {
    pe_dd p = pe_two_prod(a.hi, b);
    return pe_fast_two_sum(p.hi, p.lo + a.lo * b);
}

/* Relative error <= 2^-104 (2.3 * 2^-106 measured); b != 0. a / b. */
static inline pe_dd pe_dd_div_d(pe_dd a, double b) {
    double q = a.hi / b;
    pe_dd p = pe_two_prod(q, b);
    double r = ((a.hi - p.hi) - p.lo + a.lo) / b;
    return pe_fast_two_sum(q, r);
}

/* |error| <= 2^-103 max(1, ln x) (4.4 * 2^-106 measured); domain 1 <= x <=
 * e^670 (the bases; below 1 it would need e^y for y > 0). ln x. */
pe_dd pe_log_dd(double x);
/* Relative error <= 2^-102 (7 * 2^-106 measured); domain -670 <= y <= 0
 * (further down the lo part underflows and the result keeps fewer bits;
 * 0 below -745.2). e^y. */
pe_dd pe_exp_dd_nonpositive(pe_dd y);

#endif
