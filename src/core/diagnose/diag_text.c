/* The verdict in plain words and the same facts as JSON, written into a
 * caller buffer with snprintf (cut short when it is too small; the length
 * needed is returned). Numbers are printed by the C library's correctly
 * rounded %g, so native and wasm builds print the same bytes. */
#include <stdarg.h>
#include <stdio.h>

#include "diag_internal.h"

void diag_put(diag_sink *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    size_t room = s->used < s->size ? s->size - s->used : 0;
    int n = vsnprintf(room ? s->out + s->used : NULL, room, format, args);
    va_end(args);
    if (n > 0) s->used += (size_t)n;
}

static const char *recipe_words(pe_diag_recipe r) {
    switch (r) {
    case PE_DIAG_RECIPE_EXACT: return "exact values (float64 angles, rounded once)";
    case PE_DIAG_RECIPE_F32_ROUNDED: return "float32 angles, inv_freq the float32 nearest each frequency";
    case PE_DIAG_RECIPE_F32_HF: return "float32 angles, inv_freq = 1/(base**(arange(0,d,2)/d)) in float32 (HF)";
    case PE_DIAG_RECIPE_F32_KERAS: return "float32 angles, inv_freq = (1/base)**(2i/d) in float32 (Keras)";
    case PE_DIAG_RECIPE_F32_EXP:
        return "float32 angles, inv_freq = exp(arange * -(log(base)/n)) in float32 (PyTorch tutorial, tensor2tensor, "
               "fairseq)";
    case PE_DIAG_RECIPE_F32_FITTED: return "float32 angles from float32 inv_freq values";
    case PE_DIAG_RECIPE_F16: return "every step in float16";
    case PE_DIAG_RECIPE_BF16: return "every step in bfloat16";
    case PE_DIAG_RECIPE_F64_NUMPY:
        return "float64 angles p * exp(arange(0,d,2) * -(log(base)/d)), float64 sin/cos, then cast (numpy)";
    default: return "no known recipe";
    }
}

static const char *recipe_name(pe_diag_recipe r) {
    static const char *names[] = {"unknown",
                                  "exact",
                                  "float32-angle",
                                  "float32-angle-hf",
                                  "float32-angle-keras",
                                  "float32-angle-exp",
                                  "float32-angle-fitted",
                                  "float16",
                                  "bfloat16",
                                  "float64-numpy"};
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "unknown";
}

static const char *formula_words(pe_diag_recipe r) {
    switch (r) {
    case PE_DIAG_RECIPE_F32_ROUNDED: return "the float32 nearest each frequency";
    case PE_DIAG_RECIPE_F32_HF: return "HF's 1/(base**(arange(0,d,2)/d))";
    case PE_DIAG_RECIPE_F32_KERAS: return "Keras's (1/base)**(2i/d)";
    case PE_DIAG_RECIPE_F32_EXP: return "the tutorial's exp(arange * -(log(base)/n))";
    default: return "no formula";
    }
}

/* A float32-angle recipe whose cells are within an ulp but not all bit for bit: its sin and cos were not
 * correctly rounded (PyTorch's float32 sin/cos). */
/* Why a cache far out that no reading identifies has no scaling read (the far readings' limits). */
#define FAR_FACTORS_WHY                                                                                              \
    "far out each float32 angle is rounded to an ulp of itself, so the recurrences that read per-column factors "    \
    "near position 0 read noise there: per-column factors, as LongRoPE's short_factor or long_factor, are not read " \
    "without a shipped list or a search: only column 0 at inv_freq 1 or 1 / a power-of-two linear factor, a "        \
    "LongRoPE list a shipped config carries (Phi-3-mini-128k-instruct's, Phi-4-mini-instruct's and OmniGen-v1's "    \
    "short_factor and long_factor, tried cell by cell), or two-decimal factors searched (column 0's 1.00 to 2.00, "  \
    "the others' 1.00 to 300.00, rope_theta 10000, first positions from 2^21; none or more than one fit here) "      \
    "places the position"

static int torch_sin(const pe_diagnosis *d) {
    return d->recipe >= PE_DIAG_RECIPE_F32_ROUNDED && d->recipe <= PE_DIAG_RECIPE_F32_FITTED && d->scale == 1.0 &&
           d->recipe_match >= 0.99 && d->recipe_exact_share < d->recipe_match - 0.001;
}

/* The recipe, and for fitted float32 inv_freq which formula they come from. */
static void recipe_full(diag_sink *s, const pe_diagnosis *d) {
    if (d->recipe == PE_DIAG_RECIPE_UNKNOWN) { /* identified within wide noise (diagnose.c, within_wide_noise) */
        diag_put(s,
                 "noisy: the cells are the convention's plus noise of rms %.2g (relative to the amplitude), "
                 "spread evenly; no recipe reproduces them (%.1f%% of sampled cells within an ulp), so none is read",
                 d->rms_error, 100.0 * d->recipe_match);
        return;
    }
    diag_put(s, "%s", recipe_words(d->recipe));
    if (torch_sin(d)) diag_put(s, ", sin/cos in float32 not correctly rounded (PyTorch's)");
    /* inv_freq a formula's within an ulp or two, not all its correctly rounded values (diag_exact.c) */
    if (d->recipe == d->inv_formula && d->recipe != PE_DIAG_RECIPE_UNKNOWN && d->inv_formula_share < 1.0)
        diag_put(s,
                 " (%.0f%% of inv_freq its correctly rounded values, the rest an ulp or two away: PyTorch's float32 "
                 "exp and pow are not correctly rounded)",
                 100.0 * d->inv_formula_share);
    /* identified within noise (diagnose.c, fit_exact): the recipe explains the cells but few bit for bit */
    if (d->identified && d->recipe_match < 0.99)
        diag_put(s, ", with noise on the cells (%.1f%% of sampled cells within an ulp of the recipe)",
                 100.0 * d->recipe_match);
    if (d->recipe == PE_DIAG_RECIPE_F32_FITTED && d->inv_formula != PE_DIAG_RECIPE_UNKNOWN)
        diag_put(s,
                 " (%s gives %.0f%% of them exactly; the rest are an ulp away: that formula with another exp or pow)",
                 formula_words(d->inv_formula), 100.0 * d->inv_formula_share);
}

static const char *storage_name(pe_dtype t) {
    return t == PE_DTYPE_FLOAT16 ? "float16" : t == PE_DTYPE_BFLOAT16 ? "bfloat16" : "float32";
}

static const char *rule_name(int rule) {
    return rule == 0 ? "paper" : rule == 1 ? "tensor2tensor" : rule == 2 ? "other" : "undetermined";
}

static const char *scaling_name(pe_diag_scaling s) {
    static const char *names[] = {"none", "linear", "yarn", "llama3", "banded", "per-pair", "dynamic"};
    return (unsigned)s < 7 ? names[s] : "none";
}

static const char *layout_name(const pe_diagnosis *d) {
    if (d->kind == PE_DIAG_COS_SIN) return d->duplicated == 1 ? "halves" : d->duplicated == 2 ? "neighbours" : "single";
    return d->layout == PE_LAYOUT_SPLIT ? "split" : "interleaved";
}

/* A table past 2^24 whose first row sits on the float32 grid: fairseq's recipe (a float32 arange from the start,
 * rounded first) makes the same rows from every start that rounds to it, so say which starts those are. */
static void arange_starts(diag_sink *s, const pe_diagnosis *d) {
    const double f = d->offset;
    if (d->kind != PE_DIAG_TABLE || !d->position_grid || f < 16777216.0 || (double)(float)f != f) return;
    double lo = f, hi = f;
    while (lo > 16777216.0 && (double)(float)(lo - 1.0) == f) lo -= 1.0;
    while (hi - f < 256.0 && (double)(float)(hi + 1.0) == f) hi += 1.0;
    if (lo < hi)
        diag_put(s,
                 " (%.0f to %.0f in fairseq's recipe: its float32 arange rounds the start first, so those starts "
                 "give these rows bit for bit)",
                 lo, hi);
}

/* "split layout (sines first)" or "cos cache, halves duplicated (rotate_half pairing)". */
static void convention(diag_sink *s, const pe_diagnosis *d) {
    if (d->kind == PE_DIAG_COS_SIN) {
        /* a first position left open leaves cos and sin open too: a shift of the positions turns the phases of
         * one into nearly the other's (a nearest reading once named a cos cache a sin one) */
        if (!d->identified && !d->offset_known)
            diag_put(s,
                     "RoPE cos or sin cache (%s fits a little better; with the first position undetermined the "
                     "cells do not tell them apart), ",
                     d->cache_cos ? "cos" : "sin");
        else
            diag_put(s, "RoPE %s cache, ", d->cache_cos ? "cos" : "sin");
        diag_put(s, "%s",
                 d->duplicated == 1   ? "halves duplicated (rotate_half pairing: GPT-NeoX, HF Llama)"
                 : d->duplicated == 2 ? "neighbours duplicated (interleaved pairing: GPT-J)"
                                      : "one column per frequency (not duplicated)");
    } else {
        diag_put(s, "%s layout (%s first)", d->layout == PE_LAYOUT_SPLIT ? "split" : "interleaved",
                 d->cos_first ? "cosines" : "sines");
    }
    if (d->rule == 0)
        diag_put(s, ", %s frequencies", d->kind == PE_DIAG_COS_SIN ? "RoPE (paper's rule)" : "paper");
    else if (d->rule == 1)
        diag_put(s, ", tensor2tensor frequencies");
    else if (d->rule == 2)
        diag_put(s, ", frequencies of no standard rule");
    else
        diag_put(s, ", frequency rule undetermined");
    if (d->base > 0.0) {
        if (d->base_round)
            diag_put(s, ", base %.9g", d->base);
        else if (d->base_digits >= 1)
            diag_put(s, ", base %.*g", d->base_digits < 10 ? d->base_digits : 10, d->base);
    }
    diag_put(s, ", first position ");
    if (d->offset_known) {
        diag_put(s, "%.0f", d->offset);
        arange_starts(s, d);
    } else if ((d->searched & PE_DIAG_SEARCHED_SLOW_ONLY) || diag_nearest_unread(d))
        diag_put(s, "undetermined");
    else
        diag_put(s, "undetermined (about %.3g)", d->offset);
}

static void position_or_never(diag_sink *s, int64_t p) {
    if (p < 0)
        diag_put(s, "never");
    else
        diag_put(s, "at position %lld", (long long)p);
}

static void nearest(diag_sink *s, const pe_diagnosis *d) {
    diag_put(s, "nearest standard tables (base 10000, rms distance relative to the data's rms):\n");
    for (int k = 0; k < PE_DIAG_NEAREST && d->nearest_distance[k] >= 0.0; k++)
        diag_put(s, "  %s %s-first %s: %.3g\n", d->nearest_layout[k] ? "split" : "interleaved",
                 d->nearest_cos_first[k] ? "cos" : "sin", d->nearest_rule[k] ? "tensor2tensor" : "paper",
                 d->nearest_distance[k]);
}

/* What was searched, as words (a verdict that names no convention says it: never "not sinusoidal" without the
 * search behind it). */
static void searched_words(diag_sink *s, const pe_diagnosis *d) {
    const uint32_t b = d->searched;
    if (d->searched_positions >= 1.0)
        diag_put(s, "searched: first positions 0 to %.0f", d->searched_positions);
    else
        diag_put(s, "searched: no first position (no reading placed the rows)");
    if (d->searched_budget_spent)
        diag_put(s, " (a step budget ended some searches early: those read what they reached)");
    diag_put(s, "; bases: any (from the phase lines and the rows' angle steps)");
    if (b & PE_DIAG_SEARCHED_SCALED)
        diag_put(s, ", and for HF's scalings rope_theta 1e4, 5e4, 1e5, 5e5, 1e6, 5e6, 1e7");
    diag_put(s, "; layouts: interleaved and split pairs (sines or cosines first), cos/sin caches (one column per "
                "frequency, halves or neighbours duplicated)");
    if (b & PE_DIAG_SEARCHED_GRID) diag_put(s, ", 2-D grids (MAE)");
    diag_put(s, ", either orientation; recipes: exact, numpy float64 angles, float32 angles (HF, Keras, exp, fitted "
                "inv_freq; sin/cos correctly rounded or PyTorch's, within an ulp), float16 and bfloat16 storage");
    if (d->kind != PE_DIAG_COS_SIN) return;
    diag_put(s, "; scalings: none and linear (any factor)");
    if (b & PE_DIAG_SEARCHED_DYNAMIC) diag_put(s, ", dynamic NTK (alpha - 1 on a 1/2^j grid at those rope_theta)");
    if (b & PE_DIAG_SEARCHED_SCALED)
        diag_put(s,
                 ", YaRN (factors 2 to 128, beta_fast 32, beta_slow 1) and Llama 3 (factors 2 to 32, "
                 "low_freq_factor 1, high_freq_factor 4) at original contexts 512 to 1048576, %u parameter sets "
                 "read cell by cell",
                 d->searched_candidates);
    if (b & PE_DIAG_SEARCHED_FROM0) diag_put(s, ", per-pair (LongRoPE) and fitted factors from position 0");
    if (b & PE_DIAG_SEARCHED_LONGROPE)
        diag_put(s, ", LongRoPE at any first position (two-decimal factors the columns' recurrences fix, HF's "
                    "attention factors)");
    if (b & PE_DIAG_SEARCHED_FAR)
        diag_put(s, ", and far out the first position from column 0 (inv_freq 1, or 1 / a power-of-two linear "
                    "factor) on its float32 grid, then HF's unscaled, linear, YaRN and Llama 3 sets at the common "
                    "rope_theta and dynamic NTK (alpha - 1 a multiple of 1/8 up to alpha 32) cell by cell, and the "
                    "LongRoPE lists shipped configs carry (Phi-3-mini-128k-instruct, "
                    "Phi-4-mini-instruct, OmniGen-v1) cell by cell, then two-decimal LongRoPE factors (column 0's 1.00 "
                    "to 2.00, the others' 1.00 to 300.00) at rope_theta 10000 from first position 2^21");
}

/* Rows in runs of a float32 grid: HF's cos/sin caches take position_ids.float(), so past 2^24 a run of rows
 * shares one float32 position; the search reads whole positions and cannot place such rows, so say what they are. */
static void position_grid_words(diag_sink *s, const pe_diagnosis *d) {
    const double step = d->position_grid, lo = 8388608.0 * step;
    diag_put(s,
             "%s of positions rounded to float32 (HF's RoPE recipe: position_ids.float() @ inv_freq in float32, "
             "then cos and sin, as LlamaRotaryEmbedding does)",
             d->kind == PE_DIAG_COS_SIN ? "RoPE cos or sin cache" : "sines and cosines");
    if (d->base_round && d->base >= 2.0)
        diag_put(s, ", base %g (read from the columns)", d->base);
    else
        diag_put(s, ", base not read from %u distinct rows", d->distinct_rows);
    /* a cache the far reading did not place: none of its sets fits, so the scaling is open */
    if (d->kind == PE_DIAG_COS_SIN) diag_put(s, ", RoPE scaling not read (%s)", FAR_FACTORS_WHY);
    diag_put(s,
             ": consecutive rows repeat in runs (%u distinct of %u), so the first position is past 2^24 and known "
             "only to the float32 grid: ",
             d->distinct_rows, d->rows - d->zero_rows);
    if (d->position_grid_whole && d->position_grid_phase >= 0)
        diag_put(s, "a step of %.0f, first position %.0f to %.0f and %d modulo %.0f (where the runs break); ", step, lo,
                 2.0 * lo - 1.0, d->position_grid_phase, 2.0 * step);
    else if (d->position_grid_whole)
        diag_put(s, "a step of %.0f, first position %.0f to %.0f (or just below, if the first rows do not repeat); ",
                 step, lo, 2.0 * lo - 1.0);
    else
        diag_put(s, "a step of at least %.0f, first position %.0f or past; ", step, lo);
    searched_words(s, d);
    diag_put(s, " (whole positions, which cannot place rows that share one float32 position)");
}

static void verdict(diag_sink *s, const pe_diagnosis *d) {
    if (!d->identified && d->position_grid) {
        position_grid_words(s, d);
        return;
    }
    if (d->rows - d->zero_rows < 2) {
        diag_put(s, "too few rows to read frequencies from (%u nonzero): nothing about the convention is determined",
                 d->rows - d->zero_rows);
        return;
    }
    if (!d->sinusoidal && d->pairs > 0 && (d->kind == PE_DIAG_TABLE || d->duplicated)) {
        /* the columns have the structure of sinusoids (s^2 + c^2 constant, or a cache's duplicated halves):
         * never "learned or random"; say what was searched */
        diag_put(s, "no known convention explains these %s, though they have the structure of sinusoids; ",
                 d->kind == PE_DIAG_TABLE ? "sine-cosine pairs" : "cache columns");
        searched_words(s, d);
        if (d->nearest_distance[0] >= 0.0)
            diag_put(s, "; nearest standard table: %s %s-first %s at base 10000 (rms distance %.3g of the data's)",
                     d->nearest_layout[0] ? "split" : "interleaved", d->nearest_cos_first[0] ? "cos" : "sin",
                     d->nearest_rule[0] ? "tensor2tensor" : "paper", d->nearest_distance[0]);
        return;
    }
    if (!d->sinusoidal) {
        /* what was searched, never "not sinusoidal": a sinusoidal table in a layout outside the search lands here */
        diag_put(s, "no known convention: no two columns pair up as the sine and cosine of one angle (s^2 + c^2 "
                    "constant) and no RoPE cache layout fits; searched: interleaved and split pairs (sines or cosines "
                    "first), cos/sin caches (halves or neighbours duplicated, or both side by side), 2-D grids (MAE) "
                    "and a trailing zero column, either orientation (a learned or random table, or a layout outside "
                    "these)");
        return;
    }
    if (!d->identified) diag_put(s, "no known convention reproduces the cells; nearest: ");
    if (d->grid_width)
        diag_put(
            s,
            "2-D grid of %u x %u patches (MAE's get_2d_sincos_pos_embed: the column's table, then the row's), each "
            "half: ",
            d->grid_height, d->grid_width);
    convention(s, d);
    /* read from the slow columns alone, the nearest reading's first position, error and scaling are no estimates
     * (its scaling comes from columns float32 angles blurred: a LongRoPE cache far out read as linear 1.03) */
    const int slow_only = !d->identified && (d->searched & PE_DIAG_SEARCHED_SLOW_ONLY);
    if (d->scaling != PE_DIAG_SCALING_NONE && !slow_only) diag_put(s, ", RoPE scaling "), diag_scaling_words(s, d, 0);
    if (d->storage != PE_DTYPE_FLOAT32) diag_put(s, ", values stored as %s", storage_name(d->storage));
    if (d->identified) {
        diag_put(s, ", ");
        recipe_full(s, d);
        if (d->recipe_tied != PE_DIAG_RECIPE_UNKNOWN)
            diag_put(s, " (or %s: these rows do not tell)", recipe_words(d->recipe_tied));
    }
    if (!slow_only) {
        diag_put(s, ": error %.2g", d->max_error);
        /* where the error starts is a position on the reading's own first position: not quoted when that is open */
        if (!diag_nearest_unread(d)) diag_put(s, ", first above 1e-6 "), position_or_never(s, d->first_above_1e6);
    }
    if (!d->identified) {
        if (d->searched & PE_DIAG_SEARCHED_SLOW_ONLY)
            diag_put(s,
                     "; only the slow columns follow sinusoids of the row, as when float32 angles past about 1e6 "
                     "rad (a first position far out) round the fast columns' phases to 1/8 rad or more: the first "
                     "position, base, recipe and RoPE scaling are not read from these rows (%s)",
                     FAR_FACTORS_WHY);
        else
            diag_put(s, "; only %.1f%% of sampled cells match a known recipe (noise, or another computation)",
                     100.0 * d->recipe_match);
        if (diag_nearest_unread(d))
            diag_put(s, ": the first position%s and the recipe are not read from these cells",
                     d->scaling != PE_DIAG_SCALING_NONE ? ", the scaling's parameters" : "");
        diag_put(s, "; ");
        searched_words(s, d);
    }
}

/* The checks both writers make before writing; then an empty string in out. */
static pe_status open_sink(const pe_diagnosis *d, char *out, size_t out_bytes, size_t *written, diag_sink *s) {
    if (!d || !out || !written) return PE_ERR_NULL;
    if (out_bytes == 0) return PE_ERR_OUT_SIZE;
    *s = (diag_sink){out, out_bytes, 0};
    out[0] = 0;
    return PE_OK;
}

pe_status pe_diagnosis_text(const pe_diagnosis *d, char *out, size_t out_bytes, size_t *written) {
    diag_sink s;
    pe_status st = open_sink(d, out, out_bytes, written, &s);
    if (st != PE_OK) return st;
    diag_put(&s, "verdict: ");
    verdict(&s, d);
    diag_put(&s, ".\n");
    diag_put(&s, "shape: %u rows x %u columns", d->rows, d->cols);
    if (d->transposed) diag_put(&s, " (the input was transposed, (dim, rows): read as rows of positions)");
    diag_put(&s, "; values stored as %s", storage_name(d->storage));
    if (d->zero_last_columns)
        diag_put(&s, "; the last column is zeros, read past (fairseq pads an odd embedding_dim so)");
    diag_put(&s, "\n");
    if (d->zero_rows) {
        diag_put(&s, "zero rows: %u", d->zero_rows);
        if (d->leading_zero_rows) diag_put(&s, ", %u leading (padding or a cls token, skipped)", d->leading_zero_rows);
        if (d->first_inner_zero_row >= 0)
            diag_put(&s, ", first inside at row %lld (a padding_idx row, as fairseq's)",
                     (long long)d->first_inner_zero_row);
        diag_put(&s, "\n");
    }
    if (d->sinusoidal) {
        diag_put(&s, "frequencies: %u, rule %s", d->pairs, rule_name(d->rule));
        if (d->base > 0.0) {
            if (d->base_digits >= 1)
                diag_put(&s, ", base %.*g (%d significant digits determined%s)",
                         d->base_digits < 10 ? (d->base_digits > 6 ? d->base_digits : 6) : 10, d->base, d->base_digits,
                         d->base_round ? ", a round number" : "");
            else
                diag_put(&s, ", base undetermined by these rows");
            if (!d->base_round && d->base_digits >= 4 && d->scaling == PE_DIAG_SCALING_NONE && d->dynamic_alpha == 0)
                diag_put(&s, "; not a round number (a dynamic NTK base? it is base * alpha^(d/(d-2)))");
        }
        diag_put(&s, "\n");
        diag_put(&s, "scale: %.7g", d->scale);
        double sq = diag_sqrt((double)d->cols);
        if (d->scale - 1.0 < 1e-6 && 1.0 - d->scale < 1e-6)
            diag_put(&s, " (none)");
        else if ((d->scale - sq) / sq < 1e-4 && (sq - d->scale) / sq < 1e-4)
            diag_put(&s, " (sqrt(d), d = %u)", d->cols);
        else if (d->attention_factor > 0 && diag_nearest_unread(d))
            diag_put(&s, " (the nearest reading's fit, not read from the cells)");
        else if (d->attention_factor > 0)
            diag_put(&s, " (%s attention_factor)", d->scaling == PE_DIAG_SCALING_YARN ? "YaRN's" : "LongRoPE's");
        diag_put(&s, "\nrope scaling: ");
        diag_scaling_words(&s, d, 1);
        diag_put(&s, "\nrecipe: ");
        recipe_full(&s, d);
        diag_put(&s, ", reproduces %.2f%% of sampled cells within 1 ulp", 100.0 * d->recipe_match);
        if (d->scale == 1.0) diag_put(&s, ", %.2f%% bit for bit", 100.0 * d->recipe_exact_share);
        if (torch_sin(d))
            diag_put(&s, " (the rest an ulp off: float32 sin/cos that are not correctly rounded, as PyTorch's)");
        if (d->recipe_tied != PE_DIAG_RECIPE_UNKNOWN)
            diag_put(&s, "; indistinguishable here from: %s", recipe_words(d->recipe_tied));
        diag_put(&s, "\nerror against the exact table: max %.3g, rms %.3g, first above 1e-6 ", d->max_error,
                 d->rms_error);
        position_or_never(&s, d->first_above_1e6);
        diag_put(&s, ", first above 1e-3 ");
        position_or_never(&s, d->first_above_1e3);
        diag_put(&s, "\nmax error by positions:");
        uint64_t lo = 0, hi = 64;
        for (int b = 0; b < PE_DIAG_BANDS; b++, lo = hi, hi *= 4)
            if (d->band_error[b] >= 0.0) {
                if (b == PE_DIAG_BANDS - 1)
                    diag_put(&s, " [%llu, ...) %.2g", (unsigned long long)lo, d->band_error[b]);
                else
                    diag_put(&s, " [%llu, %llu) %.2g", (unsigned long long)lo, (unsigned long long)hi,
                             d->band_error[b]);
            }
        diag_put(&s, "\n");
    }
    if (!d->identified) nearest(&s, d);
    *written = s.used;
    return PE_OK;
}

static void jnum(diag_sink *s, const char *key, double v) {
    diag_put(s, "\"%s\":%.17g,", key, v);
}
static void jstr(diag_sink *s, const char *key, const char *v) {
    diag_put(s, "\"%s\":\"%s\",", key, v);
}

/* "searched":{...}: the facts searched_words says, by name. */
static void searched_json(diag_sink *s, const pe_diagnosis *d) {
    /* by bit; PE_DIAG_SEARCHED_SLOW_ONLY (bit 8) is no reading */
    static const char *const readings[] = {"phase-lines", "exact-table", "exact-cache", "dynamic", "scaled",
                                           "from-0",      "grid",        "longrope",    NULL,      "far"};
    diag_put(s, "\"searched\":{\"positions\":%.17g,\"budgetSpent\":%s,\"candidates\":%u,\"readings\":[",
             d->searched_positions, d->searched_budget_spent ? "true" : "false", d->searched_candidates);
    for (unsigned k = 0, first = 1; k < sizeof readings / sizeof readings[0]; k++)
        if (readings[k] && (d->searched & (1u << k))) diag_put(s, "%s\"%s\"", first ? "" : ",", readings[k]), first = 0;
    diag_put(s, "],\"bases\":[\"any\"%s],",
             d->searched & (PE_DIAG_SEARCHED_SCALED | PE_DIAG_SEARCHED_FAR)
                 ? ",10000,50000,100000,500000,1000000,5000000,10000000"
                 : "");
    diag_put(s,
             "\"layouts\":[\"interleaved\",\"split\",\"cos-sin single\",\"cos-sin halves\",\"cos-sin "
             "neighbours\"%s],",
             d->searched & PE_DIAG_SEARCHED_GRID ? ",\"grid2d\"" : "");
    diag_put(s, "\"recipes\":[\"exact\",\"float64-numpy\",\"float32-hf\",\"float32-keras\",\"float32-exp\","
                "\"float32-fitted\",\"float16\",\"bfloat16\"],\"scalings\":[");
    if (d->kind == PE_DIAG_COS_SIN) {
        diag_put(s, "\"none\",\"linear\"");
        if (d->searched & PE_DIAG_SEARCHED_DYNAMIC) diag_put(s, ",\"dynamic\"");
        if (d->searched & (PE_DIAG_SEARCHED_SCALED | PE_DIAG_SEARCHED_FAR)) diag_put(s, ",\"yarn\",\"llama3\"");
        if (d->searched & (PE_DIAG_SEARCHED_FROM0 | PE_DIAG_SEARCHED_LONGROPE)) diag_put(s, ",\"longrope\"");
    }
    diag_put(s, "]}");
}

pe_status pe_diagnosis_json(const pe_diagnosis *d, char *out, size_t out_bytes, size_t *written) {
    diag_sink s;
    pe_status st = open_sink(d, out, out_bytes, written, &s);
    if (st != PE_OK) return st;
    diag_put(&s, "{");
    jnum(&s, "rows", d->rows);
    jnum(&s, "cols", d->cols);
    diag_put(&s, "\"transposed\":%s,", d->transposed ? "true" : "false");
    jnum(&s, "leadingZeroRows", d->leading_zero_rows);
    jnum(&s, "zeroRows", d->zero_rows);
    jnum(&s, "gridHeight", d->grid_height);
    jnum(&s, "gridWidth", d->grid_width);
    jnum(&s, "zeroLastColumns", d->zero_last_columns);
    jnum(&s, "firstInnerZeroRow", (double)d->first_inner_zero_row);
    jnum(&s, "positionGrid", d->position_grid);
    jnum(&s, "distinctRows", d->distinct_rows);
    diag_put(&s, "\"positionGridWhole\":%s,", d->position_grid_whole ? "true" : "false");
    jnum(&s, "positionGridPhase", d->position_grid_phase);
    jstr(&s, "storage", storage_name(d->storage));
    diag_put(&s, "\"sinusoidal\":%s,\"identified\":%s,", d->sinusoidal ? "true" : "false",
             d->identified ? "true" : "false");
    jstr(&s, "kind", d->kind == PE_DIAG_COS_SIN ? "cos-sin" : "table");
    if (d->kind == PE_DIAG_COS_SIN) jstr(&s, "cache", d->cache_cos ? "cos" : "sin");
    jstr(&s, "layout", layout_name(d));
    diag_put(&s, "\"cosFirst\":%s,", d->cos_first ? "true" : "false");
    jnum(&s, "pairs", d->pairs);
    jstr(&s, "frequencies", rule_name(d->rule));
    jnum(&s, "base", d->base);
    jnum(&s, "baseDigits", d->base_digits);
    diag_put(&s, "\"baseRound\":%s,", d->base_round ? "true" : "false");
    jnum(&s, "offset", d->offset);
    diag_put(&s, "\"offsetKnown\":%s,", d->offset_known ? "true" : "false");
    diag_put(&s, "\"offsetSd\":%.17g,\"offsetSearched\":%.17g,", d->offset_sd, d->offset_searched);
    jnum(&s, "scale", d->scale);
    /* the text's facts only: a scaling or parameters it says are not read are not given here either */
    const int unread = diag_params_unread(d);
    jstr(&s, "scaling", diag_scaling_unread(d) ? "unread" : scaling_name(d->scaling));
    jnum(&s, "factor", unread ? 0.0 : d->factor);
    jnum(&s, "bandLow", unread ? 0.0 : d->band_low);
    jnum(&s, "bandHigh", unread ? 0.0 : d->band_high);
    jnum(&s, "attentionFactor", unread ? 0.0 : d->attention_factor);
    if (d->longrope_list > 0)
        diag_put(&s, "\"factorList\":\"%s %s\",", diag_longrope_lists[d->longrope_list - 1].model,
                 diag_longrope_lists[d->longrope_list - 1].is_long ? "long_factor" : "short_factor");
    diag_scaling_json(&s, d);
    jstr(&s, "recipe", recipe_name(d->recipe));
    jstr(&s, "recipeTied", d->recipe_tied ? recipe_name(d->recipe_tied) : "");
    jnum(&s, "recipeMatch", d->recipe_match);
    jnum(&s, "recipeExactShare", d->recipe_exact_share);
    diag_put(&s, "\"sinCorrectlyRounded\":%s,", torch_sin(d) ? "false" : "true");
    jstr(&s, "invFormula", d->inv_formula ? recipe_name(d->inv_formula) : "");
    jnum(&s, "invFormulaShare", d->inv_formula_share);
    jnum(&s, "maxError", d->max_error);
    jnum(&s, "rmsError", d->rms_error);
    jnum(&s, "firstAbove1e6", (double)d->first_above_1e6);
    jnum(&s, "firstAbove1e3", (double)d->first_above_1e3);
    diag_put(&s, "\"bandError\":[");
    for (int b = 0; b < PE_DIAG_BANDS; b++) diag_put(&s, "%s%.17g", b ? "," : "", d->band_error[b]);
    diag_put(&s, "],\"nearest\":[");
    for (int k = 0, first = 1; k < PE_DIAG_NEAREST; k++) {
        if (d->nearest_distance[k] < 0.0) continue;
        diag_put(&s, "%s{\"layout\":\"%s\",\"cosFirst\":%s,\"frequencies\":\"%s\",\"distance\":%.17g}",
                 first ? "" : ",", d->nearest_layout[k] ? "split" : "interleaved",
                 d->nearest_cos_first[k] ? "true" : "false", d->nearest_rule[k] ? "tensor2tensor" : "paper",
                 d->nearest_distance[k]);
        first = 0;
    }
    diag_put(&s, "],");
    searched_json(&s, d);
    diag_put(&s, "}");
    *written = s.used;
    return PE_OK;
}
