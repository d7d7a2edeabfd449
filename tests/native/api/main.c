/* api-asan: unit tests of the posenc C API, every family (sinusoid.c,
 * alibi.c, resample.c, rope.c, precision.c, recipe.c, grid2d.c), run under
 * ASan and UBSan. The tests run in the order of the one list in tests.h.
 *
 * Every refusal posenc.h names is checked for its exact status and for having
 * written nothing (outputs sit inside sentinel guards). Every success is
 * checked against an independent reference: long double sine, cosine, log
 * and exp written here (the link has no libm), an integer round-to-nearest-
 * even for float16 and bfloat16, and exact integer arithmetic for ALiBi's
 * slopes. Scratch is given exactly the size its size function asks for, at
 * every byte alignment, and must not be written past. Prints `N passed, M
 * failed` last and exits 1 when anything failed.
 */
#include <stdio.h>

#include "support.h"
#include "tests.h"

int main(void) {
#define API_RUN(name) name();
    API_TESTS(API_RUN)
#undef API_RUN
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
