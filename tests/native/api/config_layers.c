/* config_layers.c: pe_config_layers_read (posenc.h, "Model configs") under
 * ASan: every layer of configs with thousands of layers in one call, each the
 * same bytes as pe_config_layer_read's answer alone; ranges; the refusals
 * (a range past the layers, count 0, a malformed no_rope_layers entry inside
 * the range, more than PE_CONFIG_MAX_LAYERS layers, NULL arguments) leaving
 * out as it was; and the time, linear in the layers (it was quadratic: one
 * whole reading a layer). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support.h"
#include "tests.h"

/* A Gemma 3 text config (transformers v5) with n layers and layer_types naming each; malloc'd. */
static char *gemma_layers(uint32_t n, size_t *length) {
    char *text = malloc(256 + 22 * (size_t)n);
    size_t at = (size_t)sprintf(text,
                                "{\"model_type\": \"gemma3_text\", \"head_dim\": 256, \"num_attention_heads\": 4, "
                                "\"num_key_value_heads\": 1, \"num_hidden_layers\": %u, \"rope_parameters\": "
                                "{\"full_attention\": {\"rope_theta\": 1e6}, \"sliding_attention\": {\"rope_theta\": "
                                "10000}}, \"layer_types\": [",
                                n);
    for (uint32_t i = 0; i < n; i++)
        at +=
            (size_t)sprintf(text + at, "%s\"%s\"", i ? "," : "", (i + 1) % 6 ? "sliding_attention" : "full_attention");
    at += (size_t)sprintf(text + at, "]}");
    *length = at;
    return text;
}

/* A Llama 4 config with n layers and a no_rope_layers list (the entry at `bad`, if below n, a string). */
static char *llama4_layers(uint32_t n, uint32_t bad, size_t *length) {
    char *text = malloc(256 + 6 * (size_t)n);
    size_t at = (size_t)sprintf(text,
                                "{\"model_type\": \"llama4_text\", \"head_dim\": 128, \"num_attention_heads\": 40, "
                                "\"num_hidden_layers\": %u, \"no_rope_layers\": [",
                                n);
    for (uint32_t i = 0; i < n; i++)
        at += (size_t)sprintf(text + at, "%s%s", i ? "," : "", i == bad ? "\"x\"" : (i + 1) % 4 ? "1" : "0");
    at += (size_t)sprintf(text + at, "]}");
    *length = at;
    return text;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Every layer of text in one call and (the first `singles`) alone: the same bytes; the call's CPU seconds. */
static double every_layer(const char *name, const char *text, size_t length, uint32_t layers, uint32_t singles) {
    const size_t keys_bytes = 8 * length + 256;
    char *keys = malloc(keys_bytes);
    pe_config_layer *all = malloc((size_t)layers * sizeof *all);
    const double t = seconds();
    EXPECT_STATUS(pe_config_layers_read(text, length, 0, layers, all, keys, keys_bytes), PE_OK, name);
    const double took = seconds() - t;
    CHECK(keys[0] == '\0', "%s: keys empty", name);
    for (uint32_t i = 0; i < singles && i < layers; i++) {
        const uint32_t at = singles >= layers ? i : (uint32_t)(((uint64_t)i * 7919u) % layers);
        pe_config_layer one;
        memset(&one, 0, sizeof one);
        EXPECT_STATUS(pe_config_layer_read(text, length, at, &one, keys, keys_bytes), PE_OK, name);
        CHECK(!memcmp(&one, &all[at], sizeof one), "%s: layer %u alone differs", name, at);
    }
    free(all);
    free(keys);
    return took;
}

void test_config_layers_batch(void) {
    size_t length;
    char *text = gemma_layers(3000, &length);
    every_layer("gemma 3000", text, length, 3000, 3000);
    /* Layer by layer is what a batch replaces: check the pattern once. */
    pe_config_layer l[12];
    char keys[1 << 16];
    char *small = gemma_layers(12, &length);
    EXPECT_STATUS(pe_config_layers_read(small, length, 0, 12, l, keys, sizeof keys), PE_OK, "gemma 12");
    for (int i = 0; i < 12; i++) {
        const char *kind = (i + 1) % 6 ? "sliding_attention" : "full_attention";
        CHECK(!strcmp(l[i].kind, kind) && !strcmp(l[i].layer_type, kind) && l[i].positions == PE_LAYER_CONFIG &&
                  l[i].kv_heads == 1 && l[i].layers == 12,
              "gemma layer %d: %s %s %d %u", i, l[i].kind, l[i].layer_type, (int)l[i].positions, l[i].kv_heads);
    }
    /* A range: layers 5 ... 8 are the whole answer's. */
    pe_config_layer part[4];
    EXPECT_STATUS(pe_config_layers_read(small, length, 5, 4, part, keys, sizeof keys), PE_OK, "range 5+4");
    CHECK(!memcmp(part, l + 5, sizeof part), "range 5 ... 8");
    free(small);
    free(text);
    char *llama = llama4_layers(3000, 3000, &length);
    every_layer("llama4 3000", llama, length, 3000, 3000);
    free(llama);
}

/* Refusals write nothing to out: a range past the end, count 0, a bad no_rope_layers entry in the range (but not
 * one outside it), too many layers, NULL arguments. */
void test_config_layers_refusals(void) {
    size_t length;
    char *text = llama4_layers(40, 30, &length);
    char keys[1 << 14];
    pe_config_layer out[40], pristine[40];
    memset(pristine, 0x5c, sizeof pristine);
    const struct {
        uint32_t first, count;
        pe_status want;
        const char *keys;
    } CASES[] = {
        {0, 41, PE_ERR_LAYER_TYPE, "num_hidden_layers\nhas 40 layers: count must be 1 ... 40\n"},
        {39, 2, PE_ERR_LAYER_TYPE, "num_hidden_layers\nhas 40 layers: count must be 1 ... 1\n"},
        {40, 1, PE_ERR_LAYER_TYPE, "num_hidden_layers\nhas 40 layers: layer must be 0 ... 39\n"},
        {0, 0, PE_ERR_LAYER_TYPE, "num_hidden_layers\nhas 40 layers: count must be 1 ... 40\n"},
        {0, 40, PE_ERR_CONFIG, "no_rope_layers\nmust list 0 or 1 for every layer (num_hidden_layers of them)\n"},
        {25, 10, PE_ERR_CONFIG, "no_rope_layers\nmust list 0 or 1 for every layer (num_hidden_layers of them)\n"},
        {0, 30, PE_OK, ""},
        {31, 9, PE_OK, ""},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        memcpy(out, pristine, sizeof out);
        const pe_status st =
            pe_config_layers_read(text, length, CASES[k].first, CASES[k].count, out, keys, sizeof keys);
        CHECK(st == CASES[k].want, "case %zu: status %d", k, (int)st);
        CHECK(!strcmp(keys, CASES[k].keys), "case %zu: keys '%s'", k, keys);
        if (st != PE_OK) CHECK(!memcmp(out, pristine, sizeof out), "case %zu: out untouched", k);
        if (st == PE_OK)
            CHECK(!memcmp(out + CASES[k].count, pristine, sizeof out - CASES[k].count * sizeof out[0]),
                  "case %zu: nothing past count", k);
    }
    free(text);
    /* The cap on layers, whichever key gives the count (encoder + decoder added past 32 bits too). */
    const struct {
        const char *json, *keys;
    } CAPS[] = {
        {"{\"model_type\": \"bloom\", \"n_head\": 8, \"n_layer\": 1048576}",
         "n_layer\nmakes 1048576 layers; posenc answers at most 65536 (PE_CONFIG_MAX_LAYERS)\n"},
        {"{\"text_config\": {\"model_type\": \"llama\", \"num_hidden_layers\": 65537}}",
         "text_config.num_hidden_layers\nmakes 65537 layers; posenc answers at most 65536 (PE_CONFIG_MAX_LAYERS)\n"},
        {"{\"model_type\": \"bart\", \"encoder_layers\": 4294967295, \"decoder_layers\": 4294967295}",
         "encoder_layers\nmakes 8589934590 layers; posenc answers at most 65536 (PE_CONFIG_MAX_LAYERS)\n"},
    };
    for (size_t k = 0; k < sizeof CAPS / sizeof CAPS[0]; k++) {
        memcpy(out, pristine, sizeof out);
        EXPECT_STATUS(pe_config_layers_read(CAPS[k].json, strlen(CAPS[k].json), 0, 1, out, keys, sizeof keys),
                      PE_ERR_TOO_LARGE, CAPS[k].json);
        CHECK(!strcmp(keys, CAPS[k].keys), "cap %zu: keys '%s'", k, keys);
        CHECK(!memcmp(out, pristine, sizeof out), "cap %zu: out untouched", k);
    }
    const char *at_cap = "{\"model_type\": \"llama\", \"num_hidden_layers\": 65536}";
    EXPECT_STATUS(pe_config_layer_read(at_cap, strlen(at_cap), 65535, out, keys, sizeof keys), PE_OK, "at the cap");
    CHECK(out[0].layers == 65536, "at the cap: %u layers", out[0].layers);
    /* NULL arguments: refused, keys still a string. */
    const char *json = "{\"model_type\": \"llama\", \"num_hidden_layers\": 2}";
    for (int k = 0; k < 3; k++) {
        memset(keys, 'x', sizeof keys);
        const pe_status st = pe_config_layers_read(k == 0 ? NULL : json, strlen(json), 0, 2, k == 1 ? NULL : out,
                                                   k == 2 ? NULL : keys, sizeof keys);
        CHECK(st == PE_ERR_NULL, "null case %d: status %d", k, (int)st);
        CHECK(k == 2 || keys[0] == '\0', "null case %d: keys terminated", k);
    }
}

/* sliding_window per layer through the C API: Gemma 2's even layers, every Mistral layer (class default 4096 when
 * absent, none when null), Qwen2's layers from max_window_layers on only with use_sliding_window, Qwen2-MoE's even
 * layers below it, every Qwen3-MoE layer, ModernBERT's local layers two-sided (local_attention // 2), none for
 * Llama; a malformed window is refused by name, out untouched. */
void test_config_layers_sliding_window(void) {
    char keys[1 << 12];
    pe_config_layer out[6], pristine[6];
    memset(pristine, 0x5c, sizeof pristine);
    const struct {
        const char *json;
        uint32_t want[6];
    } CASES[] = {
        {"{\"model_type\": \"gemma2\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": 4096}",
         {4096, 0, 4096, 0, 4096, 0}},
        {"{\"model_type\": \"mistral\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6}",
         {4096, 4096, 4096, 4096, 4096, 4096}},
        {"{\"model_type\": \"mistral\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": "
         "null}",
         {0, 0, 0, 0, 0, 0}},
        {"{\"model_type\": \"qwen2\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": 32, "
         "\"max_window_layers\": 4}",
         {0, 0, 0, 0, 0, 0}},
        {"{\"model_type\": \"qwen2\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": 32, "
         "\"max_window_layers\": 4, \"use_sliding_window\": true}",
         {0, 0, 0, 0, 32, 32}},
        {"{\"model_type\": \"llama\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": 32}",
         {0, 0, 0, 0, 0, 0}},
        {"{\"model_type\": \"qwen2_moe\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": "
         "32, "
         "\"max_window_layers\": 4, \"use_sliding_window\": true}",
         {32, 0, 32, 0, 0, 0}},
        {"{\"model_type\": \"qwen3_moe\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, "
         "\"max_window_layers\": 4, \"use_sliding_window\": true}",
         {4096, 4096, 4096, 4096, 4096, 4096}},
        {"{\"model_type\": \"qwen3_moe\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": "
         "32}",
         {0, 0, 0, 0, 0, 0}},
        {"{\"model_type\": \"modernbert\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"local_attention\": "
         "129}",
         {0, 64, 64, 0, 64, 64}},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        EXPECT_STATUS(pe_config_layers_read(CASES[k].json, strlen(CASES[k].json), 0, 6, out, keys, sizeof keys), PE_OK,
                      CASES[k].json);
        for (int i = 0; i < 6; i++)
            CHECK(out[i].sliding_window == CASES[k].want[i], "case %zu layer %d: window %u, want %u", k, i,
                  out[i].sliding_window, CASES[k].want[i]);
        /* Only ModernBERT's window is two-sided, and only where there is one. */
        const int modernbert = strstr(CASES[k].json, "modernbert") != NULL;
        for (int i = 0; i < 6; i++)
            CHECK(out[i].sliding_bidirectional == (uint32_t)(modernbert && CASES[k].want[i]),
                  "case %zu layer %d: two-sided %u", k, i, out[i].sliding_bidirectional);
    }
    const char *local = "{\"model_type\": \"modernbert\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, "
                        "\"local_attention\": 1}";
    memcpy(out, pristine, sizeof out);
    EXPECT_STATUS(pe_config_layers_read(local, strlen(local), 0, 6, out, keys, sizeof keys), PE_ERR_CONFIG, local);
    CHECK(!strcmp(keys, "local_attention\nmust be a whole number from 2 to 2^32 - 1\n"), "local_attention: keys '%s'",
          keys);
    CHECK(!memcmp(out, pristine, sizeof out), "local_attention: out untouched");
    const char *bad[] = {
        "{\"model_type\": \"gemma2\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": 0}",
        "{\"model_type\": \"phi3\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": 2.5}",
        "{\"model_type\": \"gpt_oss\", \"num_attention_heads\": 8, \"num_hidden_layers\": 6, \"sliding_window\": "
        "\"128\"}",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memcpy(out, pristine, sizeof out);
        EXPECT_STATUS(pe_config_layers_read(bad[k], strlen(bad[k]), 0, 6, out, keys, sizeof keys), PE_ERR_CONFIG,
                      bad[k]);
        CHECK(!strcmp(keys, "sliding_window\nmust be null or a whole number from 1 to 2^32 - 1\n"),
              "bad %zu: keys '%s'", k, keys);
        CHECK(!memcmp(out, pristine, sizeof out), "bad %zu: out untouched", k);
    }
}

/* The query scale (posenc.h, "query scale"): Ministral 3's on every layer from its rope dict, Llama 4's on its NoPE
 * layers (every 4th by default) from Llama4TextConfig's keys or defaults; none elsewhere; a missing or malformed key
 * refused by name with out untouched. */
void test_config_layers_query_scale(void) {
    char keys[1 << 12];
    pe_config_layer out[4], pristine[4];
    memset(pristine, 0x5c, sizeof pristine);
    const struct {
        const char *json;
        double beta, length;
        uint32_t shift;
        int every; /* 1: every layer; 0: layer 3 only (Llama 4's NoPE layer); -1: none */
    } CASES[] = {
        {"{\"model_type\": \"ministral3\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, \"rope_parameters\": "
         "{\"rope_type\": \"yarn\", \"factor\": 16, \"original_max_position_embeddings\": 16384, \"rope_theta\": 1e6, "
         "\"llama_4_scaling_beta\": 0.1}}",
         0.1, 16384, 0, 1},
        {"{\"model_type\": \"llama4_text\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4}", 0.1, 8192, 1, 0},
        {"{\"model_type\": \"llama4_text\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, "
         "\"attn_temperature_tuning\": 4, \"floor_scale\": 31, \"attn_scale\": 0.25}",
         0.25, 31, 1, 0},
        {"{\"model_type\": \"llama4_text\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, "
         "\"attn_temperature_tuning\": false, \"floor_scale\": 0}",
         0, 0, 0, -1},
        {"{\"model_type\": \"llama\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, \"attn_scale\": 0.1}", 0, 0,
         0, -1},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        EXPECT_STATUS(pe_config_layers_read(CASES[k].json, strlen(CASES[k].json), 0, 4, out, keys, sizeof keys), PE_OK,
                      CASES[k].json);
        for (int i = 0; i < 4; i++) {
            const int scaled = CASES[k].every == 1 || (CASES[k].every == 0 && i == 3);
            CHECK(out[i].query_scale_beta == (scaled ? CASES[k].beta : 0) &&
                      out[i].query_scale_length == (scaled ? CASES[k].length : 0) &&
                      out[i].query_scale_shift == (scaled ? CASES[k].shift : 0),
                  "case %zu layer %d: scale %g, %g, %u", k, i, out[i].query_scale_beta, out[i].query_scale_length,
                  out[i].query_scale_shift);
        }
    }
    const struct {
        const char *json, *keys;
    } BAD[] = {
        {"{\"model_type\": \"ministral3\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, \"rope_parameters\": "
         "{\"rope_type\": \"default\", \"rope_theta\": 1e6}}",
         "rope_parameters.llama_4_scaling_beta\n"},
        {"{\"model_type\": \"ministral3\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, \"rope_parameters\": "
         "{\"rope_type\": \"default\", \"llama_4_scaling_beta\": 0.1}}",
         "rope_parameters.original_max_position_embeddings\n"},
        {"{\"model_type\": \"llama4_text\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, \"floor_scale\": 0}",
         "floor_scale\n"},
        {"{\"model_type\": \"llama4_text\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, \"attn_scale\": "
         "null}",
         "attn_scale\n"},
        {"{\"model_type\": \"llama4_text\", \"num_attention_heads\": 8, \"num_hidden_layers\": 4, "
         "\"attn_temperature_tuning\": \"yes\"}",
         "attn_temperature_tuning\n"},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        memcpy(out, pristine, sizeof out);
        EXPECT_STATUS(pe_config_layers_read(BAD[k].json, strlen(BAD[k].json), 0, 4, out, keys, sizeof keys),
                      PE_ERR_CONFIG, BAD[k].json);
        CHECK(!strncmp(keys, BAD[k].keys, strlen(BAD[k].keys)), "bad %zu: keys '%s'", k, keys);
        CHECK(!memcmp(out, pristine, sizeof out), "bad %zu: out untouched", k);
    }
}

/* 30,000 layers take about ten times 3,000's time, not a hundred (each layer read the whole config). */
void test_config_layers_linear(void) {
    size_t small_length, large_length;
    char *small = gemma_layers(3000, &small_length), *large = gemma_layers(30000, &large_length);
    double t_small = 1e9, t_large = 1e9;
    for (int round = 0; round < 3; round++) {
        const double a = every_layer("gemma 3000", small, small_length, 3000, 8);
        const double b = every_layer("gemma 30000", large, large_length, 30000, 8);
        if (a < t_small) t_small = a;
        if (b < t_large) t_large = b;
    }
    printf("  pe_config_layers_read: 3,000 layers %.2f ms, 30,000 layers %.2f ms (CPU)\n", t_small * 1e3,
           t_large * 1e3);
    CHECK(t_large < 30 * t_small + 0.05, "30,000 layers took %.1f times 3,000's", t_large / t_small);
    free(small);
    free(large);
}
