// Relative position encodings: T5's relative attention buckets and the bias
// they index, and Shaw et al.'s clipped relative indices, computed by the C
// core (posenc.h states the conventions; src/core/relative/). Queries sit on
// keys as in alibiBias: query row i at key position offset + i, by default
// the last query on the last key.
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkHeads, plainView } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { checkOut, checkAttached, newArray } from '../runtime/buffers.js';
import { checkLength, checkQueryOffset } from '../runtime/attention.js'; // the same query/key geometry as alibiBias

export const T5_MAX_BUCKETS = 1024;
export const SHAW_MAX_RELATIVE = 2 ** 30 - 1;
const MAX_POSITION = 2 ** 31;
const CHUNK_VALUES = 1 << 20; // values made per core call when they travel to a JS array (4 MiB)
const WORD = 4;

function checkInteger(code, name, value, fallback, low, high, what) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high)
    refuse(code, name, what, value);
  return value;
}

/** The bucket settings of t5Buckets/t5Bias, checked: T5's defaults 32 and 128, bidirectional. */
function checkT5(o) {
  if (o.bidirectional !== undefined && typeof o.bidirectional !== 'boolean') {
    refuse(
      'BAD_OPTIONS',
      'bidirectional',
      'true (encoder buckets), false (causal decoder buckets) or undefined',
      o.bidirectional,
    );
  }
  const bidirectional = o.bidirectional ?? true;
  const least = bidirectional ? 4 : 2; // at least one exact bucket per side
  const numBuckets = checkInteger(
    'BAD_BUCKETS',
    'numBuckets',
    o.numBuckets,
    32,
    least,
    T5_MAX_BUCKETS,
    `an integer from ${least} to ${T5_MAX_BUCKETS} (${bidirectional ? 'bidirectional: numBuckets / 4' : 'causal: numBuckets / 2'} buckets are exact)`,
  );
  const maxExact = Math.floor(Math.floor(numBuckets / (bidirectional ? 2 : 1)) / 2);
  const maxDistance = checkInteger(
    'BAD_BUCKETS',
    'maxDistance',
    o.maxDistance,
    128,
    maxExact + 1,
    MAX_POSITION,
    `an integer above the ${maxExact} exact distances of numBuckets ${numBuckets} (the log buckets span ${maxExact} … maxDistance) and at most ${MAX_POSITION}`,
  );
  const queryLength = checkLength('queryLength', o.queryLength);
  const keyLength = checkLength('keyLength', o.keyLength, queryLength);
  const offset = checkQueryOffset(o.offset, queryLength, keyLength);
  return { numBuckets, maxDistance, bidirectional: bidirectional ? 1 : 0, queryLength, keyLength, offset };
}

/** An Int32Array `out` of exactly count values, or a new one. */
function checkIntOut(out, count, shape) {
  if (out === undefined) return newArray(Int32Array, count, 'out');
  out = plainView(out, 'out');
  if (!(out instanceof Int32Array)) refuse('BAD_BUFFER', 'out', 'an Int32Array', out);
  if (out.length !== count) refuse('BAD_SIZE', 'out', shape, out);
  return out;
}

/** The table of t5Bias: (numBuckets × heads) floats, HF's relative_attention_bias.weight. */
function checkTable(table, numBuckets, headsOption) {
  table = plainView(table, 'table');
  const isArray = table instanceof Float32Array || table instanceof WasmBuffer;
  if (!isArray)
    refuse(
      'BAD_BUFFER',
      'table',
      'a Float32Array (or WasmBuffer) of numBuckets × heads floats, relative_attention_bias.weight',
      table,
    );
  if (headsOption !== undefined) {
    const heads = checkHeads(headsOption);
    if (table.length !== numBuckets * heads) {
      refuse('BAD_SIZE', 'table', `numBuckets·heads = ${numBuckets}·${heads} = ${numBuckets * heads} floats`, table);
    }
    return heads;
  }
  if (table.length === 0 || table.length % numBuckets !== 0) {
    refuse('BAD_SIZE', 'table', `numBuckets × heads floats, a nonzero multiple of numBuckets = ${numBuckets}`, table);
  }
  return checkHeads(table.length / numBuckets);
}

/** t5Buckets, t5Bias and shawIndices on one instance's runtime. */
export function relativeMethods(runtime) {
  const { wasm, check } = runtime;
  const ints = (pointer, count) => {
    const view = runtime.floats(pointer, count); // a fresh view of the words at pointer
    return new Int32Array(view.buffer, view.byteOffset, count);
  };

  /**
   * Runs rows of a (queryLength, keyLength) plane through a wasm buffer into
   * the JS array `out` at `at`: rows i0 … of (queryLength, keyLength, offset)
   * are rows 0 … of (rows, keyLength, offset + i0). call(rows, rowOffset, pointer, n).
   * `out` must still hold `total` values after the staging allocation (a view of wasm memory detaches).
   */
  function planeThroughWasm(out, total, at, queryLength, keyLength, offset, call, view) {
    const rowsPerCall = Math.max(1, Math.floor(CHUNK_VALUES / Math.max(keyLength, 1)));
    const bytes = Math.min(rowsPerCall, queryLength) * keyLength * WORD;
    runtime.withTemporary([[bytes, 'relative staging']], (staging) => {
      checkAttached(out, total, 'out');
      for (let i0 = 0; i0 < queryLength; i0 += rowsPerCall) {
        const rows = Math.min(rowsPerCall, queryLength - i0);
        const n = rows * keyLength;
        check(call(rows, offset + i0, staging, n));
        out.set(view(staging, n), at + i0 * keyLength);
      }
    });
  }

  function t5Buckets(options) {
    const o = checkOptions(
      options,
      ['queryLength', 'keyLength', 'offset', 'numBuckets', 'maxDistance', 'bidirectional', 'out'],
      't5Buckets',
    );
    const t = checkT5(o);
    const count = t.queryLength * t.keyLength;
    const out = checkIntOut(o.out, count, `queryLength·keyLength = ${t.queryLength}·${t.keyLength} = ${count} values`);
    if (count === 0) return out;
    planeThroughWasm(
      out,
      count,
      0,
      t.queryLength,
      t.keyLength,
      t.offset,
      (rows, offset, pointer, n) =>
        wasm.pe_wasm_t5_buckets(rows, t.keyLength, offset, t.numBuckets, t.maxDistance, t.bidirectional, pointer, n),
      ints,
    );
    return out;
  }

  function t5Bias(options) {
    const o = checkOptions(
      options,
      ['queryLength', 'keyLength', 'offset', 'numBuckets', 'maxDistance', 'bidirectional', 'table', 'heads', 'out'],
      't5Bias',
    );
    const t = checkT5(o);
    const heads = checkTable(o.table, t.numBuckets, o.heads);
    const plane = t.queryLength * t.keyLength;
    const count = heads * plane;
    const out = checkOut(
      o.out,
      count,
      `heads·queryLength·keyLength = ${heads}·${t.queryLength}·${t.keyLength} = ${count} floats`,
    );
    if (count === 0) return out;
    const tableCount = t.numBuckets * heads;
    const bias = (rows, offset, table, first, headCount, pointer, n) =>
      wasm.pe_wasm_t5_bias(
        rows,
        t.keyLength,
        offset,
        t.numBuckets,
        t.maxDistance,
        t.bidirectional,
        table,
        tableCount,
        heads,
        first,
        headCount,
        pointer,
        n,
      );

    // The table travels into wasm unless it is there already (a WasmBuffer).
    const ownTable = !(o.table instanceof WasmBuffer);
    runtime.withTemporary([ownTable ? [tableCount * WORD, 'table'] : null], (copy) => {
      const table = ownTable ? copy : runtime.pointerOf(o.table, 'table');
      if (ownTable) {
        checkAttached(o.table, tableCount, 'table'); // a view of wasm memory detaches if the copy's allocation grew it
        runtime.floats(table, tableCount).set(o.table);
      }
      if (out instanceof WasmBuffer) {
        check(bias(t.queryLength, t.offset, table, 0, heads, runtime.pointerOf(out, 'out'), count));
        return;
      }
      for (let h = 0; h < heads; h++) {
        planeThroughWasm(
          out,
          count,
          h * plane,
          t.queryLength,
          t.keyLength,
          t.offset,
          (rows, offset, pointer, n) => bias(rows, offset, table, h, 1, pointer, n),
          runtime.floats,
        );
      }
    });
    return out;
  }

  function shawIndices(options) {
    const o = checkOptions(options, ['queryLength', 'keyLength', 'offset', 'maxRelative', 'out'], 'shawIndices');
    if (o.maxRelative === undefined)
      refuse(
        'BAD_MAX_RELATIVE',
        'maxRelative',
        `given: the clipping distance k, an integer from 0 to ${SHAW_MAX_RELATIVE}`,
        o.maxRelative,
      );
    const maxRelative = checkInteger(
      'BAD_MAX_RELATIVE',
      'maxRelative',
      o.maxRelative,
      undefined,
      0,
      SHAW_MAX_RELATIVE,
      `an integer from 0 to ${SHAW_MAX_RELATIVE} (the clipping distance k: indices run 0 … 2k)`,
    );
    const queryLength = checkLength('queryLength', o.queryLength);
    const keyLength = checkLength('keyLength', o.keyLength, queryLength);
    const offset = checkQueryOffset(o.offset, queryLength, keyLength);
    const count = queryLength * keyLength;
    const out = checkIntOut(o.out, count, `queryLength·keyLength = ${queryLength}·${keyLength} = ${count} values`);
    if (count === 0) return out;
    planeThroughWasm(
      out,
      count,
      0,
      queryLength,
      keyLength,
      offset,
      (rows, rowOffset, pointer, n) => wasm.pe_wasm_shaw_indices(rows, keyLength, rowOffset, maxRelative, pointer, n),
      ints,
    );
    return out;
  }

  return { t5Buckets, t5Bias, shawIndices };
}
