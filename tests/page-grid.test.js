// The heatmap's grid of block means, minima and maxima (web/src/compute/aggregate.js gridSummary), which the table
// worker computes over whole 2048 × 8192 tables on every input of a drag: checked cell by cell against a
// reference that visits each grid cell's own block of the table (its bounds worked out here), summed in double in
// the same order, so the means agree bit for bit. Tables from the package and seeded random ones (seed printed),
// with viewports that start inside the table, grids as fine as the viewport and grids of one cell.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { gridSummary } from '../web/src/compute/aggregate.js';
import { rng } from './support/random.js';

const random = rng('page-grid');

// Block b of n items split into k: from the nearest integer to b·n/k up to the next block's start.
const edge = (b, n, k) => Math.floor((b * n) / k + 0.5);

function reference(table, dim, { p0, p1, j0, j1 }, maxCols, maxRows) {
  const cols = Math.max(1, Math.min(p1 - p0, maxCols));
  const rows = Math.max(1, Math.min(j1 - j0, maxRows));
  const mean = new Float32Array(cols * rows);
  const min = new Float32Array(cols * rows);
  const max = new Float32Array(cols * rows);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const [r0, r1] = [p0 + edge(x, p1 - p0, cols), p0 + edge(x + 1, p1 - p0, cols)];
      const [c0, c1] = [j0 + edge(y, j1 - j0, rows), j0 + edge(y + 1, j1 - j0, rows)];
      let sum = 0;
      let [lo, hi] = [Infinity, -Infinity];
      for (let r = r0; r < r1; r++) {
        for (let c = c0; c < c1; c++) {
          sum += table[r * dim + c];
          [lo, hi] = [Math.min(lo, table[r * dim + c]), Math.max(hi, table[r * dim + c])];
        }
      }
      mean[y * cols + x] = sum / ((r1 - r0) * (c1 - c0));
      min[y * cols + x] = lo;
      max[y * cols + x] = hi;
    }
  }
  return { cols, rows, mean, min, max };
}

function check(table, dim, viewport, maxCols, maxRows, what) {
  const got = gridSummary(table, dim, viewport, maxCols, maxRows);
  const want = reference(table, dim, viewport, maxCols, maxRows);
  assert.is(got.cols, want.cols, `${what}: cols`);
  assert.is(got.rows, want.rows, `${what}: rows`);
  for (const key of ['mean', 'min', 'max']) {
    const at = want[key].findIndex((v, i) => !Object.is(v, got[key][i]));
    assert.ok(
      at < 0,
      `${what}: ${key} of cell (${at % want.cols}, ${Math.floor(at / want.cols)}) is ${got[key][at]}, ` +
        `not ${want[key][at]}`,
    );
  }
}

test('a sinusoidal table from the package: the grid a 1440 px screen asks for, and zoomed viewports', async () => {
  const pe = await instantiate();
  const [length, dim] = [1500, 512];
  const table = pe.sinusoidal({ length, dim, base: 10000, offset: 3, layout: 'interleaved' });
  check(table, dim, { p0: 0, p1: length, j0: 0, j1: dim }, 1100, 400, 'whole table');
  check(table, dim, { p0: 200, p1: 260, j0: 100, j1: 131 }, 1100, 400, 'zoomed: one table cell per grid cell');
  check(table, dim, { p0: 7, p1: 1207, j0: 5, j1: 505 }, 333, 77, 'uneven blocks');
  check(table, dim, { p0: 0, p1: length, j0: 0, j1: dim }, 1, 1, 'one cell');
});

test('seeded random tables and viewports, grids coarser and finer than the viewport', () => {
  for (let n = 0; n < 40; n++) {
    const length = 1 + random.int(300);
    const dim = 1 + random.int(70);
    const table = Float32Array.from({ length: length * dim }, () => (random.next() - 0.5) * 2 ** random.int(20));
    const p0 = random.int(length);
    const p1 = p0 + 1 + random.int(length - p0);
    const j0 = random.int(dim);
    const j1 = j0 + 1 + random.int(dim - j0);
    const maxCols = 1 + random.int(2 * (p1 - p0));
    const maxRows = 1 + random.int(2 * (j1 - j0));
    check(table, dim, { p0, p1, j0, j1 }, maxCols, maxRows, `${length} × ${dim}, [${p0}, ${p1}) × [${j0}, ${j1})`);
  }
});

test.run();
