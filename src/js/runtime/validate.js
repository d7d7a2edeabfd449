// Argument checks shared by every family. They run before anything is written,
// so a refused call leaves its inputs exactly as they were; the C status is
// only a backstop (status.js).
import { PosencError, refuse, describe, checkOptionKeys } from './errors.js';
import { WasmBuffer, isWasmBuffer } from './wasm-buffer.js';

export const MAX_DIM = 65536; // PE_MAX_DIM
export const MAX_POSITION = 2 ** 31; // PE_MAX_POSITION: positions are below it; offset + length may equal it
const MAX_BASE = 1e300; // PE_MAX_BASE: above about 1e301 the frequencies' logarithm overflows
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
  // A snapshot, each allowed option read once and here: getters (the caller's code) run before any
  // pointer into wasm memory is taken, and a value cannot change between its check and its use.
  const o = {};
  for (const key of allowed) {
    const value = options[key];
    if (value !== undefined) o[key] = value;
  }
  return o;
}

// The typed-array internals, read through %TypedArray%.prototype's own getters: a subclass or a
// Proxy cannot answer for them with code of its own.
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (key) => Object.getOwnPropertyDescriptor(TypedArrayProto, key).get;
const tagOf = intrinsic(Symbol.toStringTag);
const bufferOf = intrinsic('buffer');
const byteOffsetOf = intrinsic('byteOffset');
const lengthOf = intrinsic('length');

/**
 * A plain view of the same memory as `value` when it is a genuine typed array
 * (a subclass's overrides and getters are left behind), refused when its memory
 * is detached; `value` unchanged when it is no typed array (WasmBuffer, Array, ...).
 * A Proxy or an object that only claims a typed array's prototype is refused.
 */
export function plainView(value, argument) {
  const tag = typeof value === 'object' && value !== null ? tagOf.call(value) : undefined;
  if (tag === undefined) {
    if (value instanceof WasmBuffer && !isWasmBuffer(value))
      refuse('BAD_BUFFER', argument, 'a WasmBuffer from alloc() (not a Proxy or an object with its prototype)', value);
    if (value instanceof TypedArrayProto.constructor)
      refuse('BAD_BUFFER', argument, 'a genuine typed array (not a Proxy or an object with its prototype)', value);
    return value;
  }
  const buffer = bufferOf.call(value);
  checkNotDetached(buffer, argument);
  const Type = globalThis[tag];
  if (Object.getPrototypeOf(value) === Type.prototype && !OVERRIDABLE.some((key) => Object.hasOwn(value, key)))
    return value; // the common case: nothing of the caller's on it, and its identity kept
  return new Type(buffer, byteOffsetOf.call(value), lengthOf.call(value));
}
// What posenc reads of a typed array besides its elements (an own property would shadow it).
const OVERRIDABLE = ['length', 'buffer', 'byteOffset', 'byteLength', 'set', 'subarray', 'slice', Symbol.iterator];

/**
 * True when buffer (an ArrayBuffer) was detached (transferred, or a wasm
 * memory that grew): its views read as empty, so calls must refuse it rather
 * than treat it as no data. `detached` is ES2024; older engines throw on a view.
 */
export function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** Refuses a typed array (or ArrayBuffer) whose memory was detached. */
export function checkNotDetached(input, argument) {
  const buffer = ArrayBuffer.isView(input) ? input.buffer : input;
  if (buffer instanceof ArrayBuffer && isDetached(buffer)) {
    refuse(
      'BAD_BUFFER',
      argument,
      'memory that is still attached (a detached view: this ArrayBuffer was transferred, or wasm memory grew, ' +
        'which detaches views such as WasmBuffer.array; pass a live array or the WasmBuffer itself)',
      input,
    );
  }
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
  if (typeof base !== 'number' || !(base > 1 && base <= MAX_BASE))
    refuse('BAD_BASE', 'base', 'a number above 1 and at most 1e300 (10000 in the paper)', base);
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

/**
 * positions checked (every one an integer in [0, 2^31)) and read once: a plain
 * integer typed array as given, an Array or float array copied to a Uint32Array,
 * so the caller's code (index getters) cannot run, nor a value change, after the check.
 */
export function positionList(positions) {
  const list = plainView(positions, 'positions');
  if (
    list instanceof Uint32Array ||
    list instanceof Int32Array ||
    list instanceof Uint16Array ||
    list instanceof Uint8Array ||
    list instanceof Int16Array ||
    list instanceof Int8Array ||
    list instanceof Uint8ClampedArray
  ) {
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      if (p < 0 || p >= MAX_POSITION) badPosition(i, p);
    }
    return list;
  }
  if (!Array.isArray(list) && !(list instanceof Float64Array) && !(list instanceof Float32Array)) {
    refuse('BAD_BUFFER', 'positions', 'an Array or integer/float typed array of positions', positions);
  }
  const count = checkListLength(list.length, 'positions');
  const copy = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const p = list[i];
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= MAX_POSITION) badPosition(i, p);
    copy[i] = p;
  }
  return copy;
}

/** The most entries a list argument (positions, ids, values) may have: 2^28, as MAX_RESULT. */
export const MAX_LIST = 2 ** 28;

/** A list's length (read once), refused (TOO_LARGE) above MAX_LIST before the list is copied. */
export function checkListLength(count, argument) {
  if (typeof count !== 'number' || !(count <= MAX_LIST)) {
    throw new PosencError(
      'TOO_LARGE',
      `${argument} holds ${describe(count)} entries; posenc copies at most ${MAX_LIST} (2^28)`,
      argument,
      count,
    );
  }
  return count;
}

/**
 * The most elements a call allocates for its result (2^28: 1 GiB of float32);
 * a larger result is refused (TOO_LARGE) before anything is allocated: pass
 * `out` (e.g. a WasmBuffer from alloc()) to get more.
 */
export const MAX_RESULT = 2 ** 28;

function badPosition(index, value) {
  throw new PosencError(
    'BAD_POSITION',
    `positions[${index}] must be an integer from 0 to ${MAX_POSITION - 1}; got ${describe(value)}`,
    `positions[${index}]`,
    value,
  );
}
