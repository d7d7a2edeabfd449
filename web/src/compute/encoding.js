// The page's one source of encoding values: the posenc package (the wasm core).
// The main table lives in a wasm-resident buffer, so an 8192 × 2048 table is
// computed in place and read by the heatmap without a copy. Views of it are
// taken fresh at each use: any posenc call may grow wasm memory and detach them.
import { alloc, sinusoidal } from '../../../src/js/index.js';

let buffer = null; // WasmBuffer holding the current table
let key = '';
let version = 0; // bumps whenever the table's contents change
let shape = { length: 0, dim: 0, offset: 0, base: 10000, layout: 'interleaved' };

/** Recomputes the table when its parameters changed; returns true if it did. */
export function updateTable({ len, d, off, base, layout }) {
  const next = `${len}|${d}|${off}|${base}|${layout}`;
  if (next === key && buffer && !buffer.freed) return false;
  const count = len * d;
  if (!buffer || buffer.freed || buffer.length !== count) {
    buffer?.free();
    buffer = null;
    buffer = alloc(count);
  }
  sinusoidal({ length: len, dim: d, base, offset: off, layout, out: buffer });
  key = next;
  version += 1;
  shape = { length: len, dim: d, offset: off, base, layout };
  return true;
}

/** A fresh view of the current table, row-major (length, dim). Valid until the next posenc call. */
export function tableView() {
  return buffer.array;
}

/** Changes whenever the table does: views compare it to skip redundant work. */
export function tableVersion() {
  return version;
}

export function tableShape() {
  return shape;
}

/** PE(offset + row, column) from the current table. */
export function tableValue(row, column) {
  return buffer.array[row * shape.dim + column];
}

/**
 * What column j of a d-wide row holds: pair i and whether it is the sine or the
 * cosine. interleaved: [s0 c0 s1 c1 …]; split: [s0 s1 … c0 c1 …].
 */
export function columnInfo(j, d, layout) {
  const half = d / 2;
  if (layout === 'split') return { pair: j < half ? j : j - half, kind: j < half ? 'sin' : 'cos' };
  return { pair: j >> 1, kind: j & 1 ? 'cos' : 'sin' };
}

/** The column of pair i's sine or cosine in a layout (the inverse of columnInfo). */
export function columnOf(pair, kind, d, layout) {
  if (layout === 'split') return kind === 'sin' ? pair : d / 2 + pair;
  return 2 * pair + (kind === 'cos' ? 1 : 0);
}

/**
 * w_i = T^(−2i/d), the definition of pair i's frequency (radians per position).
 * Used to label pairs and to build the rotation R(k); every sine and cosine
 * shown on the page comes from the package, never from this.
 */
export function frequency(pair, d, base) {
  return Math.pow(base, (-2 * pair) / d);
}

/** Positions per full turn of pair i. */
export function wavelength(pair, d, base) {
  return (2 * Math.PI) / frequency(pair, d, base);
}
