/* A dynamic NTK cos/sin cache read exactly at any first position.
 *
 * HF's dynamic rope_type rebuilds inv_freq when a forward pass runs past
 * max_position_embeddings: base = rope_theta alpha^(d / (d - 2)) with
 * alpha = factor seq_len / original - factor + 1, in Python doubles, then
 * the default float32 inv_freq at that base. The cache is an unscaled one at
 * a base that is not round, so the exact unscaled reading (diag_exact.c,
 * which snaps the base) misses it. Here the base comes from the columns'
 * recurrences (no first position enters), alpha from it for each common
 * rope_theta below, and alpha's candidates are tried roundest first: alpha - 1
 * a multiple of 1, 1/2, 1/4, ... (an integer factor over a power-of-two
 * original makes it one), within the base's precision. Each is regenerated as
 * HF computes it and read cell by cell with the first position searched over
 * [0, 2^31) (diag_exact_cache_at): the cells decide, and the roundest alpha
 * they fit is given (the data fix alpha only; factor, original and seq_len
 * are one relation, which the verdict states). */
#include "diag_internal.h"
#include "math/f64math.h"

#define MAX_TRIES 24      /* alpha candidates read cell by cell in all */
#define FINEST    20      /* alpha - 1 on a grid down to 2^-FINEST */
#define SD_SPAN   5.0     /* alpha candidates within this many sds of the base's alpha */
#define SHARE_MIN 0.99    /* cells within an ulp for a reading to count */
#define NOISE_RMS 1e-5    /* or rms off the candidate (relative to the amplitude): noise on it */
#define BUDGET    400000  /* search steps over every candidate (as diag_exact_scaled.c) */
#define MAX_ALPHA 65536.0 /* past it no checkpoint's factor and lengths reach */

int diag_exact_cache_dynamic(diag_work *w, pe_diagnosis *d, double *rms) {
    const uint32_t h = w->h;
    if (d->kind != PE_DIAG_COS_SIN || h < 4 || d->storage == PE_DTYPE_FLOAT64 ||
        !diag_peak_allows(d->storage, diag_cache_peak(w), 1.0)) /* amplitude 1: a cell above it is scaled */
        return 0;
    double base, factor, rel_b, rel_a;
    if (!diag_cache_line(w, &base, &factor, &rel_b, &rel_a)) return 0;
    /* a linear factor is no dynamic base: the line's intercept must be 1 within its precision */
    const double f_tol = 5.0 * rel_a > 1e-6 ? 5.0 * rel_a : 1e-6;
    if (!(factor - 1.0 < f_tol && 1.0 - factor < f_tol)) return 0;
    const double dim = 2.0 * h, to_alpha = (dim - 2.0) / dim;
    float *inv = (float *)w->phase0;
    uint64_t budget = BUDGET;
    uint32_t tries = 0;
    for (unsigned t = 0; t < DIAG_ROPE_THETA_COUNT; t++) {
        const double theta = diag_rope_thetas[t];
        if (!(base > theta * (1.0 + 1e-6))) continue;
        const double alpha = diag_exp(pe_log(base / theta) * to_alpha);
        if (!(alpha < MAX_ALPHA)) continue;
        const double span = SD_SPAN * rel_b * to_alpha * alpha + 1e-12 * alpha;
        double previous = 0.0;
        for (int j = 0; j <= FINEST; j++) {
            const double q = (double)(1u << j), m = diag_round_int((alpha - 1.0) * q), a = 1.0 + m / q;
            if (m < 1.0 || a == previous || !(a - alpha <= span && alpha - a <= span)) continue;
            previous = a;
            if (tries++ >= MAX_TRIES) return 0;
            pe_diagnosis trial = *d;
            trial.rule = 0, trial.scaling = PE_DIAG_SCALING_NONE, trial.factor = 0.0;
            trial.base = theta * diag_exp(pe_log(a) * dim / (dim - 2.0)); /* HF: base * alpha ** (d / (d - 2)) */
            for (uint32_t k = 0; k < h; k++) w->order[k] = h - 1 - k;
            if (!diag_inv_formula(w, &trial, PE_DIAG_RECIPE_F32_HF, 0, inv)) return 0;
            double share;
            w->searched |= PE_DIAG_SEARCHED_DYNAMIC, w->searched_candidates++;
            if (!diag_exact_cache_at(w, &trial, inv, 1.0, &budget, &share, rms) ||
                !(share >= SHARE_MIN || *rms < NOISE_RMS))
                continue;
            *d = trial;
            d->base_round = 0;
            /* the digits the base's fit fixes (what the cells fix is the grid step the reading settled on) */
            int digits = 1;
            for (double r = rel_b; r < 0.1 && digits < 9; r *= 10.0) digits++;
            d->base_digits = digits > 4 ? digits : 4;
            d->rope_theta = theta, d->dynamic_alpha = a;
            const double log_base = pe_log(d->base);
            for (uint32_t k = 0; k < h; k++) w->model_w[k] = pe_exp_nonpositive(-(k * log_base) / h);
            return 1;
        }
    }
    return 0;
}
