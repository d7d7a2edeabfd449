/* A cos/sin cache far out (first positions near 2^24 and past it) read
 * exactly: the position first, then HF's parameter sets.
 *
 * Far out, HF's float32 angle f32(f32(p) inv_freq) is rounded to an ulp of
 * itself (1 rad for the fast columns at 1.3e7), and past 2^24 the position
 * itself is rounded to a multiple of 2^k, so consecutive rows repeat in runs:
 * the columns' recurrences (diag_cache_step) and phase lines read nothing
 * there, and the readings that need them never try HF's sets. But column 0
 * has inv_freq 1 in every scaling but linear and LongRoPE (1 / factor for
 * linear), and a power of two times a float32 position is exact: its cells
 * are cos or sin of f32(p) c0 itself, so one cell fixes the position modulo
 * 2 pi / c0 to its rounding. The positions whose angle falls there are
 * enumerated over the whole grid below 2^31 in O(sqrt) steps (a denominator q
 * of a good rational approximation of c0 g / 2 pi splits them into q
 * arithmetic progressions whose angles drift slowly), each is checked on
 * every read row of column 0, then column 1 at each common rope_theta, then
 * every column at each of HF's parameter sets the amplitude allows; the
 * cells decide. Positions past 2^24 are the row's float32 grid point and the
 * whole positions that round to it. */
#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/f64math.h"
#include "math/sincos.h"

#define CHECK_ROWS  64u        /* read rows every candidate is checked on */
#define MAX_HITS    400000u    /* positions whose column-0 angle fits one row, over all readings */
#define MAX_KEEP    64u        /* positions columns 0 and 1 fit on every row, per reading */
#define ANGLE_SLACK 2e-6       /* rad: beside the cell's rounding, the angle's reduction in double */
#define COLUMN_MIN  0.95       /* share of a column's rows within an ulp (PyTorch's sin/cos may miss by more) */
#define SHARE_MIN   0.99       /* share of all checked cells within an ulp */
#define NEIGHBOURS  4          /* ulps either side of HF's inv_freq (torch's float32 pow is within an ulp) */
#define DYN_BIT     (1u << 31) /* a kept position's column 1 fits a dynamic NTK base */
#define DYN_STEPS   8.0        /* dynamic NTK: alpha - 1 a multiple of 1 / DYN_STEPS ... */
#define DYN_ALPHA   32.0       /* ... up to this alpha */
#define DYN_CHECKS  32u        /* positions per reading whose column 1 is tried at every such base */

static const double LINEAR_FACTORS[] = {2, 4, 8, 16, 32, 64}; /* powers of two: column 0's angle stays exact */

typedef struct far_read {
    diag_work *w;
    pe_dtype storage;
    uint32_t r0, n; /* first read row; rows checked */
    uint32_t rows[CHECK_ROWS];
    double pos[CHECK_ROWS]; /* their float32 positions at the position being checked */
    int is_cos;
    double amp; /* float32 amplitude */
    uint64_t hits;
    double keep[MAX_KEEP];   /* first positions (of row r0) columns 0 and 1 fit */
    uint32_t mask[MAX_KEEP]; /* the rope_theta values (bits) column 1 fits at each; DYN_BIT: a dynamic base */
    double dyn_theta[MAX_KEEP], dyn_alpha[MAX_KEEP];
    uint32_t dyn_checks;
    uint32_t kept;
} far_read;

static int cell_fits(const far_read *f, double a, double angle) {
    return diag_far_cell_fits(f->storage, f->is_cos, f->amp, a, angle);
}

/* The float32 positions of the checked rows when row r0 is at whole position p0. */
static void set_positions(far_read *f, double p0) {
    for (uint32_t i = 0; i < f->n; i++) f->pos[i] = (double)(float)(p0 + (double)(f->rows[i] - f->r0));
}

/* Rows of column k within an ulp at float32 inv_freq inv; stops early (returning less than need) once more rows
 * miss than need allows. */
static uint32_t column_count(const far_read *f, uint32_t k, double inv, uint32_t need) {
    const diag_work *w = f->w;
    uint32_t m = 0;
    for (uint32_t i = 0; i < f->n && m + (f->n - i) >= need; i++)
        m += cell_fits(f, diag_at(&w->v, f->rows[i], w->col_sin[k]), (double)(float)(f->pos[i] * inv));
    return m;
}

/* Column k at HF's inv_freq or a neighbour within NEIGHBOURS ulps: the best count when it reaches COLUMN_MIN of
 * the rows (else less), *v the neighbour. */
static uint32_t column_best(const far_read *f, uint32_t k, float inv, int *v) {
    const uint32_t need = (uint32_t)(COLUMN_MIN * f->n + 0.999);
    uint32_t best = 0;
    *v = 0;
    for (int step = 0; step <= 2 * NEIGHBOURS; step++) {
        const int j = step == 0 ? 0 : (step % 2 ? -(step + 1) / 2 : step / 2);
        const double x = (double)inv + j * diag_ulp32((double)inv);
        if (!(x > 0.0)) continue;
        const uint32_t m = column_count(f, k, x, need);
        if (m > best) best = m, *v = j;
        if (best == f->n) break;
    }
    return best;
}

/* The common rope_theta values (a bit each) at which column 1 fits HF's unscaled inv_freq times c0 (linear when
 * c0 < 1): every set of this reading keeps column 1 so, YaRN's ramp and Llama 3's bands starting further on. */
static uint32_t theta_mask(const far_read *f, double c0) {
    const uint32_t h = f->w->h;
    uint32_t mask = 0;
    for (unsigned t = 0; t < DIAG_ROPE_THETA_COUNT; t++) {
        freq_model m = {0};
        m.recipe = PE_DIAG_RECIPE_F32_HF, m.base = diag_rope_thetas[t], m.dim = 2 * h, m.count = h;
        m.scaling = c0 < 1.0 ? PE_DIAG_SCALING_LINEAR : PE_DIAG_SCALING_NONE;
        m.factor = 1.0 / c0;
        int v;
        if (column_best(f, 1, (float)freq_value(&m, 1), &v) >= COLUMN_MIN * f->n) mask |= 1u << t;
    }
    return mask;
}

/* HF's dynamic NTK base rope_theta alpha^(d / (d - 2)) (in doubles, as HF computes it) at alpha. */
static double dynamic_base_at(double theta, double alpha, uint32_t h) {
    const double dim = 2.0 * h;
    return theta * diag_exp(pe_log(alpha) * dim / (dim - 2.0));
}

/* The first common rope_theta and dynamic NTK alpha (alpha - 1 a multiple of 1 / DYN_STEPS up to DYN_ALPHA, the
 * roundest first) at whose base column 1 fits; 0 when none. */
static int dynamic_base(const far_read *f, double *theta, double *alpha) {
    const uint32_t h = f->w->h;
    for (double i = 1.0; 1.0 + i / DYN_STEPS <= DYN_ALPHA; i += 1.0)
        for (unsigned t = 0; t < DIAG_ROPE_THETA_COUNT; t++) {
            freq_model m = {0};
            m.recipe = PE_DIAG_RECIPE_F32_HF, m.dim = 2 * h, m.count = h, m.scaling = PE_DIAG_SCALING_NONE;
            m.base = dynamic_base_at(diag_rope_thetas[t], 1.0 + i / DYN_STEPS, h);
            int v;
            if (column_best(f, 1, (float)freq_value(&m, 1), &v) < COLUMN_MIN * f->n) continue;
            *theta = diag_rope_thetas[t], *alpha = 1.0 + i / DYN_STEPS;
            return 1;
        }
    return 0;
}

/* Whole first position p0 (of row r0): kept when column 0 at c0 fits every checked row and column 1 some
 * rope_theta's inv_freq (mask). */
static void check_position(far_read *f, double p0, double c0) {
    if (p0 < 0.0 || p0 + (double)(f->w->v.rows - f->r0) > (double)PE_MAX_POSITION + 1.0 || f->kept >= MAX_KEEP) return;
    for (uint32_t j = 0; j < f->kept; j++)
        if (f->keep[j] == p0) return;
    set_positions(f, p0);
    const diag_work *w = f->w;
    for (uint32_t i = 0; i < f->n; i++)
        if (!cell_fits(f, diag_at(&w->v, f->rows[i], w->col_sin[0]), f->pos[i] * c0)) return;
    uint32_t mask = theta_mask(f, c0);
    if (!mask && c0 == 1.0 && f->amp == 1.0 && f->dyn_checks < DYN_CHECKS) {
        f->dyn_checks++;
        mask = dynamic_base(f, &f->dyn_theta[f->kept], &f->dyn_alpha[f->kept]) ? DYN_BIT : 0;
    }
    if (!mask) return;
    f->mask[f->kept] = mask;
    f->keep[f->kept++] = p0;
}

/* The grid point n g of row `ref` (diag_far_enumerate's hit): the whole positions rounding to it are checked. */
typedef struct grid_hit {
    far_read *f;
    double g, c0;
    uint32_t ref;
} grid_hit;

static void visit_grid_point(void *ctx, double n) {
    const grid_hit *v = (const grid_hit *)ctx;
    const double grid = n * v->g; /* row ref's float32 position */
    for (double p = grid - diag_floor(v->g / 2.0); p <= grid + v->g / 2.0; p += 1.0)
        if ((double)(float)p == grid) check_position(v->f, p - (double)(v->ref - v->f->r0), v->c0);
}

/* The first positions column 0 fits at c0 (a power of two), on the float32 grid g (1: whole positions below
 * 2^24; past 2^24 the grid point's binade [2^23 g, 2^24 g)). */
static void find_positions(far_read *f, double c0, double g) {
    double centre[2], tol;
    const uint32_t ref = diag_far_window(f->w, f->storage, f->is_cos, f->amp, f->rows, f->n, centre, &tol);
    const double t = tol + ANGLE_SLACK;
    const double lo = g > 1.0 ? 0x1p23 : 0.0, hi = 0x1p24;
    grid_hit v = {f, g, c0, f->rows[ref]};
    for (int phase = 0; phase < 2; phase++)
        diag_far_enumerate(c0 * g, lo, hi, centre[phase], t, &f->hits, MAX_HITS, visit_grid_point, &v);
}

/* The reading's state for the winner: inv_freq (float32 with each column's neighbour) and the model. */
typedef struct far_best {
    int found; /* 0 none, 1 one set, 2 two sets differing in some float32 inv_freq fit */
    freq_model m;
    double p0, amp;
    double c0;                   /* its column 0's inv_freq */
    double dyn_theta, dyn_alpha; /* a dynamic NTK base: rope_theta and alpha (else 0) */
    int is_cos;
} far_best;

/* Model m at first position p0: every column fits (COLUMN_MIN) and SHARE_MIN of all cells; winner's inv_freq
 * (with the neighbours) into inv. */
static int model_fits(far_read *f, const freq_model *m, float *inv) {
    const uint32_t h = f->w->h;
    uint64_t within = f->n; /* column 0 fit every row */
    inv[0] = (float)freq_value(m, 0);
    for (uint32_t k = 1; k < h; k++) {
        const float x = (float)freq_value(m, k);
        int v;
        const uint32_t c = column_best(f, k, x, &v);
        if (c < COLUMN_MIN * f->n) return 0;
        within += c;
        inv[k] = (float)((double)x + v * diag_ulp32((double)x));
    }
    return within >= SHARE_MIN * (double)f->n * h;
}

/* The sets at rope_theta theta whose column 0 is c0 and whose amplitude is f->amp, in HF's canonical order. */
static void try_sets(far_read *f, far_best *best, double theta, double c0, float *inv, float *won) {
    const uint32_t h = f->w->h;
    freq_model m = {0};
    m.recipe = PE_DIAG_RECIPE_F32_HF, m.base = theta, m.dim = 2 * h, m.rule = 0, m.count = h;
    enum { NONE, LINEAR, LLAMA3, YARN, KINDS };
    for (int kind = NONE; kind < KINDS; kind++) {
        const unsigned contexts = kind >= LLAMA3 ? DIAG_HF_CONTEXT_COUNT : 1;
        const unsigned factors = kind == LINEAR   ? sizeof LINEAR_FACTORS / sizeof LINEAR_FACTORS[0]
                                 : kind == LLAMA3 ? DIAG_HF_LLAMA3_FACTOR_COUNT
                                 : kind == YARN   ? DIAG_HF_YARN_FACTOR_COUNT
                                                  : 1;
        for (unsigned c = 0; c < contexts; c++)
            for (unsigned j = 0; j < factors; j++) {
                m.scaling = kind == NONE     ? PE_DIAG_SCALING_NONE
                            : kind == LINEAR ? PE_DIAG_SCALING_LINEAR
                            : kind == LLAMA3 ? PE_DIAG_SCALING_LLAMA3
                                             : PE_DIAG_SCALING_YARN;
                m.factor = kind == LINEAR   ? LINEAR_FACTORS[j]
                           : kind == LLAMA3 ? diag_hf_llama3_factors[j]
                           : kind == YARN   ? diag_hf_yarn_factors[j]
                                            : 1.0;
                m.original_max = diag_hf_contexts[c], m.low_freq_factor = 1.0, m.high_freq_factor = 4.0;
                if (kind == YARN && !diag_yarn_ramp(&m, diag_hf_contexts[c])) continue;
                /* column 0 and the amplitude this reading's positions were found at */
                if ((float)freq_value(&m, 0) != (float)c0) continue;
                const double yarn_amp = (double)(float)(0.1 * pe_log(m.factor) + 1.0);
                if (!(f->amp == 1.0 || (kind == YARN && f->amp == yarn_amp))) continue;
                if (!model_fits(f, &m, inv)) continue;
                if (best->found) { /* the same float32 values under other parameters: the same reading */
                    uint32_t k = 0;
                    while (k < h && inv[k] == won[k]) k++;
                    if (k < h) best->found = 2;
                    continue;
                }
                best->found = 1, best->m = m, best->amp = f->amp, best->is_cos = f->is_cos;
                for (uint32_t k = 0; k < h; k++) won[k] = inv[k];
            }
    }
}

/* The amplitudes a cache's peak allows: 1 and YaRN's 0.1 ln factor + 1 (as float32), each within 20% of it. */
static uint32_t amplitudes(pe_dtype storage, double peak, double *amp) {
    uint32_t n = 0;
    if (diag_peak_allows(storage, peak, 1.0) && peak > 0.8) amp[n++] = 1.0;
    for (unsigned j = 0; j < DIAG_HF_YARN_FACTOR_COUNT; j++) {
        const double a = (double)(float)(0.1 * pe_log(diag_hf_yarn_factors[j]) + 1.0);
        if (diag_peak_allows(storage, peak, a) && peak > 0.8 * a) amp[n++] = a;
    }
    return n;
}

int diag_exact_cache_far(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    if (d->kind != PE_DIAG_COS_SIN || h < 4 || d->storage == PE_DTYPE_FLOAT64) return 0;
    far_read f = {0};
    f.w = w, f.storage = d->storage;
    f.n = diag_far_rows(w, f.rows, CHECK_ROWS, &f.r0);
    if (f.n < 8) return 0;
    double amps[1 + DIAG_HF_YARN_FACTOR_COUNT];
    const uint32_t n_amps = amplitudes(d->storage, diag_cache_peak(w), amps);
    /* the float32 grid: none (whole positions below 2^24), or the runs' step (a lower bound unless whole) */
    double grids[DIAG_FAR_GRIDS];
    const uint32_t n_grids = diag_far_grids(d, grids);
    float *inv = (float *)w->phase0, *won = (float *)w->fx;
    if (h > 4 * DIAG_FIT_SAMPLES) return 0;
    far_best best = {0};
    w->searched |= PE_DIAG_SEARCHED_FAR;
    for (int is_cos = 1; is_cos >= 0; is_cos--)
        for (uint32_t a = 0; a < n_amps; a++)
            for (unsigned c = 0; c <= sizeof LINEAR_FACTORS / sizeof LINEAR_FACTORS[0]; c++) {
                if (c > 0 && amps[a] != 1.0) continue; /* linear caches have amplitude 1 */
                const double c0 = c == 0 ? 1.0 : 1.0 / LINEAR_FACTORS[c - 1];
                f.is_cos = is_cos, f.amp = amps[a], f.kept = 0, f.dyn_checks = 0;
                for (uint32_t g = 0; g < n_grids; g++) find_positions(&f, c0, grids[g]);
                for (uint32_t i = 0; i < f.kept; i++) {
                    set_positions(&f, f.keep[i]);
                    if (f.mask[i] & DYN_BIT) { /* an unscaled cache at the dynamic base */
                        freq_model m = {0};
                        m.recipe = PE_DIAG_RECIPE_F32_HF, m.dim = 2 * h, m.count = h, m.rule = 0;
                        m.scaling = PE_DIAG_SCALING_NONE, m.factor = 1.0;
                        m.base = dynamic_base_at(f.dyn_theta[i], f.dyn_alpha[i], h);
                        if (!model_fits(&f, &m, inv)) continue;
                        if (best.found) {
                            best.found = 2;
                            continue;
                        }
                        best.found = 1, best.m = m, best.amp = 1.0, best.is_cos = is_cos, best.p0 = f.keep[i];
                        best.c0 = c0, best.dyn_theta = f.dyn_theta[i], best.dyn_alpha = f.dyn_alpha[i];
                        for (uint32_t k = 0; k < h; k++) won[k] = inv[k];
                        continue;
                    }
                    for (unsigned t = 0; t < DIAG_ROPE_THETA_COUNT; t++) {
                        if (!(f.mask[i] & (1u << t))) continue;
                        const int had = best.found;
                        try_sets(&f, &best, diag_rope_thetas[t], c0, inv, won);
                        if (best.found && !had) best.p0 = f.keep[i], best.c0 = c0;
                    }
                }
            }
    diag_searched_to(w, (double)PE_MAX_POSITION - (w->v.rows - f.r0), f.hits >= MAX_HITS);
    if (best.found != 1) return 0;
    /* the winner's reading again: every first position its cells fit (two or more: the data do not fix it) */
    f.is_cos = best.is_cos, f.amp = best.amp, f.kept = 0, f.dyn_checks = 0;
    for (uint32_t g = 0; g < n_grids; g++) find_positions(&f, best.c0, grids[g]);
    uint32_t positions = 0;
    for (uint32_t i = 0; i < f.kept; i++) {
        set_positions(&f, f.keep[i]);
        positions += model_fits(&f, &best.m, inv);
    }
    set_positions(&f, best.p0);
    if (!model_fits(&f, &best.m, inv)) return 0;
    double e2 = 0.0;
    for (uint32_t k = 0; k < h; k++) {
        w->w[k] = (double)inv[k], w->sigma[k] = 0.0;
        w->src[w->col_sin[k]] = w->src[w->col_cos[k]] = best.is_cos ? h + k : k;
        for (uint32_t i = 0; i < f.n; i++) {
            double sn, cs;
            pe_sincos((double)(float)(f.pos[i] * (double)inv[k]), &sn, &cs);
            const double e = diag_at(&w->v, f.rows[i], w->col_sin[k]) - (best.is_cos ? cs : sn) * best.amp;
            e2 += e * e;
        }
    }
    *rms = diag_sqrt(e2 / ((double)f.n * h)) / best.amp;
    const freq_model *m = &best.m;
    d->cache_cos = best.is_cos;
    d->offset = best.p0 - (double)(f.r0 - w->first_row);
    d->offset_known = positions == 1 && d->offset >= 0.0;
    d->offset_sd = 0.0;
    d->offset_searched = (double)PE_MAX_POSITION - (w->v.rows - w->first_row);
    d->scale = best.amp;
    d->rule = 0, d->base = m->base, d->base_round = 1;
    if (d->base_digits < 1) d->base_digits = 1;
    d->scaling = m->scaling, d->factor = m->scaling == PE_DIAG_SCALING_NONE ? 1.0 : m->factor;
    if (m->scaling == PE_DIAG_SCALING_YARN)
        d->band_low = m->ramp_low, d->band_high = m->ramp_high;
    else if (m->scaling == PE_DIAG_SCALING_LLAMA3)
        d->band_low = m->original_max / m->low_freq_factor, d->band_high = m->original_max / m->high_freq_factor;
    if (best.dyn_alpha > 0.0) { /* as diag_exact_cache_dynamic: the base is not round, alpha is */
        d->base_round = 0, d->base_digits = d->base_digits > 4 ? d->base_digits : 4, d->factor = 0.0;
        d->rope_theta = best.dyn_theta, d->dynamic_alpha = best.dyn_alpha;
    }
    freq_model exact = *m;
    exact.recipe = PE_DIAG_RECIPE_EXACT;
    for (uint32_t k = 0; k < h; k++) w->model_w[k] = freq_value(&exact, k);
    return 1;
}
