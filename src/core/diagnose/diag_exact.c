/* A sine-cosine table read exactly: the recipe's own frequencies, then the
 * first position searched over every whole position below 2^31.
 *
 * The phase-line reading (diag_phase.c, diag_offset.c) fits frequencies to
 * the cells; a float32 angle f32(f32(p) * inv_freq) carries the product's
 * rounding, half an ulp of p * inv_freq (0.03 rad at p = 10^6), which bends
 * those fits past any rule. Here the frequencies are not fitted but made as
 * each peer makes them: the base from the rows' angle steps (which a first
 * position does not touch), snapped to a round number, then each recipe's
 * inv_freq (exact, HF's pow, Keras's pow, the tutorial's exp; PyTorch's
 * float32 exp and pow are within an ulp, not correctly rounded, so each
 * value's neighbours up to NEIGHBOURS ulps are tried too). The first row's
 * angles then fix the position: pair by pair from the lowest frequency, each
 * branch 2 pi m of a pair narrows the interval of positions the pairs so far
 * allow (a depth-first search: a wrong branch dies within a pair or two), and
 * every whole position left is checked on every sampled cell. A slow pair's
 * neighbours are walked as one where their angles part by little, and a cache
 * search keeps what its slowest pairs left (a memo) for the next candidate
 * with the same slow frequencies. */
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

#define NEIGHBOURS 2    /* ulps either side of a formula's inv_freq (a float32 exp or pow within an ulp) */
#define ANGLE_TOL  2e-6 /* rad: a first-row angle from float32 sin and cos (plus a little noise) */
/* Search steps over all candidates of a table, each branch a walk tries counted (the corpus's reads take at most
 * 3.2M): bounds the time on tables no candidate fits (4M: 0.19 s native). A build may lower it: the fuzz harness
 * (build.sh) does, because its sanitizers run the search ~40x slower and random tables that nothing fits would
 * spend the whole budget each; every path, the budget's end included, is still taken. */
#ifndef PE_DIAG_EXACT_STEPS
#define PE_DIAG_EXACT_STEPS 4000000
#endif
#define TOTAL_NODES PE_DIAG_EXACT_STEPS
#define CACHE_NODES 100000 /* per cache reading (cos or sin): a cache column's two angles double the branches */
#define CACHE_ROWS  16     /* rows a cache needs for this reading: fewer leave its recurrences loose */
#define MAX_LEAVES  64     /* whole positions checked per candidate */
#define ACCEPT_RMS  1e-5   /* rms off the candidate (relative to the amplitude) for a reading to count */
#define NOISE_CELL  1e-6   /* a cache cell's noise allowed beside its rounding (a cache printed to 6 decimals) */
#define MERGE_ANGLE 0.02   /* rad: neighbours' angles parting by less (and the slack) are walked as one */
#define STEP_ROWS   512    /* rows whose angle steps give the base */
#define LEAF_ROWS   64     /* sampled rows a whole position is checked on */
#define BASE_SPAN   5.0    /* sds of a cache's base (in log) within which a common rope_theta is read */
#define THETA_STEPS 400000 /* search steps over the diag_rope_thetas readings (as diag_exact_dynamic.c) */
#define SHARE_MIN   0.99   /* cells within an ulp for such a reading to count */

/* One candidate: frequencies per pair (inv[k] + variant ulps) and how the angle is formed. */
typedef struct exact_search {
    const diag_work *w;
    const double *theta;  /* h: the first read row's angle per pair, in [0, 2 pi) */
    const double *theta2; /* h: a cache column's other angle (cos: -theta, sin: pi - theta), or NULL (pairs) */
    const double *tol;    /* h: a cache column's angle tolerance (its cell's rounding over the slope), or NULL */
    int cache, cache_cos; /* a cache column of cos (or sin) values, stored as storage */
    double amp;           /* a cache's float32 amplitude (HF's attention_factor, 1 unscaled) */
    pe_dtype storage;
    float *inv;          /* h: the formula's float32 inv_freq (f32) or NULL: exact[] in float64 */
    const double *exact; /* h: float64 frequencies (exact recipe) */
    int f32;             /* 1: f32(f32(p) * inv) */
    uint32_t r0;         /* the first read row */
    signed char *path;   /* h: the chosen neighbour per pair */
    signed char *best_path;
    double best_rms, best_share;
    uint32_t best_zeros; /* pairs at the formula's own value */
    double best_q;
    uint32_t found; /* distinct whole positions that fit */
    double found_q;
    uint64_t nodes, max_nodes;
    uint32_t leaves;
    double checked[MAX_LEAVES]; /* whole positions checked */
    double limit;               /* positions of the first read row: [0, limit] */
    diag_memo *record;          /* or NULL: intervals reaching depth DIAG_MEMO_DEPTH are stored here, not walked */
} exact_search;

static double freq_of(const exact_search *s, uint32_t k, int v) {
    if (!s->f32) return s->exact[k];
    double f = (double)s->inv[k];
    return f + v * diag_ulp32(f);
}

static double angle_of(const exact_search *s, double p, double f) {
    return s->f32 ? (double)(float)((double)(float)p * f) : p * f;
}

/* Pair k's cells at whole position q of the first read row with neighbour v: cells within an ulp, and the sum
 * of squares off the float64 values. */
static uint32_t pair_fit(const exact_search *s, uint32_t k, double q, int v, double *e2) {
    const diag_work *w = s->w;
    const double f = freq_of(s, k, v);
    uint32_t within = 0;
    *e2 = 0.0;
    const uint32_t stride = w->samples > LEAF_ROWS ? w->samples / LEAF_ROWS : 1;
    for (uint32_t t = 0; t < w->samples; t += stride) {
        const uint32_t r = w->sample[t];
        const double p = q + ((double)r - (double)s->r0);
        if (p < 0.0) continue;
        double sn, cs;
        pe_sincos(angle_of(s, p, f), &sn, &cs);
        if (s->cache) { /* HF: cos or sin in float32, then the storage dtype */
            const double x = s->cache_cos ? cs : sn, a = diag_at(&w->v, r, w->col_sin[k]);
            const double y = diag_round_storage(s->storage, (double)(float)((double)(float)x * s->amp)),
                         u = diag_ulp(s->storage, y);
            within += a - y <= 1.001 * u && y - a <= 1.001 * u;
            *e2 += (a - x * s->amp) * (a - x * s->amp);
            continue;
        }
        const double a = diag_at(&w->v, r, w->col_sin[k]), b = diag_at(&w->v, r, w->col_cos[k]);
        const double fs = (double)(float)sn, fc = (double)(float)cs;
        within += (a - fs <= 1.001 * diag_ulp32(fs) && fs - a <= 1.001 * diag_ulp32(fs)) +
                  (b - fc <= 1.001 * diag_ulp32(fc) && fc - b <= 1.001 * diag_ulp32(fc));
        *e2 += (a - sn) * (a - sn) + (b - cs) * (b - cs);
    }
    return within;
}

/* Whole position q of the first read row: each pair's neighbour the one its cells fit best (the pairs are
 * independent once q is known); kept when the cells fit (share within an ulp, or rms for noisy cells). */
static void check_leaf(exact_search *s, double q) {
    const diag_work *w = s->w;
    const uint32_t h = w->h;
    for (uint32_t j = 0; j < s->leaves; j++)
        if (s->checked[j] == q) return;
    if (s->leaves >= MAX_LEAVES) return;
    s->checked[s->leaves++] = q;
    uint64_t within = 0, total = 0;
    double e2 = 0.0;
    uint32_t zeros = 0, cells = 0;
    const uint32_t stride = w->samples > LEAF_ROWS ? w->samples / LEAF_ROWS : 1;
    for (uint32_t t = 0; t < w->samples; t += stride)
        cells += (s->cache ? 1 : 2) * (q + ((double)w->sample[t] - (double)s->r0) >= 0.0);
    for (uint32_t k = 0; k < h; k++) {
        const int span = s->f32 ? NEIGHBOURS : 0;
        uint32_t best = 0;
        double best_e2 = 1e300;
        for (int step = 0; step <= 2 * span; step++) {
            const int v = step == 0 ? 0 : (step % 2 ? -(step + 1) / 2 : step / 2);
            double e;
            uint32_t m = pair_fit(s, k, q, v, &e);
            if (step == 0 || m > best || (m == best && e < best_e2)) best = m, best_e2 = e, s->path[k] = (signed char)v;
            if (step == 0 && m == cells) break; /* the formula's own value fits every cell */
        }
        within += best, e2 += best_e2;
        zeros += s->f32 && s->path[k] == 0; /* the exact recipe has no formula: last among equals */
    }
    total = (uint64_t)cells * h;
    if (!total) return;
    const double share = (double)within / (double)total, rms = diag_sqrt(e2 / (double)total);
    if (!(share >= 0.99 || rms < ACCEPT_RMS)) return;
    if (s->found == 0)
        s->found = 1, s->found_q = q;
    else if (q != s->found_q)
        s->found = 2; /* two positions fit: the data do not fix it */
    int better = share > s->best_share + 1e-9 || (share > s->best_share - 1e-9 && zeros > s->best_zeros);
    if (s->best_share < 0.0 || better) {
        s->best_share = share, s->best_rms = rms, s->best_zeros = zeros, s->best_q = q;
        for (uint32_t k = 0; k < h; k++) s->best_path[k] = s->path[k];
    }
}

/* A walk over pair k's branches m whose positions (theta_k + 2 pi m) / f, widened by the angle's slack, meet
 * [lo, hi], for each neighbour f of its inv_freq in turn (0, -1, 1, -2, 2 ulps). */
typedef struct branch_walk {
    double lo, hi;
    int v, step, span, phases, merged;
    double th;
    double m, m_hi, f, f_lo, f_hi, slack;
} branch_walk;

static void walk_start(const exact_search *s, double lo, double hi, branch_walk *b) {
    b->lo = lo, b->hi = hi, b->step = -1, b->span = s->f32 ? NEIGHBOURS : 0, b->phases = s->theta2 ? 2 : 1;
    b->m = 1.0, b->m_hi = 0.0; /* empty: the first walk_next moves to the first neighbour */
    b->merged = 0;
}

/* The next branch of pair k meeting [lo, hi], as [*a, *c_hi] (the path records its neighbour); 0 when none. A
 * branch of merged neighbours is the hull of theirs: (theta + 2 pi m -+ slack) over the highest and lowest. */
static int walk_next(exact_search *s, uint32_t k, branch_walk *b, double *a, double *c_hi) {
    for (;;) {
        while (b->m <= b->m_hi) {
            if (s->nodes++ > s->max_nodes) return 0; /* each branch tried is a step: a walk can try a million */
            const double at = b->th + DIAG_TWO_PI * b->m, c_lo = (at - b->slack) / b->f_hi,
                         c_up = (at + b->slack) / b->f_lo;
            b->m += 1.0;
            const double x = c_lo > b->lo ? c_lo : b->lo, y = c_up < b->hi ? c_up : b->hi;
            if (x <= y) {
                s->path[k] = (signed char)b->v;
                *a = x, *c_hi = y;
                return 1;
            }
        }
        if (++b->step > (b->merged ? 1 : 2 * b->span + 1) * b->phases - 1) return 0;
        const int n = b->step / b->phases; /* the neighbour; then each of a cache column's two angles */
        b->v = n == 0 ? 0 : (n % 2 ? -(n + 1) / 2 : n / 2); /* 0, -1, 1, -2, 2 */
        b->th = b->step % b->phases ? s->theta2[k] : s->theta[k];
        b->f = b->f_lo = b->f_hi = freq_of(s, k, b->v);
        if (!(b->f > 0.0)) continue;
        /* the angle's own rounding at the interval's top, and the position's (float32 past 2^24) */
        b->slack = (s->tol ? s->tol[k] : ANGLE_TOL) + 1e-15 * b->hi * b->f;
        if (s->f32) b->slack += 0.5 * diag_ulp32(b->hi * b->f) + 0.5 * diag_ulp32(b->hi) * b->f;
        if (b->step == 0 && b->span > 0) {
            /* neighbours whose angles over [lo, hi] part by less than the slack and MERGE_ANGLE: one walk of
             * their hulls finds the branches of all in a fifth of the steps (a slow pair over a long interval);
             * the leaf picks each pair's neighbour */
            const double up = freq_of(s, k, b->span), down = freq_of(s, k, -b->span);
            b->merged = down > 0.0 && (up - down) * b->hi <= b->slack + MERGE_ANGLE;
            if (b->merged) b->f_lo = down, b->f_hi = up;
        } else if (b->merged)
            b->f_lo = freq_of(s, k, -b->span), b->f_hi = freq_of(s, k, b->span);
        const double m_lo = (b->lo * b->f_lo - b->slack - b->th) / DIAG_TWO_PI;
        b->m_hi = (b->hi * b->f_hi + b->slack - b->th) / DIAG_TWO_PI;
        b->m = diag_round_int(m_lo + 0.5);
        if (b->m < m_lo) b->m += 1.0;
        if (b->m_hi - b->m > 1e6) b->m = b->m_hi + 1.0; /* never on an ordered search: a pair far too fast */
    }
}

/* Depth-first over the pairs in order (lowest frequency first): positions [lo, hi] of the first read row. Once a
 * few whole positions are left, the remaining pairs only filter, in a loop (each pair's neighbours as one: the
 * leaf picks each pair's neighbour from every row), so the recursion is only as deep as the narrowing. */
static void descend(exact_search *s, uint32_t j, double lo, double hi) {
    const diag_work *w = s->w;
    if (s->nodes++ > s->max_nodes || s->leaves >= MAX_LEAVES) return;
    branch_walk b;
    double a, c;
    for (; j < w->h && hi - lo < 4.0 && !(s->record && j == DIAG_MEMO_DEPTH); j++) { /* recorded at the depth */
        double hull_lo = 1e300, hull_hi = -1e300;
        walk_start(s, lo, hi, &b);
        while (walk_next(s, w->order[j], &b, &a, &c))
            hull_lo = a < hull_lo ? a : hull_lo, hull_hi = c > hull_hi ? c : hull_hi;
        if (hull_lo > hull_hi) return;
        lo = hull_lo, hi = hull_hi;
        s->nodes++;
    }
    if (s->record && j == DIAG_MEMO_DEPTH) {
        diag_memo *m = s->record;
        if (m->count < DIAG_MEMO_CAP) m->lo_hi[2 * m->count] = lo, m->lo_hi[2 * m->count + 1] = hi;
        m->count++; /* past the cap: not kept */
    }
    if (j == w->h) {
        double q = diag_round_int(lo);
        if (q < lo - 1e-9) q += 1.0;
        for (; q <= hi + 1e-9 && s->leaves < MAX_LEAVES; q += 1.0) check_leaf(s, q);
        return;
    }
    walk_start(s, lo, hi, &b);
    while (walk_next(s, w->order[j], &b, &a, &c)) {
        descend(s, j + 1, a, c);
        if (s->nodes > s->max_nodes) return;
    }
}

/* 1 when memo m holds the intervals of a search's first DIAG_MEMO_DEPTH pairs: the same cells read the same way
 * (view, first row, storage, amplitude as float32, cos or sin) at the same float32 frequencies of the same pairs. */
static int memo_holds(const diag_memo *m, const diag_work *w, uint32_t r0, pe_dtype storage, double amp, int cache_cos,
                      const float *inv) {
    if (!m->valid || m->cache_cos != cache_cos || m->r0 != r0 || m->storage != storage || m->amp != amp ||
        memcmp(&m->v, &w->v, sizeof m->v) != 0)
        return 0;
    for (uint32_t j = 0; j < DIAG_MEMO_DEPTH; j++)
        if (m->pair[j] != w->order[j] || m->inv[j] != inv[w->order[j]]) return 0;
    return 1;
}

/* The first row a cache reading starts from (past leading zero rows). */
static uint32_t cache_r0(const diag_work *w) {
    uint32_t r0 = w->first_row;
    while (r0 < w->v.rows && w->zero[r0]) r0++;
    return r0;
}

int diag_memo_covers(const diag_work *w, pe_dtype storage, const float *inv, double amp) {
    const uint32_t r0 = cache_r0(w);
    amp = (double)(float)amp;
    return memo_holds(&w->memo[0], w, r0, storage, amp, 0, inv) && memo_holds(&w->memo[1], w, r0, storage, amp, 1, inv);
}

/* The search from position 0 to s->limit, through the memo of its first pairs when a cache search has one (else
 * walked whole, recording the memo on the way: the search keeps its order, lowest positions first, so a budget
 * spent before the end still finds what it would have; a memo cut short by the cap, the budget or the leaves is
 * not kept). */
static void search(exact_search *s, diag_memo *m) {
    const diag_work *w = s->w;
    if (!m || !s->f32 || w->h <= DIAG_MEMO_DEPTH) {
        descend(s, 0, 0.0, s->limit);
        return;
    }
    if (memo_holds(m, w, s->r0, s->storage, s->amp, s->cache_cos, s->inv)) {
        for (uint32_t i = 0; i < m->count && s->nodes <= s->max_nodes && s->leaves < MAX_LEAVES; i++)
            descend(s, DIAG_MEMO_DEPTH, m->lo_hi[2 * i], m->lo_hi[2 * i + 1]);
        return;
    }
    m->valid = 0, m->count = 0;
    s->record = m;
    descend(s, 0, 0.0, s->limit);
    s->record = NULL;
    if (s->nodes > s->max_nodes || s->leaves >= MAX_LEAVES || m->count > DIAG_MEMO_CAP) return;
    m->valid = 1, m->cache_cos = s->cache_cos, m->v = w->v, m->r0 = s->r0, m->storage = s->storage;
    m->amp = s->amp;
    for (uint32_t j = 0; j < DIAG_MEMO_DEPTH; j++) m->pair[j] = w->order[j], m->inv[j] = s->inv[w->order[j]];
}

/* Every positive sd[k] raised to the median of the positive ones (count: how many the caller read): a float32
 * angle's rounding can leave a pair's or column's steps all alike (sd near 0), which says nothing of its share. */
void diag_floor_at_median(double *sd, uint32_t h, uint32_t count) {
    double median = 0.0;
    for (uint32_t k = 0; k < h; k++) {
        if (!(sd[k] > 0.0)) continue;
        uint32_t below = 0, equal = 0;
        for (uint32_t j = 0; j < h; j++) below += sd[j] > 0.0 && sd[j] < sd[k], equal += sd[j] == sd[k];
        if (2 * below <= count && 2 * (below + equal) >= count) median = sd[k];
    }
    for (uint32_t k = 0; k < h; k++)
        if (sd[k] > 0.0 && sd[k] < median) sd[k] = median;
}

/* Row r + 1 repeats row r: pair 0 (inv_freq 1, the fastest) turns a radian or more per position, so its cells
 * are alike only where a float32 position grid past 2^24 rounds two positions to one. */
static int repeated(const diag_work *w, uint32_t r) {
    return diag_at(&w->v, r, w->col_sin[0]) == diag_at(&w->v, r + 1, w->col_sin[0]) &&
           diag_at(&w->v, r, w->col_cos[0]) == diag_at(&w->v, r + 1, w->col_cos[0]);
}

/* Frequencies from the rows' angle steps (the mean step over consecutive read rows, and its sd), and the base of
 * each rule from the weighted line log w_k = -k ln(T) / n through w_0 = 1. A float32 angle's rounding can leave
 * every step of a pair the same multiple of its quantum (sd 0, the mean off by up to a quantum / rows): each
 * pair's sd is raised to its residual off the line, three times over, so such a pair stops pulling the line.
 * Uses w->tmp (the log steps) and w->psd (their sd). Returns 0 when the steps say nothing. */
static int base_from_steps(diag_work *w, uint32_t grid, double *t_paper, double *t_t2t, double *rel) {
    const uint32_t h = w->h, first = w->first_row, rows = w->v.rows;
    double *y = w->tmp, *sd = w->psd;
    for (uint32_t k = 0; k < h; k++) {
        uint32_t repeats = 0; /* steps between rows a float32 position grid repeats (pair 0's cells alike) */
        double sum = 0.0, sum2 = 0.0;
        uint32_t n = 0;
        sd[k] = 0.0;
        /* the first STEP_ROWS rows: enough to fix a base to the digits a round number needs */
        const uint32_t last = rows - first > STEP_ROWS ? first + STEP_ROWS : rows;
        double a = diag_atan2(diag_at(&w->v, first, w->col_sin[k]), diag_at(&w->v, first, w->col_cos[k]));
        for (uint32_t r = first; r + 1 < last; r++) {
            double b = diag_atan2(diag_at(&w->v, r + 1, w->col_sin[k]), diag_at(&w->v, r + 1, w->col_cos[k]));
            if (grid > 1 && repeated(w, r)) {
                repeats++;
            } else if (!w->zero[r] && !w->zero[r + 1]) {
                double e = diag_wrap(b - a);
                sum += e, sum2 += e * e, n++;
            }
            a = b;
        }
        if (n < 2 || !(sum > 0.0)) continue;
        /* past 2^24 the rows that differ are a grid step apart (runs hold one float32 position each) */
        const double per = repeats ? (double)grid : 1.0;
        sum /= per, sum2 /= per * per;
        double mean = sum / n, var = sum2 / n - mean * mean, spread = diag_sqrt(var > 0.0 ? var : 0.0);
        if (spread < 2e-7) spread = 2e-7;
        const double rel_sd = spread / n / mean;
        /* k = 0 is the line's anchor (w_0 = 1); a step lost in its own noise says nothing */
        if (k == 0 || rel_sd > 0.3 || !(mean < 1.0)) continue;
        y[k] = pe_log(mean), sd[k] = rel_sd;
    }
    /* a float32 angle's rounding is relative: every pair's step is off by about the same share, which a pair whose
     * steps all round alike hides; the median share is every pair's floor */
    uint32_t usable = 0; /* sd[0] stays 0: the anchor */
    for (uint32_t k = 1; k < h; k++) usable += sd[k] > 0.0;
    diag_floor_at_median(sd, h, usable);
    double b = 0.0, sd_b = 1.0, chi = 0.0;
    for (int round = 0; round < 4; round++) {
        double sxx = 0.0, sxy = 0.0;
        for (uint32_t k = 1; k < h; k++) {
            if (!(sd[k] > 0.0)) continue;
            const double u = 1.0 / (sd[k] * sd[k]);
            sxx += u * (double)k * k, sxy += u * (double)k * y[k];
        }
        if (!(sxx > 0.0)) return 0;
        b = -sxy / sxx, sd_b = 1.0 / diag_sqrt(sxx);
        chi = 0.0;
        uint32_t used = 0;
        for (uint32_t k = 1; k < h; k++) {
            if (!(sd[k] > 0.0)) continue;
            const double e = y[k] + b * k, e_abs = e < 0 ? -e : e;
            chi += (e / sd[k]) * (e / sd[k]), used++;
            if (round < 3 && e_abs > sd[k]) sd[k] = e_abs;
        }
        chi = used > 1 ? chi / (used - 1) : 1.0;
    }
    *t_paper = diag_exp(b * h);
    *t_t2t = h > 1 ? diag_exp(b * (h - 1)) : *t_paper;
    *rel = h * sd_b * (chi > 1.0 ? diag_sqrt(chi) : 1.0);
    return diag_finite(*t_paper) && diag_finite(*t_t2t);
}

int diag_exact_table(diag_work *w, pe_diagnosis *d, pe_diag_recipe *formula, double *rms) {
    const uint32_t h = w->h;
    *formula = PE_DIAG_RECIPE_UNKNOWN;
    if (d->kind != PE_DIAG_TABLE || d->storage != PE_DTYPE_FLOAT32 || h < 2 || d->scale < 0.5 || d->scale > 2.0)
        return 0;
    /* the first read row */
    uint32_t r0 = w->first_row;
    while (r0 < w->v.rows && w->zero[r0]) r0++;
    if (r0 + 1 >= w->v.rows) return 0;
    double t_paper, t_t2t, rel;
    if (!base_from_steps(w, d->position_grid, &t_paper, &t_t2t, &rel)) return 0;
    w->searched |= PE_DIAG_SEARCHED_EXACT_TABLE;
    const double tol = 5.0 * rel > 2e-6 ? 5.0 * rel : 2e-6;
    int paper_round, t2t_round;
    const double paper = diag_snap(t_paper, tol, &paper_round), t2t = diag_snap(t_t2t, tol, &t2t_round);
    if (!paper_round && !t2t_round) return 0;
    /* scratch: theta and the exact frequencies in tmp / model_w's neighbours; the paths in the chunk */
    double *theta = w->freq, *exact = w->freq_sd;
    float *inv = (float *)w->phase0;
    signed char *path = (signed char *)w->chunk, *best_path = path + h;
    for (uint32_t k = 0; k < h; k++) {
        double a = diag_atan2(diag_at(&w->v, r0, w->col_sin[k]), diag_at(&w->v, r0, w->col_cos[k]));
        theta[k] = a < 0.0 ? a + DIAG_TWO_PI : a;
    }
    diag_pick_samples(w);
    static const pe_diag_recipe recipes[] = {PE_DIAG_RECIPE_EXACT, PE_DIAG_RECIPE_F32_HF, PE_DIAG_RECIPE_F32_KERAS,
                                             PE_DIAG_RECIPE_F32_EXP};
    exact_search best = {0};
    best.best_share = -1.0;
    int best_rule = -1, best_variant = 0;
    double best_base = 0.0;
    pe_diag_recipe best_recipe = PE_DIAG_RECIPE_UNKNOWN;
    pe_diagnosis trial = *d;
    trial.scaling = PE_DIAG_SCALING_NONE, trial.factor = 1.0;
    uint64_t spent = 0; /* search steps so far: a table nothing fits (random cells) stops at TOTAL_NODES */
    for (int rule = 0; rule < 2; rule++) {
        if (!(rule ? t2t_round : paper_round)) continue;
        trial.rule = rule, trial.base = rule ? t2t : paper;
        const double n = rule ? h - 1 : h, log_base = pe_log(trial.base);
        for (uint32_t k = 0; k < h; k++) exact[k] = pe_exp_nonpositive(-(k * log_base) / n);
        /* pairs by frequency, lowest first: the rule's frequencies fall with k (every recipe's within 1e-6) */
        for (uint32_t j = 0; j < h; j++) w->order[j] = h - 1 - j;
        for (unsigned c = 0; c < sizeof recipes / sizeof recipes[0]; c++) {
            for (int variant = 0; variant < (recipes[c] == PE_DIAG_RECIPE_F32_EXP ? 2 : 1); variant++) {
                exact_search s = {0};
                s.w = w, s.theta = theta, s.exact = exact, s.r0 = r0, s.path = path, s.best_path = best_path + h;
                s.best_share = -1.0;
                s.limit = (double)PE_MAX_POSITION - (w->v.rows - r0);
                if (spent >= TOTAL_NODES) continue;
                s.max_nodes = TOTAL_NODES - spent;
                if (recipes[c] != PE_DIAG_RECIPE_EXACT) {
                    if (!diag_inv_formula(w, &trial, recipes[c], variant, inv)) continue;
                    s.inv = inv, s.f32 = 1;
                }
                descend(&s, 0, 0.0, s.limit);
                diag_searched_to(w, s.limit, s.nodes > s.max_nodes);
                spent += s.nodes;
                if (s.best_share < 0.0) continue;
                int better = best.best_share < 0.0 || s.best_share > best.best_share + 1e-9 ||
                             (s.best_share > best.best_share - 1e-9 && s.best_zeros > best.best_zeros);
                if (!better) continue;
                best = s;
                for (uint32_t k = 0; k < h; k++) best_path[k] = s.best_path[k];
                best_rule = rule, best_base = trial.base, best_recipe = recipes[c], best_variant = variant;
            }
        }
    }
    if (best.best_share < 0.0) return 0;
    /* the winner's frequencies: exact ones for the model, the float32 values the peer used for the recipe */
    d->rule = best_rule;
    d->base = best_base;
    d->base_round = 1;
    d->scaling = PE_DIAG_SCALING_NONE;
    d->factor = 1.0;
    if (d->base_digits < 1) d->base_digits = 1;
    const double n = best_rule ? h - 1 : h, log_base = pe_log(best_base);
    for (uint32_t k = 0; k < h; k++) w->model_w[k] = pe_exp_nonpositive(-(k * log_base) / n);
    if (best_recipe != PE_DIAG_RECIPE_EXACT) {
        diag_inv_formula(w, d, best_recipe, best_variant, inv);
        for (uint32_t k = 0; k < h; k++) {
            double f = (double)inv[k];
            w->w[k] = f + best_path[k] * diag_ulp32(f);
            w->sigma[k] = 0.0;
        }
        *formula = best_recipe;
    } else {
        for (uint32_t k = 0; k < h; k++) w->w[k] = w->model_w[k], w->sigma[k] = 0.0;
        *formula = PE_DIAG_RECIPE_EXACT;
    }
    d->offset = best.best_q - (double)(r0 - w->first_row);
    d->offset_known = best.found == 1 && d->offset >= 0.0;
    d->offset_sd = 0.0;
    d->offset_searched = (double)PE_MAX_POSITION - (w->v.rows - w->first_row);
    d->scale = 1.0;
    *rms = best.best_rms;
    return 1;
}

/* A cache's frequencies from each column's recurrence v(x - 1) + v(x + 1) = 2 cos(w) v(x) (least squares over
 * the first STEP_ROWS rows: no first position enters), and the line log w_k = a - k ln(T) / h through those that
 * turn enough per row to be read (0.02 to 3 rad): T the base, e^-a HF's linear factor. Returns 0 when too few
 * columns are read. */
int diag_cache_step(const diag_work *w, uint32_t k, double *wk, double *rel) {
    const uint32_t first = w->first_row, rows = w->v.rows, c = w->col_sin[k];
    const uint32_t last = rows - first > STEP_ROWS ? first + STEP_ROWS : rows;
    double tu = 0.0, uu = 0.0;
    uint32_t n = 0;
    for (uint32_t r = first + 1; r + 1 < last; r++) {
        if (w->zero[r - 1] || w->zero[r] || w->zero[r + 1]) continue;
        const double u = diag_at(&w->v, r, c);
        tu += (diag_at(&w->v, r - 1, c) + diag_at(&w->v, r + 1, c)) * u, uu += u * u, n++;
    }
    if (n < 6 || !(uu > 0.0)) return 0;
    const double k2 = tu / uu;
    double e2 = 0.0;
    for (uint32_t r = first + 1; r + 1 < last; r++) {
        if (w->zero[r - 1] || w->zero[r] || w->zero[r + 1]) continue;
        const double e = diag_at(&w->v, r - 1, c) + diag_at(&w->v, r + 1, c) - k2 * diag_at(&w->v, r, c);
        e2 += e * e;
    }
    const double half = 0.5 * k2;
    if (!(half < 0.9998 && half > -0.99)) return 0;
    const double sn = diag_sqrt(1.0 - half * half);
    *wk = diag_atan2(sn, half);
    const double sd_k2 = diag_sqrt((e2 / (n - 1) + 1e-14) / uu);
    *rel = 0.5 * sd_k2 / sn / *wk;
    return *rel <= 0.1;
}

int diag_cache_line(diag_work *w, double *base, double *factor, double *rel_b, double *rel_a) {
    const uint32_t h = w->h;
    double *y = w->tmp, *sd = w->psd;
    uint32_t usable = 0;
    for (uint32_t k = 0; k < h; k++) {
        double wk, rel;
        sd[k] = 0.0;
        if (!diag_cache_step(w, k, &wk, &rel)) continue;
        y[k] = pe_log(wk), sd[k] = rel, usable++;
    }
    if (usable < 3) return 0;
    /* as base_from_steps: the median share as every column's floor, then each raised to its residual */
    diag_floor_at_median(sd, h, usable);
    double a = 0.0, b = 0.0, var_a = 1.0, var_b = 1.0, chi = 1.0;
    for (int round = 0; round < 4; round++) {
        double su = 0.0, sk = 0.0, skk = 0.0, sy = 0.0, sky = 0.0;
        for (uint32_t k = 0; k < h; k++) {
            if (!(sd[k] > 0.0)) continue;
            const double u = 1.0 / (sd[k] * sd[k]);
            su += u, sk += u * k, skk += u * (double)k * k, sy += u * y[k], sky += u * k * y[k];
        }
        const double det = su * skk - sk * sk;
        if (!(det > 0.0)) return 0;
        b = (su * sky - sk * sy) / det, a = (sy - b * sk) / su;
        var_b = su / det, var_a = skk / det;
        chi = 0.0;
        for (uint32_t k = 0; k < h; k++) {
            if (!(sd[k] > 0.0)) continue;
            const double e = y[k] - a - b * k, e_abs = e < 0 ? -e : e;
            chi += (e / sd[k]) * (e / sd[k]);
            if (round < 3 && e_abs > sd[k]) sd[k] = e_abs;
        }
        chi = usable > 2 ? chi / (usable - 2) : 1.0;
    }
    const double inflate = chi > 1.0 ? diag_sqrt(chi) : 1.0;
    *base = diag_exp(-b * h), *factor = diag_exp(-a);
    *rel_b = h * diag_sqrt(var_b) * inflate, *rel_a = diag_sqrt(var_a) * inflate;
    return diag_finite(*base) && diag_finite(*factor);
}

double diag_cache_peak(const diag_work *w) {
    double peak = 0.0;
    for (uint32_t r = w->first_row; r < w->v.rows; r++)
        for (uint32_t c = 0; c < w->v.cols; c++) {
            const double a = diag_at(&w->v, r, c);
            peak = a > peak ? a : -a > peak ? -a : peak;
        }
    return peak;
}

int diag_peak_allows(pe_dtype storage, double peak, double amp) {
    return peak <= diag_round_storage(storage, (double)(float)amp) + PEAK_NOISE;
}

/* One base and linear factor read cell by cell (HF's float32 inv_freq): budget NULL is CACHE_NODES per reading.
 * Writes d only when the cells were read at some first position; share is the sampled cells within an ulp. */
static int cache_at_base(diag_work *w, pe_diagnosis *d, double base, double factor, uint64_t *budget, double *share,
                         double *rms) {
    const uint32_t h = w->h;
    float *inv = (float *)w->phase0; /* HF's float32 inv_freq (the search's own in diag_exact_cache_at) */
    pe_diagnosis trial = *d;
    trial.rule = 0, trial.base = base, trial.base_round = 1;
    trial.scaling = factor == 1.0 ? PE_DIAG_SCALING_NONE : PE_DIAG_SCALING_LINEAR, trial.factor = factor;
    for (uint32_t j = 0; j < h; j++) w->order[j] = h - 1 - j;
    if (!diag_inv_formula(w, &trial, PE_DIAG_RECIPE_F32_HF, 0, inv)) return 0;
    w->searched |= PE_DIAG_SEARCHED_EXACT_CACHE;
    if (!diag_exact_cache_at(w, d, inv, 1.0, budget, share, rms)) return 0;
    d->rule = 0, d->base = base, d->base_round = 1;
    if (d->base_digits < 1) d->base_digits = 1;
    d->scaling = trial.scaling, d->factor = factor;
    const double log_base = pe_log(base);
    for (uint32_t k = 0; k < h; k++) w->model_w[k] = pe_exp_nonpositive(-(k * log_base) / h) / factor;
    return 1;
}

int diag_exact_cache(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    /* a cell above 1: a scaled amplitude (YaRN's attention factor), no unscaled or linear cache */
    if (d->kind != PE_DIAG_COS_SIN || h < 4 || !diag_peak_allows(d->storage, diag_cache_peak(w), 1.0)) return 0;
    uint32_t r0 = w->first_row;
    while (r0 < w->v.rows && w->zero[r0]) r0++;
    if (r0 + CACHE_ROWS > w->v.rows) return 0;
    double line_base, factor, rel_b, rel_a, share;
    if (!diag_cache_line(w, &line_base, &factor, &rel_b, &rel_a)) return 0;
    int base_round, factor_round = 1;
    const double base = diag_snap(line_base, 5.0 * rel_b > 1e-6 ? 5.0 * rel_b : 1e-6, &base_round);
    const double f_tol = 5.0 * rel_a > 1e-6 ? 5.0 * rel_a : 1e-6;
    if (factor - 1.0 < f_tol && 1.0 - factor < f_tol)
        factor = 1.0;
    else
        factor = diag_snap(factor, f_tol, &factor_round);
    if (!factor_round || factor < 1.0) return 0;
    if (base_round && cache_at_base(w, d, base, factor, NULL, &share, rms)) return 1;
    /* a base the recurrences read loosely snaps to the round number nearest, seldom the model's: a bfloat16 cache
     * of 32 rows with a linear factor 4 reads 10^4 as 8.6e3 +- 41% (its slow columns hardly turn over the rows, and
     * the fast ones are few), which snaps to 9e3. The common rope_theta within BASE_SPAN sds are read too, the
     * most common first, under a budget; the cells decide, and only a reading that reproduces them counts. */
    uint64_t budget = THETA_STEPS;
    for (unsigned t = 0; t < DIAG_ROPE_THETA_COUNT && budget > 0; t++) {
        const double theta = diag_rope_thetas[t], off = pe_log(theta / line_base);
        if ((base_round && theta == base) || !(off <= BASE_SPAN * rel_b && -off <= BASE_SPAN * rel_b)) continue;
        pe_diagnosis trial = *d;
        w->searched_candidates++;
        if (!cache_at_base(w, &trial, theta, factor, &budget, &share, rms)) continue;
        if (!(share >= SHARE_MIN || *rms < ACCEPT_RMS)) continue;
        *d = trial;
        return 1;
    }
    return 0;
}

/* A cache cell's angle on the first read row: acos (a cos cache) or asin (sin) of u, its value over the amplitude,
 * clamped to [-1, 1]. */
static double cell_angle(double u, int is_cos) {
    u = u > 1.0 ? 1.0 : u < -1.0 ? -1.0 : u;
    const double root = diag_sqrt(1.0 - u * u);
    return is_cos ? diag_atan2(root, u) : diag_atan2(u, root);
}

int diag_exact_cache_at(diag_work *w, pe_diagnosis *d, const float *inv, double amp, uint64_t *budget, double *share,
                        double *rms) {
    const uint32_t h = w->h, r0 = cache_r0(w);
    if (h < 4 || r0 + CACHE_ROWS > w->v.rows || !(amp > 0.0)) return 0;
    double *theta = w->freq, *theta2 = w->freq_sd, *tol = w->sigma;
    signed char *path = (signed char *)w->chunk, *best_path = path + h;
    diag_pick_samples(w);
    exact_search best = {0};
    best.best_share = -1.0;
    int best_cos = 1;
    for (int is_cos = 1; is_cos >= 0; is_cos--) {
        for (uint32_t k = 0; k < h; k++) {
            const double u = diag_at(&w->v, r0, w->col_sin[k]) / amp, a0 = cell_angle(u, is_cos);
            const double a = a0 < 0.0 ? a0 + DIAG_TWO_PI : a0, b = is_cos ? DIAG_TWO_PI - a : DIAG_PI - a;
            theta[k] = a, theta2[k] = b < 0.0 ? b + DIAG_TWO_PI : b;
            /* the cell's rounding (an ulp of the storage either side) through acos or asin, whole: a slope read at
             * the cell misses its steepening towards +-1, where a cell rounded to the amplitude or past it (a
             * cos near 1 in float16) still holds angles up to sqrt(2 du) */
            const double du = (diag_ulp(d->storage, u * amp) + NOISE_CELL) / amp;
            double below = cell_angle(u - du, is_cos) - a0, above = cell_angle(u + du, is_cos) - a0;
            below = below < 0.0 ? -below : below, above = above < 0.0 ? -above : above;
            tol[k] = (below > above ? below : above) + ANGLE_TOL;
            if (tol[k] > DIAG_PI) tol[k] = DIAG_PI;
        }
        exact_search s = {0};
        s.w = w, s.theta = theta, s.theta2 = theta2, s.tol = tol, s.r0 = r0, s.path = path;
        s.best_path = best_path + h, s.best_share = -1.0, s.inv = (float *)inv, s.f32 = 1;
        s.cache = 1, s.cache_cos = is_cos, s.storage = d->storage, s.amp = (double)(float)amp;
        s.limit = (double)PE_MAX_POSITION - (w->v.rows - r0);
        if (w->search_limit > 0.0 && w->search_limit < s.limit) s.limit = w->search_limit;
        const uint64_t cap = w->reading_nodes ? w->reading_nodes : CACHE_NODES;
        s.max_nodes = budget ? (*budget < cap ? *budget : cap) : cap;
        search(&s, &w->memo[is_cos]);
        diag_searched_to(w, s.limit, s.nodes > s.max_nodes);
        if (budget) *budget -= s.nodes < *budget ? s.nodes : *budget;
        if (s.best_share < 0.0 || !(s.best_share > best.best_share)) continue;
        best = s, best_cos = is_cos;
        for (uint32_t k = 0; k < h; k++) best_path[k] = s.best_path[k];
    }
    if (best.best_share < 0.0 || best.found != 1) return 0;
    for (uint32_t k = 0; k < h; k++) {
        const double f = (double)inv[k];
        w->w[k] = f + best_path[k] * diag_ulp32(f);
        w->sigma[k] = 0.0;
        w->src[w->col_sin[k]] = w->src[w->col_cos[k]] = best_cos ? h + k : k;
    }
    d->cache_cos = best_cos;
    d->offset = best.best_q - (double)(r0 - w->first_row);
    d->offset_known = d->offset >= 0.0;
    d->offset_sd = 0.0;
    d->offset_searched = (double)PE_MAX_POSITION - (w->v.rows - w->first_row);
    d->scale = (double)(float)amp;
    *share = best.best_share;
    *rms = best.best_rms;
    return 1;
}
