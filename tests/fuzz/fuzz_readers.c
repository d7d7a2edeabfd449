/* fuzz_readers.c: the targets that read what users hand in. pe_diagnose gets
 * raw cells or a generated table (pairs, or a RoPE cos/sin cache, with a
 * base, scale, first position, padding rows and a linear, YaRN-like,
 * Llama-3-like or per-pair scaling, perhaps transposed, with a few cells
 * overwritten), then its text and JSON are written into buffers of the size
 * asked for, or one byte short. pe_config_read gets the rest of the input as
 * config.json text (fuzz_config_check.c reads it again). Each must return (libFuzzer's -timeout catches a loop
 * that does not), touch nothing outside its buffers, leave its outputs alone
 * when it refuses, NUL-terminate its texts, and print no NaN or infinity in
 * JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

#define MAX_ROWS  320
#define MAX_PAIRS 64
#define TWO_PI    6.283185307179586

/* Frequency k of h pairs at the base, after the scaling picked by the input (in double, with libm). */
static double frequency(double base, uint32_t k, uint32_t h, int scaling, double f, double l0, double extra) {
    const double w = pow(base, -(double)k / h), wavelength = TWO_PI / w;
    switch (scaling) {
    case 1: return w / f; /* linear */
    case 2: {             /* YaRN-like: a ramp over pair indices from 'extra' to 'extra + 8' */
        double s = (k - extra) / 8.0;
        s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
        return w * (1.0 - s) + w / f * s;
    }
    case 3: { /* Llama-3-like: linear in frequency between wavelengths l0 / 4 and l0 */
        if (wavelength < l0 / 4.0) return w;
        if (wavelength > l0) return w / f;
        const double s = (l0 / wavelength - 1.0) / 3.0;
        return (1.0 - s) * w / f + s * w;
    }
    case 4: return w / (1.0 + extra * k); /* per pair */
    default: return w;
    }
}

/* A table the input describes: rows x cols float32, row-major, or (cols, rows) when transposed. */
static void generate(bytes *in, float *t, uint32_t rows, uint32_t pairs, uint32_t *cols_out, int transposed) {
    const int shape = (int)(take(in, 1) % 5); /* pairs interleaved, pairs split, cos halves, sin neighbours, cos once */
    const double base = take_double(in, 10000.0), scale = take_double(in, 1.0);
    const double offset = take(in, 1) < 200 ? (double)take(in, 2) : (double)take_position(in);
    const uint32_t pad = (uint32_t)take(in, 1) % 4;
    const int scaling = (int)(take(in, 1) % 5);
    const double f = take_double(in, 4.0), l0 = take_double(in, 2048.0), extra = take_double(in, 4.0);
    const uint32_t cols = shape == 4 ? pairs : 2 * pairs;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t j = 0; j < cols; j++) {
            uint32_t k;
            int cosine;
            switch (shape) {
            case 0: k = j / 2, cosine = j & 1; break;
            case 1: k = j % pairs, cosine = j >= pairs; break;
            case 2: k = j % pairs, cosine = 1; break;
            case 3: k = j / 2, cosine = 0; break;
            default: k = j, cosine = 1; break;
            }
            const double angle = (offset + r - pad) * frequency(base, k, pairs, scaling, f, l0, extra);
            const float v = r < pad ? 0.0f : (float)(scale * (cosine ? cos(angle) : sin(angle)));
            t[transposed ? (size_t)j * rows + r : (size_t)r * cols + j] = v;
        }
    *cols_out = cols;
}

/* Every "nan" or "inf" in JSON text sits where a value starts: a number that is not one. */
static void json_numbers_finite(const char *s, const char *call) {
    for (const char *p = s; *p; p++)
        if (!strncmp(p, "nan", 3) || !strncmp(p, "inf", 3)) {
            const char *q = p > s && p[-1] == '-' ? p - 1 : p;
            if (q > s && (q[-1] == ':' || q[-1] == ',' || q[-1] == '[')) fail("JSON holds a NaN or an infinity", call);
        }
}

/* Writes d's text or JSON into a buffer of the length asked for (or one byte short): NUL-terminated, cut short. */
static void write_out(bytes *in, const pe_diagnosis *d, int json) {
    const char *call = json ? "pe_diagnosis_json" : "pe_diagnosis_text";
    char probe[1];
    size_t need = 0, again = 0;
    pe_status st = json ? pe_diagnosis_json(d, probe, 1, &need) : pe_diagnosis_text(d, probe, 1, &need);
    if (st != PE_OK || probe[0] != 0) fail("a 1-byte buffer is not the empty text", call);
    const size_t bytes_given = take(in, 1) < 230 ? need + 1 : need;
    guarded g;
    char *out = guard_alloc(&g, bytes_given);
    st = json ? pe_diagnosis_json(d, out, bytes_given, &again) : pe_diagnosis_text(d, out, bytes_given, &again);
    guard_check(&g, call, 0);
    if (st != PE_OK || again != need) fail("the length asked for changed", call);
    if (memchr(out, 0, bytes_given) == NULL || strlen(out) != (need < bytes_given ? need : bytes_given - 1))
        fail("the text is not NUL-terminated at its length", call);
    if (json && need < bytes_given) {
        if (out[0] != '{' || out[need - 1] != '}') fail("JSON is not one object", call);
#ifdef FUZZ_TRACE
        fprintf(stderr, "fuzz_api: %s\n", out);
#endif
        json_numbers_finite(out, call);
    }
    guard_free(&g);
}

void fuzz_diagnose(bytes *in) {
    const char *call = "pe_diagnose";
    const uint8_t how = (uint8_t)take(in, 1);
    const int transposed = how & 1;
    uint32_t rows, cols;
    guarded table_g;
    float *t;
    if (how < 200) {
        rows = 1 + (uint32_t)take(in, 2) % MAX_ROWS;
        const uint32_t pairs = 1 + (uint32_t)take(in, 1) % MAX_PAIRS;
        t = guard_alloc(&table_g, (size_t)rows * 2 * pairs * sizeof(float));
        generate(in, t, rows, pairs, &cols, transposed);
        if (transposed) {
            const uint32_t swap = rows;
            rows = cols, cols = swap;
        }
    } else {
        rows = take_size(in, 64), cols = take_size(in, 64);
        t = guard_alloc(&table_g, (size_t)rows * cols * sizeof(float));
        for (size_t k = 0; k < (size_t)rows * cols; k++) {
            const uint32_t bits = take(in, 1) < 192 ? 0 : take_u32(in);
            float v = (float)(int8_t)take(in, 1) / 64.0f;
            if (bits) memcpy(&v, &bits, sizeof v);
            t[k] = v;
        }
    }
    const size_t cells = (size_t)rows * cols;
    for (int n = (int)(take(in, 1) % 4); n > 0 && cells; n--) { /* a few cells overwritten: noise, NaN, infinity */
        const size_t at = take_u32(in) % cells;
        const uint32_t bits = take_u32(in);
        if (bits & 1) {
            memcpy(&t[at], &bits, sizeof(float));
        } else {
            t[at] += (float)(int8_t)(bits >> 8) * 0x1p-20f;
        }
    }
    const pe_diag_kind kind = (pe_diag_kind)(take(in, 1) % 4); /* 3 is no kind */
    size_t need = 0;
    if (pe_diagnose_scratch_size(rows, cols, &need) != PE_OK || need > MAX_BYTES) need = 64;
    const size_t scratch_bytes = take(in, 1) < 240 ? need : need - 1;
    guarded scratch_g, result_g, bad_g;
    void *scratch = guard_alloc(&scratch_g, scratch_bytes);
    pe_diagnosis *d = guard_alloc(&result_g, sizeof(pe_diagnosis));
    size_t *bad = take(in, 1) < 200 ? guard_alloc(&bad_g, sizeof(size_t)) : (memset(&bad_g, 0, sizeof bad_g), NULL);
    float *before = malloc(cells * sizeof(float) + 1);
    if (!before) abort();
    memcpy(before, t, cells * sizeof(float));
    const pe_status st = pe_diagnose(t, rows, cols, kind, d, bad, scratch, scratch_bytes);
    trace(call, st);
    guard_check(&table_g, call, 0);
    if (memcmp(before, t, cells * sizeof(float)) != 0) fail("the table changed", call);
    guard_check(&scratch_g, call, 0);
    guard_check(&result_g, call, st != PE_OK);
    if (bad) guard_check(&bad_g, call, st != PE_ERR_NOT_FINITE);
    if (st == PE_ERR_NOT_FINITE && bad && (*bad >= cells || isfinite(t[*bad])))
        fail("bad_cell is not a NaN or infinite cell", call);
    if (st == PE_OK) {
        write_out(in, d, 0);
        write_out(in, d, 1);
    }
    free(before);
    guard_free(&table_g);
    guard_free(&scratch_g);
    guard_free(&result_g);
    if (bad) guard_free(&bad_g);
}

/* The text with every plain ASCII character inside strings written as a \u escape: JSON reads it as the
 * same document, so pe_config_read must give the same answer (a second reading of what it returns). */
static char *escaped_copy(const char *json, size_t bytes, size_t *out_bytes) {
    char *out = malloc(6 * bytes + 1);
    if (!out) abort();
    size_t n = 0;
    int in_string = 0;
    for (size_t k = 0; k < bytes; k++) {
        const unsigned char c = (unsigned char)json[k];
        if (!in_string) {
            out[n++] = (char)c;
            in_string = c == '"';
        } else if (c == '\\') { /* an escape as written: its letter, and a \u's four digits */
            out[n++] = (char)c;
            const size_t more = k + 1 < bytes && json[k + 1] == 'u' ? 5 : 1;
            for (size_t m = 0; m < more && k + 1 < bytes; m++) out[n++] = json[++k];
        } else if (c == '"') {
            out[n++] = (char)c;
            in_string = 0;
        } else if (c >= 0x20 && c < 0x80) {
            n += (size_t)sprintf(out + n, "\\u%04x", c);
        } else {
            out[n++] = (char)c;
        }
    }
    *out_bytes = n;
    return out;
}

/* pe_config_read of the escaped text gives what the text gave: status, keys and every field. */
static void same_reading(const char *json, size_t json_bytes, const char *layer, pe_status st, const pe_config *out,
                         const double *factors, uint32_t factors_count, const char *keys) {
    const char *call = "pe_config_read (escaped text)";
    size_t bytes = 0;
    char *text = escaped_copy(json, json_bytes, &bytes);
    char *keys2 = malloc(8 * bytes + 256);
    double *factors2 = malloc(factors_count * sizeof(double) + 8);
    pe_config out2;
    if (!keys2 || !factors2) abort();
    const pe_status st2 = pe_config_read(text, bytes, layer, factors2, factors_count, &out2, keys2, 8 * bytes + 256);
    if (st2 != st) fail("another status for the same document written with escapes", call);
    if (strcmp(keys, keys2) != 0) fail("other keys for the same document written with escapes", call);
    if (st == PE_OK) {
        pe_config a = *out, b = out2;
        if (a.longrope) {
            const size_t half = a.rope.rotary_dim / 2;
            if (memcmp(a.short_factor, b.short_factor, half * sizeof(double)) ||
                memcmp(a.long_factor, b.long_factor, half * sizeof(double)))
                fail("other longrope factors for the same document written with escapes", call);
        }
        a.short_factor = a.long_factor = b.short_factor = b.long_factor = NULL;
        a.rope.scaling.short_factor = a.rope.scaling.long_factor = NULL;
        b.rope.scaling.short_factor = b.rope.scaling.long_factor = NULL;
        if (memcmp(&a, &b, sizeof a) != 0) fail("another reading of the same document written with escapes", call);
    }
    (void)factors;
    free(text);
    free(keys2);
    free(factors2);
}

/* The fields of two readings, the longrope lists compared by value (they live in different factors). */
static int same_config(const pe_config *x, const pe_config *y) {
    pe_config a = *x, b = *y;
    if (a.longrope && b.longrope) {
        const size_t half = a.rope.rotary_dim / 2;
        if (memcmp(a.short_factor, b.short_factor, half * sizeof(double)) ||
            memcmp(a.long_factor, b.long_factor, half * sizeof(double)))
            return 0;
    }
    a.short_factor = a.long_factor = b.short_factor = b.long_factor = NULL;
    a.rope.scaling.short_factor = a.rope.scaling.long_factor = NULL;
    b.rope.scaling.short_factor = b.rope.scaling.long_factor = NULL;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* pe_config_read_types answers each listed layer type (`list`: pe_config_read's lines for no layer type) as
 * pe_config_read does, refuses with the first type's refusal and its index, and writes nothing then. */
static void same_types(const char *json, size_t json_bytes, const char *list) {
    const char *call = "pe_config_read_types";
    uint32_t types = 0;
    for (const char *p = list; *p; p++) types += *p == '\n';
    const size_t keys_bytes = 8 * json_bytes + 256, factors_count = json_bytes / 2 + 2;
    char *names = malloc(strlen(list) + 1), *keys = malloc(keys_bytes), *want = malloc(keys_bytes);
    double *one = malloc(factors_count * sizeof(double));
    guarded out_g, factors_g;
    pe_config *out = guard_alloc(&out_g, types * sizeof *out);
    double *factors = guard_alloc(&factors_g, factors_count * sizeof(double));
    if (!names || !keys || !want || !one) abort();
    uint32_t refused = 0;
    const pe_status st =
        pe_config_read_types(json, json_bytes, factors, factors_count, out, types, keys, keys_bytes, &refused);
    trace(call, st);
    guard_check(&out_g, call, st != PE_OK);
    guard_check(&factors_g, call, st != PE_OK);
    strcpy(names, list);
    pe_status first = PE_OK;
    uint32_t at = types;
    char *name = names;
    for (uint32_t t = 0; t < types && first == PE_OK; t++) {
        char *end = strchr(name, '\n');
        *end = '\0';
        pe_config c;
        const pe_status s = pe_config_read(json, json_bytes, name, one, factors_count, &c, want, keys_bytes);
        if (s != PE_OK) {
            first = s, at = t;
        } else if (st == PE_OK && !same_config(&c, &out[t])) {
            fail("another reading of a layer type than pe_config_read's", call);
        }
        name = end + 1;
    }
    if (st != first) fail("another status than the first layer type's reading", call);
    if (st != PE_OK && (refused != at || strcmp(keys, want) != 0))
        fail("another refusal (keys or index) than the first layer type's reading", call);
    guard_free(&out_g);
    guard_free(&factors_g);
    free(names);
    free(keys);
    free(want);
    free(one);
}

void fuzz_config(bytes *in) {
    static const char *const LAYERS[] = {NULL, "full_attention", "sliding_attention", "", "chunked_attention"};
    const char *call = "pe_config_read";
    const char *layer = LAYERS[take(in, 1) % 5];
    const uint32_t factors_count = (uint32_t)take(in, 1) * 2;
    /* 240 ... 247: a keys buffer too small; 248 ... 251: a NULL json, out, keys or factors; 252: the layer reader
     * on a range (two numbers follow), 253 ... 255: on a NULL json, out or keys (else on every layer) */
    const uint8_t mode = (uint8_t)take(in, 1);
    const int short_keys = mode >= 240 && mode < 248, null_case = mode >= 248 && mode < 252 ? mode - 248 : -1;
    const int layer_mode = mode >= 252 ? mode - 251 : 0;
    const uint32_t range_from = layer_mode == 1 ? take_u32(in) : 0, range_count = layer_mode == 1 ? take_u32(in) : 0;
    /* the rest is the text, copied so that reading past its end is ASan's to see */
    const size_t json_bytes = in->size;
    guarded json_g, factors_g, out_g, keys_g;
    char *json = guard_alloc(&json_g, json_bytes);
    memcpy(json, in->data, json_bytes);
    in->data += json_bytes, in->size = 0;
    const size_t keys_bytes = short_keys ? json_bytes / 2 : 8 * json_bytes + 256;
    double *factors = guard_alloc(&factors_g, factors_count * sizeof(double));
    pe_config *out = guard_alloc(&out_g, sizeof(pe_config));
    char *keys = guard_alloc(&keys_g, keys_bytes);
    const pe_status st = pe_config_read(null_case == 0 ? NULL : json, json_bytes, layer,
                                        null_case == 3 && factors_count ? NULL : factors, factors_count,
                                        null_case == 1 ? NULL : out, null_case == 2 ? NULL : keys, keys_bytes);
    trace(call, st);
    if (null_case >= 0 && (null_case != 3 || factors_count) && st != PE_ERR_NULL)
        fail("a NULL argument was not refused", call);
    guard_check(&json_g, call, 0);
    guard_check(&factors_g, call, st != PE_OK);
    guard_check(&out_g, call, st != PE_OK);
    guard_check(&keys_g, call, null_case == 2);
    if (null_case != 2 && keys_bytes && memchr(keys, 0, keys_bytes) == NULL) fail("keys is not NUL-terminated", call);
    if (st == PE_OK && out->kind == PE_CONFIG_ROPE && out->longrope) {
        const double *end = factors + factors_count;
        if (out->short_factor && (out->short_factor < factors || out->short_factor >= end))
            fail("short_factor points outside the factors given", call);
        if (out->long_factor && (out->long_factor < factors || out->long_factor >= end))
            fail("long_factor points outside the factors given", call);
    }
    if (st == PE_OK && !(out->kind >= PE_CONFIG_ROPE && out->kind <= PE_CONFIG_RELATIVE)) fail("no kind", call);
    if (null_case < 0 && !short_keys) check_json_verdict(json, json_bytes, st, keys);
    if (null_case < 0 && !short_keys) check_config_meaning(json, json_bytes, layer, st, out);
    if (null_case < 0 && !short_keys && json_bytes <= 4096) {
        same_reading(json, json_bytes, layer, st, out, factors, factors_count, keys);
        check_layers(json, json_bytes, layer_mode, range_from, range_count);
        if (!layer && st == PE_ERR_LAYER_TYPE && keys[0]) same_types(json, json_bytes, keys);
    }
    guard_free(&json_g);
    guard_free(&factors_g);
    guard_free(&out_g);
    guard_free(&keys_g);
}
