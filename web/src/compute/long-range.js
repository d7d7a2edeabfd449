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

/** cos(PE(0), PE(Δ)) for each Δ: the row dot product over d/2 (each row's norm is √(d/2)). */
export function sinusoidalCurve(distances, d, base) {
  const rows = sinusoidalAt([0, ...distances], { dim: d, base });
  return Float64Array.from(distances, (_, n) => {
    let dot = 0;
    for (let j = 0; j < d; j++) dot += rows[j] * rows[(n + 1) * d + j];
    return dot / (d / 2);
  });
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
 * All curves for a page state: { curves: [{ key, label, values }], refused: [sentences] }. The RoPE ones
 * use the RoPE view's head_dim, rope_theta and scaling parameters (factor,
 * original context…); the sinusoidal one the page's d and T; ALiBi the
 * steepest and gentlest of the comparison view's heads.
 */
export function longRangeCurves(state, distances, modelScaling = null) {
  const { steps, result } = longRangeSteps(state, distances, modelScaling);
  for (const step of steps) step();
  return result;
}

/**
 * The same curves as steps, one curve each (a RoPE curve at head_dim 1024 costs 10–30 ms): { steps, result }, result
 * filled in order as the steps run, complete once all have.
 */
export function longRangeSteps(state, distances, modelScaling = null) {
  const headDim = state.rhd;
  const base = state.rbase;
  const q = toyEmbedding('rope query', headDim);
  const k = toyEmbedding('rope key', headDim);
  const result = { curves: [], refused: [] };
  const curve = (key, label, values) => () => result.curves.push({ key, label, values: values() });
  const steps = [
    curve('sinusoidal', `sinusoidal, d = ${state.d}, T = ${state.base}`, () =>
      sinusoidalCurve(distances, state.d, state.base),
    ),
    curve('rope_same', 'RoPE, q = k', () => ropeCurve(distances, { headDim, base, q, k: q })),
    curve('rope_random', 'RoPE, q, k independent', () => ropeCurve(distances, { headDim, base, q, k })),
  ];
  const types = ['linear', 'dynamic', 'yarn', 'llama3'];
  if (modelScaling?.rope_type === 'longrope') types.push('longrope');
  for (const type of types) {
    steps.push(() => {
      const scaling = ropeScalingDict({ ...state, rs: type }, modelScaling);
      try {
        const values =
          type === 'dynamic' || type === 'longrope'
            ? pairSumCurve(distances, q, ropeFrequencies({ headDim, base, scaling, length: MAX_DISTANCE }).frequencies)
            : ropeCurve(distances, { headDim, base, scaling, q, k: q });
        result.curves.push({
          key: `rope_${type}`,
          label: `RoPE ${type === 'dynamic' ? 'dynamic NTK' : type}, q = k`,
          values,
        });
      } catch (error) {
        // The RoPE view's parameters may be refused for one type (e.g. low_freq_factor ≥ high_freq_factor).
        result.refused.push(`${type}: ${error.message}`);
      }
    });
  }
  steps.push(() => {
    const slopes = alibiSlopes(state.heads);
    for (const [name, h] of [
      ['steepest', 0],
      ['gentlest', state.heads - 1],
    ]) {
      const m = slopes[h];
      result.curves.push({
        key: `alibi_head${h}`,
        label: `ALiBi e^(−m·Δ), ${name} head (m = ${m.toPrecision(3)})`,
        values: Float64Array.from(distances, (delta) => Math.exp(-m * delta)),
      });
    }
  });
  return { steps, result };
}
