// Independent references for RoPE's tests: the exact rotation in float64 from
// quad-precision cos/sin, and HF transformers' frequency formulas written out
// in plain double arithmetic.
//
// Source of the formulas: huggingface/transformers, src/transformers/
// modeling_rope_utils.py, main branch of 2025 (read at commit 89539b0 of the
// cyyever/transformers mirror; the version whose YaRN has `truncate`, `mscale`
// and `mscale_all_dim`, as in transformers 4.56): _compute_linear_scaling_rope_parameters,
// _compute_dynamic_ntk_parameters, _compute_yarn_parameters and
// _compute_llama3_parameters. HF evaluates some steps in float32 (torch); here
// every step is double, so agreement is to about 1e-15 relative.

/** inv_freq = 1 / base^(arange(0, dim, 2) / dim), in double. */
export function hfDefault(dim, base) {
  return Float64Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));
}

export function hfLinear(dim, base, { factor }) {
  return { w: hfDefault(dim, base).map((v) => v / factor), attention: 1 };
}

/** seqLen: max(position_ids) + 1; HF's max_position_embeddings is original_max_position_embeddings here. */
export function hfDynamic(dim, base, { factor, original_max_position_embeddings: orig }, seqLen) {
  const L = Math.max(seqLen, orig);
  const scaledBase = base * ((factor * L) / orig - (factor - 1)) ** (dim / (dim - 2));
  return { w: hfDefault(dim, scaledBase), attention: 1 };
}

export function hfYarn(dim, base, p) {
  const { factor, original_max_position_embeddings: orig } = p;
  const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  let attention = p.attention_factor ?? null;
  if (attention === null)
    attention =
      p.mscale && p.mscale_all_dim ? mscale(factor, p.mscale) / mscale(factor, p.mscale_all_dim) : mscale(factor);
  const betaFast = p.beta_fast || 32;
  const betaSlow = p.beta_slow || 1;
  const correctionDim = (rotations) => (dim * Math.log(orig / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
  let low = correctionDim(betaFast);
  let high = correctionDim(betaSlow);
  if (p.truncate ?? true) {
    low = Math.floor(low);
    high = Math.ceil(high);
  }
  low = Math.max(low, 0);
  high = Math.min(high, dim - 1);
  if (low === high) high += 0.001;
  const posFreqs = Float64Array.from({ length: dim / 2 }, (_, i) => base ** ((2 * i) / dim));
  const w = posFreqs.map((pf, i) => {
    const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
    const extrapolationFactor = 1 - ramp;
    return (1 / (factor * pf)) * (1 - extrapolationFactor) + (1 / pf) * extrapolationFactor;
  });
  return { w, attention, low, high };
}

/** Llama 3.1's rope_scaling (config.json of Meta-Llama-3.1-8B), as HF reads it. */
export const LLAMA31_SCALING = Object.freeze({
  rope_type: 'llama3',
  factor: 8,
  low_freq_factor: 1,
  high_freq_factor: 4,
  original_max_position_embeddings: 8192,
});

export function hfLlama3(dim, base, p) {
  const { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: orig } = p;
  const lowFreqWavelen = orig / low;
  const highFreqWavelen = orig / high;
  const w = hfDefault(dim, base).map((v) => {
    const wavelen = (2 * Math.PI) / v;
    if (wavelen > lowFreqWavelen) return v / factor;
    if (wavelen < highFreqWavelen) return v;
    const smooth = (orig / wavelen - low) / (high - low);
    return ((1 - smooth) * v) / factor + smooth * v;
  });
  return { w, attention: 1 };
}

/** Largest |got - want| / |want| over two arrays (want nonzero). */
export function maxRelative(got, want) {
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i] - want[i]) / Math.abs(want[i]);
    worst = Number.isNaN(e) ? Infinity : Math.max(worst, e);
  }
  return worst;
}

/** Index of element j's partner and whether j is the pair's first (x1). */
export function pairOf(j, r, layout) {
  const half = r / 2;
  if (layout === 'interleaved') return { i: j >> 1, first: j % 2 === 0, partner: j ^ 1 };
  return j < half ? { i: j, first: true, partner: j + half } : { i: j - half, first: false, partner: j - half };
}

/**
 * Worst error of a rotated head vector `got` against the exact rotation of
 * `x` (both blhd rows of one head) with split oracle rows [sin | cos] in
 * double, in units of 2^-23 times the pair's rotated length (|pair| * factor):
 * "ulp of the pair". Elements past r must be unchanged.
 */
export function headError(x, got, sincos, r, layout, { factor = 1, inverse = false } = {}) {
  const half = r / 2;
  let worst = 0;
  for (let j = 0; j < x.length; j++) {
    if (j >= r) {
      if (!Object.is(got[j], x[j])) return Infinity;
      continue;
    }
    const { i, first, partner } = pairOf(j, r, layout);
    const s = (inverse ? -1 : 1) * sincos[i];
    const c = sincos[half + i];
    const a = x[j];
    const b = x[partner];
    const exact = factor * (first ? a * c - b * s : a * c + b * s);
    const unit = factor * Math.hypot(a, b) * 2 ** -23;
    const e = Math.abs(got[j] - exact) / (unit || Number.MIN_VALUE);
    worst = Number.isNaN(e) ? Infinity : Math.max(worst, e);
  }
  return worst;
}

/**
 * _compute_longrope_parameters: inv_freq = 1 / (ext * base^(arange(0, dim, 2)/dim)), ext the long
 * factors when seqLen > original_max_position_embeddings, else the short ones; factor (when absent)
 * max_position_embeddings / original, attention sqrt(1 + ln f / ln original) when f > 1.
 */
export function hfLongrope(
  dim,
  base,
  { short_factor: short, long_factor: long, original_max_position_embeddings: orig, factor, attention_factor: given },
  maxPositions,
  seqLen,
) {
  const f = factor ?? maxPositions / orig;
  const attention = given ?? (f <= 1 ? 1 : Math.sqrt(1 + Math.log(f) / Math.log(orig)));
  const ext = seqLen && seqLen > orig ? long : short;
  return { w: Float64Array.from({ length: dim / 2 }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / dim))), attention };
}

/** BLOOM's build_alibi_tensor slopes in double (modeling_bloom.py): powers of 2^(-8/P), then every other of 2P. */
export function bloomSlopes(heads) {
  const closest = 2 ** Math.floor(Math.log2(heads));
  const base = 2 ** -(2 ** -(Math.log2(closest) - 3));
  const slopes = Array.from({ length: closest }, (_, k) => base ** (k + 1));
  if (closest !== heads) {
    const extraBase = 2 ** -(2 ** -(Math.log2(2 * closest) - 3));
    const remaining = Math.min(closest, heads - closest);
    for (let k = 0; k < remaining; k++) slopes.push(extraBase ** (1 + 2 * k));
  }
  return slopes;
}
