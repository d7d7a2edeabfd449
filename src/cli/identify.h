/* identify.h: `posenc identify FILE [options]` (identify.c). */
#ifndef POSENC_CLI_IDENTIFY_H
#define POSENC_CLI_IDENTIFY_H

extern const char CLI_IDENTIFY_USAGE[];

/* argv[1] is "identify". Returns the exit code: 0, 1 (refused input) or 2 (usage). */
int cli_identify(int argc, char **argv);

#endif
