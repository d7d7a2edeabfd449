/* A LongRoPE cache far out read at the factor lists shipped models carry.
 *
 * Far out (1.3e7, 2^24 + 3) every column's float32 angle is rounded to an
 * ulp of itself (1 rad at 1.3e7), so the recurrences that read a LongRoPE
 * cache's factors near position 0 (diag_exact_longrope.c) read noise. The
 * cells still fix much: rows step each angle by its inv_freq, so p c with
 * factors e_k c drifts from p with e_k by r (1 - 1/c) rad per unit inv_freq
 * over r rows; but no search for an unlisted list is made. A cache of a shipped
 * model holds one of its config's lists (diag_longrope_lists.c), which gives
 * every column's float32 inv_freq as HF computes it; column 0's is
 * fl32(1 / fl32(e_0)) exactly (base^0 = 1). Its cells then fix column 0's
 * float32 ANGLE fl32(fl32(p) c0) modulo 2 pi: where that angle's ulp is
 * coarser than the cell's reach, the float32 angles n u (u the binade's ulp)
 * in the window are enumerated (diag_far_enumerate) and each gives the one or
 * two grid positions whose float32 product is that angle; where it is finer,
 * the positions are enumerated directly with the window widened by half an
 * ulp. Each candidate is checked on every read row of column 0, then every
 * column within NEIGHBOURS ulps of the list's inv_freq (torch's float32 pow is
 * not correctly rounded), at HF's attention factor sqrt(1 + ln f / ln L0) in
 * float32: the cells decide. */
#include "diag_far_longrope.h"
#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

static int cell_fits(const list_read *f, double a, double angle) {
    return diag_far_cell_fits(f->storage, f->is_cos, f->amp, a, angle);
}

uint32_t diag_far_list_column(const list_read *f, uint32_t k, double inv, uint32_t need) {
    const diag_work *w = f->w;
    uint32_t m = 0;
    for (uint32_t i = 0; i < f->n && m + (f->n - i) >= need; i++)
        m += cell_fits(f, diag_at(&w->v, f->rows[i], w->col_sin[k]), (double)(float)(f->pos[i] * inv));
    return m;
}

/* Column k at the list's inv_freq or a neighbour within NEIGHBOURS ulps (the nearest first): the rows the best
 * fits, its inv_freq into f->fit[k] when that reaches COLUMN_MIN of the rows. */
static uint32_t column_best(list_read *f, uint32_t k) {
    const uint32_t need = (uint32_t)(COLUMN_MIN * f->n + 0.999);
    const double inv = (double)f->inv[k];
    uint32_t best = 0;
    for (int step = 0; step <= 2 * NEIGHBOURS && best < f->n; step++) {
        const int j = step == 0 ? 0 : (step % 2 ? -(step + 1) / 2 : step / 2);
        const double x = inv + j * diag_ulp32(inv);
        const uint32_t m = x > 0.0 ? diag_far_list_column(f, k, x, need) : 0;
        if (m > best) best = m, f->fit[k] = (float)x;
    }
    return best;
}

/* The columns past 0 at the list's inv_freq (or neighbours): COLUMN_MIN of the rows each, SHARE_MIN of all. */
static int list_columns(list_read *f) {
    uint64_t within = f->n;
    for (uint32_t k = 1; k < f->w->h; k++) {
        const uint32_t c = column_best(f, k);
        if (c < COLUMN_MIN * f->n) return 0;
        within += c;
    }
    if (within < SHARE_MIN * (double)f->n * f->w->h) return 0;
    f->fit[0] = (float)f->c0;
    return 1;
}

/* First position p0 (of row r0): kept when column 0 fits every checked row, every column COLUMN_MIN of them
 * and SHARE_MIN of all cells. */
static void check_position(list_read *f, double p0) {
    const diag_work *w = f->w;
    if (p0 < 0.0 || p0 + (double)(w->v.rows - f->r0) > (double)PE_MAX_POSITION || f->n_found >= MAX_FOUND) return;
    for (uint32_t j = 0; j < f->n_found; j++)
        if (f->found[j] == p0) return;
    for (uint32_t i = 0; i < f->n; i++) {
        f->pos[i] = (double)(float)(p0 + (double)(f->rows[i] - f->r0));
        if (!cell_fits(f, diag_at(&w->v, f->rows[i], w->col_sin[0]), (double)(float)(f->pos[i] * f->c0))) return;
    }
    if (!(f->columns ? f->columns(f) : list_columns(f))) return;
    f->found[f->n_found++] = p0;
}

/* Grid point P of row ref: every whole position rounding to it, as row ref's position. */
static void check_grid_point(list_read *f, double P) {
    const double shift = (double)(f->rows[f->ref] - f->r0);
    for (double p = P - diag_floor(f->g / 2.0); p <= P + f->g / 2.0; p += 1.0)
        if ((double)(float)p == P) check_position(f, p - shift);
}

/* diag_far_enumerate's hits: grid point n g (positions enumerated directly). */
static void visit_position(void *ctx, double n) {
    list_read *f = (list_read *)ctx;
    if (n >= f->m_lo && n < f->m_hi) check_grid_point(f, n * f->g);
}

/* diag_far_enumerate's hits: float32 angle A = n u; the grid points whose float32 product with c0 is A. */
static void visit_angle(void *ctx, double n) {
    list_read *f = (list_read *)ctx;
    const double A = n * f->u, step = f->g * f->c0;
    for (double m = diag_floor((A - f->u) / step); m <= (A + f->u) / step + 1.0; m += 1.0)
        if (m >= f->m_lo && m < f->m_hi && (double)(float)(m * step) == A) check_grid_point(f, m * f->g);
}

/* Every first position whose column-0 angle fits row ref's cell, grid points m g for m in [m_lo, m_hi): by
 * binade of the angle, enumerating angles where their ulp u is coarse (u (2t + u) >= 2 t g c0: fewer angles than
 * positions fall in the window), else positions with the window widened by u / 2. */
void diag_far_list_positions(list_read *f) {
    double centre[2], tol;
    f->ref = diag_far_window(f->w, f->storage, f->is_cos, f->amp, f->rows, f->n, centre, &tol);
    const double t = tol + ANGLE_SLACK, step = f->g * f->c0;
    /* the angle's binades [bottom, 2 bottom) over the range, from the top down */
    double bottom = 1.0;
    while (2.0 * bottom <= f->m_hi * step) bottom *= 2.0;
    while (bottom > f->m_hi * step) bottom *= 0.5;
    for (; f->hits < MAX_HITS; bottom *= 0.5) {
        const double u = bottom * 0x1p-23;
        double m_a = diag_floor(bottom / step), m_b = diag_floor(2.0 * bottom / step) + 1.0;
        const int last = m_a <= f->m_lo;
        m_a = m_a > f->m_lo ? m_a : f->m_lo, m_b = m_b < f->m_hi ? m_b : f->m_hi;
        for (int phase = 0; phase < 2; phase++)
            if (u * (2.0 * t + u) >= 2.0 * t * step) {
                f->u = u; /* angles n u, n in [2^23, 2^24]: A = 2^(e+1) too (the top's rounding) */
                diag_far_enumerate(u, 0x1p23, 0x1p24 + 1.0, centre[phase], t, &f->hits, MAX_HITS, visit_angle, f);
            } else
                diag_far_enumerate(step, m_a, m_b, centre[phase], t + 0.5 * u, &f->hits, MAX_HITS, visit_position, f);
        if (last) break;
    }
}

double diag_longrope_attention(double max_position, double original_max) {
    const double f = max_position / original_max;
    return f > 1.0 ? diag_sqrt(1.0 + pe_log(f) / pe_log(original_max)) : 1.0;
}

static double attention_of(const diag_longrope_list *l) {
    return diag_longrope_attention(l->max_position, l->original_max);
}

uint32_t diag_far_list_setup(diag_work *w, const pe_diagnosis *d, list_read *f, double grids[DIAG_FAR_GRIDS]) {
    if (d->kind != PE_DIAG_COS_SIN || w->h < 4 || d->storage == PE_DTYPE_FLOAT64) return 0;
    f->w = w, f->storage = d->storage;
    f->n = diag_far_rows(w, f->rows, CHECK_ROWS, &f->r0);
    if (f->n < 8) return 0;
    /* the float32 grid as diag_far.c reads it: whole positions below 2^24, or the runs' step past it */
    return diag_far_grids(d, grids);
}

void diag_far_list_grids(list_read *f, const double *grids, uint32_t n_grids, double least) {
    for (uint32_t g = 0; g < n_grids; g++) {
        f->g = grids[g];
        f->m_lo = grids[g] > 1.0 ? 0x1p23 : least, f->m_hi = 0x1p24;
        diag_far_list_positions(f);
    }
    diag_searched_to((diag_work *)f->w, (double)PE_MAX_POSITION - (f->w->v.rows - f->r0), f->hits >= MAX_HITS);
}

double diag_far_list_apply(diag_work *w, pe_diagnosis *d, const list_read *f, double p0, int is_cos, double amp,
                           const float *inv, double base) {
    const uint32_t h = w->h;
    double e2 = 0.0;
    for (uint32_t k = 0; k < h; k++) {
        w->w[k] = w->model_w[k] = (double)inv[k], w->sigma[k] = 0.0;
        w->src[w->col_sin[k]] = w->src[w->col_cos[k]] = is_cos ? h + k : k;
        for (uint32_t i = 0; i < f->n; i++) {
            double sn, cs;
            pe_sincos((double)(float)((double)(float)(p0 + (f->rows[i] - f->r0)) * (double)inv[k]), &sn, &cs);
            const double e = diag_at(&w->v, f->rows[i], w->col_sin[k]) - (is_cos ? cs : sn) * amp;
            e2 += e * e;
        }
    }
    d->cache_cos = is_cos;
    d->offset = p0 - (double)(f->r0 - w->first_row);
    d->offset_sd = 0.0;
    d->offset_searched = (double)PE_MAX_POSITION - (w->v.rows - w->first_row);
    d->scale = amp;
    d->rule = 0, d->base = d->rope_theta = base, d->base_round = 1;
    if (d->base_digits < 1) d->base_digits = 1;
    d->scaling = PE_DIAG_SCALING_PER_PAIR;
    return diag_sqrt(e2 / ((double)f->n * h)) / amp;
}

int diag_exact_cache_far_lists(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    list_read f = {0};
    double grids[DIAG_FAR_GRIDS];
    const uint32_t n_grids = diag_far_list_setup(w, d, &f, grids);
    if (!n_grids) return 0;
    /* scratch: the list's inv_freq, the fit at a candidate, the winner's */
    float *inv = (float *)w->phase0, *fit = inv + h, *won = (float *)w->fx;
    const double peak = diag_cache_peak(w);
    int winner = -1, winner_cos = 0, tied = 0;
    double p0 = 0.0;
    uint32_t positions = 0;
    for (uint32_t l = 0; l < DIAG_LONGROPE_LIST_COUNT; l++) {
        const diag_longrope_list *list = &diag_longrope_lists[l];
        const double amp = (double)(float)attention_of(list);
        if (list->pairs != h || peak < PEAK_SHARE * amp || !diag_peak_allows(d->storage, peak, amp)) continue;
        freq_model m = {0};
        m.recipe = PE_DIAG_RECIPE_F32_HF, m.base = list->rope_theta, m.dim = 2 * h, m.count = h;
        m.scaling = PE_DIAG_SCALING_PER_PAIR, m.ext = list->factors;
        for (uint32_t k = 0; k < h; k++) inv[k] = (float)freq_value(&m, k);
        w->searched |= PE_DIAG_SEARCHED_FAR;
        for (int is_cos = 1; is_cos >= 0; is_cos--) {
            f.is_cos = is_cos, f.amp = amp, f.inv = inv, f.fit = fit, f.c0 = (double)inv[0];
            f.n_found = 0, f.hits = 0, f.columns = NULL;
            diag_far_list_grids(&f, grids, n_grids, 0.0);
            if (f.n_found == 0) continue;
            if (winner >= 0) {
                tied = 1;
                continue;
            }
            winner = (int)l, winner_cos = is_cos, p0 = f.found[0], positions = f.n_found;
            /* the fit at the first position found (check_position left the last one's) */
            f.n_found = 0;
            check_position(&f, p0);
            for (uint32_t k = 0; k < h; k++) won[k] = fit[k];
        }
    }
    if (winner < 0 || tied) return 0;
    const diag_longrope_list *list = &diag_longrope_lists[winner];
    *rms = diag_far_list_apply(w, d, &f, p0, winner_cos, (double)(float)attention_of(list), won, list->rope_theta);
    d->offset_known = positions == 1 && d->offset >= 0.0;
    d->longrope_list = winner + 1;
    return 1;
}

void diag_longrope_list_params(diag_work *w, pe_diagnosis *d) {
    const diag_longrope_list *list = &diag_longrope_lists[d->longrope_list - 1];
    const uint32_t h = w->h;
    d->rope_theta = d->base = list->rope_theta;
    d->base_round = 1, d->rule = 0, d->params_canonical = 0;
    d->factor = list->max_position / list->original_max;
    d->original_max = list->original_max;
    d->attention_factor = attention_of(list);
    /* HF takes long_factor for a cache built past original_max_position_embeddings: these values are the ones a
     * config needs there, whichever key ships them */
    d->long_factors = d->offset + (double)(d->rows - w->first_row) > list->original_max ? 1 : -1;
    d->pair_factors = h <= PE_DIAG_PAIR_FACTORS ? h : 0;
    d->pair_factors_open = 0;
    d->band_low = 1e300, d->band_high = 0.0;
    for (uint32_t k = 0; k < h; k++) {
        const double e = list->factors[k];
        if (e < d->band_low) d->band_low = e;
        if (e > d->band_high) d->band_high = e;
        if (k >= d->pair_factors) continue;
        d->pair_factor[k] = d->pair_factor_lo[k] = d->pair_factor_hi[k] = e;
        d->pair_factor_open[k] = 0;
    }
}
