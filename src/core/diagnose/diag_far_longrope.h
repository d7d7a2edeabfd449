/* diag_far_longrope.c's search for a far LongRoPE cache's first position, shared with diag_far_longrope_search.c:
 * column 0's float32 angles give candidate first positions (diag_far_list_positions), each checked on every read
 * row of column 0, then on the other columns by the caller's columns hook. */
#ifndef DIAG_FAR_LONGROPE_H
#define DIAG_FAR_LONGROPE_H
#include "diag_internal.h"

#define CHECK_ROWS  64u     /* read rows every candidate is checked on */
#define MAX_HITS    1000000 /* angles or positions whose column-0 cell fits one row, per list and cos/sin */
#define MAX_FOUND   8u      /* first positions kept per list and cos/sin */
#define ANGLE_SLACK 2e-6    /* rad: beside the cell's rounding, the angle's reduction in double */
#define COLUMN_MIN  0.95    /* share of a column's rows within an ulp (PyTorch's sin/cos may miss by more) */
#define SHARE_MIN   0.99    /* share of all checked cells within an ulp */
#define NEIGHBOURS  4       /* ulps either side of the list's inv_freq */
#define PEAK_SHARE  0.9     /* the cells' peak over the list's attention factor: below it, not that cache */

typedef struct list_read list_read;
struct list_read {
    const diag_work *w;
    pe_dtype storage;
    uint32_t r0, n; /* first read row; rows checked */
    uint32_t rows[CHECK_ROWS];
    double pos[CHECK_ROWS]; /* their float32 positions at the first position being checked */
    int is_cos;
    double amp;        /* the list's attention factor in float32 */
    const float *inv;  /* the list's float32 inv_freq */
    float *fit;        /* the inv_freq (with neighbours) the cells fit at the first position found first */
    double c0, g;      /* column 0's inv_freq; the float32 grid's step */
    double m_lo, m_hi; /* grid points m g (row ref's position) searched: m in [m_lo, m_hi) */
    double u;          /* the angle's ulp in the binade being enumerated by angle */
    uint32_t ref;      /* the row (index into rows) whose cell sets the window */
    uint64_t hits;
    double found[MAX_FOUND];
    uint32_t n_found;
    /* the columns past 0 at a candidate whose column 0 fits (pos[] set): 1 they fit (NULL: the list's inv) */
    int (*columns)(list_read *f);
    void *ctx;
};

/* Every first position whose column-0 angle fits (fl32(p) c0 on the grid f->g, m in [m_lo, m_hi)): those whose
 * columns fit too go into f->found. */
void diag_far_list_positions(list_read *f);
/* The rows a far reading checks (into f) and its float32 grids (diag_far_grids): their count, 0 when d is no cache
 * such a reading takes (a table, float64, fewer than 4 pairs or 8 rows). */
uint32_t diag_far_list_setup(diag_work *w, const pe_diagnosis *d, list_read *f, double grids[DIAG_FAR_GRIDS]);
/* diag_far_list_positions on each grid (whole positions from least on the grid 1, else [2^23, 2^24) grid points),
 * the positions searched noted in f->w. */
void diag_far_list_grids(list_read *f, const double *grids, uint32_t n_grids, double least);
/* What a far reading sets on success at first position p0 of row f->r0 (cos or sin cache, attention factor amp,
 * float32 inv_freq inv, rope_theta base): the frequencies, layout, offset (offset_known left to the caller), scale,
 * base, scaling per pair. Returns the checked cells' rms over amp. */
double diag_far_list_apply(diag_work *w, pe_diagnosis *d, const list_read *f, double p0, int is_cos, double amp,
                           const float *inv, double base);
/* Rows of column k within an ulp at float32 inv_freq inv; stops once more rows miss than need allows. */
uint32_t diag_far_list_column(const list_read *f, uint32_t k, double inv, uint32_t need);
/* HF's LongRoPE attention factor sqrt(1 + ln f / ln L0) (f = max_position / original_max), 1 when f <= 1. */
double diag_longrope_attention(double max_position, double original_max);

#endif
