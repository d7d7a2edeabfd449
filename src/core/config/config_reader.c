/* config_reader.c: the shared plumbing of pe_config_read (config_reader.h). */
#include "config_reader.h"

#include <string.h>

static const pe_config_index *index_of(pe_config_reader *r, size_t object);

void pe_config_reader_init(pe_config_reader *r, const char *json, size_t json_bytes, char *keys, size_t keys_bytes) {
    memset(r, 0, sizeof *r);
    r->j.text = json;
    r->j.bytes = json_bytes;
    r->root = r->cfg = pe_json_space(&r->j, 0);
    r->prefix = "";
    r->keys = keys;
    r->keys_bytes = keys_bytes;
    r->scratch_low = keys_bytes;
    keys[0] = '\0';
}

/* The index of `object`, built on first use; NULL when it does not fit (then duplicates are found by a scan). */
static const pe_config_index *index_of(pe_config_reader *r, size_t object) {
    object = pe_json_space(&r->j, object);
    for (int k = 0; k < r->index_count; k++)
        if (r->indexes[k].object == object) return &r->indexes[k];
    if (r->index_count == PE_CONFIG_MAX_INDEXES) return NULL;
    size_t cursor = 0, value, count = 0;
    pe_json_span key;
    while (pe_json_member(&r->j, object, &cursor, &key, &value)) count++;
    size_t slots = 8;
    while (slots < count + count / 2 + 1) slots *= 2;
    /* Room for the table, aligned, above the lines written so far and a reserve for refusals. */
    size_t bytes = 2 * slots * sizeof(uint32_t), top = r->scratch_low & ~(size_t)3;
    if (top < bytes || top - bytes < r->keys_length + 1024) return NULL;
    pe_config_index *x = &r->indexes[r->index_count++];
    r->scratch_low = top - bytes;
    x->object = object;
    x->slots = (uint32_t *)(void *)(r->keys + r->scratch_low);
    x->mask = (uint32_t)(slots - 1);
    memset(x->slots, 0, bytes);
    cursor = 0;
    for (uint32_t i = 0; pe_json_member(&r->j, object, &cursor, &key, &value); i++) {
        uint32_t s = pe_json_span_hash(&r->j, key) & x->mask;
        for (;; s = (s + 1) & x->mask) {
            uint32_t *slot = x->slots + 2 * s;
            pe_json_span other;
            if (slot[1] == 0 ||
                (pe_json_string(&r->j, slot[0] - 1, &other) && pe_json_spans_equal(&r->j, key, other))) {
                slot[0] = (uint32_t)key.at; /* the later member of a key replaces the earlier */
                slot[1] = i + 1;
                break;
            }
        }
    }
    return x;
}

/* 1 when member `index` (key `key`) of the walk's object is the last of its key. */
static int is_live(pe_config_reader *r, const pe_config_iter *it, pe_json_span key) {
    if (it->table) {
        const pe_config_index *x = it->table;
        for (uint32_t s = pe_json_span_hash(&r->j, key) & x->mask;; s = (s + 1) & x->mask) {
            const uint32_t *slot = x->slots + 2 * s;
            pe_json_span other;
            if (slot[1] == 0) return 1; /* cannot happen: every key is in the table */
            if (pe_json_string(&r->j, slot[0] - 1, &other) && pe_json_spans_equal(&r->j, key, other))
                return slot[1] == it->index + 1;
        }
    }
    size_t cursor = it->cursor, value;
    pe_json_span later;
    while (pe_json_member(&r->j, it->object, &cursor, &later, &value))
        if (pe_json_spans_equal(&r->j, key, later)) return 0;
    return 1;
}

void pe_config_iter_init(pe_config_reader *r, pe_config_iter *it, size_t object) {
    it->object = pe_json_space(&r->j, object);
    it->cursor = 0;
    it->index = 0;
    it->table = pe_json_kind(&r->j, object) == '{' ? index_of(r, object) : NULL;
}

int pe_config_next(pe_config_reader *r, pe_config_iter *it, pe_json_span *key, size_t *value) {
    for (;;) {
        if (!pe_json_member(&r->j, it->object, &it->cursor, key, value)) return 0;
        int live = is_live(r, it, *key);
        it->index++;
        if (live) return 1;
    }
}

int pe_config_get(pe_config_reader *r, size_t object, const char *name, size_t *value) {
    int seen = 0;
    for (int k = 0; k < r->used_count && !seen; k++)
        seen = r->used[k].object == object && !strcmp(r->used[k].name, name);
    if (!seen && r->used_count < PE_CONFIG_MAX_USED) {
        r->used[r->used_count].object = object;
        r->used[r->used_count++].name = name;
    }
    return pe_config_find(r, object, name, value);
}

int pe_config_find(pe_config_reader *r, size_t object, const char *name, size_t *value) {
    const pe_config_index *x = pe_json_kind(&r->j, object) == '{' ? index_of(r, object) : NULL;
    if (!x) return pe_json_find(&r->j, object, name, value);
    /* Through the index: the slot of the name holds its last member. */
    uint32_t h = 2166136261u; /* pe_json_span_hash of a name without escapes */
    for (const char *c = name; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
    for (uint32_t s = h & x->mask;; s = (s + 1) & x->mask) {
        const uint32_t *slot = x->slots + 2 * s;
        pe_json_span key;
        if (slot[1] == 0) return 0;
        if (!pe_json_string(&r->j, slot[0] - 1, &key) || !pe_json_span_is(&r->j, key, name)) continue;
        size_t at = pe_json_space(&r->j, pe_json_space(&r->j, key.at + key.length + 1) + 1); /* past '"' and ':' */
        if (pe_json_kind(&r->j, at) == 'n') return 0;
        *value = at;
        return 1;
    }
}

int pe_config_used(const pe_config_reader *r, size_t object, pe_json_span key) {
    for (int k = 0; k < r->used_count; k++)
        if (r->used[k].object == object && pe_json_span_is(&r->j, key, r->used[k].name)) return 1;
    return 0;
}

void pe_config_write_line(pe_config_reader *r, const char *prefix, const char *bytes, size_t length) {
    size_t p = strlen(prefix);
    if (r->keys_length + p + length + 2 > r->scratch_low) {
        r->overflow = 1; /* cannot happen with the documented size */
        return;
    }
    memcpy(r->keys + r->keys_length, prefix, p);
    memcpy(r->keys + r->keys_length + p, bytes, length);
    r->keys_length += p + length;
    r->keys[r->keys_length++] = '\n';
    r->keys[r->keys_length] = '\0';
}

void pe_config_write_key(pe_config_reader *r, const char *prefix, pe_json_span key) {
    size_t p = strlen(prefix);
    /* The canonical form is never longer than the key as written. */
    if (r->keys_length + p + key.length + 2 > r->scratch_low) {
        r->overflow = 1;
        return;
    }
    memcpy(r->keys + r->keys_length, prefix, p);
    r->keys_length += p;
    r->keys_length += pe_json_canonical(&r->j, key, r->keys + r->keys_length);
    r->keys[r->keys_length++] = '\n';
    r->keys[r->keys_length] = '\0';
}

pe_status pe_config_refuse(pe_config_reader *r, pe_status status, const char *key, const char *reason) {
    r->keys_length = 0;
    pe_config_write_line(r, r->prefix, key, strlen(key));
    pe_config_write_line(r, "", reason, strlen(reason));
    return status;
}

pe_status pe_config_refuse_span(pe_config_reader *r, pe_status status, pe_json_span key, const char *reason) {
    r->keys_length = 0;
    pe_config_write_key(r, r->prefix, key);
    pe_config_write_line(r, "", reason, strlen(reason));
    return status;
}

pe_status pe_config_count(pe_config_reader *r, size_t object, const char *name, uint32_t fallback, uint32_t *value) {
    size_t at;
    double v;
    *value = fallback;
    if (!pe_config_get(r, object, name, &at)) return PE_OK;
    if (!pe_json_number(&r->j, at, &v) || !(v >= 1.0 && v <= 4294967295.0) || v != (double)(uint32_t)v)
        return pe_config_refuse(r, PE_ERR_CONFIG, name, "must be a whole number from 1 to 2^32 - 1");
    *value = (uint32_t)v;
    return PE_OK;
}

/* The first of the names present (all marked as read). */
static pe_status first_count(pe_config_reader *r, const char *const *names, uint32_t *value, const char **key) {
    *value = 0;
    for (int k = 0; names[k]; k++) {
        pe_status s = pe_config_count(r, r->cfg, names[k], 0, value);
        if (key && *value) *key = names[k];
        if (s != PE_OK || *value) return s;
    }
    return PE_OK;
}

/* 1 when the config's member `name` is true (marked as read either way). */
static int config_flag(pe_config_reader *r, const char *name) {
    size_t at;
    return pe_config_get(r, r->cfg, name, &at) && pe_json_kind(&r->j, at) == 't';
}

/* The key/value heads of grouped-query and multi-query attention, as HF's
 * attention classes count them: num_key_value_heads (Llama, Mistral, Qwen,
 * Gemma, Phi-3), num_kv_heads or n_head_kv (Falcon), multi_query_group_num
 * (ChatGLM, GLM-4), else the query heads;
 * multi_query (Falcon-7B, GPTBigCode) gives 1 unless Falcon's
 * new_decoder_architecture is on, which reads num_kv_heads instead. */
static pe_status read_kv_heads(pe_config_reader *r, pe_config *c) {
    static const char *const KV_HEADS[] = {"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num",
                                           NULL};
    pe_status s = first_count(r, KV_HEADS, &c->kv_heads, NULL);
    if (s != PE_OK) return s;
    double v; /* Gemma3TextConfig's 4 when text_config leaves it out, as config_layers.c reads it */
    if (!c->kv_heads && pe_config_model_default(r, "num_key_value_heads", &v)) c->kv_heads = (uint32_t)v;
    const int multi_query = config_flag(r, "multi_query");
    const int new_architecture = config_flag(r, "new_decoder_architecture");
    if (multi_query && !new_architecture) c->kv_heads = 1;
    /* ChatGLM's SelfAttention: multi_query_group_num groups only when multi_query_attention is on. */
    if (pe_config_type_in(r, (const char *const[]){"chatglm", NULL}) && !config_flag(r, "multi_query_attention"))
        c->kv_heads = c->heads;
    if (c->kv_heads == 0) c->kv_heads = c->heads;
    return PE_OK;
}

pe_status pe_config_read_sizes(pe_config_reader *r, pe_config *c) {
    static const char *const HEADS[] = {"num_attention_heads", "n_head", "n_heads", "num_heads", NULL};
    static const char *const HIDDEN[] = {"hidden_size", "n_embd", "d_model", NULL};
    static const char *const POSITIONS[] = {"max_position_embeddings", "n_positions", "max_seq_len", NULL};
    r->heads_key = "n_head";
    pe_status s = first_count(r, HEADS, &c->heads, &r->heads_key);
    if (s == PE_OK) s = first_count(r, HIDDEN, &c->hidden_size, NULL);
    if (s == PE_OK) s = first_count(r, POSITIONS, &c->max_positions, NULL);
    double v; /* the config class's defaults for what the file leaves out (config_defaults.c) */
    if (s == PE_OK && !c->heads && pe_config_model_default(r, "num_attention_heads", &v)) c->heads = (uint32_t)v;
    if (s == PE_OK && !c->max_positions && pe_config_model_default(r, "max_position_embeddings", &v))
        c->max_positions = (uint32_t)v;
    if (s == PE_OK) s = read_kv_heads(r, c);
    return s;
}

/* Keys of `object` not read, prefixed; into objects of which some key was read. */
static void list_unused(pe_config_reader *r, size_t object, const char *prefix, size_t prefix_length, char *path) {
    size_t at;
    pe_json_span key;
    pe_config_iter it;
    pe_config_iter_init(r, &it, object);
    while (pe_config_next(r, &it, &key, &at)) {
        if (!pe_config_used(r, object, key)) {
            /* one layer type's reading of every type's dict: the other types' entries are theirs, not unused */
            if (!(r->batch && r->types_dict && object == r->types_dict)) pe_config_write_key(r, prefix, key);
            continue;
        }
        int inner = 0;
        for (int k = 0; k < r->used_count && !inner; k++) inner = r->used[k].object == pe_json_space(&r->j, at);
        if (!inner || pe_json_kind(&r->j, at) != '{' || prefix_length + key.length + 2 > 256) continue;
        /* path holds the prefix; extend it by "key." for the inner object. */
        size_t n = pe_json_canonical(&r->j, key, path + prefix_length); /* at most key.length */
        path[prefix_length + n] = '.';
        path[prefix_length + n + 1] = '\0';
        list_unused(r, pe_json_space(&r->j, at), path, prefix_length + n + 1, path);
        path[prefix_length] = '\0';
    }
}

void pe_config_list_unused(pe_config_reader *r) {
    char path[256 + 2];
    r->keys_length = 0;
    r->keys[0] = '\0';
    strcpy(path, "");
    list_unused(r, r->root, path, 0, path);
}
