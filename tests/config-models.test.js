// The model table (tests/support/model-configs.js): each shipped config.json is
// read as shipped, and what posenc derives from it equals what HF transformers
// derives, by HF's formulas written out independently in float64
// (tests/support/rope-reference.js): RoPE frequencies and attention factors to
// 1e-12 relative, ALiBi slopes as the float32 nearest BLOOM's, T5 buckets,
// learned and sinusoidal descriptions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { MODELS } from './support/model-configs.js';
import {
  hfDefault,
  hfLinear,
  hfDynamic,
  hfYarn,
  hfLlama3,
  hfLongrope,
  bloomSlopes,
  maxRelative,
} from './support/rope-reference.js';
import { mropeCosSin, rotateHalf, qwen2vlPositionIds } from './support/qwen2vl-reference.js';

const posenc = await instantiate({ simd: true });
const TOLERANCE = 1e-12;

/** HF's inv_freq and attention factor for a RoPE layer as the table describes it (not read by posenc). */
function hfRope(layer, seqLen) {
  const { dim, base, type } = layer;
  const p = {
    factor: layer.factor,
    original_max_position_embeddings: layer.original,
    low_freq_factor: layer.low,
    high_freq_factor: layer.high,
    beta_fast: layer.betaFast,
    beta_slow: layer.betaSlow,
    mscale: layer.mscale,
    mscale_all_dim: layer.mscaleAllDim,
    short_factor: layer.short,
    long_factor: layer.long,
  };
  if (type === 'default') return { w: hfDefault(dim, base), attention: 1 };
  if (type === 'linear') return hfLinear(dim, base, p);
  if (type === 'dynamic') return hfDynamic(dim, base, p, seqLen);
  if (type === 'yarn') return hfYarn(dim, base, p);
  if (type === 'llama3') return hfLlama3(dim, base, p);
  if (type === 'longrope') return hfLongrope(dim, base, p, layer.max, seqLen);
  throw new Error(`no reference for ${type}`);
}

/** Until HF's longrope lands in the core, ropeFrequencies refuses it by name; afterwards it must match. */
function longropeLanded() {
  try {
    posenc.ropeFrequencies({
      headDim: 4,
      scaling: {
        rope_type: 'longrope',
        short_factor: [1, 1],
        long_factor: [1, 1],
        original_max_position_embeddings: 8,
      },
    });
    return true;
  } catch (error) {
    assert.is(error.code, 'BAD_SCALING');
    assert.match(error.message, /'longrope' is not supported yet/);
    return false;
  }
}

function checkRopeLayer(id, config, layerType, layer) {
  const options = layerType ? { config, layerType } : { config };
  const lengths =
    layer.type === 'dynamic' || layer.type === 'longrope' ? [0, layer.original, 2 * layer.original + 3] : [0];
  for (const length of lengths) {
    const want = hfRope(layer, length);
    if (layer.type === 'longrope' && !longropeLanded()) {
      assert.throws(
        () => posenc.ropeFrequencies({ ...options, length }),
        (e) => e.code === 'BAD_SCALING' && /longrope/.test(e.message),
      );
      continue;
    }
    const got = posenc.ropeFrequencies({ ...options, length });
    assert.is(got.frequencies.length, layer.dim / 2, `${id} ${layerType ?? ''}: rotaryDim / 2 frequencies`);
    const error = maxRelative(got.frequencies, want.w);
    assert.ok(error <= TOLERANCE, `${id} ${layerType ?? ''} L=${length}: frequencies off HF's by ${error} relative`);
    assert.ok(
      Math.abs(got.attentionFactor - want.attention) <= TOLERANCE * want.attention,
      `${id}: attention factor ${got.attentionFactor}, HF's ${want.attention}`,
    );
  }
}

/** A text-image-text prompt rotated with the config as shipped: HF's apply_multimodal_rotary_pos_emb in float64. */
function checkMrope(id, config, layer) {
  const ids = qwen2vlPositionIds(3, 8, 12, 4);
  const heads = 2;
  const x = Float32Array.from({ length: ids[0].length * heads * layer.dim }, (_, i) => Math.sin(i * 0.37));
  const got = posenc.rope(x.slice(), { config, heads, positionIds: ids.map((axis) => [axis]) });
  const { cos, sin } = mropeCosSin(ids, layer.dim, layer.base, layer.mropeSection);
  let worst = 0;
  for (let l = 0; l < cos.length; l++) {
    for (let h = 0; h < heads; h++) {
      const at = (l * heads + h) * layer.dim;
      const want = rotateHalf(Float64Array.from(x.subarray(at, at + layer.dim)), cos[l], sin[l]);
      for (let j = 0; j < layer.dim; j++) worst = Math.max(worst, Math.abs(got[at + j] - want[j]));
    }
  }
  assert.ok(worst <= 4 * 2 ** -23, `${id}: mrope off HF's formula by ${worst}`);
}

for (const { id, config, hf } of MODELS) {
  test(`${id}: read as shipped, HF's numbers`, () => {
    const text = JSON.stringify(config);
    const d = posenc.fromConfig(config);
    assert.is(JSON.stringify(config), text, 'fromConfig leaves the config untouched');
    assert.is(d.kind, hf.kind, `${id}: kind`);
    assert.ok(Array.isArray(d.ignored), 'ignored is a list of keys');
    if (hf.kind === 'rope') {
      const layers = hf.layers ?? { '': hf };
      if (hf.layers) assert.equal(Object.keys(d.layerTypes).sort(), Object.keys(hf.layers).sort());
      for (const [layerType, layer] of Object.entries(layers)) {
        const rope = layerType ? d.layerTypes[layerType] : d.rope;
        assert.is(rope.rotaryDim, layer.dim, `${id}: rotaryDim`);
        assert.is(rope.headDim, layer.headDim ?? layer.dim, `${id}: headDim`);
        assert.is(rope.base, layer.base, `${id}: base`);
        assert.is(rope.layout, layer.layout ?? 'half', `${id}: layout`);
        if (layer.mropeSection) {
          assert.equal(rope.scaling.mrope_section, layer.mropeSection);
          checkMrope(id, config, layer);
        }
        if (layer.type === 'longrope') {
          // The dict handed to the core's longrope: HF's names, the factor max/original (131072/4096 = 32).
          assert.equal(rope.scaling, {
            rope_type: 'longrope',
            short_factor: layer.short,
            long_factor: layer.long,
            original_max_position_embeddings: layer.original,
            factor: layer.max / layer.original,
          });
        }
        checkRopeLayer(id, config, layerType || undefined, layer);
      }
      // The text of config.json reads the same as the parsed object.
      assert.equal(posenc.fromConfig(text), d);
    }
    if (hf.kind === 'alibi') {
      assert.is(d.heads, hf.heads);
      const want = bloomSlopes(hf.heads).map(Math.fround);
      assert.equal(Array.from(d.slopes), want, `${id}: slopes are the float32 nearest BLOOM's`);
    }
    if (hf.kind === 'relative') {
      assert.equal(
        { numBuckets: d.numBuckets, maxDistance: d.maxDistance, heads: d.heads, scheme: d.scheme },
        { numBuckets: hf.numBuckets, maxDistance: hf.maxDistance, heads: hf.heads, scheme: 't5' },
      );
    }
    if (hf.kind === 'learned') {
      assert.equal(
        { maxPositions: d.maxPositions, dim: d.dim, positionOffset: d.positionOffset },
        { maxPositions: hf.maxPositions, dim: hf.dim, positionOffset: hf.positionOffset },
      );
    }
    if (hf.kind === 'sinusoidal') {
      assert.equal(
        { dim: d.dim, layout: d.layout, frequencies: d.frequencies, positionOffset: d.positionOffset },
        { dim: hf.dim, layout: hf.layout, frequencies: hf.frequencies, positionOffset: hf.positionOffset },
      );
    }
  });
}

test('the table holds at least 15 models of every kind', () => {
  assert.ok(MODELS.length >= 15);
  for (const kind of ['rope', 'alibi', 'relative', 'learned', 'sinusoidal'])
    assert.ok(
      MODELS.some((m) => m.hf.kind === kind),
      kind,
    );
});

test.run();
