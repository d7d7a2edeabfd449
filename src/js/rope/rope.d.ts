// Types of the rope family (src/js/rope): rotary position embeddings and
// their scaled frequencies. Re-exported by
// src/js/index.d.ts: the family's public types as the package exports them
// (package-level functions, instance methods).
import type { Floats, Layout, PositionList } from '../runtime/runtime.js';

/**
 * Error codes of the rope family: BAD_ROTARY_DIM (rotaryDim odd, below 2 or
 * above headDim), BAD_SCALING (an unknown rope_type, or a scaling key missing,
 * unknown or out of range; the argument names the key, e.g.
 * `'scaling.factor'`), BAD_ORDER (order not 'blhd' or 'bhld'). Also the
 * runtime's BAD_HEADS, BAD_DIM (headDim), BAD_LAYOUT, BAD_POSITION,
 * BAD_OFFSET, BAD_LENGTH, BAD_SIZE, BAD_BUFFER.
 */
export type RopeErrorCode = 'BAD_ROTARY_DIM' | 'BAD_SCALING' | 'BAD_ORDER';

/**
 * An HF transformers `rope_scaling` dict (`config.rope_scaling`, or v5's
 * `config.rope_parameters`), passed as it is; keys as HF names them. `type` is
 * HF's legacy name of `rope_type`; `rope_theta`, when present, is the base
 * (a finite number above 1). Missing optional keys and `null` take HF's defaults.
 */
export type RopeScaling =
  | { rope_type?: 'default'; type?: 'default'; rope_theta?: number }
  /** Position interpolation: every w_i / factor (factor: finite, ≥ 1). */
  | { rope_type?: 'linear'; type?: 'linear'; factor: number; rope_theta?: number }
  /**
   * Dynamic NTK: for a sequence of length L > original_max_position_embeddings
   * the base becomes base · (factor·L/orig − (factor − 1))^(r/(r−2)) (r =
   * rotaryDim ≥ 4). L is the call's largest position + 1 (HF:
   * max(position_ids) + 1). HF reads the original length from
   * config.max_position_embeddings: pass that here (an integer 1 … 2^32 − 1).
   */
  | {
      rope_type?: 'dynamic';
      type?: 'dynamic';
      factor: number;
      original_max_position_embeddings: number;
      rope_theta?: number;
    }
  /**
   * YaRN (HF `_compute_yarn_parameters`): w_i ramps from w_i/factor to w_i over
   * the pairs between the beta_fast and beta_slow correction dimensions; cos and
   * sin are multiplied by the attention factor (attention_factor, else from
   * factor, mscale and mscale_all_dim). `factor` is used as given.
   */
  | {
      rope_type?: 'yarn';
      type?: 'yarn';
      factor: number;
      original_max_position_embeddings: number;
      /** Finite, ≥ 0. Default 32. */
      beta_fast?: number | null;
      /** Finite, ≥ 0. Default 1. */
      beta_slow?: number | null;
      /** Above 0 and below 3.4e38 (it scales float32 cos and sin). Default: from factor, mscale and mscale_all_dim. */
      attention_factor?: number | null;
      /** Finite. */
      mscale?: number | null;
      /** Finite. */
      mscale_all_dim?: number | null;
      /** Default true: floor and ceil the correction range. */
      truncate?: boolean | null;
      rope_theta?: number;
    }
  /** Llama 3.1 (HF `_compute_llama3_parameters`): long wavelengths / factor, short ones kept, a smooth blend between. */
  | {
      rope_type?: 'llama3';
      type?: 'llama3';
      factor: number;
      original_max_position_embeddings: number;
      /** Above 0. */
      low_freq_factor: number;
      /** Above low_freq_factor. */
      high_freq_factor: number;
      rope_theta?: number;
    };

/** The rotation itself: which elements rotate, how fast. Shared by rope() and ropeFrequencies(). */
export interface RotaryOptions {
  /** Elements per head: an integer 1 … 65536. */
  headDim: number;
  /** Rotated elements at the start of each head: even, 2 … headDim; the rest pass unchanged. Default headDim (then even). */
  rotaryDim?: number;
  /** Frequency base: a finite number above 1 (rope_theta in HF configs). Default 10000. */
  base?: number;
  /** Frequency scaling from a model config; see {@link RopeScaling}. Default none. */
  scaling?: RopeScaling | null;
}

export interface RopeOptions extends RotaryOptions {
  /** Rows (tokens) per sequence: an integer 0 … 2^31. Default positions.length when positions is given. */
  length?: number;
  /** Attention heads: an integer 1 … 65536. */
  heads: number;
  /** Position of row 0: rows sit at offset … offset + length − 1 (≤ 2^31). Default 0. Not with positions. */
  offset?: number;
  /** One position per row (shared by batch items and heads), integers 0 … 2^31 − 1. */
  positions?: PositionList;
  /**
   * Which elements pair up (the same idea as the sinusoid's layout). 'half'
   * (default; 'split' is another name of it): x[i] with x[i + rotaryDim/2], HF
   * Llama's rotate_half, GPT-NeoX. 'interleaved': x[2i] with x[2i+1], GPT-J,
   * RoFormer, llama.cpp's default.
   */
  layout?: Layout;
  /** Rotate by −angle: undoes rope() with the same options (re-rotating cached keys). Default false. */
  inverse?: boolean;
  /**
   * x's shape: 'blhd' (default) = (batch, length, heads, headDim), the
   * activations before the transpose (HF, llama.cpp); 'bhld' = (batch, heads,
   * length, headDim), as attention reads them.
   */
  order?: 'blhd' | 'bhld';
}

export interface RopeFrequenciesOptions extends RotaryOptions {
  /** The sequence length L dynamic NTK scales for: an integer 0 … 2^31. Default 0 (no scaling). */
  length?: number;
}

export interface RopeFrequencies {
  /** w_i for pair i < rotaryDim/2, after scaling: the angle of pair i at position p is p·w_i (HF's inv_freq). */
  frequencies: Float64Array;
  /** The factor on cos and sin: 1 unless YaRN. */
  attentionFactor: number;
}

/** The rope family's methods on an instance. */
export interface RopeMethods {
  /**
   * Rotary position embeddings, in place: rotates each pair (x1, x2) of the
   * first rotaryDim elements of every head by p·w_i,
   * x1' = x1·cos − x2·sin, x2' = x2·cos + x1·sin (float32, HF's operation
   * order), w_i = base^(−2i/rotaryDim) then scaled. cos and sin are the
   * sinusoidal table's (within 6e-8 of exact for every position below 2^31).
   * x is a Float32Array or a WasmBuffer (then nothing is copied) of
   * batch·length·heads·headDim floats. Returns x. A refused call leaves x as it was.
   */
  rope<X extends Floats>(x: X, options: RopeOptions): X;
  /** The scaled frequencies and the attention factor rope() uses, to compare with a model's inv_freq. */
  ropeFrequencies(options: RopeFrequenciesOptions): RopeFrequencies;
}

/** See {@link RopeMethods.rope}. */
export const rope: RopeMethods['rope'];
/** See {@link RopeMethods.ropeFrequencies}. */
export const ropeFrequencies: RopeMethods['ropeFrequencies'];
