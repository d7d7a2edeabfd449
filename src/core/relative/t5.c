/* T5's relative attention buckets and the bias they index (posenc.h states
 * the conventions). A row is written run by run: t5_side.c says where each
 * bucket starts, so a row costs O(buckets + keys), not one log per key. */
#include <string.h>

#include "common/check.h"
#include "relative/relative_kernels.h"
#include "relative/t5_side.h"

/* A query row: keys behind it (and on it) take the "behind" side, keys ahead
 * the "ahead" side, whose buckets start at ahead_base (bidirectional) or are
 * all bucket 0 (causal: T5's decoder clamps them to distance 0). */
typedef struct t5_geometry {
    pe_t5_side side;
    int bidirectional;
    uint32_t ahead_base; /* num_buckets / 2 when bidirectional */
} t5_geometry;

/* What a run writes: buckets (ramps in the exact range), or the bias of one head. */
typedef struct t5_sink {
    const pe_kernel_table *k;
    uint32_t *row;
    const float *table; /* NULL: write buckets; else table[bucket * heads + head] */
    uint32_t heads, head;
} t5_sink;

static uint32_t value_bits(const t5_sink *s, uint32_t bucket) {
    if (!s->table) return bucket;
    uint32_t bits;
    memcpy(&bits, &s->table[(size_t)bucket * s->heads + s->head], sizeof bits);
    return bits;
}

/* Keys j with distance n in [a, b) from query q, on one side (behind: j = q - n;
 * ahead: j = q + n), clipped to [0, keys), get bucket base + v (or its bias);
 * exact: v = n (a ramp), else the constant v. */
static void write_run(const t5_sink *s, int64_t q, int64_t keys, int behind, int64_t a, int64_t b, uint32_t base,
                      uint32_t v, int exact) {
    int64_t lo = behind ? q - b + 1 : q + a, hi = behind ? q - a + 1 : q + b; /* keys [lo, hi) */
    if (lo < 0) lo = 0;
    if (hi > keys) hi = keys;
    if (lo >= hi) return;
    size_t count = (size_t)(hi - lo);
    if (!exact) {
        s->k->fill32(s->row + lo, count, value_bits(s, base + v));
        return;
    }
    int64_t n_lo = behind ? q - lo : lo - q; /* distance at key lo */
    if (!s->table) {
        s->k->ramp_i32((int32_t *)s->row + lo, count, (int32_t)(base + n_lo), behind ? -1 : 1);
        return;
    }
    for (size_t t = 0; t < count; t++) {
        int64_t n = behind ? n_lo - (int64_t)t : n_lo + (int64_t)t;
        s->row[lo + (int64_t)t] = value_bits(s, base + (uint32_t)n);
    }
}

/* One side of one row: the exact distances as a ramp, then each bucket's run. */
static void write_side(const t5_sink *s, const pe_t5_side *side, int64_t q, int64_t keys, int behind, int64_t n_start,
                       uint32_t base) {
    write_run(s, q, keys, behind, n_start, side->max_exact, base, 0, 1);
    for (uint32_t v = side->max_exact; v < side->count; v++) {
        int64_t a = side->first[v], b = side->first[v + 1];
        if (a == PE_T5_NO_DISTANCE) break;
        if (a < n_start) a = n_start;
        if (b > a) write_run(s, q, keys, behind, a, b, base, v, 0);
    }
}

static void write_row(const t5_sink *s, const t5_geometry *g, int64_t q, int64_t keys) {
    write_side(s, &g->side, q, keys, 1, 0, 0);
    if (g->bidirectional) {
        write_side(s, &g->side, q, keys, 0, 1, g->ahead_base);
    } else if (q + 1 < keys) {
        s->k->fill32(s->row + q + 1, (size_t)(keys - q - 1), value_bits(s, 0));
    }
}

/* Checks the geometry (before anything is written) and builds the run tables. */
static pe_status t5_prepare(const pe_t5 *t5, size_t heads, t5_geometry *g, size_t *plane, size_t *need) {
    if (!t5) return PE_ERR_NULL;
    const uint32_t count = t5->bidirectional ? t5->num_buckets / 2 : t5->num_buckets;
    if (t5->num_buckets > PE_T5_MAX_BUCKETS || count / 2 < 1) return PE_ERR_BUCKETS;
    if (t5->max_distance <= count / 2 || t5->max_distance > PE_MAX_POSITION) return PE_ERR_BUCKETS;
    if (t5->key_length > PE_MAX_POSITION || (uint64_t)t5->query_offset + t5->query_length > PE_MAX_POSITION) {
        return PE_ERR_POSITION;
    }
    pe_status st = pe_check_product(t5->query_length, t5->key_length, plane);
    if (st != PE_OK) return st;
    if ((st = pe_check_product(*plane, heads, need)) != PE_OK) return st;
    g->bidirectional = t5->bidirectional != 0;
    g->ahead_base = t5->num_buckets / 2;
    pe_t5_side_init(&g->side, count, t5->max_distance);
    return PE_OK;
}

static void write_plane(const t5_sink *sink, const t5_geometry *g, const pe_t5 *t5, uint32_t *plane_out) {
    t5_sink s = *sink;
    for (uint32_t i = 0; i < t5->query_length; i++) {
        s.row = plane_out + (size_t)i * t5->key_length;
        write_row(&s, g, (int64_t)t5->query_offset + i, t5->key_length);
    }
}

pe_status pe_t5_buckets(const pe_t5 *t5, int32_t *out, size_t out_count) {
    t5_geometry g;
    size_t plane, need;
    pe_status st = t5_prepare(t5, 1, &g, &plane, &need);
    if (st != PE_OK) return st;
    if (out_count != need) return PE_ERR_OUT_SIZE;
    if (need == 0) return PE_OK;
    if (!out) return PE_ERR_NULL;
    t5_sink s = {pe_kernel_table_current(), NULL, NULL, 1, 0};
    write_plane(&s, &g, t5, (uint32_t *)out);
    return PE_OK;
}

pe_status pe_t5_bias(const pe_t5 *t5, const float *table, size_t table_count, uint32_t heads, uint32_t first_head,
                     uint32_t head_count, float *out, size_t out_count) {
    if (heads == 0 || heads > PE_MAX_HEADS || (uint64_t)first_head + head_count > heads) return PE_ERR_HEADS;
    t5_geometry g;
    size_t plane, need;
    pe_status st = t5_prepare(t5, head_count, &g, &plane, &need);
    if (st != PE_OK) return st;
    if (table_count != (size_t)t5->num_buckets * heads) return PE_ERR_TABLE_ROWS;
    if (!table) return PE_ERR_NULL;
    if (out_count != need) return PE_ERR_OUT_SIZE;
    if (need == 0) return PE_OK;
    if (!out) return PE_ERR_NULL;
    if ((const char *)out < (const char *)(table + table_count) && (const char *)table < (const char *)(out + need)) {
        return PE_ERR_OVERLAP;
    }
    t5_sink s = {pe_kernel_table_current(), NULL, table, heads, 0};
    for (uint32_t h = 0; h < head_count; h++) {
        s.head = first_head + h;
        write_plane(&s, &g, t5, (uint32_t *)out + h * plane);
    }
    return PE_OK;
}
