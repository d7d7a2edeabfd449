/* api-asan: unit tests of the posenc C API, every family (one file each in
 * this folder: sinusoid.c, rope*.c, xpos.c, precision.c, recipe.c, grid2d.c,
 * alibi.c, resample.c, diagnose.c, config*.c), run under ASan and UBSan.
 * The tests run in the order of the one list in tests.h.
 *
 * Every refusal posenc.h names is checked for its exact status and for having
 * written nothing (outputs sit inside sentinel guards). Every success is
 * checked against an independent reference: long double sine, cosine, log
 * and exp written here (the link has no libm), an integer round-to-nearest-
 * even for float16 and bfloat16, and exact integer arithmetic for ALiBi's
 * slopes. Scratch is given exactly the size its size function asks for, at
 * every byte alignment, and must not be written past. Prints `N passed, M
 * failed` last and exits 1 when anything failed.
 *
 * Usage: api-asan [--quick] [FILTER]   FILTER a family (rope, alibi, common,
 * ...) or one test's name; without it every test runs. A filter that names no
 * test exits 2 (a typo must not pass as "0 failed"). --quick leaves out the
 * long sweeps listed in tests.h (API_SWEEPS), unless named, and says which. api-asan --list
 * prints "family name" per test.
 */
#include <stdio.h>
#include <string.h>

#include "support.h"
#include "tests.h"

/* Whether the test (family, name) is one the filter asks for (NULL: all). */
static int selected(const char *filter, const char *family, const char *name) {
    return !filter || strcmp(filter, family) == 0 || strcmp(filter, name) == 0;
}

/* Whether the test is one of the long sweeps --quick leaves out. */
static int is_sweep(const char *name) {
#define API_SWEEP(test) \
    if (strcmp(name, #test) == 0) return (void)test, 1; /* test: a declared test's name */
    API_SWEEPS(API_SWEEP)
#undef API_SWEEP
    return 0;
}

int main(int argc, char **argv) {
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    const char *filter = argc > 1 + quick ? argv[1 + quick] : NULL;
    if (filter && strcmp(filter, "--list") == 0) {
#define API_LIST(family, name) printf("%s %s\n", #family, #name);
        API_TESTS(API_LIST)
#undef API_LIST
        return 0;
    }
    int ran = 0;
#define API_RUN(family, name)                                                                  \
    if (selected(filter, #family, #name)) {                                                    \
        if (quick && is_sweep(#name) && !(filter && strcmp(filter, #name) == 0)) {             \
            printf("api-asan --quick: %s left out (a long sweep; npm test runs it)\n", #name); \
        } else {                                                                               \
            name();                                                                            \
        }                                                                                      \
        ran++;                                                                                 \
    }
    API_TESTS(API_RUN)
#undef API_RUN
    if (ran == 0) {
        fprintf(stderr, "api-asan: no test is named or in the family '%s' (api-asan --list)\n", filter);
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
