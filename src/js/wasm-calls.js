// One instance's wasm resources, made once per instance and shared by every
// method module: allocation, fresh views, the core's status as a PosencError,
// the plan cache and the staging region JS arrays travel through. Every view is
// made after the last allocation of a call, since growing memory detaches
// earlier ones.
import { PosencError, refuse } from './errors.js';
import { WasmBuffer } from './wasm-buffer.js';
import { checkNotDetached } from './validate.js';

export const MAX_WASM_BYTES = 2 ** 32 - 2 ** 20; // wasm32 memory is 4 GiB, minus room for the stack and data
// Staging: big enough to amortise a call, small enough for caches.
export const STAGING_BYTES = 256 * 1024;

// pe_status (posenc.h) -> PosencError code: the backstop behind the JS checks.
const CODES = ['OK', 'BAD_BUFFER', 'BAD_DIM', 'BAD_DIM', 'BAD_BASE', 'BAD_LAYOUT', 'BAD_POSITION', 'BAD_SIZE',
  'BAD_SIZE', 'TOO_LARGE', 'TABLE_TOO_SHORT', 'BAD_SCALE', 'TOO_LARGE', 'LOAD_FAILED', 'BAD_BUFFER', 'BAD_HEADS',
  'BAD_BUFFER', 'BAD_FREQUENCIES', 'BAD_ROTARY_DIM', 'BAD_SCALING', 'BAD_ORDER', 'BAD_DTYPE', 'BAD_RECIPE', 'BAD_DIM'];

export const align16 = (bytes) => Math.ceil(bytes / 16) * 16;

export function wasmCalls(state) {
  const wasm = state.exports;
  let plan = 0;
  let planBytes = 0;
  // The encoding the plan holds, compared field by field: no key string built per call.
  const planFor = { valid: false, dim: 0, base: 0, layout: 0, frequencies: 0 };
  const staging = { at: 0, bytes: 0 };

  function cString(pointer) {
    const bytes = new Uint8Array(state.memory.buffer, pointer);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  const calls = {
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

    /**
     * The plan for (dim, base, layout, frequencies): the core's per-encoding
     * constants, built once and reused while calls keep the same encoding.
     */
    plan(dim, base, layout, frequencies) {
      const p = planFor;
      if (p.valid && p.dim === dim && p.base === base && p.layout === layout && p.frequencies === frequencies) return plan;
      const bytes = wasm.pe_wasm_scratch_size(dim) >>> 0;
      if (bytes > planBytes) {
        const pointer = calls.malloc(bytes, 'plan');
        calls.free(plan);
        plan = pointer;
        planBytes = bytes;
      }
      p.valid = false; // until the core has built it: a refused init leaves no plan
      calls.check(wasm.pe_wasm_plan_init(dim, base, layout, frequencies, plan, planBytes));
      Object.assign(p, { valid: true, dim, base, layout, frequencies });
      return plan;
    },

    /** The staging region, grown to at least `bytes`: { at, bytes }. */
    staging(bytes) {
      bytes = Math.max(STAGING_BYTES, align16(bytes));
      if (bytes > staging.bytes) {
        const pointer = calls.malloc(bytes, 'staging');
        calls.free(staging.at);
        staging.at = pointer;
        staging.bytes = bytes;
      }
      return staging;
    },
  };
  return calls;
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
  // Checked here, not only where the floats are written: an empty result writes nothing.
  if (out instanceof WasmBuffer && out.freed) throw new PosencError('BUFFER_FREED', 'out is a WasmBuffer that was already freed', 'out', out);
  if (out instanceof Float32Array) checkNotDetached(out, 'out');
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
