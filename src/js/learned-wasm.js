// Calls into one instance's wasm for the ALiBi and learned-table methods
// (alibi.js, learned-resample.js): short-lived buffers, fresh views, and the
// C status as a PosencError. Every view is made after the last allocation of
// a call, since growing memory detaches earlier ones.
import { PosencError, refuse } from './errors.js';
import { WasmBuffer } from './wasm-buffer.js';

const MAX_WASM_BYTES = 2 ** 32 - 2 ** 20; // as instance.js: wasm32 memory, minus room for stack and data

// C status -> PosencError code, for the statuses these calls can return (the
// backstop behind the JS checks).
const CODES = { 1: 'BAD_BUFFER', 3: 'BAD_DIM', 6: 'BAD_OFFSET', 7: 'BAD_SIZE', 10: 'TABLE_TOO_SHORT', 12: 'TOO_LARGE',
  15: 'BAD_HEADS', 16: 'BAD_BUFFER' };

export function wasmCalls(state) {
  const wasm = state.exports;

  function cString(pointer) {
    const bytes = new Uint8Array(state.memory.buffer, pointer);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  return {
    wasm,

    /** bytes of wasm memory (16-aligned), or TOO_LARGE naming `what`. */
    malloc(bytes, what) {
      const pointer = bytes > MAX_WASM_BYTES ? 0 : wasm.pe_malloc(Math.max(16, bytes)) >>> 0;
      if (pointer === 0) {
        throw new PosencError('TOO_LARGE', `${what} needs ${bytes} bytes and wasm memory (at most 4 GiB) cannot hold them`, what, bytes);
      }
      return pointer;
    },

    free(pointer) {
      if (pointer !== 0) wasm.pe_free(pointer);
    },

    /** A fresh Float32Array view of count floats at pointer. */
    floats(pointer, count) {
      return new Float32Array(state.memory.buffer, pointer, count);
    },

    check(status) {
      if (status === 0) return;
      const text = cString(wasm.pe_wasm_status_str(status) >>> 0);
      throw new PosencError(CODES[status] ?? 'BAD_BUFFER', `posenc core refused the call: ${text} (status ${status})`);
    },
  };
}

/** A new Float32Array of count floats, or TOO_LARGE. */
export function newFloats(count, argument) {
  try {
    return new Float32Array(count);
  } catch {
    throw new PosencError('TOO_LARGE', `the result needs ${count} floats, more than a JS Float32Array can hold; pass out = alloc(...) or ask for less`, argument, count);
  }
}

/** `out` (undefined, a Float32Array or a WasmBuffer) of exactly count floats: the array to fill, else a refusal. */
export function checkOut(out, count, shape) {
  if (out === undefined) return newFloats(count, 'out');
  if (!(out instanceof Float32Array) && !(out instanceof WasmBuffer)) refuse('BAD_BUFFER', 'out', 'a Float32Array or a WasmBuffer from alloc()', out);
  if (out.length !== count) refuse('BAD_SIZE', 'out', shape, out);
  return out;
}

/** After an allocation: a JS view of wasm memory made before it is now detached (length 0). */
export function checkAttached(array, count, argument) {
  if (array.length !== count) {
    throw new PosencError('BAD_BUFFER', `${argument} is a detached view: wasm memory grew, which detaches views such as ` +
      'WasmBuffer.array; pass the WasmBuffer itself', argument, array);
  }
}
