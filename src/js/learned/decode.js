// Bytes of a tensor file -> float32: the input forms a file may arrive in,
// and the element types a position table may be stored as. No fs: the caller
// reads the file (fs.readFileSync in Node, File.arrayBuffer() in a browser).
import { PosencError, describe } from '../runtime/errors.js';
import { halfToFloatBits } from '../runtime/float16.js';
import { checkNotDetached } from '../runtime/validate.js';

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The file's bytes as a Uint8Array over the same memory (nothing copied). */
export function asBytes(input, argument = 'bytes') {
  checkNotDetached(input, argument);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && input instanceof SharedArrayBuffer)) {
    return new Uint8Array(input);
  }
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const hint =
    typeof input === 'string'
      ? ' (a path? read the file first: fs.readFileSync(path) in Node, await file.arrayBuffer() in a browser)'
      : '';
  throw new PosencError(
    'BAD_BUFFER',
    `${argument} must be the file's contents as an ArrayBuffer or a Uint8Array${hint}; got ${describe(input)}`,
    argument,
    input,
  );
}

/**
 * A string from a file as messages quote it: JSON.stringify's escapes without the quotes, so a NUL, a newline
 * or a lone surrogate reads as \u0000, \n, \ud800 and a message stays one printable line (the native CLI's
 * readers write the same escapes).
 */
export const printable = (text) => JSON.stringify(text).slice(1, -1);

/** A PosencError for a malformed file; `what` names the format, e.g. '.npy'. */
export function badFile(what, message) {
  return new PosencError('BAD_FILE', `not a valid ${what} file: ${message}`, 'bytes', undefined);
}

// Element types: bytes per element and how one is read.
export const ELEMENT = {
  f2: { size: 2, name: 'float16' },
  bf16: { size: 2, name: 'bfloat16' },
  f4: { size: 4, name: 'float32' },
  f8: { size: 8, name: 'float64' },
};

/**
 * count elements of `kind` (a key of ELEMENT) at bytes[offset ...] as a new
 * Float32Array. float64 rounds to nearest float32; the others are exact.
 * The caller has checked that the bytes are there.
 */
export function decodeFloats(bytes, offset, count, kind, littleEndian) {
  const out = new Float32Array(count);
  const at = bytes.byteOffset + offset;
  if (kind === 'f4' && littleEndian === LITTLE_ENDIAN_HOST && at % 4 === 0) {
    out.set(new Float32Array(bytes.buffer, at, count));
    return out;
  }
  const view = new DataView(bytes.buffer, at, count * ELEMENT[kind].size);
  if (kind === 'f4') {
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i, littleEndian);
  } else if (kind === 'f8') {
    for (let i = 0; i < count; i++) out[i] = view.getFloat64(8 * i, littleEndian);
  } else if (kind === 'f2') {
    const bits = new Uint32Array(out.buffer);
    for (let i = 0; i < count; i++) bits[i] = halfToFloatBits(view.getUint16(2 * i, littleEndian));
  } else {
    // bfloat16: the top half of a float32's bits
    const bits = new Uint32Array(out.buffer);
    for (let i = 0; i < count; i++) bits[i] = view.getUint16(2 * i, littleEndian) << 16;
  }
  return out;
}
