/* A YaRN or Llama 3 cos/sin cache read exactly at any first position.
 *
 * A scaled cache is an unscaled one with some frequencies changed. The phase
 * lines (diag_phase.c) cannot read them far from position 0: a float32 angle
 * f32(p * inv_freq) is off by half an ulp of the product (0.03 rad at
 * p = 10^6), and the slow columns hardly turn over a few rows. Each column's
 * recurrence v(x - 1) + v(x + 1) = 2 cos(w) v(x) does not see the first
 * position, so it gives the columns that turn (diag_cache_step). HF's
 * parameter sets are few: a common rope_theta, YaRN's ramp from beta_fast 32
 * and beta_slow 1 at a power-of-two original context, Llama 3's bands at
 * low_freq_factor 1 and high_freq_factor 4. Each is regenerated as HF
 * computes it in float32 (diag_freqs_recipes.c), ranked by its distance to
 * the columns read, and the best few are read cell by cell with the first
 * position searched over [0, 2^31) (diag_exact_cache_at): the cells, not the
 * ranking, decide. The cells' peak is the amplitude (a YaRN attention factor
 * tells the factor, which the fast columns do not): candidates it names are
 * read first. Candidates sharing their slowest pairs (one factor, several
 * contexts) share the search's first levels (diag_exact.c's memo), so those
 * are read next, a few dozen steps each. What the cells leave open (which
 * beta pair, which context with the same ramp) is HF's canonical choice, as
 * the verdict says. */
#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/f64math.h"

#define TRIES     40   /* candidates read cell by cell: the first three contexts' at one base, or the nearest */
#define MAX_CHI   64.0 /* mean squared distance (in sds) past which a candidate is not read */
#define MIN_READ  4    /* columns the recurrence must read */
#define MIN_ROWS  32   /* rows read: fewer leave most candidates tied, each then searched to the budget */
#define SHARE_MIN 0.99 /* cells within an ulp for a reading to count */
/* search steps over every candidate: bounds the time (a tenth of a second for a 32-row cache no set fits); the
 * check that no second candidate fits stops there too (a verdict then rests on the candidates read). 1M reaches
 * DeepSeek-V3's set (YaRN x40 at 4096, amplitude 1) behind the Llama 3 sets it ties with in a bfloat16 cache */
#define BUDGET      1000000
#define TIE         2.0   /* distances within this factor of the best are one */
#define FIRST_STEPS 10000 /* search steps per reading in the first pass over the candidates */
#define PEAK_NEAR   0.005 /* relative: a peak this close to a candidate's amplitude ranks it first */
#define NOISE_RMS   1e-5  /* or rms off the candidate (relative to the amplitude): noise on it */

typedef struct candidate {
    freq_model m;
    double chi;   /* distance from the columns read */
    double tie;   /* chi, or TIE times the best of its rank when below: what the order compares */
    int rank;     /* 0: the cells' peak is one of its amplitudes */
    uint32_t seq; /* the order made: common bases and contexts first */
} candidate;

/* 1 when a and b are one HF parameter set but for the factor. */
static int same_but_factor(const freq_model *a, const freq_model *b) {
    return a->scaling == b->scaling && a->base == b->base && a->original_max == b->original_max &&
           a->ramp_low == b->ramp_low && a->ramp_high == b->ramp_high && a->low_freq_factor == b->low_freq_factor &&
           a->high_freq_factor == b->high_freq_factor;
}

/* A Llama 3 reading's bands as the cells read them. From some pair on the cells may be in every row what
 * frequency 0 gives (a cos cache from position 0 stored narrow: cos rounds to the amplitude): those pairs only
 * bound their frequencies. With two or more ramp pairs (original wavelength between the bands) below them, the
 * ramp's line and so both bands and the factor are read; with one or none they are not: the original wavelength
 * of the first such pair, else 0. (A bfloat16 cos cache at 0: HF's recipe gives its cells bit for bit at factors
 * 2 to 64 with low bands 4096 to 16384.) */
static double unread_wavelength(const diag_work *w, const pe_diagnosis *d, double base) {
    const uint32_t h = w->h;
    const double at0 = d->cache_cos ? diag_round_storage(d->storage, (double)(float)d->scale) : 0.0;
    double from = 0.0;
    uint32_t k = h;
    while (k-- > 0) {
        int same = 1;
        for (uint32_t r = 0; r < w->v.rows && same; r++)
            if (!w->zero[r]) same = diag_at(&w->v, r, w->col_sin[k]) == at0;
        if (!same) break;
        from = DIAG_TWO_PI / pe_exp_nonpositive(-pe_log(base) * (double)k / (double)h);
    }
    if (!(from > 0.0) || from > d->band_low) return 0.0;
    uint32_t ramp = 0; /* ramp pairs read: k and below */
    for (k++; k-- > 0;) {
        const double wl = DIAG_TWO_PI / pe_exp_nonpositive(-pe_log(base) * (double)k / (double)h);
        if (wl <= d->band_high) break;
        ramp += wl < d->band_low;
    }
    return ramp <= 1 ? from : 0.0;
}

/* Mean squared distance of the model's frequencies from the columns read (y: log w, sd: its relative sd). */
static double distance(const freq_model *m, const double *y, const double *sd, uint32_t h) {
    double chi = 0.0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < h; k++) {
        if (!(sd[k] > 0.0)) continue;
        const double f = freq_value(m, k), e = (y[k] - pe_log(f)) / sd[k];
        chi += e * e, n++;
    }
    return n ? chi / n : 1e300;
}

/* 1 when candidate a is read before b: those whose amplitude is the cells' peak first (rank), then by distance,
 * where distances within TIE times the best are one (the columns read cannot part them: HF's contexts whose
 * ramps differ only where the recurrences read nothing, Llama 3 and YaRN changing only slow columns), then the
 * order made (common bases and contexts first). */
static int before(const candidate *a, const candidate *b) {
    if (a->rank != b->rank) return a->rank < b->rank;
    if (a->tie != b->tie) return a->tie < b->tie;
    return a->seq < b->seq;
}

/* Keeps the TRIES first candidates in that order (list holds *count). */
static void keep(candidate *list, uint32_t *count, const candidate *x) {
    uint32_t at = *count < TRIES ? *count : TRIES;
    while (at > 0 && before(x, &list[at - 1])) at--;
    if (at >= TRIES) return;
    for (uint32_t j = (*count < TRIES ? *count : TRIES - 1); j > at; j--) list[j] = list[j - 1];
    list[at] = *x;
    if (*count < TRIES) (*count)++;
}

/* The amplitudes to try: HF's default attention factor for the model (YaRN: 0.1 ln factor + 1) and 1 (YaRN
 * with mscale equal to mscale_all_dim, Llama 3), each only when the cells' peak allows it: no cell exceeds the
 * amplitude as stored (diag_peak_allows), and the peak is within 20% of it. */
static uint32_t amplitudes(const freq_model *m, double peak, pe_dtype storage, double *amp) {
    uint32_t n = 0;
    const double yarn = 0.1 * pe_log(m->factor) + 1.0;
    if (diag_peak_allows(storage, peak, 1.0) && peak > 0.8) amp[n++] = 1.0; /* the nearer the peak first */
    if (m->scaling == PE_DIAG_SCALING_YARN && diag_peak_allows(storage, peak, yarn) && peak > 0.8 * yarn)
        amp[n++] = yarn;
    return n;
}

/* 1 when the cells' peak is within PEAK_NEAR of an amplitude as stored: some cell's angle is within 0.1 rad of
 * 0 or pi, as in almost any cache of more than a few cells, and then the peak tells YaRN's factors apart (their
 * amplitudes are 1.7% or more apart; the recurrences read only the fast columns, which the factor leaves alone). */
static int peak_at(const freq_model *m, double peak, pe_dtype storage) {
    double amp[2];
    const uint32_t n = amplitudes(m, peak, storage, amp);
    for (uint32_t a = 0; a < n; a++) {
        const double top = diag_round_storage(storage, (double)(float)amp[a]);
        if (top - peak <= diag_ulp(storage, top) + PEAK_NEAR * top) return 1;
    }
    return 0;
}

/* HF's canonical parameter sets, each the peak allows: pass 0 finds the best distance of each rank (best[2]),
 * pass 1 keeps the first TRIES in read order. */
typedef struct candidates {
    const double *y, *sd; /* the columns read: log w and relative sd */
    uint32_t h;
    double peak;
    pe_dtype storage;
    double best[2];
    candidate list[TRIES];
    uint32_t count, made;
} candidates;

static void consider(candidates *cs, const freq_model *m, int pass) {
    double amp[2];
    if (!amplitudes(m, cs->peak, cs->storage, amp)) return;
    candidate x;
    x.m = *m, x.chi = distance(m, cs->y, cs->sd, cs->h), x.rank = !peak_at(m, cs->peak, cs->storage);
    x.seq = cs->made++;
    if (!(x.chi < MAX_CHI)) return;
    if (pass == 0) {
        if (x.chi < cs->best[x.rank]) cs->best[x.rank] = x.chi;
        return;
    }
    x.tie = x.chi > TIE * cs->best[x.rank] ? x.chi : TIE * cs->best[x.rank];
    keep(cs->list, &cs->count, &x);
}

static void enumerate(candidates *cs, int pass) {
    const uint32_t h = cs->h;
    cs->made = 0;
    for (unsigned b = 0; b < DIAG_ROPE_THETA_COUNT; b++) {
        freq_model m = {0};
        m.recipe = PE_DIAG_RECIPE_F32_HF, m.base = diag_rope_thetas[b], m.dim = 2 * h, m.rule = 0, m.count = h;
        /* each context's Llama 3 sets, then its YaRN ones: Llama 3's bands change only slow columns, so it ties
         * with any YaRN whose ramp lies there too */
        for (unsigned c = 0; c < DIAG_HF_CONTEXT_COUNT; c++) {
            const double l0 = diag_hf_contexts[c];
            m.original_max = l0;
            m.scaling = PE_DIAG_SCALING_LLAMA3, m.low_freq_factor = 1.0, m.high_freq_factor = 4.0;
            for (unsigned f = 0; f < DIAG_HF_LLAMA3_FACTOR_COUNT; f++) {
                m.factor = diag_hf_llama3_factors[f];
                consider(cs, &m, pass);
            }
            /* YaRN, its ramp truncated as HF's default */
            if (!diag_yarn_ramp(&m, l0)) continue;
            m.scaling = PE_DIAG_SCALING_YARN;
            for (unsigned f = 0; f < DIAG_HF_YARN_FACTOR_COUNT; f++) {
                m.factor = diag_hf_yarn_factors[f];
                consider(cs, &m, pass);
            }
        }
    }
}

int diag_exact_cache_scaled(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    if (d->kind != PE_DIAG_COS_SIN || h < 8 || d->storage == PE_DTYPE_FLOAT64 || w->v.rows - w->first_row < MIN_ROWS)
        return 0;
    /* the columns the recurrence reads, in tmp (log w) and psd (relative sd) */
    double *y = w->tmp, *sd = w->psd, peak = 0.0;
    uint32_t read = 0;
    for (uint32_t k = 0; k < h; k++) {
        double wk, rel;
        sd[k] = 0.0;
        if (!diag_cache_step(w, k, &wk, &rel)) continue;
        /* the float32 angle's rounding and the storage's bound how well a column is read */
        const double floor = 2.0 * diag_ulp(d->storage, 1.0);
        y[k] = pe_log(wk), sd[k] = rel > floor ? rel : floor, read++;
    }
    /* a float32 angle's rounding can make every step of a column the same multiple of its quantum (a residual
     * of 0 and a mean off by a quantum over the rows): the median sd is every column's floor (as cache_line) */
    diag_floor_at_median(sd, h, read);
    peak = diag_cache_peak(w);
    if (read < MIN_READ) return 0;
    candidates cs = {0};
    cs.y = y, cs.sd = sd, cs.h = h, cs.peak = peak, cs.storage = d->storage, cs.best[0] = cs.best[1] = MAX_CHI;
    enumerate(&cs, 0);
    enumerate(&cs, 1);
    candidate *list = cs.list;
    const uint32_t count = cs.count;
    float *inv = (float *)w->phase0, *winner = (float *)w->fx; /* fx and fy: 2 DIAG_FIT_SAMPLES doubles */
    if (h > 4 * DIAG_FIT_SAMPLES) return 0;
    for (uint32_t j = 0; j < h; j++) w->order[j] = h - 1 - j; /* both scalings keep the frequencies falling */
    /* the winner's reading: its diagnosis, rms and the frequencies it fit (w->my: free once the offset is read) */
    int found = -1;
    pe_diagnosis won = *d;
    double won_rms = 0.0, *won_w = w->my;
    int won_exact = 0;       /* the winner fits cell for cell (else within noise) */
    uint32_t won_missed = 0; /* and the cells it misses bit for bit */
    double tied = 0.0;       /* the factor of a set the cells fit as well, the rest the winner's */
    const int narrow = d->storage == PE_DTYPE_FLOAT16 || d->storage == PE_DTYPE_BFLOAT16;
    uint64_t budget = BUDGET;
    unsigned char done[TRIES] = {0}, capped[TRIES] = {0};
    const uint64_t reading_nodes = w->reading_nodes;
    /* two passes: every candidate with a small cap per reading (most sets die within it, and a true one found
     * near the search's start fits within it), then those the cap cut short, in order, at the full cap: a few sets
     * whose searches run long (Llama 3 at small factors in bfloat16) no longer spend the budget before the rest */
    for (uint32_t round = 0; round < 2 * count; round++) {
        const int pass = round >= count;
        if (round == 0 || round == count) {
            w->reading_nodes = pass ? reading_nodes : FIRST_STEPS;
            for (uint32_t i = 0; i < count; i++) done[i] = pass ? !capped[i] : 0;
        }
        /* the next in order, or before it one whose slow pairs the memos have walked (nearly free to read) */
        uint32_t c = count;
        for (uint32_t i = 0; i < count && c == count; i++) {
            if (done[i]) continue;
            double amp[2];
            for (uint32_t k = 0; k < h; k++) inv[k] = (float)freq_value(&list[i].m, k);
            if (amplitudes(&list[i].m, peak, d->storage, amp) && diag_memo_covers(w, d->storage, inv, amp[0])) c = i;
        }
        for (uint32_t i = 0; i < count && c == count; i++)
            if (!done[i]) c = i;
        if (c == count) continue;
        done[c] = 1;
        const freq_model *m = &list[c].m;
        for (uint32_t k = 0; k < h; k++) inv[k] = (float)freq_value(m, k);
        if (found >= 0) { /* the same float32 values under other parameters: the same reading */
            uint32_t k = 0;
            while (k < h && inv[k] == winner[k]) k++;
            if (k == h) continue;
        }
        double amp[2], share;
        const uint32_t amps = amplitudes(m, peak, d->storage, amp);
        w->searched |= PE_DIAG_SEARCHED_SCALED, w->searched_candidates += !pass;
        for (uint32_t a = 0; a < amps; a++) {
            pe_diagnosis trial = *d;
            const uint64_t left = budget;
            const int fit = diag_exact_cache_at(w, &trial, inv, amp[a], &budget, &share, rms);
            capped[c] |= !fit && left - budget >= FIRST_STEPS;
            const int exact = fit && share >= SHARE_MIN;
            if (!exact && !(fit && *rms < NOISE_RMS)) continue;
            /* one the cells fit only within noise, behind one they fit cell for cell: no rival */
            if (found >= 0 && won_exact && !exact) continue;
            /* both within an ulp: stored as float16 or bfloat16, the one missing fewer cells bit for bit wins */
            const uint32_t missed = narrow ? diag_cache_cells_missed(w, &trial) : 0;
            if (found >= 0 && won_exact == exact && narrow && missed > won_missed) continue;
            if (found >= 0 && won_exact == exact && !(narrow && missed < won_missed)) {
                /* the winner's set but for the factor: the cells leave the factor open between the two */
                if (!tied && same_but_factor(&list[found].m, m) && trial.scale == won.scale) {
                    tied = m->factor;
                    break;
                }
                /* a third, or a set differing in more: the cells do not fix the scaling, and no guess is made */
                w->reading_nodes = reading_nodes;
                return 0;
            }
            found = (int)c, won = trial, won_rms = *rms, won_exact = exact, won_missed = missed, tied = 0.0;
            for (uint32_t k = 0; k < h; k++) winner[k] = inv[k], won_w[k] = w->w[k];
            break;
        }
    }
    w->reading_nodes = reading_nodes;
    if (found < 0) return 0;
    /* the winner's reading restored (the other candidates' readings wrote the working arrays) */
    const freq_model *m = &list[found].m;
    *d = won, *rms = won_rms;
    d->factor_tied = tied;
    for (uint32_t k = 0; k < h; k++) {
        w->w[k] = won_w[k], w->sigma[k] = 0.0;
        w->src[w->col_sin[k]] = w->src[w->col_cos[k]] = won.cache_cos ? h + k : k;
    }
    d->rule = 0, d->base = m->base, d->base_round = 1;
    if (d->base_digits < 1) d->base_digits = 1;
    d->scaling = m->scaling, d->factor = m->factor;
    if (m->scaling == PE_DIAG_SCALING_YARN)
        d->band_low = m->ramp_low, d->band_high = m->ramp_high;
    else {
        d->band_low = m->original_max / m->low_freq_factor, d->band_high = m->original_max / m->high_freq_factor;
        d->unread_wavelength = unread_wavelength(w, d, m->base);
    }
    freq_model exact = *m;
    exact.recipe = PE_DIAG_RECIPE_EXACT;
    for (uint32_t k = 0; k < h; k++) w->model_w[k] = freq_value(&exact, k);
    return 1;
}
