// The accuracy promise: every float32 output within 6e-8 of the exact value
// for positions below 2^24, even d up to 8192, bases 2 ... 1e7. "Exact" is the
// quad-precision oracle (tests/oracle/oracle.c), itself checked first against
// known values. Also: positions 2^24 ... 2^31, held to the same 6e-8,
// row norms sqrt(d/2), and the relative-position property.
// Builds agree bit for bit (sinusoid-builds.test.js), so the wasm SIMD build stands in
// for all four.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { availableParallelism } from 'node:os';
import { instantiate } from '../src/js/index.js';
import { oracleTable, oracleAt } from './support/oracle-run.js';
import { maxAbsError, maxNormError, inParallel } from './support/oracle-compare.js';
import { generator, seedFromEnv } from './support/random.js';
import { bitsOf } from './support/builds-bits.js';
import { sweep } from './support/quick.js';

const slow = sweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const TOLERANCE = 6e-8;
const seed = seedFromEnv();
console.log(`sinusoid-accuracy.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);
const pe = await instantiate({ simd: true });
const PARALLEL = Math.max(1, Math.min(4, availableParallelism()));

// --- the oracle itself -------------------------------------------------------

// sin N and cos N by hand: N reduced by pi/2 in 50-digit BigInt fixed point,
// then Math.sin/Math.cos of a remainder below pi/4.
const DIGITS = 50n;
const SCALE = 10n ** DIGITS;
const PI = 314159265358979323846264338327950288419716939937510n; // pi * 10^50
function sinCosByHand(n) {
  const x = BigInt(n) * SCALE;
  const halfPi = PI / 2n;
  const q = (x + halfPi / 2n) / halfPi; // nearest multiple of pi/2 (x >= 0)
  const rScaled = x - q * halfPi;
  const r = Number((rScaled << 64n) / SCALE) / 2 ** 64;
  const s = Math.sin(r);
  const c = Math.cos(r);
  return [
    [s, c],
    [c, -s],
    [-s, -c],
    [-c, s],
  ][Number(q % 4n)];
}

test('the oracle agrees with known values', async () => {
  // d = 2: pair 0 has w = 1 for any base, so row p is sin p, cos p.
  const one = await oracleTable({ dim: 2, base: 1e4, offset: 1, length: 1 });
  assert.is(one[0], 0.8414709848078965, 'sin 1');
  assert.is(one[1], 0.5403023058681398, 'cos 1');

  // Small exact angles p / 1024 < 0.49 (base 2^20, d = 4: w_1 = 2^-10) against Math.sin/cos.
  const small = await oracleTable({ dim: 4, base: 2 ** 20, offset: 0, length: 500 });
  for (let p = 0; p < 500; p++) {
    assert.ok(
      Math.abs(small[4 * p + 2] - Math.sin(p / 1024)) <= 1e-16,
      `sin(${p}/1024): ${small[4 * p + 2]} vs ${Math.sin(p / 1024)}`,
    );
    // cos is near 1, where a double's ulp is 2.2e-16 and V8 may be off by one.
    assert.ok(
      Math.abs(small[4 * p + 3] - Math.cos(p / 1024)) <= 2.3e-16,
      `cos(${p}/1024): ${small[4 * p + 3]} vs ${Math.cos(p / 1024)}`,
    );
  }

  // The frequencies: d = 8, base 10, row 1 is sin/cos of 10^(-i/4).
  const freq = await oracleTable({ dim: 8, base: 10, offset: 1, length: 1 });
  for (let i = 0; i < 4; i++) {
    const w = Math.pow(10, -i / 4);
    assert.ok(Math.abs(freq[2 * i] - Math.sin(w)) <= 2e-16, `sin 10^(-${i}/4): ${freq[2 * i]} vs ${Math.sin(w)}`);
    assert.ok(
      Math.abs(freq[2 * i + 1] - Math.cos(w)) <= 2e-16,
      `cos 10^(-${i}/4): ${freq[2 * i + 1]} vs ${Math.cos(w)}`,
    );
  }

  // Large arguments, reduced by hand: 1e6, 2^24 + 1, 2^31 - 1.
  const big = [1e6, 2 ** 24 + 1, 2 ** 31 - 1];
  const rowsAt = await oracleAt(big, { dim: 2, base: 1e4 });
  big.forEach((n, k) => {
    const [s, c] = sinCosByHand(n);
    assert.ok(Math.abs(rowsAt[2 * k] - s) <= 2e-16, `sin ${n}: oracle ${rowsAt[2 * k]}, by hand ${s}`);
    assert.ok(Math.abs(rowsAt[2 * k + 1] - c) <= 2e-16, `cos ${n}: oracle ${rowsAt[2 * k + 1]}, by hand ${c}`);
  });
  assert.ok(Math.abs(rowsAt[0] - -0.34999350217129294) < 1e-15, 'sin 1e6 is -0.349993502171293');

  // Split is interleaved with the columns regrouped; `at` gives `table`'s rows.
  const inter = await oracleTable({ dim: 6, base: 1e4, layout: 'interleaved', offset: 7, length: 3 });
  const split = await oracleTable({ dim: 6, base: 1e4, layout: 'split', offset: 7, length: 3 });
  const at = await oracleAt([9, 7], { dim: 6, base: 1e4, layout: 'split' });
  for (let r = 0; r < 3; r++)
    for (let i = 0; i < 3; i++) {
      assert.is(split[6 * r + i], inter[6 * r + 2 * i]);
      assert.is(split[6 * r + 3 + i], inter[6 * r + 2 * i + 1]);
    }
  assert.equal(Array.from(at), [...split.subarray(12, 18), ...split.subarray(0, 6)]);
});

// --- the core against the oracle ---------------------------------------------

const worst = { err: 0 };
let valuesChecked = 0;

// One case: a table { dim, base, layout, offset, length } or a position list
// { dim, base, layout, positions }. Checks every value and every row norm.
async function checkCase(c) {
  const oracle = c.positions ? await oracleAt(c.positions, c) : await oracleTable(c);
  const enc = { dim: c.dim, base: c.base, layout: c.layout };
  const got = c.positions
    ? pe.sinusoidalAt(Uint32Array.from(c.positions), enc)
    : pe.sinusoidal({ ...enc, offset: c.offset, length: c.length });
  const positionOf = c.positions ? (r) => c.positions[r] : (r) => c.offset + r;
  const e = maxAbsError(got, oracle, c.dim, positionOf);
  const label =
    `d=${c.dim} base=${c.base} ${c.layout} ` +
    (c.positions ? `${c.positions.length} positions` : `rows ${c.offset}..${c.offset + c.length - 1}`);
  valuesChecked += got.length;
  if (e.err > worst.err) Object.assign(worst, e, { label, dim: c.dim, base: c.base, layout: c.layout });
  assert.ok(
    e.err <= TOLERANCE,
    `${label}: error ${e.err} at p=${e.p}, column ${e.column}: got ${e.got}, exact ${e.want}`,
  );
  const n = maxNormError(got, c.dim);
  assert.ok(n.err <= c.dim * TOLERANCE, `${label}: row ${n.row} has norm off sqrt(d/2) by ${n.err}`);
  return { label, err: e.err, p: e.p, column: e.column, norm: n.err, values: got.length };
}

async function checkCases(name, cases) {
  const results = await inParallel(
    cases.map((c) => () => checkCase(c)),
    PARALLEL,
  );
  const top = results.reduce((a, b) => (b.err > a.err ? b : a));
  const values = results.reduce((s, r) => s + r.values, 0);
  console.log(
    `${name}: ${cases.length} cases, ${values} values, max abs error ${top.err.toExponential(3)} ` +
      `(${top.label}, p=${top.p}, column ${top.column}); max norm error ${Math.max(...results.map((r) => r.norm)).toExponential(3)}`,
  );
  assert.ok(values > 0);
  return values;
}

const BASES = [2, 10, 1e4, 1e5, 1e7];
const LAYOUTS = ['interleaved', 'split'];

slow('whole tables: d=512 x 2048 rows, and every even d 2..64 at five bases', async () => {
  const cases = [
    { dim: 512, base: 1e4, layout: 'interleaved', offset: 0, length: 2048 },
    { dim: 512, base: 1e4, layout: 'split', offset: 0, length: 256 },
  ];
  for (let dim = 2; dim <= 64; dim += 2)
    for (const base of BASES) cases.push({ dim, base, layout: LAYOUTS[(dim / 2) % 2], offset: 0, length: 128 });
  assert.ok((await checkCases('whole tables', cases)) > 1.5e6);
});

slow('windows of 300 rows just below 2^24', async () => {
  const cases = [];
  for (const dim of [2, 8, 64, 512])
    for (const base of BASES) cases.push({ dim, base, layout: rng.pick(LAYOUTS), offset: 2 ** 24 - 300, length: 300 });
  for (const base of [1e4, 1e7])
    cases.push({ dim: 8192, base, layout: 'interleaved', offset: 2 ** 24 - 300, length: 300 });
  assert.ok((await checkCases('near 2^24', cases)) > 5e6);
});

slow('long tables with large bases: d=8192 at 1e7, d=1024 x 4096 rows', async () => {
  const cases = [
    { dim: 8192, base: 1e7, layout: 'interleaved', offset: 0, length: 300 },
    { dim: 8192, base: 2, layout: 'split', offset: 1000000, length: 64 },
    { dim: 1024, base: 1e5, layout: 'split', offset: 0, length: 4096 },
  ];
  assert.ok((await checkCases('long tables', cases)) > 6e6);
});

test('position lists: random positions below 2^24 at five bases', async () => {
  const cases = BASES.map((base, k) => {
    const positions = Array.from({ length: 3000 }, () => rng.int(0, 2 ** 24 - 1));
    positions.push(0, 1, 2 ** 23, 2 ** 24 - 1);
    return { dim: k % 2 ? 128 : 130, base, layout: LAYOUTS[k % 2], positions };
  });
  // The slowest frequencies where their angle nears pi/2 and pi: the
  // recurrence's frequency error weighs most there.
  for (const base of [1e4, 1e7]) {
    const dim = 2048;
    const wMin = Math.pow(base, -(dim - 2) / dim);
    const positions = [];
    for (const angle of [Math.PI / 2, Math.PI, 1.5 * Math.PI])
      for (let k = -40; k <= 40; k++) positions.push(Math.round(angle / wMin) + k);
    cases.push({ dim, base, layout: 'interleaved', positions: positions.filter((p) => p >= 0 && p < 2 ** 24) });
  }
  assert.ok((await checkCases('position lists', cases)) > 1.5e6);
});

// posenc.h: every position below 2^31 is within 6e-8, like those below 2^24.
const beyond24Bound = () => TOLERANCE;

slow('positions 2^24 ... 2^31: within 6e-8 too, as posenc.h documents', async () => {
  const cases = [];
  for (const [dim, base] of [
    [2, 2],
    [64, 1e4],
    [512, 2],
    [2048, 10],
    [2048, 1e7],
  ]) {
    const positions = [];
    const n = dim > 512 ? 400 : 2000;
    for (let k = 0; k < n; k++) positions.push(2 ** 31 - 1 - k * 7919); // a fixed spread near 2^31
    for (let k = 0; k < n / 4; k++) positions.push(rng.int(2 ** 24, 2 ** 31 - 1));
    cases.push({ dim, base, layout: 'interleaved', positions });
  }
  let checked = 0;
  let worstRatio = { ratio: 0 };
  const results = await inParallel(
    cases.map((c) => async () => ({ c, want: await oracleAt(c.positions, c) })),
    PARALLEL,
  );
  for (const { c, want } of results) {
    const got = pe.sinusoidalAt(Uint32Array.from(c.positions), { dim: c.dim, base: c.base, layout: c.layout });
    for (let k = 0; k < got.length; k++) {
      const p = c.positions[Math.floor(k / c.dim)];
      const err = Math.abs(got[k] - want[k]);
      const ratio = err / beyond24Bound(p);
      if (!(ratio <= worstRatio.ratio))
        worstRatio = { ratio, err, p, column: k % c.dim, dim: c.dim, base: c.base, got: got[k], want: want[k] };
    }
    checked += got.length;
  }
  const w = worstRatio;
  const report =
    `d=${w.dim} base=${w.base} interleaved p=${w.p} column ${w.column}: got ${w.got} (${bitsOf(w.got)}), ` +
    `exact ${w.want}, error ${w.err.toExponential(4)}, bound ${beyond24Bound(w.p).toExponential(4)}`;
  console.log(`beyond 2^24: ${checked} values; worst error/bound ${w.ratio.toFixed(3)} at ${report}`);
  assert.ok(checked > 1e6);
  assert.ok(w.ratio <= 1, `error above the documented bound: ${report}`);
});

slow('summary: the largest error found', () => {
  console.log(
    `accuracy: ${valuesChecked} values checked; max abs error ${worst.err.toExponential(4)} ` +
      `(tolerance ${TOLERANCE}) at p=${worst.p}, column ${worst.column} of ${worst.label}: ` +
      `got ${worst.got}, exact ${worst.want}`,
  );
  assert.ok(valuesChecked > 1.5e7, `only ${valuesChecked} values checked`);
  assert.ok(worst.err > 0, 'no error at all: the comparison cannot be working');
});

// --- the relative-position property ------------------------------------------

test('relative positions: rotating PE(p) by k·w_i gives PE(p+k); PE(p)·PE(p+k) depends on k only', () => {
  let checked = 0;
  for (const [dim, base] of [
    [64, 1e4],
    [16, 1e7],
    [2, 2],
    [512, 10],
  ]) {
    const w = Array.from({ length: dim / 2 }, (_, i) => Math.pow(base, (-2 * i) / dim));
    for (const p of [0, 7, 1000, 123456, 2 ** 24 - 5000]) {
      for (const k of [1, 5, 100, 4096]) {
        const [a, b] = [pe.sinusoidalAt([p], { dim, base }), pe.sinusoidalAt([p + k], { dim, base })];
        for (let i = 0; i < dim / 2; i++) {
          const [s, c] = [a[2 * i], a[2 * i + 1]];
          const [sk, ck] = [Math.sin(k * w[i]), Math.cos(k * w[i])];
          const rs = s * ck + c * sk;
          const rc = c * ck - s * sk;
          assert.ok(
            Math.abs(rs - b[2 * i]) <= 1e-6 && Math.abs(rc - b[2 * i + 1]) <= 1e-6,
            `d=${dim} base=${base} p=${p} k=${k} pair ${i}: rotated (${rs}, ${rc}), PE(p+k) (${b[2 * i]}, ${b[2 * i + 1]})`,
          );
          checked += 2;
        }
        const z = pe.sinusoidalAt([0, k], { dim, base });
        let dot = 0;
        let dot0 = 0;
        for (let j = 0; j < dim; j++) {
          dot += a[j] * b[j];
          dot0 += z[j] * z[dim + j];
        }
        assert.ok(
          Math.abs(dot - dot0) <= dim * 2e-7,
          `d=${dim} p=${p} k=${k}: PE(p)·PE(p+k) = ${dot}, PE(0)·PE(k) = ${dot0}`,
        );
      }
    }
  }
  console.log(`relative positions: ${checked} rotated values checked`);
  assert.ok(checked > 10000);
});

test.run();
