// LongRoPE (Phi-3, Phi-3.5): frequencies and attention factor against a
// transcription of HF transformers' _compute_longrope_parameters (in double),
// the short/long choice by sequence length (HF: max(position_ids) + 1 against
// original_max_position_embeddings) in rope(), plans and caches, and the same
// bits from the SIMD and scalar builds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-longrope');

/** HF: ext = long_factor if seq_len > original else short_factor; inv_freq = 1 / (ext * base^(2i/dim)). */
function hfLongrope(dim, base, p, seqLen) {
  const ext = seqLen > p.original_max_position_embeddings ? p.long_factor : p.short_factor;
  const w = Float64Array.from({ length: dim / 2 }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / dim)));
  let attention = p.attention_factor ?? null;
  if (attention === null) {
    const f = p.factor ?? 1;
    attention = f <= 1 ? 1 : Math.sqrt(1 + Math.log(f) / Math.log(p.original_max_position_embeddings));
  }
  return { w, attention };
}

// Phi-3-mini-128k's shape (head_dim 96, θ = 10000, L0 = 4096, max 131072), factors drawn in its ranges.
const R = 96;
const PHI3 = {
  rope_type: 'longrope',
  short_factor: Array.from({ length: R / 2 }, (_, i) => 1 + 0.05 * (i / (R / 2)) + 0.01 * random.next()),
  long_factor: Array.from({ length: R / 2 }, (_, i) => 1 + 60 * (i / (R / 2)) ** 2 + random.next()),
  original_max_position_embeddings: 4096,
  factor: 131072 / 4096,
};

test('frequencies and attention factor equal HF formulas in double (short up to L0, long past it)', () => {
  for (const scaling of [PHI3, { ...PHI3, attention_factor: 1.19 }, { ...PHI3, factor: undefined }]) {
    for (const length of [0, 100, 4096, 4097, 131072]) {
      const got = simd.ropeFrequencies({ headDim: R, scaling, length });
      const want = hfLongrope(R, 10000, scaling, length);
      got.frequencies.forEach((w, i) =>
        assert.ok(Math.abs(w - want.w[i]) <= 1e-12 * want.w[i], `w_${i} at L ${length}: ${w} vs ${want.w[i]}`),
      );
      assert.ok(
        Math.abs(got.attentionFactor - want.attention) <= 1e-15 * want.attention,
        `attention ${got.attentionFactor} vs ${want.attention}`,
      );
    }
  }
});

test('cos and sin follow the sequence length: short factors up to L0, long past it, times the attention factor', () => {
  const o = { headDim: R, scaling: PHI3 };
  for (const positions of [
    [0, 1, 77, 4095],
    [0, 1, 77, 4096],
  ]) {
    const seqLen = Math.max(...positions) + 1;
    const { w, attention } = hfLongrope(R, 10000, PHI3, seqLen);
    const { cos, sin } = simd.ropeCosSin({ ...o, positions, dtype: 'float64' });
    positions.forEach((p, l) => {
      for (let i = 0; i < R / 2; i++) {
        // p·w_i is below 4096 here: Math.cos/Math.sin of it are within about 1e-12.
        assert.ok(
          Math.abs(cos[l * (R / 2) + i] - attention * Math.cos(p * w[i])) < 1e-9,
          `cos p ${p} pair ${i} (L ${seqLen})`,
        );
        assert.ok(
          Math.abs(sin[l * (R / 2) + i] - attention * Math.sin(p * w[i])) < 1e-9,
          `sin p ${p} pair ${i} (L ${seqLen})`,
        );
      }
    });
  }
});

test('plans, rope() and both builds give the same bits; positionIds pick factors by the whole call', () => {
  const heads = 2;
  for (const order of ['blhd', 'bhld']) {
    for (const span of [
      { length: 9, offset: 4080 },
      { length: 9, offset: 4090 },
      { positions: [5, 4096, 3, 2 ** 31 - 1] },
    ]) {
      const length = span.length ?? span.positions.length;
      const x = random.floats(2 * length * heads * R, 4);
      const options = { heads, headDim: R, order, scaling: PHI3 };
      const want = simd.rope(x.slice(), { ...options, ...span });
      sameBits(scalar.rope(x.slice(), { ...options, ...span }), want, `scalar build, ${order} ${JSON.stringify(span)}`);
      const plan = simd.createRope({ ...options, maxPosition: 8192 });
      assert.is(plan.cachedPositions, 0, 'LongRoPE follows L: no cache');
      sameBits(plan.apply(x.slice(), span), want, `plan, ${order} ${JSON.stringify(span)}`);
      plan.free();
    }
  }
  // One batch item past L0 makes the whole call use the long factors, as HF's max(position_ids) + 1 does.
  const x = random.floats(2 * 3 * R, 4);
  const ids = [
    [0, 1, 2],
    [4200, 4201, 4202],
  ];
  const got = simd.rope(x.slice(), { heads: 1, headDim: R, scaling: PHI3, positionIds: ids });
  const first = simd.rope(x.slice(0, 3 * R), {
    heads: 1,
    headDim: R,
    scaling: { ...PHI3, short_factor: PHI3.long_factor },
    positions: ids[0],
  });
  sameBits(got.slice(0, 3 * R), first, 'item 0 rotated with the long factors');
});

test('LongRoPE refusals name the key', () => {
  const cases = [
    [{ ...PHI3, short_factor: PHI3.short_factor.slice(1) }, 'scaling.short_factor'],
    [{ ...PHI3, long_factor: PHI3.long_factor.map((v, i) => (i === 3 ? -1 : v)) }, 'scaling.long_factor[3]'],
    [{ ...PHI3, original_max_position_embeddings: undefined }, 'scaling.original_max_position_embeddings'],
    [{ ...PHI3, attention_factor: 0 }, 'scaling.attention_factor'],
    [{ ...PHI3, beta_fast: 32 }, 'scaling.beta_fast'],
  ];
  for (const [scaling, argument] of cases) {
    const x = new Float32Array(R).fill(0.5);
    try {
      simd.rope(x, { heads: 1, headDim: R, scaling, length: 1 });
      assert.unreachable(`${argument}: not refused`);
    } catch (error) {
      assert.ok(error instanceof PosencError, String(error));
      assert.is(error.code, 'BAD_SCALING');
      assert.is(error.argument, argument, error.message);
    }
    assert.ok(
      x.every((v) => v === 0.5),
      `x untouched after ${argument}`,
    );
  }
});

test.run();
