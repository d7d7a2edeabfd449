// float16 and bfloat16 bit patterns to the float32 values they stand for
// (every one is exact in float32). Pure JS, no wasm: the learned family's file
// readers widen float16 through the same runtime/float16.js.
import { refuse } from '../runtime/errors.js';
import { checkOptions, checkNotDetached } from '../runtime/validate.js';
import { halfToFloatBits } from '../runtime/float16.js';

/** The 16-bit dtypes by name: the numbers of pe_dtype (posenc.h); float32 is 0. */
export const DTYPES = Object.freeze({ float32: 0, float16: 1, bfloat16: 2 });

/**
 * The dtype option: 0 for float32 (or left out), 1 float16, 2 bfloat16.
 * Anything else is refused with BAD_DTYPE.
 */
export function dtypeCode(dtype) {
  if (dtype === undefined) return 0;
  if (typeof dtype !== 'string' || !Object.hasOwn(DTYPES, dtype)) {
    refuse('BAD_DTYPE', 'dtype', "'float32' (the default), 'float16' or 'bfloat16'", dtype);
  }
  return DTYPES[dtype];
}

/** float16 / bfloat16 bit patterns -> their values (exact in float32). Needs no wasm. */
export function bitsToFloat32(bits, options) {
  const o = checkOptions(options, ['dtype'], 'bitsToFloat32');
  const code = dtypeCode(o.dtype);
  if (code === 0) refuse('BAD_DTYPE', 'dtype', "'float16' or 'bfloat16'", o.dtype);
  // A Float16Array holds float16 values: its bits are read as they are (as rope() reads one).
  const half = globalThis.Float16Array !== undefined && bits instanceof globalThis.Float16Array && code === 1;
  if (!(bits instanceof Uint16Array) && !half) {
    refuse('BAD_BUFFER', 'bits', "a Uint16Array of bit patterns (or a Float16Array with dtype 'float16')", bits);
  }
  checkNotDetached(bits, 'bits');
  if (half) bits = new Uint16Array(bits.buffer, bits.byteOffset, bits.length);
  const words = new Uint32Array(bits.length);
  for (let k = 0; k < bits.length; k++) words[k] = code === 1 ? halfToFloatBits(bits[k]) : bits[k] << 16;
  return new Float32Array(words.buffer);
}
