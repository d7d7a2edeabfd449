/* args.h: the subcommand framework of the native CLI, mirrored by
 * src/js/cli/args.js (same options, checks in the same order, same messages,
 * so the Node and native CLIs fail alike). A subcommand is one cli_command
 * entry in posenc.c's table: its name, usage text, options and run function. */
#ifndef POSENC_CLI_ARGS_H
#define POSENC_CLI_ARGS_H

#include <stdint.h>
#include <stdio.h>

#define CLI_MAX_OPTIONS 32

/* The options given: name (one of the command's) and its text value ("true"
 * for a flag --NAME, "false" for --no-NAME; the command's operand is stored
 * under its name, e.g. "FILE"). */
typedef struct cli_given {
    const char *names[CLI_MAX_OPTIONS];
    const char *values[CLI_MAX_OPTIONS];
    int count;
} cli_given;

typedef struct cli_command {
    const char *name;
    const char *usage;          /* `posenc NAME --help` prints it */
    const char *const *options; /* valued, NULL-terminated, besides --help and --version */
    const char *const *flags;   /* --NAME / --no-NAME options without a value (NULL-terminated), or NULL */
    const char *operand;        /* its one positional argument's name ("FILE"), or NULL */
    /* Checks the values (exit 2 with *error set on a usage error), then writes
     * to out (exit 1 with *error set when the core refuses); 0 on success. */
    int (*run)(const cli_given *given, FILE *out, char **error);
} cli_command;

extern const char CLI_VERSION[]; /* "posenc 0.1.0\n": package.json's version */

/* What main does next: print usage or the version, or run the command. */
typedef enum cli_action { CLI_RUN, CLI_HELP, CLI_VERSION_ACTION } cli_action;

/* Parses argv against the command table. 0 with *command (NULL for the general
 * help) and *action; otherwise 2 and a malloc'd one-line *error. */
int cli_parse(int argc, char **argv, const cli_command *commands, int count, const cli_command **command,
              cli_action *action, cli_given *given, char **error);

/* The value of option `name` ("true"/"false" for a flag given), or NULL. */
const char *cli_value(const cli_given *given, const char *name);
/* 1 when flag `name` is on (--NAME given), 0 when off (--no-NAME or absent). */
int cli_flag(const cli_given *given, const char *name);

/* Sets *error to a malloc'd formatted message and returns code. */
int cli_fail(char **error, int code, const char *format, ...);

/* Value checks shared by the commands (each returns 1 when the text is valid). */
int cli_parse_count(const char *text, uint32_t *value); /* digits only, at most 2^31 */
int cli_parse_decimal(const char *text, double *value); /* a plain decimal, as JS's Number() reads it */
/* The index of text in the NULL-terminated names, or -1. */
int cli_pick(const char *text, const char *const *names);

#endif
