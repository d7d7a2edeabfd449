// ALiBi (Press et al., "Train Short, Test Long"): the per-head slopes and the
// bias tensor, computed by the C core (posenc.h states the conventions).
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkHeads, checkFlag, MAX_POSITION } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { checkOut, checkAttached } from '../runtime/buffers.js';
import { FLOAT } from '../runtime/memory.js';

const CHUNK_FLOATS = 65536; // rows of bias made per call when they travel to a JS array

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
      throw new PosencError(
        'BAD_OFFSET',
        `queryLength ${queryLength} exceeds keyLength ${keyLength}, so the default offset (keyLength − queryLength, ` +
          'which puts the last query on the last key) would be negative; pass offset: the key position of query row 0',
        'offset',
        offset,
      );
    }
    return keyLength - queryLength;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset + queryLength > MAX_POSITION) {
    refuse(
      'BAD_OFFSET',
      'offset',
      `an integer ≥ 0 with offset + queryLength ≤ ${MAX_POSITION} (queryLength is ${queryLength})`,
      offset,
    );
  }
  return offset;
}

/** alibiSlopes and alibiBias on one instance's runtime. */
export function alibiMethods(runtime) {
  const { wasm, check } = runtime;

  function alibiSlopes(heads) {
    checkHeads(heads);
    const staging = runtime.staging(heads * FLOAT);
    check(wasm.pe_wasm_alibi_slopes(heads, staging.at, heads));
    return runtime.floats(staging.at, heads).slice();
  }

  function alibiBias(options) {
    const o = checkOptions(options, ['heads', 'queryLength', 'keyLength', 'offset', 'causal', 'out'], 'alibiBias');
    const heads = checkHeads(o.heads);
    const queryLength = checkLength('queryLength', o.queryLength);
    const keyLength = checkLength('keyLength', o.keyLength, queryLength);
    const offset = checkQueryOffset(o.offset, queryLength, keyLength);
    const causal = checkFlag(o.causal, 'causal') ? 1 : 0;
    const plane = queryLength * keyLength;
    const count = heads * plane;
    const out = checkOut(
      o.out,
      count,
      `heads·queryLength·keyLength = ${heads}·${queryLength}·${keyLength} = ${count} floats`,
    );
    if (count === 0) return out;

    if (out instanceof WasmBuffer) {
      const pointer = runtime.pointerOf(out, 'out');
      check(wasm.pe_wasm_alibi_bias(heads, queryLength, keyLength, offset, causal, 0, heads, pointer, count));
      return out;
    }
    // Into a JS array: rows of one head at a time through the staging region.
    // Rows i0 ... of (queryLength, keyLength, offset) are rows 0 ... of (rows, keyLength, offset + i0).
    const rowsPerCall = Math.max(1, Math.floor(CHUNK_FLOATS / keyLength));
    const staging = runtime.staging(Math.min(rowsPerCall, queryLength) * keyLength * FLOAT);
    checkAttached(out, count, 'out');
    for (let h = 0; h < heads; h++) {
      for (let i0 = 0; i0 < queryLength; i0 += rowsPerCall) {
        const rows = Math.min(rowsPerCall, queryLength - i0);
        const n = rows * keyLength;
        check(wasm.pe_wasm_alibi_bias(heads, rows, keyLength, offset + i0, causal, h, 1, staging.at, n));
        runtime.copyOut(out, h * plane + i0 * keyLength, staging.at, n);
      }
    }
    return out;
  }

  return { alibiSlopes, alibiBias };
}
