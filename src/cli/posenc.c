/* posenc: the native CLI. `posenc COMMAND [options]`; the subcommands are the
 * table below (one entry each, one file each); src/js/cli.js has the same
 * table and prints the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "identify.h"
#include "posenc.h"
#include "t5_buckets.h"

static const cli_command COMMANDS[] = {
    {"table", TABLE_USAGE, TABLE_OPTIONS, cli_run_table},
    {"rope", ROPE_USAGE, ROPE_OPTIONS, cli_run_rope},
    {"alibi", ALIBI_USAGE, ALIBI_OPTIONS, cli_run_alibi},
    {"table2d", TABLE2D_USAGE, TABLE2D_OPTIONS, cli_run_table2d},
};
#define COMMAND_COUNT ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

static const char GENERAL_USAGE[] =
    "usage: posenc COMMAND [options]   (posenc COMMAND --help for its options)\n"
    "\n"
    "  table     the sinusoidal positional-encoding table (Vaswani et al.)\n"
    "  rope      a model's RoPE frequencies, read from its config.json\n"
    "  alibi     ALiBi's per-head slopes\n"
    "  table2d   the 2-D sin-cos table of a grid of patches (MAE)\n"
    "  also: t5-buckets (T5's relative attention buckets), identify FILE (which convention a table "
    "follows)\n"
    "\n"
    "  --version     print the version\n"
    "  -h, --help    print this help\n";

static int die(int code, const char *message) {
    fprintf(stderr, "posenc: %s\n", message);
    return code;
}

int main(int argc, char **argv) {
    /* t5-buckets and identify keep their own parsers (not yet in the table above). */
    if (argc > 1 && !strcmp(argv[1], "t5-buckets")) return cli_t5_buckets(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "identify")) return cli_identify(argc, argv);
    const cli_command *command;
    cli_action action;
    cli_given given;
    char *error = NULL;
    int code = cli_parse(argc, argv, COMMANDS, COMMAND_COUNT, &command, &action, &given, &error);
    if (code == 0 && action == CLI_HELP) fputs(command ? command->usage : GENERAL_USAGE, stdout);
    if (code == 0 && action == CLI_VERSION_ACTION) fputs(CLI_VERSION, stdout);
    if (code != 0 || action != CLI_RUN) {
        if (code != 0) die(code, error ? error : "out of memory");
        free(error);
        return code;
    }
    const char *path = cli_value(&given, "--output");
    FILE *out = path ? fopen(path, "wb") : stdout;
    if (!out) return die(2, "--output: could not open the file for writing");
    static char out_buffer[1 << 16];
    setvbuf(out, out_buffer, _IOFBF, sizeof out_buffer);
    code = command->run(&given, out, &error);
    if (code != 0) {
        die(code, error ? error : "out of memory");
        free(error);
    }
    int failed = fflush(out) != 0 || ferror(out);
    if (path && fclose(out) != 0) failed = 1;
    if (code == 0 && failed) return die(1, "could not write the output");
    return code;
}
