// Type declarations of the posenc package (src/js/index.js).

/** Row layouts of a d-dimensional encoding (s = sine, c = cosine, digit = pair i). */
export type Layout =
  /** `[s0 c0 s1 c1 ...]`: the paper's, PyTorch tutorials. */
  | 'interleaved'
  /** `[s0 s1 ... c0 c1 ...]`: tensor2tensor, HF Marian. */
  | 'split';

/** How pair i's frequency follows from T and d (h = d/2 pairs). */
export type Frequencies =
  /** `w_i = T^(-2i/d)`: the paper, PyTorch tutorials, HF Marian. */
  | 'paper'
  /** `w_i = T^(-i/max(h-1, 1))`: tensor2tensor, fairseq (the last pair reaches exactly 1/T). */
  | 'tensor2tensor';

/**
 * Named conventions: each sets `layout` and `frequencies` (giving either too is
 * refused unless it agrees). `vaswani`: interleaved, paper. `tensor2tensor` and
 * `fairseq`: split, tensor2tensor (fairseq numbers positions from 2: pass
 * `offset: 2`). `marian`: split, paper.
 */
export type Preset = 'vaswani' | 'tensor2tensor' | 'fairseq' | 'marian';

/** The encoding's convention, shared by the sinusoidal calls. */
export interface ConventionOptions {
  /** Default 'interleaved'. */
  layout?: Layout;
  /** Default 'paper'. */
  frequencies?: Frequencies;
  /** Sets layout and frequencies together. */
  preset?: Preset;
}

/** Error codes of PosencError. */
export type PosencErrorCode =
  | 'NOT_INITIALIZED' | 'BAD_DIM' | 'BAD_LENGTH' | 'BAD_OFFSET' | 'BAD_POSITION' | 'BAD_BASE'
  | 'BAD_LAYOUT' | 'BAD_SCALE' | 'BAD_BUFFER' | 'BAD_SIZE' | 'TABLE_TOO_SHORT' | 'TOO_LARGE'
  | 'BUFFER_FREED' | 'UNKNOWN_OPTION' | 'BAD_OPTIONS' | 'BAD_PRESET' | 'BAD_FREQUENCIES' | 'LOAD_FAILED'
  | AlibiLearnedErrorCode | RopeErrorCode | PrecisionErrorCode;

/** Every refusal of posenc. The message names the argument, its value and what is allowed. */
export class PosencError extends Error {
  readonly name: 'PosencError';
  readonly code: PosencErrorCode;
  /** The argument refused, e.g. `'dim'` or `'positions[3]'`, when there is one. */
  readonly argument: string | undefined;
  /** The value refused. */
  readonly value: unknown;
}

/**
 * Floats that live in the wasm memory of the instance that allocated them
 * (see {@link alloc}). Accepted wherever a Float32Array is (`out`, `x`,
 * `table`); then nothing is copied.
 */
export class WasmBuffer {
  private constructor();
  /** Number of elements: floats, or 16-bit patterns for alloc(n, { dtype: 'float16' | 'bfloat16' }). */
  readonly length: number;
  /** 'float32', or 'float16' / 'bfloat16' (bit patterns, taken only as RoPE's x). */
  readonly dtype: 'float32' | 'float16' | 'bfloat16';
  /** True once {@link WasmBuffer.free} ran. */
  readonly freed: boolean;
  /**
   * A fresh Float32Array view of the floats. Valid until the next posenc call:
   * wasm memory may grow, which detaches every earlier view.
   * @throws PosencError BUFFER_FREED after free().
   */
  readonly array: Float32Array | Uint16Array;
  /** Returns the memory. Idempotent; using the buffer afterwards throws BUFFER_FREED. */
  free(): void;
  [Symbol.dispose](): void;
}

/** A Float32Array, or a WasmBuffer of the same instance (no copying). */
export type Floats = Float32Array | WasmBuffer;

/** Positions: integers 0 <= p < 2^31. */
export type Positions = ArrayLike<number> | Uint32Array | Int32Array | Float64Array | Float32Array | WasmBuffer;

export interface TableOptions<Out extends Floats = Floats> extends ConventionOptions {
  /** Number of positions (rows): an integer 0 ... 2^31. */
  length: number;
  /** Embedding size d: even, 2 ... 65536. */
  dim: number;
  /** Frequency base T, finite and > 1. Default 10000. */
  base?: number;
  /** First position. offset + length <= 2^31. Default 0. */
  offset?: number;
  /** Where to write the (length, dim) table; exactly length·dim floats. */
  out?: Out;
}

export interface TableAtOptions<Out extends Floats = Floats> extends ConventionOptions {
  dim: number;
  base?: number;
  /** Where to write the (positions.length, dim) rows. */
  out?: Out;
}

export interface AddOptions extends ConventionOptions {
  /** Rows (positions) of each batch item: x is (batch, length, dim). */
  length: number;
  dim: number;
  base?: number;
  offset?: number;
  /** x is multiplied by scale (rounded to float32) before the add; often sqrt(dim). Default 1. */
  scale?: number;
}

export interface AddTableOptions {
  length: number;
  /** Row size of x and table: 1 ... 65536 (learned tables may be odd). */
  dim: number;
  /** Row of the table added to x's first row. offset + length <= table rows. Default 0. */
  offset?: number;
  scale?: number;
}

export interface InitOptions {
  /** false forces the scalar build; true requires SIMD; default: SIMD when the engine has it. */
  simd?: boolean;
  /** The module to use instead of the bundled one: bytes, a compiled module, a Response (or its promise), a URL or a URL/path string. */
  wasm?: BufferSource | WebAssembly.Module | Response | PromiseLike<Response> | URL | string;
}

/** An independent posenc instance (its own wasm memory). */
export interface Posenc {
  /** True when this instance runs the SIMD build. */
  readonly simd: boolean;
  /**
   * The (length, dim) table of positions offset ... offset+length-1, row-major:
   * PE(p, 2i) = sin(p·w_i), PE(p, 2i+1) = cos(p·w_i), w_i = base^(-2i/dim) (interleaved).
   * Each value within 6e-8 of exact for positions < 2^24, bit-identical on every build.
   * @returns `out` when given (filled), else a new Float32Array.
   */
  sinusoidal<Out extends Floats>(options: TableOptions<Out> & { out: Out }): Out;
  sinusoidal(options: TableOptions): Float32Array;
  /** The rows of the given positions: the same bits as the table rows of those positions. */
  sinusoidalAt<Out extends Floats>(positions: Positions, options: TableAtOptions<Out> & { out: Out }): Out;
  sinusoidalAt(positions: Positions, options: TableAtOptions): Float32Array;
  /**
   * In place, for x of shape (batch, length, dim):
   * x[b, r, j] = float32(float32(x[b, r, j] · scale) + PE(offset + r, j)).
   * @returns x
   */
  addSinusoidal<X extends Floats>(x: X, options: AddOptions): X;
  /**
   * In place with a learned (rows, dim) table:
   * x[b, r, j] = float32(float32(x[b, r, j] · scale) + table[offset + r, j]).
   * x and table must not overlap. @returns x
   */
  addTable<X extends Floats>(x: X, table: Floats, options: AddTableOptions): X;
  /**
   * n floats in wasm memory. @throws PosencError TOO_LARGE when wasm32 memory
   * (4 GiB) cannot hold them; nothing is allocated then.
   */
  alloc(n: number, options?: AllocOptions): WasmBuffer;
}

export interface AllocOptions {
  /** 'float32' (default), or 'float16' / 'bfloat16': n 16-bit patterns (RoPE's x only; other calls refuse them). */
  dtype?: 'float32' | 'float16' | 'bfloat16';
}

/**
 * Loads the wasm for the package-level functions. One-shot: concurrent and
 * later calls share the first call's promise (and its options); a failed
 * call may be retried.
 */
export function init(options?: InitOptions): Promise<{ simd: boolean }>;

/** A new independent instance, e.g. to hold the SIMD and the scalar build side by side. */
export function instantiate(options?: InitOptions): Promise<Posenc>;

/** See {@link Posenc.sinusoidal}. Throws NOT_INITIALIZED before init(). */
export function sinusoidal<Out extends Floats>(options: TableOptions<Out> & { out: Out }): Out;
export function sinusoidal(options: TableOptions): Float32Array;
/** See {@link Posenc.sinusoidalAt}. */
export function sinusoidalAt<Out extends Floats>(positions: Positions, options: TableAtOptions<Out> & { out: Out }): Out;
export function sinusoidalAt(positions: Positions, options: TableAtOptions): Float32Array;
/** See {@link Posenc.addSinusoidal}. */
export function addSinusoidal<X extends Floats>(x: X, options: AddOptions): X;
/** See {@link Posenc.addTable}. */
export function addTable<X extends Floats>(x: X, table: Floats, options: AddTableOptions): X;
/** See {@link Posenc.alloc}. */
export function alloc(n: number, options?: AllocOptions): WasmBuffer;

// ---- ALiBi and learned tables ----

/**
 * Error codes of ALiBi and learned tables: BAD_HEADS (heads not 1 … 65536),
 * BAD_FILE (a malformed or truncated file), BAD_DTYPE (an element type other
 * than float16/bfloat16/float32/float64), BAD_ORDER (a Fortran-order .npy),
 * BAD_NAME (no such tensor; the message lists the file's tensors), BAD_SHAPE
 * (not a 2-D table, or not the rows/dim expected).
 */
export type AlibiLearnedErrorCode = 'BAD_HEADS' | 'BAD_FILE' | 'BAD_DTYPE' | 'BAD_ORDER' | 'BAD_NAME' | 'BAD_SHAPE';

export interface AlibiBiasOptions<Out extends Floats = Floats> {
  /** Attention heads: 1 … 65536. They fix the slopes (see {@link Posenc.alibiSlopes}). */
  heads: number;
  /** Query rows: 0 … 2^31. */
  queryLength: number;
  /** Key columns: 0 … 2^31. Default queryLength. */
  keyLength?: number;
  /**
   * Key position of query row 0. Default keyLength − queryLength: the last
   * query sits on the last key (decoding with a cache, as HF and fairseq do);
   * required when queryLength > keyLength. offset + queryLength ≤ 2^31.
   */
  offset?: number;
  /** true: keys after the query get -Infinity. Default false (the symmetric, bidirectional form). */
  causal?: boolean;
  /** Where to write the (heads, queryLength, keyLength) tensor. */
  out?: Out;
}

export interface ResampleOptions<Out extends Floats = Floats> {
  /** Row size of table and result: 1 … 65536. */
  dim: number;
  /** Rows of the result: 0 … 2^31. */
  newRows: number;
  /** Rows of table, checked against table.length / dim when given. */
  rows?: number;
  /** Where to write the (newRows, dim) result; must not be table. */
  out?: Out;
}

/** The shape a table read from a file must have; either may be left out. */
export interface ReadTableOptions {
  /** Rows (positions) the table must have. */
  rows?: number;
  /** Row size the table must have. */
  dim?: number;
}

export interface ReadSafetensorsOptions extends ReadTableOptions {
  /** The tensor, e.g. 'model.embed_positions.weight'. Optional when the file holds one tensor. */
  name?: string;
}

/** A position table read from a file. */
export interface LearnedTable {
  /** (rows, dim) row-major, converted to float32 (float64 rounds to nearest; the others are exact). */
  table: Float32Array;
  rows: number;
  dim: number;
  /** The element type as the file spells it: '<f4', '>f2', … (.npy) or 'F32', 'BF16', … (.safetensors). */
  dtype: string;
  /** The tensor's shape in the file; leading axes of size 1 are dropped for rows and dim ((1, 197, 768) → 197 × 768). */
  shape: number[];
  /** The tensor's name (.safetensors only). */
  name?: string;
}

/** The contents of a file: posenc never touches the file system (read it with fs.readFileSync or File.arrayBuffer()). */
export type FileBytes = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

export interface Posenc {
  /**
   * ALiBi slopes (Press et al., "Train Short, Test Long"), exactly as the
   * paper's get_slopes: with P the largest power of two ≤ heads, head h < P has
   * 2^(-8(h+1)/P) and head P + k has 2^(-4(2k+1)/P) (every other slope of 2P
   * heads). Each is the float32 nearest the exact value. 8 heads: 1/2 … 1/256.
   */
  alibiSlopes(heads: number): Float32Array;
  /**
   * The ALiBi bias (heads, queryLength, keyLength): -(slope_h · |q − j|) for
   * query row i at key position q = offset + i, +0 on the diagonal; with
   * `causal`, -Infinity for keys j > q. Add it to the attention scores.
   */
  alibiBias<Out extends Floats>(options: AlibiBiasOptions<Out> & { out: Out }): Out;
  alibiBias(options: AlibiBiasOptions): Float32Array;
  /**
   * A learned (rows, dim) table resampled to newRows rows by linear
   * interpolation, align_corners=True: new row r reads old position
   * r·(rows − 1)/(newRows − 1), so first and last rows stay (as
   * torch.nn.functional.interpolate(mode='linear', align_corners=True) and
   * numpy.interp do). Computed in double, rounded once to float32.
   */
  resampleTable<Out extends Floats>(table: Floats, options: ResampleOptions<Out> & { out: Out }): Out;
  resampleTable(table: Floats, options: ResampleOptions): Float32Array;
}

/** See {@link Posenc.alibiSlopes}. */
export function alibiSlopes(heads: number): Float32Array;
/** See {@link Posenc.alibiBias}. */
export function alibiBias<Out extends Floats>(options: AlibiBiasOptions<Out> & { out: Out }): Out;
export function alibiBias(options: AlibiBiasOptions): Float32Array;
/** See {@link Posenc.resampleTable}. */
export function resampleTable<Out extends Floats>(table: Floats, options: ResampleOptions<Out> & { out: Out }): Out;
export function resampleTable(table: Floats, options: ResampleOptions): Float32Array;

/**
 * A table from an .npy file (format 1.0, 2.0 or 3.0; float16/32/64 in either
 * byte order; C order). Needs no init(). @throws PosencError BAD_FILE,
 * BAD_DTYPE, BAD_ORDER, BAD_SHAPE
 */
export function readNpy(bytes: FileBytes, options?: ReadTableOptions): LearnedTable;
/**
 * One tensor of a .safetensors file (F32, F16, BF16 or F64). Needs no init().
 * @throws PosencError BAD_FILE, BAD_DTYPE, BAD_NAME (listing the file's tensors), BAD_SHAPE
 */
export function readSafetensors(bytes: FileBytes, options?: ReadSafetensorsOptions): LearnedTable;
/** readNpy or readSafetensors, whichever the file's first bytes say it is. */
export function readTable(bytes: FileBytes, options?: ReadSafetensorsOptions): LearnedTable;

// ---- RoPE ----

/**
 * Error codes of RoPE: BAD_ROTARY_DIM (rotaryDim odd, below 2 or above
 * headDim), BAD_SCALING (an unknown rope_type, or a scaling key missing, unknown
 * or out of range; the argument names the key, e.g. `'scaling.factor'`),
 * BAD_ORDER (order not 'blhd' or 'bhld'). Also BAD_HEADS, BAD_DIM (headDim),
 * BAD_LAYOUT, BAD_POSITION, BAD_OFFSET, BAD_LENGTH, BAD_SIZE, BAD_BUFFER.
 */
export type RopeErrorCode = 'BAD_ROTARY_DIM' | 'BAD_SCALING' | 'BAD_ORDER' | 'BAD_HEADS' | 'PLAN_FREED';

/**
 * Position ids as engines hold them: integers 0 … 2^31 − 1 in an Int32Array,
 * Uint32Array, BigInt64Array (onnxruntime-web's int64 tensors) or a plain
 * Array of numbers or bigints.
 */
export type PositionIds = Int32Array | Uint32Array | BigInt64Array | ArrayLike<number> | ArrayLike<bigint>;

/** x for RoPE: float32 values, or float16/bfloat16 bit patterns (Uint16Array with `dtype`, a 16-bit WasmBuffer). */
export type RopeX = Floats | Uint16Array;

/** Which positions x's rows sit at: one of offset (with length), positions, positionIds or cuSeqlens. */
export interface RopeRows {
  /** Rows (tokens) per batch item: 0 … 2^31. Default: positions.length, the rows of positionIds, or all of x's rows (one batch item). */
  length?: number;
  /** Position of row 0: rows sit at offset … offset + length − 1. Default 0. Not with the others. */
  offset?: number;
  /** One position per row, shared by every batch item and head. */
  positions?: PositionIds;
  /**
   * (batch, length) ids, flat or as an Array of rows: each batch item its own
   * positions (HF's position_ids). Dynamic NTK's L is the largest id + 1 of the whole call.
   */
  positionIds?: PositionIds | ArrayLike<PositionIds>;
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
}

export interface CreateRopeOptions extends Omit<RopeOptions, 'length' | 'offset' | 'positions'> {
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

export interface RopeCosSinOptions {
  /** Rows at offset … offset + length − 1 (or at positions). */
  length?: number;
  offset?: number;
  positions?: PositionIds;
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
}

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
  readonly heads: number;
  /** Positions whose cos/sin the plan caches (0: none). */
  readonly cachedPositions: number;
  /** The scaled frequencies (a fresh copy; dynamic NTK: for L ≤ original length). */
  readonly frequencies: Float64Array;
  readonly attentionFactor: number;
  /** Rotates x (see {@link Posenc.rope}) in place and returns it. @throws PosencError PLAN_FREED after free(). */
  apply<X extends RopeX>(x: X, rows?: RopeRows): X;
  cosSin(options: RopeCosSinOptions & { dtype: 'float16' | 'bfloat16' }): RopeCosSin<Uint16Array>;
  cosSin(options: RopeCosSinOptions & { dtype: 'float64' }): RopeCosSin<Float64Array>;
  cosSin(options: RopeCosSinOptions): RopeCosSin<Float32Array>;
  /** Returns the plan's wasm memory. Idempotent. */
  free(): void;
  [Symbol.dispose](): void;
}

export type RopeCosSinCallOptions = RopeCosSinOptions & Pick<RopeOptions, 'headDim' | 'rotaryDim' | 'base' | 'scaling' | 'layout' | 'inverse'>;

/**
 * An HF transformers `rope_scaling` dict (`config.rope_scaling`, or v5's
 * `config.rope_parameters`), passed as it is; keys as HF names them. `type` is
 * HF's legacy name of `rope_type`; `rope_theta`, when present, is the base.
 * Missing optional keys and `null` take HF's defaults.
 */
export type RopeScaling =
  | { rope_type?: 'default'; type?: 'default'; rope_theta?: number }
  /** Position interpolation: every w_i / factor. */
  | { rope_type?: 'linear'; type?: 'linear'; factor: number; rope_theta?: number }
  /**
   * Dynamic NTK: for a sequence of length L > original_max_position_embeddings
   * the base becomes base · (factor·L/orig − (factor − 1))^(r/(r−2)). L is the
   * call's largest position + 1 (HF: max(position_ids) + 1). HF reads the
   * original length from config.max_position_embeddings: pass that here.
   */
  | { rope_type?: 'dynamic'; type?: 'dynamic'; factor: number; original_max_position_embeddings: number; rope_theta?: number }
  /**
   * YaRN (HF `_compute_yarn_parameters`): w_i ramps from w_i/factor to w_i over
   * the pairs between the beta_fast and beta_slow correction dimensions; cos and
   * sin are multiplied by the attention factor (attention_factor, else from
   * factor, mscale and mscale_all_dim). `factor` is used as given.
   */
  | {
      rope_type?: 'yarn'; type?: 'yarn'; factor: number; original_max_position_embeddings: number;
      /** Default 32. */ beta_fast?: number | null;
      /** Default 1. */ beta_slow?: number | null;
      attention_factor?: number | null; mscale?: number | null; mscale_all_dim?: number | null;
      /** Default true: floor and ceil the correction range. */ truncate?: boolean | null;
      rope_theta?: number;
    }
  /**
   * LongRoPE (Phi-3, Phi-3.5; HF `_compute_longrope_parameters`): w_i / long_factor[i] when the sequence (the call's
   * largest position + 1) is longer than original_max_position_embeddings, else w_i / short_factor[i]; cos and sin
   * times attention_factor, or else sqrt(1 + ln(factor) / ln(original)) when factor > 1 (factor: HF's
   * max_position_embeddings / original_max_position_embeddings).
   */
  | {
      rope_type?: 'longrope'; type?: 'longrope'; original_max_position_embeddings: number;
      /** rotaryDim/2 finite numbers above 0 each. */ short_factor: ArrayLike<number>; long_factor: ArrayLike<number>;
      attention_factor?: number | null; factor?: number | null; rope_theta?: number;
    }
  /** Llama 3.1 (HF `_compute_llama3_parameters`): long wavelengths / factor, short ones kept, a smooth blend between. */
  | {
      rope_type?: 'llama3'; type?: 'llama3'; factor: number; original_max_position_embeddings: number;
      low_freq_factor: number; high_freq_factor: number; rope_theta?: number;
    };

export interface RopeOptions {
  /** Rows (tokens) per sequence: 0 … 2^31. Default as {@link RopeRows.length}. */
  length?: number;
  /** Attention heads: 1 … 65536. */
  heads: number;
  /** Elements per head: 1 … 65536. */
  headDim: number;
  /** Position of row 0: rows sit at offset … offset + length − 1. Default 0. Not with positions. */
  offset?: number;
  /** One position per row (shared by batch items and heads), integers 0 … 2^31 − 1. */
  positions?: PositionIds;
  /** See {@link RopeRows.positionIds}. */
  positionIds?: PositionIds | ArrayLike<PositionIds>;
  /** See {@link RopeRows.cuSeqlens}. */
  cuSeqlens?: PositionIds;
  /** See {@link RopeRows.dtype}. */
  dtype?: 'float32' | 'float16' | 'bfloat16';
  /** Default 10000 (rope_theta in HF configs). */
  base?: number;
  /**
   * Which elements pair up. 'half' (default): x[i] with x[i + rotaryDim/2], HF
   * Llama's rotate_half, GPT-NeoX. 'interleaved': x[2i] with x[2i+1], GPT-J,
   * RoFormer, llama.cpp's default.
   */
  layout?: 'half' | 'interleaved';
  /** Rotated elements at the start of each head: even, 2 … headDim; the rest pass unchanged. Default headDim. */
  rotaryDim?: number;
  /** Frequency scaling from a model config; see {@link RopeScaling}. Default none. */
  scaling?: RopeScaling | null;
  /** Rotate by −angle: undoes rope() with the same options (re-rotating cached keys). Default false. */
  inverse?: boolean;
  /**
   * x's shape: 'blhd' (default) = (batch, length, heads, headDim), the
   * activations before the transpose (HF, llama.cpp); 'bhld' = (batch, heads,
   * length, headDim), as attention reads them.
   */
  order?: 'blhd' | 'bhld';
}

export interface RopeFrequenciesOptions {
  headDim: number;
  /** Default headDim. */
  rotaryDim?: number;
  /** Default 10000. */
  base?: number;
  scaling?: RopeScaling | null;
  /** The sequence length L dynamic NTK scales for. Default 0 (no scaling). */
  length?: number;
}

export interface RopeFrequencies {
  /** w_i for pair i < rotaryDim/2, after scaling: the angle of pair i at position p is p·w_i (HF's inv_freq). */
  frequencies: Float64Array;
  /** The factor on cos and sin: 1 unless YaRN. */
  attentionFactor: number;
}

export interface Posenc {
  /**
   * Rotary position embeddings, in place: rotates each pair (x1, x2) of the
   * first rotaryDim elements of every head by p·w_i,
   * x1' = x1·cos − x2·sin, x2' = x2·cos + x1·sin (float32, HF's operation
   * order), w_i = base^(−2i/rotaryDim) then scaled. cos and sin are within
   * 6e-8 of exact for positions below 2^24. x is a Float32Array or a
   * WasmBuffer (then nothing is copied) of batch·length·heads·headDim floats.
   * Returns x. A refused call leaves x as it was.
   */
  rope<X extends RopeX>(x: X, options: RopeOptions): X;
  /** The scaled frequencies and the attention factor rope() uses, to compare with a model's inv_freq. */
  ropeFrequencies(options: RopeFrequenciesOptions): RopeFrequencies;
  /** A plan for repeated calls with the same options (decoding, prefill). Free it with free() or `using`. */
  createRope(options: CreateRopeOptions): RopePlan;
  /** cos/sin caches as engines hold them (ONNX RotaryEmbedding's cos_cache/sin_cache, HF's cos/sin). */
  ropeCosSin(options: RopeCosSinCallOptions & { dtype: 'float16' | 'bfloat16' }): RopeCosSin<Uint16Array>;
  ropeCosSin(options: RopeCosSinCallOptions & { dtype: 'float64' }): RopeCosSin<Float64Array>;
  ropeCosSin(options: RopeCosSinCallOptions): RopeCosSin<Float32Array>;
}

/** See {@link Posenc.rope}. */
export function rope<X extends RopeX>(x: X, options: RopeOptions): X;
/** See {@link Posenc.createRope}. */
export function createRope(options: CreateRopeOptions): RopePlan;
/** See {@link Posenc.ropeCosSin}. */
export function ropeCosSin(options: RopeCosSinCallOptions & { dtype: 'float16' | 'bfloat16' }): RopeCosSin<Uint16Array>;
export function ropeCosSin(options: RopeCosSinCallOptions & { dtype: 'float64' }): RopeCosSin<Float64Array>;
export function ropeCosSin(options: RopeCosSinCallOptions): RopeCosSin<Float32Array>;
/** See {@link Posenc.ropeFrequencies}. */
export function ropeFrequencies(options: RopeFrequenciesOptions): RopeFrequencies;

// ---- Reduced precision and 2-D tables ----

/** Error codes of reduced precision: BAD_DTYPE (dtype not 'float32', 'float16' or 'bfloat16'), BAD_RECIPE. */
export type PrecisionErrorCode = 'BAD_DTYPE' | 'BAD_RECIPE';

/** Element types of a sinusoidal table. float16 and bfloat16 come as Uint16Array bit patterns. */
export type Dtype = 'float32' | 'float16' | 'bfloat16';

export interface TableOptions<Out extends Floats = Floats> {
  /** Default 'float32'. See {@link ReducedTableOptions} for the 16-bit types. */
  dtype?: 'float32';
}
export interface TableAtOptions<Out extends Floats = Floats> {
  dtype?: 'float32';
}

/**
 * A table as float16 (IEEE binary16) or bfloat16 bit patterns: each the value
 * nearest the exact encoding (ties to even), rounded once from the core's
 * float64 value (never through float32). `out`, when given, must be a
 * Uint16Array (a WasmBuffer holds float32 and is refused).
 */
export interface ReducedTableOptions extends Omit<TableOptions, 'out' | 'dtype'> {
  dtype: 'float16' | 'bfloat16';
  out?: Uint16Array;
}
export interface ReducedTableAtOptions extends Omit<TableAtOptions, 'out' | 'dtype'> {
  dtype: 'float16' | 'bfloat16';
  out?: Uint16Array;
}

/**
 * The naive recipes (see the README): positions, inv_freq and the angle
 * rounded to the recipe's type, then sin/cos of that angle rounded to it.
 * 'float32-angle': PyTorch's usual float32 table; 'float16' / 'bfloat16': the
 * same code with that dtype (a float16 position past 65519 is infinite: NaN).
 */
export type Recipe = 'float32-angle' | 'float16' | 'bfloat16';

export interface RecipeTableOptions extends ConventionOptions {
  recipe: Recipe;
  length: number;
  dim: number;
  base?: number;
  offset?: number;
}

/**
 * MAE's 2-D sin-cos table (get_2d_sincos_pos_embed): token y·width + x holds
 * the 1-D split table of dim/2 for the column x, then the one for the row y.
 */
export interface Sinusoidal2dOptions<Out extends Floats = Floats> {
  /** Grid rows: 0 … 2^31. */
  height: number;
  /** Grid columns: 0 … 2^31. */
  width: number;
  /** A multiple of 4, 4 … 65536: each axis gets dim/2 channels. */
  dim: number;
  /** Default 10000. */
  base?: number;
  /** true: a leading row of zeros for the class token. Default false. */
  clsToken?: boolean;
  /** Where to write the ((clsToken ? 1 : 0) + height·width, dim) table. */
  out?: Out;
}

export interface Posenc {
  sinusoidal(options: ReducedTableOptions): Uint16Array;
  sinusoidalAt(positions: Positions, options: ReducedTableAtOptions): Uint16Array;
  /** What a naive recipe computes, as a Float32Array (its values are exact in float32). */
  recipeTable(options: RecipeTableOptions): Float32Array;
  /** float64 values rounded to float16 / bfloat16 bit patterns: nearest, ties to even, in one step. */
  roundToBits(values: ArrayLike<number>, options: { dtype: 'float16' | 'bfloat16' }): Uint16Array;
  /** Bit patterns → their exact values. */
  bitsToFloat32(bits: Uint16Array, options: { dtype: 'float16' | 'bfloat16' }): Float32Array;
  sinusoidal2d<Out extends Floats>(options: Sinusoidal2dOptions<Out> & { out: Out }): Out;
  sinusoidal2d(options: Sinusoidal2dOptions): Float32Array;
}

export function sinusoidal(options: ReducedTableOptions): Uint16Array;
export function sinusoidalAt(positions: Positions, options: ReducedTableAtOptions): Uint16Array;
/** See {@link Posenc.recipeTable}. */
export function recipeTable(options: RecipeTableOptions): Float32Array;
/** See {@link Posenc.roundToBits}. */
export function roundToBits(values: ArrayLike<number>, options: { dtype: 'float16' | 'bfloat16' }): Uint16Array;
/** See {@link Posenc.bitsToFloat32}. Needs no init(). */
export function bitsToFloat32(bits: Uint16Array, options: { dtype: 'float16' | 'bfloat16' }): Float32Array;
/** See {@link Posenc.sinusoidal2d}. */
export function sinusoidal2d<Out extends Floats>(options: Sinusoidal2dOptions<Out> & { out: Out }): Out;
export function sinusoidal2d(options: Sinusoidal2dOptions): Float32Array;
