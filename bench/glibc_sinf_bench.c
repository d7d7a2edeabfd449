/* glibc_sinf_bench.c: what float32 libm gives natively. The table computed as
 * a compiler sees it with -O3 -ffast-math -march=native: float angles
 * (float)p * w_i and glibc's vectorised sinf/cosf (libmvec). Not exact: a float
 * angle near p = 2048 is already off by up to 1.2e-4. Prints medians as JSON.
 *
 *   glibc_sinf_bench [--budget-ms MS] [--dump-dir DIR] JOB...   (table jobs only)
 *
 * ":dump" writes the table to DIR/glibc-sinf-LxD.f32. */
#include "bench_timing.h"

#include <math.h>

typedef struct ctx {
    const bench_job *job;
    float *out, *w;
} ctx;

static void run_table(void *p) {
    ctx *c = p;
    uint32_t half = c->job->dim / 2;
    for (uint32_t r = 0; r < c->job->length; r++) {
        float *row = c->out + (size_t)r * c->job->dim;
        float pos = (float)r;
        /* Two loops: in one, gcc fuses sinf+cosf into a scalar sincosf call
         * and nothing is vectorised. */
        for (uint32_t i = 0; i < half; i++) row[2 * i] = sinf(pos * c->w[i]);
        for (uint32_t i = 0; i < half; i++) row[2 * i + 1] = cosf(pos * c->w[i]);
    }
}

int main(int argc, char **argv) {
    double budget_ms = 1000;
    const char *dump_dir = NULL;
    int first = 1, argi = 1;
    for (; argi + 1 < argc && strncmp(argv[argi], "--", 2) == 0; argi += 2) {
        if (strcmp(argv[argi], "--budget-ms") == 0)
            budget_ms = atof(argv[argi + 1]);
        else if (strcmp(argv[argi], "--dump-dir") == 0)
            dump_dir = argv[argi + 1];
        else
            break;
    }
    printf("{\"tool\": \"glibc_sinf_bench\", \"results\": [");
    for (; argi < argc; argi++) {
        bench_job job;
        if (!bench_parse_job(argv[argi], &job) || job.is_add || job.dim % 2) {
            fprintf(stderr, "glibc_sinf_bench: bad job '%s' (table:LENGTH:DIM[:dump], DIM even)\n", argv[argi]);
            return 2;
        }
        size_t n = (size_t)job.length * job.dim;
        ctx c = {&job, aligned_alloc(64, n * sizeof(float)), aligned_alloc(64, job.dim / 2 * sizeof(float) + 64)};
        if (!c.out || !c.w) {
            fprintf(stderr, "glibc_sinf_bench: out of memory\n");
            return 2;
        }
        /* Frequencies precomputed in double, as a careful implementation would. */
        for (uint32_t i = 0; i < job.dim / 2; i++) c.w[i] = (float)pow(10000.0, -2.0 * i / job.dim);
        bench_run_job(&first, "glibc sinf/cosf -ffast-math (native)", &job, run_table, &c, budget_ms);
        fflush(stdout);
        if (job.dump && dump_dir && !bench_dump(dump_dir, "glibc-sinf", &job, c.out)) {
            fprintf(stderr, "glibc_sinf_bench: cannot write to %s\n", dump_dir);
            return 2;
        }
        free(c.out);
        free(c.w);
    }
    printf("\n], \"maxrss_kb\": %ld}\n", bench_maxrss_kb());
    return 0;
}
