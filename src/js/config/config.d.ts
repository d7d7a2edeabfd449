// Types of the config family (src/js/config): a model's config.json read by
// the C core as HF transformers reads it. Re-exported by src/js/index.d.ts;
// the rope family's options take `config` and `layerType` (rope/rope.d.ts).
import type { Frequencies } from '../sinusoid/sinusoid.js';
import type { Layout } from '../runtime/runtime.js';
import type { RopeScaling } from '../rope/rope.js';

/** A model's config.json as JSON.parse gives it. */
export type ModelConfig = Record<string, unknown>;

/** Error codes of model configs: BAD_CONFIG (not a JSON object, or no scheme posenc knows), BAD_LAYER_TYPE, BAD_LAYER (a layer index out of range), NO_POSITIONS (rope() of a layer without positions). BAD_SCALING names a refused key. */
export type ConfigErrorCode = 'BAD_CONFIG' | 'BAD_LAYER_TYPE' | 'BAD_LAYER' | 'NO_POSITIONS';

/** One RoPE as a model's config describes it: the options rope() and ropeFrequencies() take. */
export interface ConfigRope {
  headDim: number;
  rotaryDim: number;
  base: number;
  layout: 'half' | 'interleaved';
  /** HF's dict, rebuilt with the keys that matter (fallbacks filled in); null: no scaling. */
  scaling:
    | RopeScaling
    | { rope_type: 'default'; mrope_section: number[] }
    | {
        rope_type: 'longrope';
        short_factor: number[];
        long_factor: number[];
        original_max_position_embeddings: number;
        factor: number;
        attention_factor?: number;
      }
    | null;
}

/**
 * One layer of the model as HF's modeling code builds it (pe_config_layer_read): its kind
 * (layer_types' name, 'attention', 'mamba', 'encoder', 'decoder', ...), its key/value heads, and its
 * positions: the model's scheme with its settings, or 'none' with why (NoPE attention, or no attention).
 * attentionChunk: Llama 4's chunked_attention layers, whose queries see only the keys of their own block
 * of that many positions (attention_chunk_size); absent for every other layer.
 * slidingWindow: the layer's attention window where the config sets one (Mistral, Phi-3, Starcoder2,
 * Gemma 2/3, Cohere 2, gpt-oss and OLMo 3 sliding layers, Qwen with use_sliding_window, ModernBERT's local
 * layers): a query at q sees the keys q - slidingWindow < k <= q, as HF masks them; absent on layers
 * without a window.
 * slidingBidirectional: true when the window is two-sided (ModernBERT, an encoder: local_attention // 2
 * keys on each side, a query at q sees |q - k| <= slidingWindow); absent otherwise.
 * queryScale: a layer that multiplies its queries (after RoPE, before q·k) by a factor that grows with
 * position: at position p (the token's index in the whole sequence, cache included: HF's cache_position)
 * the factor is 1 + beta · ln(1 + floor((p + shift) / length)). Ministral 3 (Devstral Small 2): every layer,
 * rope_parameters' llama_4_scaling_beta and original_max_position_embeddings, shift 0. Llama 4: its NoPE
 * layers under attn_temperature_tuning, attn_scale and floor_scale, shift 1. Absent otherwise. rope() with
 * `{ config, layer }` only rotates: it never applies this factor.
 */
export type ConfigLayer = {
  index: number;
  kind: string;
  kvHeads: number;
  attentionChunk?: number;
  slidingWindow?: number;
  slidingBidirectional?: true;
  queryScale?: { beta: number; length: number; shift: number };
} & (
  | { scheme: 'rope'; rope: ConfigRope; layerType?: string }
  | { scheme: 'alibi'; heads: number }
  | { scheme: 'relative'; relative: 't5'; numBuckets: number; maxDistance: number }
  | { scheme: 'relative'; relative: 'shaw'; maxRelative: number }
  | { scheme: 'learned'; dim: number; positionOffset: number; maxPositions?: number }
  | {
      scheme: 'sinusoidal';
      dim: number;
      positionOffset: number;
      maxPositions?: number;
      layout: Layout;
      frequencies: Frequencies;
    }
  | { scheme: 'none'; none: 'nope' | 'no-attention' }
);

interface ConfigCommon {
  /** num_attention_heads (n_head, n_heads, num_heads), hidden_size (n_embd, d_model), max_position_embeddings (n_positions, max_seq_len). */
  heads?: number;
  /**
   * Key/value heads (GQA, MQA) as HF counts them: num_key_value_heads,
   * num_kv_heads or n_head_kv, 1 with multi_query (not with Falcon's
   * new_decoder_architecture); heads when the config names none.
   */
  kvHeads?: number;
  hiddenSize?: number;
  maxPositions?: number;
  /** Every layer (with layerType: the layers of that type), in order; absent when the config gives no layer count. */
  layers?: ConfigLayer[];
  /** Keys of the config posenc did not use (dotted inside objects). Keys that change the math and are not understood are refused instead. */
  ignored: string[];
}

/** What a model uses, as fromConfig() reads its config.json. */
export type ConfigDescription = ConfigCommon &
  (
    | { kind: 'rope'; rope: ConfigRope }
    | { kind: 'rope'; layerTypes: Record<string, ConfigRope> }
    | { kind: 'alibi'; heads: number; slopes: Float32Array }
    | { kind: 'none' }
    | { kind: 'relative'; scheme: 't5'; numBuckets: number; maxDistance: number; encoderDecoder: boolean }
    | { kind: 'relative'; scheme: 'shaw'; maxRelative: number }
    | { kind: 'learned'; dim: number; positionOffset: number }
    | { kind: 'sinusoidal'; dim: number; layout: Layout; frequencies: Frequencies; positionOffset: number }
  );

/** The config family's methods on an instance. */
export interface ConfigMethods {
  /**
   * Which position scheme a model's config.json describes (read by the C core
   * as HF transformers reads it: names, fallbacks, legacy keys, per-layer-type
   * rope_parameters, text_config). With layerType, that layer type's RoPE only.
   * @throws PosencError BAD_CONFIG, BAD_SCALING (naming the key), BAD_LAYER_TYPE
   */
  fromConfig(config: ModelConfig | string, options?: { layerType?: string }): ConfigDescription;
}

/** See {@link ConfigMethods.fromConfig}. */
export const fromConfig: ConfigMethods['fromConfig'];
