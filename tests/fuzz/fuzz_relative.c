/* fuzz_relative.c: the relative-position targets. T5 buckets must lie in
 * [0, B), give each distance below B / 2 (a side's exact range, halved again
 * when bidirectional) a bucket of its own and never fall as the distance
 * grows on a side; T5's bias must be the learned table's entry at that
 * bucket, bit for bit; Shaw's indices must be clip(j - q, -k, k) + k. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

/* One row of buckets, query at key position q: range, exact range, growth on each side. */
static void check_t5_row(const pe_t5 *t5, const int32_t *row, uint32_t q, const char *call) {
    const uint32_t half = t5->bidirectional ? t5->num_buckets / 2 : t5->num_buckets, exact = half / 2;
    int64_t behind_last = -1, ahead_last = -1;
    for (uint32_t j = 0; j < t5->key_length; j++) {
        const int32_t b = row[j];
        if (b < 0 || (uint32_t)b >= t5->num_buckets) fail("a bucket outside [0, B)", call);
        const int ahead = j > q;
        const uint64_t n = ahead ? (uint64_t)j - q : (uint64_t)q - j;
        if (ahead && !t5->bidirectional) {
            if (b != 0) fail("a causal bucket for a key ahead is not 0", call);
            continue;
        }
        const int64_t side = ahead ? (int64_t)b - half : b;
        if (side < 0 || side >= half) fail("a bucket outside its side", call);
        if (n < exact && side != (int64_t)n) fail("a distance below the exact range has not its own bucket", call);
        if (ahead) {
            /* keys ahead come in order of growing distance */
            if (side < ahead_last) fail("a bucket falls as the distance grows (ahead)", call);
            ahead_last = side;
        }
    }
    /* keys behind: walk from the query outwards */
    for (uint32_t j = q < t5->key_length ? q + 1 : t5->key_length; j-- > 0;) {
        if (row[j] < behind_last) fail("a bucket falls as the distance grows (behind)", call);
        behind_last = row[j];
    }
}

void fuzz_relative(bytes *in, int which) {
    const char *call = which == 0 ? "pe_t5_buckets" : which == 1 ? "pe_t5_bias" : "pe_shaw_indices";
    guarded out_g, table_g, buckets_g;
    memset(&table_g, 0, sizeof table_g);
    memset(&buckets_g, 0, sizeof buckets_g);
    pe_status st;
    if (which == 2) {
        const pe_shaw shaw = {take_size(in, 96), take_size(in, 96), take_position(in), take_size(in, 0)};
        const size_t exact = (size_t)shaw.query_length * shaw.key_length, count = take_count(in, exact);
        if (count > (1u << 20)) return;
        int32_t *out = guard_alloc(&out_g, count * sizeof(int32_t));
        st = pe_shaw_indices(&shaw, out, count);
        guard_check(&out_g, call, st != PE_OK);
        if (st == PE_OK)
            for (uint32_t i = 0; i < shaw.query_length; i++)
                for (uint32_t j = 0; j < shaw.key_length; j++) {
                    const int64_t k = shaw.max_relative, r = (int64_t)j - ((int64_t)shaw.query_offset + i);
                    if (out[(size_t)i * shaw.key_length + j] != (r < -k ? -k : r > k ? k : r) + k)
                        fail("an index is not clip(j - q, -k, k) + k", call);
                }
        guard_free(&out_g);
        return;
    }
    const pe_t5 t5 = {take_size(in, 96), take_size(in, 96), take_position(in),
                      take_size(in, 0),  take_size(in, 0),  (int)(take(in, 1) & 1)};
    const size_t cells = (size_t)t5.query_length * t5.key_length;
    /* the buckets, always: what the bias must follow */
    int32_t *buckets = guard_alloc(&buckets_g, cells * sizeof(int32_t));
    const pe_status bucket_st = pe_t5_buckets(&t5, buckets, cells);
    guard_check(&buckets_g, "pe_t5_buckets", bucket_st != PE_OK);
    if (bucket_st == PE_OK)
        for (uint32_t i = 0; i < t5.query_length; i++)
            check_t5_row(&t5, buckets + (size_t)i * t5.key_length, t5.query_offset + i, "pe_t5_buckets");
    if (which == 0) {
        /* a count off by one or a raw one must be refused untouched */
        const size_t count = take_count(in, cells);
        if (count <= (1u << 20)) {
            int32_t *out = guard_alloc(&out_g, count * sizeof(int32_t));
            st = pe_t5_buckets(&t5, out, count);
            guard_check(&out_g, call, st != PE_OK);
            if (st == PE_OK && memcmp(out, buckets, cells * sizeof(int32_t)) != 0)
                fail("the buckets differ from call to call", call);
            guard_free(&out_g);
        }
        guard_free(&buckets_g);
        return;
    }
    const uint32_t heads = take_size(in, 64), first = take_size(in, 0), count_heads = take_size(in, 64);
    const size_t table_count = take_count(in, (size_t)t5.num_buckets * heads);
    if (table_count > (1u << 20)) {
        guard_free(&buckets_g);
        return;
    }
    float *table = guard_alloc(&table_g, table_count * sizeof(float));
    for (size_t k = 0; k < table_count; k++) table[k] = (float)(int16_t)take(in, 2) / 64.0f;
    const size_t count = take_count(in, (size_t)count_heads * cells);
    if (count > (1u << 20)) {
        guard_free(&buckets_g);
        guard_free(&table_g);
        return;
    }
    float *out = guard_alloc(&out_g, count * sizeof(float));
    st = pe_t5_bias(&t5, table, table_count, heads, first, count_heads, out, count);
    guard_check(&out_g, call, st != PE_OK);
    guard_check(&table_g, call, 0);
    if (st == PE_OK) {
        if (bucket_st != PE_OK) fail("the bias accepted what the buckets refused", call);
        for (uint32_t h = 0; h < count_heads; h++)
            for (size_t c = 0; c < cells; c++)
                if (memcmp(&out[h * cells + c], &table[(size_t)buckets[c] * heads + first + h], sizeof(float)))
                    fail("a bias is not the table's entry at its bucket", call);
    }
    guard_free(&out_g);
    guard_free(&table_g);
    guard_free(&buckets_g);
}
