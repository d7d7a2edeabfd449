// An independent reference for the per-layer answer: what HF transformers'
// modeling code does with each layer of a model, written out from the
// config classes and modeling files (transformers 4.5x / 5.0:
// configuration_gemma3.py, configuration_llama4.py, configuration_smollm3.py,
// configuration_cohere2.py, configuration_jamba.py, configuration_modernbert.py,
// modeling_cohere*.py, modeling_llama4.py, modeling_ministral3.py, modeling_glm.py, modeling_gpt_oss.py,
// modeling_qwen3_5.py, modeling_whisper.py, modeling_bart.py, modeling_t5.py,
// modeling_bloom.py, modeling_mpt.py, modeling_mt5.py, modeling_vit.py; Falcon-40B's first config: the authors' modelling_RW.py,
// rotate_half with base 10000, n_head_kv key/value heads; GLM-4's first release: the authors' modeling_chatglm.py,
// see chatglmRope) and modeling_rope_utils.py's frequency
// functions (support/rope-reference.js). Nothing here calls posenc; the config
// is read as Python's json.load gives it to HF.
import { hfDefault, hfLinear, hfDynamic, hfYarn, hfLlama3, hfLongrope } from './rope-reference.js';

/** The __init__ defaults of the config classes the corpus leaves keys to. */
const CLASS_DEFAULTS = {
  gemma3_text: {
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    rope_theta: 1e6,
    rope_local_base_freq: 10000,
    sliding_window_pattern: 6,
    max_position_embeddings: 131072,
  },
  modernbert: {
    global_rope_theta: 160000,
    local_rope_theta: 10000,
    global_attn_every_n_layers: 3,
    local_attention: 128,
  },
  llama4_text: { no_rope_layer_interval: 4, rope_theta: 500000, attention_chunk_size: 8192 },
  smollm3: { no_rope_layer_interval: 4, rope_theta: 2e6 },
  cohere2: { sliding_window_pattern: 4 },
  jamba: { attn_layer_period: 8, attn_layer_offset: 4 },
  t5: { relative_attention_num_buckets: 32, relative_attention_max_distance: 128 },
  mt5: { relative_attention_num_buckets: 32, relative_attention_max_distance: 128, num_layers: 8 },
  vit: { image_size: 224, patch_size: 16 },
  whisper: { max_source_positions: 1500, max_target_positions: 448 },
};
// sliding_window / max_window_layers of each class that reads them (MistralConfig 4096, GptOssConfig 128,
// Qwen2Config 4096 and 28, Qwen2VLConfig / Qwen2_5_VLConfig 4096 and 80; Mixtral, Phi3, Starcoder2 and
// SmolLM3 default sliding_window to None).
const WINDOW_DEFAULTS = {
  mistral: { sliding_window: 4096 },
  gemma2: { sliding_window: 4096 },
  gemma3_text: { sliding_window: 4096 },
  cohere2: { sliding_window: 4096 },
  gpt_oss: { sliding_window: 128 },
  olmo3: { sliding_window: 4096 },
  qwen2: { sliding_window: 4096, max_window_layers: 28 },
  qwen3: { sliding_window: 4096, max_window_layers: 28 },
  qwen2_vl: { sliding_window: 4096, max_window_layers: 80 },
  qwen2_5_vl: { sliding_window: 4096, max_window_layers: 80 },
  smollm3: { max_window_layers: 28 },
  qwen2_moe: { sliding_window: 4096, max_window_layers: 28 },
  qwen3_moe: { sliding_window: 4096 },
};
// Which layers read sliding_window: every attention layer (MistralAttention, Phi3Attention, ... pass
// config.sliding_window whatever the layer), the sliding_attention ones (Gemma2Attention & co.:
// sliding_window if layer_types[i] == "sliding_attention"), or Qwen2's (Qwen2Config.__post_init__ drops the
// window unless use_sliding_window, and names layers sliding from max_window_layers on).
// Ministral3Attention passes sliding_window on every layer too (Ministral3Config default None).
const WINDOW_EVERY = new Set(['mistral', 'mixtral', 'phi3', 'starcoder2', 'ministral3']);
const WINDOW_TYPED = new Set(['gemma2', 'gemma3', 'gemma3_text', 'cohere2', 'gpt_oss', 'olmo3']);
const WINDOW_QWEN = new Set(['qwen2', 'qwen3', 'qwen2_vl', 'qwen2_5_vl', 'smollm3']);
// The MoE classes (transformers main, configuration_qwen2_moe.py / configuration_qwen3_moe.py and their modular
// files): both drop sliding_window unless use_sliding_window. Qwen2MoeAttention slides on layer_types[i] ==
// "sliding_attention", whose default is "(i + 1) % 2 and i < max_window_layers"; Qwen3MoeAttention takes
// config.sliding_window on every layer (Qwen3MoeModel is MixtralModel, one sliding mask for all layers).

/** Layer i's sliding window as the model's attention reads it (a query at q sees q - w < k <= q); 0 none. */
function windowOf(cfg, type, i, kind) {
  const defaults = WINDOW_DEFAULTS[CLASS_OF[type] ?? type] ?? {};
  const value = (key) => (cfg[key] === undefined ? defaults[key] : cfg[key]);
  const w = value('sliding_window') ?? 0;
  if (WINDOW_EVERY.has(type)) return w;
  if (WINDOW_TYPED.has(type)) return kind === 'sliding_attention' ? w : 0;
  // ModernBertConfig.sliding_window = local_attention // 2 on each side of the query (modular_modernbert.py; the
  // bidirectional overlay of masking_utils: |q - k| <= sliding_window), on its sliding_attention layers only.
  if (type === 'modernbert') return kind === 'sliding_attention' ? Math.floor((cfg.local_attention ?? 128) / 2) : 0;
  if ((type === 'qwen2_moe' || type === 'qwen3_moe') && cfg.use_sliding_window !== true) return 0;
  if (type === 'qwen3_moe') return w;
  if (type === 'qwen2_moe') {
    const typed = Array.isArray(cfg.layer_types) ? cfg.layer_types[i] : null;
    const slides = typed ? typed === 'sliding_attention' : (i + 1) % 2 !== 0 && i < value('max_window_layers');
    return slides ? w : 0;
  }
  if (!WINDOW_QWEN.has(type) || cfg.use_sliding_window !== true) return 0;
  const slides = Array.isArray(cfg.layer_types)
    ? cfg.layer_types[i] === 'sliding_attention'
    : i >= (value('max_window_layers') ?? 28);
  return slides ? w : 0;
}
const CLASS_OF = { gemma3: 'gemma3_text', llama4: 'llama4_text' };

// Layouts: rotate_half on halves unless the model pairs adjacent elements.
const INTERLEAVED = new Set([
  'gptj',
  'codegen',
  'deepseek_v2',
  'deepseek_v3',
  'cohere',
  'cohere2',
  'glm',
  'glm4',
  'llama4',
  'llama4_text',
]);
const LEARNED = { gpt2: 0, bert: 0, roberta: 2, opt: 2, bart: 2, mbart: 2, vit: 0 };
// T5 and mT5 (MT5Config): num_layers encoder blocks, num_decoder_layers (default num_layers) decoder blocks.
const T5_TYPES = new Set(['t5', 'mt5']);
const ALIBI = new Set(['bloom', 'mpt']);
const STATE_SPACE = new Set(['mamba', 'mamba2', 'falcon_mamba']);

/** The config HF's text model is built from, its model_type, and a getter with class defaults. */
export function textModel(config) {
  const cfg = config.text_config && typeof config.text_config === 'object' ? config.text_config : config;
  const type = cfg.model_type ?? config.model_type;
  const defaults = CLASS_DEFAULTS[CLASS_OF[type] ?? type] ?? {};
  const get = (key) => (cfg[key] !== undefined && cfg[key] !== null ? cfg[key] : defaults[key]);
  return { cfg, type, get };
}

/**
 * Every layer's kind, positions ('rope', 'nope', 'no-attention', or the model's absolute scheme), kv heads
 * attention chunk (Llama 4's chunked_attention layers: attention_chunk_size; 0 otherwise), sliding
 * window (windowOf; 0 without one), whether that window is two-sided (bidirectional) and its query
 * scale (queryScaleOf: a function of the position, or null).
 */
export function hfLayers(config) {
  const { cfg, type, get } = textModel(config);
  const heads = get('num_attention_heads') ?? get('n_head') ?? get('n_heads') ?? get('num_heads');
  // ChatGLM's SelfAttention: multi_query_group_num key/value groups when multi_query_attention, else every head.
  const chatglmKv =
    type === 'chatglm' ? (cfg.multi_query_attention === true ? get('multi_query_group_num') : heads) : null;
  const kv =
    chatglmKv ??
    get('num_key_value_heads') ??
    get('num_kv_heads') ??
    get('n_head_kv') ??
    get('multi_query_group_num') ??
    (get('multi_query') === true ? 1 : heads);
  const out = [];
  // Encoder-decoder stacks: the encoder's layers, then the decoder's.
  const t5 = T5_TYPES.has(type);
  const encoder = get('encoder_layers') ?? (t5 ? get('num_layers') : undefined);
  const decoder = get('decoder_layers') ?? (t5 ? (get('num_decoder_layers') ?? get('num_layers')) : undefined);
  if (encoder && decoder) {
    for (let i = 0; i < encoder + decoder; i++) {
      const part = i < encoder ? 'encoder' : 'decoder';
      const h = get(`${part}_attention_heads`) ?? heads;
      const positions = absolute(type, part);
      out.push({ kind: part, kvHeads: h, positions, chunk: 0, window: 0, bidirectional: false, queryScale: null });
    }
    return out;
  }
  const count = get('num_hidden_layers') ?? get('n_layer') ?? get('num_layers') ?? get('n_layers');
  for (let i = 0; i < count; i++) {
    let kind = 'attention';
    let positions = ALIBI.has(type) ? 'alibi' : LEARNED[type] !== undefined ? 'learned' : 'rope';
    if (STATE_SPACE.has(type)) [kind, positions] = ['mamba', 'no-attention'];
    else if (type === 'jamba') {
      // JambaConfig.layers_block_type; JambaAttention has no rotary embedding.
      const attention = i % get('attn_layer_period') === get('attn_layer_offset');
      [kind, positions] = attention ? ['attention', 'nope'] : ['mamba', 'no-attention'];
    } else if (Array.isArray(cfg.layer_types) && typeof cfg.layer_types[i] === 'string') kind = cfg.layer_types[i];
    else if (type === 'gemma2') kind = (i + 1) % 2 ? 'sliding_attention' : 'full_attention';
    else if (type === 'gemma3' || type === 'gemma3_text' || type === 'cohere2')
      kind = (i + 1) % get('sliding_window_pattern') ? 'sliding_attention' : 'full_attention';
    else if (type === 'modernbert')
      kind = i % get('global_attn_every_n_layers') === 0 ? 'full_attention' : 'sliding_attention';
    if (['linear_attention', 'mamba', 'conv'].includes(kind)) positions = 'no-attention';
    if (type === 'cohere2' && kind === 'full_attention') positions = 'nope'; // Cohere2Attention: rope if sliding
    if (type === 'llama4' || type === 'llama4_text' || type === 'smollm3') {
      const list = Array.isArray(cfg.no_rope_layers) && cfg.no_rope_layers.length ? cfg.no_rope_layers : null;
      const uses = list ? list[i] : (i + 1) % get('no_rope_layer_interval') !== 0 ? 1 : 0;
      if (!uses) positions = 'nope';
      // Llama4TextConfig.__post_init__: layer_types, when absent, chunked where the layer rotates, else full.
      if (type !== 'smollm3' && !Array.isArray(cfg.layer_types)) kind = uses ? 'chunked_attention' : 'full_attention';
    }
    // Llama4TextAttention: a chunked_attention layer masks keys outside its block of attention_chunk_size.
    const llama4 = type === 'llama4' || type === 'llama4_text';
    const chunk =
      llama4 && kind === 'chunked_attention'
        ? cfg.attention_chunk_size === null
          ? 0
          : get('attention_chunk_size')
        : 0;
    const window = positions === 'no-attention' ? 0 : windowOf(cfg, type, i, kind);
    const bidirectional = window > 0 && type === 'modernbert'; // an encoder's window reaches both ways
    const queryScale = positions === 'no-attention' ? null : queryScaleOf(cfg, type, positions);
    out.push({
      kind,
      kvHeads: positions === 'no-attention' ? 0 : kv,
      positions,
      chunk,
      window,
      bidirectional,
      queryScale,
    });
  }
  return out;
}

/**
 * The factor a layer multiplies its queries by at position p (HF's cache_position), as a function, or null when the
 * layer scales none. Ministral3Attention, after apply_rotary_pos_emb: query_states * _get_llama_4_attn_scale(
 * cache_position, rope_parameters.get("llama_4_scaling_beta"), rope_parameters.get("original_max_position_embeddings")),
 * that is 1 + beta * log(1 + floor(positions / max)). Llama4TextAttention, on layers without RoPE when
 * config.attn_temperature_tuning is truthy (Llama4TextConfig defaults: True, floor_scale 8192, attn_scale 0.1):
 * log1p(floor((positions + 1) / floor_scale)) * attn_scale + 1.
 */
function queryScaleOf(cfg, type, positions) {
  if (type === 'ministral3') {
    const dict = cfg.rope_parameters ?? cfg.rope_scaling;
    const beta = dict.llama_4_scaling_beta;
    const max = dict.original_max_position_embeddings;
    return (p) => 1 + beta * Math.log(1 + Math.floor(p / max));
  }
  if ((type === 'llama4' || type === 'llama4_text') && positions === 'nope') {
    const tuning = cfg.attn_temperature_tuning === undefined ? true : cfg.attn_temperature_tuning;
    if (!tuning) return null; // Python's truth: None, False, 0
    const floorScale = cfg.floor_scale ?? 8192;
    const attnScale = cfg.attn_scale ?? 0.1;
    return (p) => Math.log1p(Math.floor((p + 1) / floorScale)) * attnScale + 1;
  }
  return null;
}

function absolute(type, part) {
  if (type === 't5' || type === 'mt5') return 'relative';
  if (type === 'whisper') return part === 'encoder' ? 'sinusoidal' : 'learned'; // sinusoids() / embed_positions
  return 'learned';
}

/** The position offset of a learned table (RoBERTa's padding_idx + 1, BART's and OPT's offset 2). */
export const learnedOffset = (type) => LEARNED[type] ?? 0;

/**
 * The rows of a model's learned table: Whisper's decoder max_target_positions; ViT's
 * ViTEmbeddings.position_embeddings, num_patches + 1 (the [CLS] row), num_patches =
 * (image_size // patch_size)^2 as ViTPatchEmbeddings counts them; else max_position_embeddings.
 */
export function learnedRows(config) {
  const { type, get } = textModel(config);
  if (type === 'whisper') return get('max_target_positions');
  if (type === 'vit') return Math.floor(get('image_size') / get('patch_size')) ** 2 + 1;
  return get('max_position_embeddings') ?? get('n_positions');
}

/**
 * A RoPE layer of kind `kind`: { headDim, rotaryDim, base, layout, w(length), attention(length) }, as
 * the model's rotary embedding builds its inv_freq (and attention_scaling) for that layer.
 */
export function hfRopeLayer(config, kind) {
  const { cfg, type, get } = textModel(config);
  if (type === 'chatglm') return chatglmRope(get);
  const heads = get('num_attention_heads') ?? get('n_head');
  const hidden = get('hidden_size') ?? get('n_embd') ?? get('d_model');
  const headDim =
    type === 'deepseek_v2' || type === 'deepseek_v3'
      ? get('qk_rope_head_dim')
      : (get('head_dim') ?? Math.floor(hidden / heads));
  let dict = cfg.rope_parameters ?? cfg.rope_scaling ?? null;
  if (dict && Object.values(dict).every((v) => v && typeof v === 'object' && !Array.isArray(v))) dict = dict[kind];
  const fraction = get('partial_rotary_factor') ?? dict?.partial_rotary_factor ?? get('rotary_pct') ?? 1;
  const rotaryDim = type === 'gptj' ? get('rotary_dim') : Math.floor(headDim * fraction);
  let base = dict?.rope_theta ?? get('rope_theta') ?? get('rotary_emb_base') ?? 10000;
  if ((type === 'gemma3' || type === 'gemma3_text') && kind === 'sliding_attention') {
    base = get('rope_local_base_freq'); // Gemma3's rotary_emb_local: rope_local_base_freq, default rope type
    dict = null;
  }
  if (type === 'modernbert')
    base = kind === 'full_attention' ? get('global_rope_theta') : (get('local_rope_theta') ?? get('global_rope_theta'));
  const layout = INTERLEAVED.has(type) || cfg.rope_interleave === true ? 'interleaved' : 'half';
  const ropeType = dict ? (dict.rope_type ?? dict.type ?? 'default') : 'default';
  const maxPositions = get('max_position_embeddings');
  const original =
    ropeType === 'dynamic'
      ? (dict.original_max_position_embeddings ?? maxPositions)
      : (get('original_max_position_embeddings') ?? dict?.original_max_position_embeddings ?? maxPositions);
  const p = { ...dict, original_max_position_embeddings: original };
  if ((ropeType === 'yarn' || ropeType === 'longrope') && p.factor === undefined) p.factor = maxPositions / original;
  const at = (length) => {
    switch (ropeType) {
      case 'default':
      case 'mrope':
        return { w: hfDefault(rotaryDim, base), attention: 1 };
      case 'linear':
        return hfLinear(rotaryDim, base, p);
      case 'dynamic':
        return hfDynamic(rotaryDim, base, p, length);
      case 'yarn':
        return hfYarn(rotaryDim, base, p);
      case 'llama3':
        return hfLlama3(rotaryDim, base, p);
      case 'longrope':
        return hfLongrope(rotaryDim, base, p, maxPositions, length);
      default:
        throw new Error(`no reference for rope_type ${ropeType}`);
    }
  };
  const mrope = dict?.mrope_section
    ? { section: dict.mrope_section, interleaved: dict.mrope_interleaved === true }
    : null;
  return { headDim, rotaryDim, base, layout, ropeType, original, at, mrope };
}

/**
 * GLM-4's first release (THUDM/glm-4-9b-chat, model_type chatglm) as its modeling_chatglm.py builds RoPE:
 * ChatGLMModel: rotary_dim = kv_channels (None: hidden_size // num_attention_heads), RotaryEmbedding(rotary_dim // 2,
 * rope_ratio); forward_impl(seq_len, n_elem = that dim): base = 10000 * rope_ratio, theta = 1 / base **
 * (arange(0, n_elem, 2) / n_elem); apply_rotary_pos_emb: rot_dim = 2 * len(theta) leading dims of each head, viewed
 * as (rot_dim / 2, 2) pairs of neighbours. Written here in float64, without rope-reference.js's HF functions.
 */
function chatglmRope(get) {
  const headDim = get('kv_channels') ?? Math.floor(get('hidden_size') / get('num_attention_heads'));
  const nElem = Math.floor(headDim / 2);
  const base = 10000 * (get('rope_ratio') ?? 1);
  const theta = [];
  for (let i = 0; i < nElem; i += 2) theta.push(1 / base ** (i / nElem));
  const w = Float64Array.from(theta);
  return {
    headDim,
    rotaryDim: 2 * theta.length,
    base,
    layout: 'interleaved',
    ropeType: 'default',
    original: get('seq_length'),
    at: () => ({ w, attention: 1 }),
    mrope: null,
  };
}
