// Argument checks shared by every family. They run before anything is written,
// so a refused call leaves its inputs exactly as they were; the C status is
// only a backstop (status.js).
import { PosencError, refuse, describe, checkOptionKeys } from './errors.js';

export const MAX_DIM = 65536; // PE_MAX_DIM
export const MAX_POSITION = 2 ** 31; // PE_MAX_POSITION: positions are below it; offset + length may equal it
const MAX_HEADS = 65536; // PE_MAX_HEADS

/**
 * Which element a sine (or a rotation's first coordinate) pairs with, pe_layout
 * in posenc.h, one idea for sinusoids and RoPE: 'interleaved' pairs element 2i
 * with 2i + 1; 'split' pairs element i with i + n/2 (n = dim, or rotaryDim).
 * 'half' is another name of 'split', the one RoPE code uses (HF's rotate_half).
 */
export const LAYOUTS = Object.freeze({ interleaved: 0, split: 1, half: 1 });

export function checkOptions(options, allowed, call) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new PosencError(
      'BAD_OPTIONS',
      `${call}() options must be an object; got ${describe(options)}`,
      'options',
      options,
    );
  }
  checkOptionKeys(options, allowed, call);
  return options;
}

export function checkDim(dim, even = true) {
  const range = `from ${even ? 2 : 1} to ${MAX_DIM}`;
  if (dim === undefined) refuse('BAD_DIM', 'dim', `given: the embedding size, an even integer ${range}`, dim);
  if (typeof dim !== 'number' || !Number.isInteger(dim))
    refuse('BAD_DIM', 'dim', `an ${even ? 'even ' : ''}integer ${range}`, dim);
  if (dim < (even ? 2 : 1) || dim > MAX_DIM) refuse('BAD_DIM', 'dim', `an ${even ? 'even ' : ''}integer ${range}`, dim);
  if (even && dim % 2 !== 0) refuse('BAD_DIM', 'dim', 'an even number (sines and cosines come in pairs)', dim);
  return dim;
}

function checkCount(code, name, value, fallback) {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    refuse(code, name, `given: an integer from 0 to ${MAX_POSITION}`, value);
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_POSITION) {
    refuse(code, name, `an integer from 0 to ${MAX_POSITION}`, value);
  }
  return value;
}

/** length and offset, with offset + length <= 2^31 (the last position is below 2^31). */
export function checkSpan(length, offset) {
  length = checkCount('BAD_LENGTH', 'length', length);
  offset = checkCount('BAD_OFFSET', 'offset', offset, 0);
  if (offset + length > MAX_POSITION) {
    throw new PosencError(
      'BAD_OFFSET',
      `offset + length must be at most ${MAX_POSITION} (positions stay below 2^31); got offset ${offset} + length ${length} = ${offset + length}`,
      'offset',
      offset,
    );
  }
  return [length, offset];
}

export function checkBase(base) {
  if (base === undefined) return 10000;
  if (typeof base !== 'number' || !Number.isFinite(base) || !(base > 1))
    refuse('BAD_BASE', 'base', 'a finite number above 1 (10000 in the paper)', base);
  return base;
}

/**
 * The layout option as a pe_layout number (LAYOUTS); `fallback` when left out.
 * `allowed` is the message's list, written the way the calling family names them.
 */
export function checkLayout(layout, fallback, allowed) {
  if (layout === undefined) return fallback;
  if (typeof layout !== 'string' || !Object.hasOwn(LAYOUTS, layout)) refuse('BAD_LAYOUT', 'layout', allowed, layout);
  return LAYOUTS[layout];
}

export function checkHeads(heads) {
  if (typeof heads !== 'number' || !Number.isInteger(heads) || heads < 1 || heads > MAX_HEADS) {
    refuse('BAD_HEADS', 'heads', `an integer from 1 to ${MAX_HEADS} (the number of attention heads)`, heads);
  }
  return heads;
}

/** A boolean option: true, false or left out (false). */
export function checkFlag(value, argument) {
  if (value !== undefined && typeof value !== 'boolean')
    refuse('BAD_OPTIONS', argument, 'true, false or undefined', value);
  return value === true;
}

/** scale travels to C as float32, so it must stay finite after rounding to float32. */
export function checkScale(scale) {
  if (scale === undefined) return 1;
  if (typeof scale !== 'number' || !Number.isFinite(Math.fround(scale))) {
    refuse('BAD_SCALE', 'scale', 'a finite number (finite as float32, |scale| < 3.4e38)', scale);
  }
  return scale;
}

/** Every position an integer in [0, 2^31); returns the count. */
export function checkPositions(positions) {
  if (
    positions instanceof Uint32Array ||
    positions instanceof Int32Array ||
    positions instanceof Uint16Array ||
    positions instanceof Uint8Array ||
    positions instanceof Int16Array ||
    positions instanceof Int8Array ||
    positions instanceof Uint8ClampedArray
  ) {
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i];
      if (p < 0 || p >= MAX_POSITION) badPosition(i, p);
    }
    return positions.length;
  }
  if (!Array.isArray(positions) && !(positions instanceof Float64Array) && !(positions instanceof Float32Array)) {
    refuse('BAD_BUFFER', 'positions', 'an Array or integer/float typed array of positions', positions);
  }
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i];
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= MAX_POSITION) badPosition(i, p);
  }
  return positions.length;
}

function badPosition(index, value) {
  throw new PosencError(
    'BAD_POSITION',
    `positions[${index}] must be an integer from 0 to ${MAX_POSITION - 1}; got ${describe(value)}`,
    `positions[${index}]`,
    value,
  );
}
