/* RoPE on several position axes (posenc.h, pe_rope_axes): the checks, which
 * pairs follow which axis, VISION_2D's frequencies and inner plan, and the
 * composition of a tile of cos/sin rows from one inner-plan row per axis. */
#include "sinusoid/rope/rope_axes.h"

#include "common/kernel_table.h"

uint32_t pe_rope_axes_count(pe_rope_axes_type type) {
    return type == PE_ROPE_AXES_MROPE || type == PE_ROPE_AXES_MROPE_INTERLEAVED ? PE_ROPE_MROPE_AXES
           : type == PE_ROPE_AXES_VISION_2D                                     ? 2
                                                                                : 1;
}

pe_status pe_rope_check_axes(const pe_rotary *rope, uint32_t r) {
    const pe_rope_axes *a = &rope->axes;
    switch (a->type) {
    case PE_ROPE_AXES_NONE: return PE_OK;
    case PE_ROPE_AXES_MROPE:
    case PE_ROPE_AXES_MROPE_INTERLEAVED: {
        uint64_t sum = 0;
        for (uint32_t k = 0; k < PE_ROPE_MROPE_AXES; k++) {
            if (a->mrope_section[k] == 0) return PE_ERR_AXES;
            sum += a->mrope_section[k];
        }
        if (sum != r / 2) return PE_ERR_AXES;
        /* Interleaved: the height and width axes' pairs a, a + 3, ... all fall below r/2. */
        for (uint32_t k = 1; k < PE_ROPE_MROPE_AXES && a->type == PE_ROPE_AXES_MROPE_INTERLEAVED; k++)
            if (3 * (uint64_t)a->mrope_section[k] + k - 3 >= r / 2) return PE_ERR_AXES;
        return PE_OK;
    }
    case PE_ROPE_AXES_VISION_2D: return r % 4 == 0 && rope->scaling.type == PE_ROPE_SCALING_NONE ? PE_OK : PE_ERR_AXES;
    default: return PE_ERR_AXES;
    }
}

pe_rope_axis_runs pe_rope_axis_runs_of(const pe_rotary *rope, uint32_t r) {
    pe_rope_axis_runs runs = {0, r, {0}, {0}, {0}, {1, 1, 1}};
    if (rope->axes.type == PE_ROPE_AXES_MROPE) {
        runs.axes = PE_ROPE_MROPE_AXES;
        for (uint32_t a = 0, at = 0; a < PE_ROPE_MROPE_AXES; at += rope->axes.mrope_section[a++]) {
            runs.first[a] = runs.source[a] = at; /* one frequency list: pair i keeps w_i */
            runs.count[a] = rope->axes.mrope_section[a];
        }
    } else if (rope->axes.type == PE_ROPE_AXES_MROPE_INTERLEAVED) {
        runs.axes = PE_ROPE_MROPE_AXES;
        runs.count[0] = r / 2; /* the temporal axis first takes every pair, as HF's freqs[0] */
        for (uint32_t a = 1; a < PE_ROPE_MROPE_AXES; a++) {
            runs.first[a] = runs.source[a] = a; /* pairs a, a + 3, ...: the same pairs of the inner row */
            runs.count[a] = rope->axes.mrope_section[a];
            runs.stride[a] = 3;
        }
    } else if (rope->axes.type == PE_ROPE_AXES_VISION_2D) {
        runs.axes = 2;
        runs.inner_r = r / 2;
        for (uint32_t a = 0; a < 2; a++) {
            runs.first[a] = a * (r / 4); /* the row's pairs, then the column's */
            runs.count[a] = r / 4;
            runs.source[a] = 0; /* each axis restarts at w_0 */
        }
    }
    return runs;
}

void pe_rope_vision_frequencies(const pe_rotary *rope, uint32_t r, double *w) {
    const pe_sinusoid enc = {r / 2, rope->base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    pe_encoding_frequencies(&enc, w);
    for (uint32_t j = 0; j < r / 4; j++) w[r / 4 + j] = w[j];
}

pe_status pe_rope_vision_plan(const pe_rotary *rope, uint32_t r, void *memory, size_t bytes, pe_plan **plan) {
    const pe_sinusoid enc = {r / 2, rope->base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    return pe_plan_init(&enc, memory, bytes, plan);
}

/* Axis a's strided pairs (interleaved mrope): one run of one value per pair, sine and cosine,
 * handed to the gather kernel STRIDED_RUNS pairs at a time (a bounded list on the stack). */
#define STRIDED_RUNS 32
static void strided_rows(const pe_kernel_table *k, const pe_rope_axis_runs *runs, uint32_t a, uint32_t words,
                         uint32_t rows, uint32_t r, uint32_t in_r, const void *scratch, void *out) {
    const uint32_t half = r / 2, in_half = in_r / 2;
    uint32_t list[6 * STRIDED_RUNS];
    for (uint32_t from = 0; from < runs->count[a]; from += STRIDED_RUNS) {
        const uint32_t n = runs->count[a] - from < STRIDED_RUNS ? runs->count[a] - from : STRIDED_RUNS;
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t to = runs->first[a] + (from + j) * runs->stride[a];
            const uint32_t src = runs->source[a] + (from + j) * runs->stride[a];
            const uint32_t run[6] = {to * words, src * words, words, (half + to) * words, (in_half + src) * words,
                                     words};
            for (int w = 0; w < 6; w++) list[6 * j + w] = run[w];
        }
        for (uint32_t l = 0; l < rows; l++)
            k->rope_gather((uint32_t *)out + (size_t)l * r * words,
                           (const uint32_t *)scratch + (size_t)l * in_r * words, list, 2 * n);
    }
}

void pe_rope_axes_rows(pe_plan *plan, const pe_rope_axis_runs *runs, pe_dtype dtype, const uint32_t *positions,
                       uint32_t rows, uint32_t r, uint32_t *ids, void *scratch, void *out) {
    const pe_kernel_table *k = pe_kernel_table_current();
    const uint32_t words = dtype == PE_DTYPE_FLOAT64 ? 2 : 1; /* 32-bit words a value */
    const uint32_t in_r = runs->inner_r, half = r / 2, in_half = in_r / 2;
    for (uint32_t a = 0; a < runs->axes; a++) {
        for (uint32_t l = 0; l < rows; l++) ids[l] = positions[(size_t)l * runs->axes + a];
        if (dtype == PE_DTYPE_FLOAT64)
            pe_plan_table_at_dtype(plan, dtype, ids, rows, scratch, (size_t)rows * in_r);
        else
            pe_plan_table_at(plan, ids, rows, scratch, (size_t)rows * in_r);
        if (runs->stride[a] != 1) {
            strided_rows(k, runs, a, words, rows, r, in_r, scratch, out);
            continue;
        }
        /* The axis's sines, then its cosines: [sin | cos] rows on both sides. */
        const uint32_t list[6] = {runs->first[a] * words,
                                  runs->source[a] * words,
                                  runs->count[a] * words,
                                  (half + runs->first[a]) * words,
                                  (in_half + runs->source[a]) * words,
                                  runs->count[a] * words};
        for (uint32_t l = 0; l < rows; l++)
            k->rope_gather((uint32_t *)out + (size_t)l * r * words,
                           (const uint32_t *)scratch + (size_t)l * in_r * words, list, 2);
    }
}
