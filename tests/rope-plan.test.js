// RoPE plans (createRope) against one-shot rope() and against a plain JS
// float32 rotation from independent cos/sin (the sinusoidal table for
// unscaled frequencies, ropeCosSin otherwise), bit for bit over seeded sweeps
// of layouts, orders, rotaryDim, scalings, caches and positions near 2^31, on
// the four builds (wasm SIMD, wasm scalar, native scalar, native SIMD);
// positionIds and cuSeqlens against per-sequence calls; position ids in every
// accepted array type; decoding a token a call against one call for the run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { HARNESS, HARNESS_ASAN } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { serveRopePlan, ropeOptions } from './support/rope-harness.js';
import { rotateReference } from './support/rope-rotate.js';

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-plan');

const SCALINGS = [
  undefined,
  { rope_type: 'linear', factor: 4 },
  { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 40 },
  { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 64 },
  { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 100 },
];
const DIMS = [
  [2, 2],
  [4, 4],
  [6, 6],
  [8, 6],
  [10, 10],
  [12, 8],
  [16, 16],
  [18, 18],
  [34, 34],
  [64, 32],
  [128, 128],
];

function makeCases() {
  const cases = [];
  for (const [headDim, rotaryDim] of DIMS) {
    for (const layout of ['half', 'interleaved']) {
      for (const order of ['blhd', 'bhld']) {
        const length = [1, 5, 9, 70][random.int(4)];
        let scaling = SCALINGS[random.int(SCALINGS.length)];
        if (scaling?.rope_type === 'dynamic' && rotaryDim < 4) scaling = undefined;
        const c = {
          headDim,
          rotaryDim,
          heads: 1 + random.int(3),
          layout,
          order,
          length,
          scaling,
          inverse: random.next() < 0.3,
          base: [10000, 500000][random.int(2)],
        };
        const near = random.next() < 0.5;
        if (random.next() < 0.3) {
          c.positions = Array.from({ length }, () => (near ? 2 ** 31 - 1 - random.int(200) : random.int(300)));
        } else c.offset = near ? 2 ** 31 - length - random.int(100) : random.int(300);
        c.cacheRows = near ? 0 : [0, 64, 400][random.int(3)];
        c.x = random.floats((1 + random.int(2)) * length * c.heads * headDim, 8);
        cases.push(c);
      }
    }
  }
  return cases;
}

const cases = makeCases();
const what = (c) =>
  `headDim ${c.headDim} rotaryDim ${c.rotaryDim} heads ${c.heads} ${c.layout} ${c.order} length ${c.length} ` +
  `${c.positions ? `positions from ${c.positions[0]}` : `offset ${c.offset}`} cache ${c.cacheRows} ${c.inverse ? 'inverse ' : ''}` +
  `scaling ${JSON.stringify(c.scaling ?? null)}`;

const planOptions = (c) => {
  const o = ropeOptions(c);
  for (const k of ['length', 'offset', 'positions']) delete o[k];
  return { ...o, maxPosition: c.cacheRows, cache: c.cacheRows > 0 };
};
const rowOptions = (c) => (c.positions ? { positions: c.positions } : { length: c.length, offset: c.offset });
const positionsOf = (c) => c.positions ?? Array.from({ length: c.length }, (_, l) => c.offset + l);

/** x rotated by a plain JS float32 loop from cos/sin the plans do not make. */
function reference(instance, c) {
  const r = c.rotaryDim;
  const positions = positionsOf(c);
  let cos;
  let sin;
  if (!c.scaling) {
    // The sinusoidal table of dim r, split layout: [sin | cos] rows, the bits RoPE promises.
    const table = instance.sinusoidalAt(positions, { dim: r, base: c.base, layout: 'split' });
    sin = (l, i) => table[l * r + i];
    cos = (l, i) => table[l * r + r / 2 + i];
  } else {
    const seqLen = Math.max(...positions) + 1;
    const cs = instance.ropeCosSin({
      headDim: c.headDim,
      rotaryDim: r,
      base: c.base,
      scaling: c.scaling,
      positions: c.scaling.rope_type === 'dynamic' ? [...positions, seqLen - 1] : positions,
    });
    sin = (l, i) => cs.sin[l * (r / 2) + i];
    cos = (l, i) => cs.cos[l * (r / 2) + i];
  }
  return rotateReference(c.x.slice(), { ...c, rotaryDim: r }, c.length, cos, sin);
}

test('a plan (cached or not) gives the bits of rope(), of a plain float32 rotation, and of every build', () => {
  const native = { scalar: serveRopePlan(HARNESS, 'scalar', cases), simd: serveRopePlan(HARNESS, 'simd', cases) };
  cases.forEach((c, k) => {
    const want = reference(simd, c);
    for (const [name, instance] of [
      ['wasm SIMD', simd],
      ['wasm scalar', scalar],
    ]) {
      const plan = instance.createRope(planOptions(c));
      assert.is(plan.cachedPositions, c.scaling?.rope_type === 'dynamic' ? 0 : c.cacheRows, what(c));
      sameBits(plan.apply(c.x.slice(), rowOptions(c)), want, `${name} plan, JS array, ${what(c)}`);
      const buffer = instance.alloc(c.x.length);
      buffer.array.set(c.x);
      plan.apply(buffer, rowOptions(c));
      sameBits(buffer.array.slice(), want, `${name} plan, WasmBuffer, ${what(c)}`);
      buffer.free();
      plan.free();
      sameBits(instance.rope(c.x.slice(), ropeOptions(c)), want, `${name} rope(), ${what(c)}`);
    }
    sameBits(native.scalar[k], want, `native scalar plan, ${what(c)}`);
    sameBits(native.simd[k], want, `native SIMD plan, ${what(c)}`);
  });
});

test('the ASan+UBSan harness runs a slice of the sweep (plans, caches, 16-bit x, cos/sin) with the same bits', () => {
  const slice = cases.filter((c, k) => k % 6 === 0);
  const want = serveRopePlan(HARNESS, 'simd', slice);
  serveRopePlan(HARNESS_ASAN, 'simd', slice).forEach((got, k) => sameBits(got, want[k], `ASan, ${what(slice[k])}`));
  const extra = [
    {
      headDim: 13,
      rotaryDim: 10,
      heads: 3,
      order: 'bhld',
      layout: 'interleaved',
      length: 9,
      offset: 60,
      cacheRows: 70,
      dtype: 'float16',
      x: Uint16Array.from({ length: 2 * 9 * 3 * 13 }, (_, k) => (k * 7919) & 0x7bff),
    },
    {
      headDim: 20,
      rotaryDim: 12,
      heads: 1,
      length: 5,
      positions: [3, 1, 2 ** 31 - 1, 0, 64],
      cosSin: true,
      expand: true,
      dtype: 'bfloat16',
      cacheRows: 8,
    },
  ];
  const plain = serveRopePlan(HARNESS, 'scalar', extra);
  serveRopePlan(HARNESS_ASAN, 'scalar', extra).forEach((got, k) => assert.equal(Array.from(got), Array.from(plain[k])));
});

test('positionIds (batch, length) and cuSeqlens equal one call per sequence', () => {
  for (const instance of [simd, scalar]) {
    for (const order of ['blhd', 'bhld']) {
      const o = {
        heads: 3,
        headDim: 10,
        rotaryDim: 8,
        order,
        scaling: { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 16 },
      };
      const plan = instance.createRope(o);
      const batch = 3;
      const length = 7;
      const row = 3 * 10;
      const ids = Array.from({ length: batch }, (_, b) =>
        Array.from({ length }, (_, l) => (b === 1 ? 40 + 2 * l : 5 * b + l)),
      );
      const x = random.floats(batch * length * row, 4);
      const got = plan.apply(x.slice(), { positionIds: BigInt64Array.from(ids.flat().map(BigInt)), length });
      const nested = plan.apply(x.slice(), { positionIds: ids });
      const seqLen = Math.max(...ids.flat()) + 1; // dynamic NTK: L of the whole call, as HF's max(position_ids) + 1
      for (let b = 0; b < batch; b++) {
        const item = x.slice(b * length * row, (b + 1) * length * row);
        // The same L: a last row at seqLen - 1 that is then dropped.
        const padded = new Float32Array((length + 1) * row);
        if (order === 'blhd') padded.set(item);
        else
          for (let h = 0; h < 3; h++)
            padded.set(item.subarray(h * length * 10, (h + 1) * length * 10), h * (length + 1) * 10);
        instance.rope(padded, { ...o, positions: [...ids[b], seqLen - 1] });
        const want = new Float32Array(length * row);
        if (order === 'blhd') want.set(padded.subarray(0, length * row));
        else
          for (let h = 0; h < 3; h++)
            want.set(padded.subarray(h * (length + 1) * 10, h * (length + 1) * 10 + length * 10), h * length * 10);
        sameBits(got.subarray(b * length * row, (b + 1) * length * row), want, `positionIds item ${b}, ${order}`);
        sameBits(
          nested.subarray(b * length * row, (b + 1) * length * row),
          want,
          `nested positionIds item ${b}, ${order}`,
        );
      }
      plan.free();
    }
    // cuSeqlens: packed sequences of 3, 0, 5 and 1 rows, positions restarting at 0.
    const o = { heads: 2, headDim: 8 };
    const cu = Int32Array.of(0, 3, 3, 8, 9);
    const x = random.floats(9 * 16, 4);
    const got = instance.rope(x.slice(), { ...o, cuSeqlens: cu });
    for (let s = 0; s + 1 < cu.length; s++) {
      const n = cu[s + 1] - cu[s];
      const want = instance.rope(x.slice(cu[s] * 16, cu[s + 1] * 16), { ...o, length: n, offset: 0 });
      sameBits(got.slice(cu[s] * 16, cu[s + 1] * 16), want, `cuSeqlens sequence ${s}`);
    }
  }
});

test('position ids in Int32Array, Uint32Array, BigInt64Array and plain arrays give the same bits', () => {
  const ids = [2 ** 31 - 1, 0, 77, 2 ** 31 - 2, 5];
  const o = { heads: 2, headDim: 12 };
  const x = random.floats(ids.length * 24, 4);
  const want = simd.rope(x.slice(), { ...o, positions: ids });
  for (const positions of [
    Int32Array.from(ids),
    Uint32Array.from(ids),
    BigInt64Array.from(ids.map(BigInt)),
    ids.map(BigInt),
  ]) {
    sameBits(simd.rope(x.slice(), { ...o, positions }), want, `positions as ${positions.constructor.name}`);
  }
  const plan = simd.createRope(o);
  sameBits(plan.apply(x.slice(), { positionIds: [ids] }), want, 'positionIds as a nested Array');
  plan.free();
});

test('decoding a token a call (offset, positions, BigInt64Array positionIds) gives the bits of one call for the run', () => {
  // One listed position takes the core's kept-tile path and short id lists the instance's kept block: a walk
  // across tile edges (64, 128), jumps back, a refused call between, cached and uncached plans, id lists of
  // 64 (kept) and 65 (temporary) entries, all against a single call over the same positions.
  for (const instance of [simd, scalar]) {
    for (const layout of ['half', 'interleaved']) {
      for (const maxPosition of [0, 100]) {
        const o = { heads: 3, headDim: 10, rotaryDim: 8, layout };
        const plan = instance.createRope({ ...o, maxPosition, cache: maxPosition > 0 });
        const row = 30;
        const walk = [];
        for (let p = 60; p < 135; p++) walk.push(p);
        walk.push(5, 200, 63, 64, 2 ** 31 - 1, 127, 128);
        const x = random.floats(walk.length * row, 4);
        const want = instance.rope(x.slice(), { ...o, positions: walk });
        const got = instance.alloc(row);
        walk.forEach((p, l) => {
          got.array.set(x.subarray(l * row, (l + 1) * row));
          const source = l % 3;
          if (source === 0) plan.apply(got, { offset: p });
          else if (source === 1) plan.apply(got, { positions: [p] });
          else plan.apply(got, { positionIds: BigInt64Array.of(BigInt(p)) });
          if (l === 10) {
            const before = got.array.slice();
            assert.throws(() => plan.apply(got, { positionIds: BigInt64Array.of(-1n) }), /positionIds\[0\]/);
            sameBits(got.array.slice(), before, 'a refused call leaves x untouched');
          }
          sameBits(
            got.array.slice(),
            want.subarray(l * row, (l + 1) * row),
            `${layout} cache ${maxPosition} row ${l} at ${p}`,
          );
        });
        got.free();
        for (const n of [64, 65]) {
          const ids = walk.slice(0, n);
          const xs = x.slice(0, n * row);
          sameBits(plan.apply(xs.slice(), { positions: ids }), want.subarray(0, n * row), `${n} positions, ${layout}`);
          sameBits(
            plan.apply(xs.slice(), { positionIds: BigInt64Array.from(ids.map(BigInt)) }),
            want.subarray(0, n * row),
            `${n} positionIds, ${layout}`,
          );
        }
        plan.free();
      }
    }
  }
});

test('16-bit x with rotary dims beyond one block of split cos/sin (heads sharing a row) has the same bits on four builds', () => {
  // The SIMD 16-bit kernel splits a shared row's C and S a block of 16 steps at a
  // time (128 pairs for halves, 256 elements adjacent): these dims take 1 to 3 blocks and a tail.
  const big = [];
  for (const [headDim, rotaryDim] of [
    [264, 264],
    [520, 516],
    [1032, 1030],
  ])
    for (const layout of ['half', 'interleaved'])
      for (const dtype of ['float16', 'bfloat16']) {
        const heads = 1 + random.int(3);
        const length = 1 + random.int(3);
        const x = Uint16Array.from(
          { length: length * heads * headDim },
          () =>
            (dtype === 'float16' ? 0x3000 + random.int(0x1800) : 0x3e00 + random.int(0x200)) | (random.int(2) << 15),
        );
        big.push({ headDim, rotaryDim, heads, layout, order: 'blhd', length, offset: random.int(5000), dtype, x });
      }
  const native = { scalar: serveRopePlan(HARNESS, 'scalar', big), simd: serveRopePlan(HARNESS, 'simd', big) };
  big.forEach((c, k) => {
    const label = `headDim ${c.headDim} rotaryDim ${c.rotaryDim} heads ${c.heads} ${c.layout} ${c.dtype}`;
    const run = (instance) => {
      const plan = instance.createRope({ ...planOptions(c), maxPosition: 0, cache: false });
      try {
        return plan.apply(c.x.slice(), { length: c.length, offset: c.offset, dtype: c.dtype });
      } finally {
        plan.free();
      }
    };
    const want = run(scalar);
    let changed = 0;
    for (let j = 0; j < want.length; j++) if (want[j] !== c.x[j]) changed++;
    assert.ok(changed > want.length / 4, `the rotation changed only ${changed} of ${want.length}, ${label}`);
    for (const [name, got] of [
      ['wasm SIMD', run(simd)],
      ['native scalar', native.scalar[k]],
      ['native SIMD', native.simd[k]],
    ]) {
      const at = want.findIndex((v, j) => got[j] !== v);
      assert.ok(got.length === want.length && at < 0, `${name} vs wasm scalar, ${label}: first difference at ${at}`);
    }
  });
});

test.run();
