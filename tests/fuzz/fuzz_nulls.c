/* fuzz_nulls.c: every public entry point of posenc.h that takes a pointer,
 * called with each pointer argument NULL in turn and every other argument
 * valid: the answer must be PE_ERR_NULL and every output (guarded) left as it
 * was. Run once per fuzzer process, before the first input (issue 25: "the
 * core's fuzzer passes NULL arguments"); the targets pass NULLs on fuzzed
 * arguments too (pe_config_read, the layer reader, the RoPE plan). */
#include <stdio.h>
#include <string.h>

#include "fuzz_input.h"

#define DIM  8
#define ROWS 4
#define N    (DIM * ROWS)

/* The outputs, each between guard bytes, checked untouched after each NULL call. */
static guarded out_g, x_g, w_g, scratch_g, plan_g, text_g, small_g;
static float *out, *x;
static double *w;
static void *scratch, *plan_memory, *small;
static char *text;
static size_t scratch_bytes = 1 << 16, plan_bytes = 1 << 16;

static void untouched(const char *call) {
    guard_check(&out_g, call, 1);
    guard_check(&x_g, call, 1);
    guard_check(&w_g, call, 1);
    guard_check(&scratch_g, call, 1); /* the one-shot calls check everything before building their plan */
    guard_check(&plan_g, call, 1);
    guard_check(&text_g, call, 1);
    guard_check(&small_g, call, 1);
}

static void expect_null(pe_status st, const char *call) {
    if (st == PE_OK) fail("a NULL pointer argument was accepted", call);
    /* A NULL plan is refused as no plan (PE_ERR_PLAN and the like), any other NULL as PE_ERR_NULL. */
    if (st != PE_ERR_NULL && strstr(call, "(NULL") == NULL) fail("a NULL pointer was not refused as PE_ERR_NULL", call);
    if (st != PE_ERR_NULL && strncmp(call, "pe_plan", 7) && strncmp(call, "pe_rope_plan", 12))
        fail("a NULL description was not refused as PE_ERR_NULL", call);
    untouched(call);
}

#define NULL_CASE(call, ...) expect_null(call(__VA_ARGS__), #call "(" #__VA_ARGS__ ")")

void fuzz_null_sweep(void) {
    static int done;
    if (done) return;
    done = 1;
    out = guard_alloc(&out_g, N * sizeof(float));
    x = guard_alloc(&x_g, N * sizeof(float));
    w = guard_alloc(&w_g, DIM * sizeof(double));
    scratch = guard_alloc(&scratch_g, scratch_bytes);
    plan_memory = guard_alloc(&plan_g, plan_bytes);
    text = guard_alloc(&text_g, 4096);
    small = guard_alloc(&small_g, 256); /* a size_t, a status, a plan pointer, a struct answer */

    /* Valid arguments (inputs live outside the guarded outputs). */
    const pe_sinusoid enc = {DIM, 10000.0, PE_LAYOUT_SPLIT, PE_FREQ_PAPER};
    const uint32_t positions[ROWS] = {0, 1, 5, 9};
    const double freqs[DIM / 2] = {1.0, 0.1, 0.01, 0.001};
    pe_rotary rope;
    memset(&rope, 0, sizeof rope);
    rope.head_dim = DIM;
    rope.rotary_dim = DIM;
    rope.heads = 1;
    rope.base = 10000.0;
    rope.layout = PE_LAYOUT_SPLIT;
    const pe_alibi alibi = {2, 2, 2, 0, 0};
    const pe_grid2d grid = {2, 2, DIM, 10000.0, 0};
    const pe_t5 t5 = {2, 2, 0, 32, 128, 1};
    const pe_shaw shaw = {2, 2, 0, 4};
    static float table[N], table_in[N];
    static char keys[4096];
    static char json[] = "{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_attention_heads\": 4, "
                         "\"num_hidden_layers\": 2}";
    const size_t json_bytes = sizeof json - 1;
    double factors[64];
    pe_config config;
    pe_config_layer layer;
    for (int k = 0; k < N; k++) table_in[k] = (float)(k % 7) / 7.0f;

    /* Plans and answers to pass as valid inputs, built outside the guarded memory. */
    static _Alignas(64) unsigned char plan_area[1 << 16], rope_area[1 << 16], work[1 << 20]; /* diagnose: 772 KiB */
    pe_plan *plan = NULL;
    pe_rope_plan *rope_plan = NULL;
    size_t need = 0;
    if (pe_plan_init(&enc, plan_area, sizeof plan_area, &plan) != PE_OK ||
        pe_rope_plan_size(&rope, 16, &need) != PE_OK || need > sizeof rope_area ||
        pe_rope_plan_init(&rope, 16, rope_area, sizeof rope_area, &rope_plan) != PE_OK ||
        pe_table(&enc, 0, ROWS, table, N, work, sizeof work) != PE_OK)
        fail("the sweep's valid arguments were refused", "fuzz_null_sweep");
    pe_diagnosis diagnosis;
    pe_inv_freq_diagnosis inv_diagnosis;
    static float long_table[64 * DIM]; /* enough rows to diagnose */
    if (pe_table(&enc, 0, 64, long_table, 64 * DIM, work, sizeof work) != PE_OK ||
        pe_diagnose(long_table, 64, DIM, PE_DIAG_AUTO, &diagnosis, NULL, work, sizeof work) != PE_OK ||
        pe_diagnose_inv_freq(freqs, DIM / 2, &inv_diagnosis, NULL) != PE_OK)
        fail("the sweep's tables were refused", "fuzz_null_sweep");

    size_t *bytes = small;
    NULL_CASE(pe_scratch_size, DIM, NULL);
    NULL_CASE(pe_table, NULL, 0, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_table, &enc, 0, ROWS, NULL, N, scratch, scratch_bytes);
    NULL_CASE(pe_table, &enc, 0, ROWS, out, N, NULL, scratch_bytes);
    NULL_CASE(pe_table_at, NULL, positions, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_at, &enc, NULL, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_at, &enc, positions, ROWS, NULL, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_at, &enc, positions, ROWS, out, N, NULL, scratch_bytes);
    NULL_CASE(pe_add, NULL, 1.0f, 0, ROWS, x, N, scratch, scratch_bytes);
    NULL_CASE(pe_add, &enc, 1.0f, 0, ROWS, NULL, N, scratch, scratch_bytes);
    NULL_CASE(pe_add, &enc, 1.0f, 0, ROWS, x, N, NULL, scratch_bytes);
    NULL_CASE(pe_plan_init, NULL, plan_memory, plan_bytes, (pe_plan **)small);
    NULL_CASE(pe_plan_init, &enc, NULL, plan_bytes, (pe_plan **)small);
    NULL_CASE(pe_plan_init, &enc, plan_memory, plan_bytes, NULL);
    NULL_CASE(pe_plan_init_frequencies, DIM, PE_LAYOUT_SPLIT, NULL, plan_memory, plan_bytes, (pe_plan **)small);
    NULL_CASE(pe_plan_init_frequencies, DIM, PE_LAYOUT_SPLIT, freqs, NULL, plan_bytes, (pe_plan **)small);
    NULL_CASE(pe_plan_init_frequencies, DIM, PE_LAYOUT_SPLIT, freqs, plan_memory, plan_bytes, NULL);
    NULL_CASE(pe_plan_table, NULL, 0, ROWS, out, N);
    NULL_CASE(pe_plan_table, plan, 0, ROWS, NULL, N);
    NULL_CASE(pe_plan_table_at, NULL, positions, ROWS, out, N);
    NULL_CASE(pe_plan_table_at, plan, NULL, ROWS, out, N);
    NULL_CASE(pe_plan_table_at, plan, positions, ROWS, NULL, N);
    NULL_CASE(pe_plan_add, NULL, 1.0f, 0, ROWS, x, N);
    NULL_CASE(pe_plan_add, plan, 1.0f, 0, ROWS, NULL, N);
    NULL_CASE(pe_active_kernels, NULL);
    NULL_CASE(pe_rounding_mode, NULL);
    NULL_CASE(pe_alibi_slopes, 2, NULL, 2);
    NULL_CASE(pe_alibi_bias, NULL, 0, 2, out, 8);
    NULL_CASE(pe_alibi_bias, &alibi, 0, 2, NULL, 8);
    NULL_CASE(pe_add_table, NULL, ROWS, DIM, 1.0f, 0, ROWS, x, N);
    NULL_CASE(pe_add_table, table_in, ROWS, DIM, 1.0f, 0, ROWS, NULL, N);
    NULL_CASE(pe_resample_table, NULL, ROWS, DIM, 2, out, 2 * DIM);
    NULL_CASE(pe_resample_table, table_in, ROWS, DIM, 2, NULL, 2 * DIM);
    NULL_CASE(pe_rope_xpos_reach, NULL, (uint32_t *)small);
    NULL_CASE(pe_rope_xpos_reach, &rope, NULL);
    NULL_CASE(pe_rope_scratch_size, NULL, bytes);
    NULL_CASE(pe_rope_scratch_size, &rope, NULL);
    NULL_CASE(pe_rope_frequencies, NULL, w, DIM / 2, (double *)small);
    NULL_CASE(pe_rope_frequencies, &rope, NULL, DIM / 2, (double *)small);
    NULL_CASE(pe_rope, NULL, 0, 1, NULL, x, DIM, scratch, scratch_bytes);
    NULL_CASE(pe_rope, &rope, 0, 1, NULL, NULL, DIM, scratch, scratch_bytes);
    NULL_CASE(pe_rope, &rope, 0, 1, NULL, x, DIM, NULL, scratch_bytes);
    NULL_CASE(pe_plan_table_dtype, NULL, PE_DTYPE_FLOAT32, 0, ROWS, out, N);
    NULL_CASE(pe_plan_table_dtype, plan, PE_DTYPE_FLOAT32, 0, ROWS, NULL, N);
    NULL_CASE(pe_plan_table_at_dtype, NULL, PE_DTYPE_FLOAT32, positions, ROWS, out, N);
    NULL_CASE(pe_plan_table_at_dtype, plan, PE_DTYPE_FLOAT32, NULL, ROWS, out, N);
    NULL_CASE(pe_plan_table_at_dtype, plan, PE_DTYPE_FLOAT32, positions, ROWS, NULL, N);
    NULL_CASE(pe_table_dtype, NULL, PE_DTYPE_FLOAT32, 0, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_dtype, &enc, PE_DTYPE_FLOAT32, 0, ROWS, NULL, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_dtype, &enc, PE_DTYPE_FLOAT32, 0, ROWS, out, N, NULL, scratch_bytes);
    NULL_CASE(pe_table_at_dtype, NULL, PE_DTYPE_FLOAT32, positions, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_at_dtype, &enc, PE_DTYPE_FLOAT32, NULL, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_at_dtype, &enc, PE_DTYPE_FLOAT32, positions, ROWS, NULL, N, scratch, scratch_bytes);
    NULL_CASE(pe_table_at_dtype, &enc, PE_DTYPE_FLOAT32, positions, ROWS, out, N, NULL, scratch_bytes);
    NULL_CASE(pe_narrow_f64, PE_DTYPE_FLOAT32, NULL, DIM / 2, out, DIM / 2);
    NULL_CASE(pe_narrow_f64, PE_DTYPE_FLOAT32, freqs, DIM / 2, NULL, DIM / 2);
    NULL_CASE(pe_plan_recipe_table, NULL, PE_RECIPE_FLOAT32_ANGLE, 0, ROWS, out, N);
    NULL_CASE(pe_plan_recipe_table, plan, PE_RECIPE_FLOAT32_ANGLE, 0, ROWS, NULL, N);
    NULL_CASE(pe_recipe_table, NULL, PE_RECIPE_FLOAT32_ANGLE, 0, ROWS, out, N, scratch, scratch_bytes);
    NULL_CASE(pe_recipe_table, &enc, PE_RECIPE_FLOAT32_ANGLE, 0, ROWS, NULL, N, scratch, scratch_bytes);
    NULL_CASE(pe_recipe_table, &enc, PE_RECIPE_FLOAT32_ANGLE, 0, ROWS, out, N, NULL, scratch_bytes);
    NULL_CASE(pe_rope_plan_size, NULL, 16, bytes);
    NULL_CASE(pe_rope_plan_size, &rope, 16, NULL);
    NULL_CASE(pe_rope_plan_init, NULL, 16, plan_memory, plan_bytes, (pe_rope_plan **)small);
    NULL_CASE(pe_rope_plan_init, &rope, 16, NULL, plan_bytes, (pe_rope_plan **)small);
    NULL_CASE(pe_rope_plan_init, &rope, 16, plan_memory, plan_bytes, NULL);
    NULL_CASE(pe_rope_plan_apply, NULL, PE_DTYPE_FLOAT32, 1, 0, 1, NULL, x, DIM);
    NULL_CASE(pe_rope_plan_apply, rope_plan, PE_DTYPE_FLOAT32, 1, 0, 1, NULL, NULL, DIM);
    NULL_CASE(pe_rope_plan_apply_heads, NULL, PE_DTYPE_FLOAT32, 1, 1, 0, 1, NULL, x, DIM);
    NULL_CASE(pe_rope_plan_apply_heads, rope_plan, PE_DTYPE_FLOAT32, 1, 1, 0, 1, NULL, NULL, DIM);
    NULL_CASE(pe_rope_plan_cos_sin, NULL, PE_DTYPE_FLOAT32, 0, 0, 2, NULL, out, x, DIM);
    NULL_CASE(pe_rope_plan_cos_sin, rope_plan, PE_DTYPE_FLOAT32, 0, 0, 2, NULL, NULL, x, DIM);
    NULL_CASE(pe_rope_plan_cos_sin, rope_plan, PE_DTYPE_FLOAT32, 0, 0, 2, NULL, out, NULL, DIM);
    NULL_CASE(pe_table_2d_scratch_size, NULL, bytes);
    NULL_CASE(pe_table_2d_scratch_size, &grid, NULL);
    NULL_CASE(pe_table_2d, NULL, out, 4 * DIM, scratch, scratch_bytes);
    NULL_CASE(pe_table_2d, &grid, NULL, 4 * DIM, scratch, scratch_bytes);
    NULL_CASE(pe_table_2d, &grid, out, 4 * DIM, NULL, scratch_bytes);
    NULL_CASE(pe_t5_buckets, NULL, (int32_t *)out, 4);
    NULL_CASE(pe_t5_buckets, &t5, NULL, 4);
    NULL_CASE(pe_t5_bias, NULL, table_in, 32 * 2, 2, 0, 2, out, 8);
    NULL_CASE(pe_t5_bias, &t5, NULL, 32 * 2, 2, 0, 2, out, 8);
    NULL_CASE(pe_t5_bias, &t5, table_in, 32 * 2, 2, 0, 2, NULL, 8);
    NULL_CASE(pe_shaw_indices, NULL, (int32_t *)out, 4);
    NULL_CASE(pe_shaw_indices, &shaw, NULL, 4);
    NULL_CASE(pe_diagnose_scratch_size, ROWS, DIM, NULL);
    NULL_CASE(pe_diagnose, NULL, ROWS, DIM, PE_DIAG_AUTO, (pe_diagnosis *)text, bytes, scratch, scratch_bytes);
    NULL_CASE(pe_diagnose, table, ROWS, DIM, PE_DIAG_AUTO, NULL, bytes, scratch, scratch_bytes);
    NULL_CASE(pe_diagnose, table, ROWS, DIM, PE_DIAG_AUTO, (pe_diagnosis *)text, bytes, NULL, scratch_bytes);
    NULL_CASE(pe_diagnosis_text, NULL, text, 4096, bytes);
    NULL_CASE(pe_diagnosis_text, &diagnosis, NULL, 4096, bytes);
    NULL_CASE(pe_diagnosis_json, NULL, text, 4096, bytes);
    NULL_CASE(pe_diagnosis_json, &diagnosis, NULL, 4096, bytes);
    NULL_CASE(pe_diagnose_inv_freq, NULL, DIM / 2, (pe_inv_freq_diagnosis *)text, (uint32_t *)small);
    NULL_CASE(pe_diagnose_inv_freq, freqs, DIM / 2, NULL, (uint32_t *)small);
    NULL_CASE(pe_inv_freq_diagnosis_text, NULL, text, 4096, bytes);
    NULL_CASE(pe_inv_freq_diagnosis_text, &inv_diagnosis, NULL, 4096, bytes);
    NULL_CASE(pe_inv_freq_diagnosis_json, NULL, text, 4096, bytes);
    NULL_CASE(pe_inv_freq_diagnosis_json, &inv_diagnosis, NULL, 4096, bytes);
    /* The config readers: keys is still NUL-terminated (posenc.h), so it is checked apart. */
    const char *const call = "pe_config_read";
    keys[0] = 'x';
    if (pe_config_read(NULL, json_bytes, NULL, factors, 64, &config, keys, sizeof keys) != PE_ERR_NULL || keys[0])
        fail("a NULL json was not refused, keys left as a string", call);
    if (pe_config_read(json, json_bytes, NULL, factors, 64, NULL, keys, sizeof keys) != PE_ERR_NULL)
        fail("a NULL out was not refused", call);
    NULL_CASE(pe_config_read, json, json_bytes, NULL, (double *)small, 8, (pe_config *)text, NULL, 64);
    NULL_CASE(pe_config_read_types, json, json_bytes, (double *)small, 8, (pe_config *)text, 1, NULL, 64, NULL);
    keys[0] = 'x';
    if (pe_config_read_types(NULL, json_bytes, factors, 64, &config, 1, keys, sizeof keys, NULL) != PE_ERR_NULL ||
        keys[0] ||
        pe_config_read_types(json, json_bytes, factors, 64, NULL, 1, keys, sizeof keys, NULL) != PE_ERR_NULL ||
        pe_config_read_types(json, json_bytes, NULL, 8, &config, 1, keys, sizeof keys, NULL) != PE_ERR_NULL)
        fail("a NULL json, out or factors was not refused, keys left as a string", "pe_config_read_types");
    NULL_CASE(pe_config_layer_read, json, json_bytes, 0, (pe_config_layer *)text, NULL, 64);
    NULL_CASE(pe_config_layers_read, json, json_bytes, 0, 1, (pe_config_layer *)text, NULL, 64);
    if (pe_config_layer_read(json, json_bytes, 0, NULL, keys, sizeof keys) != PE_ERR_NULL ||
        pe_config_layers_read(json, json_bytes, 0, 1, NULL, keys, sizeof keys) != PE_ERR_NULL ||
        pe_config_layer_read(NULL, json_bytes, 0, &layer, keys, sizeof keys) != PE_ERR_NULL)
        fail("a NULL json or out was not refused", "pe_config_layer_read");
    guard_free(&out_g);
    guard_free(&x_g);
    guard_free(&w_g);
    guard_free(&scratch_g);
    guard_free(&plan_g);
    guard_free(&text_g);
    guard_free(&small_g);
}
