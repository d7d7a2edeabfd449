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

/* Floats of the stack ramp that copied_rows copies from (32 KiB): a row of
 * up to 8129 keys is one copy (8 x 2048 x 4096 copied in two pieces a row ran
 * 0.94-0.97x the computed rows, copied whole 0.72-0.82x). */
#define RAMP_FLOATS 8192
/* The fewest rows a ramp serves: it costs a row and a tile's width to make. */
#define RAMP_MIN_ROWS 64
/* Heads of at least this many rows of at least this many keys are copied:
 * narrower or fewer, a copy a row costs more than computing it. */
#define COPY_MIN_KEYS 256
#define COPY_MIN_ROWS 16

/* One head's query rows q0 ... as copies of one ramp: the keys of a row are
 * a run of consecutive distances, and the run of row i + 1 starts one lower,
 * so every row of a tile of rows and keys is a slice of the ramp of the
 * tile's distances. A copy is memcpy, and in wasm one memory.copy, which the
 * engine runs as the C library's memmove, whose stores cost less than
 * v128.store's for rows of 1024 keys and more (issue 11: the bench's 32 x 2048
 * x 2048 bias from 0.97-1.0x a v128.store loop computed to 0.84-0.93x copied;
 * the same at 512 keys). The same values as computed rows: each is made once
 * by alibi_rows from the same slope and distance. */
static void copied_rows(float *out, const pe_kernel_table *k, float m, uint32_t q0, uint32_t queries, uint32_t keys,
                        int causal) {
    float ramp[RAMP_FLOATS];
    /* Key tiles of equal width, as few as leave a ramp RAMP_MIN_ROWS rows. */
    const uint32_t widest = RAMP_FLOATS + 1 - RAMP_MIN_ROWS, tiles = (keys + widest - 1) / widest;
    const uint32_t width = (keys + tiles - 1) / tiles, tall = RAMP_FLOATS + 1 - width;
    for (uint32_t i0 = 0; i0 < queries; i0 += tall) {
        const uint32_t rows = queries - i0 < tall ? queries - i0 : tall;
        for (uint32_t j0 = 0; j0 < keys; j0 += width) {
            const uint32_t w = keys - j0 < width ? keys - j0 : width;
            /* The tile's lowest distance: its first key from its last query. */
            const double low = (double)j0 - ((double)q0 + i0 + rows - 1);
            distance_values(ramp, (size_t)rows + w - 1, k, m, (float)low, causal);
            for (uint32_t i = 0; i < rows; i++)
                memcpy(out + (size_t)(i0 + i) * keys + j0, ramp + (rows - 1 - i), (size_t)w * sizeof(float));
        }
    }
}

/* One head's query rows q0 ... when every distance is below 2^24
 * (alibi_rows' contract): all computed, or, causal, the keys up to q
 * computed and the later ones masked; or copied (copied_rows). */
static void exact_rows(float *out, const pe_kernel_table *k, float m, uint32_t q0, uint32_t queries, uint32_t keys,
                       int causal) {
    if (keys >= COPY_MIN_KEYS && queries >= COPY_MIN_ROWS) {
        copied_rows(out, k, m, q0, queries, keys, causal);
        return;
    }
    if (!causal) {
        k->alibi_rows(out, queries, keys, keys, m, -(float)q0);
        return;
    }
    /* Row i holds the distances -(q0 + i) ... keys - 1 - (q0 + i). */
    for (uint32_t i = 0; i < queries; i++) distance_values(out + (size_t)i * keys, keys, k, m, -(float)(q0 + i), 1);
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
