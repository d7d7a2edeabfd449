/* posenc: the native CLI. `posenc COMMAND [options]`; the subcommands are the
 * table below (one entry each, one file each); src/js/cli.js has the same
 * table and prints the same bytes. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "posenc.h"

static const cli_command COMMANDS[] = {
    {"table", TABLE_USAGE, TABLE_OPTIONS, NULL, NULL, cli_run_table},
    {"rope", ROPE_USAGE, ROPE_OPTIONS, ROPE_FLAGS, NULL, cli_run_rope},
    {"alibi", ALIBI_USAGE, ALIBI_OPTIONS, NULL, NULL, cli_run_alibi},
    {"table2d", TABLE2D_USAGE, TABLE2D_OPTIONS, NULL, NULL, cli_run_table2d},
    {"t5-buckets", T5_BUCKETS_USAGE, T5_BUCKETS_OPTIONS, T5_BUCKETS_FLAGS, NULL, cli_run_t5_buckets},
    {"identify", IDENTIFY_USAGE, IDENTIFY_OPTIONS, IDENTIFY_FLAGS, "FILE", cli_run_identify},
    {"config", CONFIG_USAGE, CONFIG_OPTIONS, NULL, "FILE", cli_run_config},
};
#define COMMAND_COUNT ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

static const char GENERAL_USAGE[] = "usage: posenc COMMAND [options]   (posenc COMMAND --help for its options)\n"
                                    "\n"
                                    "  table       the sinusoidal positional-encoding table (Vaswani et al.)\n"
                                    "  rope        a model's RoPE frequencies, read from its config.json\n"
                                    "  alibi       ALiBi's per-head slopes\n"
                                    "  table2d     the 2-D sin-cos table of a grid of patches (MAE)\n"
                                    "  t5-buckets  T5's relative attention buckets\n"
                                    "  identify    which convention the table in FILE follows\n"
                                    "  config      what every layer of a model uses, from its config.json\n"
                                    "\n"
                                    "  --version   print the version\n"
                                    "  -h, --help  print this help\n";

static int die(int code, const char *message) {
    fprintf(stderr, "posenc: %s\n", message);
    return code;
}

int main(int argc, char **argv) {
    /* A closed pipe is a write error like a full disk (message, exit 1), not a silent death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    const cli_command *command;
    cli_action action;
    cli_given given;
    char *error = NULL;
    int code = cli_parse(argc, argv, COMMANDS, COMMAND_COUNT, &command, &action, &given, &error);
    if (code != 0) {
        die(code, error ? error : "out of memory");
        free(error);
        return code;
    }
    if (action != CLI_RUN) {
        fputs(action == CLI_VERSION_ACTION ? CLI_VERSION : command ? command->usage : GENERAL_USAGE, stdout);
        return fflush(stdout) != 0 || ferror(stdout) ? die(1, "could not write the output") : 0;
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
