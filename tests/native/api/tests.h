/* tests.h: the one list of the C API tests, family by family. Each X(name) is a
 * void name(void) defined in its family's file; main.c declares and runs
 * them from this list, so a new test is one line here. */
#ifndef API_TESTS_H
#define API_TESTS_H

#define API_TESTS(X)                         \
    X(test_status_str)                       \
    X(test_status_name)                      \
    X(test_scratch_size)                     \
    X(test_kernels)                          \
    X(test_small_values)                     \
    X(test_table)                            \
    X(test_table_at)                         \
    X(test_add)                              \
    X(test_add_table)                        \
    X(test_scratch_alignment)                \
    X(test_plan)                             \
    X(test_add_tiles)                        \
    X(test_reference_math)                   \
    X(test_alibi_slopes_refusals)            \
    X(test_alibi_slopes_values)              \
    X(test_alibi_bias_refusals)              \
    X(test_alibi_bias_values)                \
    X(test_resample_refusals)                \
    X(test_resample_values)                  \
    X(test_rope_scratch_size)                \
    X(test_rope_frequencies_refusals)        \
    X(test_rope_frequencies_values)          \
    X(test_rope_refusals)                    \
    X(test_rope_values)                      \
    X(test_rope_unit_pairs)                  \
    X(test_rope_consistency)                 \
    X(test_rope_scratch_confined)            \
    X(test_rope_plan_refusal_writes_nothing) \
    X(test_rope_plan_heads)                  \
    X(test_rope_axes_refusals)               \
    X(test_rope_axes_values)                 \
    X(test_xpos_refusals)                    \
    X(test_xpos_plans)                       \
    X(test_rope_lay_out)                     \
    X(test_rope16_every_pattern)             \
    X(test_rope16_narrow_rounding)           \
    X(test_rope16_shared_rows)               \
    X(test_narrow_refusals)                  \
    X(test_narrow_known_values)              \
    X(test_narrow_sweep)                     \
    X(test_table_dtype_refusals)             \
    X(test_plan_table_dtype_refusals)        \
    X(test_table_dtype_values)               \
    X(test_table_at_dtype_values)            \
    X(test_recipe_refusals)                  \
    X(test_recipe_values)                    \
    X(test_table_2d_refusals)                \
    X(test_table_2d_values)                  \
    X(test_table_2d_scratch_confined)        \
    X(test_diagnose_refusals)                \
    X(test_diagnose_shapes)                  \
    X(test_diagnose_values)                  \
    X(test_config_prefixes_and_mutations)    \
    X(test_config_refusals)                  \
    X(test_config_null_and_cap)              \
    X(test_config_json_semantics)            \
    X(test_config_values)                    \
    X(test_config_layers_batch)              \
    X(test_config_layers_refusals)           \
    X(test_config_layers_linear)

#define API_DECLARE(name) void name(void);
API_TESTS(API_DECLARE)
#undef API_DECLARE

#endif
