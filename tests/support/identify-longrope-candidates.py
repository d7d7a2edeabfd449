"""How many (first position, two-decimal factor list) pairs a far LongRoPE cache's cells admit: a brute-force count
that shows what identify() could read there without a shipped list (diag_far_longrope.c reads only shipped ones).

    /usr/bin/python3 tests/support/identify-longrope-candidates.py FILE.npy --dtype bfloat16 --fn cos \
        [--positions 0 16777216] [--e0 1.00 2.00] [--base 10000] [--dim 96] [--original 4096 --max 131072]

Column 0 (inv_freq fl32(1 / fl32(e0)), base**0 = 1): every two-decimal e0 in the --e0 range at every first position
in --positions, checked on every row (positions rounded to float32 as HF's position_ids.float() does). Then at each
survivor, every column j: every two-decimal e_j in [1.00, 300.00] at HF's float32 inv_freq
1 / (fl32(e_j) * base**(arange(0, dim, 2) / dim)) (torch's own float32 pow, as make_corpus.py's longrope_inv_freq),
checked on every row. Cells are compared with attention * cos or sin of the float32 angle within half the storage's
ulp and 2e-7 (HF's attention factor from --original and --max, assumed known). Prints the survivors and their count."""
import argparse
import math

import numpy as np
import torch

MANTISSA = {'float32': 23, 'float16': 10, 'bfloat16': 7}  # stored bits: a cell is within half its ulp


def tolerance(cells, dtype):
    """Half the storage's ulp at each cell, plus 2e-7 for float32 cos (PyTorch's, not correctly rounded) times
    the attention factor."""
    exp = np.floor(np.log2(np.maximum(np.abs(cells), 2.0 ** -14)))
    return 0.5 * 2.0 ** (exp - MANTISSA[dtype]) + 2e-7


def two_decimal(lo, hi):
    return np.round(np.arange(round(lo * 100), round(hi * 100) + 1) / 100.0, 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('file')
    ap.add_argument('--dtype', choices=list(MANTISSA), required=True)
    ap.add_argument('--fn', choices=['cos', 'sin'], required=True)
    ap.add_argument('--positions', type=float, nargs=2, default=[0, 2 ** 24])
    ap.add_argument('--e0', type=float, nargs=2, default=[1.0, 2.0])
    ap.add_argument('--base', type=float, default=10000.0)
    ap.add_argument('--dim', type=int, default=96)
    ap.add_argument('--original', type=float, default=4096.0)
    ap.add_argument('--max', type=float, default=131072.0)
    a = ap.parse_args()
    cells = np.load(a.file).astype(np.float64)
    rows, h = cells.shape[0], a.dim // 2
    amp = float(np.float32(math.sqrt(1 + math.log(a.max / a.original) / math.log(a.original))))
    tol = tolerance(cells, a.dtype)
    powers = a.base ** (torch.arange(0, a.dim, 2, dtype=torch.int64).float() / a.dim)

    def inv(e, j):
        return (1.0 / (torch.tensor(e, dtype=torch.float32) * powers[j])).numpy()

    def fits(angle32, r, column):
        x = angle32.astype(np.float64)
        return np.abs((np.cos(x) if a.fn == 'cos' else np.sin(x)) * amp - cells[r, column]) <= tol[r, column]

    def survivors(column, pos, grid):  # entries of grid (inv_freq or first positions) fitting every row
        ok = np.ones(grid.size, bool)
        for r in range(rows):
            idx = np.nonzero(ok)[0]
            ok[idx] = fits(pos(r, idx), r, column)
            if not ok.any():
                break
        return ok

    found = []
    for e0 in two_decimal(*a.e0):
        c0 = inv([e0], 0)[0]
        for start in range(int(a.positions[0]), int(a.positions[1]), 1 << 22):
            p = np.arange(start, min(int(a.positions[1]), start + (1 << 22)), dtype=np.float64)
            ok = survivors(0, lambda r, idx: (p[idx] + r).astype(np.float32) * c0, p)
            found += [(int(x), float(e0)) for x in p[ok]]
    print(f'column 0: {len(found)} (first position, e0) pairs, e0 in {sorted({e for _, e in found})}')
    es = two_decimal(1.0, 300.0)
    invs = [inv(list(es), j) for j in range(h)]
    total = 0
    for p0, e0 in found:
        pos = np.array([p0 + r for r in range(rows)], np.float64).astype(np.float32)
        per = []
        for j in range(h):
            per.append(es[survivors(j, lambda r, idx, j=j: pos[r] * invs[j][idx], es)].tolist())
            if not per[-1]:
                break
        sets = math.prod(len(x) for x in per)
        total += sets
        if sets:
            print(f'first position {p0}: {sets} factor lists; per column: {per}')
    print(f'surviving (first position, factor list) pairs: {total}')


if __name__ == '__main__':
    main()
