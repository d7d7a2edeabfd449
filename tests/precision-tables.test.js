// Reduced precision: float16 / bfloat16 tables against the quad oracle,
// the rounding kernels against an independent BigInt reference over every
// 16-bit pattern's neighbourhood, four builds bit for bit, the naive recipes
// on hand-derived values and their error at large positions, and refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError, bitsToFloat32 } from '../src/js/index.js';
import { oracleTable, oracleAt } from './support/oracle-run.js';
import { rng } from './support/random.js';
import {
  FORMATS,
  referenceRound,
  decode,
  isNaNBits,
  nextUp,
  nextDown,
  midpointDistance,
  neighbours,
} from './support/precision-reference.js';
import { serve, runBuilds, sameBits } from './support/precision-harness.js';
import { HARNESS, runHarness } from './support/native-harness.js';
import { sweep } from './support/quick.js';

const slow = sweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };
const random = rng('precision');
const DTYPES = ['float16', 'bfloat16'];
// The core's float64 values are within 1e-12 of exact below 2^31 (posenc.h);
// the oracle adds 1e-16.
const f64Error = () => 1e-12 + 1e-16;

/**
 * Every output against the correctly rounded oracle value. An output may be
 * the other neighbour only when the exact value lies within the float64
 * error of a midpoint; those cases are counted and returned.
 */
function checkRounded(got, exact, dim, positionOf, format, what) {
  let nearMidpoint = 0,
    otherNeighbour = 0;
  for (let k = 0; k < got.length; k++) {
    const want = referenceRound(exact[k], format);
    const close = midpointDistance(exact[k], format) <= f64Error(positionOf(Math.floor(k / dim)));
    if (close) nearMidpoint++;
    if (got[k] === want) continue;
    if (close && neighbours(exact[k], format).includes(got[k])) {
      otherNeighbour++;
      continue;
    }
    throw new Error(
      `${what}: p=${positionOf(Math.floor(k / dim))} column ${k % dim}: got 0x${got[k].toString(16)} ` +
        `(${decode(got[k], format)}), want 0x${want.toString(16)} (${decode(want, format)}) for exact ${exact[k]}`,
    );
  }
  return { nearMidpoint, otherNeighbour };
}

test('the BigInt reference agrees with Math.fround on float32 (so it can judge float16 and bfloat16)', () => {
  let n = 0;
  for (let k = 0; k < 200000; k++, n++) {
    const x = (random.next() - 0.5) * 2 ** (Math.floor(random.next() * 320) - 160);
    assert.ok(Object.is(decode(referenceRound(x, FORMATS.float32), FORMATS.float32), Math.fround(x)), `x = ${x}`);
  }
  // Ties, float32 subnormals and overflow.
  for (const x of [
    1 + 2 ** -24,
    1 + 3 * 2 ** -24,
    2 ** -150,
    3 * 2 ** -150,
    2 ** -149 * 1.5,
    3.4028235677973366e38,
    -0,
  ]) {
    assert.ok(Object.is(decode(referenceRound(x, FORMATS.float32), FORMATS.float32), Math.fround(x)), `x = ${x}`);
    n++;
  }
  assert.is(n, 200007);
});

/** Doubles around every finite pattern: itself, its neighbours, the midpoints to the next pattern and theirs. */
function neighbourhoods(format) {
  const values = [];
  const max = (2 * format.bias + 1) * 2 ** format.t; // the infinity pattern
  for (let h = 0; h < max; h++) {
    const v = decode(h, format);
    const next = h + 1 < max ? decode(h + 1, format) : v + (v - decode(h - 1, format)); // past the largest: the overflow midpoint
    const mid = (v + next) / 2;
    for (const x of [v, nextUp(v), nextDown(v), mid, nextUp(mid), nextDown(mid)]) values.push(x, -x);
  }
  values.push(
    0,
    -0,
    Infinity,
    -Infinity,
    NaN,
    -NaN,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    2 ** -1022,
    1e308,
    -1e308,
    2 ** -1074 * 3,
    2 ** -25,
    nextUp(2 ** -25),
    2 ** -134,
    nextUp(2 ** -134),
    2 ** -133 * 1.5,
    65520,
    nextDown(65520),
  );
  return Float64Array.from(values);
}

test("float64 -> float16 / bfloat16: every pattern's neighbourhood, ties, subnormals, ±0, overflow, on four builds", () => {
  let checked = 0;
  for (const dtype of DTYPES) {
    const format = FORMATS[dtype];
    const values = neighbourhoods(format);
    const want = Array.from(values, (x) => referenceRound(x, format));
    const builds = runBuilds([{ op: 'narrow', dtype, values }], wasm);
    for (const [build, [got]] of Object.entries(builds)) {
      assert.is(got.length, values.length);
      for (let k = 0; k < values.length; k++) {
        const ok = Number.isNaN(want[k]) ? isNaNBits(got[k], format) : got[k] === want[k];
        if (!ok)
          assert.unreachable(
            `${dtype} ${build}: ${values[k]} gave 0x${got[k].toString(16)}, want 0x${want[k].toString(16)}`,
          );
      }
      checked += values.length;
    }
    console.log(`precision: ${dtype} rounding, ${values.length} values × 4 builds equal the reference`);
  }
  // Every finite pattern of either sign (0x7c00 and 0x7f80 positive ones), 6 doubles each, 4 builds.
  assert.ok(checked > 4 * 12 * (0x7c00 + 0x7f80), `${checked} values`);
});

test('rounding kernels: every length 0 … 40 and every alignment give the same bits (SIMD tails)', () => {
  const requests = [];
  for (const dtype of DTYPES) {
    for (let n = 0; n <= 40; n++) {
      const values = Float64Array.from(
        { length: n },
        () => (random.next() - 0.5) * 2 ** (Math.floor(random.next() * 60) - 40),
      );
      if (n > 3) values[n - 1] = 0; // a zero in the tail and in a vector
      if (n > 9) values[5] = -(2 ** -20);
      requests.push({ op: 'narrow', dtype, values });
    }
  }
  const builds = runBuilds(requests, wasm);
  let values = 0;
  requests.forEach((r, k) => {
    const want = Uint16Array.from(r.values, (x) => referenceRound(x, FORMATS[r.dtype]));
    for (const build of Object.keys(builds))
      values += sameBits(builds[build][k], want, `${r.dtype} n=${r.values.length} ${build}`);
  });
  assert.ok(values > 3000);
});

// Shapes for the accuracy sweep: small and large dims, three bases, both
// layouts, offsets near 0, 2^20 and 2^24.
function accuracyShapes() {
  const shapes = [];
  for (const dim of [2, 6, 64, 512, 2048]) {
    for (const base of [2, 10000, 1e7]) {
      for (const layout of ['interleaved', 'split']) {
        for (const offset of [0, 2 ** 20 - 7, 2 ** 24 - 150])
          shapes.push({ dim, base, layout, offset, length: dim > 512 ? 40 : 150 });
      }
    }
  }
  return shapes;
}

for (const dtype of DTYPES) {
  slow(`${dtype} tables are the correctly rounded exact values (quad oracle), bar counted midpoint cases`, async () => {
    const format = FORMATS[dtype];
    let values = 0,
      near = 0,
      other = 0;
    for (const s of accuracyShapes()) {
      const got = wasm.simd.sinusoidal({ ...s, dtype });
      assert.instance(got, Uint16Array);
      const exact = await oracleTable(s);
      const r = checkRounded(got, exact, s.dim, (row) => s.offset + row, format, `${dtype} ${JSON.stringify(s)}`);
      values += got.length;
      near += r.nearMidpoint;
      other += r.otherNeighbour;
    }
    // Position lists, some past 2^24 (there the bound grows with p).
    const positions = Array.from({ length: 300 }, (_, k) => (k % 3 === 0 ? random.int(2 ** 31) : random.int(2 ** 24)));
    for (const dim of [8, 130]) {
      const got = wasm.scalar.sinusoidalAt(positions, { dim, dtype, layout: 'split' });
      const exact = await oracleAt(positions, { dim, base: 10000, layout: 'split' });
      const r = checkRounded(got, exact, dim, (row) => positions[row], format, `${dtype} positions d=${dim}`);
      values += got.length;
      near += r.nearMidpoint;
      other += r.otherNeighbour;
    }
    console.log(
      `precision: ${dtype}, ${values} values correctly rounded; ${near} lie within the float64 error of a midpoint, ${other} of them took the other neighbour`,
    );
    assert.ok(values > 1e6, `only ${values} values`);
    assert.ok(near <= values * 1e-4, `${near} values near a midpoint: more than the float64 error explains`);
  });
}

test("float16 / bfloat16 are the core's float64 rows rounded once; float32 rounds the same rows", () => {
  const requests = [];
  for (const [dim, offset, length] of [
    [8, 0, 130],
    [34, 2 ** 24 - 70, 90],
    [4096, 1000, 9],
  ]) {
    for (const dtype of ['float64', 'float32', 'float16', 'bfloat16'])
      requests.push({ op: 'table', dtype, dim, base: 10000, layout: 'interleaved', offset, length });
  }
  for (const kernels of ['scalar', 'simd']) {
    const out = serve(HARNESS, kernels, requests);
    for (let k = 0; k < out.length; k += 4) {
      const [f64, f32, f16, bf16] = out.slice(k, k + 4);
      sameBits(f32, Float32Array.from(f64, Math.fround), `${kernels} float32 = fround(float64)`);
      sameBits(
        f16,
        Uint16Array.from(f64, (x) => referenceRound(x, FORMATS.float16)),
        `${kernels} float16 = round(float64)`,
      );
      sameBits(
        bf16,
        Uint16Array.from(f64, (x) => referenceRound(x, FORMATS.bfloat16)),
        `${kernels} bfloat16 = round(float64)`,
      );
    }
  }
});

test('four builds give the same float16 / bfloat16 bits: sizes around the SIMD width, odd tails, offsets near 2^24', () => {
  const requests = [];
  for (const dtype of DTYPES) {
    for (let dim = 2; dim <= 34; dim += 2) {
      for (const [offset, length] of [
        [0, 17],
        [61, 70],
        [2 ** 24 - 5, 9],
        [2 ** 31 - 3, 3],
      ]) {
        requests.push({
          op: 'table',
          dtype,
          dim,
          base: 10000,
          layout: dim % 4 ? 'split' : 'interleaved',
          offset,
          length,
        });
      }
    }
    requests.push({ op: 'table', dtype, dim: 4098, base: 1e7, layout: 'split', offset: 2 ** 24 - 3, length: 7 });
    requests.push({
      op: 'at',
      dtype,
      dim: 18,
      base: 500,
      layout: 'interleaved',
      positions: [5, 6, 7, 2 ** 24 + 1, 0, 2 ** 31 - 1, 64, 63],
    });
  }
  const builds = runBuilds(requests, wasm);
  let values = 0;
  requests.forEach((r, k) => {
    for (const build of ['native scalar', 'native simd', 'wasm scalar']) {
      values += sameBits(builds[build][k], builds['wasm simd'][k], `${r.dtype} d=${r.dim} ${build} vs wasm simd`);
    }
  });
  console.log(`precision: ${requests.length} shapes, ${values} values identical on four builds`);
  assert.ok(values > 20000);
});

test('a position list gives the same bits as the table rows of those positions', () => {
  for (const dtype of DTYPES) {
    const table = wasm.simd.sinusoidal({ length: 300, dim: 10, offset: 100, dtype });
    const positions = [399, 100, 101, 102, 250, 250, 163, 164];
    const rows = wasm.simd.sinusoidalAt(Uint32Array.from(positions), { dim: 10, dtype });
    positions.forEach((p, r) =>
      sameBits(rows.subarray(r * 10, r * 10 + 10), table.subarray((p - 100) * 10, (p - 99) * 10), `${dtype} p=${p}`),
    );
    // out is filled and returned.
    const out = new Uint16Array(8 * 10);
    assert.is(wasm.scalar.sinusoidalAt(positions, { dim: 10, dtype, out }), out);
    sameBits(out, rows, `${dtype} into out`);
  }
});

test('bitsToFloat32 decodes float16 and bfloat16 exactly', () => {
  const h = Uint16Array.from([0x3c00, 0x0001, 0x8400, 0x7bff, 0x7c00, 0x3555]);
  assert.equal(Array.from(bitsToFloat32(h, { dtype: 'float16' })), [
    1,
    2 ** -24,
    -(2 ** -14),
    65504,
    Infinity,
    0.333251953125,
  ]);
  const b = Uint16Array.from([0x3f80, 0x0001, 0xc2c8, 0x7f7f]);
  assert.equal(Array.from(bitsToFloat32(b, { dtype: 'bfloat16' })), [1, 2 ** -133, -100, 3.3895313892515355e38]);
});

// ---- the naive recipes

// Hand-derived (d = 2: one pair, w_0 = 1; d = 4, T = 10000: w_1 = 0.01):
// - float16 positions keep 11 significant bits: 2049 is the tie between 2048
//   and 2050 and goes to the even 2048; 2051 goes to 2052.
// - bfloat16 keeps 8: 1000 = 0b1111101000 is exact, 1001 → 1000, 1003 =
//   0b1111101011 → 0b1111101100 = 1004, 257 → 256 (tie to even).
// - float16 at p = 1000, w = 1: the angle 1000 is exact; sin 1000 =
//   0.8268795405…, × 2^11 = 1693.45 → 1693/2048 = 0.82666015625; cos 1000 =
//   0.5623790762…, × 2^11 = 1151.75 → 1152/2048 = 0.5625.
// - float16 at p ≥ 65520 (the midpoint past 65504) the position is infinite: NaN.
test('recipes: positions, angles and values rounded as documented (hand-derived cases)', () => {
  const row = (recipe, p, dim = 2) => Array.from(wasm.simd.recipeTable({ recipe, dim, offset: p, length: 1 }));
  assert.equal(row('float16', 2049, 4), row('float16', 2048, 4));
  assert.equal(row('float16', 2051, 4), row('float16', 2052, 4));
  assert.not.equal(row('float16', 2050, 4), row('float16', 2048, 4));
  assert.equal(row('bfloat16', 1001, 4), row('bfloat16', 1000, 4));
  assert.equal(row('bfloat16', 1003, 4), row('bfloat16', 1004, 4));
  assert.equal(row('bfloat16', 257, 4), row('bfloat16', 256, 4));
  assert.equal(row('float16', 1000), [0.82666015625, 0.5625]);
  assert.ok(row('float16', 65520).every(Number.isNaN));
  assert.ok(row('float16', 65519).every(Number.isFinite));
  // float32-angle: positions below 2^24 are exact, so pair 0 (w = 1) is the
  // float32 nearest sin p; pair 1 uses the float32 angle fround(p · fround(0.01)).
  const p = 1000003;
  const angle = Math.fround(p * Math.fround(0.01));
  // p · 0.0099999997764825821 = 10000.0297765… = 10000 + 30.49 · 2^-10 (the float32 spacing there): 10000 + 30 · 2^-10.
  assert.is(angle, 10000.029296875);
  const got = row('float32-angle', p, 4);
  assert.is(got[0], Math.fround(Math.sin(p)));
  assert.is(got[2], Math.fround(Math.sin(angle)));
  assert.is(got[3], Math.fround(Math.cos(angle)));
});

/** A JS model of each recipe (Math.fround, the BigInt reference, Math.sin), independent of the core. */
function recipeModel(recipe, p, w) {
  const round =
    recipe === 'float32-angle' ? Math.fround : (x) => decode(referenceRound(x, FORMATS[recipe]), FORMATS[recipe]);
  const angle = round(round(p) * round(w));
  return Number.isFinite(angle) ? [round(Math.sin(angle)), round(Math.cos(angle))] : [NaN, NaN];
}

test('recipes equal a JS model of the documented steps, on both layouts and wasm builds', () => {
  let compared = 0,
    offByOne = 0;
  for (const recipe of ['float32-angle', 'float16', 'bfloat16']) {
    for (const [offset, length] of [
      [0, 70],
      [4000, 40],
      [1e6, 20],
    ]) {
      for (const layout of ['interleaved', 'split']) {
        const dim = 16,
          half = dim / 2;
        const t = (layout === 'split' ? wasm.scalar : wasm.simd).recipeTable({ recipe, dim, offset, length, layout });
        for (let r = 0; r < length; r++) {
          for (let i = 0; i < half; i++) {
            const want = recipeModel(recipe, offset + r, 10000 ** (-i / half));
            const at = layout === 'split' ? [i, half + i] : [2 * i, 2 * i + 1];
            for (let c = 0; c < 2; c++, compared++) {
              const g = t[r * dim + at[c]];
              if (Object.is(g, want[c]) || (Number.isNaN(g) && Number.isNaN(want[c]))) continue;
              // Math.sin and the core's sin differ in the last bit of double: only a
              // value within that of a rounding midpoint may land on the other side.
              offByOne++;
              assert.ok(Math.abs(g - want[c]) <= 2 ** -10, `${recipe} p=${offset + r} i=${i}: ${g} vs ${want[c]}`);
            }
          }
        }
      }
    }
  }
  assert.ok(offByOne <= 2, `${offByOne} values differ from the model`);
  assert.ok(compared > 5000);
});

test('at large positions the recipes err badly while posenc float16 / bfloat16 stay within an ulp', async () => {
  const s = { dim: 64, base: 10000, layout: 'interleaved', offset: 1e6, length: 64 };
  const exact = await oracleTable(s);
  const maxError = (t) => t.reduce((m, v, k) => Math.max(m, Math.abs(v - exact[k])), 0);
  const errors = {};
  for (const recipe of ['float32-angle', 'float16', 'bfloat16'])
    errors[recipe] = maxError(wasm.simd.recipeTable({ recipe, ...s }));
  for (const dtype of DTYPES)
    errors[`posenc ${dtype}`] = maxError(bitsToFloat32(wasm.simd.sinusoidal({ ...s, dtype }), { dtype }));
  errors['posenc float32'] = maxError(wasm.simd.sinusoidal(s));
  console.log(
    'precision: max abs error near p = 1e6 (d = 64):',
    Object.entries(errors)
      .map(([k, v]) => `${k} ${v.toExponential(2)}`)
      .join(', '),
  );
  assert.ok(
    errors['float32-angle'] > 1e-2 && errors['float32-angle'] < 0.2,
    `float32-angle ${errors['float32-angle']}`,
  );
  assert.ok(Number.isNaN(errors.float16), 'float16 positions past 65504 are infinite');
  assert.ok(errors.bfloat16 > 0.5, `bfloat16 ${errors.bfloat16}`);
  assert.ok(errors['posenc float16'] <= 2 ** -11, `posenc float16 ${errors['posenc float16']}`); // an ulp below 1
  assert.ok(errors['posenc bfloat16'] <= 2 ** -8, `posenc bfloat16 ${errors['posenc bfloat16']}`);
  assert.ok(errors['posenc float32'] <= 6e-8);
  // Four builds agree on the recipes too.
  const requests = ['float32-angle', 'float16', 'bfloat16'].map((recipe) => ({
    op: 'recipe',
    recipe,
    ...s,
    length: 9,
  }));
  const builds = runBuilds(requests, wasm);
  requests.forEach((r, k) => {
    for (const b of ['native scalar', 'native simd', 'wasm scalar'])
      sameBits(builds[b][k], builds['wasm simd'][k], `${r.recipe} ${b}`);
  });
});

// ---- refusals

function refused(call, code, message) {
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, String(error));
    assert.is(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return;
  }
  assert.unreachable(`accepted; expected ${code}`);
}

test('bad dtypes, outs and recipes are refused and leave out untouched', () => {
  const inst = wasm.simd;
  const out = new Uint16Array(8).fill(0xabcd);
  refused(
    () => inst.sinusoidal({ length: 2, dim: 4, dtype: 'float8', out }),
    'BAD_DTYPE',
    /dtype must be 'float32' .*'float16' or 'bfloat16'; got "float8"/,
  );
  refused(
    () => inst.sinusoidal({ length: 2, dim: 4, dtype: 'float16', out: new Float32Array(8) }),
    'BAD_BUFFER',
    /Uint16Array/,
  );
  refused(() => inst.sinusoidal({ length: 2, dim: 4, dtype: 'float16', out: new Uint16Array(7) }), 'BAD_SIZE');
  refused(
    () => inst.sinusoidal({ length: 2, dim: 4, dtype: 'bfloat16', out: inst.alloc(8) }),
    'BAD_BUFFER',
    /WasmBuffer holds float32/,
  );
  refused(() => inst.sinusoidal({ length: 2, dim: 5, dtype: 'float16', out }), 'BAD_DIM');
  refused(() => inst.sinusoidal({ length: 2, dim: 4, dtype: 'float16', offset: 2 ** 31 - 1, out }), 'BAD_OFFSET');
  refused(() => inst.sinusoidalAt([1, -1], { dim: 4, dtype: 'float16', out }), 'BAD_POSITION');
  refused(() => inst.sinusoidalAt([1, 2], { dim: 4, dtype: 'bfloat16', out: new Uint16Array(9) }), 'BAD_SIZE');
  refused(() => inst.sinusoidal({ length: 2, dim: 4, dtype: 'float16', presett: 'fairseq', out }), 'UNKNOWN_OPTION');
  assert.ok(
    out.every((v) => v === 0xabcd),
    'a refused call wrote to out',
  );
  refused(
    () => inst.recipeTable({ recipe: 'fp8', length: 2, dim: 4 }),
    'BAD_RECIPE',
    /'float32-angle', 'float16' or 'bfloat16'/,
  );
  refused(() => inst.recipeTable({ recipe: 'float16', length: 2, dim: 3 }), 'BAD_DIM');
  refused(() => inst.roundToBits([1], { dtype: 'float32' }), 'BAD_DTYPE');
  refused(() => inst.roundToBits(['1'], { dtype: 'float16' }), 'BAD_BUFFER');
  refused(() => bitsToFloat32(new Float32Array(1), { dtype: 'float16' }), 'BAD_BUFFER');
  // float32 stays the default and the old path.
  sameBits(inst.sinusoidal({ length: 5, dim: 6, dtype: 'float32' }), inst.sinusoidal({ length: 5, dim: 6 }), 'float32');
});

test('the C API refuses bad dtypes and recipes before writing (harness exit 4, guards intact)', () => {
  for (const args of [
    ['tabledtype', 'simd', '7', '4', '10000', 'interleaved', '0', '3'],
    ['recipe', 'scalar', '3', '4', '10000', 'split', '0', '3'],
  ]) {
    const run = runHarness(HARNESS, args);
    assert.is(run.status, 4, run.stderr);
    assert.match(run.stderr, /dtype must be|recipe must be/);
  }
});

test.run();
