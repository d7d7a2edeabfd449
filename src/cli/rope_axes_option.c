/* rope_axes_option.c: the position axes of `posenc rope` (src/js/cli/rope-axes.js
 * checks alike, in the same order, with the same messages):
 *
 *   --mrope-section T,H,W   Qwen2-VL's mrope: pairs per axis (temporal, height,
 *                           width), summing to rotary_dim/2; or the config's
 *                           rope_scaling.mrope_section, which it must equal
 *   --vision                2-D RoPE of vision patches (row, then column)
 *   --position-ids IDS      one row of ids per axis: "0,1,2" for plain RoPE,
 *                           "t;h;w" rows for mrope, "r;c" for 2-D, or @FILE
 *                           with one row per line; ids are whole numbers below
 *                           2^31, separated by ',' or blanks, rows by ';' or
 *                           new lines (empty rows skipped)
 *
 * The ids are laid out row by row (ids[l * axes + a]), as pe_rope takes them. */
#include "rope_axes_option.h"

#include <stdlib.h>
#include <string.h>

#include "config_option.h"
#include "read_input.h"

#define MAX_ID 2147483647u

static int fail_sections(char **error, uint32_t half, const char *text) {
    return cli_fail(error, 2,
                    "--mrope-section must be 3 whole numbers of pairs (temporal, height, width), each ≥ 1, summing to "
                    "rotary_dim/2 = %u; got %s",
                    (unsigned)half, text);
}

/* --mrope-section "T,H,W" into s[3]; 0 or exit code 2. */
static int parse_sections(const char *text, uint32_t half, uint32_t *s, char **error) {
    char part[16];
    const char *p = text;
    uint64_t sum = 0;
    for (int k = 0; k < 3; k++) {
        const char *end = strchr(p, ',');
        const size_t n = k < 2 ? (end ? (size_t)(end - p) : sizeof part) : strlen(p);
        if ((k < 2 && !end) || n >= sizeof part) return fail_sections(error, half, text);
        memcpy(part, p, n), part[n] = 0;
        if (!cli_parse_count(part, &s[k]) || s[k] < 1) return fail_sections(error, half, text);
        sum += s[k];
        p += n + 1;
    }
    return sum == half ? 0 : fail_sections(error, half, text);
}

/* The ids of text into rows->ids (axes rows of equal length); 0 or exit code 2. */
static int parse_ids(const char *text, uint32_t axes, cli_rope_rows *rows, char **error) {
    size_t cap = 64, count = 0;
    uint32_t row_count = 0, first_length = 0, this_length = 0;
    uint32_t *flat = malloc(cap * sizeof *flat); /* axis-major as read: row a, then row a + 1 */
    if (!flat) return cli_fail(error, 1, "out of memory");
    for (const char *p = text;; p++) {
        const char c = *p;
        if (c == ',' || c == ' ' || c == '\t' || c == '\r') continue;
        if (c == ';' || c == '\n' || c == 0) {
            if (this_length && row_count > 1 && this_length != first_length) {
                free(flat);
                return cli_fail(error, 2, "--position-ids rows must be equally long; row 1 has %u ids, row %u has %u",
                                (unsigned)first_length, (unsigned)row_count, (unsigned)this_length);
            }
            this_length = 0;
            if (c == 0) break;
            continue;
        }
        const char *end = p;
        while (*end && !strchr(",; \t\r\n", *end)) end++;
        char token[16];
        uint32_t id = 0;
        const size_t n = (size_t)(end - p);
        int ok = n < sizeof token;
        if (ok) memcpy(token, p, n), token[n] = 0;
        ok = ok && cli_parse_count(token, &id) && id <= MAX_ID;
        if (!ok) {
            int code = cli_fail(error, 2, "--position-ids must hold whole numbers from 0 to 2147483647; got %.*s",
                                (int)(n < 40 ? n : 40), p);
            free(flat);
            return code;
        }
        if (this_length++ == 0 && ++row_count == 1) first_length = 0;
        if (row_count == 1) first_length++;
        if (count == cap) {
            uint32_t *grown = realloc(flat, (cap *= 2) * sizeof *flat);
            if (!grown) return free(flat), cli_fail(error, 1, "out of memory");
            flat = grown;
        }
        flat[count++] = id;
        p = end - 1;
    }
    if (row_count != axes) {
        free(flat);
        return cli_fail(error, 2, "--position-ids has %u row%s; %s", (unsigned)row_count, row_count == 1 ? "" : "s",
                        axes == 3   ? "mrope takes 3: temporal, height, width"
                        : axes == 2 ? "--vision takes 2: the patches' rows, then their columns"
                                    : "plain RoPE takes 1 (rows are separated by ';' or new lines)");
    }
    rows->length = first_length;
    rows->ids = malloc(count * sizeof *rows->ids + 1);
    if (!rows->ids) return free(flat), cli_fail(error, 1, "out of memory");
    rows->end = 0;
    for (uint32_t a = 0; a < axes; a++)
        for (uint32_t l = 0; l < first_length; l++) {
            const uint32_t id = flat[(size_t)a * first_length + l];
            rows->ids[(size_t)l * axes + a] = id;
            if (id + 1 > rows->end) rows->end = id + 1;
        }
    free(flat);
    return 0;
}

int cli_rope_axes_options(const cli_given *given, const pe_config *config, pe_rotary *rope, cli_rope_rows *rows,
                          char **error) {
    const uint32_t half = (rope->rotary_dim ? rope->rotary_dim : rope->head_dim) / 2;
    const char *sections_text = cli_value(given, "--mrope-section"), *ids_text = cli_value(given, "--position-ids");
    const int vision = cli_flag(given, "--vision");
    uint32_t s[3] = {0, 0, 0};
    int code;
    rows->ids = NULL;
    rows->end = rows->offset + rows->length;
    if (sections_text && (code = parse_sections(sections_text, half, s, error))) return code;
    if (config->mrope_sections) {
        const uint32_t *c = config->mrope_section;
        if (config->mrope_sections != 3)
            return cli_fail(error, 1,
                            "the config's mrope_section has %u entries; posenc takes 3 (temporal, height, width)",
                            (unsigned)config->mrope_sections);
        if ((uint64_t)c[0] + c[1] + c[2] != half)
            return cli_fail(error, 1, "the config's mrope_section (%u, %u, %u) must sum to rotary_dim/2 = %u",
                            (unsigned)c[0], (unsigned)c[1], (unsigned)c[2], (unsigned)half);
        if (sections_text && (s[0] != c[0] || s[1] != c[1] || s[2] != c[2]))
            return cli_fail(error, 2, "--mrope-section %s differs from the config's mrope_section (%u, %u, %u)",
                            sections_text, (unsigned)c[0], (unsigned)c[1], (unsigned)c[2]);
        memcpy(s, c, sizeof s);
    }
    if (vision && s[0])
        return cli_fail(error, 2, "--vision takes no mrope sections (a rope is mrope or 2-D, not both)");
    if (vision && (half % 2 || rope->scaling.type != PE_ROPE_SCALING_NONE))
        return cli_fail(error, 2,
                        "--vision needs rotary_dim a multiple of 4 and no rope scaling (2-D RoPE turns by the patch "
                        "grid as it is)");
    if (s[0]) {
        rope->axes.type = PE_ROPE_AXES_MROPE;
        memcpy(rope->axes.mrope_section, s, sizeof s);
    } else if (vision) {
        rope->axes.type = PE_ROPE_AXES_VISION_2D;
    }
    if (ids_text && (cli_value(given, "--offset") || cli_value(given, "--length")))
        return cli_fail(error, 2, "--position-ids replaces --offset and --length; give one or the other");
    if (vision && !ids_text)
        return cli_fail(error, 2, "--vision needs --position-ids (two rows: the patches' rows, then their columns)");
    if (!ids_text) return 0;
    const uint32_t axes = s[0] ? 3 : vision ? 2 : 1;
    if (ids_text[0] != '@') return parse_ids(ids_text, axes, rows, error);
    size_t bytes = 0;
    char *file;
    code = cli_read_input("--position-ids", "a file of position ids", ids_text + 1, CLI_MAX_IDS_BYTES, &file, &bytes,
                          error);
    if (code) return code;
    code = strlen(file) == bytes ? parse_ids(file, axes, rows, error)
                                 : cli_fail(error, 2,
                                            "--position-ids must hold whole numbers from 0 to 2147483647; "
                                            "got a NUL byte");
    free(file);
    return code;
}
