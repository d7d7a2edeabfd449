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
 * id (in the URL), name, and file: its config.json in the corpus; patch: keys
 * a model card adds (merged into the config's rope_scaling); set: fields of a
 * model with no config.json (the 2017 Transformer); tensor: a learned
 * table's name in its checkpoint (view 6).
 */
export const MODEL_PRESETS = [
  {
    id: 'transformer-base',
    name: 'Transformer base (Vaswani et al., 2017)',
    about: 'd_model = 512, sinusoidal, T = 10000, sin and cos of each pair side by side (no config.json)',
    set: { d: 512, base: 10000, len: 512, layout: 'interleaved' },
  },
  {
    id: 'bert-base',
    name: 'BERT-base',
    file: 'bert-base-uncased.json',
    tensor: 'bert.embeddings.position_embeddings.weight',
  },
  { id: 'gpt2', name: 'GPT-2 (124M)', file: 'gpt2.json', tensor: 'wpe.weight' },
  {
    id: 'roberta-base',
    name: 'RoBERTa-base (learned, rows from 2)',
    file: 'roberta-base.json',
    tensor: 'roberta.embeddings.position_embeddings.weight',
  },
  { id: 'llama-2-7b', name: 'Llama 2 7B', file: 'llama-2-7b-hf.json' },
  { id: 'llama-3-8b', name: 'Llama 3 8B', file: 'meta-llama-3-8b.json' },
  { id: 'llama-3.1-8b', name: 'Llama 3.1 8B', file: 'llama-3.1-8b-instruct.json' },
  { id: 'llama-3.2-1b', name: 'Llama 3.2 1B', file: 'llama-3.2-1b-instruct.json' },
  { id: 'mixtral-8x7b', name: 'Mixtral 8x7B', file: 'mixtral-8x7b-v0.1.json' },
  { id: 'qwen2.5-7b-instruct', name: 'Qwen2.5-7B-Instruct', file: 'qwen2.5-7b-instruct.json' },
  {
    id: 'qwen2.5-7b-instruct-yarn',
    name: 'Qwen2.5-7B-Instruct, YaRN to 128K (model card)',
    file: 'qwen2.5-7b-instruct.json',
    // The model card's recipe for 128K context adds this rope_scaling to config.json.
    patch: { rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } },
  },
  { id: 'qwen3-8b', name: 'Qwen3 8B', file: 'qwen3-8b.json' },
  { id: 'qwen3-30b-a3b', name: 'Qwen3-30B-A3B (MoE)', file: 'qwen3-30b-a3b.json' },
  { id: 'phi-2', name: 'Phi-2 (partial rotary)', file: 'phi-2.json' },
  { id: 'phi-3-mini-4k', name: 'Phi-3-mini-4k', file: 'phi-3-mini-4k-instruct.json' },
  { id: 'phi-3-mini-128k', name: 'Phi-3-mini-128k (LongRoPE)', file: 'phi-3-mini-128k-instruct.json' },
  { id: 'gemma-3-4b', name: 'Gemma 3 4B (local and global layers)', file: 'gemma-3-4b-it.json' },
  { id: 'smollm3-3b', name: 'SmolLM3 3B (NoPE every 4th layer)', file: 'smollm3-3b-base.json' },
  { id: 'deepseek-v3', name: 'DeepSeek-V3 (YaRN with mscale)', file: 'deepseek-v3.json' },
  { id: 'gpt-oss-120b', name: 'gpt-oss-120b (YaRN)', file: 'gpt-oss-120b.json' },
  { id: 'falcon-40b', name: 'Falcon-40B', file: 'falcon-40b.json' },
  { id: 'jamba-1.5-mini', name: 'Jamba 1.5 Mini (Mamba and NoPE attention)', file: 'ai21-jamba-1.5-mini.json' },
  { id: 't5-small', name: 'T5-small (relative buckets)', file: 't5-small.json' },
  { id: 'bloom-560m', name: 'BLOOM-560m (ALiBi)', file: 'bloom-560m.json' },
  { id: 'mpt-7b-instruct', name: 'MPT-7B-Instruct (ALiBi)', file: 'mpt-7b-instruct.json' },
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
          ? 'no position at all (NoPE attention)'
          : 'no attention (state-space layer), so no position'
        : (l.scheme === 'rope' ? `RoPE${l.layerType ? ` (${l.layerType}, base ${l.rope.base})` : ''}` : l.scheme) +
          (!l.slidingWindow
            ? ''
            : l.slidingBidirectional // ModernBERT's local layers: the window reaches both ways
              ? `, each query seeing ${l.slidingWindow} positions on either side`
              : `, each query seeing the last ${l.slidingWindow} positions`);
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
