/* How far the cells fix a LongRoPE cache's per-pair factors (diag_scaling.c).
 * A column that hardly turns over the rows it has (a few rows from position
 * 0, the low frequencies, a bfloat16 cache) fits any frequency below some
 * bound, and its fitted factor is then a number the data never gave. Here
 * each column is regenerated as HF does (float32 inv_freq, float32 angle,
 * cos or sin times the float32 attention factor, rounded to the storage) and
 * the factors whose columns reproduce every checked cell are bracketed around
 * the fit: the reading states a factor only where that bracket holds one
 * value a config would write (two decimals) or is narrower than the fit's own
 * precision, and gives the bracket otherwise. */
#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/sincos.h"

#define CHECKED_ROWS   512u  /* rows checked per column: spread evenly, first and last included */
#define FIXED_WIDTH    2e-4  /* a bracket narrower than this (relative) fixes its factor (to 4 digits) */
#define AVERAGING_ROWS 1024u /* rows from which the fit's sd bounds a factor better than the bracket */
/* the regenerated column is HF's up to PyTorch's float32 pow, reciprocal and cos (an ulp or two each): a cell at
 * a rounding edge can pinch a bracket below that, so a two-decimal value this close (relative) still counts */
#define SNAP_SLACK   2e-5
#define UNBOUNDED    1e300 /* a factor with no upper bound: the column never leaves A (cos) or 0 (sin) */
#define EXACT_VALUES 200   /* two-decimal values a bracket may hold for each to be regenerated bit for bit */
#define EXACT_ULPS   2     /* inv_freq ulps either side (PyTorch's float32 pow is not correctly rounded) */

/* The float32 value of x (HF's inv_freq, angle and attention factor are float32). */
static double f32(double x) {
    return (double)(float)x;
}

/* 1 when column col, regenerated at frequency wv, is within half an ulp of the storage (one of float32 for the
 * float32 steps) of every checked cell. */
static int column_fits(const diag_work *w, const pe_diagnosis *d, uint32_t col, double amp, double wv) {
    const uint32_t first = w->first_row, n = w->v.rows - first;
    const uint32_t m = n < CHECKED_ROWS ? n : CHECKED_ROWS;
    const double inv = f32(wv), a32 = f32(amp);
    for (uint32_t k = m; k-- > 0;) { /* the last rows first: the farthest positions hold w the tightest */
        const uint32_t x = m > 1 ? (uint32_t)(((uint64_t)k * (n - 1)) / (m - 1)) : 0;
        const double p = d->offset + x, v = diag_at(&w->v, first + x, col);
        if (!(p >= 0.0 && p < 0x1p31)) return 0;
        double s, c;
        pe_sincos(f32(inv * p), &s, &c);
        const double model = a32 * (d->cache_cos ? c : s), e = model - v;
        const double tol = diag_cache_cell_tol(d->storage, v, model, a32);
        if (e > tol || -e > tol) return 0;
    }
    return 1;
}

/* The edge of the frequencies that fit, from wv (which fits) towards wv * (1 + dir * s) for s up to limit:
 * doubling steps, then bisection. Returns the last relative step that fits; limit when every step fits. */
static double fit_edge(const diag_work *w, const pe_diagnosis *d, uint32_t col, double amp, double wv, double dir,
                       double limit) {
    double good = 0.0, bad = -1.0;
    for (double s = 1e-7; s <= limit; s *= 2.0) {
        if (!column_fits(w, d, col, amp, wv * (1.0 + dir * s))) {
            bad = s;
            break;
        }
        good = s;
    }
    if (bad < 0.0) return column_fits(w, d, col, amp, wv * (1.0 + dir * limit)) ? limit : good;
    for (int it = 0; it < 14; it++) {
        const double mid = 0.5 * (good + bad);
        if (column_fits(w, d, col, amp, wv * (1.0 + dir * mid)))
            good = mid;
        else
            bad = mid;
    }
    return good;
}

/* A frequency near wv the column fits: wv itself, else the nearest on a grid of steps of 5e-7 (relative) out to
 * 1e-3, then of 2% out to 60%; 0 when none. Cells near a zero of cos or sin hold the column to a sliver (their
 * ulp is small) a coarser grid steps over. */
static double fitting_near(const diag_work *w, const pe_diagnosis *d, uint32_t col, double amp, double wv) {
    if (column_fits(w, d, col, amp, wv)) return wv;
    for (double s = 5e-7; s < 0.6; s = s < 1e-3 ? s + 5e-7 : s * 1.02) {
        if (column_fits(w, d, col, amp, wv * (1.0 + s))) return wv * (1.0 + s);
        if (column_fits(w, d, col, amp, wv * (1.0 - s))) return wv * (1.0 - s);
    }
    return 0.0;
}

/* Two-decimal values in [lo, hi], widened by SNAP_SLACK (as float32, which configs' lists become): how many (2 meaning
 * two or more), and the one when there is one. */
static int two_decimals_in(double lo, double hi, double *one) {
    if (!(hi < 1e6)) return 2;
    int count = 0;
    for (double c = diag_round_int(lo * 100.0) - 1.0; c <= diag_round_int(hi * 100.0) + 1.0 && count < 2; c += 1.0) {
        const double x = f32(c / 100.0);
        if (x >= lo * (1.0 - SNAP_SLACK) && x <= hi * (1.0 + SNAP_SLACK)) count++, *one = x;
    }
    return count;
}

/* 1 when column col regenerated at float32 frequency inv, or an ulp or two off it, gives every checked cell bit
 * for bit (float32 angle, correctly rounded float32 sin or cos, times the float32 amplitude, rounded to the
 * storage). */
static int column_exact(const diag_work *w, const pe_diagnosis *d, uint32_t col, double amp, float inv) {
    const uint32_t first = w->first_row, n = w->v.rows - first, m = n < CHECKED_ROWS ? n : CHECKED_ROWS;
    const double a32 = f32(amp), ulp = diag_ulp(PE_DTYPE_FLOAT32, (double)inv);
    for (int v = -EXACT_ULPS; v <= EXACT_ULPS; v++) {
        const double f = (double)inv + v * ulp;
        uint32_t k = m;
        while (k-- > 0) {
            const uint32_t x = m > 1 ? (uint32_t)(((uint64_t)k * (n - 1)) / (m - 1)) : 0;
            double s, c;
            pe_sincos(f32(f * (d->offset + x)), &s, &c);
            const double y = diag_round_storage(d->storage, f32(f32(d->cache_cos ? c : s) * a32));
            if (diag_at(&w->v, first + x, col) != y) break;
        }
        if (k == UINT32_MAX) return 1; /* every cell, down to the first */
    }
    return 0;
}

/* Stored as float16 or bfloat16, where HF's recipe with correctly rounded float32 sin/cos misses all but no
 * cell of its own (PyTorch's sin/cos an ulp off seldom cross the storage's rounding): the two-decimal factors in
 * [lo, hi] whose columns, regenerated as HF computes inv_freq (1 / (factor rope_theta^(2k/d)) in float32), give
 * every cell bit for bit. Returns how many (2 meaning two or more, or too many to try), the one in *one. The
 * bracket allows a storage ulp per cell, which lets neighbouring factors through. */
static int two_decimals_exact(const diag_work *w, const pe_diagnosis *d, uint32_t k, double amp, double log_theta,
                              double lo, double hi, double *one) {
    if (!(hi < UNBOUNDED) || (hi - lo) * 100.0 > EXACT_VALUES) return 2;
    freq_model m = {0};
    m.recipe = PE_DIAG_RECIPE_F32_HF, m.base = diag_exp(log_theta), m.dim = 2 * w->h, m.count = w->h;
    m.scaling = PE_DIAG_SCALING_PER_PAIR, m.ext = w->tmp; /* only ext[k] is read */
    int count = 0;
    for (double c = diag_round_int(lo * 100.0) - 1.0; c <= diag_round_int(hi * 100.0) + 1.0 && count < 2; c += 1.0) {
        const double x = f32(c / 100.0);
        if (!(x >= lo * (1.0 - SNAP_SLACK) && x <= hi * (1.0 + SNAP_SLACK))) continue;
        w->tmp[k] = x;
        if (column_exact(w, d, w->col_sin[k], amp, (float)freq_value(&m, k))) count++, *one = x;
    }
    return count == 1 ? 1 : 2;
}

/* A pair the fit read no frequency for (its column never leaves A or 0 over the rows: 8 rows from position 0
 * hold cos of under 1e-4 rad in the slow pairs): any frequency from 0 up to some edge fits, so its factor is open
 * from the edge's up, unbounded. 1 when the column fits a frequency near 0 and the pair is opened; 0 when it does
 * not (the pair stays as read). */
static int unread_pair(const diag_work *w, pe_diagnosis *d, uint32_t k, double amp, double log_theta) {
    const uint32_t col = w->col_sin[k];
    const double shape = diag_exp(-2.0 * k * log_theta / (2.0 * w->h)); /* the unscaled frequency */
    double wv = shape * 1e-9;
    if (!column_fits(w, d, col, amp, wv)) return 0;
    while (wv < 64.0 * shape && column_fits(w, d, col, amp, 2.0 * wv)) wv *= 2.0;
    const double up = fit_edge(w, d, col, amp, wv, 1.0, 1.0);
    d->pair_factor_lo[k] = shape / (wv * (1.0 + up)), d->pair_factor_hi[k] = UNBOUNDED;
    d->pair_factor[k] = d->pair_factor_lo[k], d->pair_factor_open[k] = 1;
    return 1;
}

uint32_t diag_pair_ranges(const diag_work *w, pe_diagnosis *d, double amp, double log_theta) {
    uint32_t open = 0;
    for (uint32_t k = 0; k < d->pair_factors; k++) {
        d->pair_factor_lo[k] = d->pair_factor_hi[k] = d->pair_factor[k];
        d->pair_factor_open[k] = 0;
        if (!(w->w[k] > 0.0 && d->pair_factor[k] > 0.0)) {
            open += (uint32_t)unread_pair(w, d, k, amp, log_theta);
            continue;
        }
        const uint32_t col = w->col_sin[k];
        const int narrow = d->storage == PE_DTYPE_FLOAT16 || d->storage == PE_DTYPE_BFLOAT16;
        double one = 0.0;
        if (w->open_lo && w->open_lo[k] > 0.0) { /* several two-decimal factors fit, far apart: their span */
            const double shape = diag_exp(-2.0 * k * log_theta / (2.0 * w->h));
            const double lo = shape / w->open_hi[k], hi = shape / w->open_lo[k];
            d->pair_factor_lo[k] = lo, d->pair_factor_hi[k] = hi;
            /* unless one alone gives every cell bit for bit */
            if (narrow && two_decimals_exact(w, d, k, amp, log_theta, lo, hi, &one) == 1) {
                d->pair_factor[k] = one;
                continue;
            }
            open++, d->pair_factor_open[k] = 1;
            continue;
        }
        const double wv = fitting_near(w, d, col, amp, w->w[k]);
        if (!(wv > 0.0)) continue; /* no frequency reproduces the column: the fit stands, as read */
        /* factor = 1 / (w theta^(2k/d)): the frequency's bracket upside down */
        const double shape = diag_exp(-2.0 * k * log_theta / (2.0 * w->h));
        const double up = fit_edge(w, d, col, amp, wv, 1.0, 64.0), down = fit_edge(w, d, col, amp, wv, -1.0, 0.999999);
        const double lo = shape / (wv * (1.0 + up)), hi = down >= 0.999999 ? UNBOUNDED : shape / (wv * (1.0 - down));
        d->pair_factor_lo[k] = lo, d->pair_factor_hi[k] = hi;
        /* many rows fix a factor past the bracket of the worst cell: the least-squares fit averages their
         * rounding (its sd falls as 1 / sqrt(rows)); within the bracket, 4 sd of it stands as a reading. Over
         * few rows the rounding does not average out and the sd is no bound (32 float16 rows: 2.4 sd off) */
        const double rel = w->sigma[k] / w->w[k], e = d->pair_factor[k];
        const int fit_fixed =
            w->v.rows - w->first_row >= AVERAGING_ROWS && rel > 0.0 && 4.0 * rel <= FIXED_WIDTH && e >= lo && e <= hi;
        const int count = fit_fixed ? two_decimals_in(e * (1.0 - 4.0 * rel), e * (1.0 + 4.0 * rel), &one)
                                    : two_decimals_in(lo, hi, &one);
        if (count == 1 || (!fit_fixed && narrow && two_decimals_exact(w, d, k, amp, log_theta, lo, hi, &one) == 1))
            d->pair_factor[k] = one;
        else if (fit_fixed)
            continue;
        else if (hi - lo <= FIXED_WIDTH * lo)
            d->pair_factor[k] = 0.5 * (lo + hi);
        else
            open++, d->pair_factor_open[k] = 1, d->pair_factor[k] = hi < UNBOUNDED ? 0.5 * (lo + hi) : lo;
    }
    return open;
}
