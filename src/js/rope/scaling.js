// RoPE scaling: an HF transformers `rope_scaling` dict (or v5 `rope_parameters`)
// checked key by key and turned into the numbers the core takes
// (posenc.h, pe_rope_scaling). Keys are named exactly as HF names them.
import { PosencError, describe, closest } from '../runtime/errors.js';

const SCALING_TYPES = { none: 0, linear: 1, dynamic: 2, yarn: 3, llama3: 4, longrope: 5 };

// Keys each rope_type reads (mrope_section: Qwen2-VL's sections, which axes.js
// checks); `rope_type`, its legacy alias `type` and
// `rope_theta` (the base, in HF v5's rope_parameters) are allowed everywhere.
const KEYS = {
  default: ['mrope_section', 'mrope_interleaved'],
  mrope: ['mrope_section', 'mrope_interleaved'], // Qwen2-VL's legacy type: default frequencies, sections over t/h/w (axes.js)
  linear: ['factor'],
  dynamic: ['factor', 'original_max_position_embeddings'],
  yarn: [
    'factor',
    'original_max_position_embeddings',
    'beta_fast',
    'beta_slow',
    'attention_factor',
    'mscale',
    'mscale_all_dim',
    'truncate',
  ],
  llama3: ['factor', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor'],
  longrope: ['short_factor', 'long_factor', 'original_max_position_embeddings', 'attention_factor', 'factor'],
};
const COMMON = ['rope_type', 'type', 'rope_theta'];
const FLOAT_MAX = 3.4028234663852886e38;

function bad(key, allowed, value) {
  throw new PosencError(
    'BAD_SCALING',
    `scaling.${key} must be ${allowed}; got ${describe(value)}`,
    `scaling.${key}`,
    value,
  );
}

/** HF's optional keys: absent and null both mean "not given". */
const given = (value) => value !== undefined && value !== null;

function finiteAtLeast(dict, key, min, what) {
  const v = dict[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min) bad(key, what, v);
  return v;
}

function originalLength(dict, type) {
  const v = dict.original_max_position_embeddings;
  if (!given(v)) {
    throw new PosencError(
      'BAD_SCALING',
      `scaling.original_max_position_embeddings must be given for rope_type '${type}': the context length the model ` +
        "was trained with (HF falls back to the config's max_position_embeddings, which lives outside rope_scaling)",
      'scaling.original_max_position_embeddings',
      v,
    );
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 2 ** 32 - 1) {
    bad('original_max_position_embeddings', 'an integer from 1 to 2^32 − 1 (the pre-training context length)', v);
  }
  return v;
}

/** scaling.factor, which rope_type `type` requires: a finite number ≥ 1 (the one check of it in JS). */
function factorOf(dict, type) {
  if (!given(dict.factor)) bad('factor', `given for rope_type '${type}': a finite number ≥ 1`, dict.factor);
  return finiteAtLeast(dict, 'factor', 1, 'a finite number ≥ 1');
}

/** YARN's and LongRoPE's optional attention_factor: above 0 and a finite float32, or 0 when absent (derived). */
function attentionFactorOf(dict) {
  if (!given(dict.attention_factor)) return 0;
  const a = dict.attention_factor;
  if (typeof a !== 'number' || !(a > 0) || !(Math.fround(a) <= FLOAT_MAX)) {
    bad('attention_factor', 'a finite number above 0 (and below 3.4e38: it scales float32 cos and sin)', a);
  }
  return a;
}

/** An optional float: finite and >= min, or 0 when absent (the core's "use the default"). */
function optional(dict, key, min, what) {
  return given(dict[key]) ? finiteAtLeast(dict, key, min, what) : 0;
}

/**
 * Normalises `scaling` (undefined, null or an HF dict) for rotary dimension r.
 * Returns pe_rope_scaling's fields under their C names, which are HF's keys
 * (src/js/runtime/boundary.js carries them to C by these names): { type,
 * factor, original_max_position_embeddings, beta_fast, beta_slow,
 * attention_factor, mscale, mscale_all_dim, no_truncate, low_freq_factor,
 * high_freq_factor, short_factor, long_factor }, plus theta (rope_theta or
 * undefined), mropeSection and mropeInterleaved (for axes.js).
 */
export function checkScaling(scaling, r) {
  const none = {
    type: 0,
    factor: 0,
    original_max_position_embeddings: 0,
    beta_fast: 0,
    beta_slow: 0,
    attention_factor: 0,
    mscale: 0,
    mscale_all_dim: 0,
    no_truncate: 0,
    low_freq_factor: 0,
    high_freq_factor: 0,
    theta: undefined,
    short_factor: null,
    long_factor: null,
    mropeSection: undefined,
    mropeInterleaved: undefined,
  };
  if (!given(scaling)) return none;
  if (typeof scaling !== 'object' || Array.isArray(scaling) || ArrayBuffer.isView(scaling)) {
    throw new PosencError(
      'BAD_SCALING',
      `scaling must be an HF rope_scaling object such as { rope_type: 'linear', factor: 2 }; got ${describe(scaling)}`,
      'scaling',
      scaling,
    );
  }
  const { rope_type: ropeType, type: legacy } = scaling;
  if (given(ropeType) && given(legacy) && ropeType !== legacy) {
    bad(
      'type',
      `the same as scaling.rope_type ('${ropeType}'), or left out: it is the legacy name of rope_type`,
      legacy,
    );
  }
  const type = given(ropeType) ? ropeType : given(legacy) ? legacy : 'default';
  const key = given(ropeType) || !given(legacy) ? 'rope_type' : 'type';
  if (typeof type !== 'string' || !Object.hasOwn(KEYS, type)) {
    bad(
      key,
      `one of ${Object.keys(KEYS)
        .map((t) => `'${t}'`)
        .join(', ')}`,
      type,
    );
  }
  const allowed = [...COMMON, ...KEYS[type]];
  for (const k of Object.keys(scaling)) {
    if (allowed.includes(k)) continue;
    const guess = closest(k, allowed);
    throw new PosencError(
      'BAD_SCALING',
      `scaling has no key '${k}' for rope_type '${type}'${guess ? ` (did you mean '${guess}'?)` : ''}; its keys are ${allowed.join(', ')}`,
      `scaling.${k}`,
      scaling[k],
    );
  }
  const out = { ...none };
  if (given(scaling.rope_theta)) {
    out.theta = finiteAtLeast(scaling, 'rope_theta', -Infinity, 'a finite number above 1 (the base)');
    if (!(out.theta > 1)) bad('rope_theta', 'a finite number above 1 (the base)', out.theta);
  }
  if (given(scaling.mrope_section)) out.mropeSection = scaling.mrope_section; // checked with the axes (axes.js)
  if (given(scaling.mrope_interleaved)) out.mropeInterleaved = scaling.mrope_interleaved; // Qwen3-VL's (axes.js)
  if (type === 'default' || type === 'mrope') return out;
  out.type = SCALING_TYPES[type];
  if (type === 'longrope') return longrope(scaling, out, r);
  out.factor = factorOf(scaling, type);
  if (type === 'linear') return out;
  out.original_max_position_embeddings = originalLength(scaling, type);
  if (type === 'dynamic' && r < 4) {
    bad(
      'rope_type',
      `a type other than 'dynamic' when rotaryDim is ${r}: its base exponent r/(r−2) needs rotaryDim ≥ 4`,
      type,
    );
  }
  if (type === 'yarn') {
    out.beta_fast = optional(scaling, 'beta_fast', 0, 'a finite number ≥ 0 (0 or absent: 32)');
    out.beta_slow = optional(scaling, 'beta_slow', 0, 'a finite number ≥ 0 (0 or absent: 1)');
    out.attention_factor = attentionFactorOf(scaling);
    out.mscale = optional(scaling, 'mscale', -Infinity, 'a finite number');
    out.mscale_all_dim = optional(scaling, 'mscale_all_dim', -Infinity, 'a finite number');
    if (given(scaling.truncate) && typeof scaling.truncate !== 'boolean')
      bad('truncate', 'true or false', scaling.truncate);
    out.no_truncate = scaling.truncate === false ? 1 : 0;
  }
  if (type === 'llama3') {
    for (const k of ['low_freq_factor', 'high_freq_factor']) {
      if (!given(scaling[k])) bad(k, "given for rope_type 'llama3': a finite number above 0", scaling[k]);
    }
    const low = finiteAtLeast(scaling, 'low_freq_factor', -Infinity, 'a finite number above 0');
    if (!(low > 0)) bad('low_freq_factor', 'a finite number above 0', low);
    const high = finiteAtLeast(scaling, 'high_freq_factor', -Infinity, 'a finite number');
    if (!(high >= low)) bad('high_freq_factor', `a finite number at least low_freq_factor (${low})`, high);
    out.low_freq_factor = low;
    out.high_freq_factor = high;
  }
  return out;
}

/** LongRoPE (HF _compute_longrope_parameters): r/2 short and long factors, L0, an optional attention factor and factor. */
function longrope(scaling, out, r) {
  out.original_max_position_embeddings = originalLength(scaling, 'longrope');
  for (const key of ['short_factor', 'long_factor']) {
    const v = scaling[key];
    const what = `an Array of rotaryDim/2 = ${r / 2} finite numbers above 0 (one per pair)`;
    if (!Array.isArray(v) && !(v instanceof Float64Array) && !(v instanceof Float32Array)) bad(key, what, v);
    if (v.length !== r / 2) bad(key, what, v);
    for (let i = 0; i < v.length; i++)
      if (typeof v[i] !== 'number' || !(v[i] > 0) || !Number.isFinite(v[i]))
        bad(`${key}[${i}]`, 'a finite number above 0', v[i]);
    out[key] = Float64Array.from(v);
  }
  // factor (max_position_embeddings / L0 in HF) only derives the attention factor: absent, none.
  out.factor = given(scaling.factor) ? factorOf(scaling, 'longrope') : 1;
  out.attention_factor = attentionFactorOf(scaling);
  return out;
}
