/* pe_inv_freq_diagnosis_text / _json (posenc.h): the verdict on an inv_freq
 * vector in plain words, saying what the values fix and what they cannot
 * tell, and the same facts as JSON with HF's rope_scaling names. */
#include "diag_internal.h"
#include "math/f64math.h"

static const char *storage_name(pe_dtype t) {
    return t == PE_DTYPE_FLOAT64    ? "float64"
           : t == PE_DTYPE_FLOAT16  ? "float16"
           : t == PE_DTYPE_BFLOAT16 ? "bfloat16"
                                    : "float32";
}

static const char *recipe_name(pe_diag_recipe r) {
    switch (r) {
    case PE_DIAG_RECIPE_EXACT: return "exact";
    case PE_DIAG_RECIPE_F32_HF: return "hf";
    case PE_DIAG_RECIPE_F32_EXP: return "exp";
    case PE_DIAG_RECIPE_F32_KERAS: return "keras";
    default: return "unknown";
    }
}

static const char *recipe_words(const pe_inv_freq_diagnosis *d, pe_diag_recipe r) {
    const int scaled = d->scaling != PE_DIAG_SCALING_NONE && d->scaling != PE_DIAG_SCALING_DYNAMIC;
    switch (r) {
    case PE_DIAG_RECIPE_EXACT:
        return d->storage == PE_DTYPE_FLOAT64 ? "float64 values of the exact frequencies (numpy's or torch's float64)"
                                              : "the exact frequencies rounded once (correctly rounded: numpy float64 "
                                                "then cast, posenc)";
    case PE_DIAG_RECIPE_F32_HF:
        return scaled ? "HF's float32 1/(base**(arange(0,d,2)/d)), then its rope_type's float32 steps "
                        "(modeling_rope_utils.py)"
                      : "HF's float32 1/(base**(arange(0,d,2)/d)) (int64 or float arange alike)";
    case PE_DIAG_RECIPE_F32_EXP:
        return d->rule == 1 ? "fairseq/tensor2tensor's float32 exp(arange(h) * -(log(base)/(h-1)))"
                            : "the PyTorch tutorial's float32 exp(arange(0,d,2) * -(log(base)/d))";
    case PE_DIAG_RECIPE_F32_KERAS: return "Keras's float32 (1/base)**(2i/d)";
    default: return "no known recipe";
    }
}

static const char *scaling_type(pe_diag_scaling s) {
    switch (s) {
    case PE_DIAG_SCALING_LINEAR: return "linear";
    case PE_DIAG_SCALING_YARN: return "yarn";
    case PE_DIAG_SCALING_LLAMA3: return "llama3";
    case PE_DIAG_SCALING_PER_PAIR: return "longrope";
    case PE_DIAG_SCALING_DYNAMIC: return "dynamic";
    default: return "none";
    }
}

static void scaling_short(diag_sink *s, const pe_inv_freq_diagnosis *d) {
    switch (d->scaling) {
    case PE_DIAG_SCALING_LINEAR: diag_put(s, "linear scaling (rope_type linear), factor %.6g", d->factor); break;
    case PE_DIAG_SCALING_LLAMA3:
        diag_put(s,
                 "Llama 3 scaling (rope_type llama3), factor %.6g, low_freq_factor %.6g, high_freq_factor %.6g, "
                 "original_max_position_embeddings %.6g",
                 d->factor, d->low_freq_factor, d->high_freq_factor, d->original_max);
        break;
    case PE_DIAG_SCALING_YARN:
        diag_put(s,
                 "YaRN scaling (rope_type yarn), factor %.6g, beta_fast %.6g, beta_slow %.6g, "
                 "original_max_position_embeddings %.6g%s",
                 d->factor, d->beta_fast, d->beta_slow, d->original_max, d->truncated ? "" : ", truncate false");
        break;
    case PE_DIAG_SCALING_PER_PAIR:
        diag_put(s, "LongRoPE per-pair factors (rope_type longrope) at rope_theta %.9g", d->rope_theta);
        break;
    case PE_DIAG_SCALING_DYNAMIC:
        diag_put(s, "a dynamic NTK base (rope_type dynamic) from rope_theta %.9g, alpha %.7g", d->rope_theta,
                 d->dynamic_alpha);
        break;
    default: diag_put(s, "no scaling of inv_freq");
    }
}

/* "rotary_dim 128 (64 frequencies), base 500000, Llama 3 scaling ..." */
static void description(diag_sink *s, const pe_inv_freq_diagnosis *d) {
    if (d->count < 2) {
        diag_put(s, "one frequency, %.9g: base and rotary dim undetermined", d->count ? 0.0 : 0.0);
        return;
    }
    if (d->rule == 1)
        diag_put(s, "tensor2tensor frequencies base^(-k/(h-1)) (%u frequencies)", d->count);
    else
        diag_put(s, "RoPE inv_freq, rotary_dim %u (%u frequencies)", d->rotary_dim, d->count);
    if (d->scaling == PE_DIAG_SCALING_DYNAMIC)
        diag_put(s, ", base %.9g (not round)", d->base);
    else if (d->base_round)
        diag_put(s, ", base %.9g", d->base);
    else if (d->base > 0.0)
        diag_put(s, ", base %.9g (not round)", d->base);
    diag_put(s, ", ");
    scaling_short(s, d);
}

static void searched(diag_sink *s, const pe_inv_freq_diagnosis *d) {
    diag_put(s,
             "searched: bases from the slope of log w_k (snapped to common rope_theta values 1e4 ... 1e9 and to 1-3 "
             "significant digits, then its float32 neighbours), rotary dims %u and %u and tensor2tensor's "
             "k/(h-1), scalings none, linear, Llama 3, YaRN, LongRoPE (two-decimal factors at common bases) and "
             "dynamic NTK, recipes exact, HF float32, tutorial exp and Keras",
             2 * d->count, 2 * d->count - 1);
}

static void verdict(diag_sink *s, const pe_inv_freq_diagnosis *d) {
    if (d->count == 1) {
        diag_put(s, "one frequency determines neither base nor rotary dim");
        if (d->scaling == PE_DIAG_SCALING_LINEAR)
            diag_put(s, " (w_0 = 1/%.6g: linear scaling if HF built it)", d->factor);
        return;
    }
    if (d->base == 0.0) {
        diag_put(s, "not a RoPE frequency vector: the values do not fall geometrically with k (no base); ");
        searched(s, d);
        return;
    }
    if (!d->identified) diag_put(s, "no known recipe reproduces these frequencies; nearest: ");
    description(s, d);
    diag_put(s, "; recipe %s, %u of %u values bit for bit", recipe_words(d, d->recipe), d->recipe_exact, d->count);
    if (d->recipe_tied != PE_DIAG_RECIPE_UNKNOWN) diag_put(s, " (or %s: as many)", recipe_words(d, d->recipe_tied));
    if (!d->identified) {
        diag_put(s, ", %u within 2 ulps, up to %.3g ulps off; ", d->recipe_near, d->max_ulps);
        searched(s, d);
    }
}

static void scaling_full(diag_sink *s, const pe_inv_freq_diagnosis *d) {
    scaling_short(s, d);
    switch (d->scaling) {
    case PE_DIAG_SCALING_NONE:
        diag_put(s, " (linear scaling that divides the positions, as HF before 4.43 and most runtimes do, leaves "
                    "inv_freq unscaled: a vector cannot show it)");
        break;
    case PE_DIAG_SCALING_LINEAR:
        diag_put(s, "; w_0 = 1/factor: HF 4.43 and later divide inv_freq by the factor (earlier versions divide the "
                    "positions and leave inv_freq unscaled)");
        break;
    case PE_DIAG_SCALING_LLAMA3:
        if (d->ramp_fixed)
            diag_put(s,
                     "; the values fix only original_max_position_embeddings / low_freq_factor = %.6g and / "
                     "high_freq_factor = %.6g (canonical low_freq_factor 1)",
                     d->ramp_low, d->ramp_high);
        else
            diag_put(s,
                     "; fewer than two pairs lie between the bands, so the wavelengths %.6g and %.6g are one "
                     "choice among those putting the same pairs in each band",
                     d->ramp_low, d->ramp_high);
        break;
    case PE_DIAG_SCALING_YARN:
        diag_put(s,
                 "; the values fix the ramp, pairs %.6g to %.6g%s: with these betas any "
                 "original_max_position_embeddings from %.6g to %.6g gives it; attention_factor (mscale) is not "
                 "in inv_freq",
                 d->ramp_low, d->ramp_high, d->truncated ? " (whole: HF's truncate)" : "", d->original_lo,
                 d->original_hi);
        break;
    case PE_DIAG_SCALING_PER_PAIR:
        diag_put(s, "; factors%s:", d->pair_factors_round ? " (two decimals, as configs list them)" : "");
        for (uint32_t k = 0; k < d->pair_factors; k++) diag_put(s, " %.7g", d->pair_factor[k]);
        diag_put(s, "; the vector is one of the config's lists (short_factor at or below "
                    "original_max_position_embeddings, long_factor past it): it cannot say which, nor the "
                    "attention factor");
        break;
    case PE_DIAG_SCALING_DYNAMIC:
        diag_put(s, "; base = rope_theta alpha^(d/(d-2)), alpha = factor * seq_len / original_max_position_embeddings "
                    "- factor + 1 (HF's dynamic rule at the longest sequence seen; ntk's static rule: alpha = "
                    "factor): the vector fixes alpha, not the three");
        break;
    default: break;
    }
}

static pe_status open_sink(const void *d, char *out, size_t out_bytes, size_t *written, diag_sink *s) {
    if (!d || !out || !written) return PE_ERR_NULL;
    if (out_bytes == 0) return PE_ERR_OUT_SIZE;
    *s = (diag_sink){out, out_bytes, 0};
    out[0] = 0;
    return PE_OK;
}

pe_status pe_inv_freq_diagnosis_text(const pe_inv_freq_diagnosis *d, char *out, size_t out_bytes, size_t *written) {
    diag_sink s;
    pe_status st = open_sink(d, out, out_bytes, written, &s);
    if (st != PE_OK) return st;
    diag_put(&s, "verdict: ");
    verdict(&s, d);
    diag_put(&s, ".\nstorage: %s (%u values)\n", storage_name(d->storage), d->count);
    if (d->count >= 2 && d->base > 0.0) {
        if (d->rule == 1)
            diag_put(&s, "exponents: k/(h-1) with h = %u (tensor2tensor's rule, not RoPE's)\n", d->count);
        else
            diag_put(&s,
                     "rotary dim: %u (exponents 2k/%u); head_dim is not in the vector (partial rotary when it is "
                     "larger: partial_rotary_factor = %u / head_dim)\n",
                     d->rotary_dim, d->rotary_dim, d->rotary_dim);
        diag_put(&s, "base: %.9g", d->base);
        if (d->scaling == PE_DIAG_SCALING_PER_PAIR)
            diag_put(&s, " (the common base that makes the factors round: only factor_k base^(2k/d) is fixed)\n");
        else
            diag_put(&s, " (%d significant digits determined%s)\n", d->base_digits,
                     d->base_round ? ", a round number" : ", not round");
        diag_put(&s, "rope scaling: ");
        scaling_full(&s, d);
        diag_put(&s, "\nrecipe: %s: %u of %u values bit for bit, %u within 2 ulps", recipe_words(d, d->recipe),
                 d->recipe_exact, d->count, d->recipe_near);
        if (d->recipe == PE_DIAG_RECIPE_F32_HF && d->recipe_exact < d->count && d->identified)
            diag_put(&s, " (torch's float32 pow is not correctly rounded: an ulp or two off at a few pairs)");
        if (d->recipe_tied != PE_DIAG_RECIPE_UNKNOWN)
            diag_put(&s, "; indistinguishable here from: %s", recipe_words(d, d->recipe_tied));
        diag_put(&s, "\nerror against the exact frequencies: up to %.3g ulps of %s (pair %u)\n", d->max_ulps,
                 storage_name(d->storage), d->worst_pair);
    }
    if (!d->identified && d->count >= 2) diag_put(&s, "line fit: rms of log w_k off the best line %.3g\n", d->fit_rms);
    *written = s.used;
    return PE_OK;
}

static void jnum(diag_sink *s, const char *key, double v) {
    diag_put(s, "\"%s\":%.17g,", key, v);
}

static void rope_scaling_json(diag_sink *s, const pe_inv_freq_diagnosis *d) {
    if (d->scaling == PE_DIAG_SCALING_NONE) {
        diag_put(s, "\"ropeScaling\":null,");
        return;
    }
    diag_put(s, "\"ropeScaling\":{\"rope_type\":\"%s\"", scaling_type(d->scaling));
    if (d->factor > 0) diag_put(s, ",\"factor\":%.17g", d->factor);
    if (d->scaling == PE_DIAG_SCALING_LLAMA3)
        diag_put(s, ",\"low_freq_factor\":%.17g,\"high_freq_factor\":%.17g,\"original_max_position_embeddings\":%.17g",
                 d->low_freq_factor, d->high_freq_factor, d->original_max);
    if (d->scaling == PE_DIAG_SCALING_YARN)
        diag_put(s,
                 ",\"beta_fast\":%.17g,\"beta_slow\":%.17g,\"original_max_position_embeddings\":%.17g,"
                 "\"truncate\":%s",
                 d->beta_fast, d->beta_slow, d->original_max, d->truncated ? "true" : "false");
    if (d->scaling == PE_DIAG_SCALING_PER_PAIR) {
        diag_put(s, ",\"factors\":[");
        for (uint32_t k = 0; k < d->pair_factors; k++) diag_put(s, "%s%.17g", k ? "," : "", d->pair_factor[k]);
        diag_put(s, "]");
    }
    diag_put(s, "},");
}

pe_status pe_inv_freq_diagnosis_json(const pe_inv_freq_diagnosis *d, char *out, size_t out_bytes, size_t *written) {
    diag_sink s;
    pe_status st = open_sink(d, out, out_bytes, written, &s);
    if (st != PE_OK) return st;
    diag_put(&s, "{\"kind\":\"inv-freq\",");
    jnum(&s, "count", d->count);
    jnum(&s, "rotaryDim", d->rotary_dim);
    diag_put(&s, "\"storage\":\"%s\",\"identified\":%s,", storage_name(d->storage), d->identified ? "true" : "false");
    diag_put(&s, "\"frequencies\":\"%s\",", d->rule == 0 ? "paper" : d->rule == 1 ? "tensor2tensor" : "undetermined");
    jnum(&s, "base", d->base);
    jnum(&s, "baseDigits", d->base_digits);
    diag_put(&s, "\"baseRound\":%s,\"scaling\":\"%s\",", d->base_round ? "true" : "false", scaling_type(d->scaling));
    jnum(&s, "factor", d->factor);
    jnum(&s, "ropeTheta", d->rope_theta);
    rope_scaling_json(&s, d);
    jnum(&s, "rampLow", d->ramp_low);
    jnum(&s, "rampHigh", d->ramp_high);
    diag_put(&s, "\"rampFixed\":%s,", d->ramp_fixed ? "true" : "false");
    diag_put(&s, "\"originalRange\":[%.17g,%.17g],", d->original_lo, d->original_hi);
    jnum(&s, "dynamicAlpha", d->dynamic_alpha);
    diag_put(&s, "\"recipe\":\"%s\",\"recipeTied\":\"%s\",", recipe_name(d->recipe),
             d->recipe_tied ? recipe_name(d->recipe_tied) : "");
    jnum(&s, "recipeExact", d->recipe_exact);
    jnum(&s, "recipeNear", d->recipe_near);
    jnum(&s, "maxUlps", d->max_ulps);
    jnum(&s, "worstPair", d->worst_pair);
    diag_put(&s, "\"fitRms\":%.17g}", d->fit_rms);
    *written = s.used;
    return PE_OK;
}
