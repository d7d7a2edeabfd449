/* The RoPE scaling part of the verdict and of the JSON, in HF's rope_scaling
 * names (diag_scaling.c found them): the short form for the verdict line, the
 * full form with what the data fix for the "rope scaling:" line, and the
 * "ropeScaling" object a user can compare with a config.json. */
#include "diag_internal.h"
#include "math/f64math.h"

static void yarn_words(diag_sink *s, const pe_diagnosis *d, int full) {
    diag_put(
        s, "YaRN (rope_type yarn), factor %.6g, beta_fast %.6g, beta_slow %.6g, original_max_position_embeddings %.6g",
        d->factor, d->beta_fast, d->beta_slow, d->original_max);
    if (d->attention_factor > 0) diag_put(s, ", attention_factor %.6g", d->attention_factor);
    if (!full) return;
    diag_put(s, "; the frequencies fix only the ramp, from pair %.4g (unscaled up to it) to pair %.4g (scaled from it)",
             d->band_low, d->band_high);
    diag_put(s, d->truncated ? ", whole pairs (HF's truncate, the default)" : ", not on whole pairs (truncate false)");
    diag_put(s,
             ", that is original_max_position_embeddings / beta_fast and / beta_slow: with beta_fast %.6g and "
             "beta_slow %.6g any original_max_position_embeddings from %.6g to %.6g gives them (the canonical set "
             "shown)",
             d->beta_fast, d->beta_slow, d->original_lo, d->original_hi);
    if (d->attention_factor > 0)
        diag_put(s,
                 "; the amplitude is attention_factor %.6g = 0.1 mscale ln(factor) + 1 with mscale %.6g (HF's default "
                 "is mscale 1; a config may also give attention_factor, or mscale and mscale_all_dim)",
                 d->attention_factor, d->mscale);
    else
        diag_put(s,
                 "; the cache carries no attention factor (amplitude 1: attention_factor 1, mscale equal to "
                 "mscale_all_dim, or applied elsewhere; HF's default would be %.6g)",
                 0.1 * pe_log(d->factor) + 1.0);
}

static void llama3_words(diag_sink *s, const pe_diagnosis *d, int full) {
    diag_put(s,
             "Llama 3 (rope_type llama3), factor %.6g, low_freq_factor %.6g, high_freq_factor %.6g, "
             "original_max_position_embeddings %.6g",
             d->factor, d->low_freq_factor, d->high_freq_factor, d->original_max);
    if (!full) return;
    diag_put(s, "; the frequencies fix only the wavelengths original_max_position_embeddings / low_freq_factor = %.6g",
             d->band_low);
    diag_put(s,
             " (scaled above) and / high_freq_factor = %.6g (unscaled below): any multiple k of (%.6g, %.6g, %.6g) "
             "gives them, low_freq_factor 1 is the canonical set",
             d->band_high, d->original_max, d->low_freq_factor, d->high_freq_factor);
}

static void dynamic_words(diag_sink *s, const pe_diagnosis *d, int full) {
    diag_put(s,
             "dynamic NTK (rope_type dynamic), factor %.6g, original_max_position_embeddings %.6g, rope_theta %.9g, "
             "built at sequence length %.0f",
             d->factor, d->original_max, d->rope_theta, d->seq_len);
    if (full)
        diag_put(s,
                 "; the frequencies fix only the base %.9g = rope_theta (factor seq_len / "
                 "original_max_position_embeddings - factor + 1)^(d/(d-2)), so factor (seq_len / "
                 "original_max_position_embeddings - 1) = %.6g at rope_theta %.9g: the set shown takes seq_len the "
                 "cache's length and the power-of-two original_max_position_embeddings that makes factor round",
                 d->base, d->dynamic_alpha - 1.0, d->rope_theta);
}

static void longrope_words(diag_sink *s, const pe_diagnosis *d, int full) {
    const char *which = d->long_factors == 1   ? "long_factor"
                        : d->long_factors == 0 ? "short_factor"
                                               : "per-pair factors";
    diag_put(s, "LongRoPE (rope_type longrope), %s from %.4g to %.4g at rope_theta %.9g", which, d->band_low,
             d->band_high, d->rope_theta);
    if (d->factor > 0) diag_put(s, ", factor %.6g, original_max_position_embeddings %.6g", d->factor, d->original_max);
    if (d->attention_factor > 0) diag_put(s, ", attention_factor %.6g", d->attention_factor);
    if (!full) return;
    diag_put(s, "; %s:", which);
    for (uint32_t k = 0; k < d->pair_factors; k++) diag_put(s, " %.6g", d->pair_factor[k]);
    if (d->pair_factors == 0) diag_put(s, " (not listed: more than %d pairs)", PE_DIAG_PAIR_FACTORS);
    diag_put(s,
             "; the frequencies fix each factor times rope_theta^(2k/d) only: the factors are read at the common base "
             "that makes the most of them round");
    if (d->factor > 0)
        diag_put(s,
                 "; the amplitude is HF's default attention_factor sqrt(1 + ln(factor) / "
                 "ln(original_max_position_embeddings)) with factor %.6g = max_position_embeddings / "
                 "original_max_position_embeddings (the power-of-two pair giving it); the cache covers %s positions "
                 "than original_max_position_embeddings, so HF uses %s",
                 d->factor, d->long_factors ? "more" : "no more", which);
    else if (d->attention_factor > 0)
        diag_put(s,
                 "; the amplitude %.6g is the attention_factor (given in the config: no power-of-two factor and "
                 "original_max_position_embeddings give it by HF's default)",
                 d->attention_factor);
}

void diag_scaling_words(diag_sink *s, const pe_diagnosis *d, int full) {
    switch (d->scaling) {
    case PE_DIAG_SCALING_LINEAR:
        diag_put(s, "linear (rope_type linear), factor %.6g", d->factor);
        if (full) diag_put(s, " (every frequency divided by it)");
        break;
    case PE_DIAG_SCALING_YARN: yarn_words(s, d, full); break;
    case PE_DIAG_SCALING_LLAMA3: llama3_words(s, d, full); break;
    case PE_DIAG_SCALING_DYNAMIC: dynamic_words(s, d, full); break;
    case PE_DIAG_SCALING_PER_PAIR: longrope_words(s, d, full); break;
    case PE_DIAG_SCALING_BANDED:
        diag_put(s, "banded (YaRN or Llama 3: too few pairs in between to tell), factor %.6g", d->factor);
        break;
    default:
        diag_put(s, "none");
        if (full && d->dynamic_alpha > 0)
            diag_put(s,
                     " found; the base %.9g is not round: if it is dynamic NTK (rope_type dynamic) from rope_theta "
                     "%.9g, then factor (seq_len / original_max_position_embeddings - 1) = %.6g, seq_len the length "
                     "the cache was built at (no power-of-two original_max_position_embeddings below the cache's %.0f "
                     "positions makes factor round)",
                     d->base, d->rope_theta, d->dynamic_alpha - 1.0, d->seq_len);
    }
}

static void key(diag_sink *s, const char *name, double v) {
    diag_put(s, ",\"%s\":%.17g", name, v);
}

void diag_scaling_json(diag_sink *s, const pe_diagnosis *d) {
    static const char *types[] = {"", "linear", "yarn", "llama3", "yarn or llama3", "longrope", "dynamic"};
    diag_put(s, "\"dynamicAlpha\":%.17g,\"scalingCanonical\":%s,\"originalRange\":[%.17g,%.17g],", d->dynamic_alpha,
             d->params_canonical ? "true" : "false", d->original_lo, d->original_hi);
    if (d->scaling == PE_DIAG_SCALING_NONE || (unsigned)d->scaling > PE_DIAG_SCALING_DYNAMIC) {
        diag_put(s, "\"ropeScaling\":null,");
        return;
    }
    diag_put(s, "\"ropeScaling\":{\"rope_type\":\"%s\"", types[d->scaling]);
    if (d->factor > 0) key(s, "factor", d->factor);
    if (d->rope_theta > 0) key(s, "rope_theta", d->rope_theta);
    if (d->original_max > 0) key(s, "original_max_position_embeddings", d->original_max);
    if (d->scaling == PE_DIAG_SCALING_YARN) {
        key(s, "beta_fast", d->beta_fast);
        key(s, "beta_slow", d->beta_slow);
        diag_put(s, ",\"truncate\":%s", d->truncated ? "true" : "false");
        if (d->mscale > 0) key(s, "mscale", d->mscale);
    }
    if (d->attention_factor > 0) key(s, "attention_factor", d->attention_factor);
    if (d->scaling == PE_DIAG_SCALING_LLAMA3) {
        key(s, "low_freq_factor", d->low_freq_factor);
        key(s, "high_freq_factor", d->high_freq_factor);
    }
    if (d->scaling == PE_DIAG_SCALING_DYNAMIC) key(s, "seq_len", d->seq_len);
    if (d->scaling == PE_DIAG_SCALING_PER_PAIR) {
        diag_put(s, ",\"%s\":[",
                 d->long_factors == 1   ? "long_factor"
                 : d->long_factors == 0 ? "short_factor"
                                        : "factors");
        for (uint32_t k = 0; k < d->pair_factors; k++)
            diag_put(s, "%s%.7g", k ? "," : "", d->pair_factor[k]); /* 7 digits: as fitted */
        diag_put(s, "]");
    }
    diag_put(s, "},");
}
