// RoPE on several position axes (mrope, 2-D vision RoPE) on the four builds
// (wasm SIMD, wasm scalar, native scalar, native SIMD): bit-identical over
// seeded sweeps of shapes around the SIMD width (rotaryDim/2 pairs split into
// sections of every size, odd tails), both layouts and orders, float32 and
// 16-bit x, positions near 0 and near 2^31, plans with and without a cache,
// the one-shot pe_rope, and the cos/sin caches in every dtype; mrope with
// three equal axes against plain RoPE's bits; staged JS arrays against
// WasmBuffers with sentinels around x; the ASan harness over a slice.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { HARNESS, HARNESS_ASAN } from './support/native-harness.js';
import { sameBits as sameFloatBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { serveRopeAxes, axesRotary, axesRows } from './support/rope-axes-harness.js';

/** Equal bits: float32 arrays by sameFloatBits (its message), anything else byte by byte. */
function sameBits(got, want, what) {
  if (got instanceof Float32Array && want instanceof Float32Array) return sameFloatBits(got, want, what);
  const a = new Uint8Array(got.buffer, got.byteOffset, got.byteLength);
  const b = new Uint8Array(want.buffer, want.byteOffset, want.byteLength);
  if (a.length !== b.length) throw new Error(`${what}: ${a.length} bytes, expected ${b.length}`);
  const at = a.findIndex((v, i) => v !== b[i]);
  if (at >= 0) throw new Error(`${what}: first mismatch at byte ${at}`);
}

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-axes-builds');

// mrope's sections are orthogonal to the frequencies: any scaling (type, factor, original length).
const MROPE_SCALINGS = [undefined, ['linear', 3], ['dynamic', 2, 50], ['yarn', 6, 48]].map(
  (s) => s && { rope_type: s[0], factor: s[1], ...(s[2] && { original_max_position_embeddings: s[2] }) },
);

/** Three sections of at least one pair each, summing to pairs. */
function sections(pairs) {
  const a = 1 + random.int(pairs - 2);
  const b = 1 + random.int(pairs - a - 1);
  return [a, b, pairs - a - b];
}

/** One axis's positions: small (a patch grid, a short prompt) or near 2^31. */
function axisPositions(length, near) {
  return Array.from({ length }, () => (near ? 2 ** 31 - 1 - random.int(300) : random.int(near === false ? 64 : 5000)));
}

function makeCases() {
  const cases = [];
  for (const headDim of [4, 6, 8, 12, 14, 16, 20, 24, 28, 32, 36, 40, 64, 80, 128, 130]) {
    for (const rotaryDim of new Set([headDim - (headDim % 4), headDim - 4 - (headDim % 4), 8, 12])) {
      if (rotaryDim < 4 || rotaryDim > headDim) continue;
      for (const layout of ['half', 'interleaved']) {
        for (const vision of [false, true]) {
          if (!vision && rotaryDim < 6) continue; // three sections of at least one pair
          const length = [1, 3, 17, 70][random.int(4)];
          const axes = vision ? 2 : 3;
          const c = {
            headDim,
            rotaryDim,
            heads: 1 + random.int(3),
            layout,
            order: random.next() < 0.5 ? 'blhd' : 'bhld',
            length,
            inverse: random.next() < 0.3,
            base: [10000, 1e6, 2.5][random.int(3)],
            batch: 1 + random.int(2),
          };
          if (vision) c.vision = true;
          else {
            c.mropeSection = rotaryDim === 128 && random.next() < 0.5 ? [16, 24, 24] : sections(rotaryDim / 2);
            c.scaling = MROPE_SCALINGS[random.int(MROPE_SCALINGS.length)];
          }
          const where = random.next();
          if (!vision && where < 0.15) c.offset = [0, 61, 2 ** 31 - 80][random.int(3)];
          else {
            const near = where > 0.85;
            c.axisPositions = Array.from({ length: axes }, () => axisPositions(length, near ? true : where < 0.4));
          }
          cases.push(c);
        }
      }
    }
  }
  return cases;
}

const base = makeCases();
const describeCase = (c) =>
  `headDim ${c.headDim} rotaryDim ${c.rotaryDim} heads ${c.heads} ${c.layout} ${c.order} length ${c.length} ` +
  `${c.vision ? 'vision' : `mrope ${c.mropeSection}`} ${c.axisPositions ? 'positions' : `offset ${c.offset}`}` +
  `${c.inverse ? ' inverse' : ''} scaling ${JSON.stringify(c.scaling ?? null)} dtype ${c.dtype} cache ${c.cacheRows}`;

/** x for a case: float32 values, or float16/bfloat16 bit patterns of such values. */
function makeX(c) {
  const n = c.batch * c.length * c.heads * c.headDim;
  const values = random.floats(n, 8);
  if (c.dtype === 'float32') return values;
  return simd.roundToBits(values, { dtype: c.dtype });
}

const applyCases = base.map((c) => {
  const dtype = ['float32', 'float32', 'float16', 'bfloat16'][random.int(4)];
  const cacheRows = dtype === 'float32' && random.next() < 0.3 ? 'oneshot' : [0, 128][random.int(2)];
  const withX = { ...c, dtype, cacheRows };
  withX.x = makeX(withX);
  return withX;
});

/** The package's result for a case on one instance. */
function packageApply(instance, c) {
  const rows = { ...axesRows(c), dtype: c.dtype === 'float32' ? undefined : c.dtype };
  if (c.cacheRows === 'oneshot') return instance.rope(c.x.slice(), { ...axesRotary(c), ...rows });
  const plan = instance.createRope({ ...axesRotary(c), maxPosition: c.cacheRows, cache: c.cacheRows > 0 });
  try {
    return plan.apply(c.x.slice(), rows);
  } finally {
    plan.free();
  }
}

test('mrope and 2-D RoPE rotate to the same bits on wasm SIMD, wasm scalar, native scalar and native SIMD', () => {
  const native = {
    scalar: serveRopeAxes(HARNESS, 'scalar', applyCases),
    simd: serveRopeAxes(HARNESS, 'simd', applyCases),
  };
  let values = 0;
  let changed = 0;
  applyCases.forEach((c, k) => {
    const wasmSimd = packageApply(simd, c);
    const what = describeCase(c);
    sameBits(packageApply(scalar, c), wasmSimd, `wasm scalar vs wasm SIMD, ${what}`);
    sameBits(native.scalar[k], wasmSimd, `native scalar vs wasm SIMD, ${what}`);
    sameBits(native.simd[k], wasmSimd, `native SIMD vs wasm SIMD, ${what}`);
    values += wasmSimd.length;
    for (let j = 0; j < c.x.length; j++) if (wasmSimd[j] !== c.x[j]) changed++;
  });
  console.log(
    `rope-axes-builds: ${applyCases.length} cases, ${values} values identical on four builds, ${changed} changed`,
  );
  assert.ok(applyCases.length > 150 && values > 100000, `only ${applyCases.length} cases, ${values} values`);
  // A quarter, not half: pass-through columns (rotaryDim < headDim), position 0 and 16-bit x
  // rounded back to its own value leave many elements as they were (seed 839494101: 47% changed).
  assert.ok(changed > 0.25 * values, `only ${changed} of ${values} values changed`);
});

test('the cos/sin caches of mrope and 2-D RoPE are the same bytes on the four builds, in every dtype', () => {
  const cases = base
    .filter((_, k) => k % 2 === 0)
    .map((c) => ({
      ...c,
      cosSin: true,
      expand: random.next() < 0.5,
      dtype: ['float32', 'float16', 'bfloat16', 'float64'][random.int(4)],
      cacheRows: random.next() < 0.3 ? 128 : 0,
    }));
  const native = { scalar: serveRopeAxes(HARNESS, 'scalar', cases), simd: serveRopeAxes(HARNESS, 'simd', cases) };
  cases.forEach((c, k) => {
    const { heads: _h, order: _o, ...rotary } = axesRotary(c);
    for (const [instance, name] of [
      [simd, 'wasm SIMD'],
      [scalar, 'wasm scalar'],
    ]) {
      const { cos, sin } = instance.ropeCosSin({ ...rotary, ...axesRows(c), expand: c.expand, dtype: c.dtype });
      const got = new Uint8Array(cos.byteLength + sin.byteLength);
      got.set(new Uint8Array(cos.buffer, cos.byteOffset, cos.byteLength));
      got.set(new Uint8Array(sin.buffer, sin.byteOffset, sin.byteLength), cos.byteLength);
      sameBits(native.scalar[k], got, `native scalar vs ${name}, ${describeCase(c)} expand ${c.expand}`);
      sameBits(native.simd[k], got, `native SIMD vs ${name}, ${describeCase(c)} expand ${c.expand}`);
    }
  });
  console.log(`rope-axes-builds: ${cases.length} cos/sin caches identical on four builds`);
});

test('mrope with three equal axes gives plain RoPE bits (offset and position lists, every build)', () => {
  let values = 0;
  for (const c of base.filter((d) => d.mropeSection)) {
    for (const instance of [simd, scalar]) {
      const x = random.floats(c.batch * c.length * c.heads * c.headDim, 6);
      const start = [0, 70, 2 ** 31 - 100][random.int(3)];
      const ids = Array.from({ length: c.length }, (_, l) => start + l);
      const { mropeSection: _m, ...plain } = axesRotary(c);
      const want = instance.rope(x.slice(), { ...plain, length: c.length, offset: start });
      sameBits(instance.rope(x.slice(), { ...plain, positions: ids }), want, `plain positions, ${describeCase(c)}`);
      const mrope = axesRotary(c);
      sameBits(instance.rope(x.slice(), { ...mrope, positions: [ids, ids, ids] }), want, `mrope, ${describeCase(c)}`);
      sameBits(instance.rope(x.slice(), { ...mrope, length: c.length, offset: start }), want, `mrope offset`);
      const item = Array.from({ length: c.batch }, () => ids);
      sameBits(instance.rope(x.slice(), { ...mrope, positionIds: [item, item, item] }), want, `mrope positionIds`);
      values += x.length;
    }
  }
  console.log(`rope-axes-builds: ${values} values of mrope with equal axes equal plain RoPE's`);
  assert.ok(values > 10000);
});

test('a JS array (staged in chunks) and a WasmBuffer give the same bits with positionIds (axes, batch, length); sentinels stay', () => {
  const pad = 29;
  const SENTINEL = -4321.5;
  const shapes = [
    { headDim: 128, heads: 32, length: 300, batch: 2, mropeSection: [16, 24, 24] }, // rows beyond one staging chunk
    { headDim: 80, heads: 16, length: 260, batch: 3, vision: true }, // Qwen2-VL's vision heads
    { headDim: 4096, heads: 24, length: 3, batch: 2, mropeSection: [500, 800, 748] }, // a row larger than the staging area
    { headDim: 12, rotaryDim: 8, heads: 3, length: 129, batch: 5, vision: true },
  ];
  let values = 0;
  for (const shape of shapes) {
    for (const order of ['blhd', 'bhld']) {
      const axes = shape.vision ? 2 : 3;
      const ids = Array.from({ length: axes }, () =>
        Array.from({ length: shape.batch }, () => Array.from({ length: shape.length }, () => random.int(40000))),
      );
      const options = { ...axesRotary({ ...shape, order }), positionIds: ids };
      const n = shape.batch * shape.length * shape.heads * shape.headDim;
      const before = random.floats(n, 3);
      const big = Float32Array.from({ length: n + 2 * pad }, (_, k) => (k < pad || k >= pad + n ? SENTINEL : 0));
      const x = big.subarray(pad, pad + n);
      x.set(before);
      const buffer = simd.alloc(n);
      buffer.array.set(before);
      simd.rope(x, options);
      simd.rope(buffer, options);
      sameBits(x, buffer.array, `JS array vs WasmBuffer, ${JSON.stringify({ ...shape, order })}`);
      buffer.free();
      // Each batch item alone, with its own (axes, length) positions, gives the same rows.
      const slab = shape.length * shape.heads * shape.headDim;
      for (let b = 0; b < shape.batch; b++) {
        const one = before.slice(b * slab, (b + 1) * slab);
        simd.rope(one, { ...axesRotary({ ...shape, order }), positions: ids.map((axis) => axis[b]) });
        sameBits(x.subarray(b * slab, (b + 1) * slab), one, `batch item ${b} alone`);
      }
      for (let k = 0; k < pad; k++) {
        assert.ok(big[k] === Math.fround(SENTINEL) && big[pad + n + k] === Math.fround(SENTINEL), 'a sentinel changed');
      }
      values += n;
    }
  }
  console.log(`rope-axes-builds: ${values} values equal through staging, in place and item by item`);
});

test('the ASan+UBSan harness gives the same bits (a slice of the sweep)', () => {
  const slice = applyCases.filter((_, k) => k % 5 === 0);
  const asan = serveRopeAxes(HARNESS_ASAN, 'simd', slice);
  slice.forEach((c, k) => sameBits(asan[k], packageApply(simd, c), `asan, ${describeCase(c)}`));
  console.log(`rope-axes-builds: ${slice.length} cases under ASan+UBSan`);
});

test.run();
