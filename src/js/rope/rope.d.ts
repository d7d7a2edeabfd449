// Types of the rope family (src/js/rope): rotary position embeddings and
// their scaled frequencies. Re-exported by
// src/js/index.d.ts: the family's public types as the package exports them
// (package-level functions, instance methods).
import type { Floats, Layout, TensorLike, TensorResult, Float16Output } from '../runtime/runtime.js';
import type { ModelConfig } from '../config/config.js';

/**
 * Error codes of the rope family: BAD_ROTARY_DIM (rotaryDim odd, below 2 or
 * above headDim), BAD_SCALING (an unknown rope_type, or a scaling key missing,
 * unknown or out of range; the argument names the key, e.g.
 * `'scaling.factor'`), BAD_ORDER (order not 'blhd' or 'bhld'). Also the
 * runtime's BAD_HEADS, BAD_DIM (headDim), BAD_LAYOUT, BAD_POSITION,
 * BAD_OFFSET, BAD_LENGTH, BAD_SIZE, BAD_BUFFER, BAD_DTYPE. PLAN_FREED: a RoPE
 * plan used after free(). BAD_AXES: mrope sections that are not 3 whole
 * numbers ≥ 1 summing to rotaryDim/2 (or that disagree with
 * scaling.mrope_section), or 2-D RoPE with rotaryDim not a multiple of 4, with
 * scaling, or with mrope sections. BAD_XPOS: an `xpos` field out of range
 * (the argument names it, e.g. `'xpos.gamma'`), or xpos with a scaling or
 * with axes (mropeSection, vision). XPOS_RANGE: a position farther than
 * {@link XposOptions} allows from xpos.center. AMBIGUOUS_HEADS: on a plan
 * with two head counts (GQA/MQA), x's size reads as more than one (batch,
 * length, heads) that rotate different rows (give `heads` or a tensor).
 * BAD_SHAPE: a tensor's dims disagree with its data or with the options.
 */
export type RopeErrorCode =
  | 'BAD_ROTARY_DIM'
  | 'BAD_SCALING'
  | 'BAD_ORDER'
  | 'PLAN_FREED'
  | 'BAD_AXES'
  | 'BAD_XPOS'
  | 'XPOS_RANGE'
  | 'AMBIGUOUS_HEADS'
  | 'BAD_SHAPE';

/**
 * xPos (Sun et al., "A Length-Extrapolatable Transformer"; torchscale's XPOS):
 * RoPE whose pair i is also scaled by ζ_i^((p − center)/scaleBase) on queries
 * and by its inverse on keys, ζ_i = (2i/rotaryDim + gamma)/(1 + gamma), so q·k
 * carries ζ_i^((m − n)/scaleBase): it depends on m − n only and decays with
 * distance. cos and sin are multiplied by the scale (float32 products, as
 * torchscale's apply_rotary_pos_emb); ropeCosSin returns them scaled. Each
 * scale is the exact value rounded once to float32 (within half an ulp plus a
 * relative 2e-14). torchscale pairs elements with `rotate_every_two`: pass
 * layout 'interleaved' to match it (the default 'half' also works).
 *
 * torchscale centres each call at ceil(n/2), n = offset + length; here the
 * center is fixed per plan (give that value to get torchscale's numbers; q·k
 * is the same for any common center, up to rounding). Positions must lie
 * within center ± reach, reach = floor(64 ln 2 · scaleBase / |ln ζ_0|) (18130
 * for the defaults), so every scale stays within 2^−64 … 2^64; else
 * XPOS_RANGE, before x is touched. No `scaling` with xpos.
 */
export interface XposOptions {
  /** The distance over which ζ's power grows by one: a finite number ≥ 1e-6. Default 512 (torchscale). */
  scaleBase?: number;
  /** γ in ζ_i = (2i/rotaryDim + γ)/(1 + γ): a number from 1e-6 to 1e6. Default 0.4 (torchscale). */
  gamma?: number;
  /** 'query': ζ^((p − center)/scaleBase); 'key': its inverse (torchscale's downscale=True). Required. */
  role: 'query' | 'key';
  /** The position whose scale is 1: an integer 0 … 2^31 − 1. Default 0 (the paper's ζ^(p/scaleBase)). */
  center?: number;
}

/**
 * Position ids as engines hold them: integers 0 … 2^31 − 1 in an Int32Array,
 * Uint32Array, BigInt64Array (onnxruntime-web's int64 tensors) or a plain
 * Array of numbers or bigints.
 */
export type PositionIds = Int32Array | Uint32Array | BigInt64Array | ArrayLike<number> | ArrayLike<bigint>;

/**
 * Position ids of a rope with several axes (mropeSection or vision): one list
 * per axis, (axes, length) — for mrope (temporal, height, width), as HF's
 * get_rope_index makes them; for 2-D RoPE (row, column) of each patch — or
 * one flat list of axes · length ids, axis by axis.
 */
export type AxisPositionIds = PositionIds | ArrayLike<PositionIds>;

/**
 * A tensor x (onnxruntime-web's Tensor, transformers.js's, or any { data,
 * dims, type }): 'float32' data a Float32Array, 'float16' a Uint16Array of bits
 * or a Float16Array, 'bfloat16' a Uint16Array of bits. dims: 4-D in the
 * plan's order ((batch, length, heads, headDim) or (batch, heads, length,
 * headDim)), 3-D (batch, length, heads·headDim) as onnxruntime's
 * RotaryEmbedding takes it, or 2-D (length, heads·headDim); order 'blhd' for
 * 3-D and 2-D. Rows, heads and the element type come from it; options that
 * disagree are BAD_SHAPE. Rotated in place; the call returns the same object.
 */
export type RopeTensor = TensorLike<Float32Array | Uint16Array | ArrayBufferView, 'float32' | 'float16' | 'bfloat16'>;

/** Position ids as a tensor: dims [length], [batch, length] or (mrope) [3, batch, length]; int32 or int64 data. */
export type IdsTensor = TensorLike<Int32Array | Uint32Array | BigInt64Array | ArrayBufferView>;

/** x for RoPE: float32 values, or float16/bfloat16 bit patterns (Uint16Array with `dtype`, a 16-bit WasmBuffer), or a tensor. */
export type RopeX = Floats | Uint16Array | RopeTensor;

/** x rotated and returned as a tensor (`as: 'tensor'`): dims 4-D in the plan's order. */
export type RopeTensorResult = TensorResult<Float32Array | Uint16Array, 'float32' | 'float16' | 'bfloat16'>;

/** Which positions x's rows sit at: one of offset (with length), positions, positionIds or cuSeqlens. */
export interface RopeRows {
  /** Rows (tokens) per batch item: 0 … 2^31. Default: positions.length, the rows of positionIds, or all of x's rows (one batch item). */
  length?: number;
  /** Position of row 0: rows sit at offset … offset + length − 1. Default 0. Not with the others. */
  offset?: number;
  /**
   * One position per row, shared by every batch item and head. With mropeSection
   * or vision: (axes, length), see {@link AxisPositionIds}.
   */
  positions?: AxisPositionIds | IdsTensor;
  /**
   * (batch, length) ids, flat or as an Array of rows: each batch item its own
   * positions (HF's position_ids). Dynamic NTK's L is the largest id + 1 of the
   * whole call. With mropeSection or vision: (axes, batch, length), HF's
   * position_ids of Qwen2-VL: an Array of axes entries, each (batch, length)
   * flat or as rows, or one flat list axis by axis.
   */
  positionIds?: PositionIds | ArrayLike<PositionIds> | ArrayLike<ArrayLike<PositionIds>> | IdsTensor;
  /**
   * Packed sequences (flash-attention's and vLLM's cu_seqlens): batch + 1
   * non-decreasing row counts from 0 to x's row count; positions restart at 0
   * with every sequence. x is then one batch item.
   */
  cuSeqlens?: PositionIds;
  /**
   * x's element type: 'float16' or 'bfloat16' for a Uint16Array of bit patterns
   * (each rotated element is widened, rotated in float32 and rounded once, to
   * nearest even). Implied by a Float32Array, a Float16Array or a WasmBuffer.
   */
  dtype?: 'float32' | 'float16' | 'bfloat16';
  /**
   * The heads x holds (1 … 65536, any count: a query, a key, a tensor-parallel
   * shard). Default: a tensor's dims; else the plan's heads when it has one
   * count; else (heads ≠ kvHeads) the one reading of x's size among heads and
   * kvHeads for the rows the options fix, or readings that rotate alike (one
   * row, or order 'bhld', with shared positions); else AMBIGUOUS_HEADS.
   */
  heads?: number;
  /** 'tensor': return { data, dims, type } (x itself when x is a tensor). Default 'array': x. */
  as?: 'array' | 'tensor';
}

/** The plan's own options: createRope takes rope()'s options but the rows, with these. */
export interface PlanCacheOptions {
  /**
   * The positions the plan will see (HF's max_position_embeddings): 0 … 2^31.
   * With it the plan caches the laid-out cos/sin of positions below it when
   * they fit in 32 MiB (2 · rotaryDim floats a position) and `cache` allows;
   * positions at or past it still work, computed per call. Default 0.
   */
  maxPosition?: number;
  /** true: always cache maxPosition rows; false: never. Default: when it fits in 32 MiB. Never for dynamic NTK. */
  cache?: boolean;
}

type RowOptions = 'length' | 'offset' | 'positions' | 'positionIds' | 'cuSeqlens' | 'dtype';
export type CreateRopeOptions =
  | (Omit<RopeSpelledOptions, RowOptions> & { heads: number } & PlanCacheOptions & {
        config?: undefined;
        layerType?: undefined;
      })
  | (Omit<RopeSpelledOptions, RowOptions | ConfigSupplied | 'heads'> &
      FromModelConfig & { heads?: number } & PlanCacheOptions & { [K in ConfigSupplied]?: undefined });

export interface RopeCosSinOptions {
  /** Rows at offset … offset + length − 1 (or at positions). */
  length?: number;
  offset?: number;
  /** One position per row; with mropeSection or vision (axes, length), and the rows are the composed ones (HF's cos after the section split). */
  positions?: AxisPositionIds | IdsTensor;
  /**
   * false (default): (length, rotaryDim/2), ONNX RotaryEmbedding's cos_cache.
   * true: (length, rotaryDim) laid out for the layout: HF's cat(freqs, freqs)
   * for 'half', each value twice for 'interleaved'.
   */
  expand?: boolean;
  /**
   * 'float32' (default): the very products rope multiplies by (float32 cos times
   * the attention factor, as HF's cos() * attention_scaling). 'float16',
   * 'bfloat16' (Uint16Array bit patterns) and 'float64': the exact value times
   * the attention factor, rounded once (within 1e-12 before that rounding).
   */
  dtype?: 'float32' | 'float16' | 'bfloat16' | 'float64';
  /** 'tensor': cos and sin as { data, dims: [length, rotaryDim/2 or rotaryDim], type }. Default 'array'. */
  as?: 'array' | 'tensor';
  /** float16 results as bits (default for arrays) or a Float16Array ('auto': the default with as: 'tensor'). */
  float16?: Float16Output;
}

/** A cache as a tensor: data a Float32Array, Uint16Array (or Float16Array), or Float64Array. */
export type RopeCacheTensor = TensorResult<ArrayBufferView, 'float32' | 'float16' | 'bfloat16' | 'float64'>;

export interface RopeCosSin<T> {
  /** cos(p·w_i) times the attention factor, row by row. */
  cos: T;
  /** sin(p·w_i) times the attention factor (positive: the caches of HF and ONNX). */
  sin: T;
}

/**
 * A RoPE plan: the frequencies, attention factor, sinusoidal plan (and cos/sin
 * cache) built once in wasm memory; same bits as rope() for the same inputs.
 */
export interface RopePlan {
  readonly headDim: number;
  readonly rotaryDim: number;
  /** Query heads (num_attention_heads). */
  readonly heads: number;
  /** Key/value heads (num_key_value_heads; 1 for multi-query); heads when the plan has one count. */
  readonly kvHeads: number;
  /** Positions whose cos/sin the plan caches (0: none). */
  readonly cachedPositions: number;
  /** The scaled frequencies (a fresh copy; dynamic NTK: for L ≤ original length). */
  readonly frequencies: Float64Array;
  readonly attentionFactor: number;
  /** Rotates x (see {@link RopeMethods.rope}) in place and returns it. @throws PosencError PLAN_FREED after free(). */
  apply<X extends RopeTensor>(x: X, rows?: RopeRows): X;
  apply(x: Floats | Uint16Array, rows: RopeRows & { as: 'tensor' }): RopeTensorResult;
  apply<X extends RopeX>(x: X, rows?: RopeRows): X;
  /**
   * q (the plan's heads) and k (its kvHeads) rotated at the same positions;
   * both are checked before either is written. Not on an xPos plan (BAD_XPOS).
   */
  applyQK<Q extends RopeX, K extends RopeX>(q: Q, k: K, rows?: Omit<RopeRows, 'heads' | 'as'>): { q: Q; k: K };
  cosSin(options: RopeCosSinOptions & { as: 'tensor' }): RopeCosSin<RopeCacheTensor>;
  cosSin(
    options: RopeCosSinOptions & { dtype: 'float16'; float16: 'Float16Array' | 'auto' },
  ): RopeCosSin<ArrayBufferView>;
  cosSin(options: RopeCosSinOptions & { dtype: 'float16' | 'bfloat16' }): RopeCosSin<Uint16Array>;
  cosSin(options: RopeCosSinOptions & { dtype: 'float64' }): RopeCosSin<Float64Array>;
  cosSin(options: RopeCosSinOptions): RopeCosSin<Float32Array>;
  /** Returns the plan's wasm memory. Idempotent. */
  free(): void;
  [Symbol.dispose](): void;
}

export type RopeCosSinCallOptions = RopeCosSinOptions &
  Pick<
    RopeSpelledOptions,
    'headDim' | 'rotaryDim' | 'base' | 'scaling' | 'layout' | 'inverse' | 'mropeSection' | 'vision' | 'xpos'
  >;

/**
 * An HF transformers `rope_scaling` dict (`config.rope_scaling`, or v5's
 * `config.rope_parameters`), passed as it is; keys as HF names them. `type` is
 * HF's legacy name of `rope_type`; `rope_theta`, when present, is the base
 * (a finite number above 1). Missing optional keys and `null` take HF's defaults.
 */
export type RopeScaling =
  /** mrope_section: Qwen2-VL's sections (see {@link RotaryOptions.mropeSection}). */
  | {
      rope_type?: 'default';
      type?: 'default';
      rope_theta?: number;
      mrope_section?: ArrayLike<number>;
      mrope_interleaved?: boolean;
    }
  /** Qwen2-VL's and Qwen2.5-VL's legacy type: default frequencies with mrope_section, as their config.json ships it. */
  | {
      rope_type?: 'mrope';
      type?: 'mrope';
      mrope_section: ArrayLike<number>;
      mrope_interleaved?: boolean;
      rope_theta?: number;
    }
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
  /**
   * LongRoPE (Phi-3, Phi-3.5; HF `_compute_longrope_parameters`): w_i / long_factor[i] when the sequence (the call's
   * largest position + 1) is longer than original_max_position_embeddings, else w_i / short_factor[i]; cos and sin
   * times attention_factor, or else sqrt(1 + ln(factor) / ln(original)) when factor > 1 (factor: HF's
   * max_position_embeddings / original_max_position_embeddings).
   */
  | {
      rope_type?: 'longrope';
      type?: 'longrope';
      original_max_position_embeddings: number;
      /** rotaryDim/2 finite numbers above 0 each. */
      short_factor: ArrayLike<number>;
      long_factor: ArrayLike<number>;
      attention_factor?: number | null;
      factor?: number | null;
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
  /**
   * mrope of Qwen2-VL and Qwen2.5-VL (HF transformers' apply_multimodal_rotary_pos_emb): 3 whole numbers of
   * pairs, summing to rotaryDim/2 ([16, 24, 24] for headDim 128). The pairs, in order, fall in the temporal,
   * height and width sections, each turned by its axis's position with the usual w_i; rows then take
   * positions of shape (3, length) or positionIds (3, batch, length). Without them (offset and length) every
   * axis is the row's position: plain RoPE, bit for bit. Also read from scaling.mrope_section.
   */
  mropeSection?: ArrayLike<number>;
  /**
   * Qwen3-VL's interleaved mrope (HF transformers' apply_interleaved_mrope; config key mrope_interleaved): the
   * same sections, but pair i turns by the height axis when i % 3 == 1 and i < 3·section[1], by the width axis
   * when i % 3 == 2 and i < 3·section[2], else by the temporal axis. Needs mropeSection (or
   * scaling.mrope_section). Also read from scaling.mrope_interleaved. Default false.
   */
  mropeInterleaved?: boolean;
  /**
   * 2-D axial RoPE of vision patches, following Qwen2-VL's vision tower (HF transformers'
   * VisionRotaryEmbedding(headDim / 2) and apply_rotary_pos_emb_vision; Qwen2.5-VL's is the same): with
   * q = rotaryDim/4, pairs 0 … q−1 turn by the patch's row and pairs q … 2q−1 by its column, both with
   * w_j = base^(−j/q). rotaryDim a multiple of 4, no scaling; rows take positions (2, length) or
   * positionIds (2, batch, length): rows, then columns. Default false.
   */
  vision?: boolean;
}

export interface RopeSpelledOptions extends RotaryOptions {
  /** Rows (tokens) per sequence: an integer 0 … 2^31. Default as {@link RopeRows.length}. */
  length?: number;
  /**
   * Attention heads: an integer 1 … 65536. For rope(), the heads x holds (then
   * kvHeads is not needed); left out, x must be a tensor (or a config gives it).
   */
  heads: number;
  /**
   * Key/value heads of grouped-query attention (1: multi-query): an integer
   * that divides heads. Default heads. A plan with heads ≠ kvHeads rotates
   * queries and keys alike (see {@link RopeRows.heads}).
   */
  kvHeads?: number;
  /** Position of row 0: rows sit at offset … offset + length − 1 (≤ 2^31). Default 0. Not with positions. */
  offset?: number;
  /** One position per row (shared by batch items and heads), integers 0 … 2^31 − 1; see {@link RopeRows.positions}. */
  positions?: AxisPositionIds;
  /** See {@link RopeRows.positionIds}. */
  positionIds?: RopeRows['positionIds'];
  /** See {@link RopeRows.cuSeqlens}. */
  cuSeqlens?: PositionIds;
  /** See {@link RopeRows.dtype}. */
  dtype?: 'float32' | 'float16' | 'bfloat16';
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
  /** xPos's per-pair scale on top of the rotation (see {@link XposOptions}). Default: none (plain RoPE). */
  xpos?: XposOptions;
}

export interface RopeFrequenciesSpelledOptions extends RotaryOptions {
  /** The sequence length L dynamic NTK scales for: an integer 0 … 2^31. Default 0 (no scaling). */
  length?: number;
}

/** The options a model's config.json supplies; giving them beside `config` is refused. */
type ConfigSupplied = 'headDim' | 'rotaryDim' | 'base' | 'scaling';

/**
 * A model's config.json (JSON.parse of the file, or its text) in place of
 * headDim, rotaryDim, base and scaling, read as HF transformers reads it (see
 * fromConfig); heads defaults to num_attention_heads and layout to the
 * model's (interleaved for GPT-J and DeepSeek). createRope and ropeCosSin take
 * it too.
 */
export interface FromModelConfig {
  config: ModelConfig | string;
  /** The layer type when the RoPE differs by layer type (Gemma 3: 'full_attention' or 'sliding_attention'). */
  layerType?: string;
  /**
   * A layer index (0 … layers − 1): rotate as that layer does (its layer type picked from the config, as
   * fromConfig's `layers` says). A layer without positions (NoPE, Mamba, linear attention) is refused with
   * NO_POSITIONS; an index out of range with BAD_LAYER. Not with layerType. Only the rotation: a layer whose
   * queries are also scaled by position (Ministral 3, Llama 4's NoPE layers: fromConfig's `queryScale`) is
   * rotated without that factor, which the caller applies.
   */
  layer?: number;
}

export type RopeOptions =
  | (RopeSpelledOptions & { config?: undefined; layerType?: undefined; layer?: undefined })
  | (Omit<RopeSpelledOptions, ConfigSupplied | 'heads'> &
      FromModelConfig & { heads?: number } & { [K in ConfigSupplied]?: undefined });
/** rope()'s options for a tensor x, whose dims give heads (and, 4-D, headDim). */
export type RopeTensorOptions = Omit<RopeSpelledOptions, 'heads' | 'headDim'> & {
  heads?: number;
  headDim?: number;
  config?: undefined;
  layerType?: undefined;
};
export type RopeFrequenciesOptions =
  | (RopeFrequenciesSpelledOptions & { config?: undefined; layerType?: undefined; layer?: undefined })
  | (Pick<RopeFrequenciesSpelledOptions, 'length'> & FromModelConfig & { [K in ConfigSupplied]?: undefined });

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
  rope<X extends RopeTensor>(x: X, options: RopeOptions | RopeTensorOptions): X;
  rope(x: Floats | Uint16Array, options: RopeOptions & { as: 'tensor' }): RopeTensorResult;
  rope<X extends RopeX>(x: X, options: RopeOptions): X;
  /** q (heads) and k (kvHeads, or a config's key/value heads) at the same positions: createRope(options).applyQK(q, k, rows). */
  ropeQK<Q extends RopeX, K extends RopeX>(q: Q, k: K, options: RopeOptions): { q: Q; k: K };
  /** The scaled frequencies and the attention factor rope() uses, to compare with a model's inv_freq. */
  ropeFrequencies(options: RopeFrequenciesOptions): RopeFrequencies;
  /** A plan for repeated calls with the same options (decoding, prefill). Free it with free() or `using`. */
  createRope(options: CreateRopeOptions): RopePlan;
  /** cos/sin caches as engines hold them (ONNX RotaryEmbedding's cos_cache/sin_cache, HF's cos/sin). */
  ropeCosSin(options: RopeCosSinCallOptions & { as: 'tensor' }): RopeCosSin<RopeCacheTensor>;
  ropeCosSin(
    options: RopeCosSinCallOptions & { dtype: 'float16'; float16: 'Float16Array' | 'auto' },
  ): RopeCosSin<ArrayBufferView>;
  ropeCosSin(options: RopeCosSinCallOptions & { dtype: 'float16' | 'bfloat16' }): RopeCosSin<Uint16Array>;
  ropeCosSin(options: RopeCosSinCallOptions & { dtype: 'float64' }): RopeCosSin<Float64Array>;
  ropeCosSin(options: RopeCosSinCallOptions): RopeCosSin<Float32Array>;
}

/** See {@link RopeMethods.rope}. */
export const rope: RopeMethods['rope'];
/** See {@link RopeMethods.ropeQK}. */
export const ropeQK: RopeMethods['ropeQK'];
/** See {@link RopeMethods.ropeFrequencies}. */
export const ropeFrequencies: RopeMethods['ropeFrequencies'];
/** See {@link RopeMethods.createRope}. */
export const createRope: RopeMethods['createRope'];
/** See {@link RopeMethods.ropeCosSin}. */
export const ropeCosSin: RopeMethods['ropeCosSin'];
