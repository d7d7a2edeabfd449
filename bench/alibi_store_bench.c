/* alibi_store_bench.c: the native rows beside the wasm bias (issues 11, 29):
 * why a bias written by stores cannot match a wasm memory.fill, measured
 * natively in one process on the bias's size (32 heads x 2048 x 2048
 * float32, 512 MiB), for bench/rope-run.js:
 *   memset               what V8 runs for memory.fill (glibc: rep stosb)
 *   SSE2 store loop      what wasm's v128.store compiles to: each line is read
 *                        before it is written (read-for-ownership)
 *   SSE2 streaming loop  non-temporal stores, which write a line without
 *                        reading it; wasm has no such store
 *   posenc alibiBias     the native SIMD build of the bias (most rows copied
 *                        128 KiB at a time by memcpy: glibc's rep movsb)
 * Stored values are not byte-uniform (0x3f000000), so no compiler turns the
 * loops into memset. Prints a JSON array of rows (kind "alibi"). */
#include "bench_timing.h"

#include "posenc.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define HEADS 32u
#define ROWS  2048u
#define COUNT ((size_t)HEADS * ROWS * ROWS)

static float *out;

static void run_memset(void *unused) {
    (void)unused;
    memset(out, 0x3f, COUNT * sizeof(float));
}

#if defined(__SSE2__)
/* 0.5f stored with 16-byte stores, ordinary or non-temporal; COUNT is a
 * multiple of 16 and out is 64-byte aligned. The branch is the same for every
 * store and costs nothing beside the memory traffic. */
static void store_all(int streaming) {
    const __m128 v = _mm_set1_ps(0.5f);
    for (size_t k = 0; k < COUNT; k += 4) {
        if (streaming)
            _mm_stream_ps(out + k, v);
        else
            _mm_store_ps(out + k, v);
    }
    if (streaming) _mm_sfence();
}

static void run_store_loop(void *unused) {
    (void)unused;
    store_all(0);
}

static void run_stream_loop(void *unused) {
    (void)unused;
    store_all(1);
}
#endif

static void run_bias(void *unused) {
    (void)unused;
    const pe_alibi alibi = {.heads = HEADS, .query_length = ROWS, .key_length = ROWS};
    pe_status st = pe_alibi_bias(&alibi, 0, HEADS, out, COUNT);
    if (st != PE_OK) {
        fprintf(stderr, "alibi_store_bench: %s\n", pe_status_str(st));
        exit(2);
    }
}

static void row(const char *impl, bench_fn fn, double budget_ms, int last) {
    bench_stats s = bench_measure(fn, NULL, budget_ms);
    printf("{\"impl\":\"%s\",\"kind\":\"alibi\",\"median_ms\":%.9g,\"runs\":%d}%s", impl, s.median_ms, s.runs,
           last ? "" : ",");
}

int main(int argc, char **argv) {
    double budget_ms = argc > 1 ? atof(argv[1]) : 700.0;
    out = aligned_alloc(64, COUNT * sizeof(float));
    if (!out || pe_use_kernels(PE_KERNELS_SIMD) != PE_OK) return 2;
    printf("[");
    row("native memset (what memory.fill runs)", run_memset, budget_ms, 0);
#if defined(__SSE2__)
    row("native SSE2 store loop (what v128.store is)", run_store_loop, budget_ms, 0);
    row("native SSE2 non-temporal store loop (not in wasm)", run_stream_loop, budget_ms, 0);
#endif
    row("native SIMD, alibiBias", run_bias, budget_ms, 1);
    printf("]\n");
    free(out);
    return 0;
}
