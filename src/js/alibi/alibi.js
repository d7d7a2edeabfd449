// ALiBi (Press et al., "Train Short, Test Long"): the per-head slopes and the
// bias tensor, computed by the C core (posenc.h states the conventions).
import { PosencError, refuse } from './errors.js';
import { checkOptions, MAX_POSITION } from './validate.js';
import { WasmBuffer, pointerOf } from './wasm-buffer.js';
import { checkOut, checkAttached } from './wasm-calls.js';

export const MAX_HEADS = 65536;
const CHUNK_FLOATS = 65536; // rows of bias made per call when they travel to a JS array
const FLOAT = 4;

export function checkHeads(heads) {
  if (typeof heads !== 'number' || !Number.isInteger(heads) || heads < 1 || heads > MAX_HEADS) {
    refuse('BAD_HEADS', 'heads', `an integer from 1 to ${MAX_HEADS} (the number of attention heads)`, heads);
  }
  return heads;
}

function checkLength(name, value, fallback) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_POSITION) {
    refuse('BAD_LENGTH', name, `an integer from 0 to ${MAX_POSITION}`, value);
  }
  return value;
}

/** Key position of query row 0: by default the last query sits on the last key. */
function checkQueryOffset(offset, queryLength, keyLength) {
  if (offset === undefined) {
    if (queryLength > keyLength) {
      throw new PosencError('BAD_OFFSET',
        `queryLength ${queryLength} exceeds keyLength ${keyLength}, so the default offset (keyLength − queryLength, ` +
        'which puts the last query on the last key) would be negative; pass offset: the key position of query row 0',
        'offset', offset);
    }
    return keyLength - queryLength;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset + queryLength > MAX_POSITION) {
    refuse('BAD_OFFSET', 'offset', `an integer ≥ 0 with offset + queryLength ≤ ${MAX_POSITION} (queryLength is ${queryLength})`, offset);
  }
  return offset;
}

/** alibiSlopes and alibiBias bound to one instance's wasm (see instance.js). */
export function alibiMethods(state) {
  const calls = state.calls;
  const { wasm } = calls;

  function alibiSlopes(heads) {
    checkHeads(heads);
    const pointer = calls.malloc(heads * FLOAT, 'slopes');
    try {
      calls.check(wasm.pe_wasm_alibi_slopes(heads, pointer, heads));
      return calls.floats(pointer, heads).slice();
    } finally {
      calls.free(pointer);
    }
  }

  function alibiBias(options) {
    const o = checkOptions(options, ['heads', 'queryLength', 'keyLength', 'offset', 'causal', 'out'], 'alibiBias');
    const heads = checkHeads(o.heads);
    const queryLength = checkLength('queryLength', o.queryLength);
    const keyLength = checkLength('keyLength', o.keyLength, queryLength);
    const offset = checkQueryOffset(o.offset, queryLength, keyLength);
    if (o.causal !== undefined && typeof o.causal !== 'boolean') refuse('BAD_OPTIONS', 'causal', 'true, false or undefined', o.causal);
    const causal = o.causal ? 1 : 0;
    const plane = queryLength * keyLength;
    const count = heads * plane;
    const out = checkOut(o.out, count, `heads·queryLength·keyLength = ${heads}·${queryLength}·${keyLength} = ${count} floats`);
    if (count === 0) return out;

    if (out instanceof WasmBuffer) {
      const pointer = pointerOf(out, state, 'out');
      calls.check(wasm.pe_wasm_alibi_bias(heads, queryLength, keyLength, offset, causal, 0, heads, pointer, count));
      return out;
    }
    // Into a JS array: rows of one head at a time through a small wasm buffer.
    // Rows i0 ... of (queryLength, keyLength, offset) are rows 0 ... of (rows, keyLength, offset + i0).
    const rowsPerCall = Math.max(1, Math.floor(CHUNK_FLOATS / keyLength));
    const staging = calls.malloc(Math.min(rowsPerCall, queryLength) * keyLength * FLOAT, 'alibiBias staging');
    try {
      checkAttached(out, count, 'out');
      for (let h = 0; h < heads; h++) {
        for (let i0 = 0; i0 < queryLength; i0 += rowsPerCall) {
          const rows = Math.min(rowsPerCall, queryLength - i0);
          const n = rows * keyLength;
          calls.check(wasm.pe_wasm_alibi_bias(heads, rows, keyLength, offset + i0, causal, h, 1, staging, n));
          out.set(calls.floats(staging, n), h * plane + i0 * keyLength);
        }
      }
    } finally {
      calls.free(staging);
    }
    return out;
  }

  return { alibiSlopes, alibiBias };
}
