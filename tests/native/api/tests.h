/* tests.h: the one list of the tests beyond the sinusoid. Each X(name) is a
 * void name(void) defined in its family's file; main.c declares and runs
 * them from this list, so a new test is one line here. */
#ifndef BEYOND_TESTS_H
#define BEYOND_TESTS_H

#define BEYOND_TESTS(X)               \
    X(test_reference_math)            \
    X(test_alibi_slopes_refusals)     \
    X(test_alibi_slopes_values)       \
    X(test_alibi_bias_refusals)       \
    X(test_alibi_bias_values)         \
    X(test_resample_refusals)         \
    X(test_resample_values)           \
    X(test_rope_scratch_size)         \
    X(test_rope_frequencies_refusals) \
    X(test_rope_frequencies_values)   \
    X(test_rope_refusals)             \
    X(test_rope_values)               \
    X(test_rope_unit_pairs)           \
    X(test_rope_consistency)          \
    X(test_rope_scratch_confined)     \
    X(test_narrow_refusals)           \
    X(test_narrow_known_values)       \
    X(test_narrow_sweep)              \
    X(test_table_dtype_refusals)      \
    X(test_plan_table_dtype_refusals) \
    X(test_table_dtype_values)        \
    X(test_table_at_dtype_values)     \
    X(test_recipe_refusals)           \
    X(test_recipe_values)             \
    X(test_table_2d_refusals)         \
    X(test_table_2d_values)           \
    X(test_table_2d_scratch_confined)

#define BEYOND_DECLARE(name) void name(void);
BEYOND_TESTS(BEYOND_DECLARE)
#undef BEYOND_DECLARE

#endif
