/* rope_gather, four words a step by wasm_v128_load/store (unaligned: a run
 * starts at any pair); rope_gather_scalar.c copies each run's tail. */
#include "common/simd.h"
#include "sinusoid/rope/rope_axes.h"

#if PE_HAVE_SIMD

void pe_rope_gather_simd(uint32_t *out, const uint32_t *in, const uint32_t *runs, uint32_t run_count) {
    for (uint32_t k = 0; k < run_count; k++) {
        uint32_t *to = out + runs[3 * k];
        const uint32_t *from = in + runs[3 * k + 1];
        const uint32_t length = runs[3 * k + 2];
        uint32_t j = 0;
        for (; j + 4 <= length; j += 4) wasm_v128_store(to + j, wasm_v128_load(from + j));
        pe_rope_gather_run_scalar(to, from, length, j);
    }
}

#endif
