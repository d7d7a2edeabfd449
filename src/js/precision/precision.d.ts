// Types of the precision family (src/js/precision): sinusoidal tables as
// float16 / bfloat16 bit patterns, the naive recipes, and rounding to those
// formats. Re-exported by
// src/js/index.d.ts: the family's public types as the package exports them
// (package-level functions, instance methods).
import type { ConventionOptions, EncodingOptions, SpanOptions } from '../sinusoid/sinusoid.js';

/** Error codes of the precision family: BAD_DTYPE (dtype not 'float32', 'float16' or 'bfloat16'), BAD_RECIPE. */
export type PrecisionErrorCode = 'BAD_DTYPE' | 'BAD_RECIPE';

/** Element types of a sinusoidal table. float16 and bfloat16 come as Uint16Array bit patterns. */
export type Dtype = 'float32' | 'float16' | 'bfloat16';

/**
 * A table as float16 (IEEE binary16) or bfloat16 bit patterns: each the value
 * nearest the exact encoding (ties to even), rounded once from the core's
 * float64 value (never through float32).
 */
export interface ReducedTableOptions extends EncodingOptions, SpanOptions {
  dtype: 'float16' | 'bfloat16';
  /** A Uint16Array of exactly length·dim elements (a WasmBuffer holds float32 and is refused). Default: a new one. */
  out?: Uint16Array;
}

export interface ReducedTableAtOptions extends EncodingOptions {
  dtype: 'float16' | 'bfloat16';
  /** A Uint16Array of exactly positions.length·dim elements. Default: a new one. */
  out?: Uint16Array;
}

/**
 * The naive recipes (see the README): positions, inv_freq and the angle
 * rounded to the recipe's type, then sin/cos of that angle rounded to it.
 * 'float32-angle': PyTorch's usual float32 table; 'float16' / 'bfloat16': the
 * same code with that dtype (a float16 position past 65519 is infinite: NaN).
 */
export type Recipe = 'float32-angle' | 'float16' | 'bfloat16';

export interface RecipeTableOptions extends ConventionOptions, SpanOptions {
  recipe: Recipe;
  /** Embedding size d: an even integer, 2 … 65536. */
  dim: number;
  /** Frequency base T: a finite number above 1. Default 10000. */
  base?: number;
}

/** The 16-bit dtypes of roundToBits and bitsToFloat32. */
export interface BitsOptions {
  dtype: 'float16' | 'bfloat16';
}

/** The precision family's methods on an instance (the 16-bit tables are sinusoidal() with a dtype). */
export interface PrecisionMethods {
  /** What a naive recipe computes, as a Float32Array (its values are exact in float32). */
  recipeTable(options: RecipeTableOptions): Float32Array;
  /**
   * float64 values (an Array of numbers, a Float64Array or a Float32Array)
   * rounded to float16 / bfloat16 bit patterns: nearest, ties to even, in one step.
   */
  roundToBits(values: readonly number[] | Float64Array | Float32Array, options: BitsOptions): Uint16Array;
  /** Bit patterns → their exact values. Needs no wasm. */
  bitsToFloat32(bits: Uint16Array, options: BitsOptions): Float32Array;
}

/** See {@link PrecisionMethods.recipeTable}. */
export const recipeTable: PrecisionMethods['recipeTable'];
/** See {@link PrecisionMethods.roundToBits}. */
export const roundToBits: PrecisionMethods['roundToBits'];
/** See {@link PrecisionMethods.bitsToFloat32}. Needs no init(). */
export const bitsToFloat32: PrecisionMethods['bitsToFloat32'];
