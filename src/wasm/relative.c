/* Wasm exports of the relative family: T5 buckets and bias, Shaw indices
 * (export.h states the conventions). */
#include "export.h"

EXPORT("pe_wasm_t5_buckets")
int pe_wasm_t5_buckets(uint32_t query_length, uint32_t key_length, uint32_t query_offset, uint32_t num_buckets,
                       uint32_t max_distance, int bidirectional, int32_t *out, size_t out_count) {
    pe_t5 t5 = {query_length, key_length, query_offset, num_buckets, max_distance, bidirectional};
    return pe_t5_buckets(&t5, out, out_count);
}

EXPORT("pe_wasm_t5_bias")
int pe_wasm_t5_bias(uint32_t query_length, uint32_t key_length, uint32_t query_offset, uint32_t num_buckets,
                    uint32_t max_distance, int bidirectional, const float *table, size_t table_count, uint32_t heads,
                    uint32_t first_head, uint32_t head_count, float *out, size_t out_count) {
    pe_t5 t5 = {query_length, key_length, query_offset, num_buckets, max_distance, bidirectional};
    return pe_t5_bias(&t5, table, table_count, heads, first_head, head_count, out, out_count);
}

EXPORT("pe_wasm_shaw_indices")
int pe_wasm_shaw_indices(uint32_t query_length, uint32_t key_length, uint32_t query_offset, uint32_t max_relative,
                         int32_t *out, size_t out_count) {
    pe_shaw shaw = {query_length, key_length, query_offset, max_relative};
    return pe_shaw_indices(&shaw, out, out_count);
}
