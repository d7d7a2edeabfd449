// Accuracy against the quad-precision oracle (build/test/oracle, written by the
// tests): a sample of rows, the first ones and the last ones of the table,
// compared with each implementation's float32 output.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const EDGE_ROWS = 16;

// The positions compared: the first EDGE_ROWS rows and the last EDGE_ROWS.
export function sampleRows(length) {
  const rows = new Set();
  for (let r = 0; r < Math.min(EDGE_ROWS, length); r++) rows.add(r);
  for (let r = Math.max(0, length - EDGE_ROWS); r < length; r++) rows.add(r);
  return [...rows];
}

// Exact values for the rows, as float64 (row-major, rows × dim), or a reason
// it cannot be had: { values } or { error }.
export function oracleValues(root, { dim, rows, base = 10000, layout = 'interleaved' }) {
  const exe = path.join(root, 'build/test/oracle');
  if (!existsSync(exe)) return { error: 'no build/test/oracle yet' };
  try {
    const input = Buffer.from(new Uint32Array(rows).buffer);
    const out = execFileSync(exe, ['at', String(dim), String(base), layout], { input, maxBuffer: 1 << 28 });
    if (out.byteLength !== rows.length * dim * 8)
      return { error: `oracle gave ${out.byteLength} bytes, wanted ${rows.length * dim * 8}` };
    const copy = new Uint8Array(out); // aligned for the Float64Array view
    return { values: new Float64Array(copy.buffer) };
  } catch (err) {
    return { error: `oracle failed: ${err.message.split('\n')[0]}` };
  }
}

// The sampled rows of a row-major table, copied out (the table may be a view
// that a later call detaches, or a buffer about to be freed).
export function pickRows(table, dim, rows) {
  const sample = new Float32Array(rows.length * dim);
  rows.forEach((r, k) => sample.set(table.subarray(r * dim, (r + 1) * dim), k * dim));
  return sample;
}

// Largest |sample - exact| element by element; NaN anywhere makes it NaN.
export function maxAbsError(sample, exact) {
  let worst = 0;
  for (let k = 0; k < sample.length; k++) {
    const e = Math.abs(sample[k] - exact[k]);
    if (Number.isNaN(e)) return NaN;
    if (e > worst) worst = e;
  }
  return worst;
}
