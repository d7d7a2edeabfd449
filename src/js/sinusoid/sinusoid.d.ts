// Types of the sinusoid family (src/js/sinusoid): the table of Vaswani et al.,
// its rows at listed positions, and the in-place add. Re-exported by
// src/js/index.d.ts: the family's public types as the package exports them
// (the package-level functions and the methods of an instance).
import type { Floats, Layout, PositionList, WasmBuffer } from '../runtime/runtime.js';
import type { ReducedTableOptions, ReducedTableAtOptions } from '../precision/precision.js';

/** Error codes of the sinusoid family: BAD_PRESET (an unknown preset, or an option it contradicts), BAD_FREQUENCIES. */
export type SinusoidErrorCode = 'BAD_PRESET' | 'BAD_FREQUENCIES';

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
  /** Which element each sine pairs with. Default 'interleaved'; 'half' is another name of 'split'. */
  layout?: Layout;
  /** Default 'paper'. */
  frequencies?: Frequencies;
  /** Sets layout and frequencies together. */
  preset?: Preset;
}

/** The encoding: its size and base, and the convention. */
export interface EncodingOptions extends ConventionOptions {
  /** Embedding size d: an even integer, 2 … 65536. */
  dim: number;
  /** Frequency base T: a finite number above 1. Default 10000. */
  base?: number;
}

/** A run of positions: rows offset … offset + length − 1. */
export interface SpanOptions {
  /** Number of positions (rows): an integer 0 … 2^31. */
  length: number;
  /** First position: an integer ≥ 0 with offset + length ≤ 2^31. Default 0. */
  offset?: number;
}

export interface TableOptions<Out extends Floats = Floats> extends EncodingOptions, SpanOptions {
  /** Where to write the (length, dim) table: exactly length·dim floats. Default: a new Float32Array. */
  out?: Out;
  /** Default 'float32'. The 16-bit types take {@link ReducedTableOptions}. */
  dtype?: 'float32';
}

export interface TableAtOptions<Out extends Floats = Floats> extends EncodingOptions {
  /** Where to write the (positions.length, dim) rows: exactly positions.length·dim floats. Default: a new Float32Array. */
  out?: Out;
  /** Default 'float32'. The 16-bit types take {@link ReducedTableAtOptions}. */
  dtype?: 'float32';
}

export interface AddOptions extends EncodingOptions, SpanOptions {
  /**
   * x is multiplied by scale (rounded to float32) before the add, often
   * sqrt(dim): a number finite as float32 (|scale| < 3.4e38). Default 1.
   */
  scale?: number;
}

/** The sinusoid family's methods on an instance. */
export interface SinusoidMethods {
  /**
   * The (length, dim) table of positions offset … offset+length−1, row-major:
   * PE(p, 2i) = sin(p·w_i), PE(p, 2i+1) = cos(p·w_i), w_i = base^(-2i/dim) (interleaved).
   * Each value within 6e-8 of exact for every position below 2^31 (even dim up
   * to 8192, base 2 … 1e7), bit-identical on every build.
   * @returns `out` when given (filled), else a new Float32Array.
   */
  sinusoidal<Out extends Floats>(options: TableOptions<Out> & { out: Out }): Out;
  sinusoidal(options: TableOptions): Float32Array;
  /** The table as float16 or bfloat16 bit patterns: see {@link ReducedTableOptions}. */
  sinusoidal(options: ReducedTableOptions): Uint16Array;
  /**
   * The rows of the given positions: the same bits as the table rows of those
   * positions. positions may be a WasmBuffer holding integer values.
   */
  sinusoidalAt<Out extends Floats>(
    positions: PositionList | WasmBuffer,
    options: TableAtOptions<Out> & { out: Out },
  ): Out;
  sinusoidalAt(positions: PositionList | WasmBuffer, options: TableAtOptions): Float32Array;
  sinusoidalAt(positions: PositionList | WasmBuffer, options: ReducedTableAtOptions): Uint16Array;
  /**
   * In place, for x of shape (batch, length, dim):
   * x[b, r, j] = float32(float32(x[b, r, j] · scale) + PE(offset + r, j)).
   * @returns x
   */
  addSinusoidal<X extends Floats>(x: X, options: AddOptions): X;
}

/** See {@link SinusoidMethods.sinusoidal}. Throws NOT_INITIALIZED before init(). */
export const sinusoidal: SinusoidMethods['sinusoidal'];
/** See {@link SinusoidMethods.sinusoidalAt}. */
export const sinusoidalAt: SinusoidMethods['sinusoidalAt'];
/** See {@link SinusoidMethods.addSinusoidal}. */
export const addSinusoidal: SinusoidMethods['addSinusoidal'];
