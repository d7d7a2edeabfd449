/* read_input.c: see read_input.h. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "read_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"

/* The OS's reason in the words read-input.js gives for the same errno. */
static const char *reason(int e) {
    switch (e) {
    case ENOENT: return "No such file or directory";
    case EACCES: return "Permission denied";
    case EISDIR: return "Is a directory";
    case ENOTDIR: return "Not a directory";
    case ELOOP: return "Too many levels of symbolic links";
    case ENAMETOOLONG: return "File name too long";
    case EIO: return "Input/output error";
    default: return strerror(e);
    }
}

/* "64 MiB": the caps are whole MiB. */
static void cap_text(size_t cap, char *out, size_t size) {
    snprintf(out, size, "%zu MiB", cap >> 20);
}

static int too_large(const char *what, const char *noun, const char *path, size_t cap, char **error) {
    char text[32];
    cap_text(cap, text, sizeof text);
    return cli_fail(error, 1, "%s: %s is larger than %s, posenc's limit for %s", what, path, text, noun);
}

int cli_read_input(const char *what, const char *noun, const char *path, size_t cap, char **data, size_t *size,
                   char **error) {
    *data = NULL;
    *size = 0;
    const int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return cli_fail(error, 2, "%s: cannot read %s: %s", what, path, reason(errno));
    struct stat st;
    size_t want = 1 << 16; /* a stream's first chunk */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((unsigned long long)st.st_size > cap) {
            if (!is_stdin) fclose(f);
            return too_large(what, noun, path, cap, error);
        }
        want = (size_t)st.st_size + 1; /* one more byte to see the end (or a file that grew) */
    }
    size_t n = 0, room = want;
    char *bytes = malloc(room + 1);
    int code = 0, failed_errno = 0;
    while (bytes) {
        size_t got = fread(bytes + n, 1, room - n, f);
        n += got;
        if (n > cap) {
            code = too_large(what, noun, path, cap, error);
            break;
        }
        if (got == 0 || n < room) {
            if (ferror(f)) failed_errno = errno ? errno : EIO;
            if (!ferror(f) && !feof(f)) continue; /* a short read of a stream */
            break;
        }
        size_t grown_room = room * 2 > cap + 1 ? cap + 1 : room * 2;
        if (grown_room <= room) grown_room = room + 1;
        char *grown = realloc(bytes, grown_room + 1);
        if (!grown) free(bytes);
        bytes = grown;
        room = grown_room;
    }
    if (!is_stdin) fclose(f);
    if (!bytes) return cli_fail(error, 1, "out of memory");
    if (!code && failed_errno) code = cli_fail(error, 2, "%s: cannot read %s: %s", what, path, reason(failed_errno));
    if (code) {
        free(bytes);
        return code;
    }
    bytes[n] = '\0';
    *data = bytes;
    *size = n;
    return 0;
}
