/* posenc: the native CLI. `posenc COMMAND [options]`; the subcommands are the
 * table below (one entry each, one file each); src/js/cli/main.js has the same
 * table and prints the same bytes. */
#include <errno.h>
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
    {"table2d", TABLE2D_USAGE, TABLE2D_OPTIONS, TABLE2D_FLAGS, NULL, cli_run_table2d},
    {"t5-buckets", T5_BUCKETS_USAGE, T5_BUCKETS_OPTIONS, T5_BUCKETS_FLAGS, NULL, cli_run_t5_buckets},
    {"identify", IDENTIFY_USAGE, IDENTIFY_OPTIONS, IDENTIFY_FLAGS, "FILE", cli_run_identify},
    {"config", CONFIG_USAGE, CONFIG_OPTIONS, NULL, "FILE", cli_run_config},
};
#define COMMAND_COUNT ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

static const char GENERAL_USAGE[] =
    "usage: posenc COMMAND [options]   (posenc COMMAND --help for its options)\n"
    "\n"
    "  table       the sinusoidal positional-encoding table (Vaswani et al.)\n"
    "  rope        RoPE frequencies and cos/sin caches, from a config.json or flags\n"
    "  alibi       ALiBi's per-head slopes\n"
    "  table2d     the 2-D sin-cos table of a grid of patches (MAE)\n"
    "  t5-buckets  T5's relative attention buckets\n"
    "  identify    which convention the table in FILE follows\n"
    "  config      what every layer of a model uses, from its config.json\n"
    "\n"
    "  --version   print the version\n"
    "  -h, --help  print this help\n"
    "\n"
    "examples:\n"
    "  posenc table --length 10 --dim 4\n"
    "  posenc rope --config config.json --what cos-sin --length 4096 --format npy --output cs.npy\n"
    "  posenc rope --head-dim 128 --base 500000 --what cos-sin --length 4 --format csv\n"
    "  posenc identify pe.npy --json\n"
    "  posenc config config.json --format json\n";

static int die(int code, const char *message) {
    fprintf(stderr, "posenc: %s\n", message);
    return code;
}

int main(int argc, char **argv) {
    /* A closed pipe (`posenc ... | head`) ends the run quietly with status 0, as the reader wanted no more;
     * SIGPIPE is ignored so that it shows as EPIPE, told apart from other write errors (a full disk: exit 1). */
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
        errno = 0;
        if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
        if (errno == EPIPE) return 0;
        fprintf(stderr, "posenc: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
        return 1;
    }
    const char *path = cli_value(&given, "--output");
    FILE *out = path ? fopen(path, "wb") : stdout;
    if (!out) { /* exit 2 as for an input that cannot be read; the OS's words as src/js/cli/main.js gives them */
        fprintf(stderr, "posenc: --output: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    static char out_buffer[1 << 16];
    setvbuf(out, out_buffer, _IOFBF, sizeof out_buffer);
    errno = 0;
    code = command->run(&given, out, &error);
    /* A failed write stops the commands' loops; its errno is the reason, unless the flush below gives a later one. */
    int reason = ferror(out) ? errno : 0;
    if (code != 0) {
        die(code, error ? error : "out of memory");
        free(error);
    }
    errno = 0;
    if (fflush(out) != 0 && errno != 0) reason = errno;
    int failed = ferror(out) != 0;
    if (path && fclose(out) != 0) failed = 1, reason = reason ? reason : errno;
    if (code != 0 || !failed) return code;
    if (reason == EPIPE) return 0;
    /* The OS's reason and where: the --output path, worded as its open failure is, or standard output. */
    const char *why = strerror(reason ? reason : EIO);
    if (path)
        fprintf(stderr, "posenc: --output: cannot write %s: %s\n", path, why);
    else
        fprintf(stderr, "posenc: cannot write standard output: %s\n", why);
    return 1;
}
