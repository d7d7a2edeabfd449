// Type declarations of the posenc package (src/js/index.js).

/** Row layouts of a d-dimensional encoding (s = sine, c = cosine, digit = pair i). */
export type Layout =
  /** `[s0 c0 s1 c1 ...]`: the paper's, PyTorch tutorials. */
  | 'interleaved'
  /** `[s0 s1 ... c0 c1 ...]`: tensor2tensor, HF Marian. */
  | 'split';

/** Error codes of PosencError. */
export type PosencErrorCode =
  | 'NOT_INITIALIZED' | 'BAD_DIM' | 'BAD_LENGTH' | 'BAD_OFFSET' | 'BAD_POSITION' | 'BAD_BASE'
  | 'BAD_LAYOUT' | 'BAD_SCALE' | 'BAD_BUFFER' | 'BAD_SIZE' | 'TABLE_TOO_SHORT' | 'TOO_LARGE'
  | 'BUFFER_FREED' | 'UNKNOWN_OPTION' | 'BAD_OPTIONS' | 'LOAD_FAILED';

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
  /** Number of floats. */
  readonly length: number;
  /** True once {@link WasmBuffer.free} ran. */
  readonly freed: boolean;
  /**
   * A fresh Float32Array view of the floats. Valid until the next posenc call:
   * wasm memory may grow, which detaches every earlier view.
   * @throws PosencError BUFFER_FREED after free().
   */
  readonly array: Float32Array;
  /** Returns the memory. Idempotent; using the buffer afterwards throws BUFFER_FREED. */
  free(): void;
  [Symbol.dispose](): void;
}

/** A Float32Array, or a WasmBuffer of the same instance (no copying). */
export type Floats = Float32Array | WasmBuffer;

/** Positions: integers 0 <= p < 2^31. */
export type Positions = ArrayLike<number> | Uint32Array | Int32Array | Float64Array | Float32Array | WasmBuffer;

export interface TableOptions<Out extends Floats = Floats> {
  /** Number of positions (rows): an integer 0 ... 2^31. */
  length: number;
  /** Embedding size d: even, 2 ... 65536. */
  dim: number;
  /** Frequency base T, finite and > 1. Default 10000. */
  base?: number;
  /** First position. offset + length <= 2^31. Default 0. */
  offset?: number;
  /** Default 'interleaved'. */
  layout?: Layout;
  /** Where to write the (length, dim) table; exactly length·dim floats. */
  out?: Out;
}

export interface TableAtOptions<Out extends Floats = Floats> {
  dim: number;
  base?: number;
  layout?: Layout;
  /** Where to write the (positions.length, dim) rows. */
  out?: Out;
}

export interface AddOptions {
  /** Rows (positions) of each batch item: x is (batch, length, dim). */
  length: number;
  dim: number;
  base?: number;
  offset?: number;
  layout?: Layout;
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
  alloc(n: number): WasmBuffer;
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
export function alloc(n: number): WasmBuffer;
