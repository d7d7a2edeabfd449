/* config_command.c: `posenc config FILE`, what every layer of a model uses,
 * read from its config.json by the core (pe_config_layers_read, then
 * pe_config_read once for each layer type); src/js/cli/config.js prints
 * the same bytes. Layers with the same description are printed together. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config_option.h"
#include "posenc.h"
#include "read_input.h"

const char CONFIG_USAGE[] =
    "usage: posenc config FILE [options]\n"
    "\n"
    "Prints what every layer of the model whose config.json is FILE uses for positions, read as HF\n"
    "transformers reads the file: RoPE (base, head and rotary dims, layout, scaling), ALiBi, relative\n"
    "buckets, learned or sinusoidal tables, or none (NoPE attention, or no attention: Mamba, linear\n"
    "attention); each layer's kind and key/value heads; and the keys that change nothing.\n"
    "\n"
    "  --format F    text (layers with one description on one line) or json (one object a layer)\n" CLI_COMMON_HELP "\n"
    "examples:\n"
    "  posenc config config.json\n"
    "  posenc config gemma3.json --format json --output layers.json\n";

const char *const CONFIG_OPTIONS[] = {"--format", "--output", NULL};

/* A growing text buffer (one line, one description). */
typedef struct text {
    char *at;
    size_t length, cap;
    int failed;
} text;

static void put(text *t, const char *format, ...) {
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    int n = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (n < 0 || t->failed) {
        t->failed = 1;
        va_end(again);
        return;
    }
    if (t->length + (size_t)n + 1 > t->cap) {
        size_t cap = 2 * (t->length + (size_t)n + 1);
        char *grown = realloc(t->at, cap);
        if (!grown) {
            t->failed = 1;
            va_end(again);
            return;
        }
        t->at = grown;
        t->cap = cap;
    }
    vsnprintf(t->at + t->length, (size_t)n + 1, format, again);
    va_end(again);
    t->length += (size_t)n;
}

/* A number as both CLIs print it: whole numbers plainly, others with 17 significant digits. */
static void number(text *t, double v) {
    if (v == 0) v = 0; /* -0 as JavaScript's String(-0) prints it: "0" (a config's rope_theta -0) */
    if (v == (double)(long long)v && v > -1e15 && v < 1e15) {
        put(t, "%.0f", v);
        return;
    }
    char buffer[64];
    cli_format_exp(buffer, v, 16);
    put(t, "%s", buffer);
}

/* The layer's query scale (posenc.h): json "query_scale":{"beta":B,"length":L,"shift":S}, text the factor as a
 * formula in the position p, " query_scale 1 + B ln(1 + floor((p + S) / L));" (floor(p / L) when S is 0). */
static void query_scale(text *t, int json, const pe_config_layer *l) {
    put(t, json ? ",\"query_scale\":{\"beta\":" : " query_scale 1 + ");
    number(t, l->query_scale_beta);
    if (json) {
        put(t, ",\"length\":");
        number(t, l->query_scale_length);
        put(t, ",\"shift\":%u}", l->query_scale_shift);
        return;
    }
    if (l->query_scale_shift)
        put(t, " ln(1 + floor((p + %u) / ", l->query_scale_shift);
    else
        put(t, " ln(1 + floor(p / ");
    number(t, l->query_scale_length);
    put(t, "));");
}

/* One field: text "name value" after a space, json "name":value after a comma. */
static void field(text *t, int json, const char *name, double v) {
    put(t, json ? ",\"%s\":" : " %s ", name);
    number(t, v);
}
static void word(text *t, int json, const char *name, const char *v) {
    put(t, json ? ",\"%s\":\"%s\"" : " %s %s", name, v);
}

static void rope_fields(text *t, int json, const pe_config *c) {
    const pe_rotary *r = &c->rope;
    static const char *const SCALINGS[] = {"default", "linear", "dynamic", "yarn", "llama3"};
    const pe_rope_scaling *s = &r->scaling;
    field(t, json, "base", r->base);
    field(t, json, "head_dim", r->head_dim);
    field(t, json, "rotary_dim", r->rotary_dim);
    word(t, json, "layout", r->layout == PE_LAYOUT_INTERLEAVED ? "interleaved" : "half");
    word(t, json, "scaling", c->longrope ? "longrope" : SCALINGS[s->type]);
    if (c->longrope) {
        field(t, json, "factor", c->longrope_factor);
        field(t, json, "original_max_position_embeddings", s->original_max_position_embeddings);
        if (c->longrope_attention_factor != 0) field(t, json, "attention_factor", c->longrope_attention_factor);
    } else if (s->type != PE_ROPE_SCALING_NONE) {
        field(t, json, "factor", s->factor);
        if (s->type != PE_ROPE_SCALING_LINEAR)
            field(t, json, "original_max_position_embeddings", s->original_max_position_embeddings);
        if (s->type == PE_ROPE_SCALING_LLAMA3) {
            field(t, json, "low_freq_factor", s->low_freq_factor);
            field(t, json, "high_freq_factor", s->high_freq_factor);
        }
        if (s->type == PE_ROPE_SCALING_YARN) {
            const char *const names[] = {"beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim"};
            const double values[] = {s->beta_fast, s->beta_slow, s->attention_factor, s->mscale, s->mscale_all_dim};
            for (int k = 0; k < 5; k++)
                if (values[k] != 0) field(t, json, names[k], values[k]);
            if (s->no_truncate) put(t, json ? ",\"truncate\":false" : " truncate false");
        }
    }
    if (c->mrope_sections) {
        put(t, json ? ",\"mrope_section\":[" : " mrope_section ");
        for (uint32_t k = 0; k < c->mrope_sections; k++) put(t, "%s%u", k ? "," : "", c->mrope_section[k]);
        if (json) put(t, "]");
        if (c->mrope_interleaved) put(t, json ? ",\"mrope_interleaved\":true" : " mrope_interleaved true");
    }
}

/* The scheme part of a layer's description. */
static void scheme_fields(text *t, int json, const pe_config_layer *l, const pe_config *c) {
    if (l->positions != PE_LAYER_CONFIG) {
        word(t, json, "scheme", "none");
        word(t, json, "none", l->positions == PE_LAYER_NOPE ? "nope" : "no-attention");
        return;
    }
    static const char *const KINDS[] = {"", "rope", "alibi", "sinusoidal", "learned", "relative", "none"};
    word(t, json, "scheme", KINDS[c->kind]);
    if (c->kind == PE_CONFIG_ROPE) rope_fields(t, json, c);
    if (c->kind == PE_CONFIG_ALIBI) field(t, json, "heads", c->heads);
    if (c->kind == PE_CONFIG_RELATIVE && c->shaw) {
        word(t, json, "relative", "shaw");
        field(t, json, "max_relative", c->max_relative);
    } else if (c->kind == PE_CONFIG_RELATIVE) {
        word(t, json, "relative", "t5");
        field(t, json, "buckets", c->num_buckets);
        field(t, json, "max_distance", c->max_distance);
    }
    if (c->kind == PE_CONFIG_LEARNED || c->kind == PE_CONFIG_SINUSOIDAL) {
        field(t, json, "dim", c->hidden_size);
        field(t, json, "rows", c->max_positions);
        field(t, json, "offset", c->position_offset);
    }
    if (c->kind == PE_CONFIG_SINUSOIDAL) {
        word(t, json, "layout", c->layout == PE_LAYOUT_INTERLEAVED ? "interleaved" : "split");
        word(t, json, "frequencies", c->frequencies == PE_FREQ_PAPER ? "paper" : "tensor2tensor");
    }
}

/* "0-3,5,7-9" of the sorted indices. */
static void ranges(text *t, const uint32_t *list, uint32_t n) {
    for (uint32_t k = 0; k < n;) {
        uint32_t end = k;
        while (end + 1 < n && list[end + 1] == list[end] + 1) end++;
        put(t, "%s%u", k ? "," : "", list[k]);
        if (end > k) put(t, "-%u", list[end]);
        k = end + 1;
    }
}

/* qsort's view of layer indices ordered by their description, then by index: equal descriptions side by side,
 * each group in layer order (n log n, where comparing every pair would be quadratic in the layers). */
static const text *sort_descs;
static int by_desc(const void *a, const void *b) {
    const uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
    int c = strcmp(sort_descs[i].at ? sort_descs[i].at : "", sort_descs[k].at ? sort_descs[k].at : "");
    return c ? c : (i > k) - (i < k);
}
/* Groups (start, end in the sorted list) by their first layer. */
static const uint32_t *sort_order;
static int by_first(const void *a, const void *b) {
    const uint32_t i = sort_order[((const uint32_t *)a)[0]], k = sort_order[((const uint32_t *)b)[0]];
    return (i > k) - (i < k);
}
/* Layer indices ordered by layer type, for finding a layer's type among the distinct ones. */
static const pe_config_layer *sort_layers;
static int by_type(const void *a, const void *b) {
    return strcmp(sort_layers[*(const uint32_t *)a].layer_type, sort_layers[*(const uint32_t *)b].layer_type);
}

/* The text lines: layers with one description together, in the order of each one's first layer. */
static int print_groups(FILE *out, const text *descs, uint32_t n, const char *ignored, char **error) {
    uint32_t *order = malloc((size_t)n * sizeof *order), *groups = malloc(2 * (size_t)n * sizeof *groups);
    int code = 0;
    if (!order || !groups) code = cli_fail(error, 1, "out of memory");
    uint32_t count = 0;
    if (!code) {
        for (uint32_t i = 0; i < n; i++) order[i] = i;
        sort_descs = descs;
        qsort(order, n, sizeof *order, by_desc);
        for (uint32_t k = 0; k < n; k++) {
            const char *a = k ? descs[order[k - 1]].at : NULL, *b = descs[order[k]].at;
            if (k && !strcmp(a ? a : "", b ? b : "")) {
                groups[2 * (count - 1) + 1] = k + 1;
                continue;
            }
            groups[2 * count] = k;
            groups[2 * count + 1] = k + 1;
            count++;
        }
        sort_order = order;
        qsort(groups, count, 2 * sizeof *groups, by_first);
    }
    for (uint32_t g = 0; !code && g < count; g++) {
        const uint32_t from = groups[2 * g], to = groups[2 * g + 1];
        text line = {0};
        put(&line, "layer%s ", to - from > 1 ? "s" : "");
        ranges(&line, order + from, to - from);
        const text *d = &descs[order[from]];
        fprintf(out, "%s: %s\n", line.at ? line.at : "", d->at ? d->at : "");
        free(line.at);
    }
    if (!code) fprintf(out, "ignored: %s\n", ignored ? ignored : "");
    free(order);
    free(groups);
    return code;
}

/* The layer types the config lists (its dict's keys, in text order) and each one's scheme text. */
typedef struct typed {
    char *names;       /* the core's list, its newlines made NULs */
    uint32_t count;    /* names listed (0: one RoPE for all layers) */
    const char **name; /* name[k] */
    uint32_t *sorted;  /* indices ordered by name, then index */
    uint32_t *primary; /* primary[k]: the first index listing name[k] (the one read) */
    text *scheme;      /* scheme[k] of each primary */
} typed;

static const char *const *sort_names;
static int by_name(const void *a, const void *b) {
    const uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
    const int c = strcmp(sort_names[i], sort_names[k]);
    return c ? c : (i > k) - (i < k);
}

/* The primary index of layer type `name` in t, or -1 when the config does not list it. */
static long typed_find(const typed *t, const char *name) {
    uint32_t lo = 0, hi = t->count;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(t->name[t->sorted[mid]], name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->count && !strcmp(t->name[t->sorted[lo]], name) ? (long)t->primary[t->sorted[lo]] : -1;
}

static void typed_free(typed *t) {
    for (uint32_t k = 0; t->scheme && k < t->count; k++) free(t->scheme[k].at);
    free(t->scheme);
    free(t->names);
    free(t->name);
    free(t->sorted);
    free(t->primary);
}

/* What fromConfig (src/js/runtime/config-read.js) reads before the layers, in its order, so that both CLIs meet the
 * same refusal first: the config for no layer type, then each layer type it lists, in the list's order. */
static int read_types(const char *json, size_t bytes, int as_json, typed *t, char **error) {
    memset(t, 0, sizeof *t);
    char *keys = malloc(8 * bytes + 256);
    double *factors = malloc((bytes / 2 + 2) * sizeof *factors);
    pe_config whole;
    const pe_status st = keys && factors
                             ? pe_config_read(json, bytes, NULL, factors, bytes / 2 + 2, &whole, keys, 8 * bytes + 256)
                             : PE_ERR_NULL;
    free(factors);
    int code = 0;
    if (st == PE_ERR_NULL) {
        code = cli_fail(error, 1, "out of memory");
    } else if (st != PE_OK && !(st == PE_ERR_LAYER_TYPE && keys[0])) {
        cli_config cfg; /* the refusal in the words `rope --config` and fromConfig use */
        code = cli_interpret_config(json, bytes, NULL, &cfg, error);
        cli_free_config(&cfg);
        if (!code) code = cli_fail(error, 1, "%s", pe_status_str(st));
    }
    if (code || st == PE_OK) {
        free(keys);
        return code;
    }
    t->names = keys;
    for (const char *p = keys; *p; p++) t->count += *p == '\n';
    t->name = malloc(t->count * sizeof *t->name);
    t->sorted = malloc(t->count * sizeof *t->sorted);
    t->primary = malloc(t->count * sizeof *t->primary);
    t->scheme = calloc(t->count, sizeof *t->scheme);
    if (!t->name || !t->sorted || !t->primary || !t->scheme) return cli_fail(error, 1, "out of memory");
    char *p = keys;
    for (uint32_t k = 0; k < t->count; k++) {
        char *end = strchr(p, '\n');
        *end = '\0';
        t->name[k] = p;
        t->sorted[k] = k;
        p = end + 1;
    }
    sort_names = t->name;
    qsort(t->sorted, t->count, sizeof *t->sorted, by_name);
    for (uint32_t j = 0; j < t->count; j++) {
        const uint32_t k = t->sorted[j];
        t->primary[k] = j && !strcmp(t->name[t->sorted[j - 1]], t->name[k]) ? t->primary[t->sorted[j - 1]] : k;
    }
    /* Every type in one reading (pe_config_read_types); a refusal is worded as `rope --config --layer-type` words
     * that type's, which reads the config for it alone. */
    pe_config *configs = malloc(t->count * sizeof *configs);
    double *all_factors = malloc((bytes / 2 + 2) * sizeof *all_factors);
    char *lines = malloc(8 * bytes + 256);
    uint32_t refused = t->count;
    const pe_status got = configs && all_factors && lines
                              ? pe_config_read_types(json, bytes, all_factors, bytes / 2 + 2, configs, t->count, lines,
                                                     8 * bytes + 256, &refused)
                              : PE_ERR_NULL;
    if (got == PE_ERR_NULL) {
        code = cli_fail(error, 1, "out of memory");
    } else if (got != PE_OK) {
        cli_config cfg = {0};
        code = cli_interpret_config(json, bytes, refused < t->count ? t->name[refused] : NULL, &cfg, error);
        cli_free_config(&cfg);
        if (!code) code = cli_fail(error, 1, "%s", pe_status_str(got));
    }
    const pe_config_layer with_positions = {.positions = PE_LAYER_CONFIG};
    for (uint32_t k = 0; !code && k < t->count; k++)
        if (t->primary[k] == k) scheme_fields(&t->scheme[k], as_json, &with_positions, &configs[k]);
    free(configs);
    free(all_factors);
    free(lines);
    return code;
}

/* The refusal of the per-layer answer in the CLIs' words. */
static int refuse(pe_status st, char *keys, char **error) {
    if ((st == PE_ERR_CONFIG || st == PE_ERR_TOO_LARGE) && keys && strchr(keys, '\n')) {
        char *reason = strchr(keys, '\n');
        *reason++ = '\0';
        if (strchr(reason, '\n')) *strchr(reason, '\n') = '\0';
        return cli_fail(error, 1, "config key '%s' %s", keys, reason);
    }
    return cli_fail(error, 1, "%s", keys ? pe_status_str(st) : "out of memory");
}

int cli_run_config(const cli_given *given, FILE *out, char **error) {
    static const char *const FORMATS[] = {"text", "json", NULL};
    cli_format format;
    int code = cli_format_option(given, FORMATS, "text or json", &format, error);
    if (code) return code;
    const char *path = cli_value(given, "FILE");
    if (!path) return cli_fail(error, 2, "config needs a FILE: a model's config.json (see posenc config --help)");
    size_t bytes = 0;
    char *json = NULL;
    if ((code = cli_read_input("config", "a config.json", path, CLI_MAX_CONFIG_BYTES, &json, &bytes, error)))
        return code;
    const int as_json = format == FORMAT_JSON;
    typed types;
    if ((code = read_types(json, bytes, as_json, &types, error))) {
        typed_free(&types);
        free(json);
        return code;
    }
    char *keys = malloc(8 * bytes + 256);
    pe_config_layer first;
    pe_status st = keys ? pe_config_layer_read(json, bytes, 0, &first, keys, 8 * bytes + 256) : PE_ERR_NULL;
    if (st != PE_OK) {
        code = refuse(st, keys, error);
        typed_free(&types);
        free(keys);
        free(json);
        return code;
    }
    /* Every layer in one reading (at most PE_CONFIG_MAX_LAYERS), then each distinct layer type's positions read
     * once, in the order of its first layer (so the first refusal is the first layer's, as layer by layer). */
    const uint32_t n = first.layers;
    pe_config_layer *layers = malloc((size_t)n * sizeof *layers);
    uint32_t *by_kind = malloc((size_t)n * sizeof *by_kind), *slot = malloc((size_t)n * sizeof *slot);
    text *descs = calloc(n, sizeof *descs), *schemes = calloc(n, sizeof *schemes);
    char *done = calloc(n, 1);
    text ignored = {0};
    int have_ignored = 0;
    if (!layers || !by_kind || !slot || !descs || !schemes || !done) code = cli_fail(error, 1, "out of memory");
    if (!code && (st = pe_config_layers_read(json, bytes, 0, n, layers, keys, 8 * bytes + 256)) != PE_OK)
        code = refuse(st, keys, error);
    if (!code) {
        /* slot[i]: the first layer (in type order) of layer i's type, the one whose scheme text is kept. */
        for (uint32_t i = 0; i < n; i++) by_kind[i] = i;
        sort_layers = layers;
        qsort(by_kind, n, sizeof *by_kind, by_type);
        for (uint32_t k = 0; k < n; k++)
            slot[by_kind[k]] = k && !by_type(&by_kind[k - 1], &by_kind[k]) ? slot[by_kind[k - 1]] : by_kind[k];
    }
    for (uint32_t i = 0; !code && i < n; i++) {
        const pe_config_layer *l = &layers[i];
        text *t = &descs[i];
        if (as_json)
            put(t, "\"kind\":\"%s\",\"kv_heads\":%u", l->kind, l->kv_heads);
        else
            put(t, "%s; kv_heads %u;", l->kind, l->kv_heads);
        if (l->attention_chunk)
            put(t, as_json ? ",\"attention_chunk\":%u" : " attention_chunk %u;", l->attention_chunk);
        if (l->sliding_window) put(t, as_json ? ",\"sliding_window\":%u" : " sliding_window %u;", l->sliding_window);
        if (l->sliding_bidirectional) put(t, as_json ? ",\"sliding_bidirectional\":1" : " sliding_bidirectional 1;");
        if (l->query_scale_length > 0) query_scale(t, as_json, l);
        if (l->positions != PE_LAYER_CONFIG) {
            scheme_fields(t, as_json, l, NULL);
            continue;
        }
        text *scheme = &schemes[slot[i]];
        const long listed = l->layer_type[0] ? typed_find(&types, l->layer_type) : -1;
        if (!done[slot[i]] && listed >= 0) {
            put(scheme, "%s", types.scheme[listed].at ? types.scheme[listed].at : "");
            done[slot[i]] = 1;
        }
        const int fresh = !done[slot[i]];
        if (fresh || !have_ignored) {
            /* a layer type the config does not list (its refusal), or the first layer's when there are none */
            cli_config cfg = {0};
            code = cli_interpret_config(json, bytes, l->layer_type[0] ? l->layer_type : NULL, &cfg, error);
            if (!code && !have_ignored) {
                /* The keys that config changes nothing for: the read of the first layer with positions. */
                char *list = malloc(8 * bytes + 256);
                pe_config c;
                if (list && pe_config_read(json, bytes, l->layer_type[0] ? l->layer_type : NULL, cfg.factors,
                                           bytes / 2 + 2, &c, list, 8 * bytes + 256) == PE_OK) {
                    for (char *p = list; *p;) {
                        char *end = strchr(p, '\n');
                        if (!end) break;
                        *end = '\0';
                        put(&ignored, as_json ? "%s\"%s\"" : "%s%s", ignored.length ? (as_json ? "," : ", ") : "", p);
                        p = end + 1;
                    }
                }
                have_ignored = 1; /* tried once, at the first layer with positions, as the JS CLI does */
                free(list);
            }
            if (!code && fresh) scheme_fields(scheme, as_json, l, &cfg.config);
            cli_free_config(&cfg);
            done[slot[i]] = 1;
        }
        if (!code) put(t, "%s", scheme->at ? scheme->at : "");
    }
    if (!code) {
        if (as_json) {
            fputs("{\n  \"layers\": [\n", out);
            for (uint32_t i = 0; i < n; i++)
                fprintf(out, "    {\"index\":%u,%s}%s\n", i, descs[i].at ? descs[i].at : "", i + 1 < n ? "," : "");
            fprintf(out, "  ],\n  \"ignored\": [%s]\n}\n", ignored.at ? ignored.at : "");
        } else {
            code = print_groups(out, descs, n, ignored.at, error);
        }
    }
    typed_free(&types);
    for (uint32_t i = 0; schemes && i < n; i++) free(schemes[i].at);
    free(schemes);
    free(layers);
    free(by_kind);
    free(slot);
    free(done);
    for (uint32_t i = 0; descs && i < n; i++) free(descs[i].at);
    free(descs);
    free(ignored.at);
    free(keys);
    free(json);
    return code;
}
