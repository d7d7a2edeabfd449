/* The shape of a table before any fitting: which way round it is, which rows
 * are padding zeros, which dtype its values fit, and how its columns go
 * together (sine-cosine pairs, or one function per column with halves or
 * neighbours duplicated). Scores are ratios of sums, so they do not depend
 * on the table's scale. */
#include <string.h>

#include "diag_internal.h"

#define ORIENT_SERIES 64u  /* series sampled per orientation */
#define ORIENT_LENGTH 512u /* values per series */

/* Unexplained share of a set of series by the three-term recurrence
 * v[k-1] + v[k+1] = 2 cos(w) v[k] that every sinusoid obeys, each with its own
 * best w: near 0 for sinusoids, order 1 for noise. Series s is
 * data[s * s_stride + k * k_stride], k < length. */
static double recurrence_share(const float *data, size_t s_stride, size_t k_stride, uint32_t series, uint32_t length,
                               uint32_t total_series) {
    double residual = 0.0, energy = 0.0;
    uint32_t step = total_series > series ? total_series / series : 1;
    for (uint32_t s = 0; s < total_series; s += step) {
        double tu = 0.0, uu = 0.0, tt = 0.0;
        for (uint32_t k = 1; k + 1 < length; k++) {
            double t =
                (double)data[s * s_stride + (k - 1) * k_stride] + (double)data[s * s_stride + (k + 1) * k_stride];
            double u = data[s * s_stride + k * k_stride];
            tu += t * u;
            uu += u * u;
            tt += t * t;
        }
        residual += uu > 0.0 ? tt - tu * tu / uu : tt;
        energy += tt;
    }
    return energy > 0.0 ? residual / energy : 1.0;
}

int diag_transposed(const float *table, uint32_t rows, uint32_t cols) {
    if (rows < 3 || cols < 3) return 0;
    uint32_t down = rows < ORIENT_LENGTH ? rows : ORIENT_LENGTH;
    uint32_t across = cols < ORIENT_LENGTH ? cols : ORIENT_LENGTH;
    double as_given = recurrence_share(table, 1, cols, ORIENT_SERIES, down, cols);
    double swapped = recurrence_share(table, cols, 1, ORIENT_SERIES, across, rows);
    return swapped < 0.1 * as_given && swapped < 0.01;
}

void diag_zero_rows(diag_work *w, pe_diagnosis *d) {
    const diag_view *v = &w->v;
    int seen_nonzero = 0;
    d->leading_zero_rows = 0;
    d->zero_rows = 0;
    d->first_inner_zero_row = -1;
    for (uint32_t r = 0; r < v->rows; r++) {
        int zero = 1;
        for (uint32_t c = 0; c < v->cols && zero; c++) zero = diag_at(v, r, c) == 0.0;
        w->zero[r] = (unsigned char)zero;
        if (!zero) {
            seen_nonzero = 1;
            continue;
        }
        d->zero_rows++;
        if (!seen_nonzero)
            d->leading_zero_rows++;
        else if (d->first_inner_zero_row < 0)
            d->first_inner_zero_row = r;
    }
    w->first_row = d->leading_zero_rows < v->rows ? d->leading_zero_rows : 0;
}

static int same_row(const diag_view *v, uint32_t a, uint32_t b) {
    int zero = 1;
    for (uint32_t c = 0; c < v->cols; c++) {
        if (diag_at(v, a, c) != diag_at(v, b, c)) return 0;
        zero = zero && diag_at(v, a, c) == 0.0;
    }
    return !zero; /* zero rows are padding, not positions */
}

/* A float32 position past 2^24 is a multiple of its ulp 2^k, k >= 1, so consecutive positions fall in runs of
 * 2^k rows (ties to even: 2^k + 1 and 2^k - 1 in turn); the interior runs, which neither edge cuts, give 2^k.
 * An interior run is centred on its grid point, 0 mod 2^(k+1) for the long runs (an even mantissa wins the ties),
 * 2^k mod 2^(k+1) for the short ones: that fixes the first row's position modulo 2^(k+1). */
void diag_position_grid(const diag_view *v, pe_diagnosis *d) {
    uint32_t runs = 1, repeats = 0, run = 1, longest = 1, inner_rows = 0, inner_min = 0, inner_max = 0;
    uint32_t inner_start = 0, inner_len = 0; /* the first interior run */
    d->position_grid_phase = -1;
    for (uint32_t r = 1; r <= v->rows; r++) {
        if (r < v->rows && same_row(v, r, r - 1)) {
            run++, repeats++;
            continue;
        }
        if (run > longest) longest = run;
        if (r < v->rows && runs > 1) { /* an interior run: not the first, not the last */
            inner_rows += run;
            inner_min = inner_min && inner_min < run ? inner_min : run;
            inner_max = inner_max > run ? inner_max : run;
            if (!inner_len) inner_start = r - run, inner_len = run;
        }
        if (r < v->rows) runs++;
        run = 1;
    }
    const uint32_t inner = runs > 2 ? runs - 2 : 0;
    if (repeats * 3 < v->rows || longest < 2) return;
    uint32_t grid = 2;
    if (inner >= 2) {
        while (grid * 3 * inner < inner_rows * 2) grid *= 2; /* the power of two nearest the mean run */
        if (inner_min + 1 < grid || inner_max > grid + 1 || grid > (1u << 7)) return; /* not that grid */
        d->position_grid_whole = 1;
        if (inner_start >= d->leading_zero_rows) {
            const int64_t period = 2 * (int64_t)grid, centre = inner_len > grid ? 0 : grid;
            const int64_t middle = (int64_t)inner_start + (inner_len - 1) / 2 - d->leading_zero_rows;
            d->position_grid_phase = (int32_t)(((centre - middle) % period + period) % period);
        }
    } else {
        while (grid + 1 < longest) grid *= 2; /* a run holds at most 2^k + 1 rows */
        if (grid > (1u << 7)) return;         /* positions stop at 2^31: steps up to 2^7 */
    }
    d->position_grid = grid;
    d->distinct_rows = runs;
}

/* The rows of a whole position grid at its grid points, one a run: every position_grid-th row from the first
 * whose position is a multiple of the step. Their float32 positions are exact and evenly spaced, so they are a
 * cache at whole positions of the inv_freq times the step (a power of two: the float32 products scale exactly).
 * 0 when the phase is unknown. */
int diag_grid_points(const diag_view *v, const pe_diagnosis *d, diag_view *out, uint32_t *first) {
    if (!d->position_grid_whole || d->position_grid_phase < 0) return 0;
    const uint32_t g = d->position_grid;
    *first = d->leading_zero_rows + (g - (uint32_t)d->position_grid_phase % g) % g;
    if (*first >= v->rows) return 0;
    *out = *v;
    out->data = v->data + (size_t)*first * v->rs;
    out->rs = v->rs * g;
    out->rows = (v->rows - *first + g - 1) / g;
    return 1;
}

pe_dtype diag_storage(const diag_view *v) {
    int bf16 = 1, f16 = 1;
    for (uint32_t r = 0; r < v->rows && (bf16 || f16); r++) {
        for (uint32_t c = 0; c < v->cols && (bf16 || f16); c++) {
            float x = v->data[(size_t)r * v->rs + (size_t)c * v->cs];
            uint32_t bits;
            memcpy(&bits, &x, sizeof bits);
            if (bits & 0xffffu) bf16 = 0;
            if (f16 && diag_narrow(x, PE_DTYPE_FLOAT16) != (double)x) f16 = 0;
        }
    }
    /* bfloat16 values of a table in [-1, 1] are float16 values too: the stricter format wins */
    return bf16 ? PE_DTYPE_BFLOAT16 : f16 ? PE_DTYPE_FLOAT16 : PE_DTYPE_FLOAT32;
}

/* Rows read for the structure scores: every valid row, or about 2048 spread. */
static uint32_t row_step(const diag_work *w) {
    uint32_t n = w->v.rows - w->first_row;
    return n > 2048 ? n / 2048 : 1;
}

/* Share of the energy that differs between column a(i) and b(i) over pairs i < n. */
static double duplicate_share(const diag_work *w, uint32_t n, int neighbours) {
    double diff = 0.0, energy = 0.0;
    for (uint32_t r = w->first_row; r < w->v.rows; r += row_step(w)) {
        if (w->zero[r]) continue;
        for (uint32_t i = 0; i < n; i++) {
            double a = diag_at(&w->v, r, neighbours ? 2 * i : i), b = diag_at(&w->v, r, neighbours ? 2 * i + 1 : n + i);
            diff += (a - b) * (a - b);
            energy += a * a + b * b;
        }
    }
    return energy > 0.0 ? diff / energy : 1.0;
}

/* How far s^2 + c^2 is from constant down the rows, pair by pair: variance
 * over squared mean, summed. Near 0 when columns a(i), b(i) are a sine and
 * a cosine of one frequency. Uses w->tmp, w->sigma as accumulators. */
static double pair_share(diag_work *w, uint32_t n, int split) {
    double *sum = w->tmp, *sum2 = w->sigma;
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) sum[i] = sum2[i] = 0.0;
    for (uint32_t r = w->first_row; r < w->v.rows; r += row_step(w)) {
        if (w->zero[r]) continue;
        count++;
        for (uint32_t i = 0; i < n; i++) {
            double a = diag_at(&w->v, r, split ? i : 2 * i), b = diag_at(&w->v, r, split ? n + i : 2 * i + 1);
            double m = a * a + b * b;
            sum[i] += m;
            sum2[i] += m * m;
        }
    }
    double var = 0.0, mean2 = 0.0;
    for (uint32_t i = 0; i < n && count > 0; i++) {
        double mean = sum[i] / count;
        double v = sum2[i] / count - mean * mean;
        var += v > 0.0 ? v : 0.0;
        mean2 += mean * mean;
    }
    return mean2 > 0.0 ? var / mean2 : 1.0;
}

#define PAIR_SHARE_MAX 1e-3  /* s^2 + c^2 constant to about 3% */
#define DUPLICATE_MAX  1e-12 /* duplicated columns are copies */
/* or copies each with its own noise: 2 sd^2 of the energy, up to sd 2% of the amplitude (a single cache's halves
 * or a table's pairs differ by a share of 0.1 or more) */
#define DUPLICATE_NOISY 1e-3

int diag_structure(diag_work *w, pe_diagnosis *d, pe_diag_kind kind) {
    const uint32_t cols = w->v.cols;
    const int even = cols % 2 == 0;
    const uint32_t n = cols / 2;
    d->kind = PE_DIAG_TABLE;
    d->duplicated = 0;
    d->layout = PE_LAYOUT_INTERLEAVED;
    for (uint32_t c = 0; c < cols; c++) w->src[c] = UINT32_MAX;
    if (even && kind != PE_DIAG_TABLE) {
        const double halves = duplicate_share(w, n, 0), neighbours = duplicate_share(w, n, 1);
        int dup = halves < DUPLICATE_MAX ? 1 : neighbours < DUPLICATE_MAX ? 2 : 0;
        if (!dup && (halves < DUPLICATE_NOISY || neighbours < DUPLICATE_NOISY)) dup = halves <= neighbours ? 1 : 2;
        if (dup) {
            d->kind = PE_DIAG_COS_SIN;
            d->duplicated = dup;
            w->h = n;
            for (uint32_t i = 0; i < n; i++) {
                w->col_sin[i] = dup == 1 ? i : 2 * i;
                w->col_cos[i] = dup == 1 ? n + i : 2 * i + 1; /* the copy */
            }
            return 1;
        }
    }
    if (even) {
        double inter = pair_share(w, n, 0), split = pair_share(w, n, 1);
        double best = inter <= split ? inter : split;
        if (best < PAIR_SHARE_MAX) {
            d->layout = inter <= split ? PE_LAYOUT_INTERLEAVED : PE_LAYOUT_SPLIT;
            w->h = n;
            for (uint32_t i = 0; i < n; i++) {
                w->col_sin[i] = d->layout == PE_LAYOUT_SPLIT ? i : 2 * i;
                w->col_cos[i] = d->layout == PE_LAYOUT_SPLIT ? n + i : 2 * i + 1;
            }
            return 1;
        }
    }
    if (kind == PE_DIAG_TABLE) return 0;
    /* One function per column, nothing duplicated: a cos or sin cache of h = cols frequencies. */
    d->kind = PE_DIAG_COS_SIN;
    w->h = cols;
    for (uint32_t i = 0; i < cols; i++) w->col_sin[i] = w->col_cos[i] = i;
    return 1;
}

/* Whether the columns are sinusoids of the row, whatever their phases, frequencies and first position: each
 * column v obeys v(x - 1) + v(x + 1) = 2 cos(w) v(x) (least squares cos(w) per column) to within a few percent
 * of its rms (a float32 angle at position 10^6 is 0.03 rad off; bfloat16 cells 0.4%), and the columns share one
 * amplitude. A learned or random table fails the recurrence; a constant column says nothing. */
/* The columns a lone exact one stands among are sinusoids blurred far out, not noise: every column either
 * changes direction at most twice down the rows (a slow one turning less than half a turn; rounding keeps a
 * float32 angle's steps one way) or swings to the common peak (within 10%: the angle's rounding scatters its
 * phases, and 32 of them all below 0.9 of the peak are a chance of 2e-5), and those that swing hold the
 * mean square of a sinusoid at scattered phases, half the peak's square (uniform noise a third). */
static int blurred_sinusoids(const diag_work *w, uint32_t first, uint32_t last) {
    const uint32_t cols = w->v.cols;
    double top = 0.0, squares = 0.0, cells = 0.0;
    for (uint32_t c = 0; c < cols; c++)
        for (uint32_t r = first; r < last; r++) {
            const double v = diag_at(&w->v, r, c);
            if (!w->zero[r]) top = v > top ? v : -v > top ? -v : top;
        }
    if (!(top > 0.0)) return 0;
    for (uint32_t c = 0; c < cols; c++) {
        double peak = 0.0, sq = 0.0, prev = 0.0, dir = 0.0;
        uint32_t n = 0, turns = 0;
        for (uint32_t r = first; r < last; r++) {
            if (w->zero[r]) continue;
            const double v = diag_at(&w->v, r, c);
            if (n > 0 && v != prev) {
                const double d = v > prev ? 1.0 : -1.0;
                turns += dir != 0.0 && d != dir;
                dir = d;
            }
            peak = v > peak ? v : -v > peak ? -v : peak;
            sq += v * v, prev = v, n++;
        }
        if (turns <= 2) continue;
        if (peak < 0.9 * top) return 0;
        squares += sq, cells += n;
    }
    const double ms = cells > 0.0 ? squares / (cells * top * top) : 0.5;
    return ms > 0.42 && ms < 0.6;
}

int diag_columns_sinusoidal(const diag_work *w, int loose) {
    const uint32_t first = w->first_row, rows = w->v.rows, cols = w->v.cols;
    const uint32_t last = rows - first > 2048 ? first + 2048 : rows;
    if (last < first + 8 || cols < 2) return 0;
    uint32_t turning = 0, fitting = 0, arcs = 0, exact = 0;
    double peak_lo = 1e300, peak_hi = 0.0;
    for (uint32_t c = 0; c < cols; c++) {
        double tu = 0.0, uu = 0.0, peak = 0.0, steps = 0.0;
        uint32_t n = 0;
        for (uint32_t r = first + 1; r + 1 < last; r++) {
            if (w->zero[r - 1] || w->zero[r] || w->zero[r + 1]) continue;
            double u = diag_at(&w->v, r, c), t = diag_at(&w->v, r - 1, c) + diag_at(&w->v, r + 1, c);
            double step = diag_at(&w->v, r + 1, c) - u;
            tu += t * u, uu += u * u, steps += step * step, n++;
            peak = u > peak ? u : -u > peak ? -u : peak;
        }
        if (n < 6 || !(uu > 0.0)) continue;
        const double k = tu / uu; /* 2 cos(w) */
        double e2 = 0.0;
        for (uint32_t r = first + 1; r + 1 < last; r++) {
            if (w->zero[r - 1] || w->zero[r] || w->zero[r + 1]) continue;
            double e = diag_at(&w->v, r - 1, c) + diag_at(&w->v, r + 1, c) - k * diag_at(&w->v, r, c);
            e2 += e * e;
        }
        /* a column that turns (cos(w) below 0.9999 over a row, by more than four standard errors of k: a
         * bfloat16 column near zero that hardly turns reads k a few 1e-4 off 2) counts; the others agree with
         * anything */
        /* measured against the row-to-row steps, not the values: a slow column far out (where too few rows turn it
         * to count) still follows the recurrence to within a small part of its step; noise, random walks and
         * uniform tables leave a residual as large as their steps (ratio 0.2 to 2 at 16 to 512 rows) */
        if (n >= 6 && steps > 0.0 && k > -2.0001 && k < 2.0001) {
            arcs += e2 <= 0.1 * steps;
            exact += e2 <= 1e-4 * steps; /* a column at the storage's precision (an exactly rounded angle) */
        }
        const double margin = 4.0 * diag_sqrt(e2 / ((double)(n - 1) * uu)), tol = margin > 2e-4 ? margin : 2e-4;
        if (!(k < 2.0 - tol && k > -2.0001)) continue;
        turning++;
        fitting += e2 < 0.0025 * 4.0 * uu; /* the residual within 10% of the column's rms (of 2 v) */
        peak_lo = peak < peak_lo ? peak : peak_lo, peak_hi = peak > peak_hi ? peak : peak_hi;
    }
    /* most turning columns fit, and their peaks are one amplitude's (a column turning over few rows may peak
     * lower) */
    if (loose) /* float32 angles past 2^23 rad blur all but the slowest columns: two that fit, of the turning 8th;
                * or, where those are too few over the rows (one column per frequency, 16 grid points), two slow
                * columns on the recurrence within a tenth of their steps, or one at the storage's precision among
                * columns blurred so (blurred_sinusoids) */
        return (fitting >= 2 && fitting * 8 >= turning && peak_hi > 0.0 && peak_lo > 0.2 * peak_hi) || arcs >= 2 ||
               (exact >= 1 && blurred_sinusoids(w, first, last));
    return turning >= 2 && fitting * 10 >= turning * 9 && peak_hi > 0.0 && peak_lo > 0.2 * peak_hi;
}
