/* A cache reading's cells counted bit for bit, to part parameter sets the
 * cell check of diag_exact_cache_at cannot.
 *
 * That check lets a cell sit a storage ulp from HF's float32 recipe:
 * PyTorch's float32 sin and cos are not correctly rounded, and an ulp of
 * float32 off can carry a float16 or bfloat16 cell across a rounding
 * midpoint. The slack lets a rival set through too: a Llama 3 cache at
 * factor 16 where the cells are factor 8's differs from them by one ulp in a
 * few cells of the slow columns. Stored as float16 or bfloat16, a set read
 * with correctly rounded float32 sin/cos reproduces its own cells bit for bit
 * all but never (the float32 value must fall within an ulp of the storage's
 * midpoint, 2^-13 or 2^-16 of the cells), so the count of cells it misses
 * tells the true set from such rivals. */
#include "diag_internal.h"
#include "math/sincos.h"

uint32_t diag_cache_cells_missed(const diag_work *w, const pe_diagnosis *d) {
    const uint32_t h = w->h;
    const double amp = (double)(float)d->scale;
    uint32_t missed = 0;
    for (uint32_t t = 0; t < w->samples; t++) {
        const uint32_t r = w->sample[t];
        if (w->zero[r]) continue;
        const double p = d->offset + ((double)r - (double)w->first_row);
        if (p < 0.0) continue;
        for (uint32_t k = 0; k < h; k++) {
            double sn, cs;
            pe_sincos((double)(float)((double)(float)p * w->w[k]), &sn, &cs);
            const double x = d->cache_cos ? cs : sn;
            const double y = diag_round_storage(d->storage, (double)(float)((double)(float)x * amp));
            missed += diag_at(&w->v, r, w->col_sin[k]) != y;
        }
    }
    return missed;
}
