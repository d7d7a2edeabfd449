// Position ids as inference engines hold them, checked and turned into the
// uint32 rows the core takes: `positions` (one list for every batch item),
// `positionIds` (batch, length): one list per batch item, as HF's
// position_ids and onnxruntime-web's int64 tensors hold them), and `cuSeqlens`
// (flash-attention's and vLLM's cumulative lengths of packed sequences).
// Everything is checked before anything is written.
import { PosencError, describe, refuse } from '../runtime/errors.js';
import { MAX_POSITION, checkListLength, plainView } from '../runtime/validate.js';

export const ID_ARRAYS = 'an Int32Array, Uint32Array, BigInt64Array or Array of integers';
export const isIdArray = (v) =>
  v instanceof Int32Array ||
  v instanceof Uint32Array ||
  v instanceof BigInt64Array ||
  v instanceof BigUint64Array ||
  v instanceof Uint16Array ||
  v instanceof Uint8Array ||
  v instanceof Int16Array ||
  v instanceof Int8Array ||
  v instanceof Float64Array ||
  v instanceof Float32Array ||
  Array.isArray(v);

function badId(argument, index, value, what) {
  throw new PosencError(
    'BAD_POSITION',
    `${argument}[${index}] must be ${what}; got ${describe(value)}`,
    `${argument}[${index}]`,
    value,
  );
}

/**
 * ids (any accepted array) copied into out[at ...] as uint32 after checking each
 * is an integer in [0, 2^31). Returns the largest id + 1 (0 when empty).
 */
export function copyIds(ids, argument, out, at) {
  let end = 0;
  const n = out.length - at; // the caller sized out by the list's length, read once and checked
  if (ids instanceof Int32Array || ids instanceof Uint32Array) {
    for (let i = 0; i < n; i++) {
      const p = ids[i];
      if (p < 0 || p >= MAX_POSITION) badId(argument, i, p, `an integer from 0 to ${MAX_POSITION - 1}`);
      out[at + i] = p;
      if (p >= end) end = p + 1;
    }
    return end;
  }
  const big = ids instanceof BigInt64Array || ids instanceof BigUint64Array;
  for (let i = 0; i < n; i++) {
    let p = ids[i];
    if (typeof p === 'bigint' && (big || Array.isArray(ids))) {
      if (p < 0n || p >= BigInt(MAX_POSITION)) badId(argument, i, p, `an integer from 0 to ${MAX_POSITION - 1}`);
      p = Number(p);
    } else if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= MAX_POSITION) {
      badId(argument, i, p, `an integer from 0 to ${MAX_POSITION - 1}`);
    }
    out[at + i] = p;
    if (p >= end) end = p + 1;
  }
  return end;
}

/** A flat id array, or a nested one (an Array of rows) flattened; its row length when nested. */
export function flatten(ids, argument) {
  const first = Array.isArray(ids) && ids.length > 0 ? ids[0] : undefined; // read once: a getter may answer anew
  if (Array.isArray(first) || ArrayBuffer.isView(first)) {
    const rowLength = first.length;
    const rows = [first];
    for (let b = 1; b < ids.length; b++) rows.push(ids[b]);
    for (let b = 0; b < rows.length; b++) {
      if (!isIdArray(rows[b]) || rows[b].length !== rowLength) {
        refuse(
          'BAD_POSITION',
          `${argument}[${b}]`,
          `${ID_ARRAYS} of length ${rowLength} (every row as long as the first)`,
          rows[b],
        );
      }
    }
    checkListLength(rows.length * rowLength, argument);
    const flat = [];
    for (const row of rows) for (let i = 0; i < rowLength; i++) flat.push(row[i]);
    return { flat, rowLength };
  }
  if (!isIdArray(ids)) refuse('BAD_BUFFER', argument, ID_ARRAYS, ids);
  const n = checkListLength(ids.length, argument);
  if (!Array.isArray(ids)) return { flat: plainView(ids, argument), rowLength: undefined };
  // An Array's elements read once each, here (the first already was).
  const flat = new Array(n);
  for (let i = 0; i < n; i++) flat[i] = i === 0 ? first : ids[i];
  return { flat, rowLength: undefined };
}

/**
 * The rows of a call: which positions each batch item's rows sit at.
 * o: the call's options; rowsOfX: x's rows (x.length / (heads · headDim)).
 * Returns { length, batch, offset, ids (Uint32Array or null), perItem (ids hold
 * batch · length entries), end (largest position + 1) }.
 */
export function checkRowSources(o, rowsOfX, checkSpanOf) {
  // The common case (offset and length only) allocates nothing here.
  const source =
    o.positions !== undefined
      ? 'positions'
      : o.positionIds !== undefined
        ? 'positionIds'
        : o.cuSeqlens !== undefined
          ? 'cuSeqlens'
          : undefined;
  if (source !== undefined) {
    const second = ['positionIds', 'cuSeqlens'].find((k) => k !== source && o[k] !== undefined);
    if (second !== undefined) {
      refuse('BAD_OPTIONS', second, `left out when ${source} is given (one source of positions per call)`, o[second]);
    }
  }
  if (source !== undefined && o.offset !== undefined && o.offset !== 0) {
    refuse(
      'BAD_OFFSET',
      'offset',
      `left out (or 0) when ${source} is given: each row sits at its listed position`,
      o.offset,
    );
  }
  if (source === undefined) {
    const [length, offset] = checkSpanOf(o.length === undefined ? rowsOfX : o.length, o.offset);
    return { length, offset, ids: null, perItem: false, end: offset + length };
  }
  if (source === 'positions') {
    const { flat } = flatten(o.positions, 'positions');
    const ids = new Uint32Array(flat.length);
    const end = copyIds(flat, 'positions', ids, 0);
    if (o.length !== undefined && o.length !== ids.length) {
      refuse('BAD_LENGTH', 'length', `positions.length = ${ids.length} (one position per row), or left out`, o.length);
    }
    return { length: ids.length, offset: 0, ids, perItem: false, end };
  }
  if (source === 'positionIds') {
    const { flat, rowLength } = flatten(o.positionIds, 'positionIds');
    const length = o.length !== undefined ? checkSpanOf(o.length, 0)[0] : (rowLength ?? rowsOfX);
    if (rowLength !== undefined && rowLength !== length) {
      refuse('BAD_LENGTH', 'length', `the rows of positionIds (${rowLength} each), or left out`, o.length);
    }
    const ids = new Uint32Array(flat.length);
    const end = copyIds(flat, 'positionIds', ids, 0);
    return { length, offset: 0, ids, perItem: true, end };
  }
  return cuSeqlensRows(o, rowsOfX);
}

/** cuSeqlens [0, n0, n0 + n1, ..., rows]: positions restart at 0 with every packed sequence. */
function cuSeqlensRows(o, rowsOfX) {
  const { flat: cu } = flatten(o.cuSeqlens, 'cuSeqlens');
  const bounds = new Float64Array(cu.length);
  copyIds(cu, 'cuSeqlens', bounds, 0);
  if (bounds.length < 1 || bounds[0] !== 0) {
    refuse('BAD_POSITION', 'cuSeqlens', 'the cumulative row counts [0, n0, n0 + n1, ...]: starting at 0', o.cuSeqlens);
  }
  for (let s = 1; s < bounds.length; s++) {
    if (bounds[s] < bounds[s - 1]) {
      badId(
        'cuSeqlens',
        s,
        bounds[s],
        `at least cuSeqlens[${s - 1}] = ${bounds[s - 1]} (cumulative lengths never decrease)`,
      );
    }
  }
  const length = bounds[bounds.length - 1];
  if (o.length !== undefined && o.length !== length) {
    refuse('BAD_LENGTH', 'length', `the last cuSeqlens entry (${length}), or left out`, o.length);
  }
  if (length !== rowsOfX) {
    badId(
      'cuSeqlens',
      bounds.length - 1,
      length,
      `x's row count ${rowsOfX} (x.length / (heads · headDim)): packed sequences cover x`,
    );
  }
  const ids = new Uint32Array(length);
  let end = 0;
  for (let s = 1; s < bounds.length; s++) {
    for (let l = bounds[s - 1]; l < bounds[s]; l++) ids[l] = l - bounds[s - 1];
    end = Math.max(end, bounds[s] - bounds[s - 1]);
  }
  return { length, offset: 0, ids, perItem: false, end };
}
