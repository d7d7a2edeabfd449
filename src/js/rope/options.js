// RoPE's options checked (before anything is written) and packed as the core
// wants them: a pe_rotary as 19 doubles (the RoPE exports in src/wasm say which is which).
import { PosencError, refuse } from '../runtime/errors.js';
import {
  checkOptions,
  checkBase,
  checkHeads,
  checkLayout,
  checkFlag,
  checkSpan,
  checkPositions,
  LAYOUTS,
  MAX_DIM,
} from '../runtime/validate.js';
import { checkScaling } from './scaling.js';

export const SPEC_LENGTH = 19;
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

/** headDim, rotaryDim, base and scaling, shared by rope() and ropeFrequencies(). */
export function checkRotary(o) {
  const headDim = checkHeadDim(o.headDim);
  const rotaryDim = checkRotaryDim(o.rotaryDim, headDim);
  const scaling = checkScaling(o.scaling, rotaryDim);
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
  return { headDim, rotaryDim, base, scaling };
}

const ROPE_OPTIONS = [
  'length',
  'heads',
  'headDim',
  'offset',
  'positions',
  'base',
  'layout',
  'rotaryDim',
  'scaling',
  'inverse',
  'order',
];

/** Everything rope() needs except x: numbers, and the spec to pass to the core. */
export function checkRopeOptions(options) {
  const o = checkOptions(options, ROPE_OPTIONS, 'rope');
  const rotary = checkRotary(o);
  const heads = checkHeads(o.heads);
  const layout = checkLayout(o.layout, DEFAULT_LAYOUT, LAYOUT_NAMES);
  const order = pick(ORDERS, o.order, 'order', 'BAD_ORDER', ORDERS.blhd);
  const inverse = checkFlag(o.inverse, 'inverse');
  return { ...rotary, heads, layout, order, inverse, o };
}

/**
 * The scaling fields of checkScaling's result in the order the spec carries
 * them (after the type); the native harness's requests use the same order.
 */
export const SCALING_FIELDS = Object.freeze([
  'factor',
  'original',
  'betaFast',
  'betaSlow',
  'attentionFactor',
  'mscale',
  'mscaleAllDim',
  'noTruncate',
  'low',
  'high',
]);

/** The pe_rotary doubles, in the order the RoPE exports read them. */
export function ropeSpec({ headDim, rotaryDim, heads, base, layout, order, inverse, scaling }, sequenceLength) {
  const geometry = [headDim, rotaryDim, heads, base, layout, order, inverse ? 1 : 0];
  return Float64Array.of(...geometry, scaling.type, ...SCALING_FIELDS.map((k) => scaling[k]), sequenceLength);
}

/** The length for ropeFrequencies (dynamic NTK's L): an integer 0 ... 2^31, 0 when left out. */
export function checkSequenceLength(length) {
  if (length === undefined) return 0;
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > 2 ** 31) {
    refuse('BAD_LENGTH', 'length', 'an integer from 0 to 2^31 (the sequence length L dynamic NTK scales for)', length);
  }
  return length;
}

/** Rows with a position: positions given (length = positions.length) or offset + row; end = largest position + 1. */
export function checkRows(o) {
  if (o.positions === undefined) {
    const [length, offset] = checkSpan(o.length, o.offset);
    return { length, offset, positions: null, end: offset + length };
  }
  const length = checkPositions(o.positions);
  if (o.offset !== undefined && o.offset !== 0) {
    refuse(
      'BAD_OFFSET',
      'offset',
      'left out (or 0) when positions is given: each row sits at its listed position',
      o.offset,
    );
  }
  if (o.length !== undefined && o.length !== length) {
    refuse('BAD_LENGTH', 'length', `positions.length = ${length} (one position per row), or left out`, o.length);
  }
  let end = 0;
  for (let l = 0; l < length; l++) end = Math.max(end, o.positions[l] + 1);
  return { length, offset: 0, positions: o.positions, end };
}
