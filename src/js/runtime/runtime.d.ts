// Types of the runtime (src/js/runtime): loading, instances, buffers, errors,
// and the option types every family shares. Re-exported by src/js/index.d.ts.
import type { Posenc } from '../index.js';
import type { SinusoidErrorCode } from '../sinusoid/sinusoid.js';
import type { PrecisionErrorCode } from '../precision/precision.js';
import type { RopeErrorCode } from '../rope/rope.js';
import type { LearnedErrorCode } from '../learned/learned.js';
import type { RelativeErrorCode } from '../relative/relative.js';
import type { DiagnoseErrorCode } from '../diagnose/diagnose.js';
import type { ConfigErrorCode } from '../config/config.js';

/**
 * Which element a sine (or a rotation's first coordinate) pairs with: one idea,
 * pe_layout in posenc.h, for sinusoids and RoPE alike (n = dim, or rotaryDim).
 * The defaults differ: 'interleaved' for sinusoids (the paper), 'half' for RoPE
 * (HF Llama).
 */
export type Layout =
  /** Element 2i with 2i + 1: `[s0 c0 s1 c1 …]` (the paper, PyTorch tutorials; RoPE: GPT-J, RoFormer, llama.cpp). */
  | 'interleaved'
  /** Element i with i + n/2: `[s0 s1 … c0 c1 …]` (tensor2tensor, HF Marian; RoPE: rotate_half, GPT-NeoX, HF Llama). */
  | 'split'
  /** Another name of 'split', the one RoPE code uses (HF's rotate_half). */
  | 'half';

/**
 * Error codes every family may give: options and buffers (BAD_OPTIONS,
 * UNKNOWN_OPTION with a did-you-mean, BAD_BUFFER, BAD_SIZE, BUFFER_FREED,
 * TOO_LARGE), shared arguments (BAD_DIM, BAD_LENGTH, BAD_OFFSET, BAD_POSITION,
 * BAD_BASE, BAD_LAYOUT, BAD_SCALE, BAD_HEADS), loading (NOT_INITIALIZED,
 * LOAD_FAILED), BAD_ROUNDING (setRounding), and CORE_STATUS: the core refused with a status this package
 * does not know (a wasm newer than the package).
 */
export type RuntimeErrorCode =
  | 'NOT_INITIALIZED'
  | 'LOAD_FAILED'
  | 'BAD_OPTIONS'
  | 'UNKNOWN_OPTION'
  | 'BAD_BUFFER'
  | 'BAD_SIZE'
  | 'BUFFER_FREED'
  | 'TOO_LARGE'
  | 'CORE_STATUS'
  | 'BAD_DIM'
  | 'BAD_LENGTH'
  | 'BAD_OFFSET'
  | 'BAD_POSITION'
  | 'BAD_BASE'
  | 'BAD_LAYOUT'
  | 'BAD_SCALE'
  | 'BAD_HEADS'
  | 'BAD_ROUNDING';

/** Every code of PosencError; each means one thing. */
export type PosencErrorCode =
  | RuntimeErrorCode
  | SinusoidErrorCode
  | PrecisionErrorCode
  | RopeErrorCode
  | LearnedErrorCode
  | RelativeErrorCode
  | DiagnoseErrorCode
  | ConfigErrorCode;

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
 * `table`, and `positions` of sinusoidalAt); then nothing is copied.
 */
export class WasmBuffer {
  private constructor();
  /** Number of elements: floats, or 16-bit patterns for alloc(n, { dtype: 'float16' | 'bfloat16' }). Stays readable after free(). */
  readonly length: number;
  /** 'float32', or 'float16' / 'bfloat16' (bit patterns, taken only as RoPE's x). */
  readonly dtype: 'float32' | 'float16' | 'bfloat16';
  /** True once {@link WasmBuffer.free} ran. */
  readonly freed: boolean;
  /**
   * A fresh Float32Array view of the floats (a Uint16Array of bit patterns for a 16-bit dtype). Valid until the next posenc call:
   * wasm memory may grow, which detaches every earlier view.
   * @throws PosencError BUFFER_FREED after free().
   */
  readonly array: Float32Array | Uint16Array;
  /** Returns the memory. Idempotent; using the buffer afterwards throws BUFFER_FREED. */
  free(): void;
  /** free(), for `using buffer = alloc(n)`. */
  [Symbol.dispose](): void;
}

// Symbol.dispose is in Node >= 18.18 and current browsers, but in TypeScript's
// lib only from ESNext.Disposable; declared here (as @types/node does) so the
// types compile with lib ES2022 + DOM and nothing else.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A Float32Array, or a WasmBuffer of the same instance (no copying). */
export type Floats = Float32Array | WasmBuffer;

/**
 * A list of positions, each an integer 0 ≤ p < 2^31: an Array of numbers or a
 * typed array (integer types, Float32Array, Float64Array). Other array-likes
 * are refused with BAD_BUFFER.
 */
export type PositionList =
  | readonly number[]
  | Uint32Array
  | Int32Array
  | Uint16Array
  | Int16Array
  | Uint8Array
  | Int8Array
  | Uint8ClampedArray
  | Float64Array
  | Float32Array;

export interface InitOptions {
  /** false forces the scalar build; true requires SIMD (LOAD_FAILED without it); default: SIMD when the engine has it. */
  simd?: boolean;
  /**
   * The module to use instead of the bundled one: bytes, a compiled module, a
   * Response (or its promise), a URL, or a URL or file path (Node) string.
   */
  wasm?: BufferSource | WebAssembly.Module | Response | PromiseLike<Response> | URL | string;
}

/** What every instance has besides the families' methods. */
export interface RuntimeMethods {
  /** True when this instance runs the SIMD build. */
  readonly simd: boolean;
  /**
   * n floats (an integer ≥ 0) in wasm memory. @throws PosencError TOO_LARGE
   * when wasm32 memory (4 GiB) cannot hold them; nothing is allocated then.
   */
  alloc(n: number, options?: AllocOptions): WasmBuffer;
  /**
   * How values from sines and cosines are rounded, for every later call of
   * this instance (pe_set_rounding). 'fast', the default: within half an ulp
   * plus 2.7e-12 of the exact value (about 1 value in 10^6 one ulp off the
   * correctly rounded one). 'correct': every float32, float16 and bfloat16
   * value of sinusoidal tables (and their presets, offsets, position lists,
   * adds), 2-D tables, recipe tables, and ropeCosSin's and rope()'s cos/sin
   * without an attention factor or xPos is the exact value rounded once;
   * tables take about twice as long. Not the rotation itself, nor values
   * times a factor. @throws PosencError BAD_ROUNDING for any other value.
   */
  setRounding(mode: Rounding): void;
  /** The rounding setRounding chose ('fast' until then). */
  rounding(): Rounding;
}

/** See {@link RuntimeMethods.setRounding}. */
export type Rounding = 'fast' | 'correct';

export interface AllocOptions {
  /** 'float32' (default), or 'float16' / 'bfloat16': n 16-bit patterns (RoPE's x only; other calls refuse them). */
  dtype?: 'float32' | 'float16' | 'bfloat16';
}

/**
 * Loads the wasm for the package-level functions. One-shot: concurrent and
 * later calls share the first call's promise (and its options); a later call
 * with other options rejects with BAD_OPTIONS; a failed call may be retried. Every other package-level call throws NOT_INITIALIZED
 * before it resolves (the file readers and bitsToFloat32 need no init).
 */
export function init(options?: InitOptions): Promise<{ simd: boolean }>;

/** A new independent instance (its own wasm memory), e.g. to hold the SIMD and the scalar build side by side. */
export function instantiate(options?: InitOptions): Promise<Posenc>;

/** See {@link RuntimeMethods.alloc}. */
export const alloc: RuntimeMethods['alloc'];
/** See {@link RuntimeMethods.setRounding}: the shared instance's rounding. */
export const setRounding: RuntimeMethods['setRounding'];
/** See {@link RuntimeMethods.rounding}. */
export const rounding: RuntimeMethods['rounding'];

/**
 * A tensor as inference engines hold it: onnxruntime-web's `Tensor` and
 * transformers.js's `Tensor` have these fields (tfjs tensors do not: their
 * `data` is an async method; pass `t.dataSync()` and the counts instead).
 * `location`, when present, must be 'cpu' or 'cpu-pinned'.
 */
export interface TensorLike<D = ArrayBufferView, T extends string = string> {
  readonly data: D;
  readonly dims: readonly number[];
  readonly type: T;
  readonly location?: string;
}

/** A result `as: 'tensor'` asks for: what `new ort.Tensor(type, data, dims)` takes. */
export interface TensorResult<D = ArrayBufferView, T extends string = string> {
  data: D;
  dims: number[];
  type: T;
}

/**
 * How a float16 result comes back: 'bits' (a Uint16Array of bit patterns),
 * 'Float16Array' (refused with BAD_DTYPE where the engine has none) or 'auto'
 * (a Float16Array where the engine has one, else bits).
 */
export type Float16Output = 'bits' | 'Float16Array' | 'auto';
