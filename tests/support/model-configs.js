// The model table: the fields of shipped models' config.json that matter for
// positions, hand-transcribed from the published files (huggingface.co/<id>/
// blob/main/config.json; other keys kept where they exercise `ignored`). Each
// entry says what HF derives from it, written out by hand (not by posenc):
// tests/config-models.test.js checks posenc's reading against HF's formulas.
const PHI35_LONG = [
  1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
  1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
  4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
  17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
  32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
  50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883,
  62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305,
  63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469,
  64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062,
];
const PHI35_SHORT = [
  1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842,
  1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684,
  1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378,
  1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
  1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346,
  2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
  2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328,
  2.749999523162842, 2.8399994373321533,
];

export const MODELS = [
  {
    id: 'meta-llama/Llama-3.1-8B',
    config: {
      architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 4096, num_attention_heads: 32,
      num_key_value_heads: 8, num_hidden_layers: 32, max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
      vocab_size: 128256, torch_dtype: 'bfloat16',
    },
    hf: { kind: 'rope', dim: 128, base: 500000, type: 'llama3', factor: 8, low: 1, high: 4, original: 8192 },
  },
  {
    id: 'meta-llama/Llama-3.2-1B',
    config: {
      model_type: 'llama', hidden_size: 2048, head_dim: 64, num_attention_heads: 32, num_key_value_heads: 8,
      max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 32.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
      tie_word_embeddings: true,
    },
    hf: { kind: 'rope', dim: 64, base: 500000, type: 'llama3', factor: 32, low: 1, high: 4, original: 8192 },
  },
  {
    id: 'mistralai/Mistral-7B-v0.1',
    config: {
      model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8,
      max_position_embeddings: 32768, rope_theta: 10000.0, sliding_window: 4096,
    },
    hf: { kind: 'rope', dim: 128, base: 10000, type: 'default' },
  },
  {
    // The model card's recipe for 128K context adds this rope_scaling to config.json.
    id: 'Qwen/Qwen2.5-7B-Instruct (YaRN, as its model card adds)',
    config: {
      model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4,
      max_position_embeddings: 32768, rope_theta: 1000000.0, sliding_window: 131072, use_sliding_window: false,
      rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' },
    },
    hf: { kind: 'rope', dim: 128, base: 1e6, type: 'yarn', factor: 4, original: 32768 },
  },
  {
    id: 'Qwen/Qwen2-VL-7B-Instruct',
    config: {
      model_type: 'qwen2_vl', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4,
      max_position_embeddings: 32768, rope_theta: 1000000.0,
      rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] },
      vision_config: { depth: 32, embed_dim: 1280, patch_size: 14, spatial_merge_size: 2 },
    },
    hf: { kind: 'rope', dim: 128, base: 1e6, type: 'default', mropeSection: [16, 24, 24] },
  },
  {
    id: 'microsoft/Phi-3.5-mini-instruct',
    config: {
      model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, num_key_value_heads: 32,
      max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 10000.0,
      rope_scaling: { long_factor: PHI35_LONG, short_factor: PHI35_SHORT, type: 'longrope' }, sliding_window: 262144,
    },
    hf: { kind: 'rope', dim: 96, base: 10000, type: 'longrope', original: 4096, short: PHI35_SHORT, long: PHI35_LONG, max: 131072 },
  },
  {
    id: 'google/gemma-3-4b-it',
    config: {
      model_type: 'gemma3',
      text_config: {
        model_type: 'gemma3_text', hidden_size: 2560, head_dim: 256, num_attention_heads: 8, num_key_value_heads: 4,
        rope_theta: 1000000.0, rope_local_base_freq: 10000.0, rope_scaling: { factor: 8.0, rope_type: 'linear' },
        sliding_window: 1024, max_position_embeddings: 131072,
      },
      vision_config: { hidden_size: 1152, patch_size: 14 },
    },
    hf: {
      kind: 'rope',
      layers: {
        full_attention: { dim: 256, base: 1e6, type: 'linear', factor: 8 },
        sliding_attention: { dim: 256, base: 10000, type: 'default' },
      },
    },
  },
  {
    // The same model as transformers v5 writes it: rope_parameters keyed by layer type.
    id: 'google/gemma-3-1b-it (transformers v5 rope_parameters)',
    config: {
      model_type: 'gemma3_text', hidden_size: 1152, head_dim: 256, num_attention_heads: 4, max_position_embeddings: 32768,
      layer_types: ['sliding_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'full_attention'],
      rope_parameters: {
        full_attention: { rope_type: 'default', rope_theta: 1000000.0 },
        sliding_attention: { rope_type: 'default', rope_theta: 10000.0 },
      },
    },
    hf: {
      kind: 'rope',
      layers: { full_attention: { dim: 256, base: 1e6, type: 'default' }, sliding_attention: { dim: 256, base: 10000, type: 'default' } },
    },
  },
  {
    id: 'deepseek-ai/DeepSeek-V2-Lite',
    config: {
      model_type: 'deepseek_v2', hidden_size: 2048, num_attention_heads: 16, qk_nope_head_dim: 128, qk_rope_head_dim: 64,
      v_head_dim: 128, kv_lora_rank: 512, max_position_embeddings: 163840, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 0.707, mscale_all_dim: 0.707, original_max_position_embeddings: 4096, type: 'yarn' },
    },
    hf: { kind: 'rope', dim: 64, base: 10000, type: 'yarn', factor: 40, original: 4096, betaFast: 32, betaSlow: 1, mscale: 0.707, mscaleAllDim: 0.707, layout: 'interleaved' },
  },
  {
    id: 'EleutherAI/gpt-neox-20b',
    config: {
      model_type: 'gpt_neox', hidden_size: 6144, num_attention_heads: 64, max_position_embeddings: 2048,
      rotary_pct: 0.25, rotary_emb_base: 10000, use_parallel_residual: true,
    },
    hf: { kind: 'rope', headDim: 96, dim: 24, base: 10000, type: 'default' },
  },
  {
    id: 'EleutherAI/pythia-160m',
    config: {
      model_type: 'gpt_neox', hidden_size: 768, num_attention_heads: 12, max_position_embeddings: 2048,
      rotary_pct: 0.25, rotary_emb_base: 10000,
    },
    hf: { kind: 'rope', headDim: 64, dim: 16, base: 10000, type: 'default' },
  },
  {
    id: 'EleutherAI/gpt-j-6b',
    config: { model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, rotary: true },
    hf: { kind: 'rope', headDim: 256, dim: 64, base: 10000, type: 'default', layout: 'interleaved' },
  },
  {
    // Llama 2 with the legacy key `type` and no original_max_position_embeddings: HF falls back to max_position_embeddings.
    id: 'meta-llama/Llama-2-7b-hf (dynamic NTK, legacy type)',
    config: {
      model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096,
      rope_scaling: { type: 'dynamic', factor: 2.0 },
    },
    hf: { kind: 'rope', dim: 128, base: 10000, type: 'dynamic', factor: 2, original: 4096 },
  },
  {
    id: 'bigscience/bloom',
    config: { model_type: 'bloom', hidden_size: 14336, n_head: 112, n_layer: 70, apply_residual_connection_post_layernorm: false },
    hf: { kind: 'alibi', heads: 112 },
  },
  {
    id: 'bigscience/bloom-560m',
    config: { model_type: 'bloom', hidden_size: 1024, n_head: 16, n_layer: 24 },
    hf: { kind: 'alibi', heads: 16 },
  },
  {
    id: 'mosaicml/mpt-7b',
    config: {
      model_type: 'mpt', d_model: 4096, n_heads: 32, n_layers: 32, max_seq_len: 2048,
      attn_config: { alibi: true, alibi_bias_max: 8, attn_impl: 'torch', attn_pdrop: 0, clip_qkv: null, qk_ln: false, softmax_scale: null },
    },
    hf: { kind: 'alibi', heads: 32 },
  },
  {
    id: 'google-t5/t5-base',
    config: {
      model_type: 't5', d_model: 768, d_kv: 64, num_heads: 12, num_layers: 12, relative_attention_num_buckets: 32,
      is_encoder_decoder: true, feed_forward_proj: 'relu',
    },
    hf: { kind: 'relative', numBuckets: 32, maxDistance: 128, heads: 12 },
  },
  {
    id: 'openai-community/gpt2',
    config: { model_type: 'gpt2', n_ctx: 1024, n_embd: 768, n_head: 12, n_layer: 12, n_positions: 1024 },
    hf: { kind: 'learned', maxPositions: 1024, dim: 768, positionOffset: 0 },
  },
  {
    id: 'google-bert/bert-base-uncased',
    config: {
      model_type: 'bert', hidden_size: 768, num_attention_heads: 12, max_position_embeddings: 512,
      position_embedding_type: 'absolute', type_vocab_size: 2,
    },
    hf: { kind: 'learned', maxPositions: 512, dim: 768, positionOffset: 0 },
  },
  {
    id: 'FacebookAI/roberta-base',
    config: { model_type: 'roberta', hidden_size: 768, num_attention_heads: 12, max_position_embeddings: 514, pad_token_id: 1 },
    hf: { kind: 'learned', maxPositions: 514, dim: 768, positionOffset: 2 },
  },
  {
    id: 'Helsinki-NLP/opus-mt-en-de',
    config: { model_type: 'marian', d_model: 512, encoder_attention_heads: 8, max_position_embeddings: 512, scale_embedding: true },
    hf: { kind: 'sinusoidal', dim: 512, layout: 'split', frequencies: 'paper', positionOffset: 0 },
  },
];
