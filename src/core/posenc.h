/* posenc.h: positional encodings for transformers, computed exactly: the
 * sinusoidal tables, RoPE with its scalings (and mrope, xPos, 2-D axes),
 * ALiBi, learned tables, 2-D sin-cos, T5's and Shaw's relative positions,
 * float16/bfloat16 tables, model configs read as HF reads them, and
 * identifying the convention of a table.
 *
 * The one public header of the posenc C core. Every entry point returns a
 * pe_status; pe_status_str() explains it. The caller owns every buffer: the
 * core never allocates, and asks for scratch through its size functions
 * (pe_scratch_size(), pe_rope_scratch_size(), ...).
 *
 * The sinusoidal encoding (Vaswani et al., "Attention is all you need"), for position p,
 * pair i of a d-dimensional embedding and base T (default 10000):
 *
 *     w_i = T^(-2i/d)            PE(p, sin_i) = sin(p * w_i)   (other conventions: pe_frequencies)
 *                                PE(p, cos_i) = cos(p * w_i)
 *
 * Row layouts (d = 8, s = sine, c = cosine, digit = pair i):
 *
 *     PE_LAYOUT_INTERLEAVED   [s0 c0 s1 c1 s2 c2 s3 c3]   the paper's, PyTorch tutorials
 *     PE_LAYOUT_SPLIT         [s0 s1 s2 s3 c0 c1 c2 c3]   tensor2tensor, HF Marian
 *
 * Accuracy: every float32, float16 and bfloat16 value of a table (pe_table,
 * pe_table_at, their plan forms, pe_table_dtype, pe_table_2d, and RoPE's cos
 * and sin without an attention factor or xPos scales) is the float64
 * recurrence's value rounded once, within half an ulp plus 2.7e-12 of the
 * exact sin or cos of p*w_i (derived in sinusoid/plan.h), for every position
 * below 2^31 and every d and base: the fast path, the default. Correctly
 * rounded (the exact value rounded once, to nearest even) when rounding is
 * PE_ROUNDING_CORRECT (pe_set_rounding): then the rare value that close to a
 * rounding midpoint (about 1 in 1300) is recomputed from its position in
 * double-double (sinusoid/settle.h), at about twice the table time. The frequencies are carried in
 * double-double (relative error under 2^-86, derived in sinusoid/settle.c,
 * and counted in the slow path's bounds); frequencies
 * given to pe_plan_init_frequencies are taken as the exact doubles they are.
 * Not correctly rounded: the embedding add (x * scale + PE rounds twice, as
 * float32 code does), RoPE's rotation (HF's float32 operation order) and any
 * value times an attention factor or xPos scale (a product of two roundings).
 *
 * Determinism: a value depends only on (p, i, d, T, layout). Tables, tables
 * with any offset, position lists and the embedding add give the same bits for
 * the same position, on every build (native, native SIMD, wasm, wasm SIMD).
 */
#ifndef POSENC_H
#define POSENC_H

/* Standard parameters. Every entry point takes its arguments in this order
 * (the ones it has):
 *
 *   1. the description     what to compute: const pe_sinusoid *, pe_rotary *,
 *                          pe_alibi *, pe_grid2d *, a plan, or a table to read
 *                          with its shape; then the call's choices (dtype,
 *                          recipe, scale)
 *   2. the positions       uint32_t offset, uint32_t length (rows offset ..
 *                          offset + length - 1), or const uint32_t *positions,
 *                          size_t count (a list); a head range likewise
 *   3. the output          the array written (or x, updated in place) and its
 *                          element count, always given and always checked
 *   4. the scratch         void *scratch, size_t scratch_bytes, as the
 *                          matching *_scratch_size() asks
 *
 * Every entry point returns a pe_status (pe_status_str explains it,
 * pe_status_name names it) and refuses before writing anything. */

#include <stddef.h>
#include <stdint.h>

/* The version of this header; pe_version() gives the library's, which may be
 * newer (same major: compatible). */
#define PE_VERSION_MAJOR  0
#define PE_VERSION_MINOR  1
#define PE_VERSION_PATCH  0
#define PE_VERSION_STRING "0.1.0"

/* Marks the public entry points: the shared library is built with
 * -fvisibility=hidden, so these are its only exported symbols. */
#if defined(_WIN32) && defined(PE_BUILDING_DLL)
#define PE_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define PE_API __attribute__((visibility("default")))
#else
#define PE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pe_status {
    PE_OK = 0,
    PE_ERR_NULL = 1,             /* a required pointer is NULL */
    PE_ERR_DIM_ODD = 2,          /* dim is odd: the embedding size must be even */
    PE_ERR_DIM_RANGE = 3,        /* dim is 0 or above PE_MAX_DIM */
    PE_ERR_BASE = 4,             /* base is not above 1 and at most PE_MAX_BASE (NaN is neither) */
    PE_ERR_LAYOUT = 5,           /* layout is not a pe_layout */
    PE_ERR_POSITION = 6,         /* a position is at or beyond PE_MAX_POSITION */
    PE_ERR_OUT_SIZE = 7,         /* out does not hold exactly the values asked for */
    PE_ERR_X_SIZE = 8,           /* x's size is not a multiple of length * dim */
    PE_ERR_SCRATCH = 9,          /* scratch is smaller than pe_scratch_size() */
    PE_ERR_TABLE_ROWS = 10,      /* the learned table has too few rows */
    PE_ERR_SCALE = 11,           /* scale is not finite */
    PE_ERR_TOO_LARGE = 12,       /* the sizes overflow size_t, or pass a stated cap (PE_CONFIG_MAX_BYTES) */
    PE_ERR_KERNELS = 13,         /* those kernels are not compiled into this build */
    PE_ERR_PLAN = 14,            /* not a plan made by pe_plan_init (or it was overwritten) */
    PE_ERR_HEADS = 15,           /* heads is 0 or above PE_MAX_HEADS, or the head range is outside the heads */
    PE_ERR_OVERLAP = 16,         /* out overlaps an input the call reads */
    PE_ERR_FREQUENCIES = 17,     /* frequencies is not a pe_frequencies */
    PE_ERR_ROTARY_DIM = 18,      /* RoPE: rotary_dim is odd or above head_dim */
    PE_ERR_SCALING = 19,         /* RoPE: unknown scaling type, or a scaling parameter out of its range */
    PE_ERR_ORDER = 20,           /* RoPE: order is not a pe_rope_order */
    PE_ERR_DTYPE = 21,           /* dtype is not a pe_dtype */
    PE_ERR_RECIPE = 22,          /* recipe is not a pe_recipe */
    PE_ERR_DIM_2D = 23,          /* 2-D: dim is not a multiple of 4 (two axes of sine-cosine pairs) */
    PE_ERR_FREQUENCY_VALUE = 24, /* a given w is outside 0 ... PE_MAX_FREQUENCY (a recipe's: above 1) */
    PE_ERR_BUCKETS = 25,         /* T5: num_buckets or max_distance out of range (pe_t5) */
    PE_ERR_MAX_RELATIVE = 26,    /* Shaw: max_relative above PE_SHAW_MAX_RELATIVE */
    PE_ERR_NOT_FINITE = 27,      /* diagnose: a cell of the table is NaN or infinite */
    PE_ERR_KIND = 28,            /* diagnose: kind is not a pe_diag_kind */
    PE_ERR_SHAPE = 29,           /* diagnose: the table has no cells, or neither two rows nor two columns */
    PE_ERR_CONFIG = 30,          /* config: not a JSON object, or no position scheme posenc can tell */
    PE_ERR_LAYER_TYPE = 31,      /* config: RoPE differs by layer type and layer_type is missing or unknown */
    PE_ERR_AXES =
        32, /* RoPE: axes type unknown, mrope sections not summing to r/2, or 2-D with r % 4 != 0 or scaling */
    PE_ERR_XPOS = 33,       /* xPos: scale_base or gamma out of range, center too large, or with a scaling */
    PE_ERR_XPOS_RANGE = 34, /* xPos: a position so far from the center that its scale leaves 2^-64 ... 2^64 */
    PE_ERR_ROUNDING = 35,   /* rounding is not a pe_rounding */
} pe_status;

typedef enum pe_layout { PE_LAYOUT_INTERLEAVED = 0, PE_LAYOUT_SPLIT = 1 } pe_layout;

/* How pair i's frequency follows from T and d (h = d/2 pairs):
 *
 *     PE_FREQ_PAPER          w_i = T^(-2i/d) = T^(-i/h)       the paper, PyTorch tutorials, HF Marian
 *     PE_FREQ_TENSOR2TENSOR  w_i = T^(-i/max(h-1, 1))        tensor2tensor, fairseq: the last
 *                                                             pair reaches exactly 1/T */
typedef enum pe_frequencies { PE_FREQ_PAPER = 0, PE_FREQ_TENSOR2TENSOR = 1 } pe_frequencies;

/* The largest base accepted (here, for RoPE and for 2-D grids). The accuracy
 * above holds for bases 2 ... 1e7; up to 1e300 every value stays finite and
 * within [-1, 1] (above about 1e301 the frequency's logarithm overflows). */
#define PE_MAX_BASE 1e300

/* The largest frequency pe_plan_init_frequencies accepts: every w in
 * 0 ... 4 (past pi, the fastest frequency integer positions can tell apart)
 * keeps the table's accuracy at every position below 2^31; far above it the
 * seeds' angle reduction loses it (errors above 1e-6 near w = 79, inf at 1e20). */
#define PE_MAX_FREQUENCY 4.0

typedef struct pe_sinusoid {
    uint32_t dim; /* d: even, 2 ... PE_MAX_DIM */
    double base;  /* T: 1 < T <= PE_MAX_BASE; 10000 in the paper */
    pe_layout layout;
    pe_frequencies frequencies; /* 0 (PE_FREQ_PAPER) when left out of an initializer */
} pe_sinusoid;

#define PE_MAX_DIM      65536u
#define PE_MAX_POSITION 2147483648u /* 2^31: positions must be below it */

/* A learned table or x is a row-major float array; "rows" are positions. */

/* Bytes of scratch (or of a plan, below) for this dim: the same for every call.
 * About 100 * dim bytes plus the add's tile of PE rows (up to 2 MiB). */
PE_API pe_status pe_scratch_size(uint32_t dim, size_t *bytes);

/* out[r*d + j] = PE(offset + r, column j) for r < length.
 * out_count must equal length * dim. offset + length <= PE_MAX_POSITION. */
PE_API pe_status pe_table(const pe_sinusoid *enc, uint32_t offset, uint32_t length, float *out, size_t out_count,
                          void *scratch, size_t scratch_bytes);

/* out[r*d + j] = PE(positions[r], column j) for r < count: packed sequences,
 * decoding with a cache. Same bits as pe_table for the same positions. */
PE_API pe_status pe_table_at(const pe_sinusoid *enc, const uint32_t *positions, size_t count, float *out,
                             size_t out_count, void *scratch, size_t scratch_bytes);

/* The embedding add, in place, for x of shape (batch, length, dim) with
 * batch = x_count / (length * dim):
 *     x[b, r, j] = float(float(x[b, r, j] * scale) + PE(offset + r, j))
 * where PE is the float32 value pe_table gives. scale is often sqrt(dim). */
PE_API pe_status pe_add(const pe_sinusoid *enc, float scale, uint32_t offset, uint32_t length, float *x, size_t x_count,
                        void *scratch, size_t scratch_bytes);

/* Plans. The one-shot calls above rebuild the per-encoding constants (the
 * frequencies and their sines and cosines) every time, which costs about 30 ns
 * per pair. A plan builds them once, in caller memory of pe_scratch_size()
 * bytes, and serves any number of calls for the same (dim, base, layout) with
 * the same bits as the one-shot calls. A plan is not thread-safe (calls keep
 * their running state in it) and must not be moved or copied; it needs no
 * teardown: free its memory. */
typedef struct pe_plan pe_plan;

PE_API pe_status pe_plan_init(const pe_sinusoid *enc, void *memory, size_t bytes, pe_plan **plan);
/* A plan for any frequencies: w[i] for pair i < dim/2, each 0 ... PE_MAX_FREQUENCY
 * (RoPE's scaled frequencies, say). The angle is p * w[i] exactly as above. */
PE_API pe_status pe_plan_init_frequencies(uint32_t dim, pe_layout layout, const double *w, void *memory, size_t bytes,
                                          pe_plan **plan);
PE_API pe_status pe_plan_table(pe_plan *plan, uint32_t offset, uint32_t length, float *out, size_t out_count);
PE_API pe_status pe_plan_table_at(pe_plan *plan, const uint32_t *positions, size_t count, float *out, size_t out_count);
PE_API pe_status pe_plan_add(pe_plan *plan, float scale, uint32_t offset, uint32_t length, float *x, size_t x_count);

/* Which kernels run: the plain scalar ones (the reference) or the SIMD ones.
 * Both give the same bits. Chosen once at start-up; SIMD is the default when
 * compiled in. PE_ERR_KERNELS when SIMD is asked of a scalar-only build. */
typedef enum pe_kernels { PE_KERNELS_SCALAR = 0, PE_KERNELS_SIMD = 1 } pe_kernels;

PE_API pe_status pe_use_kernels(pe_kernels kernels);
PE_API pe_status pe_active_kernels(pe_kernels *kernels);

/* How values from sines and cosines are rounded, for every build alike:
 *
 *   PE_ROUNDING_FAST     the default: each float32 (float16, bfloat16) value
 *                        is the rounding of a float64 within 2.7e-12
 *                        (PE_FAST_BOUND) of the exact value, so within half an
 *                        ulp plus 2.7e-12; a few values in 10^7 differ from
 *                        the correctly rounded one (5 of 8.4 million for
 *                        d = 128, T = 10^4 below 2^16; near zero by more
 *                        than an ulp, 2.7e-12 being many of their ulps).
 *   PE_ROUNDING_CORRECT  every such value is correctly rounded (the exact
 *                        value rounded once): the kernels test each value
 *                        against the bound and settle the near-midpoint ones
 *                        exactly. Tables take about twice as long.
 *
 * It covers the sinusoidal tables (offsets, position lists, adds), 2-D tables,
 * the precision family's float32/float16/bfloat16 tables, and ropeCosSin's and
 * rope()'s cos/sin without an attention factor or xPos scales; not the rotation
 * (HF's float32 operations) nor values times a factor. A global switch like
 * pe_use_kernels: set it once, before computing. PE_ERR_ROUNDING for any other
 * value. */
typedef enum pe_rounding { PE_ROUNDING_FAST = 0, PE_ROUNDING_CORRECT = 1 } pe_rounding;

PE_API pe_status pe_set_rounding(pe_rounding rounding);
PE_API pe_status pe_rounding_mode(pe_rounding *rounding);

/* A short English sentence for a status; never NULL. */
PE_API const char *pe_status_str(pe_status status);
/* The enumerator's name ("PE_ERR_DIM_ODD"), for bindings that map statuses
 * by name; "PE_UNKNOWN" for a value that is not a pe_status. Never NULL. */
PE_API const char *pe_status_name(pe_status status);
/* The library's version, "MAJOR.MINOR.PATCH" (PE_VERSION_STRING of the
 * header it was built with). Never NULL. */
PE_API const char *pe_version(void);

/* ---- ALiBi and learned tables ---- */

/* ALiBi (Press et al., "Train Short, Test Long", ICLR 2022): no embedding;
 * head h adds -m_h * distance(query, key) to its attention scores.
 *
 * Slopes, as the paper's code (get_slopes) gives them, for n heads and
 * P = the largest power of two <= n:
 *     head h < P:        m_h = 2^(-8(h+1)/P)          (n = 8: 1/2, 1/4, ..., 1/256)
 *     head h = P + k:    m_h = 2^(-4(2k+1)/P)         (every other slope of 2P heads)
 * Each is the float32 nearest the exact power of two (computed in double by
 * f64math.c, error about 1e-16, then rounded once), the same on every build. */
#define PE_MAX_HEADS 65536u

/* out[h] = m_h for h < heads; out_count must equal heads. */
PE_API pe_status pe_alibi_slopes(uint32_t heads, float *out, size_t out_count);

/* The bias tensor (heads, query_length, key_length), row-major.
 * Query row i sits at key position q = query_offset + i: query_offset =
 * key_length - query_length aligns the last query with the last key, as HF and
 * fairseq do when decoding with a cache; 0 when queries and keys coincide.
 *
 *     bias[h, i, j] = -(m_h * |q - j|)     +0 on the diagonal
 *     causal: bias[h, i, j] = -INFINITY for keys j > q (the future)
 *
 * The product is formed in double, exactly below distance 2^29, so the value
 * is the float32 nearest -m_h * |q - j|; past 2^29 the product rounds once in
 * double first, which can only matter within 2^-53 (relative) of a midpoint
 * between two floats. Non-causal rows are symmetric in distance (the
 * bidirectional form). */
typedef struct pe_alibi {
    uint32_t heads;        /* n: 1 ... PE_MAX_HEADS, fixes the slopes */
    uint32_t query_length; /* rows per head */
    uint32_t key_length;   /* columns: <= PE_MAX_POSITION */
    uint32_t query_offset; /* key position of query row 0; offset + query_length <= PE_MAX_POSITION */
    int causal;            /* nonzero masks future keys with -INFINITY */
} pe_alibi;

/* Heads first_head ... first_head + head_count - 1 (a tensor-parallel slice,
 * or all of them): out_count = head_count * query_length * key_length. */
PE_API pe_status pe_alibi_bias(const pe_alibi *alibi, uint32_t first_head, uint32_t head_count, float *out,
                               size_t out_count);

/* pe_add's add with a learned table (table_rows x dim, nn.Embedding style):
 *     x[b, r, j] = float(float(x[b, r, j] * scale) + table[(offset + r) * dim + j])
 * Refuses (PE_ERR_TABLE_ROWS) when offset + length > table_rows. */
PE_API pe_status pe_add_table(const float *table, uint32_t table_rows, uint32_t dim, float scale, uint32_t offset,
                              uint32_t length, float *x, size_t x_count);

/* A learned table (rows x dim) resampled to new_rows rows by linear
 * interpolation along positions, with the align_corners=True convention: new
 * row r reads old position x = r * (rows - 1) / (new_rows - 1), so the first
 * and last rows map onto the first and last rows (torch.nn.functional.
 * interpolate(mode='linear', align_corners=True); numpy.interp on
 * linspace(0, rows - 1, new_rows)). With x = i + t, i whole, 0 < t < 1:
 *
 *     out[r, j] = float32((1 - t) * a + t * b),  a = table[i, j], b = table[i + 1, j]
 *
 * PyTorch's form, computed in double: the weights (1 - t) and t (each a ratio
 * of integers), both products and the sum round once each, then one rounding
 * to float32. So an output is the float32 nearest the exact value unless that
 * value lies within 2^-51 (|a| + |b|) of a midpoint between two floats (the
 * double steps err by less); then it may be the other neighbour.
 * Rows where x is whole (the first, the last, all of them when rows - 1
 * divides new_rows - 1) are exact copies. new_rows = 1 gives row 0; rows = 1
 * repeats its row.
 * dim 1 ... PE_MAX_DIM (odd allowed); out_count = new_rows * dim; out must
 * not overlap table (PE_ERR_OVERLAP); rows = 0 refuses (PE_ERR_TABLE_ROWS)
 * unless new_rows = 0. */
PE_API pe_status pe_resample_table(const float *table, uint32_t rows, uint32_t dim, uint32_t new_rows, float *out,
                                   size_t out_count);

/* ---- RoPE ---- */

/* Rotary position embeddings (Su et al., RoFormer): queries and keys are
 * rotated in place, pair by pair, by the angle p * w_i of their position p:
 *
 *     x1' = x1 * cos(p w_i) - x2 * sin(p w_i)      (inverse: x1 * cos + x2 * sin)
 *     x2' = x2 * cos(p w_i) + x1 * sin(p w_i)      (inverse: x2 * cos - x1 * sin)
 *
 * in float32, in that operation order (HF transformers' apply_rotary_pos_emb),
 * with w_i = base^(-2i/r) for pair i < r/2, r = rotary_dim, then scaled (below).
 * Only the first r elements of each head rotate; the rest pass unchanged.
 * The pairs (x1, x2) of one head, r = 8, digit = pair i:
 *
 *     PE_LAYOUT_INTERLEAVED   [x0 y0 x1 y1 x2 y2 x3 y3]   adjacent pairs: GPT-J, RoFormer, llama.cpp's default
 *     PE_LAYOUT_SPLIT         [x0 x1 x2 x3 y0 y1 y2 y3]   halves (rotate_half): GPT-NeoX, HF Llama
 *
 * x is one of (b = batch item, l = row, h = head, d = element of a head):
 *
 *     PE_ROPE_BLHD   x[b][l][h][d]   (batch, length, heads, head_dim): activations before the transpose
 *     PE_ROPE_BHLD   x[b][h][l][d]   (batch, heads, length, head_dim): after it, as attention reads them
 *
 * Row l sits at position offset + l, or positions[l] when a list is given
 * (one position per row, shared by every batch item and head).
 *
 * Accuracy: cos and sin come from a plan, so they have the table's accuracy
 * (top of this header). Unscaled, it is the sinusoidal table's own plan
 * (dim = rotary_dim, PE_LAYOUT_SPLIT): the same bits as pe_table. Scaled, it
 * is a plan for the scaled w_i (pe_plan_init_frequencies), each exact as the
 * double it is. A rotated pair is within 2 ulp of its length (2 * |pair| *
 * 2^-23, times the attention factor) of the exact rotation of x. Same bits on
 * every build, for any tiling, offset or position list. */
typedef enum pe_rope_order { PE_ROPE_BLHD = 0, PE_ROPE_BHLD = 1 } pe_rope_order;

/* Frequency scaling, as HF transformers' rope_scaling computes it
 * (modeling_rope_utils.py; parameters named as there). f = factor, L0 =
 * original_max_position_embeddings, r = rotary_dim:
 *
 *   NONE      w_i = base^(-2i/r)
 *   LINEAR    w_i / f                                   position interpolation
 *   DYNAMIC   dynamic NTK: for a sequence of length L > L0, w_i from the base
 *             base * (f L / L0 - (f - 1))^(r/(r-2)); unchanged when L <= L0.
 *             L = sequence_length, or else the call's largest position + 1
 *             (HF: max(position_ids) + 1). Needs r >= 4.
 *   YARN      each w_i between w_i / f (interpolation) and w_i (extrapolation)
 *             by a linear ramp over the pairs from the correction range of
 *             beta_fast and beta_slow rotations within L0; cos and sin are
 *             multiplied by the attention factor (float32 products, as HF):
 *             attention_factor if given, else mscale(f, mscale) /
 *             mscale(f, mscale_all_dim) when both are nonzero, else
 *             mscale(f, 1), with mscale(f, m) = 0.1 m ln f + 1 (1 when f <= 1).
 *             factor is used as given (recent HF versions replace it by
 *             max_position_embeddings / L0 when the config has both).
 *   LONGROPE  Phi-3's LongRoPE (HF _compute_longrope_parameters): w_i / e_i with
 *             e = long_factor when the sequence is longer than L0, else
 *             short_factor (r/2 values each, finite, > 0); L as for DYNAMIC.
 *             Attention factor: attention_factor if given, else 1 when
 *             f <= 1, else sqrt(1 + ln f / ln L0) (f: HF's
 *             max_position_embeddings / original_max_position_embeddings).
 *   LLAMA3    wavelength 2 pi / w_i above L0 / low_freq_factor: w_i / f;
 *             below L0 / high_freq_factor: w_i; between: the smooth blend
 *             (1 - s) w_i / f + s w_i, s = (L0 / wavelength - low) / (high - low).
 *
 * All in double with the core's own log and exp (f64math.h): the scaled w_i
 * agree with HF's formulas evaluated in double to about 1e-15 (HF itself
 * rounds them to float32). Zeroed fields take HF's defaults where HF has one. */
typedef enum pe_rope_scaling_type {
    PE_ROPE_SCALING_NONE = 0,
    PE_ROPE_SCALING_LINEAR = 1,
    PE_ROPE_SCALING_DYNAMIC = 2,
    PE_ROPE_SCALING_YARN = 3,
    PE_ROPE_SCALING_LLAMA3 = 4,
    PE_ROPE_SCALING_LONGROPE = 5
} pe_rope_scaling_type;

typedef struct pe_rope_scaling {
    pe_rope_scaling_type type;
    double factor;                             /* f: finite, >= 1 (all but NONE) */
    uint32_t original_max_position_embeddings; /* L0 >= 1 (DYNAMIC, YARN, LLAMA3) */
    double beta_fast, beta_slow;               /* YARN: finite, > 0; 0 = HF's 32 and 1 */
    double attention_factor;                   /* YARN, LONGROPE: finite, > 0; 0 = derived as above */
    double mscale, mscale_all_dim;             /* YARN: finite; used when both are nonzero */
    int no_truncate;                           /* YARN: nonzero = HF's truncate: false (no floor/ceil) */
    double low_freq_factor, high_freq_factor;  /* LLAMA3: 0 < low <= high, finite */
    uint32_t sequence_length;                  /* DYNAMIC, LONGROPE: L; 0 = the call's largest position + 1 */
    const double *short_factor, *long_factor;  /* LONGROPE: rotary_dim/2 each (a plan keeps a copy) */
} pe_rope_scaling;

/* RoPE whose pairs follow more than one position axis (PE_ROPE_AXES_NONE,
 * zero, is plain RoPE). Each row then has one position per axis, listed row
 * by row: positions[l * axes + a] for row l and axis a, length * axes of them
 * (HF's position_ids of shape (axes, batch, length) hold one batch item's as
 * the transpose). This applies to pe_rope, pe_rope_plan_apply and
 * pe_rope_plan_cos_sin (whose cos/sin rows are then the composed ones).
 *
 *   MROPE      Qwen2-VL's and Qwen2.5-VL's multimodal RoPE (HF transformers'
 *              apply_multimodal_rotary_pos_emb): 3 axes, temporal, height
 *              and width; the r/2 pairs, in order, fall in mrope_section[0],
 *              [1] and [2] pairs (their sum is r/2; [16, 24, 24] for head_dim
 *              128), and the pairs of section a turn by axis a's position with
 *              their usual frequencies w_i (as scaled). HF's split of the
 *              cos/sin cache by mrope_section * 2 picks the same axis for
 *              both halves of a pair. Positions NULL: every axis is
 *              offset + l, which is plain RoPE; three equal axes give plain
 *              RoPE's very bits.
 *   MROPE_INTERLEAVED  Qwen3-VL's (and Qwen3.5's) interleaved mrope (HF's
 *              apply_interleaved_mrope, config key mrope_interleaved): the
 *              same 3 axes and sections, but a pair's axis is chosen by its
 *              index modulo 3 instead of by runs: pair i turns by the height
 *              axis when i % 3 == 1 and i < 3 * mrope_section[1], by the
 *              width axis when i % 3 == 2 and i < 3 * mrope_section[2], else
 *              by the temporal axis. The sections sum to r/2, and
 *              3 * mrope_section[a] + a - 3 < r/2 for a = 1, 2 (each of those
 *              axes then owns exactly mrope_section[a] pairs); ([24, 20, 20]
 *              for head_dim 128, [11, 11, 10] for rotary_dim 64).
 *   VISION_2D  2-D axial RoPE of vision patches as Qwen2-VL's vision tower
 *              (VisionRotaryEmbedding(head_dim / 2) and
 *              apply_rotary_pos_emb_vision): 2 axes, the patch's row then
 *              its column; with q = r/4, pairs 0 ... q-1 turn by the row and
 *              pairs q ... 2q-1 by the column, both with the frequencies
 *              w_j = base^(-j/q) of a RoPE of dimension r/2 (j = i mod q), so
 *              each axis's cos and sin are the sinusoidal table of dim r/2 at
 *              that position. r must be a multiple of 4, scaling NONE, and
 *              positions given. A plan keeps no cache (cache_rows taken as 0).
 *
 * Either layout: a pair's section is its index i, wherever the layout puts
 * its two elements. */
#define PE_ROPE_MROPE_AXES 3
typedef enum pe_rope_axes_type {
    PE_ROPE_AXES_NONE = 0,
    PE_ROPE_AXES_MROPE = 1,
    PE_ROPE_AXES_VISION_2D = 2,
    PE_ROPE_AXES_MROPE_INTERLEAVED = 3
} pe_rope_axes_type;

typedef struct pe_rope_axes {
    pe_rope_axes_type type;
    uint32_t mrope_section[PE_ROPE_MROPE_AXES]; /* MROPE(_INTERLEAVED): pairs per axis, each >= 1, sum r/2 */
} pe_rope_axes;
/* xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer"; torchscale's
 * XPOS): RoPE whose pair i is also scaled, by
 *
 *     zeta_i^((p - center) / scale_base)      queries (key = 0)
 *     zeta_i^(-(p - center) / scale_base)     keys (key != 0: torchscale's downscale)
 *     zeta_i = (2i/r + gamma) / (1 + gamma)   i < r/2, r = rotary_dim
 *
 * so q.k of positions m, n carries zeta_i^((m - n)/scale_base): it depends
 * only on m - n (center cancels) and decays with distance. The scale
 * multiplies cos and sin (float32 products cos * s and sin * s, as
 * torchscale's apply_rotary_pos_emb), in both pe_rope_plan_apply and
 * pe_rope_plan_cos_sin; with inverse the angle is negated and the scale is
 * still the role's (so inverse + the other role undoes a rotation).
 *
 * torchscale centres each call at ceil(n/2), n = offset + length, so that
 * its float32 scales stay finite; here center is fixed per plan (give
 * ceil(n/2) to get torchscale's values for a call). Scores are the same for
 * any center up to rounding; the center only moves the window of positions
 * whose scales are finite.
 *
 * Each scale is exp(t), t = (p - center) * ln(zeta_i) / scale_base, with
 * ln(zeta_i) in double-double (dd.h) and the rest in double with the core's
 * exp (f64math.h), rounded once to float32: within half an ulp plus a
 * relative 2e-14 of the exact zeta_i^(...) for the given double gamma and
 * scale_base (FLOAT64 caches: within 2e-14 relative). torchscale computes a
 * float32 pow of a float32 zeta, and 1 / scale for keys.
 * Accepted positions: |p - center| <= reach = floor(64 ln 2 / |ln zeta_0| *
 * scale_base) (pe_rope_xpos_reach; 18130 for torchscale's defaults), so
 * every scale and its inverse lie within 2^-64 ... 2^64; beyond,
 * PE_ERR_XPOS_RANGE, before anything is written. scale_base = 0 turns xPos
 * off. Any scaling other than NONE is refused (PE_ERR_XPOS), as are axes
 * (pe_rope_axes: one position per row only). */
typedef struct pe_xpos {
    double scale_base; /* 0 = off; else finite, >= 1e-6 (torchscale: 512) */
    double gamma;      /* 1e-6 <= gamma <= 1e6 when on (torchscale: 0.4) */
    int key;           /* nonzero: the keys' scale zeta^(-(p - center)/scale_base) */
    uint32_t center;   /* < PE_MAX_POSITION: the position whose scale is 1 */
} pe_xpos;

typedef struct pe_rotary {
    uint32_t head_dim;   /* 1 ... PE_MAX_DIM */
    uint32_t rotary_dim; /* r: even, 2 ... head_dim; 0 = head_dim */
    uint32_t heads;      /* 1 ... PE_MAX_HEADS */
    double base;         /* 1 < base <= PE_MAX_BASE; 10000 in RoFormer, rope_theta in HF configs */
    pe_layout layout;    /* pairs: PE_LAYOUT_INTERLEAVED or PE_LAYOUT_SPLIT (halves) */
    pe_rope_order order;
    int inverse; /* nonzero rotates by -angle: undoes a rotation, re-rotates cached keys */
    pe_rope_scaling scaling;
    pe_rope_axes axes; /* NONE (zeroed): one position per row */
    pe_xpos xpos;      /* all zero: plain RoPE */
} pe_rotary;

/* xPos's window (pe_xpos): *reach = the largest |p - center| accepted
 * (PE_MAX_POSITION when xPos is off). */
PE_API pe_status pe_rope_xpos_reach(const pe_rotary *rope, uint32_t *reach);

/* Bytes of scratch for pe_rope (depends on rotary_dim only). */
PE_API pe_status pe_rope_scratch_size(const pe_rotary *rope, size_t *bytes);

/* The scaled frequencies w[i], i < w_count = rotary_dim / 2, and the
 * attention factor (1 unless YARN). DYNAMIC uses scaling.sequence_length as
 * L (0: no sequence longer than L0, so w is unscaled). */
PE_API pe_status pe_rope_frequencies(const pe_rotary *rope, double *w, size_t w_count, double *attention_factor);

/* Rotates x in place: x_count = batch * length * heads * head_dim. Row l sits
 * at offset + l, or at positions[l] (l < length) when positions is not NULL;
 * then offset must be 0. Positions below PE_MAX_POSITION (offset + length <=
 * PE_MAX_POSITION). Refuses before writing anything. */
PE_API pe_status pe_rope(const pe_rotary *rope, uint32_t offset, uint32_t length, const uint32_t *positions, float *x,
                         size_t x_count, void *scratch, size_t scratch_bytes);

/* ---- Reduced precision ---- */

/* Element types of a table. FLOAT16 (IEEE binary16) and BFLOAT16 (the top
 * half of a float32) are uint16_t bit patterns; FLOAT64 gives the core's own
 * float64 values, the ones FLOAT32 rounds.
 *
 * FLOAT16 and BFLOAT16 values are the core's float64 rounded once, to
 * nearest with ties to even (never through float32, which would round
 * twice): within half an ulp plus 2.7e-12 of exact. Under PE_ROUNDING_CORRECT
 * they are correctly rounded: where that float64 lies within its bound
 * (2.7e-12, sinusoid/plan.h) of a midpoint, from the position in
 * double-double (sinusoid/settle.h). Same bits on every build,
 * for every position source. FLOAT64 gives the float64 values as they are
 * (within 2.7e-12 of exact). */
typedef enum pe_dtype {
    PE_DTYPE_FLOAT32 = 0,  /* float: pe_plan_table */
    PE_DTYPE_FLOAT16 = 1,  /* uint16_t: 1 sign, 5 exponent, 10 fraction bits */
    PE_DTYPE_BFLOAT16 = 2, /* uint16_t: 1 sign, 8 exponent, 7 fraction bits */
    PE_DTYPE_FLOAT64 = 3   /* double */
} pe_dtype;

/* As pe_plan_table / pe_plan_table_at, with out an array of out_count
 * elements of dtype (out_count = rows * dim, whatever the dtype). */
PE_API pe_status pe_plan_table_dtype(pe_plan *plan, pe_dtype dtype, uint32_t offset, uint32_t length, void *out,
                                     size_t out_count);
PE_API pe_status pe_plan_table_at_dtype(pe_plan *plan, pe_dtype dtype, const uint32_t *positions, size_t count,
                                        void *out, size_t out_count);
/* One-shot versions, scratch of pe_scratch_size(dim) bytes. */
PE_API pe_status pe_table_dtype(const pe_sinusoid *enc, pe_dtype dtype, uint32_t offset, uint32_t length, void *out,
                                size_t out_count, void *scratch, size_t scratch_bytes);
PE_API pe_status pe_table_at_dtype(const pe_sinusoid *enc, pe_dtype dtype, const uint32_t *positions, size_t count,
                                   void *out, size_t out_count, void *scratch, size_t scratch_bytes);

/* out[k] = in[k] rounded to dtype (nearest, ties to even, from float64 in one
 * step), for k < count; out holds out_count = count elements of dtype and
 * must not overlap in. Subnormal results are kept, signs of zeros too; magnitudes at
 * or above the midpoint past the largest finite value (65520 for float16)
 * become infinity; NaN stays NaN (quiet). Integer operations only. */
PE_API pe_status pe_narrow_f64(pe_dtype dtype, const double *in, size_t count, void *out, size_t out_count);

/* What common naive recipes compute, for comparison (all float32 outputs
 * hold values of the recipe's dtype exactly). With w_i the encoding's exact
 * frequency (each w_i <= 1, else PE_ERR_FREQUENCY_VALUE) and round() the dtype's
 * round-to-nearest-even:
 *
 *   position = round(p)          (float16: p >= 65520 becomes infinity)
 *   inv_freq = round(w_i)
 *   angle    = round(position * inv_freq)           one multiply in the dtype
 *   PE       = round(sin(angle)), round(cos(angle)) sin, cos of the rounded
 *              angle in float64 (pe_sincos, within 2^-52), then rounded to the dtype;
 *              NaN for an infinite angle
 *
 *   PE_RECIPE_FLOAT32_ANGLE  float32: PyTorch's usual float32 table
 *                            (torch.arange(...).float() * inv_freq, then
 *                            .sin() / .cos()), with the best float32 inv_freq
 *   PE_RECIPE_FLOAT16        float16: the same code with dtype=torch.float16
 *   PE_RECIPE_BFLOAT16       bfloat16: with dtype=torch.bfloat16
 *
 * The angle's rounding is what hurts: near p = 10^6 a float32 angle is off by
 * up to 2^-5, a bfloat16 position by up to 2^11. */
typedef enum pe_recipe { PE_RECIPE_FLOAT32_ANGLE = 0, PE_RECIPE_FLOAT16 = 1, PE_RECIPE_BFLOAT16 = 2 } pe_recipe;

PE_API pe_status pe_plan_recipe_table(pe_plan *plan, pe_recipe recipe, uint32_t offset, uint32_t length, float *out,
                                      size_t out_count);
PE_API pe_status pe_recipe_table(const pe_sinusoid *enc, pe_recipe recipe, uint32_t offset, uint32_t length, float *out,
                                 size_t out_count, void *scratch, size_t scratch_bytes);

/* ---- RoPE plans (after pe_dtype, which they take) ---- */

/* RoPE plans: what pe_rope rebuilds on every call (the scaled frequencies,
 * the attention factor, the sinusoidal plan behind cos and sin) built once in
 * caller memory, plus, when cache_rows > 0, a cache of the laid-out cos/sin
 * rows of positions 0 ... cache_rows - 1. A plan gives the very bits pe_rope
 * gives for the same rope and positions, with or without its cache, on every
 * build. Like pe_plan it is not thread-safe, must not be moved or copied, and
 * needs no teardown.
 *
 * The cache holds rotary_dim floats per row for halves (PE_LAYOUT_SPLIT),
 * 2 * rotary_dim for adjacent pairs; it is left out (cache_rows
 * taken as 0) for DYNAMIC scaling without a fixed sequence_length, whose
 * frequencies follow each call's sequence length. */
typedef struct pe_rope_plan pe_rope_plan;

#define PE_ROPE_MAX_CACHE_ROWS 1048576u /* 2^20 rows */

/* Bytes of plan memory for rope with cache_rows rows cached
 * (0 ... PE_ROPE_MAX_CACHE_ROWS). */
PE_API pe_status pe_rope_plan_size(const pe_rotary *rope, uint32_t cache_rows, size_t *bytes);
/* Builds the plan in memory (bytes >= pe_rope_plan_size's). Every refusal,
 * a scaling whose frequencies the plan cannot take included (LONGROPE
 * factors that put some w_i / factor_i above PE_MAX_FREQUENCY for
 * scaling.sequence_length: PE_ERR_SCALING), comes before memory and *plan are
 * written. */
PE_API pe_status pe_rope_plan_init(const pe_rotary *rope, uint32_t cache_rows, void *memory, size_t bytes,
                                   pe_rope_plan **plan);

/* pe_rope with the plan: x of dtype FLOAT32 (float), or FLOAT16 / BFLOAT16
 * (uint16_t bit patterns: each rotated element is widened to float32, rotated
 * with the float32 operations above and rounded once, to nearest even, back to
 * its dtype; the elements past rotary_dim are not touched). x_count counts
 * elements. sequence_length is DYNAMIC's L when the rope's own is 0 (0: this
 * call's largest position + 1). Refuses before writing anything. */
PE_API pe_status pe_rope_plan_apply(pe_rope_plan *plan, pe_dtype dtype, uint32_t sequence_length, uint32_t offset,
                                    uint32_t length, const uint32_t *positions, void *x, size_t x_count);
/* The same with x of `heads` heads (1 ... PE_MAX_HEADS; 0 = the plan's own
 * count): x_count = batch * length * heads * head_dim. One plan then rotates
 * the queries and the fewer key heads of grouped-query attention (GQA, MQA),
 * or a tensor-parallel shard's heads; the bits of a head do not depend on the
 * count. */
PE_API pe_status pe_rope_plan_apply_heads(pe_rope_plan *plan, pe_dtype dtype, uint32_t heads, uint32_t sequence_length,
                                          uint32_t offset, uint32_t length, const uint32_t *positions, void *x,
                                          size_t x_count);

/* cos and sin of the rows at offset ... offset + length - 1 (or positions[l]),
 * times the attention factor, as engines cache them:
 *
 *     expand = 0   (length, rotary_dim / 2)   cos[l][i] = a cos(p_l w_i)       ONNX RotaryEmbedding's cos_cache
 *     expand = 1   (length, rotary_dim)       HF: cat(freqs, freqs) for PE_LAYOUT_SPLIT,
 *                                             each value twice for PE_LAYOUT_INTERLEAVED
 *
 * count elements of dtype each (count = length * the row size). FLOAT32: the
 * float32 products rope itself multiplies by (float(cos) * float(a), as HF's
 * cos() * attention_scaling), so with a = 1 the table's float32 values
 * (correctly rounded under PE_ROUNDING_CORRECT). FLOAT16 and BFLOAT16 with
 * a = 1 and no xPos: the table's (as pe_table_dtype). With an attention factor or xPos scales: a
 * times the core's float64 cos and sin (within 2.7e-12 of exact) times the
 * scale, rounded once: within half an ulp plus about 3e-12, not correctly
 * rounded. FLOAT64: those float64 products. inverse does not change the signs
 * here (the caches of HF and ONNX hold +sin). */
PE_API pe_status pe_rope_plan_cos_sin(pe_rope_plan *plan, pe_dtype dtype, int expand, uint32_t offset, uint32_t length,
                                      const uint32_t *positions, void *cos, void *sin, size_t count);

/* 2-D sin-cos for vision transformers, as MAE's get_2d_sincos_pos_embed
 * (facebookresearch/mae, util/pos_embed.py; also in DiT, I-JEPA and others
 * built on it). A height x width grid of patches, token t = y * width + x
 * (row-major, y the row), dim = 4k:
 *
 *     [ sin(x w_0) ... sin(x w_{k-1})  cos(x w_0) ... cos(x w_{k-1})     first half: the column x
 *       sin(y w_0) ... sin(y w_{k-1})  cos(y w_0) ... cos(y w_{k-1}) ]   second half: the row y
 *
 * w_i = base^(-i/k) = base^(-2i/(dim/2)): each half is the 1-D split-layout
 * table of dim/2 (MAE's get_1d_sincos_pos_embed_from_grid). The column comes
 * first because MAE builds np.meshgrid(grid_w, grid_h) and encodes grid[0],
 * the x coordinate, first (its variable is called emb_h). With cls_token a
 * row of zeros comes first: out is (cls_token + height * width) x dim floats.
 * Same accuracy and bits as pe_table. */
typedef struct pe_grid2d {
    uint32_t height, width; /* grid rows and columns, each <= PE_MAX_POSITION */
    uint32_t dim;           /* a multiple of 4, 4 ... PE_MAX_DIM */
    double base;            /* 1 < base <= PE_MAX_BASE; 10000 in MAE */
    int cls_token;          /* nonzero: a leading row of zeros */
} pe_grid2d;

PE_API pe_status pe_table_2d_scratch_size(const pe_grid2d *grid, size_t *bytes);
PE_API pe_status pe_table_2d(const pe_grid2d *grid, float *out, size_t out_count, void *scratch, size_t scratch_bytes);

/* ---- Relative position encodings ---- */

/* T5's relative attention buckets (Raffel et al., "Exploring the limits of
 * transfer learning"; HF transformers T5Attention._relative_position_bucket
 * and compute_bias, mesh-tensorflow's _relative_position_bucket). Query row i
 * sits at key position q = query_offset + i (query_offset = key_length -
 * query_length aligns the last query with the last key, as HF does when
 * decoding with a cache; the same alignment as pe_alibi). For key j the
 * relative position is r = j - q, and with B = num_buckets:
 *
 *   bidirectional (T5's encoder): half = B / 2 buckets per side,
 *       r <= 0 (key behind):  side(-r, half)
 *       r > 0  (key ahead):   half + side(r, half)
 *   causal (T5's decoder):
 *       r <= 0:  side(-r, B)        r > 0:  0
 *
 *   side(n, c), e = c / 2:  n                                         n < e
 *                           min(c - 1, e + trunc(log(n / e) / log(D / e) * (c - e)))
 *
 * with D = max_distance: distances below e get a bucket each, the rest share
 * buckets on a log scale up to D, past which every distance shares the last.
 * The large branch is evaluated as T5 does, in float32, one rounding per
 * operation (float(n), / e, log, / float32(log(D / e)), * (c - e)), with a
 * correctly rounded float32 log of the core's own, so every bucket is the one
 * T5's code gives (for T5's encoder, B = 32 and D = 128, a log 1 ulp low
 * would move distances 16, 32 and 64 down a bucket: log(2^k) / log(16) * 8
 * lands exactly on 2k). T5, mT5, ByT5, Flan-T5, LongT5 and UMT5 use B = 32,
 * D = 128; the bias table is learned (T5 shares it across layers). */
#define PE_T5_MAX_BUCKETS 1024u

typedef struct pe_t5 {
    uint32_t query_length; /* rows */
    uint32_t key_length;   /* columns: <= PE_MAX_POSITION */
    uint32_t query_offset; /* key position of query row 0; offset + query_length <= PE_MAX_POSITION */
    uint32_t num_buckets;  /* B <= PE_T5_MAX_BUCKETS, with e >= 1: B >= 4 (bidirectional), B >= 2 (causal) */
    uint32_t max_distance; /* D: e < D <= PE_MAX_POSITION */
    int bidirectional;     /* nonzero: encoder buckets; 0: causal (decoder) buckets */
} pe_t5;

/* out[i * key_length + j] = the bucket of (row i, key j), each in [0, B);
 * out_count = query_length * key_length. */
PE_API pe_status pe_t5_buckets(const pe_t5 *t5, int32_t *out, size_t out_count);

/* The position bias, as HF's compute_bias lays it out: (heads, query_length,
 * key_length), bias[h, i, j] = table[bucket(i, j) * heads + h], where table
 * is the learned (B x heads) relative_attention_bias.weight (row-major,
 * table_count = B * heads, else PE_ERR_TABLE_ROWS). Heads first_head ...
 * first_head + head_count - 1 (a slice, or all of them): out_count =
 * head_count * query_length * key_length. Values are copied bit for bit. out
 * must not overlap table (PE_ERR_OVERLAP). */
PE_API pe_status pe_t5_bias(const pe_t5 *t5, const float *table, size_t table_count, uint32_t heads,
                            uint32_t first_head, uint32_t head_count, float *out, size_t out_count);

/* Shaw et al.'s clipped relative positions ("Self-attention with relative
 * position representations", NAACL 2018; tensor2tensor's
 * _generate_relative_positions_matrix): with k = max_relative and q =
 * query_offset + i as above,
 *
 *     out[i * key_length + j] = clip(j - q, -k, k) + k      in [0, 2k]
 *
 * the row of the learned (2k + 1) x d embeddings a_ij^K and a_ij^V use.
 * out_count = query_length * key_length. */
#define PE_SHAW_MAX_RELATIVE 1073741823u /* 2^30 - 1: 2k + 1 fits int32 */

typedef struct pe_shaw {
    uint32_t query_length, key_length, query_offset; /* as in pe_t5 */
    uint32_t max_relative;                           /* k <= PE_SHAW_MAX_RELATIVE */
} pe_shaw;

PE_API pe_status pe_shaw_indices(const pe_shaw *shaw, int32_t *out, size_t out_count);
/* ---- Diagnose: which convention a table follows ---- */

/* pe_diagnose reads a table of float32 values (rows x cols, row-major, as a
 * user holds it: a sinusoidal table, a RoPE cos or sin cache, or a learned
 * table) and finds the convention that explains it: row layout, pairing,
 * frequency rule, base, first position, padding rows, scale, RoPE scaling and
 * the precision recipe that produced the values, then measures the error
 * against the exact table of that convention. pe_diagnosis_text writes the
 * verdict in plain words; pe_diagnosis_json the same facts as one JSON object
 * (the JS package returns it; both CLIs print the text, so they agree byte
 * for byte).
 *
 * The model: after orientation (a (dim, rows) table is detected and read
 * transposed) and dropping rows of zeros (padding), column j holds
 * A * sin((p0 + r) * w_k + phi_j), phi_j 0 (sine) or pi/2 (cosine), for row r.
 * Pairs are read with atan2 and fitted by least squares on the unwrapped
 * phase (w to about 1e-12 relative with thousands of rows); base and rule
 * from log w_k against k; the first position p0 from the phases, lowest
 * frequency first. Costs about 30 ns per cell (8192 x 1024 in about 0.3 s in
 * wasm); no allocation: scratch of pe_diagnose_scratch_size bytes. */
typedef enum pe_diag_kind {
    PE_DIAG_AUTO = 0,   /* decide between the two below */
    PE_DIAG_TABLE = 1,  /* columns in sine-cosine pairs */
    PE_DIAG_COS_SIN = 2 /* a RoPE cache: a cos or a sin table (halves or neighbours duplicated), or both side by side */
} pe_diag_kind;

/* How the values were computed (float32 angle: angle = float32(p * inv_freq)
 * with inv_freq a float32, then sin and cos). */
typedef enum pe_diag_recipe {
    PE_DIAG_RECIPE_UNKNOWN = 0,
    PE_DIAG_RECIPE_EXACT = 1,       /* exact (float64 angles, rounded once), posenc, HF Marian's numpy */
    PE_DIAG_RECIPE_F32_ROUNDED = 2, /* float32 angle, inv_freq the float32 nearest w */
    PE_DIAG_RECIPE_F32_HF = 3,      /* float32 angle, inv_freq = 1 / (base ** (arange(0, d, 2) / d)) in float32 (HF) */
    PE_DIAG_RECIPE_F32_KERAS = 4,   /* float32 angle, inv_freq = (1 / base) ** (2i / d) in float32 (Keras) */
    PE_DIAG_RECIPE_F32_EXP =
        5, /* float32 angle, inv_freq = exp(arange * -(log(base) / n)) in float32 (tutorial, t2t, fairseq) */
    PE_DIAG_RECIPE_F32_FITTED = 6, /* float32 angle, inv_freq float32 values (scaled RoPE: as fitted) */
    PE_DIAG_RECIPE_F16 = 7,        /* every step in float16 (pe_recipe FLOAT16) */
    PE_DIAG_RECIPE_BF16 = 8,       /* every step in bfloat16 (pe_recipe BFLOAT16) */
    PE_DIAG_RECIPE_F64_NUMPY = 9   /* float64 angles p * exp(arange(0,d,2) * -(log(base)/d)), float64 sin/cos, then
                                      cast (numpy): tables only */
} pe_diag_recipe;

typedef enum pe_diag_scaling {
    PE_DIAG_SCALING_NONE = 0,
    PE_DIAG_SCALING_LINEAR = 1, /* every w divided by factor */
    PE_DIAG_SCALING_YARN = 2,   /* ramp over pair indices between band_low and band_high; HF's parameters below */
    PE_DIAG_SCALING_LLAMA3 = 3, /* blend linear in frequency between wavelengths band_low and band_high */
    PE_DIAG_SCALING_BANDED =
        4, /* unscaled high frequencies, scaled low ones; too few pairs in between to tell YaRN from Llama 3 */
    PE_DIAG_SCALING_PER_PAIR = 5, /* not geometric nor banded: per-pair factors (LongRoPE) in pair_factor */
    PE_DIAG_SCALING_DYNAMIC = 6   /* a RoPE cache at a base that is rope_theta scaled by HF's dynamic NTK rule */
} pe_diag_scaling;

#define PE_DIAG_BANDS        12  /* error bands of positions: [0, 64), [64, 256), ... x4 ..., the last open */
#define PE_DIAG_NEAREST      4   /* candidates listed when nothing fits */
#define PE_DIAG_PAIR_FACTORS 256 /* LongRoPE factors listed (head dims up to 512) */

/* pe_diagnosis.searched: the readings that ran. */
#define PE_DIAG_SEARCHED_PHASE       1u  /* phase lines: frequencies fitted at any base, the first position from them */
#define PE_DIAG_SEARCHED_EXACT_TABLE 2u  /* a float32 table at each recipe's inv_freq, positions to 2^31 */
#define PE_DIAG_SEARCHED_EXACT_CACHE 4u  /* a cache unscaled or linear at HF's float32 inv_freq, positions to 2^31 */
#define PE_DIAG_SEARCHED_DYNAMIC     8u  /* dynamic NTK at common rope_theta values */
#define PE_DIAG_SEARCHED_SCALED      16u /* YaRN and Llama 3 at HF's canonical parameter sets */
#define PE_DIAG_SEARCHED_FROM0       32u /* a cache read from position 0, each column's frequency fitted (LongRoPE) */
#define PE_DIAG_SEARCHED_GRID        64u /* a 2-D grid (MAE) */
#define PE_DIAG_SEARCHED_LONGROPE    128u /* LongRoPE at two-decimal factors the recurrences fix, positions to 2^31 */
/* not a reading: the columns were found sinusoidal only by their slow ones (the fast ones off the recurrence, as
 * float32 angles far out make them), so no reading's first position is an estimate */
#define PE_DIAG_SEARCHED_SLOW_ONLY 256u
/* a cache far out (near 2^24 and past it) from column 0's cells: positions to 2^31 on their float32 grid, then
 * HF's unscaled, linear (power-of-two factors), YaRN and Llama 3 sets at the common rope_theta values, and dynamic
 * NTK bases (alpha - 1 a multiple of 1/8 up to alpha 32) */
#define PE_DIAG_SEARCHED_FAR 512u

typedef struct pe_diagnosis {
    /* shape */
    uint32_t rows, cols;              /* as read (after transposing back) */
    int transposed;                   /* 1: the input was (dim, rows) */
    uint32_t leading_zero_rows;       /* rows of zeros before the first position (padding, a cls token) */
    uint32_t zero_rows;               /* rows of zeros in all (fairseq's padding_idx row) */
    int64_t first_inner_zero_row;     /* the first zero row after a nonzero one, -1 when none */
    pe_dtype storage;                 /* FLOAT32, or FLOAT16 / BFLOAT16 when every value is one */
    uint32_t grid_height, grid_width; /* a 2-D table (MAE): patches, row-major; 0 when 1-D. The rest
                                         then describes each half (cols / 2 columns), read on row 0 */
    /* the convention */
    int sinusoidal;    /* 1: the columns are sinusoids of the position */
    int identified;    /* 1: a known convention and recipe explain every cell */
    pe_diag_kind kind; /* TABLE (pairs) or COS_SIN (a cache of one function) */
    int cache_cos;     /* COS_SIN: 1 cos cache, 0 sin cache */
    int duplicated;    /* COS_SIN: 0 no, 1 halves [f0..fh f0..fh] (rotate_half), 2 neighbours [f0 f0 f1 f1] (GPT-J) */
    pe_layout layout;  /* TABLE: interleaved or split */
    int cos_first;     /* TABLE: 1 when cosines come first */
    uint32_t pairs;    /* frequencies in the table */
    int rule;          /* 0 paper, 1 tensor2tensor, 2 other (not geometric), -1 undetermined */
    double base;       /* fitted T; 0 when undetermined */
    int base_digits;   /* significant digits the data determine (0 undetermined) */
    int base_round;    /* 1: T is a round number (3 significant digits) within its precision */
    double offset;     /* position of the first nonzero row */
    int offset_known;  /* 1 when determined */
    double offset_sd;  /* the sd of the fitted first position (before rounding to a whole one) */
    double offset_searched; /* first positions searched: [0, offset_searched) (2^31 - rows, unless capped) */
    double scale;           /* constant amplitude A */
    pe_diag_scaling scaling;
    double factor; /* LINEAR / YARN / LLAMA3 / DYNAMIC: f; PER_PAIR: HF's factor when the attention tells */
    double band_low, band_high; /* YARN: ramp pairs; LLAMA3: wavelengths; PER_PAIR: smallest and largest factor */
    double attention_factor; /* YARN, PER_PAIR: the amplitude of the cache when it is not 1 (HF multiplies cos and sin
                                by it) */
    pe_diag_recipe recipe;
    pe_diag_recipe recipe_tied; /* another recipe the data cannot tell apart, or UNKNOWN */
    double recipe_match;        /* fraction of sampled cells the recipe reproduces within 1 ulp */
    pe_diag_recipe inv_formula; /* F32_FITTED: the formula (F32_ROUNDED ... F32_EXP) giving the most of its inv_freq */
    double inv_formula_share;   /* the share of pairs whose float32 inv_freq that formula gives exactly */
    /* error against the exact table of the convention (relative to A) */
    double max_error;
    double band_error[PE_DIAG_BANDS];         /* max per band of positions; -1 for bands without rows */
    int64_t first_above_1e6, first_above_1e3; /* positions, -1 when never */
    double rms_error;                         /* rms of data / A - exact over every cell */
    /* when nothing fits: distance (rms, relative to the data's rms) to standard tables at base 10000 */
    int nearest_layout[PE_DIAG_NEAREST], nearest_rule[PE_DIAG_NEAREST], nearest_cos_first[PE_DIAG_NEAREST];
    double nearest_distance[PE_DIAG_NEAREST];
    /* RoPE scaling in HF's rope_scaling parameters (config.json names). Several
     * parameter sets often give the same frequencies: then params_canonical is
     * 1 and the canonical set is given (HF's defaults for the undetermined
     * ones, round numbers within the ranges the data leave); the text says
     * what the data fix. 0 where a parameter does not apply. */
    int params_canonical;
    double rope_theta;   /* the unscaled base: DYNAMIC the original one, PER_PAIR the base the factors are read at */
    double original_max; /* original_max_position_embeddings: YARN, LLAMA3, DYNAMIC, PER_PAIR (from the attention) */
    double original_lo, original_hi; /* YARN: the range of original_max_position_embeddings giving these frequencies
                                        with beta_fast and beta_slow as given */
    double beta_fast, beta_slow;     /* YARN */
    int truncated;                   /* YARN: 1 the ramp ends on whole pairs (HF's truncate, the default) */
    double low_freq_factor, high_freq_factor; /* LLAMA3 (band_low = original / low, band_high = original / high) */
    double mscale;         /* YARN: attention_factor = 0.1 mscale ln(factor) + 1; 0 when the cache carries none */
    double seq_len;        /* DYNAMIC: the sequence length the cache was built at (its positions) */
    double dynamic_alpha;  /* DYNAMIC (or a cache at a base that is not round): (base / rope_theta)^((d-2)/d), which
                              HF's rule makes factor (seq_len / original_max - 1) + 1 */
    int long_factors;      /* PER_PAIR: 1 long_factor (seq_len past original_max), 0 short_factor, -1 undetermined */
    uint32_t pair_factors; /* PER_PAIR: factors in pair_factor (0 for more than PE_DIAG_PAIR_FACTORS) */
    double pair_factor[PE_DIAG_PAIR_FACTORS]; /* PER_PAIR: w_k = 1 / (pair_factor[k] rope_theta^(2k/d)) */
    /* the recipe's share of sampled cells bit for bit (recipe_match counts those within 1 ulp): below it, sin and
     * cos were not correctly rounded (PyTorch's float32 sin/cos are an ulp off at some cells) */
    double recipe_exact_share;
    uint32_t zero_last_columns; /* trailing columns of zeros read past (fairseq pads an odd embedding_dim with one) */
    /* PER_PAIR: the factors whose columns reproduce every cell checked, around the fit (hi 1e300: no upper bound,
     * a column that hardly turns over the rows); pair_factors_open counts the pairs whose bracket holds more than
     * one two-decimal value and is wider than 2e-4 (relative): their pair_factor is a middle, not a reading */
    double pair_factor_lo[PE_DIAG_PAIR_FACTORS], pair_factor_hi[PE_DIAG_PAIR_FACTORS];
    uint32_t pair_factors_open;
    unsigned char pair_factor_open[PE_DIAG_PAIR_FACTORS]; /* 1: that pair's factor is left open */
    /* what the reading searched (every verdict; the text lists it when no convention reproduces the cells) */
    uint32_t searched;            /* PE_DIAG_SEARCHED_* bits: the readings that ran */
    double searched_positions;    /* the widest range of first positions a reading covered: [0, searched_positions) */
    uint32_t searched_candidates; /* HF parameter sets (dynamic NTK, YaRN, Llama 3) read cell by cell */
    int searched_budget_spent;    /* 1: a step budget ended a search before its range's end */
    /* positions rounded to float32 past 2^24 (HF's position_ids.float()) make consecutive rows repeat: the grid's
     * step 2^k the runs show, the first position then in [2^(23+k), 2^(24+k)) (or, with fewer than two whole
     * runs, a lower bound: position_grid is the least step the runs allow); 0 when rows do not repeat so */
    uint32_t position_grid;
    uint32_t distinct_rows;  /* position_grid: rows that differ from the row before (grid positions seen) */
    int position_grid_whole; /* position_grid: 1 the step is read from two or more whole runs, 0 a lower bound */
    /* position_grid_whole: the first nonzero row's position modulo 2 position_grid, read from where the runs break
     * (a run of 2^k + 1 rows is centred on a grid point whose float32 mantissa is even, 0 mod 2^(k+1)); -1 unknown */
    int32_t position_grid_phase;
    /* YARN, LLAMA3: another factor whose HF parameter set (the rest as given) reproduces the cells as well, bit for
     * bit: the cells leave the factor open between the two (factor is the one read first); 0 when they fix it */
    double factor_tied;
    /* LLAMA3 read from a cache: the least original wavelength 2 pi rope_theta^(2k/d) from which on every pair's
     * cells are in every row what frequency 0 gives (a cos cache from position 0 stored as float16 or bfloat16: cos
     * rounds to the amplitude), when at most one ramp pair is read below it: the low band and the factor are then
     * not read (the canonical set is given); 0 when the cells read the ramp */
    double unread_wavelength;
    /* PER_PAIR read far out at a shipped model's factor list (diag_longrope_lists.c): its index + 1; -1 at
     * two-decimal factors searched far out (diag_far_longrope_search.c); 0 when the factors were read from the
     * cells (or the scaling is not LongRoPE) */
    int32_t longrope_list;
} pe_diagnosis;

/* Scratch bytes for a rows x cols table. About 8 * cols * 300 + pe_scratch_size(cols). */
PE_API pe_status pe_diagnose_scratch_size(uint32_t rows, uint32_t cols, size_t *bytes);

/* Reads table (rows x cols float32, row-major; rows * cols >= 1, cols or rows >= 2).
 * Refuses PE_ERR_NOT_FINITE when a cell is NaN or infinite (*bad_cell set to
 * its index when bad_cell is not NULL), before writing result. */
PE_API pe_status pe_diagnose(const float *table, uint32_t rows, uint32_t cols, pe_diag_kind kind, pe_diagnosis *result,
                             size_t *bad_cell, void *scratch, size_t scratch_bytes);

/* The verdict in plain words, NUL-terminated, into out (out_bytes >= 1; cut
 * short when too small). *written = the length it needs, without the NUL. */
PE_API pe_status pe_diagnosis_text(const pe_diagnosis *d, char *out, size_t out_bytes, size_t *written);
/* The same facts as one JSON object (numbers with 17 significant digits). */
PE_API pe_status pe_diagnosis_json(const pe_diagnosis *d, char *out, size_t out_bytes, size_t *written);

/* ---- Diagnose a bare frequency vector (a checkpoint's inv_freq buffer) ----
 *
 * pe_diagnose_inv_freq reads w_0 ... w_{count-1}, one frequency per rotated
 * pair as HF keeps it (float32, or float64/float16/bfloat16 after a cast; the
 * storage is the narrowest dtype holding every value exactly), and names
 * rotary dim, base, RoPE scaling with HF's rope_scaling parameters, and the
 * recipe: each candidate is regenerated value by value as the peer computes it
 * (HF's float32 1/(base**(arange(0,d,2)/d)) and its scaling steps, the
 * tutorial's exp(arange * -(log(base)/d)), Keras's (1/base)**(2i/d), exact
 * frequencies rounded once) and compared bit for bit. What a vector cannot
 * tell is said, not guessed: head_dim (only rotary_dim = 2 count, or
 * 2 count - 1), linear scaling of positions (HF before 4.43 and most runtimes
 * leave inv_freq unscaled), LongRoPE's short or long list, and the sequence
 * length behind a dynamic NTK base. No scratch, no allocation. */
#define PE_INV_FREQ_MAX_COUNT (PE_MAX_DIM / 2)

typedef struct pe_inv_freq_diagnosis {
    uint32_t count;          /* frequencies read */
    uint32_t rotary_dim;     /* 2 count, or 2 count - 1 when the exponents are 2k / (2 count - 1) */
    pe_dtype storage;        /* FLOAT64, FLOAT32, FLOAT16 or BFLOAT16 */
    int identified;          /* 1: the recipe at the parameters below gives every value within 1 ulp */
    int rule;                /* 0 RoPE/paper (w_k = base^(-2k/d)), 1 tensor2tensor (base^(-k/(count-1))), -1 none */
    double base;             /* rope_theta (DYNAMIC: the rescaled base the vector holds); 0 when undetermined */
    int base_digits;         /* significant digits of base the values determine */
    int base_round;          /* 1: base is a round number (a common rope_theta or 1-3 significant digits) */
    pe_diag_scaling scaling; /* NONE, LINEAR, YARN, LLAMA3, PER_PAIR (LongRoPE) or DYNAMIC; BANDED is not used */
    double factor;           /* LINEAR, YARN, LLAMA3: HF's factor; DYNAMIC: 0 (not determined) */
    double original_max;     /* YARN, LLAMA3: original_max_position_embeddings (canonical) */
    double original_lo, original_hi; /* YARN: the range of original_max giving the same ramp with these betas */
    double ramp_low, ramp_high;      /* YARN: the ramp's ends in pairs; LLAMA3: the wavelengths original/low and
                                        original/high the values fix */
    double beta_fast, beta_slow;     /* YARN */
    int truncated;                   /* YARN: 1 the ramp ends on whole pairs (HF's truncate, the default) */
    int ramp_fixed;                  /* YARN, LLAMA3: 1 when pairs inside the ramp fix its ends (else bracketed) */
    double low_freq_factor, high_freq_factor; /* LLAMA3 (low canonical 1) */
    double rope_theta;                        /* DYNAMIC: the largest common base below the vector's; else base */
    double dynamic_alpha;  /* DYNAMIC: (base / rope_theta)^((d - 2) / d) = factor * seq_len / original - factor + 1 */
    uint32_t pair_factors; /* PER_PAIR: factors listed (0 past PE_DIAG_PAIR_FACTORS) */
    double pair_factor[PE_DIAG_PAIR_FACTORS]; /* PER_PAIR: short_factor or long_factor, 2 decimals when round */
    int pair_factors_round;                   /* PER_PAIR: 1 every factor has two decimals (a config's list) */
    pe_diag_recipe recipe;                    /* EXACT, F32_HF, F32_KERAS, F32_EXP, or UNKNOWN */
    pe_diag_recipe recipe_tied;               /* another recipe giving as many values bit for bit, or UNKNOWN */
    uint32_t recipe_exact;                    /* values the recipe gives bit for bit */
    uint32_t recipe_near; /* values within 1 ulp of the storage dtype (torch's pow is not correctly rounded) */
    double max_ulps;      /* largest distance from the exact frequencies of these parameters, in storage ulps */
    uint32_t worst_pair;  /* where it is */
    double fit_rms;       /* when nothing is identified: rms of log w_k off the fitted line (0: a line) */
} pe_inv_freq_diagnosis;

/* inv_freq: count values (1 ... PE_INV_FREQ_MAX_COUNT), each finite (else
 * PE_ERR_NOT_FINITE) and in (0, PE_MAX_FREQUENCY] (else
 * PE_ERR_FREQUENCY_VALUE); *bad_index (when not NULL) names the value
 * refused. Nothing is written on refusal. */
PE_API pe_status pe_diagnose_inv_freq(const double *inv_freq, uint32_t count, pe_inv_freq_diagnosis *result,
                                      uint32_t *bad_index);
/* The verdict in plain words / the same facts as one JSON object, as pe_diagnosis_text / _json. */
PE_API pe_status pe_inv_freq_diagnosis_text(const pe_inv_freq_diagnosis *d, char *out, size_t out_bytes,
                                            size_t *written);
PE_API pe_status pe_inv_freq_diagnosis_json(const pe_inv_freq_diagnosis *d, char *out, size_t out_bytes,
                                            size_t *written);
/* ---- Model configs (a model's config.json, as HF transformers reads it) ----
 *
 * pe_config_read interprets the whole text of a config.json (UTF-8, not
 * NUL-terminated, json_bytes bytes) the way HF transformers does, and says
 * which position scheme the model uses with the numbers posenc needs. A
 * top-level "text_config" object (multimodal checkpoints such as Gemma 3) is
 * read in place of the top level. The rules, with HF's names and fallbacks:
 *
 *   kind   model_type t5/mt5/umt5/longt5, or relative_attention_num_buckets: RELATIVE
 *          (T5 buckets); position_embedding_type relative_key: RELATIVE (Shaw,
 *          max_relative = max_position_embeddings - 1); bloom, mpt with
 *          attn_config.alibi, falcon with alibi, or alibi: true: ALIBI;
 *          gpt2/bert/roberta/opt/... with absolute positions: LEARNED;
 *          vit: LEARNED, (image_size / patch_size)^2 + 1 rows ([CLS], then the
 *          patches in raster order; defaults 224 and 16);
 *          marian/m2m_100/fsmt: SINUSOIDAL; any model with RoPE keys or a RoPE
 *          model_type: ROPE. Anything else: PE_ERR_CONFIG.
 *   RoPE   head_dim: qk_rope_head_dim (DeepSeek-V2/V3), else head_dim, else
 *          hidden_size / num_attention_heads (integer division; n_embd, d_model,
 *          n_head, n_heads also read). rotary_dim: int(head_dim *
 *          partial_rotary_factor) (or rotary_pct, GPT-NeoX), or rotary_dim
 *          (GPT-J). base: the dict's rope_theta, else rope_theta, else
 *          rotary_emb_base (GPT-NeoX), else 10000. The dict: rope_parameters
 *          (transformers v5; keyed by layer type when every value is an object)
 *          or rope_scaling; rope_type, else the legacy type ('mrope' means
 *          default frequencies with mrope_section). original_max_position_
 *          embeddings (yarn, llama3, longrope, dynamic): the top-level one
 *          (Phi-3) first, else the dict's, else max_position_embeddings. yarn's
 *          and longrope's factor when absent: max_position_embeddings /
 *          original_max_position_embeddings. Gemma 3's rope_local_base_freq
 *          makes two layer types: full_attention (rope_theta and the dict) and
 *          sliding_attention (rope_local_base_freq, unscaled). Layout:
 *          interleaved for gptj, codegen and deepseek_v2/v3 (rope_interleave),
 *          halves otherwise.
 *   ALiBi  heads: n_head / num_attention_heads / n_heads; MPT's
 *          attn_config.alibi_bias_max must be 8 (the slopes posenc computes).
 *
 * Keys that change the math and are not understood (any unknown key of the
 * RoPE dict; a top-level key naming rope, rotary, alibi or positions that the
 * rules above do not read) are refused: PE_ERR_SCALING, and `keys` holds the
 * key's dotted name, a newline and the reason. Malformed JSON, or no scheme:
 * PE_ERR_CONFIG with the same two lines. RoPE that differs by layer type with
 * layer_type NULL or not one of them: PE_ERR_LAYER_TYPE, and `keys` lists the
 * layer types, one per line (none when the RoPE is one for all layers and a
 * layer_type was named anyway). On success `keys` lists the keys that were not
 * used, one dotted name per line. keys_bytes >= 8 * json_bytes + 256 always
 * suffices (else PE_ERR_OUT_SIZE); `keys` is NUL-terminated whatever the
 * answer, PE_ERR_NULL included, whenever keys is not NULL and keys_bytes >= 1
 * (the read also uses the buffer's far end as scratch).
 *
 * The text is read with JSON's own semantics, as Python's json (HF) and
 * JSON.parse read it: a key given twice means its last value (the earlier
 * ones are neither read nor listed); keys and strings are compared with
 * their escapes decoded ("rope\u005ftheta" is rope_theta); keys are named in
 * `keys` as JSON.stringify writes them. A base (rope_theta, rotary_emb_base,
 * rope_local_base_freq, global_ or local_rope_theta) outside 1 < base <=
 * PE_MAX_BASE is refused (PE_ERR_SCALING naming it). Limits: json_bytes at most
 * PE_CONFIG_MAX_BYTES (else PE_ERR_TOO_LARGE, before anything is read);
 * objects and arrays nested at most PE_CONFIG_MAX_DEPTH deep (else
 * PE_ERR_CONFIG naming "(config)" and the limit); strings strict UTF-8. Time
 * is linear in json_bytes.
 *
 * longrope's short_factor and long_factor are parsed into the caller's
 * factors (factors_count >= rotary_dim is enough, else PE_ERR_SCRATCH) and
 * pointed to by the result. Nothing else is written on refusal but `keys`. */
#define PE_CONFIG_MAX_BYTES 67108864u /* 64 MiB: a config.json is a few kB; longrope's lists a few more */
#define PE_CONFIG_MAX_DEPTH 1000u     /* nesting of objects and arrays; real configs nest 3 or 4 deep */

typedef enum pe_config_kind {
    PE_CONFIG_ROPE = 1,
    PE_CONFIG_ALIBI = 2,
    PE_CONFIG_SINUSOIDAL = 3,
    PE_CONFIG_LEARNED = 4,
    PE_CONFIG_RELATIVE = 5,
    PE_CONFIG_NONE = 6 /* no layer has positions: Mamba, Falcon-Mamba, Jamba (pe_config_layer_read says why) */
} pe_config_kind;

typedef struct pe_config {
    pe_config_kind kind;
    uint32_t heads;           /* num_attention_heads (every kind); 0 when absent */
    uint32_t kv_heads;        /* key/value heads (GQA, MQA): num_key_value_heads, num_kv_heads, n_head_kv, 1 with
                                 multi_query (not with Falcon's new_decoder_architecture); else heads */
    uint32_t hidden_size;     /* hidden_size / n_embd / d_model; 0 when absent */
    uint32_t max_positions;   /* max_position_embeddings / n_positions / max_seq_len; 0 when absent */
    uint32_t position_offset; /* LEARNED, SINUSOIDAL: row of position 0 (RoBERTa, OPT, fairseq: 2) */
    /* ROPE: head_dim, rotary_dim, heads, base, layout and scaling; order BLHD, not inverse */
    pe_rotary rope;
    uint32_t layer_types;                      /* ROPE: how many layer types have their own RoPE (0: one for all) */
    int longrope;                              /* ROPE: rope_type 'longrope' (rope.scaling.type is then NONE) */
    double longrope_factor;                    /* the factor (given, or the ratio above) */
    double longrope_attention_factor;          /* given, or 0: HF's sqrt(1 + ln f / ln L0) when f > 1, else 1 */
    const double *short_factor, *long_factor;  /* rotary_dim / 2 each, in the caller's factors */
    uint32_t mrope_section[4], mrope_sections; /* Qwen2-VL: temporal, height, width pairs */
    int mrope_interleaved;                     /* Qwen3-VL's mrope_interleaved: pairs by index mod 3 */
    /* SINUSOIDAL */
    pe_layout layout;
    pe_frequencies frequencies;
    /* RELATIVE */
    int shaw;                           /* 0: T5 buckets; 1: Shaw's clipped distances (BERT relative_key) */
    uint32_t num_buckets, max_distance; /* T5: relative_attention_num_buckets, _max_distance */
    uint32_t max_relative;              /* Shaw: the clipping distance k */
    int encoder_decoder;                /* T5: encoder buckets are bidirectional, decoder ones causal */
} pe_config;

PE_API pe_status pe_config_read(const char *json, size_t json_bytes, const char *layer_type, double *factors,
                                size_t factors_count, pe_config *out, char *keys, size_t keys_bytes);

/* Every layer type of a config whose RoPE differs by layer type, in one
 * reading: out[t] is what pe_config_read answers for the t-th layer type it
 * lists (layer_type NULL), in time linear in json_bytes and the types, where
 * one pe_config_read a type costs the whole config each time. count is out's
 * room: at least the types (else PE_ERR_OUT_SIZE). Each type's longrope lists
 * follow the previous type's in factors (factors_count >= json_bytes / 2 + 2
 * always suffices). Refusals: pe_config_read's for no layer type;
 * PE_ERR_LAYER_TYPE with `keys` empty when the RoPE is one for every layer
 * (or there is none); else the first type's refusal, `keys` as
 * pe_config_read writes it, and *refused (when not NULL) that type's index
 * (count when no one type's reading refused). On success `keys` lists the keys the last type's
 * reading did not use, less the other types' entries. keys_bytes as
 * pe_config_read's. Nothing is written to out or factors on refusal. */
PE_API pe_status pe_config_read_types(const char *json, size_t json_bytes, double *factors, size_t factors_count,
                                      pe_config *out, uint32_t count, char *keys, size_t keys_bytes, uint32_t *refused);

/* One layer of a model, as its config and HF's modeling code lay the layers
 * out (pe_config_layer_read). Layer i's positions are those pe_config_read
 * describes for layer_type (NULL when layer_type is ""), unless positions says
 * the layer has none:
 *
 *   NoPE attention  Llama 4 and SmolLM3 layers whose no_rope_layers entry is 0
 *                   (the list when given and not empty, else 1 for every layer
 *                   but each no_rope_layer_interval-th, default 4); Cohere 2's
 *                   full-attention layers (only its sliding layers rotate);
 *                   Jamba's attention layers (i % attn_layer_period ==
 *                   attn_layer_offset, defaults 8 and 4; Jamba has no position
 *                   encoding).
 *   no attention    state-space layers (Mamba, Falcon-Mamba, Jamba's other
 *                   layers) and layer_types entries linear_attention (Qwen3.5,
 *                   Qwen3-Next), mamba or conv.
 *
 * kind names what the layer is: layer_types[i] when the config lists them,
 * else Gemma 2's and Gemma 3's sliding/full pattern ((i + 1) % 2, and (i + 1)
 * % sliding_window_pattern (default 6): sliding unless 0), ModernBERT's
 * (full_attention when i % global_attn_every_n_layers == 0, default 3; it
 * rotates those with global_rope_theta and the others with
 * local_rope_theta), Cohere 2's (sliding_window_pattern, default 4), "mamba",
 * Llama 4's HF default (chunked_attention for its RoPE layers, full_attention
 * for its NoPE ones), "attention" otherwise; encoder-decoder models list their encoder layers,
 * then their decoder layers ("encoder", "decoder"). layer_type is kind when
 * the RoPE differs by layer type (pe_config_read's layer_types > 0), else "".
 * kv_heads: num_key_value_heads (num_kv_heads, n_head_kv, multi_query_group_num;
 * 1 for multi_query), else the attention heads; 0 for a layer without
 * attention.
 *
 * sliding windows: sliding_window as the model's class reads it (its class
 * default when absent, 0 when null), on every attention layer of Mistral,
 * Mixtral, Phi-3 and Starcoder2; on the sliding_attention layers of Gemma 2,
 * Gemma 3, Cohere 2, gpt-oss and OLMo 3; on Qwen2, Qwen3, Qwen2-VL,
 * Qwen2.5-VL and SmolLM3 only when use_sliding_window is true, then on their
 * sliding_attention layers, or without layer_types on layers i >=
 * max_window_layers (default 28; 80 for the VL models); Qwen2-MoE likewise
 * but, without layer_types, on the even layers i < max_window_layers
 * (Qwen2MoeConfig's layer_types); Qwen3-MoE only when use_sliding_window is
 * true, then on every layer (max_window_layers unread); ModernBERT's
 * sliding_attention layers: local_attention // 2 (default 128 // 2 = 64),
 * two-sided (sliding_bidirectional 1: a query at q sees |q - k| <= 64, as
 * ModernBertConfig.sliding_window and masking_utils' bidirectional overlay;
 * a local_attention that is not a whole number from 2 to 2^32 - 1 is refused
 * naming it). A sliding_window that
 * is not null or a whole number from 1 to 2^32 - 1 is refused (PE_ERR_CONFIG
 * naming it), as is a layer_types or no_rope_layers that is given but not a
 * list, or a layer_types entry that is not a string of at most 23 bytes (HF
 * indexes both by layer). Refuses layer >= layers (PE_ERR_LAYER_TYPE, `keys` says how many
 * there are), a config without a layer count (PE_ERR_CONFIG naming
 * num_hidden_layers), more than PE_CONFIG_MAX_LAYERS layers (PE_ERR_TOO_LARGE
 * naming the count's key) and malformed JSON (PE_ERR_CONFIG), with keys as in
 * pe_config_read (same size rule). Each call reads the whole config: for many
 * layers, pe_config_layers_read answers them in one reading.
 *
 * query scale: a layer whose attention multiplies its queries by a factor
 * that grows with position ("attention temperature"), after RoPE and before
 * q . k, says so: its queries at position p (the token's index in the whole
 * sequence, cache included: HF's cache_position) are multiplied by
 *     s(p) = 1 + query_scale_beta * ln(1 + floor((p + query_scale_shift) /
 *            query_scale_length))
 * (exactly 1 while p + shift < length). Ministral 3 (model_type ministral3,
 * Devstral Small 2, Mistral 3's text model): every layer, beta =
 * llama_4_scaling_beta and length = original_max_position_embeddings of its
 * rope_parameters (HF's Ministral3Attention and _get_llama_4_attn_scale),
 * shift 0; both needed (HF's forward fails without them: PE_ERR_CONFIG
 * naming the key; beta a finite number, length a finite number above 0).
 * Llama 4: its NoPE layers when attn_temperature_tuning is true or a
 * non-zero number (default true; null, false or 0: none), beta = attn_scale
 * (default 0.1, a finite number), length = floor_scale (default 8192, a
 * finite number above 0), shift 1 (Llama4TextAttention). query_scale_length
 * 0: the layer's queries are not scaled (beta and shift are then 0). posenc
 * reports the factor; pe_rope and the other calls never apply it. */
typedef enum pe_layer_positions {
    PE_LAYER_CONFIG = 0,      /* the positions pe_config_read describes for layer_type */
    PE_LAYER_NOPE = 1,        /* attention without positions */
    PE_LAYER_NO_ATTENTION = 2 /* no attention: state-space or linear-attention layer */
} pe_layer_positions;

typedef struct pe_config_layer {
    uint32_t layers;   /* how many layers the config describes (encoder then decoder ones) */
    uint32_t kv_heads; /* key/value heads of this layer; 0 without attention */
    pe_layer_positions positions;
    uint32_t attention_chunk;       /* Llama 4's chunked_attention layers: queries see only keys of their own block of
                                       attention_chunk_size positions (default 8192; null: 0); 0 for every other layer */
    uint32_t sliding_window;        /* the layer's attention window as HF masks it: a query at q sees the keys
                                       q - sliding_window < k <= q; 0: no window (see "sliding windows" above) */
    uint32_t sliding_bidirectional; /* 1: the window is two-sided (ModernBERT, an encoder): a query at q sees the
                                       keys |q - k| <= sliding_window; 0 otherwise */
    double query_scale_beta;        /* the query scale (see "query scale" above); 0 without one */
    double query_scale_length;      /* positions per step of the scale, above 0; 0: no query scale */
    uint32_t query_scale_shift;     /* added to the position before dividing: 0 (Ministral 3) or 1 (Llama 4) */
    char kind[24];                  /* NUL-terminated, as above */
    char layer_type[24];            /* "" or the layer type to give pe_config_read */
} pe_config_layer;

PE_API pe_status pe_config_layer_read(const char *json, size_t json_bytes, uint32_t layer, pe_config_layer *out,
                                      char *keys, size_t keys_bytes);

/* Layers first ... first + count - 1 into out[0 ... count - 1], each as
 * pe_config_layer_read answers it, in time linear in the config and count
 * (pe_config_layer_read is this with count 1). Refuses count 0 or a range
 * past the last layer (PE_ERR_LAYER_TYPE) and everything pe_config_layer_read
 * refuses, writing nothing to out. */
#define PE_CONFIG_MAX_LAYERS 65536u /* the layers a config may have: real models have a few hundred */
PE_API pe_status pe_config_layers_read(const char *json, size_t json_bytes, uint32_t first, uint32_t count,
                                       pe_config_layer *out, char *keys, size_t keys_bytes);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
