/* posenc.h: sinusoidal positional encodings for transformers.
 *
 * The one public header of the posenc C core. Every entry point returns a
 * pe_status; pe_status_str() explains it. The caller owns every buffer: the
 * core never allocates, and asks for scratch through pe_scratch_size().
 *
 * The encoding (Vaswani et al., "Attention is all you need"), for position p,
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
 * Accuracy: every output is within 6e-8 of the exact value (about 1 ulp of
 * float32 near 1) for every position below 2^24, every even d up to 8192 and
 * every base from 2 to 1e7. Positions from 2^24 up to 2^31 are served with the
 * frequency w_i and the angle p*w_i each rounded to double, adding at most
 * p * 2^-52 (4.8e-7 at 2^31).
 *
 * Determinism: a value depends only on (p, i, d, T, layout). Tables, tables
 * with any offset, position lists and the embedding add give the same bits for
 * the same position, on every build (native, native SIMD, wasm, wasm SIMD).
 */
#ifndef POSENC_H
#define POSENC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pe_status {
    PE_OK = 0,
    PE_ERR_NULL = 1,          /* a required pointer is NULL */
    PE_ERR_DIM_ODD = 2,       /* dim is odd: the embedding size must be even */
    PE_ERR_DIM_RANGE = 3,     /* dim is 0 or above PE_MAX_DIM */
    PE_ERR_BASE = 4,          /* base is not finite or not above 1 */
    PE_ERR_LAYOUT = 5,        /* layout is not a pe_layout */
    PE_ERR_POSITION = 6,      /* a position is at or beyond PE_MAX_POSITION */
    PE_ERR_OUT_SIZE = 7,      /* out does not hold exactly the values asked for */
    PE_ERR_X_SIZE = 8,        /* x's size is not a multiple of length * dim */
    PE_ERR_SCRATCH = 9,       /* scratch is smaller than pe_scratch_size() */
    PE_ERR_TABLE_ROWS = 10,   /* the learned table has too few rows */
    PE_ERR_SCALE = 11,        /* scale is not finite */
    PE_ERR_TOO_LARGE = 12,    /* the sizes overflow size_t */
    PE_ERR_KERNELS = 13,      /* those kernels are not compiled into this build */
    PE_ERR_PLAN = 14,         /* not a plan made by pe_plan_init (or it was overwritten) */
    PE_ERR_HEADS = 15,        /* heads is 0 or above PE_MAX_HEADS, or the head range is outside it */
    PE_ERR_OVERLAP = 16,      /* out overlaps an input the call reads */
    PE_ERR_FREQUENCIES = 17   /* frequencies is not a pe_frequencies, or a given w is not finite and >= 0 */
} pe_status;

typedef enum pe_layout {
    PE_LAYOUT_INTERLEAVED = 0,
    PE_LAYOUT_SPLIT = 1
} pe_layout;

/* How pair i's frequency follows from T and d (h = d/2 pairs):
 *
 *     PE_FREQ_PAPER          w_i = T^(-2i/d) = T^(-i/h)       the paper, PyTorch tutorials, HF Marian
 *     PE_FREQ_TENSOR2TENSOR  w_i = T^(-i/max(h-1, 1))        tensor2tensor, fairseq: the last
 *                                                             pair reaches exactly 1/T */
typedef enum pe_frequencies {
    PE_FREQ_PAPER = 0,
    PE_FREQ_TENSOR2TENSOR = 1
} pe_frequencies;

typedef struct pe_sinusoid {
    uint32_t dim;        /* d: even, 2 ... PE_MAX_DIM */
    double base;         /* T: finite, > 1; 10000 in the paper */
    pe_layout layout;
    pe_frequencies frequencies; /* 0 (PE_FREQ_PAPER) when left out of an initializer */
} pe_sinusoid;

#define PE_MAX_DIM 65536u
#define PE_MAX_POSITION 2147483648u /* 2^31: positions must be below it */

/* A learned table or x is a row-major float array; "rows" are positions. */

/* Bytes of scratch (or of a plan, below) for this dim: the same for every call. */
pe_status pe_scratch_size(uint32_t dim, size_t *bytes);

/* out[r*d + j] = PE(offset + r, column j) for r < length.
 * out_count must equal length * dim. offset + length <= PE_MAX_POSITION. */
pe_status pe_table(const pe_sinusoid *enc, uint32_t offset, uint32_t length,
                   float *out, size_t out_count, void *scratch, size_t scratch_bytes);

/* out[r*d + j] = PE(positions[r], column j) for r < count: packed sequences,
 * decoding with a cache. Same bits as pe_table for the same positions. */
pe_status pe_table_at(const pe_sinusoid *enc, const uint32_t *positions, size_t count,
                      float *out, size_t out_count, void *scratch, size_t scratch_bytes);

/* The embedding add, in place, for x of shape (batch, length, dim) with
 * batch = x_count / (length * dim):
 *     x[b, r, j] = float(float(x[b, r, j] * scale) + PE(offset + r, j))
 * where PE is the float32 value pe_table gives. scale is often sqrt(dim). */
pe_status pe_add(const pe_sinusoid *enc, float *x, size_t x_count, uint32_t offset,
                 uint32_t length, float scale, void *scratch, size_t scratch_bytes);

/* The same add with a learned table (table_rows x dim, nn.Embedding style):
 *     x[b, r, j] = float(float(x[b, r, j] * scale) + table[(offset + r) * dim + j])
 * Refuses (PE_ERR_TABLE_ROWS) when offset + length > table_rows. */
pe_status pe_add_table(float *x, size_t x_count, uint32_t length, uint32_t dim,
                       const float *table, uint32_t table_rows, uint32_t offset, float scale);

/* Plans. The one-shot calls above rebuild the per-encoding constants (the
 * frequencies and their sines and cosines) every time, which costs about 30 ns
 * per pair. A plan builds them once, in caller memory of pe_scratch_size()
 * bytes, and serves any number of calls for the same (dim, base, layout) with
 * the same bits as the one-shot calls. A plan is not thread-safe (calls keep
 * their running state in it) and must not be moved or copied; it needs no
 * teardown: free its memory. */
typedef struct pe_plan pe_plan;

pe_status pe_plan_init(const pe_sinusoid *enc, void *memory, size_t bytes, pe_plan **plan);
/* A plan for any frequencies: w[i] for pair i < dim/2, each finite and >= 0
 * (RoPE's scaled frequencies, say). The angle is p * w[i] exactly as above. */
pe_status pe_plan_init_frequencies(uint32_t dim, pe_layout layout, const double *w, void *memory,
                                   size_t bytes, pe_plan **plan);
pe_status pe_plan_table(pe_plan *plan, uint32_t offset, uint32_t length, float *out, size_t out_count);
pe_status pe_plan_table_at(pe_plan *plan, const uint32_t *positions, size_t count, float *out,
                           size_t out_count);
pe_status pe_plan_add(pe_plan *plan, float *x, size_t x_count, uint32_t offset, uint32_t length,
                      float scale);

/* Which kernels run: the plain scalar ones (the reference) or the SIMD ones.
 * Both give the same bits. Chosen once at start-up; SIMD is the default when
 * compiled in. PE_ERR_KERNELS when SIMD is asked of a scalar-only build. */
typedef enum pe_kernels {
    PE_KERNELS_SCALAR = 0,
    PE_KERNELS_SIMD = 1
} pe_kernels;

pe_status pe_use_kernels(pe_kernels kernels);
pe_status pe_active_kernels(pe_kernels *kernels);

/* A short English sentence for a status; never NULL. */
const char *pe_status_str(pe_status status);

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
pe_status pe_alibi_slopes(uint32_t heads, float *out, size_t out_count);

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
    uint32_t heads;         /* n: 1 ... PE_MAX_HEADS, fixes the slopes */
    uint32_t query_length;  /* rows per head */
    uint32_t key_length;    /* columns: <= PE_MAX_POSITION */
    uint32_t query_offset;  /* key position of query row 0; offset + query_length <= PE_MAX_POSITION */
    int causal;             /* nonzero masks future keys with -INFINITY */
} pe_alibi;

/* Heads first_head ... first_head + head_count - 1 (a tensor-parallel slice,
 * or all of them): out_count = head_count * query_length * key_length. */
pe_status pe_alibi_bias(const pe_alibi *alibi, uint32_t first_head, uint32_t head_count, float *out,
                        size_t out_count);

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
pe_status pe_resample_table(const float *table, uint32_t rows, uint32_t dim, float *out,
                            uint32_t new_rows, size_t out_count);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
