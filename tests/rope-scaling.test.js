// RoPE's scaled frequencies: hand-derived values, HF transformers' formulas
// evaluated independently in this test (tests/support/rope-reference.js names
// the source and version), the YaRN attention factor on cos and sin, and
// dynamic NTK's sequence length.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { sameBits } from './support/builds-bits.js';
import {
  hfDefault,
  hfLinear,
  hfDynamic,
  hfYarn,
  hfLlama3,
  maxRelative,
  LLAMA31_SCALING,
} from './support/rope-reference.js';

const simd = await instantiate({ simd: true });
const freqs = (options) => simd.ropeFrequencies(options);
const close = (got, want, rel, what) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: got ${got}, want ${want}`);

test('hand-derived: no scaling and linear (headDim 4, base 10000: w = [1, 1/100])', () => {
  const plain = freqs({ headDim: 4 });
  assert.equal(Array.from(plain.frequencies), [1, 0.01]);
  assert.is(plain.attentionFactor, 1);
  const linear = freqs({ headDim: 4, scaling: { rope_type: 'linear', factor: 2 } });
  assert.equal(Array.from(linear.frequencies), [0.5, 0.005]);
  // The legacy key `type` is an alias of rope_type; rope_type 'default' is no scaling.
  assert.equal(Array.from(freqs({ headDim: 4, scaling: { type: 'linear', factor: 2 } }).frequencies), [0.5, 0.005]);
  assert.equal(Array.from(freqs({ headDim: 4, scaling: { rope_type: 'default' } }).frequencies), [1, 0.01]);
  // rotaryDim sets the exponent's denominator: headDim 64, rotaryDim 4 -> the same [1, 1/100].
  assert.equal(Array.from(freqs({ headDim: 64, rotaryDim: 4 }).frequencies), [1, 0.01]);
});

test('hand-derived: dynamic NTK (r = 4, factor 2, L0 = 16): L = 32 gives base 10000 * 3^2, w1 = 1/300', () => {
  const scaling = { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 16 };
  // x = 2 * 32/16 - (2 - 1) = 3, exponent r/(r-2) = 2: base' = 90000, w1 = 90000^(-1/2).
  const long = freqs({ headDim: 4, scaling, length: 32 });
  assert.is(long.frequencies[0], 1);
  close(long.frequencies[1], 1 / 300, 1e-15, 'w1 at L = 32');
  // At or below L0 nothing changes.
  for (const length of [0, 1, 16])
    assert.equal(Array.from(freqs({ headDim: 4, scaling, length }).frequencies), [1, 0.01]);
});

test('hand-derived: YaRN correction range and attention factor', () => {
  // headDim 8, L0 32, factor 4: correction dims 8 ln(32/(64 pi)) / (2 ln 1e4) = -0.80 -> floor -> 0
  // and 8 ln(32/(2 pi)) / (2 ln 1e4) = 0.71 -> ceil 1: pair 0 keeps w, pairs 1.. take w/4.
  const small = freqs({ headDim: 8, scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32 } });
  assert.is(small.frequencies[0], 1);
  close(small.frequencies[1], 0.1 / 4, 1e-15, 'w1');
  close(small.frequencies[2], 0.01 / 4, 1e-15, 'w2');
  close(small.frequencies[3], 0.001 / 4, 1e-15, 'w3');
  close(small.attentionFactor, 0.1 * Math.log(4) + 1, 1e-15, 'attention factor 0.1 ln 4 + 1');
  // headDim 64, L0 4096, factor 8: 64 ln(4096/(64 pi)) / (2 ln 1e4) = 10.47 -> 10 and
  // 64 ln(4096/(2 pi)) / (2 ln 1e4) = 22.51 -> 23: pairs up to 10 unscaled, from 23 on w/8,
  // between a linear blend with weight (i - 10)/13 on w/8.
  const big = freqs({ headDim: 64, scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 4096 } });
  const w = (i) => 10000 ** (-i / 32);
  for (let i = 0; i < 32; i++) {
    const t = Math.min(Math.max((i - 10) / 13, 0), 1);
    close(big.frequencies[i], (w(i) / 8) * t + w(i) * (1 - t), 1e-14, `pair ${i}`);
  }
  // truncate: false keeps the fractional range [10.47, 22.51].
  const loose = freqs({
    headDim: 64,
    scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 4096, truncate: false },
  });
  const lo = (64 * Math.log(4096 / (64 * Math.PI))) / (2 * Math.log(10000));
  const hi = (64 * Math.log(4096 / (2 * Math.PI))) / (2 * Math.log(10000));
  assert.ok(Math.abs(lo - 10.47) < 0.01 && Math.abs(hi - 22.51) < 0.01, `range ${lo} ... ${hi}`);
  for (let i = 0; i < 32; i++) {
    const t = Math.min(Math.max((i - lo) / (hi - lo), 0), 1);
    close(loose.frequencies[i], (w(i) / 8) * t + w(i) * (1 - t), 1e-13, `truncate false, pair ${i}`);
  }
  assert.ok(
    loose.frequencies[11] > big.frequencies[11] && loose.frequencies[22] < big.frequencies[22],
    'truncate changes the ramp',
  );
  // mscale / mscale_all_dim (DeepSeek style): (0.1 * 1 * ln 40 + 1) / (0.1 * 0.5 * ln 40 + 1).
  const ds = freqs({
    headDim: 64,
    scaling: { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096, mscale: 1, mscale_all_dim: 0.5 },
  });
  close(ds.attentionFactor, (0.1 * Math.log(40) + 1) / (0.05 * Math.log(40) + 1), 1e-15, 'mscale ratio');
  const given = freqs({
    headDim: 64,
    scaling: { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096, attention_factor: 0.75 },
  });
  assert.is(given.attentionFactor, 0.75);
});

test('hand-derived: Llama 3 bands (r = 6, base 1e6, factor 8, low 1, high 4, L0 1000)', () => {
  // w = [1, 1e-2, 1e-4]; wavelengths 2 pi, 200 pi, 20000 pi against 1000/4 = 250 and 1000/1:
  // pair 0 is short (kept), pair 2 long (w/8), pair 1 between: s = (1000 / (200 pi) - 1) / 3.
  const { frequencies } = freqs({
    headDim: 6,
    base: 1e6,
    scaling: {
      rope_type: 'llama3',
      factor: 8,
      low_freq_factor: 1,
      high_freq_factor: 4,
      original_max_position_embeddings: 1000,
    },
  });
  const s = (1000 / (200 * Math.PI) - 1) / 3;
  close(frequencies[0], 1, 0, 'pair 0');
  close(frequencies[1], ((1 - s) * 0.01) / 8 + s * 0.01, 1e-14, 'pair 1');
  close(frequencies[2], 1e-4 / 8, 1e-14, 'pair 2');
});

test("HF's formulas evaluated here in double agree to 1e-13 (real model configs)", () => {
  const models = [
    // Llama 3.1 8B: head_dim 128, rope_theta 500000.
    {
      dim: 128,
      base: 500000,
      scaling: LLAMA31_SCALING,
      hf: hfLlama3,
    },
    // Qwen2.5 with YaRN: head_dim 128, rope_theta 1e6.
    { dim: 128, base: 1e6, scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 }, hf: hfYarn },
    // DeepSeek-V3: qk_rope_head_dim 64, rope_theta 10000.
    {
      dim: 64,
      base: 10000,
      scaling: {
        type: 'yarn',
        factor: 40,
        original_max_position_embeddings: 4096,
        beta_fast: 32,
        beta_slow: 1,
        mscale: 1,
        mscale_all_dim: 1,
      },
      hf: hfYarn,
    },
    // gpt-oss style: truncate false.
    {
      dim: 64,
      base: 150000,
      scaling: {
        rope_type: 'yarn',
        factor: 32,
        original_max_position_embeddings: 4096,
        beta_fast: 32,
        beta_slow: 1,
        truncate: false,
      },
      hf: hfYarn,
    },
    // CodeLlama-style linear, and dynamic NTK at L = 3 L0.
    { dim: 128, base: 10000, scaling: { rope_type: 'linear', factor: 4 }, hf: hfLinear },
    {
      dim: 128,
      base: 10000,
      scaling: { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 4096 },
      hf: hfDynamic,
      length: 12288,
    },
    {
      dim: 80,
      base: 10000,
      rotaryDim: 40,
      scaling: { rope_type: 'dynamic', factor: 3, original_max_position_embeddings: 2048 },
      hf: hfDynamic,
      length: 5000,
    },
  ];
  for (const m of models) {
    const r = m.rotaryDim ?? m.dim;
    const got = freqs({ headDim: m.dim, rotaryDim: r, base: m.base, scaling: m.scaling, length: m.length });
    const want = m.hf(r, m.base, m.scaling, m.length);
    const e = maxRelative(got.frequencies, want.w);
    assert.ok(e <= 1e-13, `${JSON.stringify(m.scaling)}: relative error ${e}`);
    close(got.attentionFactor, want.attention, 1e-15, `${JSON.stringify(m.scaling)} attention factor`);
    // The scaling changes something (else the comparison proves little).
    assert.ok(maxRelative(got.frequencies, hfDefault(r, m.base)) > 0.1, `${JSON.stringify(m.scaling)} changed nothing`);
  }
});

test('the YaRN attention factor multiplies cos and sin in float32 before the rotation', () => {
  const scaling = { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 64 };
  const headDim = 8;
  const length = 50;
  // x1 = 1, x2 = 0 in every pair: x1' = cos * a and x2' = sin * a, each one float32 product.
  const x = new Float32Array(headDim * length);
  for (let l = 0; l < length; l++) x.fill(1, l * headDim, l * headDim + 4);
  const got = simd.rope(x.slice(), { length, heads: 1, headDim, scaling });
  // attention_factor: 1 keeps the same frequencies and gives the plain float32 cos and sin.
  const plain = simd.rope(x.slice(), { length, heads: 1, headDim, scaling: { ...scaling, attention_factor: 1 } });
  const a = Math.fround(freqs({ headDim, scaling }).attentionFactor);
  assert.ok(a > 1.2, `attention factor ${a}`);
  const want = plain.map((v) => Math.fround(v * a));
  sameBits(got, want, 'rope = float32(cos * a), float32(sin * a)');
  // And on a general x the factor scales the rotated pair's length by a.
  const y = Float32Array.from({ length: headDim * length }, (_, k) => Math.cos(k * 1.7) * 3);
  const scaled = simd.rope(y.slice(), { length, heads: 1, headDim, scaling });
  for (let v = 0; v < y.length; v += headDim) {
    for (let i = 0; i < 4; i++) {
      close(Math.hypot(scaled[v + i], scaled[v + 4 + i]), a * Math.hypot(y[v + i], y[v + 4 + i]), 5e-7, `pair ${i}`);
    }
  }
});

test('dynamic NTK uses the largest position + 1 of the whole call as L, however it is staged', () => {
  const scaling = { rope_type: 'dynamic', factor: 4, original_max_position_embeddings: 100 };
  const heads = 2;
  const headDim = 16;
  const x = Float32Array.from({ length: 3 * 300 * heads * headDim }, (_, k) => Math.sin(k * 0.37));
  // L = 300 > 100: scaled. Rows 0..99 of this call differ from a call of 100 rows (L = 100: unscaled).
  const whole = simd.rope(x.slice(), { length: 300, heads, headDim, scaling });
  const first = x.slice(0, 100 * heads * headDim);
  const short = simd.rope(first.slice(), { length: 100, heads, headDim, scaling });
  const plain = simd.rope(first.slice(), { length: 100, heads, headDim });
  sameBits(short, plain, 'L <= L0 is the unscaled rotation');
  let differ = 0;
  for (let k = 0; k < short.length; k++) if (short[k] !== whole[k]) differ++;
  assert.ok(differ > short.length / 2, 'L = 300 should scale the frequencies');
  // A WasmBuffer (one core call) and a position list give the same L and bits.
  const buffer = simd.alloc(x.length);
  buffer.array.set(x);
  sameBits(simd.rope(buffer, { length: 300, heads, headDim, scaling }).array, whole, 'WasmBuffer');
  buffer.free();
  const positions = Array.from({ length: 300 }, (_, l) => l);
  sameBits(simd.rope(x.slice(), { positions, heads, headDim, scaling }), whole, 'positions 0..299');
});

test.run();
