// ALiBi (Press et al., "Train Short, Test Long"): the per-head slopes and the
// bias tensor, computed by the C core (posenc.h states the conventions).
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkHeads, checkFlag } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { checkOut, checkAttached } from '../runtime/buffers.js';
import { FLOAT } from '../runtime/memory.js';
import { isTensor, checkAs } from '../runtime/tensor.js';
import { checkLength, checkQueryOffset } from '../runtime/attention.js';
import { alibiSlopes as slopesOf } from '../runtime/alibi-slopes.js';

const CHUNK_FLOATS = 65536; // rows of bias made per call when they travel to a JS array

/** alibiSlopes and alibiBias on one instance's runtime. */
export function alibiMethods(runtime) {
  const { wasm, check } = runtime;

  const alibiSlopes = (heads) => slopesOf(runtime, heads);

  /** The heads of a call: all of them, or a slice headStart ... headStart + headCount - 1 (tensor parallelism). */
  function headSlice(o, heads) {
    const start = o.headStart === undefined ? 0 : o.headStart;
    if (typeof start !== 'number' || !Number.isInteger(start) || start < 0 || start >= heads) {
      refuse(
        'BAD_HEADS',
        'headStart',
        `an integer from 0 to heads − 1 = ${heads - 1} (the slice's first head)`,
        o.headStart,
      );
    }
    const count = o.headCount === undefined ? heads - start : o.headCount;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || start + count > heads) {
      refuse(
        'BAD_HEADS',
        'headCount',
        `an integer from 1 to heads − headStart = ${heads - start} (the slice's heads)`,
        o.headCount,
      );
    }
    return [start, count];
  }

  /** out given as a tensor { data, dims, type }: its data, after its dims are checked against the bias's. */
  function outOfTensor(out, dims) {
    if (!isTensor(out)) return out;
    if (out.type !== 'float32') refuse('BAD_DTYPE', 'out.type', "'float32' (the bias is float32)", out.type);
    const given = Array.isArray(out.dims) ? out.dims.map(Number) : [];
    const same = (want) => want.length === given.length && want.every((d, k) => d === given[k]);
    if (!same(dims) && !same([1, ...dims])) {
      throw new PosencError(
        'BAD_SHAPE',
        `out.dims must be [${dims.join(', ')}] or [1, ${dims.join(', ')}] (headCount, queryLength, keyLength); got ` +
          `[${given.join(', ')}]`,
        'out.dims',
        out.dims,
      );
    }
    return out.data;
  }

  function alibiBias(options) {
    const o = checkOptions(
      options,
      ['heads', 'queryLength', 'keyLength', 'offset', 'causal', 'out', 'headStart', 'headCount', 'as'],
      'alibiBias',
    );
    const heads = checkHeads(o.heads);
    const [first, headCount] = headSlice(o, heads);
    const queryLength = checkLength('queryLength', o.queryLength);
    const keyLength = checkLength('keyLength', o.keyLength, queryLength);
    const offset = checkQueryOffset(o.offset, queryLength, keyLength);
    const causal = checkFlag(o.causal, 'causal') ? 1 : 0;
    const asTensor = checkAs(o.as);
    const dims = [headCount, queryLength, keyLength];
    const plane = queryLength * keyLength;
    const count = headCount * plane;
    const out = checkOut(
      outOfTensor(o.out, dims),
      count,
      () => `headCount·queryLength·keyLength = ${headCount}·${queryLength}·${keyLength} = ${count} floats`,
    );
    const result = () => {
      if (isTensor(o.out)) return o.out;
      if (!asTensor) return out;
      return { data: out instanceof WasmBuffer ? out.array : out, dims, type: 'float32' };
    };
    if (count === 0) return result();

    if (out instanceof WasmBuffer) {
      const pointer = runtime.pointerOf(out, 'out');
      check(wasm.pe_wasm_alibi_bias(heads, queryLength, keyLength, offset, causal, first, headCount, pointer, count));
      return result();
    }
    // Into a JS array: rows of one head at a time through the staging region.
    // Rows i0 ... of (queryLength, keyLength, offset) are rows 0 ... of (rows, keyLength, offset + i0).
    const rowsPerCall = Math.max(1, Math.floor(CHUNK_FLOATS / keyLength));
    const staging = runtime.staging(Math.min(rowsPerCall, queryLength) * keyLength * FLOAT);
    checkAttached(out, count, 'out');
    for (let h = 0; h < headCount; h++) {
      for (let i0 = 0; i0 < queryLength; i0 += rowsPerCall) {
        const rows = Math.min(rowsPerCall, queryLength - i0);
        const n = rows * keyLength;
        check(wasm.pe_wasm_alibi_bias(heads, rows, keyLength, offset + i0, causal, first + h, 1, staging.at, n));
        runtime.copyOut(out, h * plane + i0 * keyLength, staging.at, n);
      }
    }
    return result();
  }

  return { alibiSlopes, alibiBias };
}
