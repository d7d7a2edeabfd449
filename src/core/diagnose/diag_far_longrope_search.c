/* A LongRoPE cache far out whose factor list no shipped config carries: the
 * two-decimal factors searched.
 *
 * Column 0's inv_freq is fl32(1 / fl32(e0)) (base^0 = 1), so each two-decimal
 * e0 gives column 0 a known float32 frequency, and diag_far_list_positions
 * its first positions as for a shipped list. At each position column 0 fits,
 * every other column k is searched over two-decimal e_k at HF's float32
 * inv_freq 1 / (fl32(e_k) fl32(base^(2k/d))) (and an ulp either side: the
 * core's pow against torch's), at the rope_theta shipped LongRoPE configs use: a candidate is kept
 * when every column has some e_k that fits. Angles past 1e6 rad are rounded
 * to ulps of a radian or more, so a slow column may admit several e_k (float16
 * and bfloat16 above all): its factor is then left open over the range. The
 * attention factor is HF's for the (original, max) pairs shipped LongRoPE
 * configs use, kept where the cells' peak allows it. */
#include "diag_far_longrope.h"
#include "diag_freqs.h"
#include "math/f64math.h"
#include "math/sincos.h"

#define E0_LO       100u /* column 0's factor searched, in hundredths: 1.00 .. 2.00 */
#define E0_HI       200u
#define E_LO        100u /* the other columns' factors, in hundredths: 1.00 .. 300.00 */
#define E_HI        30000u
#define FAR_FROM    0x1p21 /* least first position searched: below it the near readers' recurrences read factors */
#define WINDOW_WIDE 2.0    /* the prefilter's window over the cell check's: it only skips, the check decides */

typedef struct found_list {
    double base;                                                 /* the rope_theta every column fits at */
    uint16_t lo[PE_DIAG_PAIR_FACTORS], hi[PE_DIAG_PAIR_FACTORS]; /* each column's fitting e_k, hundredths */
    uint32_t e0;                                                 /* column 0's factor, hundredths */
} found_list;

typedef struct search {
    found_list cand, first; /* the candidate being checked; the first that fitted */
    uint32_t solutions;     /* (e0, cos or sin, first position) triples that fit */
    uint32_t e0;
    float *power, *fit; /* h: fl32(base^(2k/d)); the first solution's inv_freq */
    float *trial;       /* h: the candidate's inv_freq */
} search;

/* Column k's cell whose angle the cell fixes best (the steepest slope): the two angle centres and the tolerance. */
static uint32_t column_window(const list_read *f, uint32_t k, double centre[2], double *tol) {
    const diag_work *w = f->w;
    uint32_t best = 0;
    double best_tol = 1e300, best_a = 0.0;
    for (uint32_t i = 0; i < f->n; i++) {
        const double v = diag_at(&w->v, f->rows[i], w->col_sin[k]);
        double u = v / f->amp;
        u = u > 1.0 ? 1.0 : u < -1.0 ? -1.0 : u;
        const double du = (diag_cache_cell_tol(f->storage, v, v, f->amp) + diag_ulp(f->storage, v)) / f->amp;
        const double root = diag_sqrt(1.0 - u * u), slope = root > diag_sqrt(2.0 * du) ? root : diag_sqrt(2.0 * du);
        if (du / slope < best_tol) {
            best_tol = du / slope, best = i;
            best_a = f->is_cos ? diag_atan2(root, u) : diag_atan2(u, root);
        }
    }
    const double a = best_a < 0.0 ? best_a + DIAG_TWO_PI : best_a, b = f->is_cos ? DIAG_TWO_PI - a : DIAG_PI - a;
    centre[0] = a, centre[1] = b < 0.0 ? b + DIAG_TWO_PI : b;
    *tol = WINDOW_WIDE * best_tol + ANGLE_SLACK;
    return best;
}

/* |angle - c| modulo 2 pi (|angle - c| below 2^52: the integer cast rounds as round would). */
static double turn_distance(double angle, double c) {
    const double t = (angle - c) * (1.0 / DIAG_TWO_PI);
    const double r = t - (double)(int64_t)(t + (t < 0.0 ? -0.5 : 0.5));
    return r < 0 ? -r * DIAG_TWO_PI : r * DIAG_TWO_PI;
}

/* Column k: the two-decimal e_k whose inv_freq (or an ulp either side) fits COLUMN_MIN of the rows, into
 * s->cand.lo/hi[k] (the least and greatest) and s->trial[k]; 0 when none fits. */
static int column_factors(list_read *f, search *s, uint32_t k) {
    const uint32_t need = (uint32_t)(COLUMN_MIN * f->n + 0.999);
    double centre[2], tol;
    const uint32_t i = column_window(f, k, centre, &tol);
    const double P = f->pos[i];
    const float power = s->power[k];
    uint32_t lo = 0, hi = 0, best = 0;
    double ulp = 0.0, bottom = 1e300; /* x0's ulp, the least x0 it holds for (x0 falls as e grows) */
    for (uint32_t e = E_LO; e <= E_HI; e++) {
        const float x0 = 1.0f / ((float)((double)e / 100.0) * power);
        if ((double)x0 < bottom) ulp = diag_ulp32((double)x0), bottom = ulp * 0x1p23;
        for (int j = -1; j <= 1; j++) {
            const double x = (double)x0 + j * ulp, A = (double)(float)(P * x);
            if (turn_distance(A, centre[0]) > tol && turn_distance(A, centre[1]) > tol) continue;
            const uint32_t m = diag_far_list_column(f, k, x, need);
            if (m < need) continue;
            if (!lo) lo = e;
            hi = e;
            if (m > best) best = m, s->trial[k] = (float)x;
            break;
        }
    }
    if (!lo) return 0;
    if (k < PE_DIAG_PAIR_FACTORS) s->cand.lo[k] = (uint16_t)lo, s->cand.hi[k] = (uint16_t)hi;
    return 1;
}

/* list_read's columns hook: every column past 0 at some e_k, at the first rope_theta where all fit: the rope_theta
 * values shipped LongRoPE configs use (each costs a scan of column 1 at every candidate column 0 leaves; all seven
 * common ones cost 7 times that, about 0.7 s for a bfloat16 cache at 1.3e7). */
static int search_columns(list_read *f) {
    search *s = (search *)f->ctx;
    const uint32_t h = f->w->h;
    for (uint32_t b = 0; b < DIAG_LONGROPE_LIST_COUNT; b++) {
        int seen = 0; /* a rope_theta an earlier list gave */
        for (uint32_t j = 0; j < b; j++) seen |= diag_longrope_lists[j].rope_theta == diag_longrope_lists[b].rope_theta;
        if (seen) continue;
        freq_model m = {0};
        m.recipe = PE_DIAG_RECIPE_F32_HF, m.base = diag_longrope_lists[b].rope_theta, m.dim = 2 * h, m.count = h;
        for (uint32_t k = 0; k < h; k++) s->power[k] = freq_power32(&m, k);
        uint32_t k = 1;
        while (k < h && column_factors(f, s, k)) k++;
        if (k < h) continue;
        if (s->solutions++ == 0) {
            s->cand.base = m.base, s->cand.e0 = s->e0;
            s->first = s->cand;
            s->trial[0] = (float)f->c0;
            for (uint32_t j = 0; j < h; j++) s->fit[j] = s->trial[j];
        }
        return 1;
    }
    return 0;
}

int diag_exact_cache_far_search(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    list_read f = {0};
    double grids[DIAG_FAR_GRIDS];
    const uint32_t n_grids = h <= PE_DIAG_PAIR_FACTORS ? diag_far_list_setup(w, d, &f, grids) : 0;
    if (!n_grids) return 0;
    search s;
    s.solutions = 0;
    s.power = (float *)w->phase0, s.trial = s.power + h, s.fit = (float *)w->fx;
    const double peak = diag_cache_peak(w);
    double p0 = 0.0, amp_won = 0.0;
    const diag_longrope_list *pair = NULL;
    int won_cos = 0;
    for (uint32_t l = 0; l < DIAG_LONGROPE_LIST_COUNT; l++) {
        const diag_longrope_list *list = &diag_longrope_lists[l];
        const double amp = (double)(float)diag_longrope_attention(list->max_position, list->original_max);
        int seen = 0; /* an attention factor an earlier list gave */
        for (uint32_t j = 0; j < l; j++)
            seen |= (double)(float)diag_longrope_attention(diag_longrope_lists[j].max_position,
                                                           diag_longrope_lists[j].original_max) == amp;
        if (seen || peak < PEAK_SHARE * amp || !diag_peak_allows(d->storage, peak, amp)) continue;
        w->searched |= PE_DIAG_SEARCHED_FAR;
        for (uint32_t e0 = E0_LO; e0 <= E0_HI; e0++)
            for (int is_cos = 1; is_cos >= 0; is_cos--) {
                const uint32_t before = s.solutions;
                f.is_cos = is_cos, f.amp = amp, f.c0 = (double)(1.0f / (float)((double)e0 / 100.0));
                f.n_found = 0, f.hits = 0, f.columns = search_columns, f.ctx = &s, s.e0 = e0;
                f.fit = s.trial, f.inv = s.trial;
                diag_far_list_grids(&f, grids, n_grids, FAR_FROM);
                if (before == 0 && s.solutions > 0) p0 = f.found[0], amp_won = amp, pair = list, won_cos = is_cos;
            }
    }
    if (s.solutions == 0) return 0;
    if (s.solutions > 1) return 0; /* more than one (factors, first position): undetermined */
    *rms = diag_far_list_apply(w, d, &f, p0, won_cos, amp_won, s.fit, s.first.base);
    d->offset_known = d->offset >= 0.0;
    d->longrope_list = -1;
    d->factor = pair->max_position / pair->original_max, d->original_max = pair->original_max;
    d->attention_factor = diag_longrope_attention(pair->max_position, pair->original_max);
    s.first.lo[0] = s.first.hi[0] = (uint16_t)s.first.e0;
    d->long_factors = d->offset + (double)(d->rows - w->first_row) > pair->original_max ? 1 : -1;
    d->pair_factors = h, d->pair_factors_open = 0;
    d->band_low = 1e300, d->band_high = 0.0;
    for (uint32_t k = 0; k < h; k++) {
        const double lo = s.first.lo[k] / 100.0, hi = s.first.hi[k] / 100.0;
        d->pair_factor_lo[k] = lo, d->pair_factor_hi[k] = hi;
        d->pair_factor_open[k] = lo != hi;
        d->pair_factor[k] = lo == hi ? lo : 0.5 * (lo + hi);
        d->pair_factors_open += lo != hi;
        d->band_low = lo < d->band_low ? lo : d->band_low, d->band_high = hi > d->band_high ? hi : d->band_high;
    }
    return 1;
}
