// Real models' positional settings, as their configs set them (HF config.json
// keys where the model has one), and the page fields each one sets. Sinusoidal
// and learned models set the table's d, length and T (a learned model's own
// table is dropped into view 6: its tensor name is filled in); RoPE models set
// the RoPE view (head_dim = hidden_size / num_attention_heads, rope_theta,
// rope_scaling, max_position_embeddings as the context length); ALiBi models
// the number of heads; T5 sets nothing: its buckets are fixed by its config,
// which the preset hands to the config view (`json`, the config.json fields
// that matter) and view 10 draws. Adding a model is one entry.

const ropeModel = (hd, theta, context, scaling = { rs: 'none' }) => ({
  rhd: hd,
  rbase: theta,
  rlen: context,
  ...scaling,
});

export const MODEL_PRESETS = [
  {
    id: 'transformer-base',
    name: 'Transformer base (Vaswani et al., 2017)',
    kind: 'sinusoidal',
    config: 'd_model = 512, sinusoidal, T = 10000, sin and cos of each pair side by side',
    set: { d: 512, base: 10000, len: 512, layout: 'interleaved' },
  },
  {
    id: 'bert-base',
    name: 'BERT-base',
    kind: 'learned',
    config: 'hidden_size = 768, max_position_embeddings = 512, position_embedding_type = "absolute" (a learned table)',
    set: { d: 768, len: 512 },
    tensor: 'bert.embeddings.position_embeddings.weight',
  },
  {
    id: 'gpt2',
    name: 'GPT-2 (124M)',
    kind: 'learned',
    config: 'n_embd = 768, n_positions = 1024 (a learned table, wpe)',
    set: { d: 768, len: 1024 },
    tensor: 'wpe.weight',
  },
  {
    id: 'llama-2-7b',
    name: 'Llama 2 7B',
    kind: 'rope',
    config: 'hidden_size = 4096, num_attention_heads = 32, rope_theta = 10000, max_position_embeddings = 4096',
    set: ropeModel(128, 10000, 4096),
  },
  {
    id: 'llama-3.1-8b',
    name: 'Llama 3.1 8B',
    kind: 'rope',
    config:
      'hidden_size = 4096, num_attention_heads = 32, rope_theta = 500000, max_position_embeddings = 131072, ' +
      'rope_scaling = {rope_type: "llama3", factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192}',
    set: ropeModel(128, 500000, 131072, { rs: 'llama3', rf: 8, rlo: 1, rhi: 4, rl0: 8192 }),
  },
  {
    id: 'mistral-7b',
    name: 'Mistral 7B v0.1',
    kind: 'rope',
    config: 'hidden_size = 4096, num_attention_heads = 32, rope_theta = 10000, max_position_embeddings = 32768',
    set: ropeModel(128, 10000, 32768),
  },
  {
    id: 'codellama-7b',
    name: 'Code Llama 7B',
    kind: 'rope',
    config: 'hidden_size = 4096, num_attention_heads = 32, rope_theta = 1000000, max_position_embeddings = 16384',
    set: ropeModel(128, 1000000, 16384),
  },
  {
    id: 'qwen2.5-7b-instruct',
    name: 'Qwen2.5-7B-Instruct, YaRN to 128K',
    kind: 'rope',
    config:
      'hidden_size = 3584, num_attention_heads = 28, rope_theta = 1000000, max_position_embeddings = 32768; ' +
      'for 128K its model card adds rope_scaling = {type: "yarn", factor: 4, original_max_position_embeddings: 32768}',
    set: ropeModel(128, 1000000, 131072, { rs: 'yarn', rf: 4, rl0: 32768, rbf: 32, rbs: 1 }),
  },
  {
    id: 'phi-3-mini-4k',
    name: 'Phi-3-mini-4k',
    kind: 'rope',
    config:
      'hidden_size = 3072, num_attention_heads = 32, rope_theta = 10000, max_position_embeddings = 4096 ' +
      '(the 128k variant uses LongRoPE, per-pair factors posenc does not implement)',
    set: ropeModel(96, 10000, 4096),
  },
  {
    id: 't5-base',
    name: 'T5-base (relative buckets)',
    kind: 'relative',
    config:
      'relative_attention_num_buckets = 32, relative_attention_max_distance = 128 (its default), num_heads = 12; ' +
      'no position embedding: a learned bias per bucket of the offset, bidirectional in the encoder, causal in the decoder',
    set: {},
    json: { model_type: 't5', d_model: 768, d_kv: 64, num_heads: 12, relative_attention_num_buckets: 32 },
  },
  {
    id: 'bloom-560m',
    name: 'BLOOM-560m',
    kind: 'alibi',
    config: 'n_head = 16, ALiBi (no position embedding; a linear bias per head)',
    set: { heads: 16, head: 0 },
  },
];

/** The sentence shown after a preset is applied: what the model uses and where to look. */
export function presetNote(preset) {
  const where = {
    sinusoidal: 'views 1–5 show its table',
    learned: `its table is learned: drop its checkpoint into view 6 (tensor “${preset.tensor}” is filled in)`,
    rope: 'views 7 and 8 show its rotary frequencies and their reach',
    alibi: 'view 6 shows its heads’ biases',
    relative: 'view 10 shows its buckets against the offset, and view 12 reads its config',
  }[preset.kind];
  return `${preset.name}: ${preset.config}. ${where[0].toUpperCase()}${where.slice(1)}.`;
}
