// Named conventions (preset, frequencies): hand-derived rows, the quad
// oracle, the four builds bit for bit, and how options are refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { oracleTable } from './support/oracle-run.js';
import { maxAbsError } from './support/oracle-compare.js';
import { serve, HARNESS } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { sweep } from './support/quick.js';

const slow = sweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const TOLERANCE = 6e-8;

// Rows derived by hand from each library's definition, d = 4 (h = 2 pairs),
// T = 10000, with sin/cos from Math (fdlibm in V8), not posenc's routines:
// - vaswani (Vaswani et al. 2017, section 3.5): w = [T^0, T^(-2/4)] = [1, 0.01],
//   row [sin pw0, cos pw0, sin pw1, cos pw1];
// - tensor2tensor (common_attention.get_timing_signal_1d) and fairseq
//   (SinusoidalPositionalEmbedding.get_embedding): log-increment ln T / (h - 1),
//   so w = [1, 1e-4], row [sin pw0, sin pw1, cos pw0, cos pw1];
// - marian (HF MarianSinusoidalPositionalEmbedding): pos / T^(2(j//2)/d), sines of
//   the even j first, then cosines of the odd j: w = [1, 0.01], split.
const handRows = {
  vaswani: (p) => [Math.sin(p), Math.cos(p), Math.sin(p * 0.01), Math.cos(p * 0.01)],
  tensor2tensor: (p) => [Math.sin(p), Math.sin(p * 1e-4), Math.cos(p), Math.cos(p * 1e-4)],
  fairseq: (p) => [Math.sin(p), Math.sin(p * 1e-4), Math.cos(p), Math.cos(p * 1e-4)],
  marian: (p) => [Math.sin(p), Math.sin(p * 0.01), Math.cos(p), Math.cos(p * 0.01)],
};

test('each preset gives the rows derived by hand from its library (d = 4)', () => {
  let compared = 0;
  for (const [preset, row] of Object.entries(handRows)) {
    // fairseq numbers positions from padding_idx + 1 = 2; the others from 0.
    const offset = preset === 'fairseq' ? 2 : 0;
    const table = simd.sinusoidal({ length: 40, dim: 4, offset, preset });
    for (let r = 0; r < 40; r++) {
      const want = row(offset + r);
      for (let j = 0; j < 4; j++, compared++) {
        assert.ok(
          Math.abs(table[r * 4 + j] - want[j]) <= TOLERANCE,
          `${preset} p=${offset + r} column ${j}: got ${table[r * 4 + j]}, want ${want[j]}`,
        );
      }
    }
  }
  assert.is(compared, 4 * 40 * 4);
});

slow('tensor2tensor frequencies against the quad-precision oracle, near 0 and near 2^24', async () => {
  let worst = { err: 0 };
  let values = 0;
  for (const dim of [2, 4, 6, 64, 512, 2048]) {
    for (const base of [2, 10000, 1e7]) {
      for (const layout of ['interleaved', 'split']) {
        for (const offset of [0, 2 ** 24 - 200]) {
          const length = dim > 512 ? 60 : 200;
          const got = simd.sinusoidal({ length, dim, base, offset, layout, frequencies: 'tensor2tensor' });
          const want = await oracleTable({ dim, base, layout, offset, length, frequencies: 'tensor2tensor' });
          const e = maxAbsError(got, want, dim, (r) => offset + r);
          values += got.length;
          if (e.err > worst.err) worst = { ...e, dim, base, layout };
        }
      }
    }
  }
  console.log(
    `presets: tensor2tensor frequencies, ${values} values, max abs error ${worst.err.toExponential(3)}` +
      (worst.dim
        ? ` at p=${worst.p}, column ${worst.column}, d=${worst.dim}, base ${worst.base}, ${worst.layout}`
        : ''),
  );
  assert.ok(values > 1e6, `only ${values} values compared`);
  assert.ok(worst.err <= TOLERANCE, `max abs error ${worst.err} > ${TOLERANCE}`);
});

test('the four builds agree bit for bit on tensor2tensor frequencies', () => {
  const shapes = [];
  for (let dim = 2; dim <= 34; dim += 2) {
    for (const [offset, length] of [
      [0, 17],
      [61, 70],
      [2 ** 24 - 5, 9],
      [2 ** 31 - 3, 3],
    ]) {
      for (const layout of ['interleaved', 'split']) shapes.push({ dim, base: 10000, layout, offset, length });
    }
  }
  const requests = shapes.map((s) => ({ op: 'table', ...s, layout: `${s.layout}:tensor2tensor` }));
  const native = { scalar: serve(HARNESS, 'scalar', requests), simd: serve(HARNESS, 'simd', requests) };
  let values = 0;
  shapes.forEach((s, k) => {
    const wasmSimd = simd.sinusoidal({ ...s, frequencies: 'tensor2tensor' });
    const wasmScalar = scalar.sinusoidal({ ...s, frequencies: 'tensor2tensor' });
    const what = `d=${s.dim} offset ${s.offset} ${s.layout}`;
    sameBits(wasmScalar, wasmSimd, `wasm scalar vs wasm SIMD, ${what}`);
    sameBits(native.scalar[k], wasmSimd, `native scalar vs wasm SIMD, ${what}`);
    sameBits(native.simd[k], wasmSimd, `native SIMD vs wasm SIMD, ${what}`);
    values += wasmSimd.length;
  });
  console.log(`presets: ${shapes.length} shapes, ${values} values identical on four builds`);
  assert.ok(values > 10000);
});

test('a preset equals its layout and frequencies given alone, in every call', () => {
  const x = Float32Array.from({ length: 3 * 20 * 8 }, (_, k) => Math.sin(k) * 3);
  for (const [preset, layout, frequencies] of [
    ['fairseq', 'split', 'tensor2tensor'],
    ['marian', 'split', 'paper'],
    ['vaswani', 'interleaved', 'paper'],
    ['tensor2tensor', 'split', 'tensor2tensor'],
  ]) {
    sameBits(
      simd.sinusoidal({ length: 20, dim: 8, offset: 2, preset }),
      simd.sinusoidal({ length: 20, dim: 8, offset: 2, layout, frequencies }),
      `${preset} table`,
    );
    sameBits(
      simd.sinusoidalAt([5, 1, 900], { dim: 8, preset }),
      simd.sinusoidalAt([5, 1, 900], { dim: 8, layout, frequencies }),
      `${preset} positions`,
    );
    sameBits(
      simd.addSinusoidal(x.slice(), { length: 20, dim: 8, scale: 2, preset }),
      simd.addSinusoidal(x.slice(), { length: 20, dim: 8, scale: 2, layout, frequencies }),
      `${preset} add`,
    );
    // Agreeing explicit options are accepted.
    simd.sinusoidal({ length: 1, dim: 8, preset, layout, frequencies });
  }
  // Paper frequencies are the default: the vaswani preset changes nothing.
  sameBits(
    simd.sinusoidal({ length: 9, dim: 6 }),
    simd.sinusoidal({ length: 9, dim: 6, preset: 'vaswani' }),
    'default',
  );
});

test('bad presets and frequencies are refused, naming the argument and what is allowed', () => {
  const cases = [
    [
      { preset: 'bert' },
      'BAD_PRESET',
      /preset must be one of 'vaswani', 'tensor2tensor', 'fairseq', 'marian'; got "bert"/,
    ],
    [{ preset: 'fairseq', layout: 'interleaved' }, 'BAD_PRESET', /layout must be 'split' with preset 'fairseq'/],
    [
      { preset: 'marian', frequencies: 'tensor2tensor' },
      'BAD_PRESET',
      /frequencies must be 'paper' with preset 'marian'/,
    ],
    [{ frequencies: 'fairseq' }, 'BAD_FREQUENCIES', /frequencies must be 'paper' .* or 'tensor2tensor'/],
    [{ frequencies: 1 }, 'BAD_FREQUENCIES', /got 1/],
    [{ preset: null }, 'BAD_PRESET', /got null/],
  ];
  for (const [extra, code, message] of cases) {
    const out = new Float32Array(8).fill(7);
    try {
      simd.sinusoidal({ length: 2, dim: 4, out, ...extra });
      assert.unreachable(`${JSON.stringify(extra)} was accepted`);
    } catch (error) {
      assert.instance(error, PosencError, `${JSON.stringify(extra)}: ${error}`);
      assert.is(error.code, code, JSON.stringify(extra));
      assert.match(error.message, message);
    }
    assert.ok(
      out.every((v) => v === 7),
      'a refused call wrote to out',
    );
  }
});

test.run();
