// Qwen3-VL's interleaved mrope (posenc.h, PE_ROPE_AXES_MROPE_INTERLEAVED) against
// its peer, HF transformers' Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope
// written out here in float64 (the pair-to-axis map by index modulo 3, then
// rotate_half): the rotated queries within 2 ulp of the pair, the config as
// Qwen3-VL-4B ships it and Qwen3.5-9B's partial rotary; the four builds bit for
// bit over seeded shapes; three equal axes give plain RoPE's bits; refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { instantiate } from '../src/js/index.js';
import { HARNESS } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { serveRopeAxes, axesRotary, axesRows } from './support/rope-axes-harness.js';

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-axes-interleaved');
const ULP_BOUND = 2;
const corpus = (file) => readFileSync(new URL(`./fixtures/configs/${file}`, import.meta.url), 'utf8');

/**
 * HF's interleaved mrope for one row: freqs[a][i] = p_a * w_i for the three
 * axes; freqs_t starts as the temporal axis's, then for dim 1 (H) and 2 (W)
 * the pairs slice(dim, 3 * section[dim], 3) take that axis's. emb = cat(f, f).
 */
function interleavedCosSin(ids, l, rotaryDim, base, section) {
  const half = rotaryDim / 2;
  const w = Array.from({ length: half }, (_, i) => 1 / base ** ((2 * i) / rotaryDim));
  const axisOf = new Array(half).fill(0);
  for (const dim of [1, 2]) for (let i = dim; i < 3 * section[dim] && i < half; i += 3) axisOf[i] = dim;
  const cos = new Float64Array(rotaryDim);
  const sin = new Float64Array(rotaryDim);
  for (let j = 0; j < rotaryDim; j++) {
    const angle = ids[axisOf[j % half]][l] * w[j % half];
    cos[j] = Math.cos(angle);
    sin[j] = Math.sin(angle);
  }
  return { cos, sin };
}

/** Worst error in ulp of the pair of got against rotate_half on the first rotaryDim values of each head. */
function worstError(x, got, ids, { heads, headDim, rotaryDim, base, section }) {
  const half = rotaryDim / 2;
  let worst = 0;
  for (let l = 0; l < ids[0].length; l++) {
    const { cos, sin } = interleavedCosSin(ids, l, rotaryDim, base, section);
    for (let h = 0; h < heads; h++) {
      const at = (l * heads + h) * headDim;
      for (let j = 0; j < headDim; j++) {
        let want = x[at + j];
        let pair = Math.abs(want) || 1;
        if (j < rotaryDim) {
          const i = j % half;
          const a = x[at + i];
          const b = x[at + i + half];
          want = x[at + j] * cos[j] + (j < half ? -b : a) * sin[j];
          pair = Math.hypot(a, b) || 1;
        }
        worst = Math.max(worst, Math.abs(got[at + j] - want) / (pair * 2 ** -23));
      }
    }
  }
  return worst;
}

test("interleaved mrope: Qwen3-VL-4B's and Qwen3.5-9B's configs as shipped, within 2 ulp of HF's apply_interleaved_mrope", () => {
  let worst = 0;
  for (const [file, headDim, rotaryDim, base, section] of [
    ['qwen3-vl-4b-instruct.json', 128, 128, 5e6, [24, 20, 20]],
    ['qwen3.5-9b.json', 256, 64, 1e7, [11, 11, 10]],
  ]) {
    const config = corpus(file);
    for (const length of [1, 7, 90]) {
      const ids = [0, 1, 2].map((a) => Array.from({ length }, (_, l) => (a === 0 ? l : random.int(2 ** 20))));
      const heads = 3;
      const x = random.floats(length * heads * headDim, 4);
      const got = simd.rope(x.slice(), { config, heads, positions: ids });
      worst = Math.max(worst, worstError(x, got, ids, { heads, headDim, rotaryDim, base, section }));
    }
  }
  // Random shapes: sections whose interleaved pairs fit, several bases.
  for (let k = 0; k < 30; k++) {
    const half = 3 + random.int(60);
    const s1 = 1 + random.int(Math.floor((half + 2 - 1) / 3));
    const s2 = 1 + random.int(Math.floor((half + 1 - 2) / 3));
    if (s1 + s2 >= half) continue;
    const section = [half - s1 - s2, s1, s2];
    const rotaryDim = 2 * half;
    const headDim = rotaryDim + 2 * random.int(3);
    const base = [10000, 1e6, 5e6][random.int(3)];
    const length = 1 + random.int(30);
    const ids = [0, 1, 2].map(() => Array.from({ length }, () => random.int(2 ** 20)));
    const x = random.floats(length * 2 * headDim, 4);
    const o = { headDim, rotaryDim, heads: 2, base, mropeSection: section, mropeInterleaved: true };
    const got = simd.createRope(o).apply(x.slice(), { positions: ids });
    worst = Math.max(worst, worstError(x, got, ids, { heads: 2, headDim, rotaryDim, base, section }));
  }
  console.log(`rope-axes-interleaved: worst ${worst.toFixed(3)} ulp of the pair`);
  assert.ok(worst <= ULP_BOUND, `worst error ${worst} ulp of the pair`);
});

test('interleaved mrope with three equal axes gives plain RoPE bits; a non-interleaved split does not', () => {
  const o = { headDim: 128, heads: 2, base: 5e6, mropeSection: [24, 20, 20] };
  const length = 33;
  const p = Array.from({ length }, () => random.int(100000));
  const x = random.floats(length * 2 * 128, 4);
  const plain = simd.rope(x.slice(), { headDim: 128, heads: 2, base: 5e6, positions: p });
  const same = simd.rope(x.slice(), { ...o, mropeInterleaved: true, positions: [p, p, p] });
  assert.equal(Array.from(same), Array.from(plain));
  const q = p.map((v) => v + 1);
  const split = simd.rope(x.slice(), { ...o, positions: [p, q, p] });
  const inter = simd.rope(x.slice(), { ...o, mropeInterleaved: true, positions: [p, q, p] });
  assert.not.equal(Array.from(inter), Array.from(split), 'interleaved and run sections differ');
});

test('interleaved mrope rotates to the same bits on wasm SIMD, wasm scalar, native scalar and native SIMD', () => {
  const cases = [];
  for (const half of [3, 4, 5, 7, 8, 12, 16, 17, 32, 64, 65]) {
    for (const layout of ['half', 'interleaved']) {
      const s1 = Math.max(1, Math.floor(half / 3));
      const s2 = Math.max(1, Math.floor((half - 1) / 3));
      if (s1 + s2 >= half) continue;
      const length = [1, 5, 19][random.int(3)];
      const near = random.next() < 0.3;
      const c = {
        headDim: 2 * half + 2 * random.int(2),
        rotaryDim: 2 * half,
        heads: 1 + random.int(3),
        layout,
        order: random.next() < 0.5 ? 'blhd' : 'bhld',
        base: [10000, 5e6][random.int(2)],
        length,
        mropeSection: [half - s1 - s2, s1, s2],
        mropeInterleaved: true,
        dtype: 'float32',
        cacheRows: [0, 64][random.int(2)],
        axisPositions: [0, 1, 2].map(() =>
          Array.from({ length }, () => (near ? 2 ** 31 - 1 - random.int(300) : random.int(5000))),
        ),
      };
      c.x = random.floats(c.length * c.heads * c.headDim, 8);
      cases.push(c);
    }
  }
  const native = { scalar: serveRopeAxes(HARNESS, 'scalar', cases), simd: serveRopeAxes(HARNESS, 'simd', cases) };
  cases.forEach((c, k) => {
    const run = (instance) => {
      const plan = instance.createRope({ ...axesRotary(c), maxPosition: c.cacheRows, cache: c.cacheRows > 0 });
      try {
        return plan.apply(c.x.slice(), axesRows(c));
      } finally {
        plan.free();
      }
    };
    const want = run(simd);
    const what = `half ${c.rotaryDim / 2} ${c.layout} ${c.order} sections ${c.mropeSection}`;
    sameBits(run(scalar), want, `wasm scalar, ${what}`);
    sameBits(native.scalar[k], want, `native scalar, ${what}`);
    sameBits(native.simd[k], want, `native SIMD, ${what}`);
  });
  console.log(`rope-axes-interleaved: ${cases.length} cases identical on four builds`);
});

test('interleaved mrope refuses sections whose pairs do not fit, and interleaving without sections', () => {
  const x = new Float32Array(64);
  const before = x.slice();
  for (const [o, code] of [
    [{ headDim: 16, mropeSection: [1, 5, 2], mropeInterleaved: true }, 'BAD_AXES'],
    [{ headDim: 16, mropeInterleaved: true }, 'BAD_AXES'],
    [{ headDim: 16, scaling: { rope_type: 'default', mrope_section: [4, 2, 2], mrope_interleaved: 1 } }, 'BAD_SCALING'],
  ]) {
    assert.throws(
      () => simd.rope(x, { ...o, positions: [[0], [0], [0]], length: undefined }),
      (e) => e.code === code,
      JSON.stringify(o),
    );
    assert.equal(Array.from(x), Array.from(before));
  }
});

test.run();
