// One instance's calls into its wasm: allocation, and the core's status
// turned into a PosencError (status.js maps it by name). Made once per
// instance; every family reaches the wasm through it.
import { PosencError } from './errors.js';
import { statusTable, UNKNOWN_STATUS_CODE } from './status.js';

export const MAX_WASM_BYTES = 2 ** 32 - 2 ** 20; // wasm32 memory is 4 GiB, minus room for the stack and data

/** @param {{exports: WebAssembly.Exports, memory: WebAssembly.Memory}} state */
export function wasmCalls(state) {
  const wasm = state.exports;

  /** The NUL-terminated string at pointer, or null for a null pointer. */
  function cString(pointer) {
    if (pointer === 0) return null;
    const bytes = new Uint8Array(state.memory.buffer, pointer);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  const status = statusTable((n) => cString(wasm.pe_wasm_status_name(n) >>> 0));

  const calls = {
    wasm,

    /** The core's status names by number and their JS codes, as asked of this wasm at init. */
    status,

    /** bytes of wasm memory (16-aligned), or TOO_LARGE naming `what`. */
    malloc(bytes, what) {
      const pointer = bytes > MAX_WASM_BYTES ? 0 : wasm.pe_malloc(Math.max(16, bytes)) >>> 0;
      if (pointer === 0) {
        throw new PosencError(
          'TOO_LARGE',
          `${what} needs ${bytes} bytes and wasm memory (at most 4 GiB) cannot hold them`,
          what,
          bytes,
        );
      }
      return pointer;
    },

    free(pointer) {
      if (pointer !== 0) wasm.pe_free(pointer);
    },

    /** Nothing for PE_OK; else the PosencError of the status, with the core's own sentence. */
    check(result) {
      if (result === 0) return;
      const text = cString(wasm.pe_wasm_status_str(result) >>> 0);
      const name = status.names[result] ?? 'unnamed';
      const code = status.codes[result] ?? UNKNOWN_STATUS_CODE;
      throw new PosencError(code, `posenc core refused the call: ${text} (status ${result}, ${name})`);
    },
  };
  return calls;
}
