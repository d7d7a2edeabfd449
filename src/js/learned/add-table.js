// addTable: a learned (rows, dim) position table added in place to a batch of
// activations (posenc.h, pe_add_table), with any mix of JS arrays and wasm
// buffers; JS arrays travel through the runtime's staging region.
import { checkOptions, checkDim, checkSpan, checkScale, plainView } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { batchOf, tableRowsOf } from '../runtime/buffers.js';
import { forEachChunk } from '../runtime/chunks.js';
import { FLOAT, chunkShape } from '../runtime/memory.js';

/** addTable on one instance's runtime (the learned family's methods are gathered in learned.js). */
export function addTableMethods(runtime) {
  const { wasm, check } = runtime;

  function addTable(x, table, options) {
    const o = checkOptions(options, ['length', 'dim', 'offset', 'scale'], 'addTable');
    x = plainView(x, 'x'); // after the getters: refused when detached, read without the caller's code
    table = plainView(table, 'table');
    const dim = checkDim(o.dim, false);
    const [length, offset] = checkSpan(o.length, o.offset);
    const scale = checkScale(o.scale);
    const xPointer = x instanceof WasmBuffer ? runtime.pointerOf(x, 'x') : 0;
    const tablePointer = table instanceof WasmBuffer ? runtime.pointerOf(table, 'table') : 0;
    const staging = !xPointer || !tablePointer ? runtime.staging(2 * dim * FLOAT) : null;
    const batch = batchOf(x, length, dim);
    const tableRows = tableRowsOf(table, dim, offset, length);
    if (batch === 0) return x;
    if (xPointer !== 0 && tablePointer !== 0) {
      check(wasm.pe_wasm_add_table(tablePointer, tableRows, dim, scale, offset, length, xPointer, x.length));
      return x;
    }
    let rowsOf = tablePointer ? null : table;
    if (rowsOf && !xPointer && rowsOf.buffer === x.buffer) rowsOf = rowsOf.slice(); // x may alias the table

    if (xPointer !== 0) {
      // x in wasm, table in JS: stage the needed table rows, add them to each batch item.
      forEachChunk(offset, length, Math.floor(staging.bytes / (dim * FLOAT)), (start, rows) => {
        runtime.floats(staging.at, rows * dim).set(rowsOf.subarray(start * dim, (start + rows) * dim));
        if (rows === length) {
          check(wasm.pe_wasm_add_table(staging.at, rows, dim, scale, 0, length, xPointer, x.length));
          return;
        }
        const r0 = start - offset;
        for (let b = 0; b < batch; b++) {
          const at = xPointer + (b * length + r0) * dim * FLOAT;
          check(wasm.pe_wasm_add_table(staging.at, rows, dim, scale, 0, rows, at, rows * dim));
        }
      });
      return x;
    }
    // x in JS: stage its slab, and the table rows first unless the table is in wasm already.
    const { rows: maxRows, group } = chunkShape(staging.bytes / FLOAT, batch, dim, rowsOf ? dim : 0, 1); // no sinusoid: any rows will do
    forEachChunk(offset, length, maxRows, (start, rows) => {
      const r0 = start - offset;
      let tableAt = tablePointer;
      let tableOffset = start;
      let tableRowCount = tableRows;
      let slabAt = staging.at;
      if (rowsOf) {
        runtime.floats(staging.at, rows * dim).set(rowsOf.subarray(start * dim, (start + rows) * dim));
        tableAt = staging.at;
        tableOffset = 0;
        tableRowCount = rows;
        slabAt = staging.at + rows * dim * FLOAT;
      }
      for (let b0 = 0; b0 < batch; b0 += group) {
        const g = Math.min(group, batch - b0);
        runtime.stageSlab(x, slabAt, length, dim, b0, g, r0, rows);
        check(wasm.pe_wasm_add_table(tableAt, tableRowCount, dim, scale, tableOffset, rows, slabAt, g * rows * dim));
        runtime.unstageSlab(x, slabAt, length, dim, b0, g, r0, rows);
      }
    });
    return x;
  }

  return { addTable };
}
