/* Double-double arithmetic: a value hi + lo with |lo| <= ulp(hi)/2, about 106
 * bits. Used once per plan for the frequencies, so that w_i and the angles
 * p * w_i keep their last bits up to p = 2^31. Error-free transformations
 * without FMA (Dekker's split), which -ffp-contract=off keeps exact. */
#ifndef PE_DD_H
#define PE_DD_H

typedef struct pe_dd {
    double hi, lo;
} pe_dd;

static inline pe_dd pe_dd_make(double hi, double lo) {
    pe_dd r = {hi, lo};
    return r;
}

/* a + b exactly, for |a| >= |b|. */
static inline pe_dd pe_fast_two_sum(double a, double b) {
    double s = a + b;
    return pe_dd_make(s, b - (s - a));
}

/* a + b exactly. */
static inline pe_dd pe_two_sum(double a, double b) {
    double s = a + b;
    double v = s - a;
    return pe_dd_make(s, (a - (s - v)) + (b - v));
}

/* a * b exactly (no overflow for our magnitudes). */
static inline pe_dd pe_two_prod(double a, double b) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double p = a * b;
    double ta = split * a, tb = split * b;
    double ah = ta - (ta - a), bh = tb - (tb - b);
    double al = a - ah, bl = b - bh;
    return pe_dd_make(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

static inline pe_dd pe_dd_add(pe_dd a, pe_dd b) {
    pe_dd s = pe_two_sum(a.hi, b.hi);
    pe_dd t = pe_two_sum(a.lo, b.lo);
    s = pe_fast_two_sum(s.hi, s.lo + t.hi);
    return pe_fast_two_sum(s.hi, s.lo + t.lo);
}

static inline pe_dd pe_dd_mul(pe_dd a, pe_dd b) {
    pe_dd p = pe_two_prod(a.hi, b.hi);
    return pe_fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

static inline pe_dd pe_dd_mul_d(pe_dd a, double b) {
    pe_dd p = pe_two_prod(a.hi, b);
    return pe_fast_two_sum(p.hi, p.lo + a.lo * b);
}

static inline pe_dd pe_dd_div_d(pe_dd a, double b) {
    double q = a.hi / b;
    pe_dd p = pe_two_prod(q, b);
    double r = ((a.hi - p.hi) - p.lo + a.lo) / b;
    return pe_fast_two_sum(q, r);
}

/* ln x and e^y in double-double, about 100 bits; x finite > 0, y <= 0. */
pe_dd pe_log_dd(double x);
pe_dd pe_exp_dd_nonpositive(pe_dd y);

#endif
