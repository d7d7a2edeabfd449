// Types of the alibi family (src/js/alibi): ALiBi's slopes and bias tensor.
// Re-exported by src/js/index.d.ts: the family's public types as the package
// exports them (package-level functions, instance methods). Its refusals are
// the runtime's codes (BAD_HEADS, BAD_LENGTH, BAD_OFFSET, BAD_OPTIONS,
// BAD_BUFFER, BAD_SIZE).
import type { Floats, TensorLike, TensorResult } from '../runtime/runtime.js';

export interface AlibiBiasOptions<Out extends Floats = Floats> {
  /** Attention heads: an integer 1 … 65536. They fix the slopes (see {@link AlibiMethods.alibiSlopes}). */
  heads: number;
  /** Query rows: an integer 0 … 2^31. */
  queryLength: number;
  /** Key columns: an integer 0 … 2^31. Default queryLength. */
  keyLength?: number;
  /**
   * Key position of query row 0: an integer ≥ 0 with offset + queryLength ≤
   * 2^31. Default keyLength − queryLength: the last query sits on the last key
   * (decoding with a cache, as HF and fairseq do); required when queryLength > keyLength.
   */
  offset?: number;
  /** true: keys after the query get -Infinity. Default false (the symmetric, bidirectional form). */
  causal?: boolean;
  /**
   * The first head of a slice (tensor parallelism): an integer 0 … heads − 1. Default 0.
   * Its slopes are those of all `heads`.
   */
  headStart?: number;
  /** The slice's heads: 1 … heads − headStart. Default heads − headStart. */
  headCount?: number;
  /**
   * Where to write the (headCount, queryLength, keyLength) tensor: a Float32Array,
   * a WasmBuffer, or a float32 tensor of dims [headCount, queryLength, keyLength]
   * or [1, headCount, queryLength, keyLength] (else BAD_SHAPE). Default: a new Float32Array.
   */
  out?: Out | TensorLike<Float32Array, 'float32'>;
  /** 'tensor': return { data, dims: [headCount, queryLength, keyLength], type: 'float32' }. Default 'array'. */
  as?: 'array' | 'tensor';
}

/** The alibi family's methods on an instance. */
export interface AlibiMethods {
  /**
   * ALiBi slopes (Press et al., "Train Short, Test Long") for heads = 1 … 65536,
   * exactly as the paper's get_slopes: with P the largest power of two ≤ heads,
   * head h < P has 2^(-8(h+1)/P) and head P + k has 2^(-4(2k+1)/P) (every other
   * slope of 2P heads). Each is the float32 nearest the exact value. 8 heads: 1/2 … 1/256.
   */
  alibiSlopes(heads: number): Float32Array;
  /**
   * The ALiBi bias (heads, queryLength, keyLength): -(slope_h · |q − j|) for
   * query row i at key position q = offset + i, +0 on the diagonal; with
   * `causal`, -Infinity for keys j > q. Add it to the attention scores.
   */
  alibiBias<T extends TensorLike<Float32Array, 'float32'>>(options: AlibiBiasOptions & { out: T }): T;
  alibiBias<Out extends Floats>(options: AlibiBiasOptions<Out> & { out: Out }): Out;
  alibiBias(options: AlibiBiasOptions & { as: 'tensor' }): TensorResult<Float32Array, 'float32'>;
  alibiBias(options: AlibiBiasOptions): Float32Array;
}

/** See {@link AlibiMethods.alibiSlopes}. */
export const alibiSlopes: AlibiMethods['alibiSlopes'];
/** See {@link AlibiMethods.alibiBias}. */
export const alibiBias: AlibiMethods['alibiBias'];
