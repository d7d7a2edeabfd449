// The long-range curves: how a score between a query at position 0 and a key
// at distance Δ changes for Δ up to 2^20 = 1,048,576 (past Llama 3.1's and
// Qwen's 131,072 and Phi-3's 128K), for each encoding, all computed by
// the package: sinusoidal cos(PE(0), PE(Δ)) from sinusoidalAt; RoPE's
// cos(q, R(Δ)k) with keys rotated by rope at positions Δ (q = k, and q, k
// independent: RoFormer's long-term decay), with and without HF rope_scaling;
// and ALiBi's factor e^(−m·Δ) on attention weights from alibiSlopes. Dynamic
// NTK depends on the sequence length, which rope() takes from its rows, so
// that curve (and LongRoPE's, whose factors switch with it) uses
// ropeFrequencies at L = 2^20 and sums the pairs' cosines.
import { alibiSlopes, rope, ropeFrequencies, sinusoidalAt } from '../../../src/js/index.js';
import { ropeScalingDict } from '../state/rope-scaling.js';
import { toyEmbedding } from './toy-embedding.js';

export const MAX_DISTANCE = 2 ** 20;

/** Every distance 1…64, then about 90 per decade up to MAX_DISTANCE: integers, increasing. */
export function sampleDistances() {
  const out = new Set();
  for (let n = 1; n <= 64; n++) out.add(n);
  for (let e = Math.log10(64); e <= Math.log10(MAX_DISTANCE); e += 1 / 90) out.add(Math.round(10 ** e));
  out.add(MAX_DISTANCE);
  return Int32Array.from([...out].sort((a, b) => a - b));
}

/** Distances per step of the sinusoidal curve: 64 rows of d = 2048 are 1-4 ms, the whole curve 10-37 ms. */
const SINUSOID_CHUNK = 64;

/**
 * cos(PE(0), PE(Δ)) for each Δ (the row dot product over d/2: each row's norm is √(d/2)), as steps of
 * SINUSOID_CHUNK distances into values (a Float64Array of distances.length), rows computed into one reused buffer.
 */
export function sinusoidalCurveSteps(distances, d, base, values) {
  let first = null;
  let rows = null;
  const steps = [];
  for (let from = 0; from < distances.length; from += SINUSOID_CHUNK) {
    steps.push(() => {
      first ??= sinusoidalAt([0], { dim: d, base });
      const part = distances.subarray(from, from + SINUSOID_CHUNK);
      const out = rows?.length === part.length * d ? rows : undefined; // the last, shorter part gets its own
      const chunk = sinusoidalAt(part, { dim: d, base, out });
      rows ??= chunk;
      for (let n = 0; n < part.length; n++) {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += first[j] * chunk[n * d + j];
        values[from + n] = dot / (d / 2);
      }
    });
  }
  return steps;
}

/** cos(q, R(Δ)·k) for each Δ: k rotated by the package's rope to position Δ, q at position 0 (unrotated). */
export function ropeCurve(distances, { headDim, base, scaling, q, k }) {
  const keys = new Float32Array(distances.length * headDim);
  for (let n = 0; n < distances.length; n++) keys.set(k, n * headDim);
  const rotated = rope(keys, { positions: distances, heads: 1, headDim, base, scaling, length: distances.length });
  let qq = 0;
  let kk = 0;
  for (let j = 0; j < headDim; j++) {
    qq += q[j] * q[j];
    kk += k[j] * k[j];
  }
  const norm = Math.sqrt(qq * kk);
  return Float64Array.from(distances, (_, n) => {
    let dot = 0;
    for (let j = 0; j < headDim; j++) dot += q[j] * rotated[n * headDim + j];
    return dot / norm;
  });
}

/**
 * cos(q, R(Δ)·q) from the pairs' frequencies w (rotate_half pairs: element i
 * with i + r/2): Σᵢ (qᵢ² + qᵢ₊ᵣ/₂²)·cos(Δ·wᵢ) / |q|².
 */
export function pairSumCurve(distances, q, w) {
  const half = w.length;
  const weight = Float64Array.from(w, (_, i) => q[i] * q[i] + q[i + half] * q[i + half]);
  const total = weight.reduce((a, b) => a + b, 0);
  return Float64Array.from(distances, (delta) => {
    let sum = 0;
    for (let i = 0; i < half; i++) sum += weight[i] * Math.cos(delta * w[i]);
    return sum / total;
  });
}

/**
 * All curves for a page state as steps (one RoPE curve each: at head_dim 1024 one costs 10–30 ms; the sinusoidal
 * curve in chunks): { steps, result }, result ({ curves: [{ key, label, values }], refused: [sentences], cache })
 * complete once every step has run. The RoPE curves use the RoPE view's head_dim, rope_theta and scaling parameters
 * (factor, original context…); the sinusoidal one the page's d and T; ALiBi the steepest and gentlest of the
 * comparison view's heads. cache: the result.cache of an earlier call with the same distances: the curves whose
 * own inputs are unchanged are taken from it, not computed (a RoPE box leaves the sinusoidal curve, d the RoPE ones).
 */
export function longRangeSteps(state, distances, modelScaling = null, cache = new Map()) {
  const headDim = state.rhd;
  const base = state.rbase;
  const q = toyEmbedding('rope query', headDim);
  const k = toyEmbedding('rope key', headDim);
  const steps = [];
  const groups = []; // [key, { curves, refused }] in the order they are drawn and listed
  /** A group of curves under the key of its own inputs; make(out) returns the steps that fill out. */
  const group = (key, make) => {
    const cached = cache.get(key);
    const out = cached ?? { curves: [], refused: [] };
    groups.push([key, out]);
    if (!cached) steps.push(...make(out));
  };
  const curve = (out, key, label, values) => () => out.curves.push({ key, label, values: values() });

  group(`sinusoidal|${state.d}|${state.base}`, (out) => {
    const values = new Float64Array(distances.length);
    out.curves.push({ key: 'sinusoidal', label: `sinusoidal, d = ${state.d}, T = ${state.base}`, values });
    return sinusoidalCurveSteps(distances, state.d, state.base, values);
  });
  group(`rope|${headDim}|${base}`, (out) => [
    curve(out, 'rope_same', 'RoPE, q = k', () => ropeCurve(distances, { headDim, base, q, k: q })),
    curve(out, 'rope_random', 'RoPE, q, k independent', () => ropeCurve(distances, { headDim, base, q, k })),
  ]);
  const types = ['linear', 'dynamic', 'yarn', 'llama3'];
  if (modelScaling?.rope_type === 'longrope') types.push('longrope');
  for (const type of types) {
    const scaling = ropeScalingDict({ ...state, rs: type }, modelScaling);
    group(`${type}|${headDim}|${base}|${JSON.stringify(scaling)}`, (out) => [
      () => {
        try {
          const values =
            type === 'dynamic' || type === 'longrope'
              ? pairSumCurve(
                  distances,
                  q,
                  ropeFrequencies({ headDim, base, scaling, length: MAX_DISTANCE }).frequencies,
                )
              : ropeCurve(distances, { headDim, base, scaling, q, k: q });
          out.curves.push({
            key: `rope_${type}`,
            label: `RoPE ${type === 'dynamic' ? 'dynamic NTK' : type}, q = k`,
            values,
          });
        } catch (error) {
          // The RoPE view's parameters may be refused for one type (e.g. low_freq_factor ≥ high_freq_factor).
          out.refused.push(`${type}: ${error.message}`);
        }
      },
    ]);
  }
  group(`alibi|${state.heads}`, (out) => [
    () => {
      const slopes = alibiSlopes(state.heads);
      for (const [name, h] of [
        ['steepest', 0],
        ['gentlest', state.heads - 1],
      ]) {
        const m = slopes[h];
        out.curves.push({
          key: `alibi_head${h}`,
          label: `ALiBi e^(−m·Δ), ${name} head (m = ${m.toPrecision(3)})`,
          values: Float64Array.from(distances, (delta) => Math.exp(-m * delta)),
        });
      }
    },
  ]);
  const result = { curves: [], refused: [], cache: new Map(groups) };
  steps.push(() => {
    for (const [, out] of groups) {
      result.curves.push(...out.curves);
      result.refused.push(...out.refused);
    }
  });
  return { steps, result };
}
