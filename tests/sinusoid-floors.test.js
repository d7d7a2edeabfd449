// The bench's reference rows for the table (bench/limits.c) do the work they
// claim: the store-order floor and the recurrence floor write every value of
// a table in posenc's blocks of 64 rows and bands of 512 columns (the sizes
// here leave a short block and a short band), and the recurrence floor's
// values are a float64 recurrence carried from row to row through its state
// in memory, so no step was left out. JS rounds float64 as wasm's f64x2 does
// (no fused multiply-add), so the expected values are exact.
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { limitsExports as limits } from './support/limits-wasm.js';

// 72 rows: a whole block and 8 rows of the next; 1028 columns: two whole bands and 4 columns of a third.
const LENGTH = 72;
const DIM = 1028;

/** A table of LENGTH × DIM NaN in lib's memory: its pointer and a view getter. */
function poisonedTable(lib) {
  const out = lib.limits_alloc(LENGTH * DIM * 4) >>> 0;
  const view = () => new Float32Array(lib.memory.buffer, out, LENGTH * DIM);
  view().fill(NaN);
  return { out, view };
}

test('the recurrence floor steps every column down every row, its state carried through memory', async () => {
  const lib = await limits();
  const { out, view } = poisonedTable(lib);
  const state = lib.limits_alloc(lib.limits_recur_state_bytes(DIM)) >>> 0;
  lib.limits_recur_state_init(state, DIM);
  lib.limits_f64_recur_floor(out, LENGTH, DIM, state);
  const table = view();
  for (let j = 0; j < DIM; j++) {
    // limits_recur_state_init's column j: rows 0 and 0.375, coefficient 1.999 - 1e-4 (j mod 256).
    const k = 1.999 - 1e-4 * (j & 255);
    let a = 0;
    let b = 0.375;
    for (let n = 0; n < LENGTH; n++) {
      const at = n * DIM + j;
      if (table[at] !== Math.fround(a)) assert.unreachable(`row ${n}, column ${j}: ${table[at]}, expected ${a}`);
      [a, b] = [b, k * b - a];
    }
  }
});

test("the store-order floor writes every value, each chunk's eight rows a recurrence from its start", async () => {
  const lib = await limits();
  const { out, view } = poisonedTable(lib);
  const src = lib.limits_alloc(32 * 8) >>> 0;
  new Float64Array(lib.memory.buffer, src, 32).fill(0.375);
  lib.limits_f64_floor_recur_order(out, LENGTH, DIM, src);
  const expected = [0.375, 0.375];
  while (expected.length < 8) expected.push(1.999 * expected.at(-1) - expected.at(-2));
  const table = view();
  for (let n = 0; n < LENGTH; n++)
    for (let j = 0; j < DIM; j++) {
      const value = table[n * DIM + j];
      if (value !== Math.fround(expected[n % 8])) assert.unreachable(`row ${n}, column ${j}: ${value}`);
    }
});

test.run();
