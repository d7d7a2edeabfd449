/* Internal to pe_diagnose_inv_freq (posenc.h): a model of how a peer computed
 * an inv_freq vector, one value at a time, and the steps, one file each:
 *
 *   diag_freqs_recipes.c  each peer's computation (HF's float32 steps for every
 *                         rope_type, the tutorial's exp, Keras's pow, exact)
 *   diag_freqs.c          base, rotary dim, scaling and recipe from the values
 *   diag_freqs_text.c     the verdict in words and as JSON
 *
 * Float32 recipes are emulated with float operations (-ffp-contract=off: one
 * rounding each, as torch's CPU kernels do) and pow/exp/reciprocals as torch
 * computes them: pow rounded once from double, x / scalar a float32
 * division, scalar / x the reciprocal times the float32 scalar. */
#ifndef PE_DIAG_FREQS_H
#define PE_DIAG_FREQS_H

#include <stdint.h>

#include "posenc.h"

typedef struct freq_model {
    pe_diag_recipe recipe;   /* EXACT (unrounded double), F32_HF, F32_KERAS, F32_EXP (float32 values) */
    double base;             /* T */
    uint32_t dim;            /* HF's dim: the exponents are 2k / dim (rule 0) */
    int rule;                /* 0 paper/RoPE, 1 tensor2tensor (k / (count - 1)) */
    uint32_t count;          /* pairs */
    pe_diag_scaling scaling; /* NONE, LINEAR, LLAMA3, YARN, PER_PAIR, DYNAMIC (as NONE at base) */
    double factor;
    double original_max, low_freq_factor, high_freq_factor; /* LLAMA3 */
    double ramp_low, ramp_high;                             /* YARN: HF's low and high */
    const double *ext;                                      /* PER_PAIR: count factors */
} freq_model;

/* Frequency k (< count) as the model's recipe gives it: a float32 value for
 * the float32 recipes, the exact frequency (in double) for EXACT. */
double freq_value(const freq_model *m, uint32_t k);
/* HF's float32 base ** (2k / dim) as F32_HF computes it (the power a per-pair factor multiplies). */
float freq_power32(const freq_model *m, uint32_t k);
/* The unscaled exact frequency T^(-k/n) of pair k. */
double freq_unscaled(const freq_model *m, uint32_t k);

#endif
