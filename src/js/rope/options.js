// RoPE's options checked (before anything is written) and packed as the core
// wants them: a pe_rotary as ROTARY's doubles, each written by its C name
// (src/js/runtime/boundary.js declares the slots; build.sh makes C's reader from it).
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkBase, checkHeads, checkLayout, checkFlag, LAYOUTS, MAX_DIM } from '../runtime/validate.js';
import { checkScaling } from './scaling.js';
import { checkAxes } from './axes.js';
import { checkXpos, xposSpec } from './xpos.js';
import { ROTARY } from '../runtime/boundary.js';

/** The doubles of a pe_rotary spec. */
export const SPEC_LENGTH = ROTARY.length;
const AT = ROTARY.at;
const ORDERS = { blhd: 0, bhld: 1 };
/** The layout's default for RoPE: halves, as HF Llama's rotate_half (the sinusoid's default is 'interleaved'). */
const DEFAULT_LAYOUT = LAYOUTS.half;
const LAYOUT_NAMES = "'half' or 'interleaved' ('split' is another name of 'half')";

function checkHeadDim(headDim) {
  if (typeof headDim !== 'number' || !Number.isInteger(headDim) || headDim < 1 || headDim > MAX_DIM) {
    refuse('BAD_DIM', 'headDim', `an integer from 1 to ${MAX_DIM} (the size of one attention head)`, headDim);
  }
  return headDim;
}

function checkRotaryDim(rotaryDim, headDim) {
  if (rotaryDim === undefined) {
    if (headDim % 2 !== 0) {
      refuse(
        'BAD_ROTARY_DIM',
        'rotaryDim',
        `given when headDim is odd (${headDim}): an even number of rotated elements ≤ headDim`,
        rotaryDim,
      );
    }
    return headDim;
  }
  if (
    typeof rotaryDim !== 'number' ||
    !Number.isInteger(rotaryDim) ||
    rotaryDim < 2 ||
    rotaryDim % 2 !== 0 ||
    rotaryDim > headDim
  ) {
    refuse(
      'BAD_ROTARY_DIM',
      'rotaryDim',
      `an even integer from 2 to headDim = ${headDim} (rotations act on pairs)`,
      rotaryDim,
    );
  }
  return rotaryDim;
}

function pick(table, value, argument, code, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) {
    refuse(
      code,
      argument,
      Object.keys(table)
        .map((k) => `'${k}'`)
        .join(' or '),
      value,
    );
  }
  return table[value];
}

/** headDim, rotaryDim, base, scaling and the position axes, shared by rope() and ropeFrequencies(). */
export function checkRotary(o) {
  const headDim = checkHeadDim(o.headDim);
  const rotaryDim = checkRotaryDim(o.rotaryDim, headDim);
  const scaling = checkScaling(o.scaling, rotaryDim);
  const axes = checkAxes(o, scaling, rotaryDim);
  let base = checkBase(o.base);
  if (scaling.theta !== undefined) {
    if (o.base !== undefined && o.base !== scaling.theta) {
      throw new PosencError(
        'BAD_SCALING',
        `scaling.rope_theta (${scaling.theta}) and base (${o.base}) disagree; give one of them`,
        'scaling.rope_theta',
        scaling.theta,
      );
    }
    base = scaling.theta;
  }
  return { headDim, rotaryDim, base, scaling, axes };
}

export const ROPE_OPTIONS = [
  'length',
  'heads',
  'kvHeads',
  'headDim',
  'offset',
  'positions',
  'base',
  'layout',
  'rotaryDim',
  'scaling',
  'inverse',
  'order',
  'mropeSection',
  'mropeInterleaved',
  'vision',
  'xpos',
];

/**
 * The key/value heads of grouped-query (or multi-query) attention: an integer
 * 1 ... heads dividing heads (HF's repeat_kv); heads when left out.
 */
function checkKvHeads(kvHeads, heads) {
  if (kvHeads === undefined) return heads;
  if (heads === 0) refuse('BAD_HEADS', 'kvHeads', 'given with heads (the query heads it groups)', kvHeads);
  if (typeof kvHeads !== 'number' || !Number.isInteger(kvHeads) || kvHeads < 1 || heads % kvHeads !== 0) {
    refuse(
      'BAD_HEADS',
      'kvHeads',
      `an integer that divides heads = ${heads} (the key/value heads of grouped-query attention; 1 for multi-query)`,
      kvHeads,
    );
  }
  return kvHeads;
}

/** Everything rope() needs except x: numbers, and the spec to pass to the core. */
export function checkRopeOptions(options, allowed = ROPE_OPTIONS, headsOptional = false) {
  const o = checkOptions(options, allowed, 'rope');
  const rotary = checkRotary(o);
  // heads: the query heads (0 when left out where x may say it: a tensor); kvHeads: the key/value heads.
  const heads = headsOptional && o.heads === undefined ? 0 : checkHeads(o.heads);
  const kvHeads = checkKvHeads(o.kvHeads, heads);
  const layout = checkLayout(o.layout, DEFAULT_LAYOUT, LAYOUT_NAMES);
  const order = pick(ORDERS, o.order, 'order', 'BAD_ORDER', ORDERS.blhd);
  const inverse = checkFlag(o.inverse, 'inverse');
  const { headDim, rotaryDim, base, scaling, axes } = rotary; // listed, not spread: a spread here costs microseconds per call
  const xpos = checkXpos(o.xpos, scaling);
  if (xpos && axes.type !== 0) {
    refuse('BAD_XPOS', 'xpos', 'left out with mropeSection or vision (xPos scales one position axis)', o.xpos);
  }
  return { headDim, rotaryDim, base, scaling, axes, heads, kvHeads, layout, order, inverse, xpos, o };
}

/**
 * The numeric fields of checkScaling's result, named as pe_rope_scaling
 * names them (after the type); the native harness's requests use this order.
 */
export const SCALING_FIELDS = Object.freeze([
  'factor',
  'original_max_position_embeddings',
  'beta_fast',
  'beta_slow',
  'attention_factor',
  'mscale',
  'mscale_all_dim',
  'no_truncate',
  'low_freq_factor',
  'high_freq_factor',
]);
/** [slot, field] of each of SCALING_FIELDS in the spec. */
const SCALING_SLOTS = SCALING_FIELDS.map((name) => [AT[`scaling.${name}`], name]);

/**
 * The pe_rotary doubles the RoPE exports read. LongRoPE's factor addresses
 * (scaling.short_factor, scaling.long_factor) are left 0 here: the plan
 * module writes the factors to wasm and their addresses into the spec.
 */
export function ropeSpec(
  { headDim, rotaryDim, heads, base, layout, order, inverse, scaling, axes, xpos },
  sequenceLength,
) {
  const spec = new Float64Array(SPEC_LENGTH); // filled one by one: Float64Array.of(...) is slow in V8
  spec[AT.head_dim] = headDim;
  spec[AT.rotary_dim] = rotaryDim;
  spec[AT.heads] = heads || 1; // 0: x says its heads on each call (the core's plan needs one)
  spec[AT.base] = base;
  spec[AT.layout] = layout;
  spec[AT.order] = order;
  spec[AT.inverse] = inverse ? 1 : 0;
  spec[AT['scaling.type']] = scaling.type;
  for (const [slot, name] of SCALING_SLOTS) spec[slot] = scaling[name];
  spec[AT['scaling.sequence_length']] = sequenceLength;
  spec[AT['axes.type']] = axes.type;
  for (let k = 0; k < 3; k++) spec[AT['axes.mrope_section'] + k] = axes.section[k];
  xposSpec(xpos ?? null, spec);
  return spec;
}

/** The length for ropeFrequencies (dynamic NTK's L): an integer 0 ... 2^31, 0 when left out. */
export function checkSequenceLength(length) {
  if (length === undefined) return 0;
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > 2 ** 31) {
    refuse('BAD_LENGTH', 'length', 'an integer from 0 to 2^31 (the sequence length L dynamic NTK scales for)', length);
  }
  return length;
}
