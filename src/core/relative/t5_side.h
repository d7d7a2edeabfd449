/* Internal: one side of T5's bucketing (keys behind a query, or ahead of it),
 * as a monotone step function of the distance n, summarised by where each
 * bucket starts, so rows are written run by run instead of one log per key. */
#ifndef PE_T5_SIDE_H
#define PE_T5_SIDE_H

#include <stdint.h>

#include "posenc.h"

#define PE_T5_NO_DISTANCE 0xffffffffu /* past every distance (they are below 2^31) */

typedef struct pe_t5_side {
    uint32_t count;     /* buckets on this side: num_buckets / 2 (bidirectional) or num_buckets */
    uint32_t max_exact; /* count / 2: distances below it are their own bucket */
    /* first[v]: the smallest distance whose bucket is >= v, v <= count
     * (first[count] = PE_T5_NO_DISTANCE); first[v] = v below max_exact. */
    uint32_t first[PE_T5_MAX_BUCKETS + 1];
} pe_t5_side;

/* T5's _relative_position_bucket for one side: the bucket of distance n >= 0,
 * with T5's float32 operations (t5_side.c says which). */
int32_t pe_t5_side_bucket(uint32_t count, uint32_t max_distance, uint32_t n);

/* Fills side->first for (count, max_distance); count >= 2, max_distance > count / 2. */
void pe_t5_side_init(pe_t5_side *side, uint32_t count, uint32_t max_distance);

#endif
