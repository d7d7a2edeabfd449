// WasmBuffer: floats (or float16/bfloat16 bit patterns, for RoPE) that live
// inside one instance's wasm memory, so calls read and write them in place. The pointer stays private; the instance that
// made the buffer is the only one that may use it.
import { PosencError, refuse } from './errors.js';

/** Bytes per element of each dtype a WasmBuffer may hold. */
const ELEMENT_BYTES = Object.freeze({ float32: 4, float16: 2, bfloat16: 2 });

/** The dtype option of alloc(n, { dtype }) checked: 'float32' when left out; its element bytes. */
export function checkBufferDtype(dtype) {
  const name = dtype === undefined ? 'float32' : dtype;
  if (typeof name !== 'string' || !Object.hasOwn(ELEMENT_BYTES, name)) {
    refuse('BAD_DTYPE', 'dtype', "'float32' (the default), 'float16' or 'bfloat16'", dtype);
  }
  return { dtype: name, bytes: ELEMENT_BYTES[name] };
}

let internals;
let genuine;

/** True for a WasmBuffer alloc() made (a Proxy of one, or an object with its prototype, is not). */
export const isWasmBuffer = (value) => genuine(value);

export class WasmBuffer {
  #owner; // the instance state (memory, free function)
  #pointer;
  #length;
  #dtype; // 'float32', or 'float16' / 'bfloat16' bit patterns (RoPE's 16-bit x)

  /** @internal Made by alloc(); not for direct use. */
  constructor(owner, pointer, length, dtype = 'float32') {
    this.#owner = owner;
    this.#pointer = pointer;
    this.#length = length;
    this.#dtype = dtype;
  }

  /** Number of elements (floats, or 16-bit patterns). Stays readable after free(). */
  get length() {
    return this.#length;
  }

  /** 'float32' (alloc(n)), or 'float16' / 'bfloat16' (alloc(n, { dtype })): 16-bit patterns. */
  get dtype() {
    return this.#dtype;
  }

  /** True once free() or dispose ran. */
  get freed() {
    return this.#pointer === 0;
  }

  /** A fresh Float32Array view (a Uint16Array of bit patterns for 16-bit dtypes); valid until the next posenc call (memory may grow). */
  get array() {
    this.#check('buffer');
    const View = this.#dtype === 'float32' ? Float32Array : Uint16Array;
    return new View(this.#owner.memory.buffer, this.#pointer, this.#length);
  }

  /** Returns the memory to the instance. Idempotent: a second free does nothing. */
  free() {
    if (this.#pointer === 0) return;
    const pointer = this.#pointer;
    this.#pointer = 0;
    this.#owner.release(pointer);
  }

  [Symbol.dispose]() {
    this.free();
  }

  #check(argument) {
    if (this.#pointer === 0) {
      throw new PosencError('BUFFER_FREED', `${argument} is a WasmBuffer that was already freed`, argument, this);
    }
  }

  static {
    genuine = (value) => value !== null && typeof value === 'object' && #pointer in value;
    internals = {
      /** The byte address of buf inside owner's memory, after the ownership and freed checks. */
      pointer(buffer, owner, argument, anyDtype) {
        if (!genuine(buffer)) {
          throw new PosencError('BAD_BUFFER', `${argument} must be a WasmBuffer from alloc()`, argument, buffer);
        }
        if (buffer.#owner !== owner) {
          throw new PosencError(
            'BAD_BUFFER',
            `${argument} is a WasmBuffer from another posenc instance; use one allocated by this instance's alloc()`,
            argument,
            buffer,
          );
        }
        buffer.#check(argument);
        if (!anyDtype && buffer.#dtype !== 'float32') {
          throw new PosencError(
            'BAD_BUFFER',
            `${argument} must hold float32 values; got a WasmBuffer of ${buffer.#dtype} bit ` +
              'patterns (only rope() and RoPE plans take 16-bit x)',
            argument,
            buffer,
          );
        }
        return buffer.#pointer;
      },
    };
  }
}

/** Pointer of a WasmBuffer argument (checked), see internals.pointer. */
export function pointerOf(buffer, owner, argument) {
  return internals.pointer(buffer, owner, argument, false);
}

/** As pointerOf, for a buffer of any dtype (RoPE's x). */
export function pointerOfAnyDtype(buffer, owner, argument) {
  return internals.pointer(buffer, owner, argument, true);
}
