/* harness: drives the posenc C API from the command line, for the tests.
 * This file holds the two modes and the list of families; each family file
 * (sinusoid.c, learned.c, alibi.c, rope.c, precision.c, grid2d.c) lists its
 * commands once, for both modes, and support.c the shared plumbing.
 *
 * Every buffer the core writes or reads (out, x, table, positions, scratch)
 * lives between two 64-byte guards of a known pattern; a changed guard, or a
 * changed input the core must only read, ends the run with exit 3. Scratch is
 * exactly pe_scratch_size() bytes. All data is little-endian binary.
 *
 * One request per run:
 *   harness table    KERNELS DIM BASE LAYOUT OFFSET LENGTH        -> LENGTH*DIM float32
 *   harness at       KERNELS DIM BASE LAYOUT                      stdin: uint32 positions
 *                                                                 -> count*DIM float32
 *   harness add      KERNELS DIM BASE LAYOUT OFFSET LENGTH SCALE  stdin: float32 x
 *                                                                 -> x after the add
 *   harness addtable KERNELS LENGTH DIM TABLE_ROWS OFFSET SCALE   stdin: float32 x, then
 *                                                                 TABLE_ROWS*DIM float32 table
 *                                                                 -> x after the add
 * Many requests per run (one process for a whole sweep):
 *   harness serve KERNELS     stdin: requests, each a text line then its binary data
 *       table DIM BASE LAYOUT OFFSET LENGTH
 *       at DIM BASE LAYOUT COUNT                        + COUNT uint32
 *       add DIM BASE LAYOUT OFFSET LENGTH SCALE XCOUNT  + XCOUNT float32
 *       addtable LENGTH DIM TABLE_ROWS OFFSET SCALE XCOUNT + XCOUNT float32 + TABLE_ROWS*DIM float32
 *     stdout: per request, a uint32 N then N float32 (the request's output).
 *     Request k places its float buffers k % 4 floats past a 16-byte boundary,
 *     so the kernels meet every alignment.
 *
 * ALiBi and learned tables (same framing in serve mode, without KERNELS):
 *   harness slopes   KERNELS HEADS                                -> HEADS float32
 *   harness alibi    KERNELS HEADS QLEN KLEN OFFSET CAUSAL FIRST COUNT
 *                                                                 -> COUNT*QLEN*KLEN float32
 *   harness resample KERNELS ROWS DIM NEWROWS  stdin: ROWS*DIM float32 -> NEWROWS*DIM float32
 *
 * RoPE (same framing in serve mode, without KERNELS):
 *   harness rope KERNELS GEOMETRY SCALING       stdin: float32 x -> x rotated (offset + row positions)
 *   serve:  rope GEOMETRY SCALING XCOUNT POSCOUNT  + XCOUNT float32 x + POSCOUNT uint32 positions
 *           (POSCOUNT 0: positions offset + row; else the list, POSCOUNT = LENGTH) -> x rotated
 *   serve:  ropefreq GEOMETRY SCALING   -> rotary_dim/2 frequencies then the attention factor,
 *           as float64, framed as 2 * (rotary_dim/2 + 1) float32 words
 *   GEOMETRY = HEAD_DIM,ROTARY_DIM,HEADS,BASE,LAYOUT,ORDER,INVERSE,OFFSET,LENGTH
 *              [,XPOS_SCALE_BASE,XPOS_GAMMA,XPOS_KEY,XPOS_CENTER]   (xPos: posenc.h, pe_xpos)
 *       (LAYOUT interleaved|split|INTEGER, ORDER blhd|bhld|INTEGER)
 *   SCALING = none, or TYPE,FACTOR,ORIGINAL,BETA_FAST,BETA_SLOW,ATTENTION_FACTOR,MSCALE,
 *       MSCALE_ALL_DIM,NO_TRUNCATE,LOW_FREQ_FACTOR,HIGH_FREQ_FACTOR,SEQUENCE_LENGTH
 *       (TYPE linear|dynamic|yarn|llama3|INTEGER; the pe_rope_scaling fields in order)
 *
 * Self-check of the guards (must exit 3):
 *   harness damage KERNELS    writes one float past a guarded buffer
 *
 * KERNELS is scalar or simd (pe_use_kernels); with PE_ROUNDING=correct in the
 * environment, pe_set_rounding(PE_ROUNDING_CORRECT) as well. LAYOUT is interleaved, split or
 * a raw integer (to pass values outside the enum), optionally followed by
 * :paper, :tensor2tensor or :INTEGER for the frequencies. BASE and SCALE are C
 * numbers (strtod / strtof: decimal, hex float, inf, nan).
 * Exit: 0 ok; 2 bad usage or input; 3 a guard or a read-only input changed;
 * 4 the core returned a status other than PE_OK (printed with pe_status_str).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The one list of families; each lists its commands. */
static const harness_command *const families[] = {sinusoid_commands,  learned_commands,   alibi_commands, rope_commands,
                                                  rope_axes_commands, precision_commands, grid2d_commands};

static const harness_command *find(const char *name) {
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        for (const harness_command *c = families[f]; c->name; c++)
            if (!strcmp(c->name, name)) return c;
    return NULL;
}

static void serve(void) {
    char line[1024];
    char *w[MAX_WORDS];
    int n;
    for (size_t k = 0; (n = read_request(line, sizeof line, w)) > 0; k++) {
        const harness_command *c = find(w[0]);
        if (!c || n - 1 != c->serve_args) die(2, "bad request", w[0]);
        c->serve(w + 1, (k % 4) * sizeof(float), 1);
    }
}

static void usage(void) {
    die(2,
        "usage: harness table|at|add|addtable|slopes|alibi|resample|rope|serve KERNELS ... (see the top of "
        "tests/native/harness/main.c)",
        NULL);
}

int main(int argc, char **argv) {
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc < 3) usage();
    const char *cmd = argv[1];
    if (!strcmp(argv[2], "scalar"))
        check_status(pe_use_kernels(PE_KERNELS_SCALAR), "pe_use_kernels");
    else if (!strcmp(argv[2], "simd"))
        check_status(pe_use_kernels(PE_KERNELS_SIMD), "pe_use_kernels");
    else
        die(2, "KERNELS must be scalar or simd, got", argv[2]);
    /* PE_ROUNDING=correct: pe_set_rounding(PE_ROUNDING_CORRECT) (the rounding test). */
    const char *rounding = getenv("PE_ROUNDING");
    if (rounding && !strcmp(rounding, "correct")) check_status(pe_set_rounding(PE_ROUNDING_CORRECT), "pe_set_rounding");
    char **a = argv + 3;
    int n = argc - 3;
    const harness_command *c = find(cmd);

    if (!strcmp(cmd, "damage") && n == 0) {
        guarded g = guarded_alloc(4 * sizeof(float), 0, "damage self-check");
        float one = 1.0f;
        memcpy(g.data + 4 * sizeof(float), &one, sizeof one); /* inside the guard: allocated, so no ASan report */
        guarded_free(&g);                                     /* exits 3 */
        die(1, "the guard check missed a write past the end", NULL);
    } else if (!strcmp(cmd, "serve") && n == 0) {
        serve();
    } else if (c && c->oneshot_args >= 0 && n == c->oneshot_args) {
        if (c->oneshot)
            c->oneshot(a);
        else
            c->serve(a, 0, 0);
    } else {
        usage();
    }
    if (fflush(stdout)) die(1, "write failed", "stdout");
    return 0;
}
