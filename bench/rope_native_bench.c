/* rope_native_bench.c: times RoPE plans (pe_rope_plan_apply) in the native
 * build with both kernel sets, for bench/rope-run.js: decoding one token
 * (heads 32, head_dim 128, positions from 100000 advancing per call) and
 * prefill (2048 x 32 x 128 float32). Prints a JSON array of rows. */
#include "bench_timing.h"

#include "posenc.h"

typedef struct ctx {
    pe_rope_plan *plan;
    float *x;
    size_t x_count;
    uint32_t length, offset;
    int advance;
} ctx;

static void run(void *p) {
    ctx *c = p;
    pe_status st = pe_rope_plan_apply(c->plan, PE_DTYPE_FLOAT32, 0, c->offset, c->length, NULL, c->x, c->x_count);
    if (st != PE_OK) {
        fprintf(stderr, "rope_native_bench: %s\n", pe_status_str(st));
        exit(2);
    }
    c->offset += c->advance;
}

int main(int argc, char **argv) {
    double budget_ms = argc > 1 ? atof(argv[1]) : 700.0;
    /* Designated: the fields left out (scaling, axes, xpos) are zero, plain RoPE. */
    const pe_rotary rope = {
        .head_dim = 128, .heads = 32, .base = 10000.0, .layout = PE_LAYOUT_SPLIT, .order = PE_ROPE_BLHD};
    size_t bytes = 0;
    if (pe_rope_plan_size(&rope, 0, &bytes) != PE_OK) return 2;
    void *memory = malloc(bytes);
    float *x = malloc((size_t)2048 * 32 * 128 * sizeof(float));
    if (!memory || !x) return 2;
    for (size_t k = 0; k < (size_t)2048 * 32 * 128; k++) x[k] = (float)(k % 1000) / 500.0f - 1.0f;
    const char *names[] = {"scalar", "SIMD"};
    printf("[");
    for (int kernels = 0; kernels < 2; kernels++) {
        if (pe_use_kernels((pe_kernels)kernels) != PE_OK) continue;
        pe_rope_plan *plan;
        if (pe_rope_plan_init(&rope, 0, memory, bytes, &plan) != PE_OK) return 2;
        ctx decode = {plan, x, 32 * 128, 1, 100000, 1};
        ctx prefill = {plan, x, (size_t)2048 * 32 * 128, 2048, 0, 0};
        bench_stats d = bench_measure(run, &decode, budget_ms);
        bench_stats f = bench_measure(run, &prefill, budget_ms);
        printf("%s{\"impl\":\"native %s, plan\",\"kind\":\"decode\",\"median_ms\":%.9g,\"runs\":%d},",
               kernels ? "" : "", names[kernels], d.median_ms, d.runs);
        printf("{\"impl\":\"native %s, plan\",\"kind\":\"prefill\",\"median_ms\":%.9g,\"runs\":%d}%s", names[kernels],
               f.median_ms, f.runs, kernels ? "" : ",");
    }
    printf("]\n");
    free(memory);
    free(x);
    return 0;
}
