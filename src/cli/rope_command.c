/* rope_command.c: `posenc rope --config config.json`, a model's RoPE
 * frequencies, its attention factor or its cos/sin cache rows (plain, mrope
 * or 2-D positions: rope_axes_option.c) as the core computes them
 * (src/js/cli/rope.js prints the same bytes). */
#include <stdlib.h>

#include "commands.h"
#include "config_option.h"
#include "posenc.h"
#include "rope_axes_option.h"
#include "rope_flags_option.h"

const char ROPE_USAGE[] =
    "usage: posenc rope (--config config.json | --head-dim D [RoPE flags]) [options]\n"
    "\n"
    "Prints the RoPE frequencies w_i (one per rotated pair) of a model's config.json, read as HF\n"
    "transformers reads it (rope_theta, rope_scaling / rope_parameters, partial_rotary_factor, ...),\n"
    "or of the RoPE the flags below describe, its attention factor, or its cos/sin cache rows.\n"
    "\n"
    "  --config FILE      a model's config.json (or the RoPE flags, not both)\n"
    "  --layer-type T     the layer type, when the RoPE differs by layer type (Gemma 3: full_attention\n"
    "                     or sliding_attention)\n"
    "  --length N         positions offset ... offset+N-1 (default 0); dynamic NTK scales for\n"
    "                     L = offset + N\n"
    "  --offset P         first position (default 0)\n"
    "  --position-ids IDS the rows' positions instead of --offset/--length, one row of ids per axis:\n"
    "                     0,1,2 (plain RoPE), T;H;W rows for mrope (0,1,1;0,0,1;0,1,0), R;C rows for\n"
    "                     --vision, or @FILE with one row per line; whole numbers below 2^31,\n"
    "                     separated by ',' or blanks; dynamic NTK scales for L = the largest + 1\n"
    "  --mrope-section S  Qwen2-VL's mrope: pairs per axis T,H,W summing to rotary_dim/2 (16,24,24\n"
    "                     for head_dim 128); the config's rope_scaling.mrope_section is used without it\n"
    "  --vision           2-D RoPE of vision patches (Qwen2-VL's vision tower): the first half of the\n"
    "                     pairs turn by the patch's row, the second by its column\n"
    "  --what W           frequencies (default), attention-factor, or cos-sin: one line per row,\n"
    "                     cos of the rotary_dim/2 pairs then their sin, times the attention factor (the\n"
    "                     package's ropeCosSin; with axes, HF's cos/sin after the section split)\n"
    "  --dtype T          float64 (default: the core's values), float32, float16 or bfloat16: each\n"
    "                     value rounded once to that type; cos-sin: float32 (default: the products\n"
    "                     rope multiplies by), float16 or bfloat16\n"
    "  --format F         text (one value per line), csv or json; 17 significant digits for float64,\n"
    "                     9 for the others; npy (a 1-D array: <f8, <f4 or <f2 by --dtype), f32 (with\n"
    "                     --dtype float32) or raw (the --dtype's own little-endian bytes); cos-sin as\n"
    "                     `posenc table` prints rows (text 4 decimals, csv and json 9; csv's first column\n"
    "                     is the position, or the row with --position-ids), npy (float32, or float16's\n"
    "                     <f2), f32 (float32) or raw (the --dtype's own bytes)\n"
    "\n"
    "RoPE flags (instead of --config; the parameters are HF's rope_scaling keys):\n"
    "  --head-dim D       the head dimension, 2 to 65536 (required without --config)\n"
    "  --rotary-dim R     the rotated dimensions, even, 2 to D (default D)\n"
    "  --base B           rope_theta, above 1 and at most 1e300 (default 10000)\n"
    "  --scaling T        default (none), linear, dynamic, yarn or llama3 (default default)\n"
    "  --factor F         linear, dynamic, yarn, llama3: the scaling factor, at least 1\n"
    "  --original-max-position-embeddings L\n"
    "                     dynamic, yarn, llama3: the pre-training context length\n"
    "  --beta-fast B, --beta-slow B, --attention-factor A, --mscale M, --mscale-all-dim M,\n"
    "  --truncate, --no-truncate\n"
    "                     yarn's parameters (HF's defaults when absent)\n"
    "  --low-freq-factor L, --high-freq-factor H\n"
    "                     llama3's parameters (required with it)\n"
    "\n" CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc rope --config config.json --length 8192 --format csv\n"
    "  posenc rope --head-dim 128 --base 500000 --scaling linear --factor 4\n"
    "  posenc rope --head-dim 128 --base 500000 --format npy --output inv_freq.npy\n"
    "  posenc rope --head-dim 64 --what cos-sin --length 2048 --format npy --output cos_sin.npy\n"
    "  posenc rope --config qwen2-vl.json --what cos-sin --position-ids '0,1,1;0,0,1;0,1,0'\n";

#define MAX_COS_VALUES 16777216u /* 2^24 a run: cos and sin in float64, 256 MiB */

const char *const ROPE_OPTIONS[] = {
    "--config",         "--layer-type",      "--head-dim",         "--rotary-dim",
    "--base",           "--scaling",         "--factor",           "--original-max-position-embeddings",
    "--beta-fast",      "--beta-slow",       "--attention-factor", "--mscale",
    "--mscale-all-dim", "--low-freq-factor", "--high-freq-factor", "--length",
    "--offset",         "--position-ids",    "--mrope-section",    "--what",
    "--dtype",          "--format",          "--output",           NULL};
const char *const ROPE_FLAGS[] = {"--vision", "--truncate", NULL};

/* The cos/sin cache rows [cos | sin] of rows (rotary_dim values a row), in format. */
static int write_cos_sin(const pe_rotary *rope, const cli_rope_rows *rows, pe_dtype dtype, cli_format format, FILE *out,
                         char **error) {
    const uint32_t r = rope->rotary_dim ? rope->rotary_dim : rope->head_dim, half = r / 2, n = rows->length;
    size_t bytes = 0, count = (size_t)n * half;
    if (count > MAX_COS_VALUES) /* the cache is built whole before it is printed: 16 bytes a value */
        return cli_fail(error, 2,
                        "--what cos-sin prints at most 16777216 cos values (rows x rotary_dim/2) in one run; got %u "
                        "rows x %u pairs",
                        (unsigned)n, (unsigned)half);
    pe_status st = pe_rope_plan_size(rope, 0, &bytes);
    void *memory = st == PE_OK ? malloc(bytes) : NULL;
    double *cos = malloc(2 * count * sizeof *cos + 8), *sin = cos + count;
    float *line = malloc((size_t)r * sizeof *line + 4);
    pe_rope_plan *plan = NULL;
    if (st == PE_OK && (!memory || !cos || !line)) st = PE_ERR_NULL;
    if (st == PE_OK) st = pe_rope_plan_init(rope, 0, memory, bytes, &plan);
    /* float32: the core's own products; the others rounded once from its float64 values. */
    const pe_dtype asked = dtype == PE_DTYPE_FLOAT32 ? PE_DTYPE_FLOAT32 : PE_DTYPE_FLOAT64;
    if (st == PE_OK)
        st = pe_rope_plan_cos_sin(plan, asked, 0, rows->ids ? 0 : rows->offset, n, rows->ids, cos, sin, count);
    int code = st == PE_OK ? 0 : cli_fail(error, 1, "%s", memory && cos && line ? pe_status_str(st) : "out of memory");
    if (!code && asked == PE_DTYPE_FLOAT64 && !(code = cli_narrow_values(dtype, cos, (uint32_t)count, error)))
        code = cli_narrow_values(dtype, sin, (uint32_t)count, error);
    /* npy and raw of a 16-bit type: the values' own bits (each narrowed value rounds to itself). */
    const int bytes16 = asked == PE_DTYPE_FLOAT64 && (format == FORMAT_NPY || format == FORMAT_RAW);
    double *wide = bytes16 ? malloc((size_t)r * sizeof *wide + 8) : NULL;
    uint16_t *bits = bytes16 ? malloc((size_t)r * sizeof *bits + 2) : NULL;
    if (!code && bytes16 && (!wide || !bits)) code = cli_fail(error, 1, "out of memory");
    if (!code) {
        const float *cos32 = (const float *)(void *)cos, *sin32 = (const float *)(void *)sin;
        cli_write_prologue(out, format, n, r, dtype == PE_DTYPE_FLOAT16 ? "<f2" : "<f4");
        for (uint32_t l = 0; l < n && !code; l++) {
            for (uint32_t i = 0; i < half; i++) {
                const size_t at = (size_t)l * half + i;
                line[i] = asked == PE_DTYPE_FLOAT32 ? cos32[at] : (float)cos[at];
                line[half + i] = asked == PE_DTYPE_FLOAT32 ? sin32[at] : (float)sin[at];
            }
            if (bytes16) {
                for (uint32_t i = 0; i < r; i++) wide[i] = line[i];
                pe_status narrowed = pe_narrow_f64(dtype, wide, r, bits, r);
                if (narrowed != PE_OK)
                    code = cli_fail(error, 1, "%s", pe_status_str(narrowed));
                else
                    cli_write_u16(out, bits, r);
            } else {
                cli_write_rows(out, format, line, 1, r, l, rows->ids ? l : rows->offset + l);
            }
        }
        if (!code) cli_write_epilogue(out, format, n);
    }
    free(memory);
    free(cos);
    free(line);
    free(wide);
    free(bits);
    return code;
}

int cli_run_rope(const cli_given *given, FILE *out, char **error) {
    static const char *const FORMATS[] = {"text", "csv", "json", "npy", "f32", "raw", NULL};
    static const char *const WHAT[] = {"frequencies", "attention-factor", "cos-sin", NULL};
    const char *path = cli_value(given, "--config"), *flag = cli_rope_description_given(given);
    if (path && flag) return cli_fail(error, 2, "give --config or %s, not both (the config sets it)", flag);
    if (!path && !flag)
        return cli_fail(error, 2,
                        "--config or --head-dim is required (a model's config.json, or the RoPE by flags: see posenc "
                        "rope --help)");
    if (!path && cli_value(given, "--layer-type"))
        return cli_fail(error, 2, "--layer-type picks a layer type of --config, so it needs --config");
    uint32_t length, offset;
    int code =
        cli_count_option(given, "--length", "0", 0, 2147483648u, "an integer from 0 to 2147483648", &length, error);
    if (!code)
        code =
            cli_count_option(given, "--offset", "0", 0, 2147483648u, "an integer from 0 to 2147483648", &offset, error);
    if (code) return code;
    if ((uint64_t)offset + length > 2147483648u)
        return cli_fail(error, 2, "--offset + --length must be at most 2147483648; got %u + %u", (unsigned)offset,
                        (unsigned)length);
    const char *what_text = cli_value(given, "--what") ? cli_value(given, "--what") : "frequencies";
    int what = cli_pick(what_text, WHAT);
    if (what < 0)
        return cli_fail(error, 2, "--what must be frequencies, attention-factor or cos-sin; got %s", what_text);
    cli_format format;
    pe_dtype dtype;
    static const char *const DTYPES[] = {"float64", "float32", "float16", "bfloat16", NULL};
    static const char *const CACHE_DTYPES[] = {"float32", "float16", "bfloat16", NULL};
    if ((code = what == 2 ? cli_dtype_option(given, CACHE_DTYPES, "float32, float16 or bfloat16 with --what cos-sin",
                                             &dtype, error)
                          : cli_dtype_option(given, DTYPES, "float64, float32, float16 or bfloat16", &dtype, error)))
        return code;
    if ((code = cli_format_option(given, FORMATS, "text, csv, json, npy, f32 or raw", &format, error))) return code;
    if ((code = cli_dtype_format_check(given, dtype, format, error))) return code;

    cli_config cfg = {0};
    code = path ? cli_read_config(path, cli_value(given, "--layer-type"), &cfg, error)
                : cli_rope_flags(given, &cfg.config, error);
    pe_config *c = &cfg.config;
    if (!code && c->kind != PE_CONFIG_ROPE)
        code = cli_fail(error, 1, "the config describes a model with %s positions, not RoPE (see posenc %s --config)",
                        cli_config_kind(c), c->kind == PE_CONFIG_ALIBI ? "alibi" : "rope --help");
    if (!code && c->longrope)
        code = cli_fail(error, 1,
                        "rope_type 'longrope' is not supported yet: HF's short/long factors arrive with the RoPE "
                        "variants of issue 12");
    cli_rope_rows rows = {offset, length, NULL, 0};
    if (!code) code = cli_rope_axes_options(given, c, &c->rope, &rows, error);
    double *w = NULL, attention = 1.0;
    if (!code) {
        c->rope.heads = 1;
        c->rope.scaling.sequence_length = rows.end;
        w = malloc((c->rope.rotary_dim / 2 + 1) * sizeof *w);
        pe_status st = w ? pe_rope_frequencies(&c->rope, w, c->rope.rotary_dim / 2, &attention) : PE_ERR_NULL;
        if (st != PE_OK) code = cli_fail(error, 1, "%s", w ? pe_status_str(st) : "out of memory");
    }
    if (!code && what == 0) code = cli_narrow_values(dtype, w, c->rope.rotary_dim / 2, error);
    if (!code && what == 1) code = cli_narrow_values(dtype, &attention, 1, error);
    if (!code && what == 0)
        code = cli_write_value_list(out, format, dtype, "pair", "frequency", w, c->rope.rotary_dim / 2, error);
    if (!code && what == 1)
        code = cli_write_value_list(out, format, dtype, "index", "attention_factor", &attention, 1, error);
    if (!code && what == 2) code = write_cos_sin(&c->rope, &rows, dtype, format, out, error);
    free(w);
    free(rows.ids);
    cli_free_config(&cfg);
    return code;
}
