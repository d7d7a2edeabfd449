// Types of the relative family (src/js/relative): T5's relative attention
// buckets and bias, Shaw et al.'s clipped relative indices. Re-exported by
// src/js/index.d.ts.
import type { Floats } from '../runtime/runtime.js';

/**
 * Error codes of relative encodings: BAD_BUCKETS (numBuckets or maxDistance
 * out of range), BAD_MAX_RELATIVE (Shaw's k missing or out of range).
 */
export type RelativeErrorCode = 'BAD_BUCKETS' | 'BAD_MAX_RELATIVE';

/** Where queries sit among keys, as in alibiBias. */
export interface RelativeGeometry {
  /** Query rows: 0 … 2^31. */
  queryLength: number;
  /** Key columns: 0 … 2^31. Default queryLength. */
  keyLength?: number;
  /**
   * Key position of query row 0. Default keyLength − queryLength: the last
   * query sits on the last key (decoding with a cache, as HF does); required
   * when queryLength > keyLength. offset + queryLength ≤ 2^31.
   */
  offset?: number;
}

export interface T5BucketsOptions extends RelativeGeometry {
  /** B: 4 … 1024 bidirectional, 2 … 1024 causal. Default 32 (every T5 release). */
  numBuckets?: number;
  /** D: above the exact distances (B/4 bidirectional, B/2 causal), at most 2^31. Default 128. */
  maxDistance?: number;
  /** true (default): T5's encoder buckets, keys ahead in their own half; false: the decoder's causal buckets. */
  bidirectional?: boolean;
  /** Where to write the (queryLength, keyLength) buckets. */
  out?: Int32Array;
}

export interface T5BiasOptions<Out extends Floats = Floats> extends Omit<T5BucketsOptions, 'out'> {
  /** The learned (numBuckets × heads) table, row-major: HF's relative_attention_bias.weight. */
  table: Floats;
  /** Attention heads: 1 … 65536. Default table.length / numBuckets. */
  heads?: number;
  /** Where to write the (heads, queryLength, keyLength) bias. */
  out?: Out;
}

export interface ShawIndicesOptions extends RelativeGeometry {
  /** k: 0 … 2^30 − 1. Required. */
  maxRelative: number;
  /** Where to write the (queryLength, keyLength) indices. */
  out?: Int32Array;
}

export interface RelativeMethods {
  /**
   * T5's relative attention buckets (HF T5Attention._relative_position_bucket,
   * mesh-tensorflow's): for query row i at key position q = offset + i and key
   * j, the bucket of j − q, each in [0, numBuckets). Distances below
   * numBuckets/4 (bidirectional) or numBuckets/2 (causal) get a bucket each,
   * the rest log-spaced buckets up to maxDistance, computed in float32 as T5
   * computes them, so every bucket is the one T5's code gives.
   */
  t5Buckets(options: T5BucketsOptions): Int32Array;
  /** T5's position bias (heads, queryLength, keyLength): table[bucket(i, j) · heads + h], as compute_bias. */
  t5Bias<Out extends Floats>(options: T5BiasOptions<Out> & { out: Out }): Out;
  t5Bias(options: T5BiasOptions): Float32Array;
  /** Shaw et al.'s clipped relative positions: clip(j − q, −k, k) + k, in [0, 2k], for k = maxRelative. */
  shawIndices(options: ShawIndicesOptions): Int32Array;
}

/** See {@link RelativeMethods.t5Buckets}. */
export const t5Buckets: RelativeMethods['t5Buckets'];
/** See {@link RelativeMethods.t5Bias}. */
export const t5Bias: RelativeMethods['t5Bias'];
/** See {@link RelativeMethods.shawIndices}. */
export const shawIndices: RelativeMethods['shawIndices'];
