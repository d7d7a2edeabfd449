/* t5_buckets.h: `posenc t5-buckets`, T5's relative attention buckets as
 * text, CSV or JSON; src/js/relative/cli-t5-buckets.js prints the same bytes. */
#ifndef POSENC_CLI_T5_BUCKETS_H
#define POSENC_CLI_T5_BUCKETS_H

/* argv: the arguments after `t5-buckets`. Returns the exit code: 0, 1 (a
 * failure while writing), 2 (bad usage, message on stderr). */
int cli_t5_buckets(int argc, char **argv);

#endif
