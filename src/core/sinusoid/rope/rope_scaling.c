/* RoPE's frequencies with HF transformers' scalings (modeling_rope_utils.py:
 * linear, dynamic NTK, YaRN, Llama 3), in double with the core's own log and
 * exp, so every build gets the same bits. posenc.h states the formulas. */
#include <float.h>

#include "math/dd.h"
#include "math/f64math.h"
#include "sinusoid/plan.h"
#include "sinusoid/rope/rope_kernels.h"

#define PE_PI       0x1.921fb54442d18p+1 /* math.pi */
#define PE_TWO_PI   0x1.921fb54442d18p+2 /* 2 * math.pi, exactly twice PE_PI */
#define PE_INTEGRAL 4503599627370496.0   /* 2^52: every double this large is whole */

static int finite(double v) {
    return v >= -DBL_MAX && v <= DBL_MAX;
}

static double floor_whole(double x) {
    if (!(x > -PE_INTEGRAL && x < PE_INTEGRAL)) return x;
    double t = (double)(int64_t)x; /* truncates toward 0 */
    return t > x ? t - 1.0 : t;
}

static double ceil_whole(double x) {
    if (!(x > -PE_INTEGRAL && x < PE_INTEGRAL)) return x;
    double t = (double)(int64_t)x;
    return t < x ? t + 1.0 : t;
}

pe_status pe_rope_check_scaling(const pe_rope_scaling *sc, uint32_t r) {
    if (sc->type == PE_ROPE_SCALING_NONE) return PE_OK;
    if ((unsigned)sc->type > PE_ROPE_SCALING_LONGROPE) return PE_ERR_SCALING;
    if (!(sc->factor >= 1.0 && sc->factor <= DBL_MAX)) return PE_ERR_SCALING; /* NaN fails too */
    if (sc->type == PE_ROPE_SCALING_LINEAR) return PE_OK;
    if (sc->original_max_position_embeddings == 0) return PE_ERR_SCALING;
    switch (sc->type) {
    case PE_ROPE_SCALING_DYNAMIC: return r >= 4 ? PE_OK : PE_ERR_SCALING; /* the exponent r/(r-2) */
    case PE_ROPE_SCALING_YARN:
        if (!(sc->beta_fast >= 0.0 && sc->beta_fast <= DBL_MAX)) return PE_ERR_SCALING;
        if (!(sc->beta_slow >= 0.0 && sc->beta_slow <= DBL_MAX)) return PE_ERR_SCALING;
        if (!(sc->attention_factor >= 0.0 && sc->attention_factor <= FLT_MAX)) return PE_ERR_SCALING;
        return finite(sc->mscale) && finite(sc->mscale_all_dim) ? PE_OK : PE_ERR_SCALING;
    case PE_ROPE_SCALING_LONGROPE:
        if (!sc->short_factor || !sc->long_factor) return PE_ERR_NULL;
        for (uint32_t i = 0; i < r / 2; i++) {
            if (!(sc->short_factor[i] > 0.0 && sc->short_factor[i] <= DBL_MAX)) return PE_ERR_SCALING;
            if (!(sc->long_factor[i] > 0.0 && sc->long_factor[i] <= DBL_MAX)) return PE_ERR_SCALING;
        }
        return sc->attention_factor >= 0.0 && sc->attention_factor <= FLT_MAX ? PE_OK : PE_ERR_SCALING;
    case PE_ROPE_SCALING_LLAMA3:
        if (!(sc->low_freq_factor > 0.0 && sc->low_freq_factor <= DBL_MAX)) return PE_ERR_SCALING;
        /* Equal factors (Llama 4's published configs) leave no middle band. */
        return sc->high_freq_factor >= sc->low_freq_factor && sc->high_freq_factor <= DBL_MAX ? PE_OK : PE_ERR_SCALING;
    default: return PE_ERR_SCALING;
    }
}

/* YaRN's mscale: 0.1 m ln f + 1, or 1 when f <= 1. */
static double mscale(double f, double m) {
    return f <= 1.0 ? 1.0 : 0.1 * m * pe_log(f) + 1.0;
}

/* The pair index at which `rotations` turns fit in L0 positions (HF's
 * find_correction_dim): r ln(L0 / (rotations 2 pi)) / (2 ln base). */
static double correction_dim(double rotations, uint32_t r, double log_base, double l0) {
    return ((double)r * pe_log(l0 / (rotations * 2.0 * PE_PI))) / (2.0 * log_base);
}

static void yarn(const pe_rope_scaling *sc, uint32_t r, double base, double *w) {
    const uint32_t half = r / 2;
    const double f = sc->factor, l0 = sc->original_max_position_embeddings, log_base = pe_log(base);
    double lo = correction_dim(sc->beta_fast != 0.0 ? sc->beta_fast : 32.0, r, log_base, l0);
    double hi = correction_dim(sc->beta_slow != 0.0 ? sc->beta_slow : 1.0, r, log_base, l0);
    if (!sc->no_truncate) {
        lo = floor_whole(lo);
        hi = ceil_whole(hi);
    }
    lo = lo > 0.0 ? lo : 0.0;
    hi = hi < (double)(r - 1) ? hi : (double)(r - 1);
    if (lo == hi) hi += 0.001; /* HF: prevents a division by zero */
    for (uint32_t i = 0; i < half; i++) {
        double ramp = ((double)i - lo) / (hi - lo);
        ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
        double extrapolation = 1.0 - ramp; /* the share of the unscaled w_i */
        w[i] = w[i] / f * (1.0 - extrapolation) + w[i] * extrapolation;
    }
}

/* YaRN's attention factor: the one given, or the ratio of mscales. */
static double yarn_attention(const pe_rope_scaling *sc) {
    if (sc->attention_factor != 0.0) return sc->attention_factor;
    if (sc->mscale != 0.0 && sc->mscale_all_dim != 0.0)
        return mscale(sc->factor, sc->mscale) / mscale(sc->factor, sc->mscale_all_dim);
    return mscale(sc->factor, 1.0);
}

static void llama3(const pe_rope_scaling *sc, uint32_t r, double *w) {
    const double f = sc->factor, l0 = sc->original_max_position_embeddings;
    const double low = sc->low_freq_factor, high = sc->high_freq_factor;
    const double low_freq_wavelength = l0 / low, high_freq_wavelength = l0 / high;
    for (uint32_t i = 0; i < r / 2; i++) {
        double wavelength = PE_TWO_PI / w[i];
        /* With high == low (Llama 4) there is no middle band: HF's blend is
         * 0 / 0 at the one boundary wavelength, where w_i is kept instead. */
        if (wavelength > low_freq_wavelength) {
            w[i] = w[i] / f;
        } else if (!(wavelength < high_freq_wavelength) && high > low) {
            double smooth = (l0 / wavelength - low) / (high - low);
            w[i] = (1.0 - smooth) * w[i] / f + smooth * w[i];
        }
    }
}

/* sqrt(a) for a >= 1 by Newton's iteration from a + 1 / 2 (above the root,
 * so it falls monotonically): plain double operations, the same bits on every
 * build without libm, within an ulp of the root once it stops falling. */
static double sqrt_newton(double a) {
    double y = 0.5 * (a + 1.0);
    for (int k = 0; k < 64; k++) {
        const double next = 0.5 * (y + a / y);
        if (!(next < y)) break;
        y = next;
    }
    return y;
}

/* LongRoPE's attention factor: the one given, else sqrt(1 + ln f / ln L0) for f > 1. */
static double longrope_attention(const pe_rope_scaling *sc) {
    if (sc->attention_factor != 0.0) return sc->attention_factor;
    if (sc->factor <= 1.0 || sc->original_max_position_embeddings < 2) return 1.0;
    return sqrt_newton(1.0 + pe_log(sc->factor) / pe_log((double)sc->original_max_position_embeddings));
}

pe_status pe_rope_scaled_frequencies(const pe_rotary *rope, uint32_t seq_len, double *w, double *attention_factor) {
    const pe_rope_scaling *sc = &rope->scaling;
    const uint32_t r = rope->rotary_dim ? rope->rotary_dim : rope->head_dim, half = r / 2;
    const double base = rope->base;
    const double factor = sc->type == PE_ROPE_SCALING_YARN       ? yarn_attention(sc)
                          : sc->type == PE_ROPE_SCALING_LONGROPE ? longrope_attention(sc)
                                                                 : 1.0;
    /* The refusals the arguments can cause all come before w is written. */
    if (!(factor > 0.0 && factor <= FLT_MAX)) return PE_ERR_SCALING;
    if (sc->type == PE_ROPE_SCALING_DYNAMIC && seq_len > sc->original_max_position_embeddings) {
        /* base' = base * x^(r/(r-2)), taken as its logarithm. */
        double x = sc->factor * (double)seq_len / (double)sc->original_max_position_embeddings - (sc->factor - 1.0);
        if (!(x > 0.0 && x <= DBL_MAX)) return PE_ERR_SCALING;
        double log_base = pe_log(base) + (double)r / (double)(r - 2) * pe_log(x);
        if (!finite(log_base)) return PE_ERR_SCALING;
        /* w_i = base'^(-i/half), as pe_encoding_frequencies forms it. */
        for (uint32_t i = 0; i < half; i++) w[i] = pe_exp_nonpositive(-((double)i * log_base / half));
    } else {
        pe_sinusoid enc = {r, base, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
        pe_encoding_frequencies(&enc, w); /* the sinusoidal table's very frequencies */
    }
    if (sc->type == PE_ROPE_SCALING_LINEAR)
        for (uint32_t i = 0; i < half; i++) w[i] /= sc->factor;
    if (sc->type == PE_ROPE_SCALING_YARN) yarn(sc, r, base, w);
    if (sc->type == PE_ROPE_SCALING_LLAMA3) llama3(sc, r, w);
    if (sc->type == PE_ROPE_SCALING_LONGROPE) {
        const double *e = seq_len > sc->original_max_position_embeddings ? sc->long_factor : sc->short_factor;
        for (uint32_t i = 0; i < half; i++) w[i] = w[i] / e[i];
    }
    /* With factor >= 1 every w_i lies in [0, 1]; the check guards the formulas. */
    for (uint32_t i = 0; i < half; i++)
        if (!(w[i] >= 0.0 && w[i] <= DBL_MAX)) return PE_ERR_SCALING;
    *attention_factor = factor;
    return PE_OK;
}

pe_status pe_rope_check_frequencies(const pe_rotary *rope, uint32_t seq_len) {
    const pe_rope_scaling *sc = &rope->scaling;
    const uint32_t r = rope->rotary_dim ? rope->rotary_dim : rope->head_dim, half = r / 2;
    const double factor = sc->type == PE_ROPE_SCALING_YARN       ? yarn_attention(sc)
                          : sc->type == PE_ROPE_SCALING_LONGROPE ? longrope_attention(sc)
                                                                 : 1.0;
    if (!(factor > 0.0 && factor <= FLT_MAX)) return PE_ERR_SCALING;
    if (sc->type == PE_ROPE_SCALING_DYNAMIC && seq_len > sc->original_max_position_embeddings) {
        double x = sc->factor * (double)seq_len / (double)sc->original_max_position_embeddings - (sc->factor - 1.0);
        if (!(x > 0.0 && x <= DBL_MAX)) return PE_ERR_SCALING;
        if (!finite(pe_log(rope->base) + (double)r / (double)(r - 2) * pe_log(x))) return PE_ERR_SCALING;
    }
    if (sc->type != PE_ROPE_SCALING_LONGROPE) return PE_OK; /* the other scalings keep every w_i within [0, 1] */
    /* LongRoPE divides w_i by its factor: the plan takes w_i / e_i up to PE_MAX_FREQUENCY. The w_i are
     * pe_encoding_frequencies' running product, walked here without storing them. */
    const double *e = seq_len > sc->original_max_position_embeddings ? sc->long_factor : sc->short_factor;
    pe_dd log_rho = pe_dd_div_d(pe_log_dd(rope->base), -(double)half);
    pe_dd rho = pe_exp_dd_nonpositive(log_rho), wi = pe_dd_make(1.0, 0.0);
    for (uint32_t i = 0; i < half; i++) {
        const double w = wi.hi / e[i];
        if (!(w >= 0.0 && w <= PE_MAX_FREQUENCY)) return PE_ERR_SCALING;
        wi = pe_dd_mul(wi, rho);
    }
    return PE_OK;
}
