/* Internal: the slow path that makes every table value correctly rounded.
 *
 * The recurrence's float64 y is within PE_FAST_BOUND (sinusoid/plan.h) of the
 * exact value, so it rounds like the exact value unless a rounding midpoint
 * lies within that bound of y. Those values (about 1 in 1300) are recomputed
 * here from their position alone, in two steps:
 *
 *   medium  pe_sincos2 of the angle p * w_i in double-double: within 2^-52
 *           plus the angle's error; decides all but about 1 value in 10^6 (the
 *           smallest values, whose midpoints lie closer than 2^-52);
 *   exact   pe_sincos_dd (math/sincos_dd.h): within 2^-100 plus the angle's
 *           error, p w_i times w_i's relative error (i * w_err_step, under
 *           2^-85 for any dim) and 2^-104.
 *
 * A step decides when the midpoint nearest its value is farther than its
 * bound. What the exact step cannot decide (its value within its bound of a
 * midpoint; the bound is under 2^-66 for d = 512, T = 10^4 up to 2^31, so
 * at most about one value in 10^12; none in the exhaustive check,
 * tests/oracle/exhaustive/) is rounded from its double-double value: no more
 * precise path exists.
 *
 * Results depend only on (plan's w_i, position, column): every kernel and
 * build gets the same bits. */
#ifndef PE_SETTLE_H
#define PE_SETTLE_H

#include <stdint.h>

#include "sinusoid/plan.h"

/* Column j of the plan's layout at position p (< 2^31), rounded once to float32. */
float pe_settle_f32(const pe_plan *plan, uint32_t p, uint32_t j);

/* The same rounded once to float16 or bfloat16 (dtype), returned widened to
 * float64 (exact), so that narrowing it gives it back. */
double pe_settle_16(const pe_plan *plan, uint32_t p, uint32_t j, pe_dtype dtype);

/* rows float64 rows at out (stride doubles apart; row r at position first + r,
 * dim columns in the plan's layout) made safe to narrow to dtype (float16 or
 * bfloat16): every value within PE_FAST_BOUND of one of its midpoints is
 * replaced by pe_settle_16's. Other dtypes: nothing. */
void pe_settle_rows_16(const pe_plan *plan, pe_dtype dtype, uint32_t first, uint32_t rows, double *out, size_t stride);

/* The rule behind w_err_step: relative error of the plan's w_i (a running
 * double-double product, plan.c) for a base T, dim/2 pairs and span. */
double pe_settle_w_err_step(double log_base, double span);

#endif
