// Checks of buffer arguments (x, table, out): a Float32Array or a WasmBuffer
// of the size the call needs, still attached to wasm memory. They refuse
// before anything is written, like the scalar checks in validate.js.
import { PosencError, refuse, describe } from './errors.js';
import { WasmBuffer } from './wasm-buffer.js';
import { checkNotDetached, MAX_RESULT, plainView } from './validate.js';

const FLOATS_ALLOWED = 'a Float32Array or a WasmBuffer from alloc()';

/**
 * A new typed array of count elements, or TOO_LARGE naming `argument` before
 * anything is allocated when count is above MAX_RESULT (2^28 elements).
 */
export function newArray(Type, count, argument) {
  if (count > MAX_RESULT) {
    throw new PosencError(
      'TOO_LARGE',
      `the result needs ${count} elements; posenc allocates at most ${MAX_RESULT} (2^28) for a result: ` +
        'pass out (e.g. alloc(...)) or ask for fewer',
      argument,
      count,
    );
  }
  try {
    return new Type(count);
  } catch {
    throw new PosencError(
      'TOO_LARGE',
      `the result needs ${count} elements, more than a JS ${Type.name} can hold; pass out = alloc(...) or ask for fewer`,
      argument,
      count,
    );
  }
}

/** A refusal unless value is a Float32Array or a WasmBuffer. */
export function checkFloats(value, argument) {
  if (!(value instanceof Float32Array) && !(value instanceof WasmBuffer))
    refuse('BAD_BUFFER', argument, FLOATS_ALLOWED, value);
  return value;
}

/**
 * `out` (undefined, a Float32Array or a WasmBuffer) of exactly count floats: the array to fill, else a refusal.
 * shape: what is allowed, or a function that makes it, called only to refuse (a per-call message is waste).
 */
export function checkOut(out, count, shape) {
  if (out === undefined) return newArray(Float32Array, count, 'out');
  out = plainView(out, 'out');
  checkFloats(out, 'out');
  // Checked here, not only where the floats are written: an empty result writes nothing.
  if (out instanceof WasmBuffer && out.freed) {
    throw new PosencError('BUFFER_FREED', 'out is a WasmBuffer that was already freed', 'out', out);
  }
  if (out instanceof Float32Array) checkNotDetached(out, 'out');
  if (out.length !== count) refuse('BAD_SIZE', 'out', typeof shape === 'function' ? shape() : shape, out);
  return out;
}

/** After an allocation: a JS view of wasm memory made before it is now detached (length 0). */
export function checkAttached(array, count, argument) {
  if (array.length !== count) {
    throw new PosencError(
      'BAD_BUFFER',
      `${argument} is a detached view: wasm memory grew, which detaches views such as ` +
        'WasmBuffer.array; pass the WasmBuffer itself',
      argument,
      array,
    );
  }
}

/** A Float32Array argument of exactly `count` floats (a detached one is named as such), or a refusal. */
export function checkJsFloats(value, argument, count, shape) {
  if (value instanceof Float32Array && value.length === count) value = plainView(value, argument);
  if (!(value instanceof Float32Array)) refuse('BAD_BUFFER', argument, FLOATS_ALLOWED, value);
  if (value.length !== count) {
    if (value.buffer.byteLength === 0 && count !== 0) checkAttached(value, count, argument);
    refuse('BAD_SIZE', argument, shape, value);
  }
  return value;
}

/**
 * The batch of x, a Float32Array or WasmBuffer of (batch, length, row) floats
 * (row: dim, or heads·headDim), or a refusal naming `shape` (e.g.
 * '(batch, length, dim)') and the factors of a row.
 */
export function batchOf(x, length, row, shape = '(batch, length, dim)', factors = `length·dim = ${length}·${row}`) {
  checkFloats(x, 'x');
  const slab = length * row;
  if (slab === 0 ? x.length !== 0 : x.length % slab !== 0) {
    refuse('BAD_SIZE', 'x', `${shape} floats: a multiple of ${factors} = ${slab}${slab === 0 ? ' (so empty)' : ''}`, x);
  }
  return slab === 0 ? 0 : x.length / slab;
}

/** The rows of a (rows, dim) table after its type, shape and length checks: it must hold offset + length rows. */
export function tableRowsOf(table, dim, offset, length) {
  checkFloats(table, 'table');
  if (table.length % dim !== 0) refuse('BAD_SIZE', 'table', `(rows, dim) floats: a multiple of dim = ${dim}`, table);
  const rows = table.length / dim;
  if (offset + length > rows) {
    throw new PosencError(
      'TABLE_TOO_SHORT',
      `table must have at least offset + length = ${offset} + ${length} = ${offset + length} rows of dim ${dim}; got ${rows} rows (${describe(table)})`,
      'table',
      table,
    );
  }
  return rows;
}
