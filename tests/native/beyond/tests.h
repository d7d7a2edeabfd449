/* tests.h: every test of the program beyond the sinusoid, for main.c. */
#ifndef BEYOND_TESTS_H
#define BEYOND_TESTS_H

void test_reference_math(void);
void test_alibi_slopes_refusals(void);
void test_alibi_slopes_values(void);
void test_alibi_bias_refusals(void);
void test_alibi_bias_values(void);
void test_resample_refusals(void);
void test_resample_values(void);
void test_rope_scratch_size(void);
void test_rope_frequencies_refusals(void);
void test_rope_frequencies_values(void);
void test_rope_refusals(void);
void test_rope_values(void);
void test_rope_unit_pairs(void);
void test_rope_consistency(void);
void test_rope_scratch_confined(void);
void test_narrow_refusals(void);
void test_narrow_known_values(void);
void test_narrow_sweep(void);
void test_table_dtype_refusals(void);
void test_plan_table_dtype_refusals(void);
void test_table_dtype_values(void);
void test_table_at_dtype_values(void);
void test_recipe_refusals(void);
void test_recipe_values(void);
void test_table_2d_refusals(void);
void test_table_2d_values(void);
void test_table_2d_scratch_confined(void);
void test_diagnose_refusals(void);
void test_diagnose_shapes(void);
void test_diagnose_values(void);

#endif
