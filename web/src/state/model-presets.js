// The model menu: real models, each read from its config.json as it ships
// (the test corpus, tests/fixtures/configs/, loaded by state/model-config.js)
// with the package's fromConfig. presetFields turns that description into
// the page's fields, so a preset cannot drift from its config: RoPE models set
// the RoPE view (head_dim, rope_theta, rope_scaling, max_position_embeddings
// as the context length), ALiBi models the number of heads, learned tables
// the table's d and length, and T5 nothing (view 10 and the config view show
// its buckets). Choosing a model resets every field a model can set
// (MODEL_FIELDS) before applying its own, so nothing of the last model stays.
// Adding a model is one entry.

/** The fields a model may set; choosing one resets all of them to their defaults first. */
export const MODEL_FIELDS = [
  'd',
  'base',
  'len',
  'layout',
  'heads',
  'head',
  'rhd',
  'rbase',
  'rs',
  'rf',
  'rl0',
  'rlen',
  'rbf',
  'rbs',
  'rlo',
  'rhi',
];

/**
 * id (in the URL), name, group (MODEL_GROUPS: the menu's <optgroup>, which
 * tests/page-models.test.js holds to the config), and file: its config.json in the corpus; patch: keys
 * a model card adds (merged into the config's rope_scaling); set: fields of a
 * model with no config.json (the 2017 Transformer); tensor: a learned
 * table's name in its checkpoint (view 6).
 */
export const MODEL_PRESETS = [
  // Absolute tables: sinusoidal or learned, added to the embeddings.
  {
    id: 'transformer-base',
    name: 'Transformer base (Vaswani et al., 2017)',
    group: 'tables',
    about: 'd_model = 512, sinusoidal, T = 10000, sin and cos of each pair side by side (no config.json)',
    set: { d: 512, base: 10000, len: 512, layout: 'interleaved' },
  },
  {
    id: 'bert-base',
    name: 'BERT-base',
    group: 'tables',
    file: 'bert-base-uncased.json',
    tensor: 'bert.embeddings.position_embeddings.weight',
  },
  { id: 'gpt2', name: 'GPT-2 (124M)', group: 'tables', file: 'gpt2.json', tensor: 'wpe.weight' },
  {
    id: 'roberta-base',
    name: 'RoBERTa-base (learned, rows from 2)',
    group: 'tables',
    file: 'roberta-base.json',
    tensor: 'roberta.embeddings.position_embeddings.weight',
  },
  {
    id: 'bart-base',
    name: 'BART-base (learned, rows from 2)',
    group: 'tables',
    file: 'bart-base.json',
    tensor: 'encoder.embed_positions.weight', // BartModel's checkpoint: no model. prefix
  },
  {
    id: 'vit-base',
    name: 'ViT-Base/16 (learned, 197 patches)',
    group: 'tables',
    file: 'vit-base-patch16-224-in21k.json',
    tensor: 'embeddings.position_embeddings', // ViTModel's: a parameter, not a module
  },
  {
    id: 'whisper-tiny',
    name: 'Whisper tiny (sinusoidal encoder, learned decoder)',
    group: 'tables',
    file: 'whisper-tiny.json',
    tensor: 'model.decoder.embed_positions.weight',
  },
  // RoPE, one for every layer.
  { id: 'llama-2-7b', name: 'Llama 2 7B', group: 'rope', file: 'llama-2-7b-hf.json' },
  { id: 'llama-3-8b', name: 'Llama 3 8B', group: 'rope', file: 'meta-llama-3-8b.json' },
  { id: 'llama-3.1-8b', name: 'Llama 3.1 8B', group: 'rope', file: 'llama-3.1-8b-instruct.json' },
  { id: 'llama-3.2-1b', name: 'Llama 3.2 1B', group: 'rope', file: 'llama-3.2-1b-instruct.json' },
  { id: 'mistral-7b', name: 'Mistral 7B v0.3', group: 'rope', file: 'mistral-7b-instruct-v0.3.json' },
  { id: 'mixtral-8x7b', name: 'Mixtral 8x7B', group: 'rope', file: 'mixtral-8x7b-v0.1.json' },
  {
    id: 'devstral-small-2',
    name: 'Devstral Small 2 (YaRN, queries scaled by position)',
    group: 'rope',
    file: 'devstral-small-2-24b-instruct.json',
  },
  { id: 'qwen2.5-7b-instruct', name: 'Qwen2.5-7B-Instruct', group: 'rope', file: 'qwen2.5-7b-instruct.json' },
  {
    id: 'qwen2.5-7b-instruct-yarn',
    name: 'Qwen2.5-7B-Instruct, YaRN to 128K (model card)',
    group: 'rope',
    file: 'qwen2.5-7b-instruct.json',
    // The model card's recipe for 128K context adds this rope_scaling to config.json.
    patch: { rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } },
  },
  { id: 'qwen3-8b', name: 'Qwen3 8B', group: 'rope', file: 'qwen3-8b.json' },
  { id: 'qwen3-30b-a3b', name: 'Qwen3-30B-A3B (MoE)', group: 'rope', file: 'qwen3-30b-a3b.json' },
  { id: 'phi-2', name: 'Phi-2 (partial rotary)', group: 'rope', file: 'phi-2.json' },
  { id: 'phi-3-mini-4k', name: 'Phi-3-mini-4k', group: 'rope', file: 'phi-3-mini-4k-instruct.json' },
  { id: 'phi-3-mini-128k', name: 'Phi-3-mini-128k (LongRoPE)', group: 'rope', file: 'phi-3-mini-128k-instruct.json' },
  { id: 'phi-4', name: 'Phi-4', group: 'rope', file: 'phi-4.json' },
  { id: 'phi-4-mini', name: 'Phi-4-mini (LongRoPE, partial rotary)', group: 'rope', file: 'phi-4-mini-instruct.json' },
  { id: 'deepseek-v2-lite', name: 'DeepSeek-V2-Lite (YaRN with mscale)', group: 'rope', file: 'deepseek-v2-lite.json' },
  { id: 'deepseek-v3', name: 'DeepSeek-V3 (YaRN with mscale)', group: 'rope', file: 'deepseek-v3.json' },
  { id: 'olmo-2-7b', name: 'OLMo 2 7B', group: 'rope', file: 'olmo-2-1124-7b-instruct.json' },
  { id: 'aya-23-8b', name: 'Aya 23 8B (Cohere, pairs side by side)', group: 'rope', file: 'aya-23-8b.json' },
  {
    id: 'glm-4-9b',
    name: 'GLM-4 9B (half of each head rotates, pairs side by side)',
    group: 'rope',
    file: 'glm-4-9b-chat.json',
  },
  { id: 'internlm2.5-7b', name: 'InternLM2.5 7B (dynamic NTK)', group: 'rope', file: 'internlm2_5-7b-chat.json' },
  { id: 'minicpm-2b-128k', name: 'MiniCPM 2B 128K', group: 'rope', file: 'minicpm-2b-128k.json' },
  {
    id: 'stablelm-2-1.6b',
    name: 'StableLM 2 1.6B (partial rotary)',
    group: 'rope',
    file: 'stablelm-2-zephyr-1_6b.json',
  },
  { id: 'granite-3.3-8b', name: 'Granite 3.3 8B', group: 'rope', file: 'granite-3.3-8b-instruct.json' },
  { id: 'starcoder2-15b', name: 'StarCoder2 15B (sliding window)', group: 'rope', file: 'starcoder2-15b.json' },
  { id: 'falcon-40b', name: 'Falcon-40B', group: 'rope', file: 'falcon-40b.json' },
  // RoPE that differs by layer: local (sliding) and global layers, or bases by layer type.
  { id: 'gemma-2-9b', name: 'Gemma 2 9B (local and global layers)', group: 'local', file: 'gemma-2-9b.json' },
  { id: 'gemma-3-4b', name: 'Gemma 3 4B (local and global layers)', group: 'local', file: 'gemma-3-4b-it.json' },
  {
    id: 'olmo-3.1-32b',
    name: 'OLMo 3.1 32B (local and global layers)',
    group: 'local',
    file: 'olmo-3.1-32b-instruct.json',
  },
  {
    id: 'modernbert-large',
    name: 'ModernBERT-large (local and global bases)',
    group: 'local',
    file: 'modernbert-large-zeroshot-v2.0.json',
  },
  {
    id: 'gpt-oss-120b',
    name: 'gpt-oss-120b (YaRN, local and global layers)',
    group: 'local',
    file: 'gpt-oss-120b.json',
  },
  // Multimodal RoPE: the head's pairs split between time, height and width.
  { id: 'qwen2-vl-7b', name: 'Qwen2-VL 7B (mrope)', group: 'mrope', file: 'qwen2-vl-7b-instruct.json' },
  { id: 'qwen2.5-vl-7b', name: 'Qwen2.5-VL 7B (mrope)', group: 'mrope', file: 'qwen2.5-vl-7b-instruct.json' },
  { id: 'qwen3-vl-4b', name: 'Qwen3-VL 4B (interleaved mrope)', group: 'mrope', file: 'qwen3-vl-4b-instruct.json' },
  // Layers without positions: NoPE attention, state-space or linear-attention layers.
  { id: 'smollm3-3b', name: 'SmolLM3 3B (NoPE every 4th layer)', group: 'none', file: 'smollm3-3b-base.json' },
  {
    id: 'qwen3.5-9b',
    name: 'Qwen3.5 9B (linear attention in 3 of 4 layers)',
    group: 'none',
    file: 'qwen3.5-9b.json',
  },
  {
    id: 'jamba-1.5-mini',
    name: 'Jamba 1.5 Mini (Mamba and NoPE attention)',
    group: 'none',
    file: 'ai21-jamba-1.5-mini.json',
  },
  { id: 'falcon-mamba-7b', name: 'Falcon Mamba 7B (no positions at all)', group: 'none', file: 'falcon-mamba-7b.json' },
  // Biases on the attention scores.
  { id: 't5-small', name: 'T5-small (relative buckets)', group: 'bias', file: 't5-small.json' },
  { id: 'flan-t5-small', name: 'Flan-T5-small (relative buckets)', group: 'bias', file: 'flan-t5-small.json' },
  { id: 'mt5-base', name: 'mT5-base (relative buckets)', group: 'bias', file: 'mt5-base.json' },
  { id: 'bloom-560m', name: 'BLOOM-560m (ALiBi)', group: 'bias', file: 'bloom-560m.json' },
  { id: 'mpt-7b-instruct', name: 'MPT-7B-Instruct (ALiBi)', group: 'bias', file: 'mpt-7b-instruct.json' },
];

/** The menu's groups (an <optgroup> each), in order: what a group's models have in common. */
export const MODEL_GROUPS = [
  { id: 'tables', label: 'Sinusoidal or learned tables' },
  { id: 'rope', label: 'RoPE in every layer' },
  { id: 'local', label: 'RoPE, local and global layers' },
  { id: 'mrope', label: 'Multimodal RoPE (mrope)' },
  { id: 'none', label: 'Layers without positions (NoPE, Mamba, linear attention)' },
  { id: 'bias', label: 'Attention biases (T5 buckets, ALiBi)' },
];

export const MODEL_IDS = MODEL_PRESETS.map((p) => p.id);
export const presetById = (id) => MODEL_PRESETS.find((p) => p.id === id);

/** The config text of a preset: its file's text, with a model card's patch merged in (keys added, never removed). */
export function presetConfigText(preset, fileText) {
  if (!preset.patch) return fileText;
  const config = JSON.parse(fileText);
  const target = config.text_config ?? config;
  for (const [key, value] of Object.entries(preset.patch)) target[key] = value;
  return JSON.stringify(config, null, 2);
}

/** The RoPE a model's views draw: one layer type's (the global, scaled one when layers differ), or null. */
export function shownRope(description) {
  if (description.rope) return { rope: description.rope, layerType: null };
  const types = description.layerTypes ? Object.entries(description.layerTypes) : [];
  if (!types.length) return null;
  const [layerType, rope] = types.find(([name]) => name === 'full_attention') ?? types[0];
  return { rope, layerType };
}

const within = (value, min, max) => Math.min(max, Math.max(min, value));

/**
 * The page fields a config's description (fromConfig) determines: only the
 * ones it says something about; MODEL_FIELDS' other fields keep their
 * defaults. Values outside a field's range are clamped to it by the caller.
 */
export function presetFields(description) {
  switch (description.kind) {
    case 'rope': {
      const shown = shownRope(description);
      if (!shown) return {};
      const { rope } = shown;
      // The view's head_dim is the rotated part: a partial rotary model turns rotaryDim elements.
      const fields = { rhd: rope.rotaryDim, rbase: rope.base, rs: 'none' };
      if (description.maxPositions) fields.rlen = within(description.maxPositions, 16, 16_777_216);
      const s = rope.scaling;
      const type = s?.rope_type;
      if (type === 'linear') Object.assign(fields, { rs: 'linear', rf: s.factor });
      if (type === 'dynamic' || type === 'yarn' || type === 'llama3' || type === 'longrope') {
        fields.rs = type;
        if (s.factor !== undefined) fields.rf = s.factor;
        fields.rl0 = s.original_max_position_embeddings;
      }
      if (type === 'yarn') Object.assign(fields, { rbf: s.beta_fast ?? 32, rbs: s.beta_slow ?? 1 });
      if (type === 'llama3') Object.assign(fields, { rlo: s.low_freq_factor, rhi: s.high_freq_factor });
      return fields;
    }
    case 'alibi':
      return { heads: description.heads, head: 0 };
    case 'learned':
      return { d: description.dim, len: within(description.maxPositions ?? 512, 1, 8192) };
    case 'sinusoidal':
      return { d: description.dim };
    default:
      return {};
  }
}

/** Ministral 3's and Llama 4's query factor in words: ", queries × (1 + 0.1 ln(1 + ⌊p / 8192⌋))"; '' without one. */
function queryScaleWords(q) {
  if (!q) return '';
  const p = q.shift ? `(p + ${q.shift})` : 'p';
  return `, queries × (1 + ${q.beta} ln(1 + ⌊${p} / ${q.length}⌋)) at position p`;
}

/**
 * Layers grouped by what they use, in the learner's words: "RoPE in 27 layers (…); no position at all … in 9";
 * a sliding layer says its window ("…, each query seeing the last 512 positions").
 */
export function layerSummary(layers) {
  if (!layers?.length) return '';
  const groups = new Map();
  for (const l of layers) {
    const what =
      l.scheme === 'none'
        ? l.none === 'nope'
          ? `no position at all (NoPE attention)${queryScaleWords(l.queryScale)}`
          : 'no attention (state-space layer), so no position'
        : (l.scheme === 'rope' ? `RoPE${l.layerType ? ` (${l.layerType}, base ${l.rope.base})` : ''}` : l.scheme) +
          (!l.slidingWindow
            ? ''
            : l.slidingBidirectional // ModernBERT's local layers: the window reaches both ways
              ? `, each query seeing ${l.slidingWindow} positions on either side`
              : `, each query seeing the last ${l.slidingWindow} positions`) +
          queryScaleWords(l.queryScale);
    if (!groups.has(what)) groups.set(what, []);
    groups.get(what).push(l.index);
  }
  const list = (indices) =>
    indices.length === layers.length
      ? 'every layer'
      : `${indices.length} layer${indices.length === 1 ? '' : 's'} (${indices.slice(0, 8).join(', ')}${indices.length > 8 ? ', …' : ''})`;
  return `${layers.length} layers: ${[...groups].map(([what, indices]) => `${what} in ${list(indices)}`).join('; ')}.`;
}

/** The sentence shown after a preset is applied: what the model uses, layer by layer, and where to look. */
export function presetNote(preset, description) {
  if (!description) return `${preset.name}: ${preset.about}. Views 1–5 show its table.`;
  const where =
    {
      sinusoidal: 'views 1–5 show its table',
      learned: `its table is learned: drop its checkpoint into view 6 (tensor “${preset.tensor}” is filled in)`,
      rope: 'views 7 and 8 draw its rotary frequencies (head_dim, rope_theta and rope_scaling as its config sets them)',
      alibi: 'views 6 and 7 show its heads’ biases',
      relative: 'view 10 shows its buckets against the offset',
    }[description.kind] ?? 'no view draws its positions: none of its layers has any';
  const shown = description.kind === 'rope' ? shownRope(description) : null;
  const layer = shown?.layerType ? ` (views 7 and 8 show its ${shown.layerType} layers)` : '';
  return (
    `${preset.name}: ${layerSummary(description.layers)}${layer} ${where[0].toUpperCase()}${where.slice(1)}; ` +
    'view 12 reads its whole config.json.'
  );
}
