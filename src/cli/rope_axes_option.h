/* rope_axes_option.h: `posenc rope`'s position axes (see rope_axes_option.c). */
#ifndef POSENC_CLI_ROPE_AXES_OPTION_H
#define POSENC_CLI_ROPE_AXES_OPTION_H

#include "args.h"
#include "posenc.h"

/* The rows a rope command prints: offset ... offset + length - 1, or ids. */
typedef struct cli_rope_rows {
    uint32_t offset, length; /* length: ids per axis with --position-ids */
    uint32_t *ids;           /* NULL, or length * axes ids row by row (ids[l * axes + a]), as the core takes them */
    uint32_t end;            /* the largest position + 1: dynamic NTK's sequence length */
} cli_rope_rows;

/* --mrope-section (or the config's mrope_section), --vision and
 * --position-ids into rope->axes and *rows (offset and length given, from
 * --offset and --length); 0, or an exit code with *error set. rows->ids is
 * malloc'd (free it in every case). */
int cli_rope_axes_options(const cli_given *given, const pe_config *config, pe_rotary *rope, cli_rope_rows *rows,
                          char **error);

#endif
