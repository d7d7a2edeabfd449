// Every config of the corpus (tests/fixtures/configs, as shipped) read layer by
// layer: posenc's fromConfig().layers and ropeFrequencies({ config, layer })
// against HF's modeling code written out independently in float64
// (support/hf-layers.js): each layer's kind, scheme (or none, and why), key/value
// heads, RoPE head and rotary dims, base, layout, frequencies and attention
// factor (1e-12 relative, at lengths 0, the original context and past it); the
// query scale by position (Ministral 3, Llama 4's NoPE layers); ALiBi
// heads; learned and sinusoidal tables; T5 buckets. Keys that are truly unknown
// are refused naming their path; rope({ config, layer }) refuses NoPE layers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { instantiate } from '../src/js/index.js';
import { hfLayers, hfRopeLayer, textModel, learnedOffset, learnedRows } from './support/hf-layers.js';
import { maxRelative } from './support/rope-reference.js';

const posenc = await instantiate({ simd: true });
const INDEX = JSON.parse(readFileSync(new URL('./fixtures/configs-index.json', import.meta.url), 'utf8'));
const text = (file) => readFileSync(new URL(`./fixtures/configs/${file}`, import.meta.url), 'utf8');
const TOLERANCE = 1e-12;

// Positions where a query scale is compared: around the steps of floor((p + shift) / length), and far out.
const SCALE_POSITIONS = (length) => [
  0,
  1,
  length - 2,
  length - 1,
  length,
  2 * length - 1,
  2 * length,
  7 * length + 3,
  1e6,
  2 ** 31 - 1,
];

/** Asserts posenc's query scale (the layer's queryScale) is the one HF's modeling code applies (w.queryScale). */
function queryScaleAgrees(got, want, where) {
  if (!want) {
    assert.is(got, undefined, `${where}: no query scale`);
    return;
  }
  assert.ok(got, `${where}: a query scale`);
  // posenc.h's formula, evaluated here from the reported fields.
  const scale = (p) => 1 + got.beta * Math.log(1 + Math.floor((p + got.shift) / got.length));
  for (const p of SCALE_POSITIONS(got.length)) {
    const e = Math.abs(scale(p) - want(p)) / want(p);
    assert.ok(e <= 1e-15, `${where}, position ${p}: query scale ${scale(p)}, HF ${want(p)}`);
  }
}

for (const entry of INDEX.entries) {
  test(`${entry.model}: every layer as HF's modeling code builds it`, () => {
    const configText = text(entry.file);
    const config = JSON.parse(configText);
    const got = posenc.fromConfig(configText);
    const want = hfLayers(config);
    assert.is(got.layers.length, want.length, 'layer count');
    // The whole model's key/value heads are its attention layers' (Gemma 3's text_config default included).
    const attention = want.find((w) => w.kvHeads > 0);
    if (attention && got.kvHeads !== undefined) assert.is(got.kvHeads, attention.kvHeads, "the model's kv heads");
    const { type, get } = textModel(config);
    const checkedTypes = new Map();
    want.forEach((w, i) => {
      const g = got.layers[i];
      const where = `layer ${i}`;
      assert.is(g.index, i, where);
      assert.is(g.kind, w.kind, `${where}: kind`);
      assert.is(g.kvHeads, w.kvHeads, `${where}: kv heads`);
      assert.is(g.attentionChunk ?? 0, w.chunk, `${where}: attention chunk`);
      assert.is(g.slidingWindow ?? 0, w.window, `${where}: sliding window`);
      assert.is(g.slidingBidirectional === true, w.bidirectional, `${where}: two-sided window`);
      queryScaleAgrees(g.queryScale, w.queryScale, where);
      if (w.positions === 'nope' || w.positions === 'no-attention') {
        assert.is(g.scheme, 'none', `${where}: scheme`);
        assert.is(g.none, w.positions, `${where}: why none`);
        assert.throws(
          () => posenc.ropeFrequencies({ config: configText, layer: i }),
          (e) => e.code === 'NO_POSITIONS',
          `${where}: ropeFrequencies refuses a layer without positions`,
        );
        return;
      }
      assert.is(g.scheme, w.positions, `${where}: scheme`);
      if (w.positions === 'rope') {
        const h = hfRopeLayer(config, w.kind);
        assert.is(g.rope.headDim, h.headDim, `${where}: head dim`);
        assert.is(g.rope.rotaryDim, h.rotaryDim, `${where}: rotary dim`);
        assert.is(g.rope.base, h.base, `${where}: base`);
        assert.is(g.rope.layout, h.layout, `${where}: layout`);
        if (h.mrope) {
          assert.equal(g.rope.scaling.mrope_section, h.mrope.section, `${where}: mrope sections`);
          assert.is(g.rope.scaling.mrope_interleaved === true, h.mrope.interleaved, `${where}: interleaved mrope`);
        }
        const key = g.layerType ?? '';
        if (checkedTypes.has(key)) return; // the frequencies of a layer type are checked once
        checkedTypes.set(key, true);
        // A config with no context length (Falcon-40B's first one): unscaled RoPE, any length will do.
        const original = h.original ?? 2048;
        for (const length of [0, original, 2 * original + 3]) {
          const f = posenc.ropeFrequencies({ config: configText, layer: i, length });
          const r = h.at(length);
          const e = maxRelative(f.frequencies, r.w);
          assert.ok(e <= TOLERANCE, `${where}, length ${length}: frequencies ${e} relative from HF's`);
          assert.ok(
            Math.abs(f.attentionFactor - r.attention) <= TOLERANCE * r.attention,
            `${where}: attention factor ${f.attentionFactor}, HF ${r.attention}`,
          );
        }
      } else if (w.positions === 'alibi') {
        assert.is(g.heads, get('num_attention_heads') ?? get('n_head') ?? get('n_heads'), `${where}: heads`);
      } else if (w.positions === 'learned') {
        assert.is(g.dim, get('hidden_size') ?? get('n_embd') ?? get('d_model'), `${where}: dim`);
        assert.is(g.positionOffset, type === 'whisper' ? 0 : learnedOffset(type), `${where}: offset`);
        assert.is(g.maxPositions, learnedRows(config), `${where}: rows`);
      } else if (w.positions === 'sinusoidal') {
        // Whisper's sinusoids(): [sin | cos] halves, log(10000) / (d/2 - 1) steps, from row 0.
        assert.equal([g.dim, g.layout, g.frequencies, g.positionOffset], [get('d_model'), 'split', 'tensor2tensor', 0]);
        assert.is(g.maxPositions, get('max_source_positions'), `${where}: rows`);
      } else if (w.positions === 'relative') {
        assert.equal(
          [g.relative, g.numBuckets, g.maxDistance],
          ['t5', get('relative_attention_num_buckets'), get('relative_attention_max_distance')],
          `${where}: T5 buckets`,
        );
      }
    });
  });
}

// Llama 4 Scout's (base, 16E) text model as its config.json describes it (no whole copy of the published file was
// found in the stored sources, so this object is not in the corpus; its values are the ones its loaded config shows):
// no_rope_layers empty, so every 4th layer is NoPE by no_rope_layer_interval, and attention_chunk_size on the RoPE
// layers. The Instruct model's llama3 scaling has low_freq_factor = high_freq_factor (no middle band): tested below.
const scout = () => ({
  architectures: ['Llama4ForConditionalGeneration'],
  model_type: 'llama4',
  text_config: {
    model_type: 'llama4_text',
    attention_chunk_size: 8192,
    head_dim: 128,
    hidden_size: 5120,
    num_attention_heads: 40,
    num_hidden_layers: 48,
    num_key_value_heads: 8,
    max_position_embeddings: 262144,
    no_rope_layers: [],
    rope_scaling: {
      factor: 8.0,
      high_freq_factor: 4.0,
      low_freq_factor: 1.0,
      original_max_position_embeddings: 8192,
      rope_type: 'llama3',
    },
    rope_theta: 500000.0,
  },
});

test('Llama 4: chunked_attention on its RoPE layers (attention_chunk_size), full_attention on its NoPE ones', () => {
  const agree = (config, why) => {
    const got = posenc.fromConfig(config).layers;
    const want = hfLayers(config);
    assert.is(got.length, want.length, why);
    want.forEach((w, i) => {
      assert.equal(
        [got[i].kind, got[i].scheme === 'none' ? 'nope' : got[i].scheme, got[i].attentionChunk ?? 0],
        [w.kind, w.positions, w.chunk],
        `${why}, layer ${i}`,
      );
    });
    return got;
  };
  const layers = agree(scout(), 'as shipped');
  assert.equal(
    [layers[0].kind, layers[0].attentionChunk, layers[3].kind, layers[3].attentionChunk],
    ['chunked_attention', 8192, 'full_attention', undefined],
  );
  const set = (key, value) => {
    const c = scout();
    c.text_config[key] = value;
    return c;
  };
  assert.is(agree(set('attention_chunk_size', 1024), 'chunk 1024')[0].attentionChunk, 1024);
  assert.is(agree(set('attention_chunk_size', null), 'chunk null')[0].attentionChunk, undefined);
  const absent = scout();
  delete absent.text_config.attention_chunk_size;
  assert.is(agree(absent, "Llama4TextConfig's default")[0].attentionChunk, 8192);
  const listed = set(
    'layer_types',
    Array.from({ length: 48 }, (_, i) => (i % 2 ? 'full_attention' : 'chunked_attention')),
  );
  assert.equal(
    agree(listed, 'layer_types listed')
      .slice(0, 4)
      .map((l) => l.attentionChunk ?? 0),
    [8192, 0, 8192, 0],
  );
  for (const bad of ['8192', 0, -1, 1.5, [8192]]) {
    assert.throws(
      () => posenc.fromConfig(set('attention_chunk_size', bad)),
      (e) => e.code === 'BAD_CONFIG' && e.message.includes("'text_config.attention_chunk_size'"),
      `attention_chunk_size ${JSON.stringify(bad)}`,
    );
  }
  // The chunked layers rotate with Llama 4's llama3 scaling; the NoPE ones refuse.
  const f = posenc.ropeFrequencies({ config: scout(), layer: 0, length: 8192 });
  const r = hfRopeLayer(scout(), 'chunked_attention').at(8192);
  assert.ok(maxRelative(f.frequencies, r.w) <= TOLERANCE);
  assert.throws(
    () => posenc.ropeFrequencies({ config: scout(), layer: 3 }),
    (e) => e.code === 'NO_POSITIONS',
  );
});

// Cohere 2 (Command R7B's model type; no whole copy of its published file was found, so this object is not in the
// corpus): Cohere2Attention rotates only where the layer slides, and every sliding_window_pattern-th layer is
// full attention without positions. Checked against hf-layers.js's reading of the class.
test('Cohere 2: sliding layers rotate, every 4th layer is full attention without positions', () => {
  const r7b = (change = {}) => ({
    model_type: 'cohere2',
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_hidden_layers: 32,
    rope_theta: 50000.0,
    sliding_window: 4096,
    sliding_window_pattern: 4,
    ...change,
  });
  for (const [config, why] of [
    [r7b(), 'pattern 4'],
    [r7b({ sliding_window_pattern: 3 }), 'pattern 3'],
    [r7b({ sliding_window_pattern: undefined }), "Cohere2Config's default pattern"],
  ]) {
    const got = posenc.fromConfig(JSON.parse(JSON.stringify(config))).layers;
    const want = hfLayers(JSON.parse(JSON.stringify(config)));
    assert.is(got.length, 32, why);
    want.forEach((w, i) => {
      assert.equal(
        [got[i].kind, got[i].scheme === 'none' ? 'nope' : got[i].scheme, got[i].slidingWindow ?? 0, got[i].kvHeads],
        [w.kind, w.positions, w.window, w.kvHeads],
        `${why}, layer ${i}`,
      );
    });
    assert.ok(got.some((l) => l.scheme === 'none') && got.some((l) => l.scheme === 'rope'), why);
  }
  const layers = posenc.fromConfig(r7b()).layers;
  assert.equal(
    layers.slice(0, 4).map((l) => [l.kind, l.scheme]),
    [
      ['sliding_attention', 'rope'],
      ['sliding_attention', 'rope'],
      ['sliding_attention', 'rope'],
      ['full_attention', 'none'],
    ],
  );
});

test('Llama 4 Instruct: llama3 scaling with low_freq_factor = high_freq_factor (no middle band), as HF computes it', () => {
  const instruct = scout();
  instruct.text_config.rope_scaling = {
    factor: 16.0,
    high_freq_factor: 1.0,
    low_freq_factor: 1.0,
    original_max_position_embeddings: 8192,
    rope_type: 'llama3',
  };
  const f = posenc.ropeFrequencies({ config: instruct, layer: 0, length: 8192 });
  const r = hfRopeLayer(instruct, 'chunked_attention').at(8192);
  assert.ok(maxRelative(f.frequencies, r.w) <= TOLERANCE);
  // Two bands only: every frequency is w_i or w_i / 16, and both occur.
  const plain = posenc.ropeFrequencies({ headDim: 128, base: 500000 }).frequencies;
  const kinds = new Set(
    Array.from(f.frequencies, (w, i) => (w === plain[i] ? 'kept' : w === plain[i] / 16 ? 'scaled' : 'other')),
  );
  assert.equal([...kinds].sort(), ['kept', 'scaled']);
  const below = { ...instruct.text_config.rope_scaling, high_freq_factor: 0.5 };
  assert.throws(
    () => posenc.ropeFrequencies({ headDim: 128, base: 500000, scaling: below }),
    (e) => e.code === 'BAD_SCALING' && e.message.includes('high_freq_factor'),
  );
});

/** Asserts every layer's sliding window is the one HF's classes give (hfLayers); returns posenc's windows. */
function windowsAgree(config, why) {
  const got = posenc.fromConfig(config).layers;
  const want = hfLayers(config);
  assert.is(got.length, want.length, why);
  want.forEach((w, i) => assert.is(got[i].slidingWindow ?? 0, w.window, `${why}, layer ${i}`));
  return got.map((l) => l.slidingWindow ?? 0);
}

// Sliding windows as each model's class reads sliding_window (support/hf-layers.js's windowOf, from the config
// classes and attention modules): the corpus's own values, then the rules each one has: class defaults, an
// explicit null, Qwen's use_sliding_window and max_window_layers, layer_types, malformed values refused by name.
test('sliding windows: each layer reads its window as its model does', () => {
  const corpus = (file) => JSON.parse(text(file));
  // The shipped values: Gemma 2's 4096 on its even layers, gpt-oss's 128 on its sliding ones, Phi-3's 2047 everywhere.
  assert.equal(windowsAgree(corpus('gemma-2-2b.json'), 'gemma-2-2b').slice(0, 4), [4096, 0, 4096, 0]);
  assert.equal(windowsAgree(corpus('gpt-oss-120b.json'), 'gpt-oss-120b').slice(0, 2), [128, 0]);
  assert.equal(new Set(windowsAgree(corpus('phi-3-mini-4k-instruct.json'), 'phi-3-mini-4k')), new Set([2047]));
  assert.equal(new Set(windowsAgree(corpus('mistral-7b-instruct-v0.3.json'), 'mistral v0.3: null')), new Set([0]));
  assert.equal(windowsAgree(corpus('gemma-3-1b-it.json'), 'gemma-3-1b').slice(4, 7), [512, 0, 512]);
  const edit = (file, change) => {
    const c = corpus(file);
    const t = c.text_config ?? c;
    for (const [key, value] of Object.entries(change))
      if (value === undefined) delete t[key];
      else t[key] = value;
    return c;
  };
  // Class defaults when the key is absent: MistralConfig 4096, Phi3Config None.
  assert.equal(
    new Set(windowsAgree(edit('mistral-7b-instruct-v0.3.json', { sliding_window: undefined }), 'mistral')),
    new Set([4096]),
  );
  assert.equal(
    new Set(windowsAgree(edit('phi-3-mini-4k-instruct.json', { sliding_window: undefined }), 'phi-3')),
    new Set([0]),
  );
  assert.equal(windowsAgree(edit('gemma-2-2b.json', { sliding_window: undefined }), 'gemma 2').slice(0, 2), [4096, 0]);
  assert.equal(windowsAgree(edit('gemma-2-2b.json', { sliding_window: null }), 'gemma 2 null').slice(0, 2), [0, 0]);
  // Qwen: nothing slides unless use_sliding_window; then the layers from max_window_layers on, or layer_types'.
  assert.equal(new Set(windowsAgree(corpus('qwen3-8b.json'), 'qwen3 as shipped')), new Set([0]));
  const qwen = windowsAgree(
    edit('qwen3-8b.json', { use_sliding_window: true, sliding_window: 1024, max_window_layers: 30 }),
    'q',
  );
  assert.equal([qwen[29], qwen[30], qwen[35]], [0, 1024, 1024]);
  const defaults = { use_sliding_window: true, sliding_window: undefined, max_window_layers: undefined };
  const absent = windowsAgree(edit('qwen3-8b.json', defaults), 'Qwen3Config defaults');
  assert.equal([absent[27], absent[28]], [0, 4096]);
  assert.equal(
    new Set(
      windowsAgree(edit('qwen2.5-vl-7b-instruct.json', { use_sliding_window: true }), 'qwen2.5-vl: from layer 80'),
    ),
    new Set([0]),
  );
  const typed = Array.from({ length: 36 }, (_, i) => (i % 3 ? 'full_attention' : 'sliding_attention'));
  const listed = { use_sliding_window: true, sliding_window: 64, layer_types: typed };
  assert.equal(windowsAgree(edit('qwen3-8b.json', listed), 'qwen3 layer_types').slice(0, 4), [64, 0, 0, 64]);
  // A model whose class never reads sliding_window leaves it ignored and answers no window.
  const llama = edit('llama-3.1-8b-instruct.json', { sliding_window: 4096 });
  assert.equal(new Set(windowsAgree(llama, 'llama')), new Set([0]));
  assert.ok(posenc.fromConfig(llama).ignored.includes('sliding_window'));
  assert.not.ok(posenc.fromConfig(corpus('gemma-2-2b.json')).ignored.includes('sliding_window'));
  for (const bad of ['4096', 0, -1, 1.5, [4096], 2 ** 32]) {
    assert.throws(
      () => posenc.fromConfig(edit('gemma-2-2b.json', { sliding_window: bad })),
      (e) => e.code === 'BAD_CONFIG' && e.message.includes("'sliding_window'"),
      `sliding_window ${JSON.stringify(bad)}`,
    );
  }
});

// Qwen2-MoE and Qwen3-MoE read sliding_window their own way (support/hf-layers.js's windowOf, from transformers'
// configuration_qwen2_moe.py, configuration_qwen3_moe.py and their modular files): both only with
// use_sliding_window; Qwen2-MoE then on its sliding_attention layers, by default the even layers below
// max_window_layers; Qwen3-MoE on every layer, max_window_layers unread (so left in `ignored`).
test('sliding windows: Qwen2-MoE and Qwen3-MoE as their classes read them', () => {
  const moe = (type, change) => {
    const c = { ...JSON.parse(text('qwen3-30b-a3b.json')), model_type: type };
    for (const [key, value] of Object.entries(change))
      if (value === undefined) delete c[key];
      else c[key] = value;
    return c;
  };
  // As shipped (use_sliding_window false, max_window_layers 48): no window, and Qwen3-MoE never reads the count.
  assert.equal(new Set(windowsAgree(moe('qwen3_moe', {}), 'qwen3-30b-a3b')), new Set([0]));
  const shipped = posenc.fromConfig(text('qwen3-30b-a3b.json')).ignored;
  assert.ok(shipped.includes('max_window_layers'), 'Qwen3-MoE leaves max_window_layers unread');
  assert.not.ok(shipped.includes('use_sliding_window'));
  // Qwen3-MoE: every layer once use_sliding_window is on (the class default 4096 when absent).
  const on = { use_sliding_window: true, sliding_window: 1024 };
  assert.equal(new Set(windowsAgree(moe('qwen3_moe', on), 'qwen3 moe on')), new Set([1024]));
  const absent = windowsAgree(
    moe('qwen3_moe', { use_sliding_window: true, sliding_window: undefined }),
    'qwen3 moe default',
  );
  assert.equal(new Set(absent), new Set([4096]));
  assert.equal(
    new Set(windowsAgree(moe('qwen3_moe', { ...on, max_window_layers: 3 }), 'qwen3 moe count')),
    new Set([1024]),
  );
  // Qwen2-MoE: the even layers below max_window_layers (48 here, then 28 by default, then 5).
  const q2 = windowsAgree(moe('qwen2_moe', on), 'qwen2 moe');
  assert.equal([q2[0], q2[1], q2[2], q2[46], q2[47]], [1024, 0, 1024, 1024, 0]);
  const q2default = windowsAgree(moe('qwen2_moe', { ...on, max_window_layers: undefined }), 'qwen2 moe default count');
  assert.equal([q2default[26], q2default[27], q2default[28], q2default[30]], [1024, 0, 0, 0]);
  const q2five = windowsAgree(moe('qwen2_moe', { ...on, max_window_layers: 5 }), 'qwen2 moe five');
  assert.equal(q2five.slice(0, 7), [1024, 0, 1024, 0, 1024, 0, 0]);
  assert.equal(new Set(windowsAgree(moe('qwen2_moe', { max_window_layers: 5 }), 'qwen2 moe off')), new Set([0]));
  const typed = Array.from({ length: 48 }, (_, i) => (i % 3 ? 'full_attention' : 'sliding_attention'));
  assert.equal(
    windowsAgree(moe('qwen2_moe', { ...on, layer_types: typed }), 'qwen2 moe typed').slice(0, 4),
    [1024, 0, 0, 1024],
  );
  for (const type of ['qwen2_moe', 'qwen3_moe'])
    assert.throws(
      () => posenc.fromConfig(moe(type, { use_sliding_window: true, sliding_window: -1 })),
      (e) => e.code === 'BAD_CONFIG' && e.message.includes("'sliding_window'"),
      type,
    );
});

// ModernBERT (an encoder): its sliding_attention layers see local_attention // 2 keys on each side, as
// ModernBertConfig.sliding_window and masking_utils' bidirectional overlay give it (support/hf-layers.js).
test('sliding windows: ModernBERT local layers reach local_attention // 2 both ways', () => {
  const base = JSON.parse(text('modernbert-large-zeroshot-v2.0.json'));
  const read = (change) => {
    const c = { ...base, ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete c[key];
    const got = posenc.fromConfig(c);
    const want = hfLayers(c);
    want.forEach((w, i) => {
      assert.is(got.layers[i].slidingWindow ?? 0, w.window, `layer ${i}`);
      assert.is(got.layers[i].slidingBidirectional === true, w.bidirectional, `layer ${i}: two-sided`);
    });
    return got;
  };
  const shipped = read({});
  assert.equal(
    shipped.layers.slice(0, 4).map((l) => [l.kind, l.slidingWindow ?? 0, l.slidingBidirectional ?? false]),
    [
      ['full_attention', 0, false],
      ['sliding_attention', 64, true],
      ['sliding_attention', 64, true],
      ['full_attention', 0, false],
    ],
  );
  assert.not.ok(shipped.ignored.includes('local_attention'), 'local_attention is read');
  assert.is(read({ local_attention: undefined }).layers[1].slidingWindow, 64, "ModernBertConfig's 128");
  assert.is(read({ local_attention: 257 }).layers[2].slidingWindow, 128, 'floor division');
  // A v5-style file listing layer_types: the listed sliding layers slide, whatever global_attn_every_n_layers says.
  const kinds = Array.from({ length: base.num_hidden_layers }, (_, i) =>
    i % 2 ? 'sliding_attention' : 'full_attention',
  );
  const typed = { layer_types: kinds };
  assert.equal(
    read(typed)
      .layers.slice(0, 3)
      .map((l) => l.slidingWindow ?? 0),
    [0, 64, 0],
  );
  for (const bad of [1, 0, -2, 2.5, '128', null, [128]]) {
    assert.throws(
      () => posenc.fromConfig({ ...base, local_attention: bad }),
      (e) => e.code === 'BAD_CONFIG' && e.message.includes("'local_attention'"),
      `local_attention ${JSON.stringify(bad)}`,
    );
  }
});

// The query scale (posenc.h, "query scale"): Ministral 3 multiplies every layer's queries by
// 1 + beta ln(1 + floor(p / L)) from its rope dict, Llama 4 its NoPE layers' by 1 + attn_scale ln(1 + floor((p + 1) /
// floor_scale)) under attn_temperature_tuning; each against support/hf-layers.js's queryScaleOf (HF's code).
test('query scale: Ministral 3 on every layer, Llama 4 on its NoPE layers, as HF scales the queries', () => {
  const devstral = () => JSON.parse(text('devstral-small-2-24b-instruct.json'));
  const agree = (config, why) => {
    const got = posenc.fromConfig(config);
    hfLayers(config).forEach((w, i) => queryScaleAgrees(got.layers[i].queryScale, w.queryScale, `${why}, layer ${i}`));
    return got;
  };
  const shipped = agree(devstral(), 'devstral');
  assert.equal(
    new Set(shipped.layers.map((l) => JSON.stringify(l.queryScale))),
    new Set(['{"beta":0.1,"length":8192,"shift":0}']),
  );
  assert.not.ok(
    shipped.ignored.some((k) => k.includes('llama_4_scaling_beta')),
    'llama_4_scaling_beta is read',
  );
  // Ministral 3's steps at p = 8192, Llama 4's one position earlier (its + 1).
  const ministral = shipped.layers[0].queryScale;
  const step = (q, p) => 1 + q.beta * Math.log(1 + Math.floor((p + q.shift) / q.length));
  assert.equal([step(ministral, 8191), step(ministral, 8192)], [1, 1 + 0.1 * Math.log(2)]);
  const edited = (change) => {
    const c = devstral();
    Object.assign(c.text_config.rope_parameters, change);
    for (const [key, value] of Object.entries(change))
      if (value === undefined) delete c.text_config.rope_parameters[key];
    return c;
  };
  assert.is(agree(edited({ llama_4_scaling_beta: 0.25 }), 'beta 0.25').layers[7].queryScale.beta, 0.25);
  assert.is(agree(edited({ original_max_position_embeddings: 4096 }), 'L 4096').layers[7].queryScale.length, 4096);
  for (const key of ['llama_4_scaling_beta', 'original_max_position_embeddings'])
    assert.throws(
      () => posenc.fromConfig(edited({ [key]: undefined })),
      (e) => e.code === 'BAD_CONFIG' && e.message.includes(`'text_config.rope_parameters.${key}'`),
      `${key} absent: HF's forward fails`,
    );
  assert.throws(
    () => posenc.fromConfig(edited({ llama_4_scaling_beta: '0.1' })),
    (e) => e.code === 'BAD_SCALING' && e.message.includes("'text_config.rope_parameters.llama_4_scaling_beta'"),
  );
  // Another model's dict does not take the key (MistralAttention scales nothing).
  const mistral = JSON.parse(text('mistral-7b-instruct-v0.3.json'));
  mistral.rope_scaling = { rope_type: 'default', llama_4_scaling_beta: 0.1 };
  assert.throws(
    () => posenc.fromConfig(mistral),
    (e) => e.code === 'BAD_SCALING' && e.message.includes("'rope_scaling.llama_4_scaling_beta'"),
  );
  // Ministral3Attention slides on every layer when sliding_window is set.
  const sliding = devstral();
  sliding.text_config.sliding_window = 4096;
  assert.equal(new Set(windowsAgree(sliding, 'devstral sliding')), new Set([4096]));

  // Llama 4: Llama4TextConfig's defaults turn it on; its NoPE layers only.
  const llama = (change) => {
    const c = scout();
    for (const [key, value] of Object.entries(change))
      if (value === undefined) delete c.text_config[key];
      else c.text_config[key] = value;
    return c;
  };
  const byDefault = agree(llama({}), 'scout').layers;
  assert.equal([byDefault[0].queryScale, byDefault[3].queryScale], [undefined, { beta: 0.1, length: 8192, shift: 1 }]);
  assert.is(step(byDefault[3].queryScale, 8191), 1 + 0.1 * Math.log(2));
  const tuned = agree(llama({ attn_temperature_tuning: 4, floor_scale: 1024, attn_scale: 0.2 }), 'tuned');
  assert.equal(tuned.layers[7].queryScale, { beta: 0.2, length: 1024, shift: 1 });
  assert.not.ok(tuned.ignored.some((k) => /attn_temperature_tuning|floor_scale|attn_scale/.test(k)));
  for (const off of [false, 0, null])
    assert.is(agree(llama({ attn_temperature_tuning: off }), `tuning ${off}`).layers[3].queryScale, undefined);
  const bad = [
    ['attn_temperature_tuning', 'yes'],
    ['floor_scale', 0],
    ['floor_scale', -8192],
    ['floor_scale', '8192'],
    ['floor_scale', null],
    ['attn_scale', null],
    ['attn_scale', [0.1]],
  ];
  for (const [key, value] of bad)
    assert.throws(
      () => posenc.fromConfig(llama({ [key]: value })),
      (e) => e.code === 'BAD_CONFIG' && e.message.includes(`'text_config.${key}'`),
      `${key} ${JSON.stringify(value)}`,
    );
  assert.ok(posenc.fromConfig(llama({ attn_temperature_tuning: false, floor_scale: 0 })), 'unread when off');
  // A model without the scale leaves the keys ignored.
  const plain = JSON.parse(text('llama-3.1-8b-instruct.json'));
  plain.attn_scale = 0.1;
  const read = posenc.fromConfig(plain);
  assert.ok(read.ignored.includes('attn_scale'));
  assert.ok(read.layers.every((l) => l.queryScale === undefined));
});

// rope() rotates; the query scale is a separate factor the layer reports (never applied by rope()).
test('rope({ config, layer }) of Ministral 3 rotates only: the query scale is left to the caller', () => {
  const devstral = text('devstral-small-2-24b-instruct.json');
  const layer = posenc.fromConfig(devstral).layers[0];
  const x = Float32Array.from({ length: 3 * 32 * 128 }, (_, k) => Math.cos(k / 7));
  const byConfig = posenc.rope(x.slice(), { config: devstral, layer: 0, offset: 20000, length: 3, heads: 32 });
  const { headDim, base, layout, scaling } = layer.rope;
  const plain = posenc.rope(x.slice(), { headDim, base, layout, scaling, offset: 20000, length: 3, heads: 32 });
  assert.equal(Array.from(byConfig), Array.from(plain));
});

test('rope({ config, layer }) rotates as that layer does, and refuses a NoPE layer with NO_POSITIONS', () => {
  const gemma = text('gemma-3-4b-it.json');
  const x = Float32Array.from({ length: 2 * 8 * 256 }, (_, k) => Math.sin(k));
  // Layer 5 is Gemma 3's first full-attention layer (pattern 6): rope_theta 10^6 with linear scaling.
  const byLayer = posenc.rope(x.slice(), { config: gemma, layer: 5, length: 2, heads: 8 });
  const byType = posenc.rope(x.slice(), { config: gemma, layerType: 'full_attention', length: 2, heads: 8 });
  assert.equal(Array.from(byLayer), Array.from(byType));
  const sliding = posenc.rope(x.slice(), { config: gemma, layer: 0, length: 2, heads: 8 });
  assert.not.equal(Array.from(sliding), Array.from(byType), 'sliding layers rotate with the local base');
  const smol = text('smollm3-3b-base.json');
  const y = new Float32Array(16 * 128).fill(1);
  const before = y.slice();
  assert.throws(
    () => posenc.rope(y, { config: smol, layer: 3, length: 1 }),
    (e) => e.code === 'NO_POSITIONS' && /layer 3/.test(e.message) && e.argument === 'layer',
  );
  assert.equal(Array.from(y), Array.from(before), 'x untouched');
  assert.throws(
    () => posenc.createRope({ config: smol, layer: 36 }),
    (e) => e.code === 'BAD_LAYER' && /0 … 35/.test(e.message),
  );
  assert.throws(
    () => posenc.rope(y, { config: smol, layer: 0, layerType: 'full_attention', length: 1 }),
    (e) => e.code === 'BAD_OPTIONS',
  );
});

test('a key that changes the math and that posenc does not know is still refused, naming its path', () => {
  const config = JSON.parse(text('qwen3-vl-4b-instruct.json'));
  config.text_config.rope_scaling.mrope_stride = 2;
  assert.throws(
    () => posenc.fromConfig(config),
    (e) => e.code === 'BAD_SCALING' && e.message.includes("'text_config.rope_scaling.mrope_stride'"),
  );
  const smol = JSON.parse(text('smollm3-3b-base.json'));
  smol.no_rope_layers = [1, 0];
  assert.throws(
    () => posenc.fromConfig(smol),
    (e) => e.code === 'BAD_CONFIG' && /no_rope_layers/.test(e.message),
  );
});

test.run();
