/* Each peer's inv_freq, value by value (diag_freqs.h). The float32 recipes
 * follow the peers' code step by step (facts from HF transformers'
 * modeling_rope_utils.py and the PyTorch tutorial, checked against torch 1.13
 * by tests/diagnose-inv-freq.test.js); EXACT is the true frequency of the
 * same parameters, in double. */
#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/f64math.h"

static float f32(double x) {
    return (float)x;
}

/* torch's float32 pow(base, e), here rounded once from double (torch's own is within an ulp). */
static float pow32(float base, float e) {
    return f32(diag_exp((double)e * pe_log((double)base)));
}

/* arange(0, dim, 2).float() / dim: the exponent of pair k in float32 */
static float shape32(const freq_model *m, uint32_t k) {
    return f32((double)f32(2.0 * k) / (double)f32(m->dim));
}

/* HF's _compute_default_rope_parameters: 1.0 / (base ** shape), the reciprocal of a float32 pow. */
static float hf_default(const freq_model *m, uint32_t k) {
    return 1.0f / pow32(f32(m->base), shape32(m, k));
}

static double exponent_over(const freq_model *m) {
    if (m->rule == 1) return m->count > 1 ? m->count - 1.0 : 1.0;
    return m->dim / 2.0;
}

double freq_unscaled(const freq_model *m, uint32_t k) {
    return pe_exp_nonpositive(-(double)k * pe_log(m->base) / exponent_over(m));
}

/* _compute_llama3_parameters' float32 steps: wavelen = 2 pi / inv (torch: reciprocal times the float32 scalar),
 * comparisons against the float32 wavelengths, the smooth blend in float32. */
static float llama3_hf(const freq_model *m, float inv) {
    const float factor = f32(m->factor), context = f32(m->original_max);
    const float low_wavelen = f32(m->original_max / m->low_freq_factor),
                high_wavelen = f32(m->original_max / m->high_freq_factor);
    const float wavelen = (1.0f / inv) * f32(DIAG_TWO_PI);
    const float scaled = wavelen > low_wavelen ? inv / factor : inv;
    const float smooth =
        ((1.0f / wavelen) * context - f32(m->low_freq_factor)) / f32(m->high_freq_factor - m->low_freq_factor);
    const float smoothed = (1.0f - smooth) * scaled / factor + smooth * scaled;
    const int medium = !(wavelen < high_wavelen) && !(wavelen > low_wavelen);
    return medium ? smoothed : scaled;
}

static double llama3_exact(const freq_model *m, double u) {
    const double wavelen = DIAG_TWO_PI / u;
    if (wavelen < m->original_max / m->high_freq_factor) return u;
    if (wavelen > m->original_max / m->low_freq_factor) return u / m->factor;
    double s = (m->original_max / wavelen - m->low_freq_factor) / (m->high_freq_factor - m->low_freq_factor);
    return (1.0 - s) * u / m->factor + s * u;
}

/* YaRN's ramp over pairs: 0 at low (unscaled), 1 at high (scaled); HF's linear_ramp_factor in float32. */
static float yarn_ramp32(const freq_model *m, uint32_t k) {
    double high = m->ramp_high == m->ramp_low ? m->ramp_high + 0.001 : m->ramp_high;
    float r = f32((double)f32((double)k - (double)f32(m->ramp_low)) / (double)f32(high - m->ramp_low));
    return r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}

/* _compute_yarn_parameters: pos = base ** shape; extrapolation 1 / pos, interpolation 1 / (factor * pos), blended
 * by inv_freq_extrapolation_factor = 1 - ramp. */
static float yarn_hf(const freq_model *m, uint32_t k) {
    const float pos = pow32(f32(m->base), shape32(m, k));
    const float extrapolation = 1.0f / pos, interpolation = 1.0f / (f32(m->factor) * pos);
    const float keep = 1.0f - yarn_ramp32(m, k);
    return interpolation * (1.0f - keep) + extrapolation * keep;
}

static double yarn_exact(const freq_model *m, uint32_t k, double u) {
    double high = m->ramp_high == m->ramp_low ? m->ramp_high + 0.001 : m->ramp_high;
    double r = ((double)k - m->ramp_low) / (high - m->ramp_low);
    r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    return u / m->factor * r + u * (1.0 - r);
}

static float unscaled32(const freq_model *m, uint32_t k) {
    const double n = exponent_over(m);
    switch (m->recipe) {
    case PE_DIAG_RECIPE_F32_KERAS: return pow32(f32(1.0 / m->base), shape32(m, k));
    case PE_DIAG_RECIPE_F32_EXP: {
        /* paper: arange(0, d, 2).float() * (-log(base) / d); tensor2tensor/fairseq: arange(h) * -(log(base)/(h-1)) */
        const float step = f32(-(pe_log(m->base) / (m->rule == 1 ? n : (double)m->dim)));
        const float x = f32((m->rule == 1 ? (double)k : 2.0 * k) * (double)step);
        return f32(pe_exp_nonpositive((double)x));
    }
    default: return hf_default(m, k);
    }
}

float freq_power32(const freq_model *m, uint32_t k) {
    return pow32(f32(m->base), shape32(m, k));
}

double freq_value(const freq_model *m, uint32_t k) {
    if (m->recipe == PE_DIAG_RECIPE_EXACT) {
        const double u = freq_unscaled(m, k);
        switch (m->scaling) {
        case PE_DIAG_SCALING_LINEAR: return u / m->factor;
        case PE_DIAG_SCALING_LLAMA3: return llama3_exact(m, u);
        case PE_DIAG_SCALING_YARN: return yarn_exact(m, k, u);
        case PE_DIAG_SCALING_PER_PAIR: return u / m->ext[k];
        default: return u;
        }
    }
    switch (m->scaling) {
    case PE_DIAG_SCALING_LINEAR: return unscaled32(m, k) / f32(m->factor);
    case PE_DIAG_SCALING_LLAMA3: return llama3_hf(m, unscaled32(m, k));
    case PE_DIAG_SCALING_YARN: return yarn_hf(m, k);
    case PE_DIAG_SCALING_PER_PAIR: /* 1.0 / (ext_factors * base ** shape) */
        return 1.0f / (f32(m->ext[k]) * pow32(f32(m->base), shape32(m, k)));
    default: return unscaled32(m, k);
    }
}
