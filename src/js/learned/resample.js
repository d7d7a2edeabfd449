// resampleTable: a learned table stretched or shrunk to a new number of rows
// by linear interpolation, align_corners=True (posenc.h, pe_resample_table).
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkDim, MAX_POSITION, plainView } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { checkOut, checkAttached, checkFloats } from '../runtime/buffers.js';
import { FLOAT } from '../runtime/memory.js';

/** resampleTable on one instance's runtime (the learned family's methods are gathered in learned.js). */
export function resampleMethods(runtime) {
  const { wasm } = runtime;

  function resampleTable(table, options) {
    const o = checkOptions(options, ['rows', 'dim', 'newRows', 'out'], 'resampleTable');
    const dim = checkDim(o.dim, false);
    const newRows = o.newRows;
    if (typeof newRows !== 'number' || !Number.isInteger(newRows) || newRows < 0 || newRows > MAX_POSITION) {
      refuse('BAD_LENGTH', 'newRows', `an integer from 0 to ${MAX_POSITION} (the rows of the result)`, newRows);
    }
    table = plainView(table, 'table'); // after the getters; a Proxy or subclass runs no code below
    const inWasm = table instanceof WasmBuffer;
    checkFloats(table, 'table');
    const length = table.length;
    if (length % dim !== 0) refuse('BAD_SIZE', 'table', `(rows, dim) floats: a multiple of dim = ${dim}`, table);
    const rows = length / dim;
    if (o.rows !== undefined && o.rows !== rows) {
      if (!Number.isInteger(o.rows) || o.rows < 0)
        refuse('BAD_LENGTH', 'rows', 'an integer ≥ 0 (the rows of table) or undefined', o.rows);
      refuse('BAD_SIZE', 'table', `rows·dim = ${o.rows}·${dim} = ${o.rows * dim} floats`, table);
    }
    if (rows === 0 && newRows > 0) {
      throw new PosencError('TABLE_TOO_SHORT', `table has no rows to resample into ${newRows}`, 'table', table);
    }
    if (o.out !== undefined && o.out === table)
      refuse('BAD_BUFFER', 'out', 'a buffer other than table (rows are read after others are written)', o.out);
    const count = newRows * dim;
    const out = checkOut(o.out, count, `newRows·dim = ${newRows}·${dim} = ${count} floats`);
    if (count === 0) return out;

    const tableBlock = inWasm ? null : [length * FLOAT, 'the table in wasm'];
    const outBlock = out instanceof WasmBuffer ? null : [count * FLOAT, 'the resampled table in wasm'];
    runtime.withTemporary([tableBlock, outBlock], (tableAt, outAt) => {
      if (!inWasm) checkAttached(table, length, 'table');
      if (outAt) checkAttached(out, count, 'out');
      if (!inWasm) runtime.floats(tableAt, length).set(table);
      const from = inWasm ? runtime.pointerOf(table, 'table') : tableAt;
      const to = outAt || runtime.pointerOf(out, 'out');
      runtime.check(wasm.pe_wasm_resample_table(from, rows, dim, newRows, to, count));
      if (outAt) out.set(runtime.floats(outAt, count));
    });
    return out;
  }

  return { resampleTable };
}
