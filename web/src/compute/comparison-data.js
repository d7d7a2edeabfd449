// The numbers behind the comparison view, all from the posenc package:
// sinusoidal rows, RoPE-rotated queries and keys, ALiBi biases; learned rows
// come from the loaded file. Here they only become cosine matrices and
// per-offset profiles.
import { alibiBias, alibiSlopes, rope, sinusoidal } from '../../../src/js/index.js';
import { rowDot, rowDots4 } from './row-dot.js';
import { toyEmbedding } from './toy-embedding.js';

// A W × W cosine matrix of dim-wide rows costs W² · dim / 2 multiply-adds; this keeps it near 15 ms.
const SIMILARITY_BUDGET = 2 ** 24;

/** The window every panel shares: the asked size, limited by the work budget and the learned table's rows. */
export function sharedWindow(asked, widestDim, learnedRows) {
  const byBudget = Math.max(8, Math.floor(Math.sqrt(SIMILARITY_BUDGET / widestDim)));
  return Math.max(2, Math.min(asked, byBudget, learnedRows));
}

/** cos(a_i, b_j) for the first W rows of two row-major (·, dim) arrays, in double. */
export function cosineMatrix(a, b, W, dim) {
  const norm = (t, i) => Math.sqrt(rowDot(t, i * dim, t, i * dim, dim));
  const na = Float64Array.from({ length: W }, (_, i) => norm(a, i));
  const nb = a === b ? na : Float64Array.from({ length: W }, (_, i) => norm(b, i));
  const out = new Float64Array(W * W);
  const dots = new Float64Array(4);
  const put = (i, k, dot) => {
    const v = na[i] > 0 && nb[k] > 0 ? dot / (na[i] * nb[k]) : 0;
    out[i * W + k] = v;
    if (a === b) out[k * W + i] = v;
  };
  for (let i = 0; i < W; i++) {
    // Keys four at a time (row i read once for four of them), the last few one by one.
    let k = a === b ? i : 0;
    for (; k + 4 <= W; k += 4) {
      rowDots4(a, i * dim, b, k * dim, dim, dots, 0);
      for (let q = 0; q < 4; q++) put(i, k + q, dots[q]);
    }
    for (; k < W; k++) put(i, k, rowDot(a, i * dim, b, k * dim, dim));
  }
  return out;
}

// Scratch rows, reused from frame to frame while their size stays: a fresh array of W · d floats per frame (0.7 MB
// at d = 2048) cost about as much as the package's work on it. Each is read before the next call of its kind.
const scratch = new Map(); // name → Float32Array
function scratchRows(name, length) {
  let rows = scratch.get(name);
  if (rows?.length !== length) {
    rows = new Float32Array(length);
    scratch.set(name, rows);
  }
  return rows;
}

export function sinusoidalMatrix(W, d, base) {
  const table = sinusoidal({ length: W, dim: d, base, out: scratchRows('sinusoidal', W * d) });
  return cosineMatrix(table, table, W, d);
}

export function learnedMatrix(source, W) {
  const rows = source.table.subarray(0, W * source.dim);
  return cosineMatrix(rows, rows, W, source.dim);
}

/** The query and key vectors RoPE rotates: seeded toy vectors, or all ones. */
export function ropeVectors(choice, d) {
  if (choice === 'ones') {
    const ones = new Float32Array(d).fill(1);
    return { q: ones, k: ones };
  }
  const q = toyEmbedding('rope query', d);
  return { q, k: choice === 'independent' ? toyEmbedding('rope key', d) : q };
}

/**
 * cos(q(i), k(j)): the same q and k rotated to every position i, j < W by the
 * package's rope: adjacent pairs, frequencies base^(−2i/d), no scaling, or a
 * model's RoPE ({ headDim, base, scaling, layout } as its config sets them).
 */
export function ropeMatrix(W, d, base, choice, model = null) {
  if (model) d = model.headDim;
  const { q, k } = ropeVectors(choice, d);
  const options = model
    ? { headDim: d, base: model.base, scaling: model.scaling, layout: model.layout }
    : { headDim: d, base, layout: 'interleaved' };
  const rotated = (vector, name) => {
    const x = scratchRows(name, W * d);
    for (let i = 0; i < W; i++) x.set(vector, i * d);
    return rope(x, { length: W, heads: 1, ...options });
  };
  const xq = rotated(q, 'query');
  const xk = q === k ? xq : rotated(k, 'key');
  return cosineMatrix(xq, xk, W, d);
}

/** ALiBi for queries and keys at the same W positions: { slopes, bias (heads, W, W) }. */
export function alibiMatrices(W, heads, causal) {
  return { slopes: alibiSlopes(heads), bias: alibiBias({ heads, queryLength: W, keyLength: W, offset: 0, causal }) };
}

/**
 * Along each diagonal j − i = Δ (Δ from −(W−1) to W−1) of the W × W matrix
 * starting at array[start]: mean, min and max of its finite entries (null when
 * it has none, e.g. ALiBi's masked future).
 */
export function diagonalProfile(array, W, start = 0) {
  const n = 2 * W - 1;
  const mean = new Array(n).fill(null);
  const min = new Array(n).fill(null);
  const max = new Array(n).fill(null);
  for (let delta = -(W - 1); delta < W; delta++) {
    let sum = 0;
    let count = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = Math.max(0, -delta); i < W && i + delta < W; i++) {
      const v = array[start + i * W + i + delta];
      if (!Number.isFinite(v)) continue;
      sum += v;
      count += 1;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (count) {
      mean[delta + W - 1] = sum / count;
      min[delta + W - 1] = lo;
      max[delta + W - 1] = hi;
    }
  }
  return { mean, min, max };
}

/** Largest spread (max − min) along any diagonal: 0 when a matrix depends only on j − i. */
export function largestSpread({ min, max }) {
  let worst = 0;
  for (let n = 0; n < min.length; n++) if (min[n] !== null) worst = Math.max(worst, max[n] - min[n]);
  return worst;
}
