/* What each pe_status means: a sentence for people (pe_status_str) and the
 * enumerator's name for bindings (pe_status_name), one case per value. */
#include "posenc.h"

const char *pe_status_str(pe_status status) {
    switch (status) {
    case PE_OK: return "ok";
    case PE_ERR_NULL: return "a required pointer is NULL";
    case PE_ERR_DIM_ODD: return "dim must be an even number: sines and cosines come in pairs";
    case PE_ERR_DIM_RANGE: return "dim must be between 2 and 65536";
    case PE_ERR_BASE: return "base must be a finite number above 1";
    case PE_ERR_LAYOUT: return "layout must be PE_LAYOUT_INTERLEAVED or PE_LAYOUT_SPLIT";
    case PE_ERR_POSITION: return "positions must be below 2^31 (offset + length <= 2^31)";
    case PE_ERR_OUT_SIZE: return "out must hold exactly length * dim floats";
    case PE_ERR_X_SIZE: return "x must hold a whole number of (length, dim) slabs";
    case PE_ERR_SCRATCH: return "scratch is smaller than pe_scratch_size() asks for";
    case PE_ERR_TABLE_ROWS: return "the learned table has no row for some position (offset + length > rows)";
    case PE_ERR_SCALE: return "scale must be a finite number";
    case PE_ERR_TOO_LARGE: return "the sizes overflow the address space";
    case PE_ERR_KERNELS: return "those kernels are not compiled into this build";
    case PE_ERR_ROUNDING: return "rounding must be PE_ROUNDING_FAST or PE_ROUNDING_CORRECT";
    case PE_ERR_PLAN: return "plan is not a plan made by pe_plan_init (or its memory was overwritten)";
    case PE_ERR_HEADS: return "heads must be between 1 and 65536, and the head range inside it";
    case PE_ERR_OVERLAP: return "out must not overlap the table it is computed from";
    case PE_ERR_FREQUENCIES: return "frequencies must be PE_FREQ_PAPER or PE_FREQ_TENSOR2TENSOR";
    case PE_ERR_ROTARY_DIM: return "rotary_dim must be even and at most head_dim (0 means head_dim)";
    case PE_ERR_SCALING: return "the RoPE scaling type is unknown or one of its parameters is out of range";
    case PE_ERR_ORDER: return "order must be PE_ROPE_BLHD or PE_ROPE_BHLD";
    case PE_ERR_DTYPE: return "dtype must be PE_DTYPE_FLOAT32, PE_DTYPE_FLOAT16, PE_DTYPE_BFLOAT16 or PE_DTYPE_FLOAT64";
    case PE_ERR_RECIPE: return "recipe must be PE_RECIPE_FLOAT32_ANGLE, PE_RECIPE_FLOAT16 or PE_RECIPE_BFLOAT16";
    case PE_ERR_DIM_2D:
        return "a 2-D table needs dim to be a multiple of 4: each axis gets dim/2 channels of sine-cosine pairs";
    case PE_ERR_FREQUENCY_VALUE: return "each given frequency must be finite and >= 0 (at most 1 for a recipe)";
    case PE_ERR_BUCKETS:
        return "T5: num_buckets must leave at least 1 exact bucket per side and be at most 1024, and max_distance be "
               "above num_buckets / 4 (bidirectional) or num_buckets / 2 (causal) and at most 2^31";
    case PE_ERR_MAX_RELATIVE: return "Shaw: max_relative must be at most 2^30 - 1";
    case PE_ERR_NOT_FINITE: return "the table has a NaN or infinite cell";
    case PE_ERR_KIND: return "kind must be PE_DIAG_AUTO, PE_DIAG_TABLE or PE_DIAG_COS_SIN";
    case PE_ERR_SHAPE: return "the table must have at least one cell and two rows or two columns";
    case PE_ERR_CONFIG: return "the config is not a JSON object, or it names no position scheme posenc knows";
    case PE_ERR_LAYER_TYPE: return "the config's RoPE differs by layer type: name one of its layer types";
    case PE_ERR_AXES:
        return "RoPE axes: an unknown type, mrope sections that do not sum to rotary_dim/2, or 2-D RoPE with "
               "rotary_dim not a multiple of 4 or with scaling";
    case PE_ERR_XPOS:
        return "xPos: scale_base must be finite and >= 1e-6, gamma in [1e-6, 1e6], center below 2^31, and no scaling "
               "or "
               "axes";
    case PE_ERR_XPOS_RANGE: return "xPos: a position is so far from the center that its scale leaves 2^-64 ... 2^64";
    }
    return "unknown pe_status";
}

const char *pe_status_name(pe_status status) {
    switch (status) {
    case PE_OK: return "PE_OK";
    case PE_ERR_NULL: return "PE_ERR_NULL";
    case PE_ERR_DIM_ODD: return "PE_ERR_DIM_ODD";
    case PE_ERR_DIM_RANGE: return "PE_ERR_DIM_RANGE";
    case PE_ERR_BASE: return "PE_ERR_BASE";
    case PE_ERR_LAYOUT: return "PE_ERR_LAYOUT";
    case PE_ERR_POSITION: return "PE_ERR_POSITION";
    case PE_ERR_OUT_SIZE: return "PE_ERR_OUT_SIZE";
    case PE_ERR_X_SIZE: return "PE_ERR_X_SIZE";
    case PE_ERR_SCRATCH: return "PE_ERR_SCRATCH";
    case PE_ERR_TABLE_ROWS: return "PE_ERR_TABLE_ROWS";
    case PE_ERR_SCALE: return "PE_ERR_SCALE";
    case PE_ERR_TOO_LARGE: return "PE_ERR_TOO_LARGE";
    case PE_ERR_KERNELS: return "PE_ERR_KERNELS";
    case PE_ERR_ROUNDING: return "PE_ERR_ROUNDING";
    case PE_ERR_PLAN: return "PE_ERR_PLAN";
    case PE_ERR_HEADS: return "PE_ERR_HEADS";
    case PE_ERR_OVERLAP: return "PE_ERR_OVERLAP";
    case PE_ERR_FREQUENCIES: return "PE_ERR_FREQUENCIES";
    case PE_ERR_ROTARY_DIM: return "PE_ERR_ROTARY_DIM";
    case PE_ERR_SCALING: return "PE_ERR_SCALING";
    case PE_ERR_ORDER: return "PE_ERR_ORDER";
    case PE_ERR_DTYPE: return "PE_ERR_DTYPE";
    case PE_ERR_RECIPE: return "PE_ERR_RECIPE";
    case PE_ERR_DIM_2D: return "PE_ERR_DIM_2D";
    case PE_ERR_FREQUENCY_VALUE: return "PE_ERR_FREQUENCY_VALUE";
    case PE_ERR_BUCKETS: return "PE_ERR_BUCKETS";
    case PE_ERR_MAX_RELATIVE: return "PE_ERR_MAX_RELATIVE";
    case PE_ERR_NOT_FINITE: return "PE_ERR_NOT_FINITE";
    case PE_ERR_KIND: return "PE_ERR_KIND";
    case PE_ERR_SHAPE: return "PE_ERR_SHAPE";
    case PE_ERR_CONFIG: return "PE_ERR_CONFIG";
    case PE_ERR_LAYER_TYPE: return "PE_ERR_LAYER_TYPE";
    case PE_ERR_AXES: return "PE_ERR_AXES";
    case PE_ERR_XPOS: return "PE_ERR_XPOS";
    case PE_ERR_XPOS_RANGE: return "PE_ERR_XPOS_RANGE";
    }
    return "PE_UNKNOWN";
}
