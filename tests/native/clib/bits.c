/* Compiled against an installed posenc (tests/clib-install.test.js), writes
 * the raw little-endian float32 output of one call, so the test compares the
 * installed library's bits with the JS package's (wasm) for the same case:
 *
 *   bits version                                         the library's and the header's version
 *   bits KERNELS table DIM BASE OFFSET LENGTH LAYOUT     pe_table (LAYOUT 0 interleaved, 1 split)
 *   bits KERNELS rope HEADS HEAD_DIM OFFSET LENGTH       Llama 3.1's RoPE (base 500000, llama3 scaling) on
 *                                                        x[i] = ((i * 7919) % 2001 - 1000) / 1024, one batch item
 *   bits KERNELS alibi HEADS QUERIES KEYS OFFSET CAUSAL  pe_alibi_bias
 *
 * KERNELS is scalar or simd (pe_use_kernels). Exit 1 with the status's name on a refusal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <posenc.h>

static int done(pe_status st, void *out, size_t bytes) {
    if (st != PE_OK) {
        fprintf(stderr, "%s\n", pe_status_name(st));
        return 1;
    }
    fwrite(out, 1, bytes, stdout);
    free(out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "version") == 0) {
        printf("%s %s %d.%d.%d\n", pe_version(), PE_VERSION_STRING, PE_VERSION_MAJOR, PE_VERSION_MINOR,
               PE_VERSION_PATCH);
        return 0;
    }
    if (argc < 3) return 2;
    pe_status st = pe_use_kernels(strcmp(argv[1], "simd") == 0 ? PE_KERNELS_SIMD : PE_KERNELS_SCALAR);
    if (st != PE_OK) return done(st, NULL, 0);
    const char *call = argv[2];
    if (strcmp(call, "table") == 0 && argc == 8) {
        pe_sinusoid enc = {(uint32_t)atol(argv[3]), atof(argv[4]), (pe_layout)atoi(argv[7]), PE_FREQ_PAPER};
        uint32_t offset = (uint32_t)atol(argv[5]), length = (uint32_t)atol(argv[6]);
        size_t count = (size_t)length * enc.dim, scratch_bytes = 0;
        pe_scratch_size(enc.dim, &scratch_bytes);
        void *scratch = malloc(scratch_bytes);
        float *out = malloc(count * sizeof(float) + 1);
        st = pe_table(&enc, offset, length, out, count, scratch, scratch_bytes);
        free(scratch);
        return done(st, out, count * sizeof(float));
    }
    if (strcmp(call, "rope") == 0 && argc == 7) {
        pe_rotary rope = {0};
        rope.heads = (uint32_t)atol(argv[3]);
        rope.head_dim = (uint32_t)atol(argv[4]);
        rope.base = 500000.0;
        rope.layout = PE_LAYOUT_SPLIT;
        rope.scaling.type = PE_ROPE_SCALING_LLAMA3;
        rope.scaling.factor = 8.0;
        rope.scaling.low_freq_factor = 1.0;
        rope.scaling.high_freq_factor = 4.0;
        rope.scaling.original_max_position_embeddings = 8192;
        uint32_t offset = (uint32_t)atol(argv[5]), length = (uint32_t)atol(argv[6]);
        size_t count = (size_t)length * rope.heads * rope.head_dim, scratch_bytes = 0;
        float *x = malloc(count * sizeof(float) + 1);
        for (size_t i = 0; i < count; i++) x[i] = (float)((long)((i * 7919) % 2001) - 1000) / 1024.0f;
        st = pe_rope_scratch_size(&rope, &scratch_bytes);
        if (st != PE_OK) return done(st, x, 0);
        void *scratch = malloc(scratch_bytes);
        st = pe_rope(&rope, offset, length, NULL, x, count, scratch, scratch_bytes);
        free(scratch);
        return done(st, x, count * sizeof(float));
    }
    if (strcmp(call, "alibi") == 0 && argc == 8) {
        pe_alibi a = {(uint32_t)atol(argv[3]), (uint32_t)atol(argv[4]), (uint32_t)atol(argv[5]),
                      (uint32_t)atol(argv[6]), atoi(argv[7])};
        size_t count = (size_t)a.heads * a.query_length * a.key_length;
        float *out = malloc(count * sizeof(float) + 1);
        st = pe_alibi_bias(&a, 0, a.heads, out, count);
        return done(st, out, count * sizeof(float));
    }
    fprintf(stderr, "usage: see the comment at the top of bits.c\n");
    return 2;
}
