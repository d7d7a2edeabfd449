// The cosine similarity of the first `window` rows of an encoding table with
// one another, and how far it is from depending on |p − q| alone. A pure
// function of a Float32Array: the table worker runs it (window² · d / 2
// multiply-adds, too many for a frame while d is dragged), the page draws it.

import { rowDot } from './row-dot.js';

/**
 * rows: window × dim, row-major. Returns { window, sim (Float64Array window × window,
 * symmetric), bandDeviation: max over entries of |sim[a][b] − sim[0][|a − b|]| }.
 */
export function similarityMatrix(rows, window, dim) {
  const norms = new Float64Array(window);
  for (let r = 0; r < window; r++) {
    norms[r] = Math.sqrt(rowDot(rows, r * dim, rows, r * dim, dim));
  }
  const sim = new Float64Array(window * window);
  for (let a = 0; a < window; a++) {
    for (let b = a; b < window; b++) {
      const v = rowDot(rows, a * dim, rows, b * dim, dim) / (norms[a] * norms[b]);
      sim[a * window + b] = v;
      sim[b * window + a] = v;
    }
  }
  // Bands: every entry against the entry of row 0 at the same |p − q|.
  let bandDeviation = 0;
  for (let a = 0; a < window; a++) {
    for (let b = 0; b < window; b++) {
      bandDeviation = Math.max(bandDeviation, Math.abs(sim[a * window + b] - sim[Math.abs(a - b)]));
    }
  }
  return { window, sim, bandDeviation };
}
