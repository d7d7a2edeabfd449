/* Shaw et al.'s clipped relative positions (posenc.h states the convention):
 * a row is a run of 0, a ramp, and a run of 2k. */
#include "common/check.h"
#include "relative/relative_kernels.h"

pe_status pe_shaw_indices(const pe_shaw *shaw, int32_t *out, size_t out_count) {
    if (!shaw) return PE_ERR_NULL;
    if (shaw->max_relative > PE_SHAW_MAX_RELATIVE) return PE_ERR_MAX_RELATIVE;
    if (shaw->key_length > PE_MAX_POSITION || (uint64_t)shaw->query_offset + shaw->query_length > PE_MAX_POSITION) {
        return PE_ERR_POSITION;
    }
    size_t need;
    pe_status st = pe_check_product(shaw->query_length, shaw->key_length, &need);
    if (st != PE_OK) return st;
    if (out_count != need) return PE_ERR_OUT_SIZE;
    if (need == 0) return PE_OK;
    if (!out) return PE_ERR_NULL;

    const pe_kernel_table *k = pe_kernel_table_current();
    const int64_t keys = shaw->key_length, clip = shaw->max_relative;
    for (uint32_t i = 0; i < shaw->query_length; i++) {
        int32_t *row = out + (size_t)i * shaw->key_length;
        const int64_t q = (int64_t)shaw->query_offset + i;
        /* Keys [0, low) are clip or more behind (index 0); [high, keys) clip or more ahead (2 clip). */
        int64_t low = q - clip + 1, high = q + clip;
        if (low < 0) low = 0;
        if (low > keys) low = keys;
        if (high > keys) high = keys;
        if (high < low) high = low;
        k->fill32((uint32_t *)row, (size_t)low, 0);
        k->ramp_i32(row + low, (size_t)(high - low), (int32_t)(low - q + clip), 1);
        k->fill32((uint32_t *)row + high, (size_t)(keys - high), (uint32_t)(2 * clip));
    }
    return PE_OK;
}
