// RoPE on the four builds (wasm SIMD, wasm scalar, native scalar, native SIMD):
// bit-identical over sweeps of shapes around the SIMD width, both layouts and
// orders, offsets near 2^24 and 2^31, position lists and every scaling; the
// JS-array path (staged in chunks, sentinels around x) against the WasmBuffer
// path (one call); the ASan harness over a slice of the sweep.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { HARNESS, HARNESS_ASAN } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { serveRope, ropeOptions } from './support/rope-harness.js';

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-builds');

const SCALINGS = [
  undefined,
  { rope_type: 'linear', factor: 4 },
  { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 40 },
  { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 64 },
  {
    rope_type: 'yarn',
    factor: 3.5,
    original_max_position_embeddings: 4096,
    beta_fast: 16,
    mscale: 1,
    mscale_all_dim: 0.5,
    truncate: false,
  },
  { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 100 },
];
const OFFSETS = [0, 61, 2 ** 24 - 40, 2 ** 31 - 70];

/** headDim / rotaryDim pairs around the SIMD width (4 floats) and odd tails. */
function dims() {
  const out = [];
  for (const headDim of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 30, 34, 64, 66, 128]) {
    for (const rotaryDim of new Set([headDim - (headDim % 2), headDim - 2 - (headDim % 2), 2, 8, 10])) {
      if (rotaryDim >= 2 && rotaryDim <= headDim) out.push([headDim, rotaryDim]);
    }
  }
  return out;
}

function makeCases() {
  const cases = [];
  for (const [headDim, rotaryDim] of dims()) {
    for (const layout of ['half', 'interleaved']) {
      for (const order of ['blhd', 'bhld']) {
        const heads = 1 + random.int(3);
        const length = [1, 3, 17, 70][random.int(4)];
        const batch = 1 + random.int(2);
        const scaling = SCALINGS[random.int(SCALINGS.length)];
        const c = {
          headDim,
          rotaryDim,
          heads,
          layout,
          order,
          length,
          inverse: random.next() < 0.3,
          scaling,
          base: [10000, 500000, 2.5][random.int(3)],
        };
        if (scaling?.rope_type === 'dynamic' && rotaryDim < 4) c.scaling = undefined;
        if (random.next() < 0.25) {
          c.positions = Array.from({ length }, () => random.int(2 ** 31));
          if (length > 3)
            for (let k = 1; k < length; k += 2) c.positions[k] = Math.min(c.positions[k - 1] + 1, 2 ** 31 - 1);
        } else {
          c.offset = OFFSETS[random.int(OFFSETS.length)];
        }
        c.x = random.floats(batch * length * heads * headDim, 8);
        cases.push(c);
      }
    }
  }
  return cases;
}

const cases = makeCases();
const describeCase = (c) =>
  `headDim ${c.headDim} rotaryDim ${c.rotaryDim} heads ${c.heads} ${c.layout} ${c.order} ` +
  `length ${c.length} ${c.positions ? 'positions' : `offset ${c.offset}`} ${c.inverse ? 'inverse ' : ''}` +
  `scaling ${JSON.stringify(c.scaling ?? null)}`;

test('wasm SIMD, wasm scalar, native scalar and native SIMD rotate to the same bits', () => {
  const native = { scalar: serveRope(HARNESS, 'scalar', cases), simd: serveRope(HARNESS, 'simd', cases) };
  let values = 0;
  let changed = 0;
  let rotated = 0;
  cases.forEach((c, k) => {
    const wasmSimd = simd.rope(c.x.slice(), ropeOptions(c));
    const wasmScalar = scalar.rope(c.x.slice(), ropeOptions(c));
    const what = describeCase(c);
    sameBits(wasmScalar, wasmSimd, `wasm scalar vs wasm SIMD, ${what}`);
    sameBits(native.scalar[k], wasmSimd, `native scalar vs wasm SIMD, ${what}`);
    sameBits(native.simd[k], wasmSimd, `native SIMD vs wasm SIMD, ${what}`);
    values += wasmSimd.length;
    for (let j = 0; j < c.x.length; j++) {
      if (j % c.headDim >= c.rotaryDim) continue;
      rotated++;
      if (wasmSimd[j] !== c.x[j]) changed++;
    }
  });
  console.log(
    `rope-builds: ${cases.length} cases, ${values} values identical on four builds (${changed} of ${rotated} rotated elements changed)`,
  );
  assert.ok(cases.length > 250 && values > 100000, `only ${cases.length} cases, ${values} values`);
  assert.ok(changed > 0.8 * rotated, `only ${changed} of ${rotated} rotated elements changed`);
});

test('the frequencies are the same doubles natively and in wasm', () => {
  const freqCases = [];
  for (const scaling of SCALINGS) {
    for (const [headDim, rotaryDim] of [
      [4, 4],
      [64, 64],
      [128, 96],
      [130, 130],
    ]) {
      for (const sequenceLength of [0, 30, 5000])
        freqCases.push({ headDim, rotaryDim, scaling, sequenceLength, length: 0, frequencies: true });
    }
  }
  const native = serveRope(HARNESS, 'scalar', freqCases);
  freqCases.forEach((c, k) => {
    const { frequencies, attentionFactor } = simd.ropeFrequencies({
      headDim: c.headDim,
      rotaryDim: c.rotaryDim,
      scaling: c.scaling,
      length: c.sequenceLength,
    });
    const wasm = Float64Array.of(...frequencies, attentionFactor);
    assert.equal(Array.from(native[k]), Array.from(wasm), `frequencies ${JSON.stringify(c)}`);
  });
});

test('a JS array (staged in chunks) and a WasmBuffer (one call) give the same bits; sentinels stay', () => {
  const pad = 37;
  const SENTINEL = -12345.678;
  let values = 0;
  const shapes = [
    { headDim: 128, heads: 32, length: 300, batch: 2 }, // rows beyond one staging chunk
    { headDim: 64, heads: 8, length: 200, batch: 9 }, // batch items in groups
    { headDim: 4096, heads: 24, length: 3, batch: 1 }, // one row larger than the staging area
    { headDim: 10, rotaryDim: 6, heads: 3, length: 129, batch: 5 },
  ];
  for (const shape of shapes) {
    for (const order of ['blhd', 'bhld']) {
      for (const scaling of [undefined, SCALINGS[2], SCALINGS[3]]) {
        const positions = shape.length < 10 ? [5, 2 ** 24 + 3, 7] : undefined;
        const c = {
          ...shape,
          order,
          scaling,
          layout: 'interleaved',
          offset: positions ? undefined : 1000 - shape.length,
          positions,
        };
        const n = shape.batch * shape.length * shape.heads * shape.headDim;
        const big = new Float32Array(n + 2 * pad).fill(SENTINEL);
        const x = big.subarray(pad, pad + n);
        x.set(random.floats(n, 3));
        const buffer = simd.alloc(n);
        buffer.array.set(x);
        simd.rope(x, ropeOptions(c));
        simd.rope(buffer, ropeOptions(c));
        sameBits(
          x,
          buffer.array,
          `JS array vs WasmBuffer, ${describeCase({ ...c, rotaryDim: c.rotaryDim ?? c.headDim })}`,
        );
        buffer.free();
        for (let k = 0; k < pad; k++) {
          assert.ok(
            big[k] === Math.fround(SENTINEL) && big[pad + n + k] === Math.fround(SENTINEL),
            'a sentinel changed',
          );
        }
        values += n;
      }
    }
  }
  console.log(`rope-builds: ${values} values equal through staging and in place`);
});

test('the ASan+UBSan harness rotates the same bits (a slice of the sweep)', () => {
  const slice = cases.filter((_, k) => k % 7 === 0);
  const asan = serveRope(HARNESS_ASAN, 'simd', slice);
  slice.forEach((c, k) => sameBits(asan[k], simd.rope(c.x.slice(), ropeOptions(c)), `asan, ${describeCase(c)}`));
  console.log(`rope-builds: ${slice.length} cases under ASan+UBSan`);
});

test.run();
