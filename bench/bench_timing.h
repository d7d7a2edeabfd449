/* bench_timing.h: the timing loops shared by the native bench programs, with
 * the same policy as bench/measure.js so native and JS medians compare.
 *   warm  warm up, repeat a call enough times per sample that one sample
 *         lasts at least BENCH_MIN_SAMPLE_MS (timer noise stays small);
 *   cold  evict the caches before every sample, then time one call.
 * At least BENCH_MIN_RUNS samples, more while the time budget lasts; the
 * median per call. Also the jobs grammar and the JSON printing they share. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define BENCH_MIN_RUNS      9
#define BENCH_MAX_RUNS      51
#define BENCH_MIN_SAMPLE_MS 2.0

typedef void (*bench_fn)(void *ctx);

typedef struct bench_stats {
    int runs, reps;
    double median_ms, min_ms, max_ms; /* per call */
} bench_stats;

static double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of st.runs samples (sorted in place). */
static bench_stats bench_summarize(bench_stats st, double *samples) {
    qsort(samples, st.runs, sizeof samples[0], bench_cmp_double);
    st.median_ms = samples[st.runs / 2];
    st.min_ms = samples[0];
    st.max_ms = samples[st.runs - 1];
    return st;
}

static bench_stats bench_measure(bench_fn fn, void *ctx, double budget_ms) {
    bench_stats st = {0, 1, 0, 0, 0};
    /* Warm-up also faults in the output pages, which would otherwise land in
     * the first sample. */
    double t0 = bench_now_ms();
    fn(ctx);
    double once = bench_now_ms() - t0;
    if (once < BENCH_MIN_SAMPLE_MS) {
        st.reps = (int)(BENCH_MIN_SAMPLE_MS / (once > 1e-4 ? once : 1e-4)) + 1;
        for (int r = 0; r < st.reps; r++) fn(ctx);
    }
    double samples[BENCH_MAX_RUNS];
    double start = bench_now_ms();
    while (st.runs < BENCH_MAX_RUNS && (st.runs < BENCH_MIN_RUNS || bench_now_ms() - start < budget_ms)) {
        t0 = bench_now_ms();
        for (int r = 0; r < st.reps; r++) fn(ctx);
        samples[st.runs++] = (bench_now_ms() - t0) / st.reps;
    }
    return bench_summarize(st, samples);
}

/* As measure.js: read and write one int per cache line of 96 MiB, three
 * times the L3, so that none of the output's lines stay cached. */
#define BENCH_EVICT_BYTES ((size_t)96 << 20)

static volatile int bench_evict_sink;

static void bench_evict(void) {
    static int *buffer;
    if (!buffer) {
        buffer = malloc(BENCH_EVICT_BYTES);
        if (!buffer) {
            fprintf(stderr, "bench: out of memory for the cache eviction buffer\n");
            exit(2);
        }
        for (size_t i = 0; i < BENCH_EVICT_BYTES / sizeof(int); i++) buffer[i] = 1;
    }
    int s = 0;
    for (size_t i = 0; i < BENCH_EVICT_BYTES / sizeof(int); i += 16) {
        s += buffer[i];
        buffer[i] = s;
    }
    bench_evict_sink ^= s;
}

static bench_stats bench_measure_cold(bench_fn fn, void *ctx, double budget_ms) {
    bench_stats st = {0, 1, 0, 0, 0};
    fn(ctx); /* faults the output pages in */
    double samples[BENCH_MAX_RUNS];
    double start = bench_now_ms();
    while (st.runs < BENCH_MAX_RUNS && (st.runs < BENCH_MIN_RUNS || bench_now_ms() - start < budget_ms)) {
        bench_evict();
        double t0 = bench_now_ms();
        fn(ctx);
        samples[st.runs++] = bench_now_ms() - t0;
    }
    return bench_summarize(st, samples);
}

/* A job from the command line: table:LENGTH:DIM[:dump] or add:BATCH:LENGTH:DIM. */
typedef struct bench_job {
    int is_add, dump;
    uint32_t batch, length, dim;
} bench_job;

static int bench_parse_job(const char *arg, bench_job *job) {
    memset(job, 0, sizeof *job);
    char tail[16] = "";
    if (sscanf(arg, "table:%u:%u:%15s", &job->length, &job->dim, tail) >= 2) {
        job->batch = 1;
        job->dump = strcmp(tail, "dump") == 0;
        return job->length > 0 && job->dim > 0 && (tail[0] == 0 || job->dump);
    }
    if (sscanf(arg, "add:%u:%u:%u", &job->batch, &job->length, &job->dim) == 3) {
        job->is_add = 1;
        return job->batch > 0 && job->length > 0 && job->dim > 0;
    }
    return 0;
}

static void bench_print_stats(bench_stats st) {
    printf("\"runs\": %d, \"reps\": %d, \"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f", st.runs, st.reps,
           st.median_ms, st.min_ms, st.max_ms);
}

/* Tables are timed cold as the primary figure, warm beside it; the add warm
 * only (its buffers are larger than the cache). As in bench/run.js. */
static void bench_run_job(int *first, const char *impl, const bench_job *job, bench_fn fn, void *ctx,
                          double budget_ms) {
    printf("%s\n    {\"impl\": \"%s\", \"kind\": \"%s\", \"batch\": %u, \"length\": %u, \"dim\": %u, "
           "\"condition\": \"%s\", ",
           *first ? "" : ",", impl, job->is_add ? "add" : "table", job->batch, job->length, job->dim,
           job->is_add ? "warm" : "cold");
    *first = 0;
    bench_stats warm = bench_measure(fn, ctx, budget_ms);
    if (job->is_add) {
        bench_print_stats(warm);
    } else {
        bench_print_stats(bench_measure_cold(fn, ctx, budget_ms));
        printf(", \"warm\": {");
        bench_print_stats(warm);
        printf("}");
    }
    printf("}");
}

static long bench_maxrss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Writes a float table to DIR/NAME-LENGTHxDIM.f32 for the oracle comparison. */
static int bench_dump(const char *dir, const char *name, const bench_job *job, const float *table) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%ux%u.f32", dir, name, job->length, job->dim);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    size_t n = (size_t)job->length * job->dim;
    int ok = fwrite(table, sizeof(float), n, f) == n;
    return fclose(f) == 0 && ok;
}

#endif /* BENCH_TIMING_H */
