/* args.c: see args.h and src/js/cli/args.js. */
#include "args.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char CLI_VERSION[] = "posenc 0.1.0\n";

int cli_fail(char **error, int code, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    *error = malloc((size_t)(n > 0 ? n : 0) + 1);
    if (!*error) return code;
    va_start(ap, format);
    vsnprintf(*error, (size_t)n + 1, format, ap);
    va_end(ap);
    return code;
}

static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int same_ignoring_case(const char *a, const char *b) {
    while (*a && lower((unsigned char)*a) == lower((unsigned char)*b)) a++, b++;
    return *a == *b || lower((unsigned char)*a) == lower((unsigned char)*b);
}

/* Levenshtein distance; option names are short. */
static size_t distance(const char *a, const char *b) {
    size_t n = strlen(b);
    if (n > 63) n = 63;
    size_t row[64], next[64];
    for (size_t j = 0; j <= n; j++) row[j] = j;
    for (size_t i = 1; a[i - 1]; i++) {
        next[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t best = row[j] + 1;
            if (next[j - 1] + 1 < best) best = next[j - 1] + 1;
            size_t swap = row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (swap < best) best = swap;
            next[j] = best;
        }
        memcpy(row, next, (n + 1) * sizeof row[0]);
    }
    return row[n];
}

/* The option a typo most likely meant, or NULL (same rule as errors.js
 * closest, over the valued options then the flags). */
static const char *closest(const char *name, const char *const *options, const char *const *flags) {
    const char *best = NULL;
    size_t best_distance = (size_t)-1;
    for (int list = 0; list < 2; list++) {
        const char *const *names = list == 0 ? options : flags;
        for (int k = 0; names && names[k]; k++) {
            size_t d = same_ignoring_case(names[k], name) ? 0 : distance(name, names[k]);
            if (d < best_distance) {
                best = names[k];
                best_distance = d;
            }
        }
    }
    size_t third = strlen(name) / 3;
    size_t limit = third < 1 ? 1 : third > 2 ? 2 : third;
    return best_distance <= limit ? best : NULL;
}

int cli_parse_count(const char *text, uint32_t *value) {
    size_t n = strlen(text);
    if (n < 1 || n > 12 || strspn(text, "0123456789") != n) return 0;
    double v = strtod(text, NULL);
    if (v > 2147483648.0) return 0;
    *value = (uint32_t)v;
    return 1;
}

static size_t digits(const char *s) {
    return strspn(s, "0123456789");
}

/* [+-]? (digits .? digits* | . digits) ([eE] [+-]? digits)?  then strtod,
 * so that JS's Number() and C agree on the value. */
int cli_parse_decimal(const char *text, double *value) {
    const char *p = text;
    if (*p == '+' || *p == '-') p++;
    size_t whole = digits(p);
    p += whole;
    if (*p == '.') {
        p++;
        size_t fraction = digits(p);
        if (whole == 0 && fraction == 0) return 0;
        p += fraction;
    } else if (whole == 0) {
        return 0;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        size_t exponent = digits(p);
        if (exponent == 0) return 0;
        p += exponent;
    }
    if (*p != '\0') return 0;
    *value = strtod(text, NULL);
    return 1;
}

int cli_pick(const char *text, const char *const *names) {
    for (int k = 0; names[k]; k++)
        if (!strcmp(text, names[k])) return k;
    return -1;
}

int cli_flag(const cli_given *given, const char *name) {
    const char *value = cli_value(given, name);
    return value && !strcmp(value, "true");
}

const char *cli_value(const cli_given *given, const char *name) {
    for (int k = 0; k < given->count; k++)
        if (!strcmp(given->names[k], name)) return given->values[k];
    return NULL;
}

/* The entry of the NULL-terminated names (or NULL) spelled as arg's first len characters, or NULL. */
static const char *find(const char *const *names, const char *arg, size_t len) {
    for (int k = 0; names && names[k]; k++)
        if (strlen(names[k]) == len && !strncmp(names[k], arg, len)) return names[k];
    return NULL;
}

/* "'a', 'b' or 'c'" of the commands' names, into out. */
static void command_list(const cli_command *commands, int count, char *out, size_t size) {
    out[0] = '\0';
    for (int k = 0; k < count; k++) {
        const char *sep = k == 0 ? "" : k == count - 1 ? " or " : ", ";
        size_t at = strlen(out);
        snprintf(out + at, size - at, "%s'%s'", sep, commands[k].name);
    }
}

int cli_parse(int argc, char **argv, const cli_command *commands, int count, const cli_command **command,
              cli_action *action, cli_given *given, char **error) {
    *error = NULL;
    *command = NULL;
    memset(given, 0, sizeof *given);
    int help = 0, version = 0;
    for (int i = 1; i < argc; i++) {
        help |= !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
        version |= !strcmp(argv[i], "--version");
    }
    for (int k = 0; argc > 1 && k < count; k++)
        if (!strcmp(argv[1], commands[k].name)) *command = &commands[k];
    *action = help ? CLI_HELP : version ? CLI_VERSION_ACTION : CLI_RUN;
    if (help || version) return 0;
    char names[256];
    command_list(commands, count, names, sizeof names);
    if (argc < 2)
        return cli_fail(
            error, 2, "missing command: one of %s (try 'posenc table --length 10 --dim 4' or 'posenc --help')", names);
    if (!*command)
        return cli_fail(error, 2, "unknown command '%s'; the commands are %s (see posenc --help)", argv[1], names);

    const cli_command *c = *command;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            if (!c->operand)
                return cli_fail(error, 2, "unexpected argument '%s' (options start with --; see posenc %s --help)", arg,
                                c->name);
            if (cli_value(given, c->operand))
                return cli_fail(error, 2, "%s reads one %s; '%s' is a second one", c->name, c->operand, arg);
            if (given->count == CLI_MAX_OPTIONS) return cli_fail(error, 2, "too many options");
            given->names[given->count] = c->operand;
            given->values[given->count++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const char *option = find(c->options, arg, name_len), *flag = find(c->flags, arg, name_len);
        /* --no-NAME turns flag --NAME off (the one boolean convention). */
        int off = !option && !flag && name_len > 5 && !strncmp(arg, "--no-", 5);
        if (off) {
            char *on = malloc(name_len - 2);
            if (!on) return cli_fail(error, 2, "out of memory");
            snprintf(on, name_len - 2, "--%.*s", (int)(name_len - 5), arg + 5);
            flag = find(c->flags, on, name_len - 3);
            free(on);
            off = flag != NULL;
        }
        if (!option && !flag) {
            char *name = malloc(name_len + 1);
            if (!name) return cli_fail(error, 2, "out of memory");
            memcpy(name, arg, name_len);
            name[name_len] = '\0';
            const char *guess = closest(name, c->options, c->flags);
            if (guess)
                cli_fail(error, 2, "unknown option '%s' (did you mean '%s'?)", name, guess);
            else
                cli_fail(error, 2, "unknown option '%s'", name);
            free(name);
            return 2;
        }
        const char *value = off ? "false" : "true";
        if (flag && eq)
            return cli_fail(error, 2, "%s takes no value; got '%s' (write %s or --no-%s)", flag, arg, flag, flag + 2);
        /* The old spelling `--cls-token true` is refused with the new one. */
        if (flag && !c->operand && i + 1 < argc && (!strcmp(argv[i + 1], "true") || !strcmp(argv[i + 1], "false")))
            return cli_fail(error, 2, "%s takes no value; got '%s %s' (write %s or --no-%s)", flag, arg, argv[i + 1],
                            flag, flag + 2);
        if (eq && !flag)
            value = eq + 1;
        else if (option && i + 1 < argc)
            value = argv[++i];
        else if (option)
            return cli_fail(error, 2, "%s needs a value", option);
        const char *name = option ? option : flag;
        /* A repeated option is refused: which of the two was meant is a guess. */
        if (cli_value(given, name) && flag)
            return cli_fail(error, 2, "%s is given twice (as %s or --no-%s); give it once", name, name, name + 2);
        if (cli_value(given, name)) return cli_fail(error, 2, "%s is given twice; give it once", name);
        if (given->count == CLI_MAX_OPTIONS) return cli_fail(error, 2, "too many options");
        given->names[given->count] = name;
        given->values[given->count++] = value;
    }
    return 0;
}
