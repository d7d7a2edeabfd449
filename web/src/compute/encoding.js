// The page's one source of encoding values: the posenc package (the wasm core).
// Small tables (up to MAIN_THREAD_VALUES values) are computed on the main
// thread into a wasm-resident buffer and summarised here, each frame, but for
// the heatmap grid and the similarity matrix, which the worker computes for
// every table. Larger ones are computed and summarised by a worker with its
// own wasm instance (table-client.js), so no frame waits for them: until the
// worker's answer for the current state arrives, the views draw a preview from
// rows sampled at one position per pixel, computed here by sinusoidalAt, and
// say so.
// Views of the wasm buffer are taken fresh at each use: any posenc call may
// grow wasm memory and detach them.
import { alloc, sinusoidal, sinusoidalAt } from '../../../src/js/index.js';
import { columnEnvelopes, rowStats } from './aggregate.js';

/** Tables above this many values (2^20, about 7 ms to compute here) go to the worker. */
export const MAIN_THREAD_VALUES = 2 ** 20;

let buffer = null; // WasmBuffer holding the current table (main-thread tables only)
let key = '';
let version = 0; // bumps whenever the table's contents change
let shape = { length: 0, dim: 0, offset: 0, base: 10000, layout: 'interleaved' };
let onWorkerResult = () => {};
// The worker's client (table-client.js), loaded on the first request, since the first view asks none; the kinds
// asked before it loaded are announced as answered once it has, so their views ask again.
let client = null;
let loading = null;
const early = new Set();
function ask(kind, request) {
  if (client) return client.get(kind, key, request);
  early.add(kind);
  loading ??= import('./table-client.js').then(
    ({ createTableClient }) => {
      client = createTableClient((answered) => onWorkerResult(answered));
      for (const asked of early) onWorkerResult(asked);
      early.clear();
    },
    (error) => {
      loading = null; // asked again on the next request
      console.error(`table worker client: ${error.message}`);
    },
  );
  return null;
}

/** Registers the callback run when the worker answers (kind: 'grid' | 'envelopes' | 'rows'). */
export function onSummaryReady(callback) {
  onWorkerResult = callback;
}

/** Sets the table's parameters; computes it here when small. Returns true if it changed. */
export function updateTable({ len, d, off, base, layout }) {
  const next = `${len}|${d}|${off}|${base}|${layout}`;
  if (next === key && (onWorker() || (buffer && !buffer.freed))) return false;
  key = next;
  version += 1;
  shape = { length: len, dim: d, offset: off, base, layout };
  sampled = null;
  if (onWorker()) {
    buffer?.free();
    buffer = null;
    return true;
  }
  const count = len * d;
  if (!buffer || buffer.freed || buffer.length !== count) {
    buffer?.free();
    buffer = null;
    buffer = alloc(count);
  }
  sinusoidal({ length: len, dim: d, base, offset: off, layout, out: buffer });
  return true;
}

/** True when the current table lives in the worker (too large for a frame here). */
export function onWorker() {
  return shape.length * shape.dim > MAIN_THREAD_VALUES;
}

/** Changes whenever the table does: views compare it to skip redundant work. */
export function tableVersion() {
  return version;
}

export function tableShape() {
  return shape;
}

let lastRow = { row: -1, key: '', values: null };

/** PE(offset + row, column): from the table, or (large tables) the row computed by sinusoidalAt. */
export function tableValue(row, column) {
  if (!onWorker()) return buffer.array[row * shape.dim + column];
  if (lastRow.row !== row || lastRow.key !== key) {
    const { dim, offset, base, layout } = shape;
    lastRow = { row, key, values: sinusoidalAt([offset + row], { dim, base, layout }) };
  }
  return lastRow.values[column];
}

/** count rows starting at row `from`, row-major: a copy of the table's, or computed by the package. */
export function tableRows(from, count) {
  const { dim, offset, base, layout } = shape;
  if (!onWorker()) return buffer.array.slice(from * dim, (from + count) * dim);
  return sinusoidal({ length: count, dim, base, offset: offset + from, layout });
}

let sampled = null; // { count, rows, table } rows sampled evenly for previews of a large table
let previewOut = null; // sampled.table's array, reused from table to table (callers read it before the next call)

/**
 * Rows sampled for previews of a large table: sinusoidalAt costs about 70 µs per
 * 2048-wide row here, so a frame affords about this many.
 */
export const PREVIEW_ROWS = 128;

/**
 * Up to `count` (at most PREVIEW_ROWS) rows spread evenly over rows [from, to): { rows (row indices), table (rows ×
 * dim) }. The table is overwritten by the next call for another table or range: read it, do not keep it.
 */
export function sampledRows(count, from = 0, to = shape.length) {
  const { dim, offset, base, layout } = shape;
  const n = Math.min(to - from, count, PREVIEW_ROWS);
  if (sampled?.count !== n || sampled.from !== from || sampled.to !== to) {
    const rows = Int32Array.from({ length: n }, (_, b) => from + Math.floor(((b + 0.5) * (to - from)) / n));
    const positions = Array.from(rows, (r) => offset + r);
    // Into the last preview's array when it has the size: a fresh megabyte per frame of a drag at d = 2048 cost
    // more (its pages zeroed, then collected) than computing the rows.
    if (previewOut?.length !== n * dim) previewOut = new Float32Array(n * dim);
    sampled = { count: n, from, to, rows, table: sinusoidalAt(positions, { dim, base, layout, out: previewOut }) };
  }
  return sampled;
}

/**
 * The heatmap grid over viewport (see aggregate.js gridSummary), exact: the worker's for every table (a
 * million values take tens of ms, too long for a frame while a control is dragged), or null while it is
 * being computed.
 */
export function heatGrid(viewport, maxCols, maxRows) {
  return ask('grid', { shape, viewport, maxCols, maxRows });
}

// Summaries of a small table, kept while the table and the request stay (views ask every frame).
const kept = new Map(); // kind → { version, wanted, value }
function keep(kind, wanted, compute) {
  const last = kept.get(kind);
  if (last?.version === version && last.wanted === wanted) return last.value;
  const value = compute();
  kept.set(kind, { version, wanted, value });
  return value;
}

/** The min/max envelopes of columns dims over `buckets` blocks of rows; null while the worker computes them. */
export function envelopes(dims, buckets) {
  if (!onWorker()) {
    return keep('envelopes', `${dims.join(',')}|${buckets}`, () =>
      columnEnvelopes(buffer.array, shape.length, shape.dim, dims, buckets),
    );
  }
  return ask('envelopes', { shape, dims, buckets });
}

/** The ranges of row norms and neighbour steps (aggregate.js rowStats); null while the worker computes them. */
export function rowRanges() {
  if (!onWorker()) return keep('rows', '', () => rowStats(buffer.array, shape.length, shape.dim));
  return ask('rows', { shape });
}

/** The similarity matrix of the table's first `window` rows (similarity.js), from the worker; null until it answers. */
export function similarityOf(window) {
  return ask('similarity', { shape, window });
}

/**
 * Columns dims at the given row indices, column after column (dims.length × rows.length); for a large table from
 * the worker (null until it answers), since computing the rows whole here is a long task (70 µs per 2048-wide row).
 */
export function columnsAt(rows, dims) {
  if (onWorker()) return ask('columns', { shape, rows: Array.from(rows), dims });
  return keep('columns', `${Array.from(rows).join(',')}|${dims.join(',')}`, () => {
    const table = buffer.array;
    const out = new Float32Array(dims.length * rows.length);
    dims.forEach((j, c) => rows.forEach((r, n) => (out[c * rows.length + n] = table[r * shape.dim + j])));
    return out;
  });
}

/** The rows at the given row indices, row-major (rows.length × dim). */
export function rowsAt(rows) {
  const { dim, offset, base, layout } = shape;
  if (onWorker())
    return sinusoidalAt(
      Array.from(rows, (r) => offset + r),
      { dim, base, layout },
    );
  const table = buffer.array;
  const out = new Float32Array(rows.length * dim);
  rows.forEach((r, n) => out.set(table.subarray(r * dim, (r + 1) * dim), n * dim));
  return out;
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
