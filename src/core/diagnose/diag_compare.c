/* The error of the data against the exact table of the convention found
 * (max per band of positions, rms, the first positions above 1e-6 and 1e-3),
 * computed by the core's own exact tables; and when nothing fits, how far the
 * data are from each standard sinusoidal table at base 10000. */
#include "diag_internal.h"

pe_status diag_model_plan(diag_work *w, const pe_diagnosis *d, pe_plan **plan) {
    const uint32_t dim = 2 * w->h;
    if (d->scaling == PE_DIAG_SCALING_NONE && d->base_round && (d->rule == 0 || d->rule == 1)) {
        pe_sinusoid enc = {dim, d->base, PE_LAYOUT_SPLIT, d->rule == 1 ? PE_FREQ_TENSOR2TENSOR : PE_FREQ_PAPER};
        return pe_plan_init(&enc, w->plan_memory, w->plan_bytes, plan);
    }
    return pe_plan_init_frequencies(dim, PE_LAYOUT_SPLIT, w->model_w, w->plan_memory, w->plan_bytes, plan);
}

/* Position of the first row read: the fitted offset as a whole number >= 0 that keeps positions below 2^31. */
uint32_t diag_first_position(const diag_work *w, const pe_diagnosis *d) {
    double p = d->offset + 0.5;
    double limit = (double)PE_MAX_POSITION - (w->v.rows - w->first_row);
    if (!(p >= 0.0)) return 0;
    return p >= limit ? (uint32_t)limit : (uint32_t)p;
}

static int band_of(uint64_t p) {
    int band = 0;
    for (uint64_t edge = 64; p >= edge && band < PE_DIAG_BANDS - 1; edge *= 4) band++;
    return band;
}

void diag_error_bands(diag_work *w, pe_diagnosis *d) {
    const uint32_t h = w->h, first = w->first_row, rows = w->v.rows;
    const double A = d->scale > 0.0 ? d->scale : 1.0;
    const uint32_t p0 = diag_first_position(w, d);
    for (int b = 0; b < PE_DIAG_BANDS; b++) d->band_error[b] = -1.0;
    d->max_error = 0.0;
    d->first_above_1e6 = d->first_above_1e3 = -1;
    pe_plan *plan;
    if (diag_model_plan(w, d, &plan) != PE_OK) return;
    double sum2 = 0.0;
    uint64_t count = 0;
    for (uint32_t r0 = first; r0 < rows; r0 += DIAG_CHUNK) {
        uint32_t n = rows - r0 < DIAG_CHUNK ? rows - r0 : DIAG_CHUNK;
        if (pe_plan_table(plan, p0 + (r0 - first), n, w->chunk, (size_t)n * 2 * h) != PE_OK) return;
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t r = r0 + k;
            if (w->zero[r]) continue;
            const float *exact = w->chunk + (size_t)k * 2 * h;
            const float *row = w->v.data + (size_t)r * w->v.rs;
            const size_t cs = w->v.cs;
            double worst = 0.0;
            for (uint32_t c = 0; c < w->v.cols; c++) {
                uint32_t m = w->src[c];
                if (m == UINT32_MAX) continue;
                double v = row[c * cs];
                double e = (A == 1.0 ? v : v / A) - (double)exact[m];
                sum2 += e * e;
                if (e < 0) e = -e;
                if (e > worst) worst = e;
            }
            count += w->v.cols;
            uint64_t p = (uint64_t)p0 + (r - first);
            int b = band_of(p);
            if (worst > d->band_error[b]) d->band_error[b] = worst;
            if (worst > d->max_error) d->max_error = worst;
            if (worst > 1e-6 && d->first_above_1e6 < 0) d->first_above_1e6 = (int64_t)p;
            if (worst > 1e-3 && d->first_above_1e3 < 0) d->first_above_1e3 = (int64_t)p;
        }
    }
    d->rms_error = count ? diag_sqrt(sum2 / count) : 0.0;
}

/* Distances (rms of data - A * table over rms of data, sampled rows) to the
 * four layouts x two rules at base 10000, positions from 0 at the first row. */
void diag_nearest(diag_work *w, pe_diagnosis *d) {
    const uint32_t cols = w->v.cols, h = cols / 2;
    for (int k = 0; k < PE_DIAG_NEAREST; k++) {
        d->nearest_distance[k] = -1.0;
        d->nearest_layout[k] = d->nearest_rule[k] = d->nearest_cos_first[k] = -1;
    }
    if (cols % 2 != 0 || w->samples == 0) return;
    double data2 = 0.0;
    for (uint32_t s = 0; s < w->samples; s++)
        for (uint32_t c = 0; c < cols; c++) data2 += diag_at(&w->v, w->sample[s], c) * diag_at(&w->v, w->sample[s], c);
    double rms = diag_sqrt(data2 / ((double)w->samples * cols));
    double A = rms * 1.4142135623730951; /* a sinusoid's amplitude for that rms */
    for (uint32_t s = 0; s < w->samples; s++) w->positions[s] = w->sample[s] - w->first_row;
    for (int rule = 0; rule < 2; rule++) {
        pe_sinusoid enc = {cols, 10000.0, PE_LAYOUT_SPLIT, rule ? PE_FREQ_TENSOR2TENSOR : PE_FREQ_PAPER};
        pe_plan *plan;
        if (pe_plan_init(&enc, w->plan_memory, w->plan_bytes, &plan) != PE_OK) return;
        if (pe_plan_table_at_dtype(plan, PE_DTYPE_FLOAT64, w->positions, w->samples, w->values,
                                   (size_t)w->samples * cols) != PE_OK)
            return;
        for (int layout = 0; layout < 2; layout++) {
            for (int cos_first = 0; cos_first < 2; cos_first++) {
                double e2 = 0.0;
                for (uint32_t s = 0; s < w->samples; s++) {
                    const double *row = w->values + (size_t)s * cols;
                    for (uint32_t i = 0; i < h; i++) {
                        uint32_t a = layout ? i : 2 * i, b = layout ? h + i : 2 * i + 1;
                        double sv = row[i], cv = row[h + i];
                        double x = diag_at(&w->v, w->sample[s], a) - A * (cos_first ? cv : sv);
                        double y = diag_at(&w->v, w->sample[s], b) - A * (cos_first ? sv : cv);
                        e2 += x * x + y * y;
                    }
                }
                double dist = rms > 0 ? diag_sqrt(e2 / ((double)w->samples * cols)) / rms : 0.0;
                /* insert into the sorted list */
                for (int k = 0; k < PE_DIAG_NEAREST; k++) {
                    if (d->nearest_distance[k] >= 0.0 && d->nearest_distance[k] <= dist) continue;
                    for (int j = PE_DIAG_NEAREST - 1; j > k; j--) {
                        d->nearest_distance[j] = d->nearest_distance[j - 1];
                        d->nearest_layout[j] = d->nearest_layout[j - 1];
                        d->nearest_rule[j] = d->nearest_rule[j - 1];
                        d->nearest_cos_first[j] = d->nearest_cos_first[j - 1];
                    }
                    d->nearest_distance[k] = dist;
                    d->nearest_layout[k] = layout;
                    d->nearest_rule[k] = rule;
                    d->nearest_cos_first[k] = cos_first;
                    break;
                }
            }
        }
    }
}
