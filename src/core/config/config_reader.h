/* config_reader.h: what the parts of pe_config_read share: the document, the
 * object read as the config (the top level or text_config), which keys were
 * read (so the rest can be listed as ignored), and the `keys` text refusals
 * and lists are written into. Internal to src/core/config. */
#ifndef POSENC_CONFIG_READER_H
#define POSENC_CONFIG_READER_H

#include "../posenc.h"
#include "json.h"

#define PE_CONFIG_MAX_USED 96

/* A RoPE base key's range (posenc.h's 1 < base <= PE_MAX_BASE): HF computes inv_freq = 1 / base^(2i/d) from
 * whatever the config says, so 0 gives an infinite frequency, a negative base NaN, and one below 1 frequencies that
 * grow with i; none is a model, all are typos or a wrong key. */
#define PE_CONFIG_BASE_RANGE                                                                               \
    "must be above 1 and at most 1e300: RoPE's frequencies are base^(-2i/d), infinite at 0, NaN below 0, " \
    "rising below 1"

#define PE_CONFIG_MAX_INDEXES 8 /* objects whose duplicate keys are found through a hash index */

/* Which member of an object is the last of its key (a duplicate key's earlier
 * members are not part of the object, as in JSON.parse and Python's json): an
 * open-addressing table of (key offset, member index + 1) pairs, kept at the
 * top of the caller's `keys` buffer while the read runs. */
typedef struct pe_config_index {
    size_t object;
    uint32_t *slots; /* 2 * (mask + 1) numbers */
    uint32_t mask;
} pe_config_index;

/* A walk over the members of an object that skips the ones a later duplicate hides. */
typedef struct pe_config_iter {
    size_t object, cursor;
    uint32_t index;
    const pe_config_index *table; /* NULL: duplicates found by a scan */
} pe_config_iter;

typedef struct pe_config_reader {
    pe_json j;
    size_t root, cfg;        /* offsets of the top-level object and of the config read */
    const char *prefix;      /* "" or "text_config.": names keys of cfg in messages */
    pe_json_span model_type; /* its bytes; length 0 when absent */
    const char *heads_key;   /* the key pe_config_read_sizes took the head count from ("n_head" when none) */
    struct {
        size_t object;
        const char *name;
    } used[PE_CONFIG_MAX_USED]; /* keys read: (object offset, name) */
    int used_count;
    char *keys; /* the caller's text buffer (posenc.h) */
    size_t keys_bytes, keys_length;
    size_t scratch_low; /* keys[scratch_low ...] holds the indexes; lines stay below */
    pe_config_index indexes[PE_CONFIG_MAX_INDEXES];
    int index_count;
    int overflow; /* a line did not fit: PE_ERR_OUT_SIZE */
    /* longrope's short_factor and long_factor lists (offsets), checked but written into the caller's
     * factors only once the whole config is accepted: a refusal writes nothing but keys */
    size_t factor_lists[2];
    uint32_t factor_half; /* numbers per list; 0 when the config has none */
    /* Facts of the document that every layer type's reading shares (pe_config_read_types keeps them): */
    size_t dict_seen;      /* the RoPE dict whose members were counted (0: none yet) */
    uint32_t dict_objects; /* its live members */
    int dict_all;          /* 1 when each is an object (keyed by layer type) */
    size_t types_dict;     /* a dict keyed by layer type, once found (0: none) */
    int batch;             /* 1 inside pe_config_read_types: the unused keys leave out the other types' entries */
    int candidates_ready;  /* candidate[] below was collected */
    int candidate_count;   /* the first top-level position keys that are on and not HF-ignored, in text order: */
    pe_json_span candidate[PE_CONFIG_MAX_USED + 1]; /* one more than keys a reading marks, so one is always unread */
} pe_config_reader;

void pe_config_reader_init(pe_config_reader *r, const char *json, size_t json_bytes, char *keys, size_t keys_bytes);
/* pe_config_reader_init, then the JSON checked, the dict (text_config's) and model type found (config.c). */
pe_status pe_config_open(pe_config_reader *r, const char *json, size_t json_bytes, char *keys, size_t keys_bytes);

/* Member `name` of `object`, marked as read whether or not it is present; 1 when present and not null. */
int pe_config_get(pe_config_reader *r, size_t object, const char *name, size_t *value);

/* pe_config_get without the mark: through the object's index, so a lookup costs the same whatever its size. */
int pe_config_find(pe_config_reader *r, size_t object, const char *name, size_t *value);

/* The live members of `object` (the last of each key), in text order. */
void pe_config_iter_init(pe_config_reader *r, pe_config_iter *it, size_t object);
int pe_config_next(pe_config_reader *r, pe_config_iter *it, pe_json_span *key, size_t *value);

/* 1 when key of `object` was read. */
int pe_config_used(const pe_config_reader *r, size_t object, pe_json_span key);

/* An optional whole number of cfg (1 ... 2^32 - 1), `fallback` when absent; refused when not one. */
pe_status pe_config_count(pe_config_reader *r, size_t object, const char *name, uint32_t fallback, uint32_t *value);

/* heads, hidden_size and max_positions under any of their names. */
pe_status pe_config_read_sizes(pe_config_reader *r, pe_config *c);

/* Writes "prefix + key\nreason" into keys and returns status. */
pe_status pe_config_refuse(pe_config_reader *r, pe_status status, const char *key, const char *reason);
pe_status pe_config_refuse_span(pe_config_reader *r, pe_status status, pe_json_span key, const char *reason);

/* Appends one line to keys (prefix, then the bytes). */
void pe_config_write_line(pe_config_reader *r, const char *prefix, const char *bytes, size_t length);
/* Appends one line to keys: prefix, then the key in its canonical form (json.h). */
void pe_config_write_key(pe_config_reader *r, const char *prefix, pe_json_span key);

/* Lists every key not read, one dotted name per line. */
void pe_config_list_unused(pe_config_reader *r);

/* 1 when model_type is one of the NULL-terminated types. */
int pe_config_type_in(const pe_config_reader *r, const char *const *types);

/* config_rope.c: 1 when model_type is a RoPE model's; the RoPE reading. */
int pe_config_rope_type(const pe_config_reader *r);
pe_status pe_config_read_rope(pe_config_reader *r, const char *layer_type, double *factors, size_t factors_count,
                              pe_config *c);
/* config_defaults.c: the config class's default for a key the config leaves out, by model_type
 * (Gemma 3's heads, head_dim and rope_theta, ...): 1 and *value when there is one. */
int pe_config_model_default(const pe_config_reader *r, const char *key, double *value);
/* 1 when the RoPE base differs by layer type through top-level keys: Gemma 3 (rope_local_base_freq,
 * given or its default) and ModernBERT (global_rope_theta, local_rope_theta). */
int pe_config_split_bases(pe_config_reader *r);
/* The base of such a model's full_attention (local 0) or sliding_attention (local 1) layers; *base
 * holds rope_theta's value (or 10000) on entry. */
pe_status pe_config_split_base(pe_config_reader *r, int local, int theta_given, double *base);

/* config_layers.c: marks the keys the per-layer answer reads as used; 1 when HF's class for the
 * model never reads `key` (listed as ignored, not refused). */
void pe_config_mark_layer_keys(pe_config_reader *r);
int pe_config_hf_ignores(const pe_config_reader *r, pe_json_span key);

/* Writes the lists longrope checked into factors (2 * factor_half numbers): the last step of an accepted read. */
void pe_config_write_factors(const pe_config_reader *r, double *factors);

#endif
