/* The RoPE scaling part of the verdict and of the JSON, in HF's rope_scaling
 * names (diag_scaling.c found them): the short form for the verdict line, the
 * full form with what the data fix for the "rope scaling:" line, and the
 * "ropeScaling" object a user can compare with a config.json. */
#include "diag_internal.h"
#include "math/f64math.h"

/* ", factor F", and the factor tied with it when the cells leave it open */
static void factor_and_tie(diag_sink *s, const pe_diagnosis *d) {
    diag_put(s, ", factor %.6g", d->factor);
    if (d->factor_tied > 0) diag_put(s, " (or %.6g: these rows do not tell)", d->factor_tied);
}

static void yarn_words(diag_sink *s, const pe_diagnosis *d, int full) {
    diag_put(s, "YaRN (rope_type yarn)");
    factor_and_tie(s, d);
    diag_put(s, ", beta_fast %.6g, beta_slow %.6g, original_max_position_embeddings %.6g", d->beta_fast, d->beta_slow,
             d->original_max);
    if (d->attention_factor > 0) diag_put(s, ", attention_factor %.6g", d->attention_factor);
    if (!full) return;
    diag_put(
        s,
        "; the data fix only the ramp, pairs %.4g to %.4g%s: with these betas any original_max_position_embeddings "
        "from %.6g to %.6g gives it",
        d->band_low, d->band_high, d->truncated ? "" : " (truncate false)", d->original_lo, d->original_hi);
    if (d->attention_factor > 0)
        diag_put(s, "; amplitude = 0.1 mscale ln(factor) + 1, mscale %.6g", d->mscale);
    else
        diag_put(s,
                 "; amplitude 1: the cache carries no attention factor (HF's default is %.6g): attention_factor 1, or "
                 "mscale equal to mscale_all_dim (DeepSeek-V2/V3) give it alike",
                 0.1 * pe_log(d->factor) + 1.0);
}

static void llama3_words(diag_sink *s, const pe_diagnosis *d, int full) {
    diag_put(s, "Llama 3 (rope_type llama3)");
    factor_and_tie(s, d);
    diag_put(s, ", low_freq_factor %.6g, high_freq_factor %.6g, original_max_position_embeddings %.6g",
             d->low_freq_factor, d->high_freq_factor, d->original_max);
    if (!full) return;
    const double u = d->unread_wavelength;
    if (!(u > 0.0)) {
        diag_put(s, "; the data fix only original_max_position_embeddings / low_freq_factor = %.6g", d->band_low);
        diag_put(s, " and / high_freq_factor = %.6g (canonical low_freq_factor 1)", d->band_high);
        return;
    }
    /* at most one ramp pair read (diag_exact_scaled.c): other bands and factors may give these cells too */
    if (u > d->band_high)
        diag_put(s,
                 "; the data fix only original_max_position_embeddings / high_freq_factor = %.6g and one pair of "
                 "the ramp",
                 d->band_high);
    else
        diag_put(s, "; the data fix neither band");
    diag_put(s,
             ": from wavelength %.6g on every pair holds in every row what frequency 0 gives, so / low_freq_factor "
             "(%.6g with the canonical low_freq_factor 1 and high_freq_factor 4) and the factor are not read: other "
             "bands and factors may give these cells bit for bit",
             u, d->band_low);
}

static void dynamic_words(diag_sink *s, const pe_diagnosis *d, int full) {
    if (!(d->factor > 0)) {
        /* the cells fixed the base, but no round factor and power-of-two original give it at the cache's length */
        diag_put(s, "dynamic NTK (rope_type dynamic) from rope_theta %.9g, alpha %.9g", d->rope_theta,
                 d->dynamic_alpha);
        if (full)
            diag_put(s,
                     "; the data fix only the base, rope_theta alpha^(d/(d-2)): factor, "
                     "original_max_position_embeddings and the sequence length L HF rebuilt the cache at (L at least "
                     "%.0f, the cache's last position + 1) are one relation, factor (L / original - 1) = %.9g",
                     d->seq_len, d->dynamic_alpha - 1.0);
        return;
    }
    diag_put(s,
             "dynamic NTK (rope_type dynamic), factor %.6g, original_max_position_embeddings %.6g, rope_theta %.9g, "
             "built at sequence length %.0f",
             d->factor, d->original_max, d->rope_theta, d->seq_len);
    if (full)
        diag_put(
            s,
            "; the data fix only the base: factor (seq_len / original_max_position_embeddings - 1) = %.6g (seq_len "
            "the cache's length, original a power of two)",
            d->dynamic_alpha - 1.0);
}

/* One factor as the cells fix it: the value, or its bracket when open ("at least" without an upper bound). */
static void factor_words(diag_sink *s, const pe_diagnosis *d, uint32_t k) {
    const double lo = d->pair_factor_lo[k], hi = d->pair_factor_hi[k];
    if (!d->pair_factor_open[k])
        diag_put(s, " %.6g", d->pair_factor[k]);
    else if (hi >= 1e299)
        diag_put(s, " >=%.4g", lo);
    else
        diag_put(s, " %.4g..%.4g", lo, hi);
}

/* Which list HF took: long_factor past original_max_position_embeddings, short_factor up to it. */
static const char *which_factors(const pe_diagnosis *d) {
    return d->long_factors == 1 ? "long_factor" : d->long_factors == 0 ? "short_factor" : "factors";
}

/* A cache read far out at a shipped model's list (diag_far_longrope.c): the list named, every factor its. */
static void list_words(diag_sink *s, const pe_diagnosis *d, int full) {
    const diag_longrope_list *l = &diag_longrope_lists[d->longrope_list - 1];
    diag_put(s, "LongRoPE (rope_type longrope), the factors of %s's %s (from %.4g to %.4g) at rope_theta %.9g",
             l->model, l->is_long ? "long_factor" : "short_factor", d->band_low, d->band_high, d->rope_theta);
    if (d->long_factors == 1 && !l->is_long)
        diag_put(s, " (as long_factor: HF takes it past %.6g positions)", d->original_max);
    diag_put(s, ", factor %.6g, original_max_position_embeddings %.6g, attention_factor %.6g", d->factor,
             d->original_max, d->attention_factor);
    if (full)
        diag_put(s, "; far out the cells cannot separate the first position from the factors (a position p c with "
                    "every factor times c gives nearly the same float32 angles), so the lists shipped models' configs "
                    "carry were tried: this one, regenerated as HF does (float32 inv_freq and angles, times the "
                    "attention factor, rounded to the storage), reproduces every cell checked");
}

static void longrope_words(diag_sink *s, const pe_diagnosis *d, int full) {
    if (d->longrope_list > 0) {
        list_words(s, d, full);
        return;
    }
    const char *which = which_factors(d);
    int unbounded = 0; /* an open factor with no upper bound: the band's top is open too */
    for (uint32_t k = 0; k < d->pair_factors; k++) unbounded |= d->pair_factor_open[k] && d->pair_factor_hi[k] >= 1e299;
    diag_put(s, "LongRoPE (rope_type longrope), %s from %.4g to %.4g%s at rope_theta %.9g", which, d->band_low,
             d->band_high, unbounded ? " or more" : "", d->rope_theta);
    if (d->long_factors == -1 && d->factor > 0) diag_put(s, " (short_factor or long_factor: these rows do not tell)");
    if (d->pair_factors_open > 0)
        diag_put(s, ", %u of the %u factors not fixed by these rows (ranges below)", d->pair_factors_open,
                 d->pair_factors);
    if (d->factor > 0) diag_put(s, ", factor %.6g, original_max_position_embeddings %.6g", d->factor, d->original_max);
    if (d->attention_factor > 0) diag_put(s, ", attention_factor %.6g", d->attention_factor);
    if (!full) return;
    diag_put(s, "; %s:", which);
    for (uint32_t k = 0; k < d->pair_factors; k++) factor_words(s, d, k);
    if (d->pair_factors_open > 0)
        diag_put(s,
                 "; a range is every factor whose column, regenerated as HF does (float32 inv_freq and angles, times "
                 "the attention factor, rounded to the storage), reproduces every cell checked: the column turns too "
                 "little over these rows to fix it (>=: no upper bound, the column hardly leaves its value at angle "
                 "0); more rows, or rows further from position 0, fix it");
    diag_put(s, "; the data fix only factor_k rope_theta^(2k/d) (rope_theta: the common base making most round; a "
                "factor with one two-decimal value in its range is given as that value)");
    if (d->long_factors == -1 && d->factor > 0)
        diag_put(s,
                 "; HF takes long_factor for a cache built past original_max_position_embeddings positions and "
                 "short_factor up to it: rows within the first %.6g positions are either",
                 d->original_max);
    if (d->factor > 0)
        diag_put(s,
                 "; amplitude = sqrt(1 + ln factor / ln original_max_position_embeddings): the data fix only ln "
                 "factor / ln original_max_position_embeddings = %.6g (factor and original the smallest powers of "
                 "two giving it)",
                 d->attention_factor * d->attention_factor - 1.0);
}

/* The family's name alone, for a nearest reading the cells do not bear out (diag_nearest_unread). */
static void unread_words(diag_sink *s, const pe_diagnosis *d, int full) {
    static const char *names[] = {"none",
                                  "linear (rope_type linear)",
                                  "YaRN (rope_type yarn)",
                                  "Llama 3 (rope_type llama3)",
                                  "banded (YaRN or Llama 3)",
                                  "LongRoPE (rope_type longrope)",
                                  "dynamic NTK (rope_type dynamic)"};
    diag_put(s, "%s, parameters not read", (unsigned)d->scaling < 7 ? names[d->scaling] : "none");
    if (full)
        diag_put(s,
                 " (the nearest reading reproduces %.1f%% of sampled cells: its factors and attention factor are "
                 "a fit's, not what the cells fix)",
                 100.0 * d->recipe_match);
}

void diag_scaling_words(diag_sink *s, const pe_diagnosis *d, int full) {
    if (diag_scaling_unread(d)) {
        diag_put(s, "not read");
        if (full)
            diag_put(s, " (far out the float32 angles blur every column but the slowest, so no factor is fitted; "
                        "a LongRoPE cache is read only at the factor lists shipped models' configs carry)");
        return;
    }
    if (d->scaling != PE_DIAG_SCALING_NONE && diag_nearest_unread(d)) {
        unread_words(s, d, full);
        return;
    }
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
                     " found; the base %.9g is not round: as dynamic NTK from rope_theta %.9g, factor (seq_len / "
                     "original_max_position_embeddings - 1) = %.6g (seq_len: the length the cache was built at)",
                     d->base, d->rope_theta, d->dynamic_alpha - 1.0);
    }
}

static void key(diag_sink *s, const char *name, double v) {
    diag_put(s, ",\"%s\":%.17g", name, v);
}

void diag_scaling_json(diag_sink *s, const pe_diagnosis *d) {
    static const char *types[] = {"", "linear", "yarn", "llama3", "yarn or llama3", "longrope", "dynamic"};
    diag_put(s, "\"dynamicAlpha\":%.17g,\"scalingCanonical\":%s,\"originalRange\":[%.17g,%.17g],", d->dynamic_alpha,
             d->params_canonical ? "true" : "false", d->original_lo, d->original_hi);
    diag_put(s, "\"factorTied\":%.17g,\"unreadWavelength\":%.17g,", d->factor_tied, d->unread_wavelength);
    if (d->scaling == PE_DIAG_SCALING_NONE || (unsigned)d->scaling > PE_DIAG_SCALING_DYNAMIC ||
        diag_scaling_unread(d)) {
        diag_put(s, "\"ropeScaling\":null,");
        return;
    }
    diag_put(s, "\"ropeScaling\":{\"rope_type\":\"%s\"", types[d->scaling]);
    if (diag_nearest_unread(d)) { /* the family named, "parameters not read" */
        diag_put(s, "},");
        return;
    }
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
    /* amplitude 1 is not HF's YaRN default: regenerating the cache needs it said (or mscale == mscale_all_dim) */
    if (d->scaling == PE_DIAG_SCALING_YARN && !(d->attention_factor > 0)) key(s, "attention_factor", 1.0);
    if (d->scaling == PE_DIAG_SCALING_LLAMA3) {
        key(s, "low_freq_factor", d->low_freq_factor);
        key(s, "high_freq_factor", d->high_freq_factor);
    }
    if (d->scaling == PE_DIAG_SCALING_DYNAMIC && d->factor > 0) key(s, "seq_len", d->seq_len);
    if (d->scaling == PE_DIAG_SCALING_PER_PAIR) {
        diag_put(s, ",\"%s\":[", which_factors(d));
        /* 7 digits: as fitted; null for a factor the rows leave open (pairFactorRanges gives its range) */
        for (uint32_t k = 0; k < d->pair_factors; k++) {
            if (d->pair_factor_open[k])
                diag_put(s, "%snull", k ? "," : "");
            else
                diag_put(s, "%s%.7g", k ? "," : "", d->pair_factor[k]);
        }
        diag_put(s, "]");
    }
    diag_put(s, "},");
    if (d->scaling != PE_DIAG_SCALING_PER_PAIR) return;
    /* each factor's range [lo, hi] (hi null: no upper bound) */
    diag_put(s, "\"pairFactorsOpen\":%u,\"pairFactorRanges\":[", d->pair_factors_open);
    for (uint32_t k = 0; k < d->pair_factors; k++) {
        diag_put(s, "%s[%.7g,", k ? "," : "", d->pair_factor_lo[k]);
        if (d->pair_factor_hi[k] >= 1e299)
            diag_put(s, "null]");
        else
            diag_put(s, "%.7g]", d->pair_factor_hi[k]);
    }
    diag_put(s, "],");
}
