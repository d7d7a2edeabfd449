/* ALiBi: the per-head slopes of the paper's get_slopes(), and the bias
 * tensor built from them (posenc.h states the conventions). */
#include <math.h>
#include <string.h>

#include "alibi/alibi_kernels.h"
#include "common/check.h"
#include "common/kernel_table.h"
#include "math/f64math.h"

#define PE_LN2 0x1.62e42fefa39efp-1

/* 2^(-num/den) for den a power of two and 0 < num/den <= 8: num/den = w + f
 * with w whole, so 2^-w is exact and only e^(-f ln 2) is approximated (about
 * 3e-16 relative: ln 2 and the product each round once, exp adds an ulp). */
static double pow2_neg(uint32_t num, uint32_t den) {
    double v = pe_exp_nonpositive(-((double)(num % den) / (double)den * PE_LN2));
    for (uint32_t w = num / den; w > 0; w--) v *= 0.5;
    return v;
}

/* Slope of head h of n, as get_slopes(n) orders them: with P the largest
 * power of two <= n, heads below P take P's geometric sequence 2^(-8k/P),
 * the rest take the odd-numbered terms of 2P's, 2^(-8(2k+1)/2P). */
static float slope(uint32_t h, uint32_t heads) {
    uint32_t p = 1;
    while (p <= heads / 2) p *= 2;
    if (h < p) return (float)pow2_neg(8 * (h + 1), p);
    return (float)pow2_neg(4 * (2 * (h - p) + 1), p);
}

pe_status pe_alibi_slopes(uint32_t heads, float *out, size_t out_count) {
    if (heads == 0 || heads > PE_MAX_HEADS) return PE_ERR_HEADS;
    if (out_count != heads) return PE_ERR_OUT_SIZE;
    if (!out) return PE_ERR_NULL;
    for (uint32_t h = 0; h < heads; h++) out[h] = slope(h, heads);
    return PE_OK;
}

/* One query row: keys 0 .. q are q - j behind, keys after q are j - q ahead. */
static void bias_row(float *row, pe_alibi_ramp_fn ramp, double m, uint32_t q, uint32_t keys, int causal) {
    size_t behind = q < keys ? (size_t)q + 1 : keys;
    ramp(row, behind, m, (double)q, -1.0);
    if (causal) {
        for (size_t j = behind; j < keys; j++) row[j] = -INFINITY;
    } else {
        ramp(row + behind, keys - behind, m, 1.0, 1.0);
    }
}

/* The value at each of the distances d0 ... d0 + count - 1 (key minus query,
 * whole numbers, |d| below 2^24): 0 - m|d|, or, causal, -infinity for the
 * keys ahead (d > 0). */
static void distance_values(float *v, size_t count, const pe_kernel_table *k, float m, float d0, int causal) {
    size_t computed = count;
    if (causal) {
        computed = d0 > 0.0f ? 0 : (size_t)(-d0) + 1; /* d0 ... 0 */
        if (computed > count) computed = count;
    }
    k->alibi_rows(v, 1, computed, computed, m, d0);
    k->fill32((uint32_t *)(void *)(v + computed), count - computed, 0xff800000u); /* -infinity */
}

/* Rows copied a block at a time: row q + s is row q moved s keys to the
 * right (key j of query q + s is as far, and as far ahead or behind, as key
 * j - s of query q), so one copy of the s rows before a block of s rows
 * writes all of the block but its first s keys of each row, which alibi_rows
 * computes after it. A head computes its first row, then copies blocks of 1,
 * 2, 4, 8 rows, then of SHIFT_ROWS rows: copy and source then sit 64 bytes
 * times (keys + 1) apart, the same place in a cache line, which is what makes
 * the C library's copy fast (issue 29: 8 rows apart, 32 bytes, took 1.4-1.8x
 * as long; each row copied from a ramp, its place in a line changing from row
 * to row, 1.2x). A copy is memcpy, and in wasm one memory.copy, which the
 * engine runs as the C library's memmove. */
#define SHIFT_ROWS 16
/* Heads of rows of at least this many keys are copied: the copy and the
 * first keys computed cost less than every key computed from 64 keys up. */
#define COPY_MIN_KEYS 64

/* One head's query rows q0 ..., every key computed, or, causal, the keys up
 * to q computed and the later ones masked. */
static void computed_rows(float *out, const pe_kernel_table *k, float m, uint32_t q0, uint32_t queries, uint32_t keys,
                          int causal) {
    if (!causal) {
        k->alibi_rows(out, queries, keys, keys, m, -(float)q0);
        return;
    }
    /* Row i holds the distances -(q0 + i) ... keys - 1 - (q0 + i). */
    for (uint32_t i = 0; i < queries; i++) distance_values(out + (size_t)i * keys, keys, k, m, -(float)(q0 + i), 1);
}

/* One head's query rows q0 ... when every distance is below 2^24
 * (alibi_rows' contract): the first computed, the rest copied a block at a
 * time from the rows above when rows are wide enough. */
static void exact_rows(float *out, const pe_kernel_table *k, float m, uint32_t q0, uint32_t queries, uint32_t keys,
                       int causal) {
    if (keys < COPY_MIN_KEYS) {
        computed_rows(out, k, m, q0, queries, keys, causal);
        return;
    }
    computed_rows(out, k, m, q0, queries < 1 ? queries : 1, keys, causal);
    for (uint32_t r = 1, s = 1; r < queries; r += s, s = s < SHIFT_ROWS ? 2 * s : s) {
        /* Rows r ... r + s - 1 from rows r - s ... (r = s while s doubles). */
        const uint32_t rows = queries - r < s ? queries - r : s;
        float *block = out + (size_t)r * keys;
        /* From key s of row r to the block's end; the source ends s floats
         * before row r, so the two never overlap. */
        memcpy(block + s, block - (size_t)s * keys, ((size_t)rows * keys - s) * sizeof(float));
        /* Keys 0 ... s - 1, all behind their query (q >= r >= s), so never
         * masked: the copy left each row the previous row's end. */
        k->alibi_rows(block, rows, s, keys, m, -(float)(q0 + r));
    }
}

pe_status pe_alibi_bias(const pe_alibi *alibi, uint32_t first_head, uint32_t head_count, float *out, size_t out_count) {
    if (!alibi) return PE_ERR_NULL;
    const uint32_t heads = alibi->heads, queries = alibi->query_length, keys = alibi->key_length;
    if (heads == 0 || heads > PE_MAX_HEADS) return PE_ERR_HEADS;
    if ((uint64_t)first_head + head_count > heads) return PE_ERR_HEADS;
    if (keys > PE_MAX_POSITION || (uint64_t)alibi->query_offset + queries > PE_MAX_POSITION) {
        return PE_ERR_POSITION;
    }
    size_t plane, need;
    pe_status st = pe_check_product(queries, keys, &plane);
    if (st != PE_OK) return st;
    if ((st = pe_check_product(plane, head_count, &need)) != PE_OK) return st;
    if (out_count != need) return PE_ERR_OUT_SIZE;
    if (need == 0) return PE_OK;
    if (!out) return PE_ERR_NULL;

    const pe_kernel_table *k = pe_kernel_table_current();
    if ((double)keys <= PE_ALIBI_ROW_EXACT && (double)alibi->query_offset + queries <= PE_ALIBI_ROW_EXACT) {
        for (uint32_t h = 0; h < head_count; h++)
            exact_rows(out + h * plane, k, slope(first_head + h, heads), alibi->query_offset, queries, keys,
                       alibi->causal);
        return PE_OK;
    }
    for (uint32_t h = 0; h < head_count; h++) {
        const double m = slope(first_head + h, heads);
        float *first = out + h * plane;
        bias_row(first, k->alibi_ramp, m, alibi->query_offset, keys, alibi->causal);
        /* Row i is row i - 1 one key to the right (key j of query q + 1 is as
         * far as key j - 1 of query q), after its key 0, which is behind. */
        for (uint32_t i = 1; i < queries; i++) {
            float *row = first + (size_t)i * keys;
            k->alibi_ramp(row, 1, m, (double)(alibi->query_offset + i), -1.0);
            memcpy(row + 1, row - keys, (size_t)(keys - 1) * sizeof(float));
        }
    }
    return PE_OK;
}
