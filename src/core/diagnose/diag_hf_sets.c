/* HF's canonical scaled parameter sets, shared by the readings that try them
 * (diag_exact_scaled.c at any first position, diag_far.c far out): the
 * original contexts, the YaRN and Llama 3 factors, and YaRN's ramp as HF
 * truncates it. */
#include "diag_freqs.h"
#include "diag_internal.h"
#include "math/f64math.h"

/* original_max_position_embeddings, the common first (a tie in the ranking keeps this order) */
const double diag_hf_contexts[DIAG_HF_CONTEXT_COUNT] = {8192,  4096, 2048, 32768,  16384,  131072,
                                                        65536, 1024, 512,  262144, 524288, 1048576};
const double diag_hf_yarn_factors[DIAG_HF_YARN_FACTOR_COUNT] = {2, 4, 8, 16, 32, 40, 64, 128};
const double diag_hf_llama3_factors[DIAG_HF_LLAMA3_FACTOR_COUNT] = {8, 16, 32, 4, 2};

/* HF's find_correction_dim: d ln(L0 / (2 pi beta)) / (2 ln theta). */
static double correction_dim(double beta, double dim, double theta, double l0) {
    return dim * pe_log(l0 / (DIAG_TWO_PI * beta)) / (2.0 * pe_log(theta));
}

int diag_yarn_ramp(struct freq_model *m, double l0) {
    const double dim = m->dim;
    double low = diag_floor(correction_dim(32.0, dim, m->base, l0)),
           high = -diag_floor(-correction_dim(1.0, dim, m->base, l0));
    low = low > 0.0 ? low : 0.0, high = high < dim - 1.0 ? high : dim - 1.0;
    if (!(low < m->count && high > 0.0)) return 0;
    m->ramp_low = low, m->ramp_high = high;
    return 1;
}
