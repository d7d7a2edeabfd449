// RoPE's options checked (before anything is written) and packed as the core
// wants them: a pe_rotary as 21 doubles (src/wasm/exports_rope.c).
import { PosencError, refuse } from './errors.js';
import { checkOptions, checkBase, MAX_DIM } from './validate.js';
import { checkHeads } from './alibi.js';
import { checkScaling } from './rope-scaling.js';

export const SPEC_LENGTH = 21;
const LAYOUTS = { interleaved: 0, half: 1 };
const ORDERS = { blhd: 0, bhld: 1 };

function checkHeadDim(headDim) {
  if (typeof headDim !== 'number' || !Number.isInteger(headDim) || headDim < 1 || headDim > MAX_DIM) {
    refuse('BAD_DIM', 'headDim', `an integer from 1 to ${MAX_DIM} (the size of one attention head)`, headDim);
  }
  return headDim;
}

function checkRotaryDim(rotaryDim, headDim) {
  if (rotaryDim === undefined) {
    if (headDim % 2 !== 0) {
      refuse('BAD_ROTARY_DIM', 'rotaryDim', `given when headDim is odd (${headDim}): an even number of rotated elements ≤ headDim`, rotaryDim);
    }
    return headDim;
  }
  if (typeof rotaryDim !== 'number' || !Number.isInteger(rotaryDim) || rotaryDim < 2 || rotaryDim % 2 !== 0 || rotaryDim > headDim) {
    refuse('BAD_ROTARY_DIM', 'rotaryDim', `an even integer from 2 to headDim = ${headDim} (rotations act on pairs)`, rotaryDim);
  }
  return rotaryDim;
}

function pick(table, value, argument, code, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) {
    refuse(code, argument, Object.keys(table).map((k) => `'${k}'`).join(' or '), value);
  }
  return table[value];
}

/** headDim, rotaryDim, base and scaling, shared by rope() and ropeFrequencies(). */
export function checkRotary(o) {
  const headDim = checkHeadDim(o.headDim);
  const rotaryDim = checkRotaryDim(o.rotaryDim, headDim);
  const scaling = checkScaling(o.scaling, rotaryDim);
  let base = checkBase(o.base);
  if (scaling.theta !== undefined) {
    if (o.base !== undefined && o.base !== scaling.theta) {
      throw new PosencError('BAD_SCALING',
        `scaling.rope_theta (${scaling.theta}) and base (${o.base}) disagree; give one of them`, 'scaling.rope_theta', scaling.theta);
    }
    base = scaling.theta;
  }
  return { headDim, rotaryDim, base, scaling };
}

export const ROPE_OPTIONS = ['length', 'heads', 'headDim', 'offset', 'positions', 'base', 'layout', 'rotaryDim',
  'scaling', 'inverse', 'order'];

/** Everything rope() needs except x: numbers, and the spec to pass to the core. */
export function checkRopeOptions(options, allowed = ROPE_OPTIONS) {
  const o = checkOptions(options, allowed, 'rope');
  const rotary = checkRotary(o);
  const heads = checkHeads(o.heads);
  const layout = pick(LAYOUTS, o.layout, 'layout', 'BAD_LAYOUT', LAYOUTS.half);
  const order = pick(ORDERS, o.order, 'order', 'BAD_ORDER', ORDERS.blhd);
  if (o.inverse !== undefined && typeof o.inverse !== 'boolean') refuse('BAD_OPTIONS', 'inverse', 'true, false or undefined', o.inverse);
  const { headDim, rotaryDim, base, scaling } = rotary; // listed, not spread: a spread here costs microseconds per call
  return { headDim, rotaryDim, base, scaling, heads, layout, order, inverse: o.inverse === true, o };
}

/** The pe_rotary doubles (see exports_rope.c for the order). */
export function ropeSpec({ headDim, rotaryDim, heads, base, layout, order, inverse, scaling }, sequenceLength) {
  const s = scaling;
  const spec = new Float64Array(SPEC_LENGTH); // filled one by one: Float64Array.of with 19 arguments is slow in V8
  spec[0] = headDim;
  spec[1] = rotaryDim;
  spec[2] = heads;
  spec[3] = base;
  spec[4] = layout;
  spec[5] = order;
  spec[6] = inverse ? 1 : 0;
  const fields = [s.type, s.factor, s.original, s.betaFast, s.betaSlow, s.attentionFactor, s.mscale, s.mscaleAllDim,
    s.noTruncate, s.low, s.high, sequenceLength];
  for (let k = 0; k < fields.length; k++) spec[7 + k] = fields[k];
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
