/* T5's bucket of a distance, operation for operation as T5 computes it, and
 * where each bucket starts. HF transformers' T5Attention.
 * _relative_position_bucket (modeling_t5.py; mesh-tensorflow's
 * _relative_position_bucket is the same computation), for one side with
 * `count` buckets, max_exact = count // 2 and n >= 0:
 *
 *     is_small = n < max_exact                      -> bucket n
 *     large    = max_exact + long(log(float(n) / max_exact)
 *                                 / math.log(max_distance / max_exact)
 *                                 * (count - max_exact))
 *     bucket   = min(large, count - 1)
 *
 * in float32, one rounding per operation: float(n) rounds above 2^24; the
 * division by max_exact, the log (correctly rounded, log_f32.c), the division
 * by the float32 constant log(max_distance / max_exact) (Python computes it in
 * double, torch rounds it to float32), the product by count - max_exact; then
 * truncation toward zero (the quotient is >= 0). The bucket never decreases
 * with n, which the run tables (first[]) rely on. */
#include "relative/t5_side.h"

#include "math/f64math.h"
#include "relative/relative_kernels.h"

int32_t pe_t5_side_bucket(uint32_t count, uint32_t max_distance, uint32_t n) {
    const uint32_t max_exact = count / 2;
    if (n < max_exact) return (int32_t)n;
    const float log_ratio = (float)pe_log((double)max_distance / (double)max_exact);
    const float ratio = (float)n / (float)max_exact;
    const float scaled = pe_relative_log_f32(ratio) / log_ratio * (float)(count - max_exact);
    /* scaled < 2^23 (log(2^31) / log(1 + 2^-9) * 2^9 for 1024 buckets), and >= 0. */
    const int64_t large = (int64_t)max_exact + (int64_t)scaled;
    return large < (int64_t)count - 1 ? (int32_t)large : (int32_t)count - 1;
}

void pe_t5_side_init(pe_t5_side *side, uint32_t count, uint32_t max_distance) {
    side->count = count;
    side->max_exact = count / 2;
    for (uint32_t v = 0; v < side->max_exact; v++) side->first[v] = v;
    side->first[count] = PE_T5_NO_DISTANCE;
    /* Each later start by bisection over [previous start, 2^31): about 31
     * bucket evaluations per bucket, since the bucket never decreases. */
    uint32_t lo = side->max_exact;
    for (uint32_t v = side->max_exact; v < count; v++) {
        uint32_t a = lo, b = PE_MAX_POSITION; /* invariant: bucket(a - 1) < v when a > lo; answer in [a, b] */
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (pe_t5_side_bucket(count, max_distance, mid) >= (int32_t)v)
                b = mid;
            else
                a = mid + 1;
        }
        side->first[v] = a == PE_MAX_POSITION ? PE_T5_NO_DISTANCE : a;
        if (a != PE_MAX_POSITION) lo = a;
    }
}
