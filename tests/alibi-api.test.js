// ALiBi (Press et al., "Train Short, Test Long", ICLR 2022): the slopes
// against the paper's published values and hand derivations from its code,
// against an exact BigInt oracle and the paper's code run in double; the bias
// tensor against hand-written matrices and an exact oracle; the four builds
// bit for bit; sentinels; every refusal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, instantiate, alibiSlopes, alibiBias, PosencError } from '../src/js/index.js';
import { sameBits, bitsOf, compared } from './support/builds-bits.js';
import { runBuilds, serve, describe } from './support/learned-harness.js';
import { HARNESS, HARNESS_ASAN, runHarness } from './support/native-harness.js';
import { pow2NegFloat32, float32Scaled, float32Of, nearFloat32Tie } from './support/learned-exact.js';
import { expectRefusal } from './support/js-bits.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
console.log(`alibi-api.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);
const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };
const MAX = 2 ** 31;

const fromBits = (list) => new Float32Array(Uint32Array.from(list).buffer);
const pow2s = (exponents) => Float32Array.from(exponents, (e) => 2 ** e);

// ------------------------------------------------------------------ oracles

/** The paper's get_slopes (github.com/ofirpress/attention_with_linear_biases), line by line, in double. */
function paperSlopes(n) {
  const powerOf2 = (m) => {
    const start = 2 ** -(2 ** -(Math.log2(m) - 3));
    const ratio = start;
    return Array.from({ length: m }, (_, i) => start * ratio ** i);
  };
  if (Number.isInteger(Math.log2(n))) return powerOf2(n);
  const closest = 2 ** Math.floor(Math.log2(n));
  return powerOf2(closest).concat(
    paperSlopes(2 * closest)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - closest),
  );
}

/**
 * The same code on exponents instead of values: slope k of get_slopes_power_of_2(m)
 * is start·ratio^k = 2^(-8/m)^(k+1), so each slope is 2^(-p/q) with p = 8(k+1), q = m;
 * the list slicing is the paper's.
 */
function paperExponents(n) {
  const powerOf2 = (m) => Array.from({ length: m }, (_, k) => [8 * (k + 1), m]);
  if (Number.isInteger(Math.log2(n))) return powerOf2(n);
  const closest = 2 ** Math.floor(Math.log2(n));
  return powerOf2(closest).concat(
    paperExponents(2 * closest)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - closest),
  );
}

const exactCache = new Map();
function exactSlope([p, q]) {
  const key = `${p}/${q}`;
  if (!exactCache.has(key)) exactCache.set(key, pow2NegFloat32(p, q));
  return exactCache.get(key);
}
const exactSlopes = (n) => Float32Array.from(paperExponents(n), exactSlope);

/**
 * The bias tensor with each head's values from valueOf(slope), a function of the distance |q - j|;
 * -Infinity for causal future keys.
 */
function biasTensor({ heads, queryLength, keyLength, offset, causal }, valueOf) {
  const slopes = exactSlopes(heads);
  const out = new Float32Array(heads * queryLength * keyLength);
  let k = 0;
  for (let h = 0; h < heads; h++) {
    const value = valueOf(slopes[h]);
    for (let i = 0; i < queryLength; i++) {
      const q = offset + i;
      for (let j = 0; j < keyLength; j++) out[k++] = causal && j > q ? -Infinity : value(Math.abs(q - j));
    }
  }
  return out;
}

/** Exact bias: -(slope · |q - j|) rounded once to float32 (BigInt). */
const exactBias = (r) =>
  biasTensor(r, (slope) => {
    const m = float32Scaled(slope); // slope · 2^149, an integer
    return (d) => float32Of(-m * BigInt(d), 1n << 149n);
  });

const defaultOffset = (r) => Math.max(0, r.keyLength - r.queryLength);

// ----------------------------------------------------- published and by hand

test('8 heads: 1/2, 1/4, …, 1/256 (the paper, section 3: "the geometric sequence that starts at 1/2")', () => {
  for (const instance of [wasm.simd, wasm.scalar]) {
    sameBits(instance.alibiSlopes(8), pow2s([-1, -2, -3, -4, -5, -6, -7, -8]), '8 heads');
  }
});

test("16 heads: the paper's sequence from 1/√2 with ratio 1/√2 (section 3)", () => {
  // 2^(-k/2), k = 1 … 16. 2^-0.5 = 0.70710678118654752… has the float32 0x3f3504f3
  // (0.707106769…); the odd powers are that value times powers of two.
  const expected = fromBits([
    0x3f3504f3, 0x3f000000, 0x3eb504f3, 0x3e800000, 0x3e3504f3, 0x3e000000, 0x3db504f3, 0x3d800000, 0x3d3504f3,
    0x3d000000, 0x3cb504f3, 0x3c800000, 0x3c3504f3, 0x3c000000, 0x3bb504f3, 0x3b800000,
  ]);
  sameBits(wasm.simd.alibiSlopes(16), expected, '16 heads');
  sameBits(wasm.scalar.alibiSlopes(16), expected, '16 heads scalar');
});

test('12 heads, derived by hand from get_slopes: 8 powers of 1/2, then every other 16-head slope', () => {
  // log2(12) is not whole: closest_power_of_2 = 8, so get_slopes_power_of_2(8) = 2^-1 … 2^-8,
  // then get_slopes(16)[0::2][:12-8]: the 16-head slopes 2^-(k/2) at k = 1, 3, 5, 7.
  const expected = fromBits(
    [...pow2s([-1, -2, -3, -4, -5, -6, -7, -8])]
      .map((v) => new Uint32Array(Float32Array.of(v).buffer)[0])
      .concat([0x3f3504f3, 0x3eb504f3, 0x3e3504f3, 0x3db504f3]),
  );
  assert.equal(
    Array.from(expected.subarray(8), (v) => v.toPrecision(9)),
    ['0.707106769', '0.353553385', '0.176776692', '0.0883883461'],
  );
  sameBits(wasm.simd.alibiSlopes(12), expected, '12 heads');
  sameBits(wasm.scalar.alibiSlopes(12), expected, '12 heads scalar');
});

test('6, 3, 1 and 2 heads by hand: every value a power of two', () => {
  // 6: closest power 4 gives 2^(-8/4)^k = 2^-2, 2^-4, 2^-6, 2^-8; get_slopes(8)[0::2][:2] = 2^-1, 2^-3.
  // 3: closest power 2 gives 2^-4, 2^-8; get_slopes(4)[0::2][:1] = 2^-2.
  // 1: start = 2^(-2^-(0-3)) = 2^-8. 2: 2^-4, 2^-8.
  for (const [heads, exponents] of [
    [6, [-2, -4, -6, -8, -1, -3]],
    [3, [-4, -8, -2]],
    [1, [-8]],
    [2, [-4, -8]],
  ]) {
    sameBits(wasm.simd.alibiSlopes(heads), pow2s(exponents), `${heads} heads`);
    sameBits(wasm.scalar.alibiSlopes(heads), pow2s(exponents), `${heads} heads scalar`);
  }
});

test("every head count 1 … 1024: all four builds equal the exact float32 and the paper's code in double", () => {
  const counts = Array.from({ length: 1024 }, (_, k) => k + 1);
  const reqs = counts.map((heads) => ({ op: 'slopes', heads }));
  const results = runBuilds(reqs, wasm);
  for (const [k, heads] of counts.entries()) {
    const exact = exactSlopes(heads);
    const paper = Float32Array.from(paperSlopes(heads)); // torch.Tensor(get_slopes(n)) rounds to float32 the same way
    sameBits(paper, exact, `the paper's code in double vs exact, ${heads} heads`);
    for (const [build, out] of Object.entries(results)) sameBits(out[k], exact, `${build} ${heads} heads`);
  }
  console.log(`slopes: heads 1 … 1024 on 4 builds, ${exactCache.size} distinct exact slopes`);
});

test("large head counts: the paper's code in double everywhere, the exact oracle on a sample", () => {
  const counts = [1025, 2047, 2048, 2049, 3000, 4095, 4096, 4097, 65535, 65536, 1025 + rng.int(0, 64510)];
  const results = runBuilds(
    counts.map((heads) => ({ op: 'slopes', heads })),
    wasm,
  );
  for (const [k, heads] of counts.entries()) {
    const paper = Float32Array.from(paperSlopes(heads));
    for (const [build, out] of Object.entries(results))
      sameBits(out[k], paper, `${build} ${heads} heads vs the paper's code`);
    const exponents = paperExponents(heads);
    for (let s = 0; s < 6; s++) {
      const h = rng.int(0, heads - 1);
      assert.is(
        bitsOf(results['wasm simd'][k][h]),
        bitsOf(exactSlope(exponents[h])),
        `${heads} heads, head ${h}: exact`,
      );
    }
  }
});

test('bias by hand: 2 heads, 3 queries decoding against 5 keys, causal', () => {
  // Slopes 1/16 and 1/256. Default offset 5 - 3 = 2: query rows sit at keys 2, 3, 4.
  const a = 1 / 16;
  const b = 1 / 256;
  const I = -Infinity;
  const expected = Float32Array.from([
    -2 * a,
    -a,
    0,
    I,
    I,
    -3 * a,
    -2 * a,
    -a,
    0,
    I,
    -4 * a,
    -3 * a,
    -2 * a,
    -a,
    0,
    -2 * b,
    -b,
    0,
    I,
    I,
    -3 * b,
    -2 * b,
    -b,
    0,
    I,
    -4 * b,
    -3 * b,
    -2 * b,
    -b,
    0,
  ]);
  for (const instance of [wasm.simd, wasm.scalar]) {
    const bias = instance.alibiBias({ heads: 2, queryLength: 3, keyLength: 5, causal: true });
    sameBits(bias, expected, 'causal decoding bias');
  }
});

test('bias by hand: 1 head, 4 tokens, not causal: -|i - j|/256, +0 on the diagonal', () => {
  const m = 1 / 256;
  const expected = Float32Array.from({ length: 16 }, (_, k) => -Math.abs(Math.floor(k / 4) - (k % 4)) * m + 0);
  const bias = wasm.simd.alibiBias({ heads: 1, queryLength: 4 }); // keyLength defaults to queryLength
  sameBits(bias, expected, 'bidirectional bias');
  for (let i = 0; i < 4; i++) assert.ok(Object.is(bias[5 * i], 0), `diagonal ${i} is +0`);
});

test('decoding rows equal the last rows of the full square bias (default offset aligns last query and last key)', () => {
  for (const causal of [false, true]) {
    const full = wasm.simd.alibiBias({ heads: 5, queryLength: 9, keyLength: 9, causal });
    for (const q of [1, 2, 4, 9]) {
      const part = wasm.scalar.alibiBias({ heads: 5, queryLength: q, keyLength: 9, causal });
      for (let h = 0; h < 5; h++) {
        sameBits(
          part.subarray(h * q * 9, (h + 1) * q * 9),
          full.subarray(h * 81 + (9 - q) * 9, (h + 1) * 81),
          `head ${h} last ${q} rows causal=${causal}`,
        );
      }
    }
  }
});

test('bias against the exact oracle: random shapes, explicit and default offsets, both modes', () => {
  let values = 0;
  for (let n = 0; n < 60; n++) {
    const r = {
      heads: rng.pick([1, 2, 3, 5, 8, 12, 16, 24]),
      queryLength: rng.int(0, 12),
      keyLength: rng.int(0, 40),
      causal: rng.next() < 0.5,
    };
    const explicit = rng.next() < 0.5;
    r.offset = explicit ? rng.pick([0, rng.int(0, 50), MAX - r.queryLength]) : defaultOffset(r);
    const opts = { heads: r.heads, queryLength: r.queryLength, keyLength: r.keyLength, causal: r.causal };
    if (explicit) opts.offset = r.offset;
    else if (r.queryLength > r.keyLength) continue; // the default needs queryLength <= keyLength
    const got = (n % 2 ? wasm.simd : wasm.scalar).alibiBias(opts);
    sameBits(got, exactBias(r), `bias vs exact, ${JSON.stringify(opts)}`);
    values += got.length;
  }
  assert.ok(values > 1000, `only ${values} values compared`);
});

test('distances near 2^31: the double product is exact below 2^29, and rounds to the nearest float32 beyond', () => {
  const r = { heads: 12, queryLength: 2, keyLength: 70, offset: MAX - 2, causal: false };
  const [[native], [nativeSimd]] = [
    serve(HARNESS, 'scalar', [{ op: 'alibi', ...r, first: 0, count: 12 }]),
    serve(HARNESS, 'simd', [{ op: 'alibi', ...r, first: 0, count: 12 }]),
  ];
  const got = wasm.simd.alibiBias(r);
  sameBits(native, got, 'native scalar vs wasm simd');
  sameBits(nativeSimd, got, 'native simd vs wasm simd');
  const slopes = exactSlopes(12);
  let k = 0;
  let rounded = 0;
  for (let h = 0; h < 12; h++) {
    const m = float32Scaled(slopes[h]);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 70; j++, k++) {
        const num = -m * BigInt(MAX - 2 + i - j);
        const exact = float32Of(num, 1n << 149n);
        if (bitsOf(got[k]) === bitsOf(exact)) continue;
        // Two roundings (double, then float32) may differ from one only this close to a float32 tie.
        assert.ok(
          nearFloat32Tie(num, 1n << 149n, Math.abs(exact) * 2 ** -52),
          `head ${h} row ${i} key ${j}: ${got[k]} vs exact ${exact}`,
        );
        rounded++;
      }
    }
  }
  console.log(`distances near 2^31: ${k} values, ${rounded} on the far side of a near-tie`);
});

test('distances up to 2^24 (rows computed in float32) and past it (double ramps): both exact, on four builds', () => {
  // Offsets that put the last query just below, at and past 2^24 - 1; keys spanning a few SIMD steps and a tail.
  let values = 0;
  for (const [offset, queryLength] of [
    [2 ** 24 - 3, 3],
    [2 ** 24 - 3, 4],
    [2 ** 24 - 1, 1],
    [2 ** 24, 2],
  ])
    for (const causal of [false, true]) {
      const r = { heads: 5, queryLength, keyLength: 53, offset, causal };
      const reqs = [{ op: 'alibi', ...r, first: 0, count: 5 }];
      const [[native], [nativeSimd]] = [serve(HARNESS, 'scalar', reqs), serve(HARNESS, 'simd', reqs)];
      const got = wasm.simd.alibiBias(r);
      sameBits(got, exactBias(r), `bias vs exact, ${JSON.stringify(r)}`);
      sameBits(native, got, `native scalar vs wasm simd, ${JSON.stringify(r)}`);
      sameBits(nativeSimd, got, `native simd vs wasm simd, ${JSON.stringify(r)}`);
      sameBits(wasm.scalar.alibiBias(r), got, `wasm scalar vs wasm simd, ${JSON.stringify(r)}`);
      values += got.length;
    }
  assert.ok(values > 2000, `only ${values} values compared`);
});

/**
 * The exact bias by float64 arithmetic, for shapes too large for the BigInt oracle: a float32 slope (24
 * significant bits) times a distance below 2^24 is a product of at most 48 bits, exact in float64, so one
 * Math.fround is the correctly rounded value. Checked against exactBias on a sample of rows.
 */
const exactBiasWide = (r) => biasTensor(r, (slope) => (d) => Math.fround(0 - slope * d));

test('wide rows (copied in blocks of rows): exact, on four builds, across blocks, keys and offsets', () => {
  // Heads of rows of 64 keys or more compute their first row, then copy blocks of 1, 2, 4, 8 and then 16 rows,
  // each from the as many rows above, moved as many keys right, and compute each copied row's first keys. Keys
  // around 64 (63 computed) and 2048, keys not a multiple of 16 (rows off the 16-byte grid), a row wider than
  // the 8192 floats of a staging chunk; rows 2, 9 (a partial block of 8), 16, 17 (a block of one row), 33 and
  // 50 (whole and partial blocks of 16); offsets 0, the default and near 2^24 (where rows are still computed in
  // float32); both modes.
  const shapes = [];
  for (const keyLength of [63, 64, 65, 67, 2047, 2048, 2049, 8211])
    for (const [queryLength, offsets] of [
      [2, [0]],
      [9, [7, 2 ** 24 - 9]],
      [16, [0, 2 ** 24 - 16]],
      [17, [5, null, 2 ** 24 - 17]],
      [33, [0, null]],
      [50, [3, 2 ** 24 - 50]],
    ])
      for (const offset of offsets)
        shapes.push({ heads: 2, queryLength, keyLength, offset, causal: shapes.length % 2 === 1 });
  shapes.push(
    { heads: 1, queryLength: 31, keyLength: 100, offset: 0, causal: true },
    { heads: 2, queryLength: 32, keyLength: 96, offset: 40, causal: false },
    { heads: 1, queryLength: 100, keyLength: 70, offset: 0, causal: true }, // rows 70 … 99: every key behind
    { heads: 1, queryLength: 194, keyLength: 8000, offset: 7000, causal: true },
  );
  const reqs = [];
  for (const r of shapes) {
    r.offset ??= defaultOffset(r);
    reqs.push({ op: 'alibi', ...r, first: 0, count: r.heads });
  }
  const results = runBuilds(reqs, wasm);
  let values = 0;
  for (const [k, r] of shapes.entries()) {
    const exact = exactBiasWide(r);
    sameBits(results['native scalar'][k], exact, `native scalar vs exact, ${describe(reqs[k])}`, r.keyLength);
    for (const build of ['native simd', 'wasm simd', 'wasm scalar'])
      sameBits(results[build][k], exact, `${build} vs exact, ${describe(reqs[k])}`, r.keyLength);
    values += exact.length;
  }
  // The float64 oracle against the BigInt one, on the first and last rows of every head of the smaller shapes.
  for (const r of shapes.filter((x) => x.queryLength <= 17)) {
    const wide = exactBiasWide(r);
    for (const i of [0, r.queryLength - 1]) {
      const row = { ...r, queryLength: 1, offset: r.offset + i };
      const big = exactBias(row);
      for (let h = 0; h < r.heads; h++) {
        const at = (h * r.queryLength + i) * r.keyLength;
        sameBits(wide.subarray(at, at + r.keyLength), big.subarray(h * r.keyLength, (h + 1) * r.keyLength), 'oracles');
      }
    }
  }
  console.log(`alibi wide rows: ${shapes.length} shapes, ${values} values on 4 builds against exact`);
  assert.ok(values > 3e7 / 4, `only ${values} values`);
});

// ---------------------------------------------------------------- the builds

test('four builds bit for bit: heads × lengths 0 … 17, 31 … 33, 64, 65 × offsets × causal, head slices', () => {
  const before = compared.values;
  const reqs = [];
  for (const heads of [1, 2, 3, 5, 8, 12])
    for (const queryLength of [0, 1, 2, 3, 4, 5, 7, 9])
      for (const keyLength of [...Array.from({ length: 18 }, (_, k) => k), 31, 32, 33, 64, 65])
        for (const causal of [false, true])
          for (const offset of new Set([defaultOffset({ queryLength, keyLength }), 0, 5, MAX - queryLength])) {
            const first = rng.int(0, heads - 1);
            const count = rng.next() < 0.5 ? heads - first : rng.int(0, heads - first);
            reqs.push({
              op: 'alibi',
              heads,
              queryLength,
              keyLength,
              offset,
              causal,
              first: count === heads ? 0 : first,
              count,
              viaAlloc: rng.next() < 0.25,
            });
          }
  const results = runBuilds(reqs, wasm);
  for (const [k, r] of reqs.entries()) {
    const ref = results['native scalar'][k];
    for (const build of ['native simd', 'wasm simd', 'wasm scalar'])
      sameBits(results[build][k], ref, `${build} vs native scalar, ${describe(r)}`, r.keyLength);
  }
  const n = compared.values - before;
  console.log(`alibi builds: ${reqs.length} shapes on 4 builds, ${n} values compared`);
  assert.ok(reqs.length > 5000 && n > 1e5, `only ${reqs.length} shapes, ${n} values`);
});

test('ASan + UBSan harness: the same bits, no stray access, on both kernel sets', () => {
  const reqs = [];
  for (const keyLength of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65]) {
    reqs.push({
      op: 'alibi',
      heads: 3,
      queryLength: 4,
      keyLength,
      offset: defaultOffset({ queryLength: 4, keyLength }),
      causal: keyLength % 2 === 1,
      first: 0,
      count: 3,
    });
  }
  // Copied rows (blocks of 1 … 16 rows): partial blocks of 4 and 16, whole ones, keys off the 16-byte grid.
  for (const [queryLength, keyLength, causal] of [
    [6, 64, true],
    [17, 64, false],
    [33, 67, true],
    [50, 2049, false],
    [40, 8211, true],
  ])
    reqs.push({ op: 'alibi', heads: 2, queryLength, keyLength, offset: 7, causal, first: 0, count: 2 });
  reqs.push({ op: 'slopes', heads: 1 }, { op: 'slopes', heads: 65536 });
  for (const kernels of ['scalar', 'simd']) {
    const plain = serve(HARNESS, kernels, reqs);
    serve(HARNESS_ASAN, kernels, reqs).forEach((out, k) =>
      sameBits(out, plain[k], `asan ${kernels} ${describe(reqs[k])}`),
    );
  }
});

test('the C core refuses bad heads, head ranges and positions with its status', () => {
  for (const [args, text] of [
    [['slopes', 'scalar', '0'], 'heads must be between 1 and 65536'],
    [['slopes', 'simd', '65537'], 'heads must be between 1 and 65536'],
    [['alibi', 'simd', '4', '2', '2', '0', '0', '3', '2'], 'head range'],
    [['alibi', 'scalar', '0', '2', '2', '0', '0', '0', '0'], 'heads must be'],
    [['alibi', 'simd', '4', '2', '2', String(MAX - 1), '0', '0', '4'], 'positions must be below 2^31'],
    [['alibi', 'simd', '4', '1', String(MAX + 1), '0', '0', '0', '0'], 'positions must be below 2^31'],
  ]) {
    const run = runHarness(HARNESS, args);
    assert.is(run.status, 4, `${args.join(' ')}: ${run.stderr}`);
    assert.ok(run.stderr.includes(text), `${args.join(' ')}: ${run.stderr}`);
  }
});

// --------------------------------------------------------- package behaviour

test('out: a Float32Array is filled in place (sentinels around it stay), a WasmBuffer is written in wasm', () => {
  const count = 3 * 5 * 7;
  const guard = 16;
  const block = new Float32Array(count + 2 * guard).fill(-12345.5);
  const out = block.subarray(guard, guard + count);
  assert.is(wasm.simd.alibiBias({ heads: 3, queryLength: 5, keyLength: 7, causal: true, out }), out);
  sameBits(out, wasm.scalar.alibiBias({ heads: 3, queryLength: 5, keyLength: 7, causal: true }), 'out');
  for (const k of [...Array(guard).keys(), ...Array.from({ length: guard }, (_, i) => guard + count + i)])
    assert.is(block[k], -12345.5, `sentinel ${k}`);

  const before = wasm.simd.alloc(8);
  const buffer = wasm.simd.alloc(count);
  const after = wasm.simd.alloc(8);
  before.array.fill(7.25);
  after.array.fill(7.25);
  assert.is(wasm.simd.alibiBias({ heads: 3, queryLength: 5, keyLength: 7, causal: true, out: buffer }), buffer);
  sameBits(buffer.array, out, 'WasmBuffer out');
  assert.ok(
    before.array.every((v) => v === 7.25) && after.array.every((v) => v === 7.25),
    'neighbouring buffers untouched',
  );
  [before, buffer, after].forEach((b) => b.free());
});

test('a bias larger than one staging chunk (a key row of 70000 floats, several heads)', () => {
  const r = { heads: 3, queryLength: 3, keyLength: 70000, causal: true };
  const got = wasm.simd.alibiBias(r);
  const [native] = serve(HARNESS, 'simd', [{ op: 'alibi', ...r, offset: 69997, first: 0, count: 3 }]);
  sameBits(got, native, 'wasm vs native');
  assert.is(got[69997], 0);
  assert.is(got[69996], -0.0625);
});

test('package-level functions need init(), then match an instance', async () => {
  const fresh = await import('../src/js/default-instance.js?alibi-before-init');
  for (const call of [() => fresh.alibiSlopes(8), () => fresh.alibiBias({ heads: 1, queryLength: 1 })]) {
    assert.throws(call, (e) => e instanceof PosencError && e.code === 'NOT_INITIALIZED');
  }
  await init();
  sameBits(alibiSlopes(24), wasm.scalar.alibiSlopes(24), 'alibiSlopes');
  sameBits(
    alibiBias({ heads: 4, queryLength: 6, keyLength: 9 }),
    wasm.scalar.alibiBias({ heads: 4, queryLength: 6, keyLength: 9 }),
    'alibiBias',
  );
});

const refusals = [
  ['0 heads', () => wasm.simd.alibiSlopes(0), 'BAD_HEADS', ['heads', 'got 0', '65536']],
  ['fractional heads', () => wasm.simd.alibiSlopes(7.5), 'BAD_HEADS', ['heads', 'got 7.5']],
  ['NaN heads', () => wasm.simd.alibiSlopes(NaN), 'BAD_HEADS', ['got NaN']],
  ['heads a string', () => wasm.simd.alibiSlopes('8'), 'BAD_HEADS', ['got "8"']],
  ['too many heads', () => wasm.simd.alibiSlopes(65537), 'BAD_HEADS', ['got 65537']],
  [
    'bias without heads',
    (i) => wasm.simd.alibiBias({ queryLength: 2, out: i.out }),
    'BAD_HEADS',
    ['heads', 'got undefined'],
  ],
  ['negative heads', (i) => wasm.simd.alibiBias({ heads: -2, queryLength: 2, out: i.out }), 'BAD_HEADS', ['got -2']],
  ['missing queryLength', () => wasm.simd.alibiBias({ heads: 2 }), 'BAD_LENGTH', ['queryLength', 'got undefined']],
  [
    'NaN queryLength',
    (i) => wasm.simd.alibiBias({ heads: 2, queryLength: NaN, out: i.out }),
    'BAD_LENGTH',
    ['queryLength', 'got NaN'],
  ],
  [
    'negative keyLength',
    (i) => wasm.simd.alibiBias({ heads: 2, queryLength: 3, keyLength: -4, out: i.out }),
    'BAD_LENGTH',
    ['keyLength', 'got -4'],
  ],
  [
    'fractional keyLength',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 3, keyLength: 4.5 }),
    'BAD_LENGTH',
    ['keyLength', 'got 4.5'],
  ],
  [
    'keyLength above 2^31',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 0, keyLength: MAX + 1 }),
    'BAD_LENGTH',
    ['keyLength', 'got 2147483649'],
  ],
  [
    'more queries than keys without offset',
    (i) => wasm.simd.alibiBias({ heads: 2, queryLength: 5, keyLength: 3, out: i.out }),
    'BAD_OFFSET',
    ['queryLength 5 exceeds keyLength 3', 'pass offset'],
  ],
  [
    'negative offset',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 2, keyLength: 3, offset: -1 }),
    'BAD_OFFSET',
    ['offset', 'got -1'],
  ],
  [
    'NaN offset',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 2, keyLength: 3, offset: NaN }),
    'BAD_OFFSET',
    ['offset', 'got NaN'],
  ],
  [
    'offset + queryLength beyond 2^31',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 2, keyLength: 3, offset: MAX - 1 }),
    'BAD_OFFSET',
    ['offset', 'got 2147483647', 'queryLength is 2'],
  ],
  [
    'causal not a boolean',
    (i) => wasm.simd.alibiBias({ heads: 2, queryLength: 2, keyLength: 3, causal: 1, out: i.out }),
    'BAD_OPTIONS',
    ['causal', 'got 1'],
  ],
  [
    'misspelt causal',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 2, casual: true }),
    'UNKNOWN_OPTION',
    ["'casual'", "did you mean 'causal'"],
  ],
  ['options not an object', () => wasm.simd.alibiBias(8), 'BAD_OPTIONS', ['alibiBias() options must be an object']],
  [
    'out too short',
    (i) => wasm.simd.alibiBias({ heads: 2, queryLength: 3, keyLength: 4, out: i.out.subarray(1) }),
    'BAD_SIZE',
    ['out', 'length 23', '24 floats'],
  ],
  [
    'out a Float64Array',
    () => wasm.simd.alibiBias({ heads: 2, queryLength: 3, keyLength: 4, out: new Float64Array(24) }),
    'BAD_BUFFER',
    ['out', 'Float64Array'],
  ],
  [
    'out from another instance',
    () => wasm.simd.alibiBias({ heads: 1, queryLength: 1, out: wasm.scalar.alloc(1) }),
    'BAD_BUFFER',
    ['another posenc instance'],
  ],
];

for (const [what, call, code, texts] of refusals) {
  test(`refuses ${what} with ${code}, leaving out untouched`, () => {
    expectRefusal(PosencError, call, { out: Float32Array.from({ length: 24 }, (_, k) => k * 0.5 - 3) }, code, texts);
  });
}

test('a freed WasmBuffer out is BUFFER_FREED', () => {
  const buffer = wasm.simd.alloc(4);
  buffer.free();
  assert.throws(
    () => wasm.simd.alibiBias({ heads: 1, queryLength: 2, out: buffer }),
    (e) => e.code === 'BUFFER_FREED',
  );
});

test.run();
