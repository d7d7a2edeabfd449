/* rope_gather, scalar reference: runs of 32-bit words copied from an axis's
 * [sin | cos] row into the composed row (rope_axes.h). runs holds run_count
 * triples (destination word, source word, length). */
#include "sinusoid/rope/rope_axes.h"

void pe_rope_gather_run_scalar(uint32_t *out, const uint32_t *in, uint32_t length, uint32_t from) {
    for (uint32_t k = from; k < length; k++) out[k] = in[k];
}

void pe_rope_gather_scalar(uint32_t *out, const uint32_t *in, const uint32_t *runs, uint32_t run_count) {
    for (uint32_t k = 0; k < run_count; k++)
        pe_rope_gather_run_scalar(out + runs[3 * k], in + runs[3 * k + 1], runs[3 * k + 2], 0);
}
