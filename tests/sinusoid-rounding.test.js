// Correct rounding (issue 26): with rounding 'correct' (pe_set_rounding,
// setRounding) every float32, float16 and bfloat16 value is the exact value
// rounded once, on all four builds; with 'fast', the default, the fast path's
// bits come back (the five values it rounds the wrong way stay wrong). The cases are the values
// nearest to a rounding midpoint that tests/oracle/exhaustive/find_hard.c
// found (distance to the midpoint in steps of the format's grid, down to
// 1.2e-8), plus the five float32 values the fast path alone rounded the wrong
// way below position 2^16 for d = 128, T = 10,000 (found by
// tests/oracle/exhaustive/rounding_check.c on the old core; e.g. p = 19,218,
// pair 20, sine, 3.8e-15 from its midpoint). Each case's rows (the position
// and its neighbours, every column) go through sinusoidalAt in both layouts,
// sinusoidal at an offset, and ropeCosSin, and are compared bit for bit with
// the quad-precision oracle's own rounding (build/test/oracle rounded).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { instantiate } from '../src/js/index.js';
import { ORACLE } from './support/oracle-run.js';
import { runBuilds } from './support/precision-harness.js';

// [dtype, dim, base, position, pair, 'sin' | 'cos']
const HARD = [
  ['float32', 128, 10000, 10028, 20, 'cos'],
  ['float32', 128, 10000, 19218, 20, 'sin'],
  ['float32', 128, 10000, 32628, 30, 'cos'],
  ['float32', 128, 10000, 38651, 10, 'cos'],
  ['float32', 128, 10000, 40112, 20, 'sin'],
  ['float32', 128, 10000, 37313, 40, 'cos'],
  ['float32', 128, 10000, 58553, 36, 'cos'],
  ['float32', 128, 10000, 28381, 39, 'sin'],
  ['float32', 128, 10000, 55616, 0, 'sin'],
  ['float16', 128, 10000, 36638, 11, 'sin'],
  ['float16', 128, 10000, 10101, 0, 'cos'],
  ['float16', 128, 10000, 34334, 24, 'sin'],
  ['bfloat16', 128, 10000, 34905, 20, 'sin'],
  ['bfloat16', 128, 10000, 10674, 63, 'sin'],
  ['bfloat16', 128, 10000, 29026, 1, 'sin'],
  ['float32', 64, 10000, 2147436265, 13, 'cos'],
  ['float32', 64, 10000, 2147478636, 17, 'cos'],
  ['float32', 64, 10000, 2147478637, 6, 'cos'],
  ['float16', 64, 10000, 2147434778, 15, 'sin'],
  ['float16', 64, 10000, 2147468572, 2, 'sin'],
  ['bfloat16', 64, 10000, 2147478344, 27, 'cos'],
  ['bfloat16', 64, 10000, 2147452923, 30, 'cos'],
  ['bfloat16', 64, 10000, 2147424289, 0, 'cos'],
  ['float32', 256, 500000, 15569, 28, 'cos'],
  ['float32', 256, 500000, 3720, 50, 'sin'],
  ['float16', 256, 500000, 7875, 113, 'cos'],
  ['float16', 256, 500000, 13847, 22, 'cos'],
  ['bfloat16', 256, 500000, 7163, 1, 'cos'],
  ['bfloat16', 256, 500000, 5601, 98, 'cos'],
  ['float32', 16, 10000, 1185270, 4, 'cos'],
  ['float32', 16, 10000, 1177216, 1, 'sin'],
  ['float16', 16, 10000, 1199403, 6, 'cos'],
  ['float16', 16, 10000, 1055085, 4, 'cos'],
  ['bfloat16', 16, 10000, 1303380, 2, 'sin'],
  ['bfloat16', 16, 10000, 1070127, 7, 'cos'],
];

const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };

// The rounding of all four builds: the wasm instances' switch, and the native
// harness's (PE_ROUNDING in its environment, tests/native/harness/main.c).
function useRounding(mode) {
  for (const inst of Object.values(wasm)) inst.setRounding(mode);
  if (mode === 'correct') process.env.PE_ROUNDING = 'correct';
  else delete process.env.PE_ROUNDING;
}

// One group per (dtype, dim, base): every case's position and its neighbours.
function groups() {
  const by = new Map();
  for (const [dtype, dim, base, p, pair, fn] of HARD) {
    const key = `${dtype} ${dim} ${base}`;
    if (!by.has(key)) by.set(key, { dtype, dim, base, positions: [], cases: [] });
    const g = by.get(key);
    for (const q of [p - 1, p, p + 1]) if (q >= 0 && q < 2 ** 31 && !g.positions.includes(q)) g.positions.push(q);
    g.cases.push({ p, pair, fn });
  }
  return [...by.values()];
}

// The oracle's rows, rounded once to dtype: Float32Array or Uint16Array.
function oracleRounded(dtype, dim, base, layout, positions) {
  const run = spawnSync(ORACLE, ['rounded', dtype, String(dim), String(base), layout], {
    input: Buffer.from(Uint32Array.from(positions).buffer),
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`oracle rounded failed: ${run.stderr}`);
  const b = run.stdout;
  const buffer = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
  return dtype === 'float32' ? new Float32Array(buffer) : new Uint16Array(buffer);
}

const bitsOf = (a) => (a instanceof Float32Array ? new Uint32Array(a.buffer, a.byteOffset, a.length) : a);

// The first element where got and want differ, described; '' when none.
function firstDifference(got, want, dim, positions, layout) {
  const g = bitsOf(got),
    w = bitsOf(want);
  if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
  for (let k = 0; k < g.length; k++) {
    if (g[k] !== w[k]) {
      const row = Math.floor(k / dim),
        col = k % dim;
      return `p=${positions[row]} column ${col} (${layout}): got ${got[k]} (0x${g[k].toString(16)}), correctly rounded ${want[k]} (0x${w[k].toString(16)})`;
    }
  }
  return '';
}

// The fast path's bound (src/core/sinusoid/plan.h: PE_FAST_BOUND = 24600 * 2^-53).
const FAST_BOUND = 24600 * 2 ** -53;

test('the hard cases are hard: within the fast path bound of a midpoint, or 3e-4 of a step', () => {
  // The oracle's float64 value of each case, measured against its format's nearest midpoint.
  let undecided = 0;
  for (const [dtype, dim, base, p, pair, fn] of HARD) {
    const run = spawnSync(ORACLE, ['at', String(dim), String(base), 'interleaved'], {
      input: Buffer.from(Uint32Array.of(p).buffer),
    });
    const row = new Float64Array(
      run.stdout.buffer.slice(run.stdout.byteOffset, run.stdout.byteOffset + run.stdout.length),
    );
    const v = Math.abs(row[2 * pair + (fn === 'cos' ? 1 : 0)]);
    const t = { float32: 23, float16: 10, bfloat16: 7 }[dtype];
    const step = 2 ** (Math.max(Math.floor(Math.log2(v)), dtype === 'float16' ? -14 : -126) - t);
    const n = v / step;
    const steps = Math.abs(n - Math.floor(n) - 0.5);
    // float64 resolves the distance to about 2^-53 |v|, far below both limits.
    const within = steps * step < FAST_BOUND;
    undecided += within;
    assert.ok(within || steps < 3e-4, `${dtype} d=${dim} p=${p} pair ${pair} ${fn}: ${steps} steps from the midpoint`);
  }
  // At least the five the old fast path got wrong need the slow path.
  assert.ok(undecided >= 5, `${undecided} cases within the fast path's bound`);
});

test("the default is 'fast'; setRounding refuses other values and keeps the mode", () => {
  for (const inst of Object.values(wasm)) {
    assert.is(inst.rounding(), 'fast');
    for (const bad of ['exact', 1, undefined, 'Correct']) {
      assert.throws(
        () => inst.setRounding(bad),
        (e) => e.code === 'BAD_ROUNDING' && /'fast' or 'correct'/.test(e.message),
      );
      assert.is(inst.rounding(), 'fast');
    }
  }
});

test("'fast' gives the fast path's bits: the five cases it rounds the wrong way stay wrong, on four builds", () => {
  useRounding('fast');
  const g = { dtype: 'float32', dim: 128, base: 10000 };
  const wrong = HARD.slice(0, 5); // the five the fast path alone rounded the wrong way (see the top)
  for (const layout of ['interleaved', 'split']) {
    const positions = wrong.map(([, , , p]) => p);
    const results = runBuilds([{ op: 'at', ...g, layout, positions }], wasm);
    const want = oracleRounded(g.dtype, g.dim, g.base, layout, positions);
    const wantBits = bitsOf(want);
    let builds = 0;
    for (const [build, [got]] of Object.entries(results)) {
      const bits = bitsOf(got);
      wrong.forEach(([, , , p, pair, fn], r) => {
        const col =
          layout === 'interleaved' ? 2 * pair + (fn === 'cos' ? 1 : 0) : pair + (fn === 'cos' ? g.dim / 2 : 0);
        const k = r * g.dim + col;
        // Off, but within half an ulp plus the fast path's bound of the exact value.
        assert.is.not(bits[k], wantBits[k], `${build} ${layout} p=${p} pair ${pair} ${fn}: fast rounded it correctly`);
        const ulp = 2 ** (Math.floor(Math.log2(Math.abs(want[k]))) - 23);
        assert.ok(
          Math.abs(got[k] - want[k]) <= ulp + 2 * FAST_BOUND,
          `${build} ${layout} p=${p}: ${got[k]} vs ${want[k]}`,
        );
      });
      // Every other value of these rows is decided by the fast path alone: the same bits.
      let others = 0;
      for (let k = 0; k < bits.length; k++) others += bits[k] !== wantBits[k];
      assert.is(others, wrong.length, `${build} ${layout}: ${others} values differ, expected the ${wrong.length}`);
      builds++;
    }
    assert.is(builds, 4);
  }
});

test('every build gives the correctly rounded bits at the hard cases: sinusoidalAt, sinusoidal at an offset', () => {
  useRounding('correct');
  let compared = 0;
  for (const g of groups()) {
    for (const layout of ['interleaved', 'split']) {
      const requests = [{ op: 'at', dtype: g.dtype, dim: g.dim, base: g.base, layout, positions: g.positions }];
      for (const { p } of g.cases) {
        const offset = Math.max(0, Math.min(p - 2, 2 ** 31 - 5));
        requests.push({ op: 'table', dtype: g.dtype, dim: g.dim, base: g.base, layout, offset, length: 5 });
      }
      const results = runBuilds(requests, wasm);
      requests.forEach((r, k) => {
        const positions = r.op === 'at' ? r.positions : Array.from({ length: r.length }, (_, q) => r.offset + q);
        const want = oracleRounded(g.dtype, g.dim, g.base, layout, positions);
        for (const [build, outs] of Object.entries(results)) {
          const diff = firstDifference(outs[k], want, g.dim, positions, layout);
          assert.is(diff, '', `${build} ${r.op} ${g.dtype} d=${g.dim} base=${g.base}: ${diff}`);
          compared += want.length;
        }
      });
    }
  }
  console.log(`sinusoid-rounding: ${HARD.length} hard cases, ${compared} values compared on four builds`);
});

test('ropeCosSin without an attention factor: the same correctly rounded cos and sin (wasm builds)', () => {
  useRounding('correct');
  for (const g of groups()) {
    const want = oracleRounded(g.dtype, g.dim, g.base, 'split', g.positions);
    const half = g.dim / 2;
    for (const [name, inst] of Object.entries(wasm)) {
      const { cos, sin } = inst.ropeCosSin({ headDim: g.dim, base: g.base, positions: g.positions, dtype: g.dtype });
      const got = new want.constructor(want.length);
      g.positions.forEach((_, r) => {
        got.set(sin.subarray(r * half, (r + 1) * half), r * g.dim);
        got.set(cos.subarray(r * half, (r + 1) * half), r * g.dim + half);
      });
      const diff = firstDifference(got, want, g.dim, g.positions, 'split');
      assert.is(diff, '', `wasm ${name} ropeCosSin ${g.dtype} d=${g.dim} base=${g.base}: ${diff}`);
    }
  }
});

test.after(() => useRounding('fast'));

test.run();
