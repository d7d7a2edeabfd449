// The worker behind the page's heavy summaries: its own posenc wasm instance
// computes the whole table (up to 8192 × 2048, about 0.1 s) off the main
// thread and keeps it while its parameters stay, then answers summary requests
// from it (a heatmap grid for every table; column envelopes and row statistics
// for large ones), transferring the arrays back. It also computes the rotation
// view's similarity matrix from the table's first rows alone, and the columns
// the naive view plots at its sampled rows.
import { instantiate } from '../../../src/js/index.js';
import { columnEnvelopes, gridSummary, rowStats } from './aggregate.js';
import { similarityMatrix } from './similarity.js';

const ready = instantiate();
let tableKey = '';
let table = null;

const tasks = {
  grid: ({ shape, viewport, maxCols, maxRows }) => {
    const grid = gridSummary(table, shape.dim, viewport, maxCols, maxRows);
    return [grid, [grid.mean.buffer, grid.min.buffer, grid.max.buffer]];
  },
  envelopes: ({ shape, dims, buckets }) => {
    const result = columnEnvelopes(table, shape.length, shape.dim, dims, buckets);
    return [result, result.flatMap(({ lo, hi }) => [lo.buffer, hi.buffer])];
  },
  rows: ({ shape }) => [rowStats(table, shape.length, shape.dim), []],
};

// Tasks that compute their own rows and never need the whole table.
const rowTasks = {
  // Columns dims at rows (row indices): the rows computed whole here (about 70 µs per 2048-wide row, 80 ms for the
  // naive view's 1,200), only the asked columns sent back, column after column.
  columns: (pe, { shape, rows, dims }) => {
    const { dim, offset, base, layout } = shape;
    const full = pe.sinusoidalAt(
      rows.map((r) => offset + r),
      { dim, base, layout },
    );
    const out = new Float32Array(dims.length * rows.length);
    dims.forEach((j, c) => {
      for (let n = 0; n < rows.length; n++) out[c * rows.length + n] = full[n * dim + j];
    });
    return [out, [out.buffer]];
  },
  similarity: (pe, { shape, window }) => {
    const { dim, offset, base, layout } = shape;
    const rows = pe.sinusoidal({ length: window, dim, base, offset, layout });
    const result = similarityMatrix(rows, window, dim);
    return [result, [result.sim.buffer]];
  },
};

self.onmessage = async ({ data: { id, kind, key, request } }) => {
  const pe = await ready;
  try {
    if (rowTasks[kind]) {
      const [result, transfer] = rowTasks[kind](pe, request);
      self.postMessage({ id, result }, transfer);
      return;
    }
    if (key !== tableKey) {
      const { length, dim, offset, base, layout } = request.shape;
      table = null;
      table = pe.sinusoidal({ length, dim, base, offset, layout });
      tableKey = key;
    }
    const [result, transfer] = tasks[kind](request);
    self.postMessage({ id, result }, transfer);
  } catch (error) {
    self.postMessage({ id, error: error.message });
  }
};
