/* config.c: pe_config_read (posenc.h, "Model configs") under ASan: every
 * prefix of a valid config and seeded byte mutations of it (each in a
 * malloc of exactly its size, so a read past the end is caught), nesting past
 * the limit, the refusals and what they leave, and the values of a few
 * configs read field by field. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tests.h"

static const char LLAMA[] =
    "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"num_attention_heads\": 32, \"vocab_size\": 128256,\n"
    " \"max_position_embeddings\": 131072, \"rope_theta\": 500000.0, \"rope_scaling\": {\"factor\": 8.0,\n"
    " \"low_freq_factor\": 1.0, \"high_freq_factor\": 4.0, \"original_max_position_embeddings\": 8192,\n"
    " \"rope_type\": \"llama3\"}, \"name\": \"a \\\"quoted\\\" \\u00e9 name\", \"list\": [1, -2.5e-3, true, null, [], "
    "{}]}";

static const char GEMMA[] =
    "{\"model_type\": \"gemma3_text\", \"hidden_size\": 1152, \"head_dim\": 256, \"num_attention_heads\": 4,"
    " \"rope_parameters\": {\"full_attention\": {\"rope_type\": \"linear\", \"factor\": 8, \"rope_theta\": 1e6},"
    " \"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000}}}";

static const char PHI[] =
    "{\"model_type\": \"phi3\", \"hidden_size\": 64, \"num_attention_heads\": 4, \"max_position_embeddings\": 4096,"
    " \"original_max_position_embeddings\": 512, \"rope_scaling\": {\"type\": \"longrope\","
    " \"short_factor\": [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5], \"long_factor\": [2, 3, 4, 5, 6, 7, 8, 9]}}";

/* Reads `length` bytes of `text` from a malloc of exactly that size. */
static pe_status read_exact(const char *text, size_t length, const char *layer, pe_config *out, char *keys,
                            size_t keys_bytes, double *factors, size_t factors_count) {
    char *copy = malloc(length ? length : 1);
    memcpy(copy, text, length);
    pe_status st = pe_config_read(copy, length, layer, factors, factors_count, out, keys, keys_bytes);
    free(copy);
    return st;
}

static int is_outcome(pe_status st) {
    return st == PE_OK || st == PE_ERR_CONFIG || st == PE_ERR_SCALING || st == PE_ERR_LAYER_TYPE ||
           st == PE_ERR_SCRATCH;
}

void test_config_prefixes_and_mutations(void) {
    const char *const texts[] = {LLAMA, GEMMA, PHI};
    char keys[8 * sizeof LLAMA + 256];
    double factors[sizeof LLAMA];
    pe_config out;
    for (int t = 0; t < 3; t++) {
        size_t n = strlen(texts[t]);
        EXPECT_STATUS(read_exact(texts[t], n, t == 1 ? "full_attention" : NULL, &out, keys, 8 * n + 256, factors, n),
                      PE_OK, "config %d whole", t);
        for (size_t cut = 0; cut < n; cut++) {
            /* Every proper prefix is malformed, and the key buffer stays a string. */
            pe_status st = read_exact(texts[t], cut, NULL, &out, keys, 8 * n + 256, factors, n);
            CHECK(st == PE_ERR_CONFIG, "config %d cut at %zu: status %d", t, cut, (int)st);
            CHECK(memchr(keys, '\0', sizeof keys) != NULL, "keys terminated");
        }
        uint64_t seed = 0x9e3779b97f4a7c15u * (uint64_t)(t + 1);
        printf("config mutations: seed %llu\n", (unsigned long long)seed);
        char *mutated = malloc(n);
        for (int round = 0; round < 3000; round++) {
            memcpy(mutated, texts[t], n);
            for (int k = 0; k < 1 + round % 4; k++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                mutated[(seed >> 33) % n] = (char)(seed >> 13);
            }
            pe_status st =
                read_exact(mutated, n, (round & 1) ? "full_attention" : NULL, &out, keys, 8 * n + 256, factors, n);
            CHECK(is_outcome(st), "mutation %d: status %d", round, (int)st);
        }
        free(mutated);
    }
}

void test_config_refusals(void) {
    char keys[4096];
    double factors[64];
    pe_config out, pristine;
    memset(&pristine, 0xa5, sizeof pristine);
    const size_t n = strlen(LLAMA);
    EXPECT_STATUS(pe_config_read(NULL, n, NULL, factors, 64, &out, keys, sizeof keys), PE_ERR_NULL, "json NULL");
    EXPECT_STATUS(pe_config_read(LLAMA, n, NULL, factors, 64, NULL, keys, sizeof keys), PE_ERR_NULL, "out NULL");
    EXPECT_STATUS(pe_config_read(LLAMA, n, NULL, factors, 64, &out, NULL, sizeof keys), PE_ERR_NULL, "keys NULL");
    EXPECT_STATUS(pe_config_read(LLAMA, n, NULL, NULL, 64, &out, keys, sizeof keys), PE_ERR_NULL, "factors NULL");
    EXPECT_STATUS(pe_config_read(LLAMA, n, NULL, factors, 64, &out, keys, 8 * n + 255), PE_ERR_OUT_SIZE, "keys short");

    static const struct {
        const char *json, *layer;
        pe_status want;
        const char *key; /* the first line of keys */
    } CASES[] = {
        {"[]", NULL, PE_ERR_CONFIG, "(config)"},
        {"{\"a\": 1} x", NULL, PE_ERR_CONFIG, "(config)"},
        {"{\"a\": 01}", NULL, PE_ERR_CONFIG, "(config)"},
        {"{\"a\": \"\x01\"}", NULL, PE_ERR_CONFIG, "(config)"},
        {"{\"model_type\": \"rwkv\"}", NULL, PE_ERR_CONFIG, "model_type"},
        {"{\"model_type\": \"llama\", \"hidden_size\": 64}", NULL, PE_ERR_CONFIG, "hidden_size"},
        {"{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_attention_heads\": 2.5}", NULL, PE_ERR_CONFIG,
         "num_attention_heads"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"linear\"}}", NULL,
         PE_ERR_SCALING, "rope_scaling.factor"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 2, "
         "\"x\": 1}}",
         NULL, PE_ERR_SCALING, "rope_scaling.x"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": 3}", NULL, PE_ERR_SCALING, "rope_scaling"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_wobble\": 1}", NULL, PE_ERR_SCALING, "rope_wobble"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"partial_rotary_factor\": 0.2}", NULL, PE_ERR_SCALING,
         "partial_rotary_factor"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8}", "full_attention", PE_ERR_LAYER_TYPE, ""},
        {GEMMA, NULL, PE_ERR_LAYER_TYPE, "full_attention"},
        {GEMMA, "local", PE_ERR_LAYER_TYPE, "full_attention"},
        {PHI, NULL, PE_ERR_SCRATCH, ""},
        /* a huge head_dim with longrope: the lists that do not match it are named, not the factors' size */
        {"{\"model_type\": \"phi3\", \"head_dim\": 2000000000, \"max_position_embeddings\": 4096, "
         "\"original_max_position_embeddings\": 512, \"rope_scaling\": {\"type\": \"longrope\", "
         "\"short_factor\": [1, 2], \"long_factor\": [1, 2]}}",
         NULL, PE_ERR_SCALING, "rope_scaling.short_factor"},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        memcpy(&out, &pristine, sizeof out);
        pe_status st = read_exact(CASES[k].json, strlen(CASES[k].json), CASES[k].layer, &out, keys, sizeof keys,
                                  factors, CASES[k].want == PE_ERR_SCRATCH ? 15 : 64);
        EXPECT_STATUS(st, CASES[k].want, "case %zu: %s", k, CASES[k].json);
        CHECK(!memcmp(&out, &pristine, sizeof out), "case %zu: out untouched", k);
        size_t line = strcspn(keys, "\n");
        CHECK(strlen(CASES[k].key) == line && !strncmp(keys, CASES[k].key, line), "case %zu: key '%.*s'", k, (int)line,
              keys);
    }
    /* Nesting: PE_CONFIG_MAX_DEPTH levels are read (the object is one), deeper is refused with its own words. */
    static char deep[2 * PE_CONFIG_MAX_DEPTH + 256];
    static char deep_keys[8 * sizeof deep + 256];
    for (int depth = (int)PE_CONFIG_MAX_DEPTH - 3; depth <= (int)PE_CONFIG_MAX_DEPTH + 3; depth++) {
        int at = sprintf(deep, "{\"a\": ");
        for (int d = 1; d < depth; d++) deep[at++] = '[';
        for (int d = 1; d < depth; d++) deep[at++] = ']';
        at += sprintf(deep + at, ", \"model_type\": \"gpt2\", \"n_positions\": 8, \"n_embd\": 8}");
        pe_status st = read_exact(deep, (size_t)at, NULL, &out, deep_keys, sizeof deep_keys, factors, 64);
        EXPECT_STATUS(st, depth <= (int)PE_CONFIG_MAX_DEPTH ? PE_OK : PE_ERR_CONFIG, "nesting %d", depth);
        if (depth > (int)PE_CONFIG_MAX_DEPTH)
            CHECK(strstr(deep_keys, "(config)\nnests objects and arrays deeper than 1000 levels") == deep_keys,
                  "nesting %d: %s", depth, deep_keys);
    }
}

/* keys stays a string when an argument is NULL, and a text past the cap is refused before it is read. */
void test_config_null_and_cap(void) {
    char keys[4096];
    double factors[64];
    pe_config out;
    const size_t n = strlen(LLAMA);
    const char *const jsons[] = {NULL, LLAMA, LLAMA, LLAMA};
    for (int k = 0; k < 4; k++) {
        memset(keys, 'x', sizeof keys);
        pe_status st =
            pe_config_read(jsons[k], n, NULL, k == 3 ? NULL : factors, 64, k == 2 ? NULL : &out, keys, sizeof keys);
        CHECK(k == 1 ? st == PE_OK : st == PE_ERR_NULL, "null case %d: status %d", k, (int)st);
        CHECK(k == 1 || keys[0] == '\0', "null case %d: keys not terminated", k);
    }
    memset(keys, 'x', sizeof keys);
    EXPECT_STATUS(pe_config_read(LLAMA, (size_t)PE_CONFIG_MAX_BYTES + 1, NULL, factors, 64, &out, keys, sizeof keys),
                  PE_ERR_TOO_LARGE, "past PE_CONFIG_MAX_BYTES");
    CHECK(keys[0] == '\0', "cap: keys terminated");
}

/* JSON's own semantics: the last of a repeated key, escapes decoded, keys named as JSON.stringify writes them. */
void test_config_json_semantics(void) {
    char keys[8192];
    double factors[64];
    pe_config c;
    static const struct {
        const char *json;
        pe_status want;
        double base;      /* ROPE: the base read */
        uint32_t head;    /* ROPE: head_dim */
        const char *keys; /* the whole keys text */
    } CASES[] = {
        /* the last of a repeated key wins, at every level, and is listed once */
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"head_dim\": 16, \"x\": 1, \"x\": 2}", PE_OK, 10000, 16, "x\n"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_theta\": 5, \"rope_theta\": 7}", PE_OK, 7, 8, ""},
        {"{\"model_type\": \"mamba\", \"model_type\": \"llama\", \"head_dim\": 8}", PE_OK, 10000, 8, ""},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_wobble\": 1, \"rope_wobble\": 0}", PE_OK, 10000, 8,
         "rope_wobble\n"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_wobble\": 0, \"rope_wobble\": 1}", PE_ERR_SCALING, 0, 0,
         "rope_wobble\nchanges the position encoding and posenc does not read it for this model\n"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"linear\", \"x\": 1}, "
         "\"rope_scaling\": null}",
         PE_OK, 10000, 8, ""},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 2, "
         "\"factor\": 3, \"rope_type\": \"yarn\", \"rope_type\": \"linear\"}}",
         PE_OK, 10000, 8, ""},
        /* escapes decoded in keys and in strings */
        {"{\"model_\\u0074ype\": \"ll\\u0061ma\", \"head_dim\": 8, \"rope\\u005ftheta\": 500000}", PE_OK, 500000, 8,
         ""},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope\\u005fwobble\": 1}", PE_ERR_SCALING, 0, 0,
         "rope_wobble\nchanges the position encoding and posenc does not read it for this model\n"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_theta\": 5, \"rope\\u005ftheta\": 9}", PE_OK, 9, 8, ""},
        /* ignored keys named as JSON.stringify writes them: decoded, controls and quotes escaped */
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"na\\u006de\": 1, \"\\u00e9\": 2, \"a\\nb\": 3, "
         "\"q\\u0022\\/\\u0001\\ud800\\ud83d\\ude00\": 4}",
         PE_OK, 10000, 8, "name\n\xc3\xa9\na\\nb\nq\\\"/\\u0001\\ud800\xf0\x9f\x98\x80\n"},
        /* a refusal inside text_config names the key with its prefix once */
        {"{\"text_config\": {\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": "
         "\"linear\", \"factor\": 2, \"mrope_interleaved\": true}}}",
         PE_ERR_SCALING, 0, 0,
         "text_config.rope_scaling.mrope_interleaved\nis not a key of rope_type 'linear' that posenc knows (HF's "
         "names), so it is refused\n"},
        {"{\"text_config\": {\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": "
         "\"linear\"}}}",
         PE_ERR_SCALING, 0, 0, "text_config.rope_scaling.factor\nmust be given for this rope_type\n"},
        /* strings are strict UTF-8, as HF's open(..., encoding='utf-8') and TextDecoder's fatal mode */
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"x\": \"\xc3\"}", PE_ERR_CONFIG, 0, 0,
         "(config)\nmust be a JSON object: the text of a config.json\n"},
        {"{\"model_type\": \"llama\", \"head_dim\": 8, \"x\": \"\xed\xa0\x80\"}", PE_ERR_CONFIG, 0, 0,
         "(config)\nmust be a JSON object: the text of a config.json\n"},
    };
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        const char *json = CASES[k].json;
        pe_status st = read_exact(json, strlen(json), NULL, &c, keys, sizeof keys, factors, 64);
        EXPECT_STATUS(st, CASES[k].want, "json case %zu: %s", k, json);
        CHECK(!strcmp(keys, CASES[k].keys), "json case %zu: keys '%s', want '%s'", k, keys, CASES[k].keys);
        if (st == PE_OK)
            CHECK(c.kind == PE_CONFIG_ROPE && c.rope.base == CASES[k].base && c.rope.head_dim == CASES[k].head,
                  "json case %zu: base %g head_dim %u", k, c.rope.base, c.rope.head_dim);
    }
    /* the last dict of a repeated rope_scaling, with its own scaling */
    static const char DICTS[] =
        "{\"model_type\": \"llama\", \"head_dim\": 8, \"rope_scaling\": {\"rope_type\": "
        "\"linear\", \"factor\": 2}, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 4}}";
    EXPECT_STATUS(read_exact(DICTS, strlen(DICTS), NULL, &c, keys, sizeof keys, factors, 64), PE_OK, "two dicts");
    CHECK(c.rope.scaling.type == PE_ROPE_SCALING_LINEAR && c.rope.scaling.factor == 4.0, "two dicts: factor %g",
          c.rope.scaling.factor);
}

void test_config_values(void) {
    char keys[4096];
    double factors[64];
    pe_config c;
    EXPECT_STATUS(read_exact(LLAMA, strlen(LLAMA), NULL, &c, keys, sizeof keys, factors, 64), PE_OK, "llama");
    CHECK(c.kind == PE_CONFIG_ROPE && c.rope.head_dim == 128 && c.rope.rotary_dim == 128 && c.rope.base == 500000.0,
          "llama sizes %u %u %g", c.rope.head_dim, c.rope.rotary_dim, c.rope.base);
    CHECK(c.rope.scaling.type == PE_ROPE_SCALING_LLAMA3 && c.rope.scaling.factor == 8.0 &&
              c.rope.scaling.original_max_position_embeddings == 8192 && c.rope.scaling.high_freq_factor == 4.0,
          "llama scaling");
    CHECK(!strcmp(keys, "vocab_size\nname\nlist\n"), "ignored: %s", keys);
    EXPECT_STATUS(read_exact(GEMMA, strlen(GEMMA), "sliding_attention", &c, keys, sizeof keys, factors, 64), PE_OK,
                  "gemma");
    CHECK(c.layer_types == 2 && c.rope.base == 10000.0 && c.rope.scaling.type == PE_ROPE_SCALING_NONE, "gemma sliding");
    EXPECT_STATUS(read_exact(PHI, strlen(PHI), NULL, &c, keys, sizeof keys, factors, 16), PE_OK, "phi");
    CHECK(c.longrope && c.rope.rotary_dim == 16 && c.rope.scaling.original_max_position_embeddings == 512 &&
              c.longrope_factor == 8.0 && c.short_factor == factors && c.long_factor == factors + 8 &&
              factors[1] == 1.5 && factors[15] == 9.0,
          "phi longrope");
    static const char T5[] =
        "{\"model_type\": \"t5\", \"num_heads\": 12, \"d_model\": 768, \"relative_attention_max_distance\": 256}";
    EXPECT_STATUS(read_exact(T5, strlen(T5), NULL, &c, keys, sizeof keys, factors, 64), PE_OK, "t5");
    CHECK(c.kind == PE_CONFIG_RELATIVE && c.num_buckets == 32 && c.max_distance == 256 && c.heads == 12 &&
              c.encoder_decoder,
          "t5");
}
