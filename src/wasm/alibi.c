/* Wasm exports of ALiBi: slopes and the bias tensor (export.h states the
 * conventions). */
#include "export.h"

EXPORT("pe_wasm_alibi_slopes")
int pe_wasm_alibi_slopes(uint32_t heads, float *out, size_t out_count) {
    return pe_alibi_slopes(heads, out, out_count);
}

EXPORT("pe_wasm_alibi_bias")
int pe_wasm_alibi_bias(uint32_t heads, uint32_t query_length, uint32_t key_length, uint32_t query_offset, int causal,
                       uint32_t first_head, uint32_t head_count, float *out, size_t out_count) {
    pe_alibi alibi = {heads, query_length, key_length, query_offset, causal};
    return pe_alibi_bias(&alibi, first_head, head_count, out, out_count);
}
