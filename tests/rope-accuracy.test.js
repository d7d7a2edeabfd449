// RoPE against independent values: the exact rotation in float64 with cos/sin
// from the quad-precision oracle; inverse(rope(x)) = x; the relative-position
// property (q·k after rotation depends only on the distance); and unit
// vectors, which must come out as the sinusoidal table's very bits.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { oracleAt, oracleGiven } from './support/oracle-run.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { headError } from './support/rope-reference.js';
import { sweep } from './support/quick.js';

const slow = sweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const simd = await instantiate({ simd: true });
const random = rng('rope-accuracy');
const ULP_BOUND = 2; // in units of 2^-23 * |pair|: see headError

/** Worst error of rope over x (blhd) whose row l is at positions[l], against oracle rows. */
function worstError(x, got, positions, { heads, headDim, rotaryDim, layout, factor, inverse }, rows) {
  const r = rotaryDim ?? headDim;
  let worst = 0;
  const perRow = heads * headDim;
  for (let k = 0; k * perRow < x.length; k++) {
    const l = k % positions.length;
    const sincos = rows.subarray(l * r, (l + 1) * r);
    for (let h = 0; h < heads; h++) {
      const at = k * perRow + h * headDim;
      const e = headError(x.subarray(at, at + headDim), got.subarray(at, at + headDim), sincos, r, layout, {
        factor,
        inverse,
      });
      worst = Math.max(worst, e);
    }
  }
  return worst;
}

slow(
  'unscaled rope is within 2 ulp of the pair of the exact rotation (quad oracle), near 0 and near 2^24',
  async () => {
    let worst = 0;
    let values = 0;
    for (const headDim of [2, 6, 64, 128, 130]) {
      for (const layout of ['half', 'interleaved']) {
        for (const base of [10000, 500000, 1e7, 3]) {
          for (const inverse of [false, true]) {
            const offset = random.next() < 0.5 ? 0 : 2 ** 24 - 300;
            const length = 300;
            const heads = 2;
            const positions = Array.from({ length }, (_, l) => offset + l);
            const rows = await oracleAt(positions, { dim: headDim, base, layout: 'split' });
            const x = random.floats(2 * length * heads * headDim, 10);
            const got = simd.rope(x.slice(), { length, offset, heads, headDim, base, layout, inverse });
            worst = Math.max(worst, worstError(x, got, positions, { heads, headDim, layout, inverse }, rows));
            values += x.length;
          }
        }
      }
    }
    console.log(
      `rope-accuracy: ${values} values, worst error ${worst.toFixed(3)} ulp of the pair (bound ${ULP_BOUND})`,
    );
    assert.ok(values > 1e6);
    assert.ok(worst <= ULP_BOUND, `worst error ${worst} ulp of the pair`);
  },
);

test('scaled rope (linear, dynamic, YaRN with its attention factor, Llama 3) against the oracle for its frequencies', () => {
  const configs = [
    { rope_type: 'linear', factor: 4 },
    { rope_type: 'dynamic', factor: 4, original_max_position_embeddings: 2048 },
    { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 4096 },
    {
      rope_type: 'yarn',
      factor: 40,
      original_max_position_embeddings: 4096,
      mscale: 1,
      mscale_all_dim: 0.5,
      beta_fast: 32,
      beta_slow: 1,
    },
    { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 },
  ];
  let worst = 0;
  let values = 0;
  for (const scaling of configs) {
    for (const layout of ['half', 'interleaved']) {
      const headDim = 128;
      const rotaryDim = 96;
      const heads = 3;
      const positions = Array.from({ length: 150 }, (_, l) => (l < 75 ? l : 2 ** 24 - 200 + l));
      const L = Math.max(...positions) + 1;
      const { frequencies, attentionFactor } = simd.ropeFrequencies({
        headDim,
        rotaryDim,
        base: 500000,
        scaling,
        length: L,
      });
      const rows = oracleGiven(frequencies, positions);
      const x = random.floats(positions.length * heads * headDim, 5);
      const got = simd.rope(x.slice(), { positions, heads, headDim, rotaryDim, base: 500000, layout, scaling });
      worst = Math.max(
        worst,
        worstError(x, got, positions, { heads, headDim, rotaryDim, layout, factor: attentionFactor }, rows),
      );
      values += x.length;
    }
  }
  console.log(`rope-accuracy: scaled, ${values} values, worst error ${worst.toFixed(3)} ulp of the pair`);
  assert.ok(worst <= ULP_BOUND, `worst error ${worst} ulp of the pair`);
});

test('inverse undoes rope: inverse(rope(x)) is x within 4 ulp of the pair', () => {
  let worst = 0;
  for (const layout of ['half', 'interleaved']) {
    for (const order of ['blhd', 'bhld']) {
      const headDim = 64;
      const heads = 4;
      const length = 100;
      const offset = random.int(2 ** 24);
      const x = random.floats(3 * length * heads * headDim, 2);
      const options = {
        length,
        offset,
        heads,
        headDim,
        rotaryDim: 48,
        layout,
        order,
        scaling: { rope_type: 'linear', factor: 2 },
      };
      const back = simd.rope(simd.rope(x.slice(), options), { ...options, inverse: true });
      const r = 48;
      for (let v = 0; v < x.length; v += headDim) {
        for (let j = 0; j < headDim; j++) {
          if (j >= r) {
            assert.is(back[v + j], x[v + j], 'an element past rotaryDim changed');
            continue;
          }
          const partner = layout === 'half' ? (j < r / 2 ? j + r / 2 : j - r / 2) : j ^ 1;
          const unit = Math.hypot(x[v + j], x[v + partner]) * 2 ** -23;
          worst = Math.max(worst, Math.abs(back[v + j] - x[v + j]) / unit);
        }
      }
    }
  }
  console.log(`rope-accuracy: inverse(rope(x)) - x at most ${worst.toFixed(3)} ulp of the pair`);
  assert.ok(worst <= 4, `${worst} ulp of the pair`);
  assert.ok(worst > 0, 'a round trip through float32 rotations should not be exact everywhere');
});

test('relative positions: q·k after rope depends only on the distance, up to 2^24', () => {
  const headDim = 128;
  const q = random.floats(headDim, 1);
  const k = random.floats(headDim, 1);
  // Pairwise |q||k| bounds the rounding of each rotated pair's product.
  let scale = 0;
  for (let i = 0; i < headDim / 2; i++) scale += Math.hypot(q[i], q[i + 64]) * Math.hypot(k[i], k[i + 64]);
  const tolerance = 8 * 2 ** -23 * scale;
  const dot = (m, n) => {
    const a = simd.rope(q.slice(), { positions: [m], heads: 1, headDim });
    const b = simd.rope(k.slice(), { positions: [n], heads: 1, headDim });
    let s = 0;
    for (let j = 0; j < headDim; j++) s += a[j] * b[j];
    return s;
  };
  let worst = 0;
  let spread = 0;
  for (const distance of [0, 1, 7, 100, 4000]) {
    const reference = dot(distance, 0);
    for (const shift of [1, 999, 65536, 2 ** 20 + 3, 2 ** 24 - 5000]) {
      worst = Math.max(worst, Math.abs(dot(shift + distance, shift) - reference));
    }
    spread = Math.max(spread, Math.abs(reference - dot(0, 0)));
  }
  console.log(
    `rope-accuracy: q·k at shifted positions differs by at most ${worst.toExponential(2)} (tolerance ${tolerance.toExponential(2)})`,
  );
  assert.ok(worst <= tolerance, `q·k moved by ${worst} when both positions shifted`);
  assert.ok(spread > 100 * tolerance, 'q·k should depend on the distance at all');
});

test('unit vectors come out as the sinusoidal table (split layout), bit for bit', () => {
  // x = (1 in the first half, 0 in the second): x1' = cos, x2' = sin exactly, so
  // rotated rows are the split table [sin | cos] with its halves swapped.
  for (const headDim of [2, 8, 64, 130]) {
    for (const offset of [0, 63, 2 ** 24 - 1, 2 ** 31 - 100]) {
      const length = 70;
      const half = headDim / 2;
      const x = new Float32Array(length * headDim);
      for (let l = 0; l < length; l++) x.fill(1, l * headDim, l * headDim + half);
      const got = simd.rope(x, { length, offset, heads: 1, headDim });
      const table = simd.sinusoidal({ length, offset, dim: headDim, layout: 'split' });
      const swapped = new Float32Array(table.length);
      for (let l = 0; l < length; l++) {
        swapped.set(table.subarray(l * headDim + half, (l + 1) * headDim), l * headDim);
        swapped.set(table.subarray(l * headDim, l * headDim + half), l * headDim + half);
      }
      sameBits(got, swapped, `headDim ${headDim} offset ${offset}`);
    }
  }
});

test.run();
