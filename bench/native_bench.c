/* native_bench.c: times the native posenc build (build/libposenc.a) with both
 * kernel sets, plus native memset / x += table as references, and prints the
 * medians as JSON on stdout for bench/impls/native.js.
 *
 *   native_bench [--budget-ms MS] [--dump-dir DIR] JOB...
 *   JOB: table:LENGTH:DIM[:dump]   add:BATCH:LENGTH:DIM
 *
 * ":dump" writes each kernel set's table to DIR/native-<kernels>-LxD.f32 for
 * the oracle comparison. Exits 2 on bad arguments or a failing call. */
#include "bench_timing.h"

#include "posenc.h"

typedef struct ctx {
    const bench_job *job;
    pe_sinusoid enc;
    float *out, *x, *table;
    size_t out_count, x_count;
    void *scratch;
    size_t scratch_bytes;
} ctx;

static void die(const char *what, pe_status st) {
    fprintf(stderr, "native_bench: %s: %s\n", what, pe_status_str(st));
    exit(2);
}

static void run_table(void *p) {
    ctx *c = p;
    pe_status st = pe_table(&c->enc, 0, c->job->length, c->out, c->out_count, c->scratch, c->scratch_bytes);
    if (st != PE_OK) die("pe_table", st);
}

static void run_add(void *p) {
    ctx *c = p;
    pe_status st = pe_add(&c->enc, 1.0f, 0, c->job->length, c->x, c->x_count, c->scratch, c->scratch_bytes);
    if (st != PE_OK) die("pe_add", st);
}

static void run_memset(void *p) {
    ctx *c = p;
    memset(c->out, 0x3f, c->out_count * sizeof(float));
}

static void run_stream_add(void *p) {
    ctx *c = p;
    size_t n = (size_t)c->job->length * c->job->dim;
    for (size_t b = 0; b < c->job->batch; b++)
        for (size_t k = 0; k < n; k++) c->x[b * n + k] += c->table[k];
}

static void *alloc_or_die(size_t bytes) {
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p) {
        fprintf(stderr, "native_bench: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    memset(p, 0, bytes); /* fault the pages in before timing */
    return p;
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
    printf("{\"tool\": \"native_bench\", \"results\": [");
    for (; argi < argc; argi++) {
        bench_job job;
        if (!bench_parse_job(argv[argi], &job)) {
            fprintf(stderr, "native_bench: bad job '%s' (table:LENGTH:DIM[:dump] or add:BATCH:LENGTH:DIM)\n",
                    argv[argi]);
            return 2;
        }
        ctx c = {&job, {job.dim, 10000.0, PE_LAYOUT_INTERLEAVED, PE_FREQ_PAPER}, NULL, NULL, NULL, 0, 0, NULL, 0};
        pe_status st = pe_scratch_size(job.dim, &c.scratch_bytes);
        if (st != PE_OK) die("pe_scratch_size", st);
        c.scratch = alloc_or_die(c.scratch_bytes ? c.scratch_bytes : 1);
        c.out_count = (size_t)job.length * job.dim;
        if (job.is_add) {
            c.x_count = c.out_count * job.batch;
            c.x = alloc_or_die(c.x_count * sizeof(float));
            c.table = alloc_or_die(c.out_count * sizeof(float));
        } else {
            c.out = alloc_or_die(c.out_count * sizeof(float));
        }
        static const struct {
            pe_kernels k;
            const char *name;
        } sets[] = {{PE_KERNELS_SIMD, "SIMD"}, {PE_KERNELS_SCALAR, "scalar"}};
        for (int s = 0; s < 2; s++) {
            if ((st = pe_use_kernels(sets[s].k)) != PE_OK) die("pe_use_kernels", st);
            char impl[64];
            snprintf(impl, sizeof impl, "native %s", sets[s].name);
            bench_run_job(&first, impl, &job, job.is_add ? run_add : run_table, &c, budget_ms);
            fflush(stdout);
            if (job.dump && dump_dir) {
                run_table(&c);
                snprintf(impl, sizeof impl, "native-%s", s == 0 ? "simd" : "scalar");
                if (!bench_dump(dump_dir, impl, &job, c.out)) {
                    fprintf(stderr, "native_bench: cannot write to %s\n", dump_dir);
                    return 2;
                }
            }
        }
        if (job.is_add)
            bench_run_job(&first, "native x += table (reference)", &job, run_stream_add, &c, budget_ms);
        else
            bench_run_job(&first, "native memset (reference)", &job, run_memset, &c, budget_ms);
        free(c.scratch);
        free(c.out);
        free(c.x);
        free(c.table);
    }
    printf("\n], \"maxrss_kb\": %ld}\n", bench_maxrss_kb());
    return 0;
}
