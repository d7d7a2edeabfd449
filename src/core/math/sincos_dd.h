/* sin and cos in double-double: the slow, exact path that settles the rare
 * table values lying too close to a rounding midpoint for the fast path to
 * decide (sinusoid/settle.c). About 30 times the cost of pe_sincos2. */
#ifndef PE_SINCOS_DD_H
#define PE_SINCOS_DD_H

#include "math/dd.h"

/* |error| <= 2^-100 absolute for sin and for cos (derived in sincos_dd.c,
 * restated by tests/native/math/bounds.c against __float128); domain: an
 * angle x.hi + x.lo with 0 <= x.hi < 2^33 and |x.lo| <= ulp(x.hi), taken as
 * exact. want_cos 0 gives sin(x), 1 gives cos(x): only the one asked for is
 * computed. */
pe_dd pe_sincos_dd(pe_dd x, int want_cos);

#endif
