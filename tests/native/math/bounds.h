/* The bounds the headers state, restated here (units as printed by bounds.c):
 * a change to a routine that breaks one fails this test rather than quietly
 * changing a number the header still claims. */
#ifndef MATH_BOUNDS_H
#define MATH_BOUNDS_H

#define PE_SINCOS_BOUND    2.0      /* math/f64math.h pe_sincos2: |error| <= 2^-52 */
#define PE_LOG_BOUND_ULP   2.5      /* math/f64math.h pe_log: 2.5 ulp */
#define PE_EXP_BOUND_ULP   1.5      /* math/f64math.h pe_exp_nonpositive: 1.5 ulp */
#define PE_DD_ADD_BOUND    2.0      /* math/dd.h pe_dd_add: 2^-105 (|a| + |b|) absolute */
#define PE_DD_MUL_BOUND    4.0      /* math/dd.h pe_dd_mul: 2^-104 relative */
#define PE_DD_MUL_D_BOUND  2.0      /* math/dd.h pe_dd_mul_d: 2^-105 relative */
#define PE_DD_DIV_BOUND    4.0      /* math/dd.h pe_dd_div_d: 2^-104 relative */
#define PE_LOG_DD_BOUND    8.0      /* math/dd.h pe_log_dd: 2^-103 max(1, ln x) absolute */
#define PE_EXP_DD_BOUND    16.0     /* math/dd.h pe_exp_dd_nonpositive: 2^-102 relative */
#define PE_FREQ_DD_BOUND   262144.0 /* sinusoid/plan.h pe_encoding_frequencies_dd: 2^-88 relative */
#define PE_ANCHOR_BOUND    2.0      /* sinusoid/plan.h anchor: |error| <= 2^-52 */
#define PE_SEED_BOUND      32.0     /* sinusoid/plan.h seeded rows: |error| <= 2^-48 */
#define PE_SINCOS_DD_BOUND 1.0      /* math/sincos_dd.h pe_sincos_dd: |error| <= 2^-100 */

#endif
