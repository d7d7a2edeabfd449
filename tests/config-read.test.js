// Reading a config.json (posenc.h, "Model configs"): HF's fallbacks one by
// one, the keys listed as ignored, refusals that name the key (and leave the
// config untouched), layer types, and `config` in rope() giving the very bits
// of the same options spelled out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';

const posenc = await instantiate({ simd: false });
const llama = (extra) => ({
  model_type: 'llama',
  hidden_size: 256,
  num_attention_heads: 4,
  max_position_embeddings: 2048,
  ...extra,
});

function refused(config, code, key, call = () => posenc.fromConfig(config)) {
  const before = JSON.stringify(config);
  assert.throws(call, (e) => {
    assert.is(e.code, code, `code for ${key}`);
    assert.ok(e.message.includes(`'${key}'`), `message names '${key}': ${e.message}`);
    return true;
  });
  assert.is(JSON.stringify(config), before, 'config untouched');
}

test('head_dim from hidden_size / num_attention_heads, head_dim itself, and partial_rotary_factor (top level over the dict)', () => {
  assert.is(posenc.fromConfig(llama()).rope.headDim, 64);
  assert.is(posenc.fromConfig(llama({ head_dim: 32 })).rope.headDim, 32);
  assert.is(posenc.fromConfig(llama({ head_dim: null })).rope.headDim, 64, 'null means absent, as in HF');
  assert.is(posenc.fromConfig(llama({ partial_rotary_factor: 0.5 })).rope.rotaryDim, 32);
  assert.is(
    posenc.fromConfig(llama({ rope_parameters: { rope_type: 'default', partial_rotary_factor: 0.25 } })).rope.rotaryDim,
    16,
  );
  assert.is(
    posenc.fromConfig(llama({ partial_rotary_factor: 0.5, rope_parameters: { partial_rotary_factor: 0.25 } })).rope
      .rotaryDim,
    32,
  );
  // int(64 * 0.4) = 25 is odd: refused, never rounded quietly.
  refused(llama({ partial_rotary_factor: 0.4 }), 'BAD_SCALING', 'partial_rotary_factor');
});

test('base: the dict rope_theta over the top level one, rotary_emb_base, 10000', () => {
  assert.is(posenc.fromConfig(llama()).rope.base, 10000);
  assert.is(posenc.fromConfig(llama({ rope_theta: 5e5 })).rope.base, 5e5);
  assert.is(
    posenc.fromConfig(llama({ rope_theta: 5e5, rope_parameters: { rope_type: 'default', rope_theta: 1e6 } })).rope.base,
    1e6,
  );
  assert.is(
    posenc.fromConfig({ model_type: 'gpt_neox', hidden_size: 256, num_attention_heads: 4, rotary_emb_base: 20000 }).rope
      .base,
    20000,
  );
});

test('original_max_position_embeddings: top level (Phi-3) over the dict, the dict, then max_position_embeddings', () => {
  const yarn = (dict, extra) =>
    posenc.fromConfig(llama({ rope_scaling: { type: 'yarn', factor: 4, ...dict }, ...extra })).rope.scaling;
  assert.is(yarn({}).original_max_position_embeddings, 2048);
  assert.is(yarn({ original_max_position_embeddings: 512 }).original_max_position_embeddings, 512);
  assert.is(
    yarn({ original_max_position_embeddings: 512 }, { original_max_position_embeddings: 1024 })
      .original_max_position_embeddings,
    1024,
  );
  // yarn without factor: max_position_embeddings / original.
  assert.is(
    posenc.fromConfig(llama({ rope_scaling: { type: 'yarn', original_max_position_embeddings: 512 } })).rope.scaling
      .factor,
    4,
  );
  // dynamic: the legacy dict has no original; HF uses max_position_embeddings.
  assert.equal(posenc.fromConfig(llama({ rope_scaling: { type: 'dynamic', factor: 2 } })).rope.scaling, {
    rope_type: 'dynamic',
    factor: 2,
    original_max_position_embeddings: 2048,
  });
});

test('ignored: every key not read, dotted inside objects partly read', () => {
  const d = posenc.fromConfig(llama({ vocab_size: 32000, torch_dtype: 'bfloat16' }));
  assert.equal(d.ignored, ['vocab_size', 'torch_dtype']);
  const mpt = posenc.fromConfig({
    model_type: 'mpt',
    d_model: 64,
    n_heads: 4,
    attn_config: { alibi: true, attn_pdrop: 0 },
  });
  assert.equal(mpt.ignored, ['attn_config.attn_pdrop']);
  const gemma = posenc.fromConfig({
    model_type: 'gemma3',
    text_config: { hidden_size: 64, num_attention_heads: 2, model_type: 'gemma3_text', sliding_window: 4 },
    vision_config: {},
  });
  // Gemma 3's sliding_window is read by the per-layer answer (its sliding layers' window).
  assert.equal(gemma.ignored, ['vision_config']);
  // BLOOM's shipped config.json has offset_alibi, which HF's modeling_bloom.py never reads.
  const bloom = posenc.fromConfig({ model_type: 'bloom', hidden_size: 1024, n_head: 16, offset_alibi: 100 });
  assert.is(bloom.kind, 'alibi');
  assert.equal(bloom.ignored, ['offset_alibi']);
});

test('refusals name the key: unknown dict keys, unread position keys, bad values, malformed JSON, unknown models', () => {
  refused(
    llama({ rope_scaling: { rope_type: 'linear', factor: 2, beta_fast: 3 } }),
    'BAD_SCALING',
    'rope_scaling.beta_fast',
  );
  refused(llama({ rope_scaling: { rope_type: 'su' } }), 'BAD_SCALING', 'rope_scaling.rope_type');
  refused(
    llama({ rope_scaling: { rope_type: 'linear', type: 'dynamic', factor: 2 } }),
    'BAD_SCALING',
    'rope_scaling.type',
  );
  refused(llama({ rope_scaling: { rope_type: 'linear', factor: 'two' } }), 'BAD_SCALING', 'rope_scaling.factor');
  refused(llama({ rope_scaling: { rope_type: 'linear' } }), 'BAD_SCALING', 'rope_scaling.factor');
  refused(llama({ use_dynamic_ntk: true }), 'BAD_SCALING', 'use_dynamic_ntk');
  refused(llama({ rope_interleaved_pairs: true }), 'BAD_SCALING', 'rope_interleaved_pairs');
  refused(
    { model_type: 'bert', hidden_size: 64, max_position_embeddings: 8, position_embedding_type: 'relative_key_query' },
    'BAD_SCALING',
    'position_embedding_type',
  );
  refused(
    { model_type: 'mpt', n_heads: 4, attn_config: { alibi: true, alibi_bias_max: 16 } },
    'BAD_SCALING',
    'attn_config.alibi_bias_max',
  );
  refused({ model_type: 'rwkv', hidden_size: 64 }, 'BAD_CONFIG', 'model_type');
  // State-space models are an answer, not an error: no layer has positions (issue 23).
  assert.is(posenc.fromConfig({ model_type: 'mamba', hidden_size: 64 }).kind, 'none');
  refused('{"model_type": "llama",}', 'BAD_CONFIG', '(config)');
  refused('[1, 2]', 'BAD_CONFIG', '(config)');
  assert.throws(
    () => posenc.fromConfig(null),
    (e) => e.code === 'BAD_CONFIG' && e.argument === 'config',
  );
  // Off switches are not refused: they are listed as ignored.
  assert.equal(posenc.fromConfig(llama({ use_dynamic_ntk: false })).ignored, ['use_dynamic_ntk']);
});

test("ViT: ViTConfig's defaults, HF's floored patch count plus the [CLS] row; a patch larger than the image refused", () => {
  const vit = (extra) => ({
    model_type: 'vit',
    hidden_size: 64,
    num_attention_heads: 4,
    num_hidden_layers: 2,
    ...extra,
  });
  assert.is(posenc.fromConfig(vit()).maxPositions, 14 * 14 + 1, 'image_size 224, patch_size 16 when absent');
  assert.is(posenc.fromConfig(vit({ image_size: 384, patch_size: 32 })).maxPositions, 12 * 12 + 1);
  assert.is(posenc.fromConfig(vit({ image_size: 250, patch_size: 16 })).maxPositions, 15 * 15 + 1, 'floored');
  refused(vit({ image_size: 8, patch_size: 16 }), 'BAD_CONFIG', 'patch_size');
  refused(vit({ image_size: [224, 224] }), 'BAD_CONFIG', 'image_size');
  refused(vit({ hidden_size: undefined }), 'BAD_CONFIG', 'hidden_size');
});

test('layer types: named, listed when missing, refused when unknown', () => {
  const config = llama({
    layer_types: ['full_attention', 'sliding_attention'],
    rope_parameters: {
      full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1e6 },
      sliding_attention: { rope_type: 'default', rope_theta: 1e4 },
    },
  });
  const d = posenc.fromConfig(config);
  assert.equal(Object.keys(d.layerTypes), ['full_attention', 'sliding_attention']);
  assert.equal(
    posenc.ropeFrequencies({ config, layerType: 'full_attention' }).frequencies,
    posenc.ropeFrequencies({ headDim: 64, base: 1e6, scaling: { rope_type: 'linear', factor: 8 } }).frequencies,
  );
  refused(config, 'BAD_LAYER_TYPE', 'full_attention', () => posenc.ropeFrequencies({ config }));
  refused(config, 'BAD_LAYER_TYPE', 'sliding_attention', () => posenc.ropeFrequencies({ config, layerType: 'local' }));
  assert.throws(
    () => posenc.ropeFrequencies({ headDim: 8, layerType: 'full_attention' }),
    (e) => e.code === 'BAD_OPTIONS',
  );
});

test('config in rope(): the same bits as the options spelled out; GPT-J rotates adjacent pairs', () => {
  const gptj = { model_type: 'gptj', n_embd: 64, n_head: 2, rotary_dim: 16, n_positions: 64 };
  const x = Float32Array.from({ length: 3 * 2 * 32 }, (_, i) => Math.sin(i * 0.37));
  const viaConfig = posenc.rope(x.slice(), { config: gptj, length: 3, offset: 5 });
  const spelled = posenc.rope(x.slice(), {
    headDim: 32,
    rotaryDim: 16,
    heads: 2,
    layout: 'interleaved',
    length: 3,
    offset: 5,
  });
  assert.equal(viaConfig, spelled);
  assert.not.equal(viaConfig, posenc.rope(x.slice(), { headDim: 32, rotaryDim: 16, heads: 2, length: 3, offset: 5 }));
  refused(gptj, 'BAD_OPTIONS', 'headDim', () => posenc.rope(x.slice(), { config: gptj, headDim: 32, length: 3 }));
  refused({ model_type: 'gpt2', n_positions: 8, n_embd: 8 }, 'BAD_CONFIG', 'config', () =>
    posenc.ropeFrequencies({ config: { model_type: 'gpt2', n_positions: 8, n_embd: 8 } }),
  );
});

test('mrope: the frequencies are default ones; rope() takes the sections with 3-D position ids, plain ids as plain RoPE', () => {
  const qwen = llama({ model_type: 'qwen2_vl', rope_scaling: { type: 'mrope', mrope_section: [8, 12, 12] } });
  assert.equal(
    posenc.ropeFrequencies({ config: qwen }).frequencies,
    posenc.ropeFrequencies({ headDim: 64 }).frequencies,
  );
  const x = Float32Array.from({ length: 4 * 64 }, (_, i) => Math.cos(i));
  const plain = posenc.rope(x.slice(), { headDim: 64, heads: 4, length: 1, offset: 9 });
  assert.equal(posenc.rope(x.slice(), { config: qwen, length: 1, offset: 9 }), plain);
  assert.equal(posenc.rope(x.slice(), { config: qwen, positions: [[9], [9], [9]] }), plain);
  const spatial = posenc.rope(x.slice(), { config: qwen, positions: [[9], [3], [5]] });
  assert.equal(
    spatial,
    posenc.rope(x.slice(), { headDim: 64, heads: 4, mropeSection: [8, 12, 12], positions: [[9], [3], [5]] }),
  );
  assert.not.equal(spatial, plain);
  assert.throws(
    () => posenc.rope(x, { config: qwen, mropeSection: [8, 8, 16], positions: [[9], [3], [5]] }),
    (e) => e.code === 'BAD_AXES' && /mrope_section/.test(e.message),
  );
});

test.run();
