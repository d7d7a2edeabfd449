// One posenc instance: a wasm module with its own memory, the runtime every
// family works through, and the families' methods gathered into one frozen
// object. The runtime (this folder) is the plumbing: the loader, the calls
// and their status (wasm-calls.js, status.js), memory and staging
// (memory.js), the sinusoid plan (plan-cache.js), buffers and checks. Each
// family (../<family>/) is a function xxxMethods(runtime) returning its
// methods; the caller (../instance.js) hands them in from ../families.js, so
// this folder imports no family.
import { PosencError, refuse } from './errors.js';
import { checkOptions } from './validate.js';
import { WasmBuffer, pointerOf, pointerOfAnyDtype, checkBufferDtype } from './wasm-buffer.js';
import { loadExports } from './loader.js';
import { wasmCalls, MAX_WASM_BYTES } from './wasm-calls.js';
import { wasmMemory } from './memory.js';
import { planCache } from './plan-cache.js';
/**
 * @param {Array<(runtime: object) => object>} families each family's xxxMethods, in the order they are gathered
 * @param {{simd?: boolean, wasm?: unknown}} [options]
 * @param {string} call the public function the options were given to, for messages
 */
export async function instantiateWith(families, options, call) {
  const o = checkOptions(options, ['simd', 'wasm'], call);
  if (o.simd !== undefined && typeof o.simd !== 'boolean')
    refuse('BAD_OPTIONS', 'simd', 'true, false or undefined', o.simd);
  const state = { exports: null, memory: null, release: (pointer) => state.exports.pe_free(pointer) };
  // Views are checked against memory.buffer where they are used, so growth needs no bookkeeping here.
  state.exports = await loadExports(o, () => {});
  state.memory = state.exports.memory;
  const runtime = createRuntime(state);
  const methods = {};
  for (const family of families) Object.assign(methods, family(runtime));
  return Object.freeze({
    simd: state.exports.pe_wasm_simd() === 1,
    ...methods,
    alloc: allocator(state, runtime),
    ...roundingMethods(state, runtime),
  });
}

const ROUNDINGS = ['fast', 'correct']; // pe_rounding's order (posenc.h)

/**
 * setRounding('fast' | 'correct') and rounding(): the module's pe_set_rounding
 * switch, for every later call of this instance. 'fast' (the default) is within
 * half an ulp plus 2.7e-12; 'correct' rounds every value from sines and cosines
 * correctly, at about twice the table time.
 */
function roundingMethods(state, runtime) {
  return {
    setRounding(mode) {
      const k = ROUNDINGS.indexOf(mode);
      if (k < 0) refuse('BAD_ROUNDING', 'rounding', "'fast' or 'correct'", mode);
      runtime.check(state.exports.pe_wasm_set_rounding(k));
    },
    rounding: () => ROUNDINGS[state.exports.pe_wasm_rounding()],
  };
}

/**
 * The runtime's API, all a family may use: { wasm, malloc, free, check } (wasm-calls.js),
 * the memory plumbing (memory.js), plan(dim, base, layout, frequencies) and pointerOf(buffer, argument).
 */
function createRuntime(state) {
  const calls = wasmCalls(state);
  const memory = wasmMemory(state, calls);
  return Object.freeze({
    ...calls,
    ...memory,
    plan: planCache(calls, memory),
    /** The address of a WasmBuffer argument of this instance (ownership and freed checks). */
    pointerOf: (buffer, argument) => pointerOf(buffer, state, argument),
    /** As pointerOf, for a buffer of any dtype (RoPE's x may be 16-bit). */
    pointerOfAnyDtype: (buffer, argument) => pointerOfAnyDtype(buffer, state, argument),
  });
}

/** alloc(n, { dtype }): n elements (floats by default) in wasm memory, as a WasmBuffer of this instance. */
function allocator(state, runtime) {
  return function alloc(n, options) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
      refuse('BAD_SIZE', 'n', 'a whole number of floats ≥ 0', n);
    const o = checkOptions(options, ['dtype'], 'alloc');
    const { dtype, bytes: elementBytes } = checkBufferDtype(o.dtype);
    const bytes = n * elementBytes;
    if (bytes > MAX_WASM_BYTES) {
      throw new PosencError('TOO_LARGE', `alloc(${n}) needs ${bytes} bytes; wasm32 memory holds at most 4 GiB`, 'n', n);
    }
    return new WasmBuffer(state, runtime.malloc(bytes, `alloc(${n})`), n, dtype);
  };
}
