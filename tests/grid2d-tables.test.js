// 2-D sin-cos tables (MAE's get_2d_sincos_pos_embed layout): hand-derived
// rows, MAE's formula computed here in float64, the 1-D tables they are made
// of, four builds bit for bit, and refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { runBuilds, sameBits } from './support/precision-harness.js';
import { rng } from './support/random.js';

const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };
const random = rng('sinusoidal2d');
const TOLERANCE = 6e-8 + 1e-15; // posenc's float32 bound, plus Math.sin's double error

// A 2 × 3 grid (height 2, width 3), dim 8: each axis gets 4 channels, 2 pairs,
// w = [10000^0, 10000^(-1/2)] = [1, 0.01]. Token t = y·3 + x holds
// [sin x, sin 0.01x, cos x, cos 0.01x, sin y, sin 0.01y, cos y, cos 0.01y]
// (MAE: the first half encodes grid[0] of np.meshgrid(grid_w, grid_h), which
// is the column x). Values to 10 digits from a table of sines.
const S1 = 0.8414709848,
  S2 = 0.9092974268,
  C1 = 0.5403023059,
  C2 = -0.4161468365;
const s1 = 0.0099998333,
  s2 = 0.0199986667,
  c1 = 0.9999500004,
  c2 = 0.9998000067;
const HAND_2x3 = [
  [0, 0, 1, 1, 0, 0, 1, 1], // y 0, x 0
  [S1, s1, C1, c1, 0, 0, 1, 1], // y 0, x 1
  [S2, s2, C2, c2, 0, 0, 1, 1], // y 0, x 2
  [0, 0, 1, 1, S1, s1, C1, c1], // y 1, x 0
  [S1, s1, C1, c1, S1, s1, C1, c1], // y 1, x 1
  [S2, s2, C2, c2, S1, s1, C1, c1], // y 1, x 2
];

test('a 2 × 3 grid, dim 8, with and without the class token (hand-derived)', () => {
  for (const inst of [wasm.simd, wasm.scalar]) {
    const t = inst.sinusoidal2d({ height: 2, width: 3, dim: 8 });
    assert.is(t.length, 6 * 8);
    HAND_2x3.forEach((row, k) =>
      row.forEach((v, j) => {
        assert.ok(Math.abs(t[k * 8 + j] - v) <= 1e-7, `token ${k} channel ${j}: ${t[k * 8 + j]} vs ${v}`);
      }),
    );
    const withCls = inst.sinusoidal2d({ height: 2, width: 3, dim: 8, clsToken: true });
    assert.is(withCls.length, 7 * 8);
    assert.ok(
      withCls.subarray(0, 8).every((v) => Object.is(v, 0)),
      'the class row is +0',
    );
    sameBits(withCls.subarray(8), t, 'rows after the class token');
  }
});

/** MAE's get_2d_sincos_pos_embed for an h × w grid, written out in float64 (numpy semantics spelled out). */
function maeTable(h, w, embedDim, base) {
  // grid = np.meshgrid(grid_w, grid_h): two (h, w) arrays, grid[0][i][j] = j, grid[1][i][j] = i.
  const grid0 = [],
    grid1 = [];
  for (let i = 0; i < h; i++)
    for (let j = 0; j < w; j++) {
      grid0.push(j);
      grid1.push(i);
    }
  // get_1d_sincos_pos_embed_from_grid(D, pos): omega = 1 / base^(arange(D/2) / (D/2)); [sin(pos·omega), cos(pos·omega)].
  const oneD = (D, pos) => {
    const omega = Array.from({ length: D / 2 }, (_, d) => 1 / base ** (d / (D / 2)));
    return pos.map((p) => [...omega.map((o) => Math.sin(p * o)), ...omega.map((o) => Math.cos(p * o))]);
  };
  const embH = oneD(embedDim / 2, grid0),
    embW = oneD(embedDim / 2, grid1); // MAE's names
  return embH.map((row, k) => [...row, ...embW[k]]); // np.concatenate([emb_h, emb_w], axis=1)
}

test("equals MAE's formula evaluated in float64, on square and oblong grids", () => {
  let values = 0,
    worst = 0;
  for (const [h, w, dim, base] of [
    [14, 14, 768, 10000],
    [3, 7, 16, 10000],
    [7, 3, 16, 10000],
    [1, 9, 4, 100],
    [24, 5, 64, 1e7],
  ]) {
    const got = wasm.simd.sinusoidal2d({ height: h, width: w, dim, base });
    const want = maeTable(h, w, dim, base);
    want.forEach((row, k) =>
      row.forEach((v, j) => {
        const e = Math.abs(got[k * dim + j] - v);
        worst = Math.max(worst, e);
        if (e > TOLERANCE)
          assert.unreachable(`${h}×${w} d=${dim}: token ${k} channel ${j}: ${got[k * dim + j]} vs ${v}`);
        values++;
      }),
    );
  }
  console.log(`sinusoidal2d: ${values} values within ${worst.toExponential(2)} of MAE's formula`);
  assert.ok(values > 150000);
});

test('each half is the 1-D split table of dim/2: the column x, then the row y (same bits)', () => {
  const h = 9,
    w = 70,
    dim = 36,
    half = dim / 2;
  const t = wasm.simd.sinusoidal2d({ height: h, width: w, dim, base: 500, clsToken: true });
  const columns = wasm.simd.sinusoidal({ length: w, dim: half, base: 500, layout: 'split' });
  const rows = wasm.simd.sinusoidal({ length: h, dim: half, base: 500, layout: 'split' });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const token = t.subarray((1 + y * w + x) * dim, (2 + y * w + x) * dim);
      sameBits(token.subarray(0, half), columns.subarray(x * half, (x + 1) * half), `(${y}, ${x}) first half`);
      sameBits(token.subarray(half), rows.subarray(y * half, (y + 1) * half), `(${y}, ${x}) second half`);
    }
  }
});

test('four builds agree bit for bit (dims around the SIMD width, random grids)', () => {
  const requests = [];
  for (let dim = 4; dim <= 44; dim += 4)
    requests.push({
      op: 'table2d',
      height: 1 + random.int(9),
      width: 1 + random.int(70),
      dim,
      base: 10000,
      clsToken: dim % 8 === 0,
    });
  requests.push({ op: 'table2d', height: 0, width: 5, dim: 8, base: 10000, clsToken: true });
  requests.push({ op: 'table2d', height: 2, width: 1100, dim: 12, base: 1e7, clsToken: false });
  const builds = runBuilds(requests, wasm);
  let values = 0;
  requests.forEach((r, k) => {
    for (const b of ['native scalar', 'native simd', 'wasm scalar'])
      values += sameBits(builds[b][k], builds['wasm simd'][k], `${JSON.stringify(r)} ${b}`);
  });
  assert.ok(values > 10000, `${values}`);
});

test('out: a Float32Array or a WasmBuffer is filled and returned', () => {
  const want = wasm.scalar.sinusoidal2d({ height: 4, width: 5, dim: 12 });
  const out = new Float32Array(want.length);
  assert.is(wasm.scalar.sinusoidal2d({ height: 4, width: 5, dim: 12, out }), out);
  sameBits(out, want, 'Float32Array out');
  const buffer = wasm.scalar.alloc(want.length);
  assert.is(wasm.scalar.sinusoidal2d({ height: 4, width: 5, dim: 12, out: buffer }), buffer);
  sameBits(buffer.array.slice(), want, 'WasmBuffer out');
  buffer.free();
});

test('bad arguments are refused, naming the argument, and out stays untouched', () => {
  const cases = [
    [{ dim: 6 }, 'BAD_DIM', /dim must be a multiple of 4/],
    [{ dim: 0 }, 'BAD_DIM'],
    [{ dim: 2 }, 'BAD_DIM'],
    [{ height: -1 }, 'BAD_LENGTH', /height must be an integer/],
    [{ width: 1.5 }, 'BAD_LENGTH', /width/],
    [{ base: 1 }, 'BAD_BASE'],
    [{ clsToken: 1 }, 'BAD_OPTIONS', /clsToken/],
    [{ clsToken: true }, 'BAD_SIZE'], // one row more than out holds
    [{ hieght: 2 }, 'UNKNOWN_OPTION', /did you mean 'height'/],
  ];
  for (const [change, code, message] of cases) {
    const out = new Float32Array(2 * 3 * 8).fill(7);
    try {
      wasm.simd.sinusoidal2d({ height: 2, width: 3, dim: 8, out, ...change });
      assert.unreachable(`${JSON.stringify(change)} was accepted`);
    } catch (error) {
      assert.instance(error, PosencError, String(error));
      assert.is(error.code, code, `${JSON.stringify(change)}: ${error.message}`);
      if (message) assert.match(error.message, message);
    }
    assert.ok(
      out.every((v) => v === 7),
      `${JSON.stringify(change)} wrote to out`,
    );
  }
});

test.run();
