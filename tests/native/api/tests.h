/* tests.h: the one list of the C API tests, family by family. Each
 * X(family, name) is a void name(void) defined in its family's file; main.c
 * declares and runs them from this list (or those a filter names: a family,
 * as the JS tests' family-first names spell it, or one test), so a new test
 * is one line here. `common` holds the tests of src/core/common and the
 * test's own reference math. */
#ifndef API_TESTS_H
#define API_TESTS_H

#define API_TESTS(X)                               \
    X(common, test_status_str)                     \
    X(common, test_status_name)                    \
    X(sinusoid, test_scratch_size)                 \
    X(common, test_kernels)                        \
    X(sinusoid, test_small_values)                 \
    X(sinusoid, test_table)                        \
    X(sinusoid, test_table_at)                     \
    X(sinusoid, test_add)                          \
    X(learned, test_add_table)                     \
    X(sinusoid, test_scratch_alignment)            \
    X(sinusoid, test_plan)                         \
    X(sinusoid, test_add_tiles)                    \
    X(sinusoid, test_one_shot_untouched)           \
    X(common, test_reference_math)                 \
    X(alibi, test_alibi_slopes_refusals)           \
    X(alibi, test_alibi_slopes_values)             \
    X(alibi, test_alibi_bias_refusals)             \
    X(alibi, test_alibi_bias_values)               \
    X(learned, test_resample_refusals)             \
    X(learned, test_resample_values)               \
    X(rope, test_rope_scratch_size)                \
    X(rope, test_rope_frequencies_refusals)        \
    X(rope, test_rope_frequencies_values)          \
    X(rope, test_rope_refusals)                    \
    X(rope, test_rope_values)                      \
    X(rope, test_rope_unit_pairs)                  \
    X(rope, test_rope_consistency)                 \
    X(rope, test_rope_scratch_confined)            \
    X(rope, test_rope_plan_refusal_writes_nothing) \
    X(rope, test_rope_plan_heads)                  \
    X(rope, test_rope_axes_refusals)               \
    X(rope, test_rope_axes_values)                 \
    X(rope, test_xpos_refusals)                    \
    X(rope, test_xpos_plans)                       \
    X(rope, test_rope_lay_out)                     \
    X(rope, test_rope_rotate_kernels)              \
    X(rope, test_rope16_every_pattern)             \
    X(rope, test_rope16_narrow_rounding)           \
    X(rope, test_rope16_shared_rows)               \
    X(rope, test_rope16_skewed_rows)               \
    X(rope, test_rope16_specials_turned)           \
    X(precision, test_narrow_refusals)             \
    X(precision, test_narrow_known_values)         \
    X(precision, test_narrow_sweep)                \
    X(precision, test_table_dtype_refusals)        \
    X(precision, test_plan_table_dtype_refusals)   \
    X(precision, test_table_dtype_values)          \
    X(precision, test_table_at_dtype_values)       \
    X(precision, test_recipe_refusals)             \
    X(precision, test_recipe_values)               \
    X(grid2d, test_table_2d_refusals)              \
    X(grid2d, test_table_2d_values)                \
    X(grid2d, test_table_2d_scratch_confined)      \
    X(diagnose, test_diagnose_refusals)            \
    X(diagnose, test_diagnose_shapes)              \
    X(diagnose, test_diagnose_values)              \
    X(config, test_config_prefixes_and_mutations)  \
    X(config, test_config_refusals)                \
    X(config, test_config_null_and_cap)            \
    X(config, test_config_json_semantics)          \
    X(config, test_config_values)                  \
    X(config, test_config_layers_batch)            \
    X(config, test_config_layers_refusals)         \
    X(config, test_config_layers_sliding_window)   \
    X(config, test_config_layers_linear)           \
    X(config, test_config_layers_query_scale)

#define API_DECLARE(family, name) void name(void);
API_TESTS(API_DECLARE)
#undef API_DECLARE

/* The long sweeps `api-asan --quick` leaves out (the fast family loop,
 * tests/run-family.js); `npm test` runs them. Each is a test of the list
 * above (the name must be declared, so a stale entry fails the build). */
#define API_SWEEPS(X) X(test_add_tiles)

#endif
