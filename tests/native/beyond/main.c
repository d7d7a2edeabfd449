/* api-beyond-asan: unit tests of the posenc C API beyond the sinusoidal
 * table (ALiBi, resampling, RoPE, reduced precision, naive recipes, 2-D
 * tables), run under ASan and UBSan.
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
    test_reference_math();
    test_alibi_slopes_refusals();
    test_alibi_slopes_values();
    test_alibi_bias_refusals();
    test_alibi_bias_values();
    test_resample_refusals();
    test_resample_values();
    test_rope_scratch_size();
    test_rope_frequencies_refusals();
    test_rope_frequencies_values();
    test_rope_refusals();
    test_rope_values();
    test_rope_unit_pairs();
    test_rope_consistency();
    test_rope_scratch_confined();
    test_narrow_refusals();
    test_narrow_known_values();
    test_narrow_sweep();
    test_table_dtype_refusals();
    test_plan_table_dtype_refusals();
    test_table_dtype_values();
    test_table_at_dtype_values();
    test_recipe_refusals();
    test_recipe_values();
    test_table_2d_refusals();
    test_table_2d_values();
    test_table_2d_scratch_confined();
    test_diagnose_refusals();
    test_diagnose_shapes();
    test_diagnose_values();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
