// xPos (Sun et al., "A Length-Extrapolatable Transformer"; torchscale's XPOS):
// the `xpos` option of createRope, rope and ropeCosSin checked and packed,
// and the check that a call's positions lie in the window where the core's
// scales stay within 2^-64 ... 2^64 (posenc.h, pe_xpos). The window's reach
// comes from the core (pe_rope_xpos_reach), so JS and C refuse alike, and
// before any staged chunk of x is written.
import { refuse } from '../runtime/errors.js';
import { checkOptions } from '../runtime/validate.js';
import { ROTARY } from '../runtime/boundary.js';

const AT = ROTARY.at;
const XPOS_OPTIONS = ['scaleBase', 'gamma', 'role', 'center'];
const ROLES = { query: 0, key: 1 };
const MIN_GAMMA = 1e-6;
const MAX_GAMMA = 1e6;
/** The core's floor (rope_xpos.c): below it ln ζ / scaleBase overflows. */
const MIN_SCALE_BASE = 1e-6;
/** torchscale's defaults. */
export const XPOS_DEFAULTS = Object.freeze({ scaleBase: 512, gamma: 0.4 });

/**
 * { scaleBase, gamma, key, center } (key: 1 for keys), or null when xpos is
 * left out. xPos takes no scaling (torchscale has none).
 */
export function checkXpos(xpos, scaling) {
  if (xpos === undefined) return null;
  const o = checkOptions(xpos, XPOS_OPTIONS, 'xpos');
  const scaleBase = o.scaleBase ?? XPOS_DEFAULTS.scaleBase;
  if (typeof scaleBase !== 'number' || !(scaleBase >= MIN_SCALE_BASE) || !Number.isFinite(scaleBase))
    refuse('BAD_XPOS', 'xpos.scaleBase', `a finite number ≥ ${MIN_SCALE_BASE} (torchscale: 512)`, o.scaleBase);
  const gamma = o.gamma ?? XPOS_DEFAULTS.gamma;
  if (typeof gamma !== 'number' || !(gamma >= MIN_GAMMA) || !(gamma <= MAX_GAMMA))
    refuse('BAD_XPOS', 'xpos.gamma', `a number from ${MIN_GAMMA} to ${MAX_GAMMA} (torchscale: 0.4)`, o.gamma);
  if (typeof o.role !== 'string' || !Object.hasOwn(ROLES, o.role))
    refuse('BAD_XPOS', 'xpos.role', "'query' (scale ζ^((p−center)/scaleBase)) or 'key' (its inverse)", o.role);
  const center = o.center ?? 0;
  if (typeof center !== 'number' || !Number.isInteger(center) || center < 0 || center >= 2 ** 31)
    refuse('BAD_XPOS', 'xpos.center', 'an integer from 0 to 2^31 − 1 (the position whose scale is 1)', o.center);
  if (scaling.type !== 0)
    refuse('BAD_XPOS', 'scaling', 'left out with xpos (xPos scales plain RoPE, as torchscale does)', scaling.type);
  return { scaleBase, gamma, key: ROLES[o.role], center, reach: undefined };
}

/** The spec's xpos.* doubles of checked xpos (left zero: off). */
export function xposSpec(xpos, spec) {
  if (xpos === null) return;
  spec[AT['xpos.scale_base']] = xpos.scaleBase;
  spec[AT['xpos.gamma']] = xpos.gamma;
  spec[AT['xpos.key']] = xpos.key;
  spec[AT['xpos.center']] = xpos.center;
}

/** Checked xpos options that make the same plan. */
export function sameXpos(a, b) {
  if (a === null || b === null) return a === b;
  return a.scaleBase === b.scaleBase && a.gamma === b.gamma && a.key === b.key && a.center === b.center;
}

/**
 * Refuses (XPOS_RANGE) a call whose rows (offset ... offset + length − 1, or
 * the ids) leave center ± reach. reach: the core's, for these options.
 */
export function checkXposRows(xpos, reach, { length, offset, ids }) {
  if (xpos === null || length === 0) return;
  const lo = Math.max(0, xpos.center - reach);
  const hi = xpos.center + reach;
  const allowed = `within ${lo} ... ${hi} (center ${xpos.center} ± ${reach}: beyond, xPos's scales leave 2^-64 ... 2^64)`;
  if (ids === null || ids === undefined) {
    if (offset < lo || offset + length - 1 > hi)
      refuse('XPOS_RANGE', 'positions', allowed, `offset ${offset} … ${offset + length - 1}`);
    return;
  }
  for (let k = 0; k < ids.length; k++) {
    if (ids[k] < lo || ids[k] > hi) refuse('XPOS_RANGE', `positions[${k}]`, allowed, ids[k]);
  }
}
