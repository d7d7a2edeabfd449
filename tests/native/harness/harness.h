/* harness.h: what the harness's family files share (main.c documents the
 * command line): guarded buffers, parsing, binary I/O, and the command
 * objects each family file lists, so that a command is registered once. */
#ifndef HARNESS_H
#define HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

#define GUARD_BYTES   64
#define GUARD_BYTE(k) ((unsigned char)(0xA5 ^ (k)*29u))
#define MAX_WORDS     10

/* Exits with code after printing "harness: what: detail". */
void die(int code, const char *what, const char *detail);
/* Exits 4 with the status's sentence unless st is PE_OK. */
void check_status(pe_status st, const char *call);

/* --- guarded buffers: guard | shift | data | guard ------------------------ */
typedef struct {
    unsigned char *block;
    unsigned char *data;
    size_t bytes;
    const char *name;
} guarded;

guarded guarded_alloc(size_t bytes, size_t shift, const char *name);
/* Exits 3 when a byte outside [data, data + bytes) changed. */
void guarded_check(const guarded *g);
void guarded_free(guarded *g);
/* Scratch of exactly pe_scratch_size(dim) bytes, guarded. */
guarded scratch_for(uint32_t dim);

/* --- parsing (exit 2 on bad input) ---------------------------------------- */
uint64_t parse_uint(const char *s, uint64_t max, const char *what);
double parse_double(const char *s, const char *what);
float parse_float(const char *s, const char *what);
pe_layout parse_layout(const char *s);
/* float32|float16|bfloat16|float64, or the pe_dtype as an integer. */
pe_dtype parse_dtype(const char *s);
/* Bytes of one element of dtype. */
size_t dtype_size(pe_dtype dtype);
/* DIM BASE LAYOUT[:FREQUENCIES] from arg[0 .. 2]. */
pe_sinusoid parse_sinusoid(char **arg);
/* Splits a comma list in place into at most max fields; returns the count. */
int split_commas(char *list, char **fields, int max);
/* The index of s in names, else s as an integer. */
uint32_t parse_named(const char *s, const char *const *names, int count, const char *what);
size_t mul_sizes(size_t a, size_t b, const char *what);

/* --- binary I/O ------------------------------------------------------------ */
void read_exact(void *dst, size_t bytes, const char *what);
/* Reads stdin to its end into a malloc'd block; *bytes gets its size. */
unsigned char *read_all(size_t *bytes);
/* count * size bytes of stdin in a malloc'd block. */
void *read_block(size_t count, size_t size, const char *what);
/* Reads one request line into words; returns the count, 0 at end of input. */
int read_request(char *line, size_t cap, char **words);
/* framed: a uint32 count first (of floats, or of 32-bit words for elements). */
void write_floats(const void *data, size_t count, int framed);
void write_elements(const void *data, size_t bytes, int framed);

/* --- commands -------------------------------------------------------------- */
/* One request. In serve mode `args` are the words after the name and the
 * data blocks follow on stdin; shift places the buffers (request k: k % 4
 * floats past a 16-byte boundary) and framed is 1. */
typedef void (*serve_fn)(char **args, size_t shift, int framed);
/* The one-shot form `harness NAME KERNELS ARGS...` (stdin read whole). */
typedef void (*oneshot_fn)(char **args);

typedef struct {
    const char *name;
    int serve_args; /* words after the name in serve mode */
    serve_fn serve;
    int oneshot_args;   /* words after KERNELS in one-shot mode; -1: serve mode only */
    oneshot_fn oneshot; /* NULL: serve(args, 0, 0), with the serve mode's words */
} harness_command;

/* Each family file's commands, ended by a {NULL} entry; main.c lists the families. */
extern const harness_command sinusoid_commands[];
extern const harness_command learned_commands[];
extern const harness_command alibi_commands[];
extern const harness_command rope_commands[];
extern const harness_command precision_commands[];
extern const harness_command grid2d_commands[];
extern const harness_command rope_axes_commands[];

/* rope.c's GEOMETRY and SCALING words (main.c documents them), read by rope_axes.c too. */
typedef struct {
    pe_rotary rope;
    uint32_t offset, length;
} rope_request;
rope_request parse_rope(const char *geometry, const char *scaling);
/* A RoPE plan with cache_rows cached rows, in guarded memory (exit 4 when refused). */
guarded rope_plan_for(const rope_request *q, uint32_t cache_rows, size_t shift, pe_rope_plan **plan);
/* ropecs's work from its words CACHEROWS DTYPE EXPAND POSCOUNT on (then the
 * positions, length * axes of them: axes 1, or a rope's position axes). */
void serve_cos_sin(const rope_request *q, uint32_t axes, char **w, size_t shift, int framed);

#endif
