/* A LongRoPE cos or sin cache read exactly at any first position.
 *
 * HF's longrope inv_freq is 1 / (ext_k rope_theta^(2k/d)) in float32, one
 * factor ext_k per column from a config list (two decimals each, as configs
 * write them), and the cache is cos or sin of the float32 angle times the
 * attention factor sqrt(1 + ln f / ln L0) (f = max_position_embeddings / L0).
 * The factors are free, so no parameter set can be listed as for YaRN; but a
 * column that turns enough over the rows has its frequency read from its
 * recurrence (no first position enters) to better than the gap between two
 * two-decimal factors. Those columns, whose inv_freq is then HF's to an ulp,
 * are read cell by cell with the first position searched over [0, 2^31)
 * (diag_exact_cache_at, on those columns alone), at each amplitude HF's
 * formula gives near the columns' fitted amplitude. Once the position is
 * known, each other column's frequency is the branch (angle + 2 pi m) / p of
 * its cells that fits them all: far from position 0 that fixes it, near 0 a
 * range is left (diag_pair_range.c states which factors stay open). */
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

#define MIN_FIXED        4       /* columns whose factor the recurrence fixes, to search positions on */
#define BUDGET           2000000 /* search steps over every theta and amplitude */
#define MAX_AMPS         3       /* amplitudes read per theta */
#define READ_REL         0.02    /* a recurrence read closer than this (relative) can fix a two-decimal factor */
#define SD_SPAN          4.0     /* a factor within this many sds of the recurrence's */
#define SHARE_MIN        0.99    /* cells within an ulp for the reading to count */
#define CHECK_ROWS       64u     /* rows a column's branch is checked on */
#define MAX_BRANCHES     2000.0
#define READING_STEPS    500000  /* search steps per reading (cos or sin) */
#define MAX_TWO_DECIMALS 30000.0 /* two-decimal factors (or branches) a column's frequency is sought among */
#define MAX_FACTOR                                                                                               \
    256.0 /* LongRoPE factors above it are not sought */ /* turns of the slowest fixed column over the positions \
                                                            searched */

static double f32(double x) {
    return (double)(float)x;
}

/* HF's float32 1 / (ext * theta ** (2k / d)) for factor e of column k. */
static float hf_inv(double e, double theta, uint32_t k, uint32_t h) {
    const double shape = f32(f32(2.0 * k) / f32(2.0 * h)), x = shape * pe_log(theta);
    const double power = f32(x <= 0 ? pe_exp_nonpositive(x) : 1.0 / pe_exp_nonpositive(-x));
    return (float)(1.0 / f32(f32(e) * power));
}

/* The one two-decimal factor within [lo, hi] (float32, as a config list becomes), else 0. */
static double one_two_decimal(double lo, double hi) {
    double one = 0.0;
    int count = 0;
    for (double c = diag_round_int(lo * 100.0); c <= diag_round_int(hi * 100.0) + 1.0 && count < 2; c += 1.0) {
        const double x = f32(c / 100.0);
        if (x >= lo && x <= hi && x > 0.0) count++, one = x;
    }
    return count == 1 ? one : 0.0;
}

/* HF's attention factors sqrt(1 + ln f / ln L0) (f and L0 powers of two, f from 2 to 2^8, L0 from 2^8 to 2^20),
 * and 1, whose float32 value lies within tol of a and is at least the cells' peak: the closest first, at most
 * MAX_AMPS. */
static uint32_t amplitudes(const diag_work *w, const pe_diagnosis *d, double a, double tol, double *out) {
    const double peak = diag_cache_peak(w);
    double off[MAX_AMPS];
    uint32_t n = 0;
    for (int lf = 0; lf <= 8; lf++)
        for (int l0 = lf ? 8 : 20; l0 <= 20; l0++) {
            const double x = f32(diag_sqrt(1.0 + (double)lf / (double)l0)), e = x > a ? x - a : a - x;
            if (!(e <= tol) || !diag_peak_allows(d->storage, peak, x)) continue;
            uint32_t at = n, dup = 0;
            for (uint32_t j = 0; j < n; j++) dup |= out[j] == x;
            if (dup) continue;
            while (at > 0 && off[at - 1] > e) at--;
            if (at >= MAX_AMPS) continue;
            for (uint32_t j = (n < MAX_AMPS ? n : MAX_AMPS - 1); j > at; j--) out[j] = out[j - 1], off[j] = off[j - 1];
            out[at] = x, off[at] = e;
            if (n < MAX_AMPS) n++;
        }
    return n;
}

/* 1 when column k regenerated at float32 inv_freq inv (first position p0 at row r0, cos or sin, float32
 * amplitude a32) is within half an ulp of the storage (and PyTorch's float32 cos) of its checked rows; *e2 their
 * sum of squares. */
static int column_fits_at(const diag_work *w, const pe_diagnosis *d, uint32_t k, uint32_t r0, double p0, double a32,
                          double inv, double *e2) {
    const uint32_t col = w->col_sin[k], n = w->v.rows - r0, m_rows = n < CHECK_ROWS ? n : CHECK_ROWS;
    *e2 = 0.0;
    for (uint32_t j = m_rows; j-- > 0;) { /* the last rows first: they part the candidates most */
        const uint32_t r = r0 + (uint32_t)(m_rows > 1 ? ((uint64_t)j * (n - 1)) / (m_rows - 1) : 0);
        if (w->zero[r]) continue;
        double s, c;
        pe_sincos(f32(inv * f32(p0 + (r - r0))), &s, &c);
        const double model = a32 * (d->cache_cos ? c : s), v = diag_at(&w->v, r, col), e = model - v;
        const double tol = diag_cache_cell_tol(d->storage, v, model, a32);
        if (e > tol || -e > tol) return 0;
        *e2 += e * e;
    }
    return 1;
}

/* The best fitting float32 inv_freq within 2 ulps of wv (the float32 angle's rounding at p0 moves a branch by an
 * ulp or two), or wide: 3 or 4 ulps off it (a list's factor an ulp or two off the two-decimal float32: 64.81001
 * for 64.81, a list computed in float32); 0 when none fits. */
static double fitting_ulps(const diag_work *w, const pe_diagnosis *d, uint32_t k, uint32_t r0, double p0, double a32,
                           double wv, int wide, double *best_e2) {
    double best = 0.0;
    *best_e2 = 1e300;
    for (int v = wide ? -4 : -2; v <= (wide ? 4 : 2); v++) {
        if (wide && v >= -2 && v <= 2) continue;
        const double inv = f32(wv) + v * diag_ulp(PE_DTYPE_FLOAT32, f32(wv));
        double e2;
        if (inv > 0.0 && column_fits_at(w, d, k, r0, p0, a32, inv, &e2) && e2 < *best_e2) *best_e2 = e2, best = inv;
    }
    return best;
}

/* Column k's frequency at the first position p0: the two-decimal factor in [e_lo, e_hi] whose HF inv_freq fits
 * its cells when exactly one does; when several do, the best, with the frequencies they span in *open_lo and
 * *open_hi (else 0: one fits, or none); guess when none does (or too many to try). */
static double column_frequency(const diag_work *w, const pe_diagnosis *d, uint32_t k, uint32_t r0, double p0,
                               double amp, double theta, double e_lo, double e_hi, double guess, double *open_lo,
                               double *open_hi) {
    const double a32 = f32(amp);
    double e2, found = 0.0, found_e2 = 1e300;
    uint32_t fits = 0;
    *open_lo = *open_hi = 0.0;
    const double c_lo = diag_round_int(e_lo * 100.0), c_hi = diag_round_int(e_hi * 100.0);
    /* the two-decimal floats first; only when none fits, the factors a few ulps off them */
    for (int wide = 0; wide < 2 && fits == 0 && c_hi - c_lo < MAX_TWO_DECIMALS; wide++) {
        for (double c = c_lo; c <= c_hi; c += 1.0) {
            const double inv = fitting_ulps(w, d, k, r0, p0, a32, (double)hf_inv(c / 100.0, theta, k, w->h), wide, &e2);
            if (!(inv > 0.0)) continue;
            if (fits++ == 0) *open_hi = inv;
            *open_lo = inv;
            if (e2 < found_e2) found_e2 = e2, found = inv;
        }
        if (fits == 1) *open_lo = *open_hi = 0.0;
        if (fits >= 1) return found; /* several: the best, and the frequencies they span (open) */
    }
    /* no two-decimal factor fits (a list written otherwise): the caller's guess, which diag_pair_range.c's
     * search around it brackets */
    return guess;
}

/* A turning column's frequency refined from wv by least squares on a cos(w x) + b sin(w x), x centred on the
 * rows (then w hardly correlates with a and b, so each step solves a and b, then w alone): far from position 0
 * a float32 angle's rounding jitters each cell's phase (0.03 rad at 10^6), which the recurrence's second
 * differences magnify and a fit of the whole sinusoid averages. *rel its relative sd, *amp its amplitude. */
static int sine_read(const diag_work *w, uint32_t r0, uint32_t k, double wv, double *wk, double *rel, double *amp) {
    const uint32_t end = w->v.rows < r0 + 512 ? w->v.rows : r0 + 512;
    const double mid = 0.5 * (double)(end - 1 - r0);
    double jj = 0.0, e2 = 0.0;
    uint32_t n = 0;
    for (int it = 0; it < 8; it++) {
        double m[5] = {0}; /* cc, ss, cs, vc, vs */
        for (int pass = 0; pass < 2; pass++) {
            const double det = m[0] * m[1] - m[2] * m[2], a = pass ? (m[3] * m[1] - m[4] * m[2]) / det : 0.0,
                         b = pass ? (m[4] * m[0] - m[3] * m[2]) / det : 0.0;
            double ej = 0.0;
            jj = e2 = 0.0, n = 0;
            for (uint32_t r = r0; r < end; r++) {
                if (w->zero[r]) continue;
                const double x = (double)(r - r0) - mid, v = diag_at(&w->v, r, w->col_sin[k]);
                double sn, cs;
                pe_sincos(wv * x + 256.0 * DIAG_TWO_PI, &sn, &cs); /* its domain is >= 0: wv <= pi, x >= -256 */
                if (!pass) {
                    m[0] += cs * cs, m[1] += sn * sn, m[2] += cs * sn, m[3] += v * cs, m[4] += v * sn;
                    continue;
                }
                const double j = x * (b * cs - a * sn), e = v - a * cs - b * sn;
                ej += j * e, jj += j * j, e2 += e * e, n++;
            }
            if (!pass && !(m[0] * m[1] - m[2] * m[2] > 0.0)) return 0;
            if (pass) {
                *amp = diag_sqrt(a * a + b * b);
                if (!(jj > 0.0) || !diag_finite(ej / jj) || ej / jj > 0.1 * wv || -ej / jj > 0.1 * wv) return 0;
                wv += ej / jj;
            }
        }
    }
    if (n < 8) return 0;
    *wk = wv, *rel = diag_sqrt((e2 / (n - 3) + 1e-16) / jj) / wv;
    return wv > 0.0;
}

/* acos(u), u clamped to [-1, 1] */
static double angle_of(double u) {
    u = u > 1.0 ? 1.0 : u < -1.0 ? -1.0 : u;
    return diag_atan2(diag_sqrt(1.0 - u * u), u);
}

/* A slow column's frequency at amplitude amp: the slope of acos(cell / amp) over the rows (cos and sin alike: a
 * column that turns less than a half turn over them stays on one side of an extremum, or the fit's residuals say
 * it did not), and its relative sd. 0 when it turns too little to read or folds. */
static int slope_read(const diag_work *w, pe_dtype storage, uint32_t r0, uint32_t k, double amp, double *wk,
                      double *rel) {
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, q2 = 0.0;
    uint32_t n = 0;
    for (uint32_t r = r0; r < w->v.rows && r < r0 + 512; r++) {
        if (w->zero[r]) continue;
        const double v = diag_at(&w->v, r, w->col_sin[k]), half = 0.5 * diag_ulp(storage, v);
        const double y = angle_of(v / amp), x = (double)(r - r0);
        /* the angles the cell's rounding spans, half of it either side */
        const double q = 0.5 * (angle_of((v - half) / amp) - angle_of((v + half) / amp));
        sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y, q2 += q * q, n++;
    }
    if (n < 8) return 0;
    const double vxx = sxx - sx * sx / n, vxy = sxy - sx * sy / n, vyy = syy - sy * sy / n;
    if (!(vxx > 0.0)) return 0;
    const double b = vxy / vxx, res = vyy - b * vxy, s2 = (res > 0.0 ? res : 0.0) / (n - 2);
    /* the angle's floor: the storage's rounding, uniform over each cell's span (a float16 column turning slowly
     * rounds to steps that can fall on a line by chance: a residual of nearly 0 and a slope off by more than the
     * gap between two two-decimal factors) */
    const double floor = q2 / (3.0 * n) > 1e-16 ? q2 / (3.0 * n) : 1e-16;
    const double sd = diag_sqrt((s2 > floor ? s2 : floor) / vxx), slope = b < 0.0 ? -b : b;
    if (!(slope > 0.0) || slope * n > 1.5) return 0;
    *wk = slope, *rel = sd / slope;
    return 1;
}

int diag_exact_cache_longrope(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    uint32_t r0 = w->first_row;
    while (r0 < w->v.rows && w->zero[r0]) r0++;
    if (d->kind != PE_DIAG_COS_SIN || h < MIN_FIXED || h > PE_DIAG_PAIR_FACTORS || r0 + 16 > w->v.rows) return 0;
    /* scratch: the recurrences in mx / my, the columns as found in tmp, the sub-reading's inv in phase0 */
    double *wk = w->mx, *rel = w->my;
    uint32_t *cols = (uint32_t *)w->tmp, *pick = cols + h;
    float *inv = (float *)w->phase0;
    double *amp_at = w->psd;
    uint32_t n_amp = 0;
    for (uint32_t k = 0; k < h; k++) cols[k] = w->col_sin[k];
    for (uint32_t k = 0; k < h; k++) {
        double sw, sr, sa, off;
        if (!diag_cache_step(w, k, &wk[k], &rel[k]) || !(rel[k] < READ_REL)) {
            wk[k] = 0.0, rel[k] = 1.0;
            continue;
        }
        if (!sine_read(w, r0, k, wk[k], &sw, &sr, &sa)) continue;
        off = (sw - wk[k]) / wk[k];
        if (sr < rel[k] && off * off < 16.0 * rel[k] * rel[k]) wk[k] = sw, rel[k] = sr;
        /* the amplitude of the columns that turn a full turn over the rows, read well */
        if (rel[k] < 1e-2 && wk[k] * (w->v.rows - r0) > 6.0) amp_at[n_amp++] = sa;
    }
    /* their median and its spread */
    if (n_amp == 0) return 0;
    for (uint32_t i = 1; i < n_amp; i++) /* insertion sort: n_amp <= h */
        for (uint32_t j = i; j > 0 && amp_at[j] < amp_at[j - 1]; j--) {
            const double t = amp_at[j];
            amp_at[j] = amp_at[j - 1], amp_at[j - 1] = t;
        }
    const double amp_read = amp_at[n_amp / 2],
                 amp_sd = (amp_at[(3 * n_amp) / 4] - amp_at[n_amp / 4]) / diag_sqrt((double)n_amp);
    /* the fit's spread, and the float32 angle's rounding, which a fitted amplitude underestimates (4e-4 at
     * 10^6): the tolerance */
    double amps[MAX_AMPS];
    const uint32_t n_amps = amplitudes(w, d, amp_read, 4.0 * amp_sd + 5e-4 * amp_read, amps);
    if (n_amps == 0) return 0;
    uint64_t budget = BUDGET;
    double *open_lo = w->freq, *open_hi = w->freq_sd; /* set after the last search (its scratch), then kept */
    /* per amplitude: the recurrences, or the slopes where better (model_w and psd: diag_exact_cache_at leaves
     * them, and model_w is set last) */
    double *wk2 = w->model_w, *rel2 = w->psd;
    for (unsigned t = 0; t < DIAG_ROPE_THETA_COUNT * n_amps && budget > 0; t++) {
        const double theta = diag_rope_thetas[t / n_amps], amp = amps[t % n_amps];
        for (uint32_t k = 0; k < h; k++) {
            double sw, sr;
            wk2[k] = wk[k], rel2[k] = rel[k];
            if (slope_read(w, d->storage, r0, k, amp, &sw, &sr) && sr < rel[k]) wk2[k] = sw, rel2[k] = sr;
        }
        uint32_t fixed = 0;
        for (uint32_t k = 0; k < h; k++) {
            if (!(wk2[k] > 0.0 && rel2[k] < READ_REL)) continue;
            const double shape = diag_exp(-(double)k * pe_log(theta) / h), e = shape / wk2[k];
            const double span = SD_SPAN * rel2[k] + 1e-6, one = one_two_decimal(e * (1.0 - span), e * (1.0 + span));
            if (!(one >= 1.0)) continue; /* LongRoPE stretches: factors below 1 are chance matches */
            pick[fixed] = k;
            inv[fixed++] = hf_inv(one, theta, k, h);
        }
        if (fixed < MIN_FIXED) continue;
        for (uint32_t j = 0; j < fixed; j++) w->col_sin[j] = cols[pick[j]];
        for (uint32_t j = 0; j < fixed; j++) w->order[j] = fixed - 1 - j;
        /* positions up to where the slowest fixed column has MAX_BRANCHES branches, then ten times as far (its
         * factor the slowest the recurrences fix: past that the search would walk every turn of a fast column;
         * a search walks each float32 neighbour of a column over the whole range in turn, so the near range
         * first) */
        double slowest = 1e300;
        for (uint32_t j = 0; j < fixed; j++) slowest = inv[j] < slowest ? inv[j] : slowest;
        pe_diagnosis trial = *d;
        int found = 0;
        double reached = 0.0;
        for (int stage = 0; stage < 2 && !found && budget > 0 && reached < 0x1p31; stage++) {
            const double limit = (stage ? 10.0 : 1.0) * MAX_BRANCHES * DIAG_TWO_PI / slowest;
            double share;
            reached = limit;
            trial = *d;
            w->search_limit = limit;
            w->reading_nodes = READING_STEPS;
            w->h = fixed;
            w->memo[0].valid = w->memo[1].valid = 0; /* its pairs are this reading's columns, not the table's */
            w->searched |= PE_DIAG_SEARCHED_LONGROPE, w->searched_candidates++;
            found =
                diag_exact_cache_at(w, &trial, inv, amp, &budget, &share, rms) && (share >= SHARE_MIN || *rms < 1e-5);
            w->h = h;
            w->reading_nodes = 0;
        }
        w->search_limit = 0.0;
        if (found) {
            /* the fixed columns' inv_freq as the cells fit them; the others' from their branches at p0 */
            for (uint32_t j = 0; j < fixed; j++) inv[j] = (float)w->w[j];
            for (uint32_t k = 0; k < h; k++) w->col_sin[k] = cols[k], w->w[k] = 0.0;
            for (uint32_t j = 0; j < fixed; j++) w->w[pick[j]] = inv[j];
            const double p0 = trial.offset + (double)(r0 - w->first_row);
            for (uint32_t k = 0; k < h; k++) open_lo[k] = open_hi[k] = 0.0;
            for (uint32_t k = 0; k < h; k++) {
                if (w->w[k] > 0.0) continue;
                /* its factor: within the recurrence's reach where it has one, else between its fixed neighbours'
                 * frequencies (inv_freq falls with k), and at least 1 */
                const double shape = diag_exp(-(double)k * pe_log(theta) / h);
                double e_lo = 1.0, e_hi = MAX_FACTOR;
                const double faster = k == 0 ? 0.0 : open_hi[k - 1] > 0.0 ? open_hi[k - 1] : w->w[k - 1];
                if (faster > 0.0 && shape / faster > e_lo) e_lo = shape / faster * (1.0 - 1e-3);
                for (uint32_t j = 0; j < fixed; j++)
                    if (pick[j] > k && shape / w->w[pick[j]] < e_hi) e_hi = shape / w->w[pick[j]] * (1.0 + 1e-3);
                if (wk2[k] > 0.0 && rel2[k] < 0.05) {
                    const double e = shape / wk2[k], span = 6.0 * rel2[k] + 1e-6;
                    if (e * (1.0 - span) > e_lo) e_lo = e * (1.0 - span);
                    if (e * (1.0 + span) < e_hi) e_hi = e * (1.0 + span);
                }
                if (!(e_lo < e_hi)) e_hi = MAX_FACTOR; /* bounds that cross: a factor that falls (rare) */
                const double guess = wk2[k] > 0.0 && rel2[k] < 0.05 ? wk2[k] : shape / e_lo;
                w->w[k] =
                    column_frequency(w, &trial, k, r0, p0, amp, theta, e_lo, e_hi, guess, &open_lo[k], &open_hi[k]);
            }
            *d = trial;
        }
        for (uint32_t k = 0; k < h; k++) w->col_sin[k] = cols[k];
        w->memo[0].valid = w->memo[1].valid = 0;
        if (!found) continue;
        for (uint32_t k = 0; k < h; k++) {
            w->src[w->col_sin[k]] = w->src[w->col_cos[k]] = d->cache_cos ? h + k : k;
            w->sigma[k] = 0.0;
            w->model_w[k] = w->w[k];
        }
        d->rule = 0, d->base = d->rope_theta = theta, d->base_round = 1;
        d->scaling = PE_DIAG_SCALING_PER_PAIR;
        w->open_lo = open_lo, w->open_hi = open_hi;
        return 1;
    }
    return 0;
}
