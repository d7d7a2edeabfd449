// One posenc instance: a wasm module with its own memory, and its resources
// (wasm-calls.js: the plan cache and the staging region JS arrays travel
// through), shared by every method module. Nothing is written before every
// argument has passed its check.
import { PosencError, refuse, describe } from './errors.js';
import { checkOptions, checkDim, checkSpan, checkScale, checkPositions, checkEncoding } from './validate.js';
import { WasmBuffer, pointerOf } from './wasm-buffer.js';
import { forEachChunk, BLOCK } from './chunks.js';
import { loadExports } from './loader.js';
import { alibiMethods } from './alibi.js'; // ALiBi and learned tables: methods in their own modules
import { resampleMethods } from './learned-resample.js';
import { precisionMethods, dtypeCode } from './precision.js'; // float16/bfloat16 tables, recipes
import { sinusoidal2dMethods } from './sinusoidal2d.js';
import { ropeMethods } from './rope.js'; // RoPE: rope(), createRope(), ropeCosSin(), ropeFrequencies()
import { wasmCalls, STAGING_BYTES, MAX_WASM_BYTES, align16 } from './wasm-calls.js';

const FLOAT = 4;

/**
 * @param {{simd?: boolean, wasm?: unknown}} [options]
 */
export async function instantiate(options) {
  const o = checkOptions(options, ['simd', 'wasm'], 'instantiate');
  if (o.simd !== undefined && typeof o.simd !== 'boolean') refuse('BAD_OPTIONS', 'simd', 'true, false or undefined', o.simd);
  const state = { exports: null, memory: null, release: (pointer) => state.exports.pe_free(pointer) };
  // Views are checked against memory.buffer where they are used, so growth needs no bookkeeping here.
  state.exports = await loadExports(o, () => {});
  state.memory = state.exports.memory;
  state.calls = wasmCalls(state);
  return createInstance(state);
}

function createInstance(state) {
  const wasm = state.exports;
  const memory = state.memory;
  const { malloc, check, plan: ensurePlan } = state.calls;
  // The shared staging region, as local names: ensureStaging(bytes) then staging, stagingBytes.
  let staging = 0;
  let stagingBytes = 0;
  function ensureStaging(bytes) {
    ({ at: staging, bytes: stagingBytes } = state.calls.staging(bytes));
  }

  // Whole-memory views, remade whenever memory has grown (growth detaches them).
  let heapBuffer = null;
  let heapF32 = null;
  let heapU32 = null;
  function heap() {
    if (memory.buffer !== heapBuffer) {
      heapBuffer = memory.buffer;
      heapF32 = new Float32Array(heapBuffer);
      heapU32 = new Uint32Array(heapBuffer);
    }
  }
  const floats = (pointer, count) => (heap(), heapF32.subarray(pointer >>> 2, (pointer >>> 2) + count));

  /** Copies count floats from wasm at pointer into target[at ...]; small copies skip the view object. */
  function copyOut(target, at, pointer, count) {
    heap();
    const from = pointer >>> 2;
    if (count <= 64) for (let i = 0; i < count; i++) target[at + i] = heapF32[from + i];
    else target.set(heapF32.subarray(from, from + count), at);
  }

  /** A Float32Array argument of exactly `count` floats, or a BAD_BUFFER / BAD_SIZE refusal. */
  function jsFloats(value, argument, count, shape) {
    if (!(value instanceof Float32Array)) refuse('BAD_BUFFER', argument, 'a Float32Array or a WasmBuffer from alloc()', value);
    if (value.length !== count) {
      if (value.buffer.byteLength === 0 && count !== 0) {
        throw new PosencError('BAD_BUFFER', `${argument} is a detached view: wasm memory grew, which detaches views ` +
          'such as WasmBuffer.array; pass the WasmBuffer itself', argument, value);
      }
      refuse('BAD_SIZE', argument, shape, value);
    }
    return value;
  }

  function checkBufferLength(value, argument, count, shape) {
    if (value.length !== count) refuse('BAD_SIZE', argument, shape, value);
  }

  /** For x: a Float32Array or WasmBuffer whose length is a multiple of length * dim; returns the batch. */
  function batchOf(x, length, dim) {
    if (!(x instanceof Float32Array) && !(x instanceof WasmBuffer)) {
      refuse('BAD_BUFFER', 'x', 'a Float32Array or a WasmBuffer from alloc()', x);
    }
    const row = length * dim;
    if (row === 0 ? x.length !== 0 : x.length % row !== 0) {
      refuse('BAD_SIZE', 'x', `(batch, length, dim) floats: a multiple of length·dim = ${length}·${dim} = ${row}${row === 0 ? ' (so empty)' : ''}`, x);
    }
    return row === 0 ? 0 : x.length / row;
  }

  function newTable(count) {
    try {
      return new Float32Array(count);
    } catch (error) {
      throw new PosencError('TOO_LARGE', `the table needs ${count} floats, more than a JS Float32Array can hold; pass out = alloc(...) or a smaller length`, 'length', count);
    }
  }

  // ---------------------------------------------------------------- calls

  const precision = precisionMethods(state); // the 16-bit dtypes go there

  // Each call: scalar checks, then allocation (which may grow memory and
  // detach views), then buffer checks on fresh lengths, then writing.

  function sinusoidal(options) {
    const o = checkOptions(options, ['length', 'dim', 'base', 'offset', 'layout', 'out', 'preset', 'frequencies', 'dtype'], 'sinusoidal');
    const dtype = dtypeCode(o.dtype);
    if (dtype !== 0) return precision.table(o, dtype);
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const count = length * dim;
    const shape = `length·dim = ${length}·${dim} = ${count} floats`;
    const fresh = o.out === undefined ? newTable(count) : null; // a refused size allocates nothing
    const planAt = ensurePlan(dim, base, layout, frequencies);
    if (o.out instanceof WasmBuffer) {
      const pointer = pointerOf(o.out, state, 'out');
      checkBufferLength(o.out, 'out', count, shape);
      if (count !== 0) check(wasm.pe_wasm_plan_table(planAt, offset, length, pointer, count));
      return o.out;
    }
    ensureStaging(BLOCK * dim * FLOAT);
    const out = fresh ?? jsFloats(o.out, 'out', count, shape);
    forEachChunk(offset, length, Math.floor(stagingBytes / (dim * FLOAT)), (start, rows) => {
      check(wasm.pe_wasm_plan_table(planAt, start, rows, staging, rows * dim));
      copyOut(out, (start - offset) * dim, staging, rows * dim);
    });
    return out;
  }

  function sinusoidalAt(positions, options) {
    const o = checkOptions(options, ['dim', 'base', 'layout', 'out', 'preset', 'frequencies', 'dtype'], 'sinusoidalAt');
    const dtype = dtypeCode(o.dtype);
    if (dtype !== 0) return precision.tableAt(positions, o, dtype);
    const { dim, base, layout, frequencies } = checkEncoding(o, false);
    const inWasm = positions instanceof WasmBuffer;
    const count = inWasm ? (pointerOf(positions, state, 'positions'), positions.length) : checkPositions(positions);
    const total = count * dim;
    const shape = `positions.length·dim = ${count}·${dim} = ${total} floats`;
    const fresh = o.out === undefined ? newTable(total) : null;
    const planAt = ensurePlan(dim, base, layout, frequencies);
    ensureStaging(16 + (dim + 1) * FLOAT);
    const list = inWasm ? positions.array : positions; // a view made after any growth
    if (inWasm) checkPositions(list);
    let outPointer = 0;
    if (o.out instanceof WasmBuffer) {
      outPointer = pointerOf(o.out, state, 'out');
      checkBufferLength(o.out, 'out', total, shape);
    }
    const out = fresh ?? (outPointer ? o.out : jsFloats(o.out, 'out', total, shape));
    // Staging holds up to maxRows positions (uint32), then their rows when out is a JS array.
    let maxRows = Math.floor(stagingBytes / ((dim + 1) * FLOAT));
    while (align16(maxRows * FLOAT) + maxRows * dim * FLOAT > stagingBytes) maxRows--;
    const rowsAt = staging + align16(maxRows * FLOAT);
    const isTyped = ArrayBuffer.isView(list);
    for (let first = 0; first < count; first += maxRows) {
      const rows = Math.min(maxRows, count - first);
      heap();
      const at = staging >>> 2;
      if (isTyped && rows > 64) heapU32.set(list.subarray(first, first + rows), at);
      else for (let i = 0; i < rows; i++) heapU32[at + i] = list[first + i];
      if (outPointer !== 0) {
        check(wasm.pe_wasm_plan_table_at(planAt, staging, rows, outPointer + first * dim * FLOAT, rows * dim));
      } else {
        check(wasm.pe_wasm_plan_table_at(planAt, staging, rows, rowsAt, rows * dim));
        copyOut(out, first * dim, rowsAt, rows * dim);
      }
    }
    return out;
  }

  /**
   * Rows per chunk and batch items per group so that group·rows·dim +
   * rows·extraPerRow floats fit in staging, with at least minRows rows (whole
   * 64-position blocks for sinusoids): a large batch is split into groups
   * rather than into thinner row chunks.
   */
  function chunkShape(batch, dim, extraPerRow, minRows) {
    const capacity = stagingBytes / FLOAT;
    const perRow = batch * dim + extraPerRow;
    const rows = Math.floor(capacity / perRow);
    if (rows >= minRows) return { rows, group: batch };
    return { rows: minRows, group: Math.floor((capacity - minRows * extraPerRow) / (minRows * dim)) };
  }

  /** Copies x[b0 .. b0+group, r0 .. r0+rows, :] into wasm at `pointer`, packed as (group, rows, dim). */
  function stageSlab(x, pointer, length, dim, b0, group, r0, rows) {
    const stage = floats(pointer, group * rows * dim);
    for (let b = 0; b < group; b++) {
      const from = ((b0 + b) * length + r0) * dim;
      stage.set(x.subarray(from, from + rows * dim), b * rows * dim);
    }
  }

  function unstageSlab(x, pointer, length, dim, b0, group, r0, rows) {
    const stage = floats(pointer, group * rows * dim);
    for (let b = 0; b < group; b++) {
      x.set(stage.subarray(b * rows * dim, (b + 1) * rows * dim), ((b0 + b) * length + r0) * dim);
    }
  }

  function addSinusoidal(x, options) {
    const o = checkOptions(options, ['length', 'dim', 'base', 'offset', 'layout', 'scale', 'preset', 'frequencies'], 'addSinusoidal');
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const scale = checkScale(o.scale);
    const planAt = ensurePlan(dim, base, layout, frequencies);
    if (x instanceof WasmBuffer) {
      const pointer = pointerOf(x, state, 'x');
      if (batchOf(x, length, dim) !== 0) {
        check(wasm.pe_wasm_plan_add(planAt, pointer, x.length, offset, length, scale));
      }
      return x;
    }
    // A batch too big for one block of rows in staging is added group by group
    // to a staged chunk of the table, so the sinusoids are computed once.
    const wholeBatch = batchOf(x, length, dim) * dim * BLOCK * FLOAT <= Math.max(STAGING_BYTES, stagingBytes);
    ensureStaging((wholeBatch ? 1 : 2) * BLOCK * dim * FLOAT);
    const batch = batchOf(x, length, dim); // again: growing memory detaches views
    if (batch === 0) return x;
    const { rows: maxRows, group } = chunkShape(batch, dim, wholeBatch ? 0 : dim, BLOCK);
    forEachChunk(offset, length, maxRows, (start, rows) => {
      const r0 = start - offset;
      if (group === batch) {
        stageSlab(x, staging, length, dim, 0, batch, r0, rows);
        check(wasm.pe_wasm_plan_add(planAt, staging, batch * rows * dim, start, rows, scale));
        unstageSlab(x, staging, length, dim, 0, batch, r0, rows);
        return;
      }
      // pe_add adds the very float32 values pe_table gives, so table + add_table has the same bits.
      check(wasm.pe_wasm_plan_table(planAt, start, rows, staging, rows * dim));
      const slabAt = staging + rows * dim * FLOAT;
      for (let b0 = 0; b0 < batch; b0 += group) {
        const g = Math.min(group, batch - b0);
        stageSlab(x, slabAt, length, dim, b0, g, r0, rows);
        check(wasm.pe_wasm_add_table(slabAt, g * rows * dim, rows, dim, staging, rows, 0, scale));
        unstageSlab(x, slabAt, length, dim, b0, g, r0, rows);
      }
    });
    return x;
  }

  /** The table's row count after its type, shape and length checks. */
  function tableRowsOf(table, dim, offset, length) {
    if (!(table instanceof Float32Array) && !(table instanceof WasmBuffer)) {
      refuse('BAD_BUFFER', 'table', 'a Float32Array or a WasmBuffer from alloc()', table);
    }
    if (table.length % dim !== 0) refuse('BAD_SIZE', 'table', `(rows, dim) floats: a multiple of dim = ${dim}`, table);
    const rows = table.length / dim;
    if (offset + length > rows) {
      throw new PosencError('TABLE_TOO_SHORT',
        `table must have at least offset + length = ${offset} + ${length} = ${offset + length} rows of dim ${dim}; got ${rows} rows (${describe(table)})`,
        'table', table);
    }
    return rows;
  }

  function addTable(x, table, options) {
    const o = checkOptions(options, ['length', 'dim', 'offset', 'scale'], 'addTable');
    const dim = checkDim(o.dim, false);
    const [length, offset] = checkSpan(o.length, o.offset);
    const scale = checkScale(o.scale);
    const xPointer = x instanceof WasmBuffer ? pointerOf(x, state, 'x') : 0;
    const tablePointer = table instanceof WasmBuffer ? pointerOf(table, state, 'table') : 0;
    if (!xPointer || !tablePointer) ensureStaging(2 * dim * FLOAT);
    const batch = batchOf(x, length, dim);
    const tableRows = tableRowsOf(table, dim, offset, length);
    if (batch === 0) return x;
    if (xPointer !== 0 && tablePointer !== 0) {
      check(wasm.pe_wasm_add_table(xPointer, x.length, length, dim, tablePointer, tableRows, offset, scale));
      return x;
    }
    let rowsOf = tablePointer ? null : table;
    if (rowsOf && !xPointer && rowsOf.buffer === x.buffer) rowsOf = rowsOf.slice(); // x may alias the table

    if (xPointer !== 0) {
      // x in wasm, table in JS: stage the needed table rows, add them to each batch item.
      forEachChunk(offset, length, Math.floor(stagingBytes / (dim * FLOAT)), (start, rows) => {
        floats(staging, rows * dim).set(rowsOf.subarray(start * dim, (start + rows) * dim));
        if (rows === length) {
          check(wasm.pe_wasm_add_table(xPointer, x.length, length, dim, staging, rows, 0, scale));
          return;
        }
        const r0 = start - offset;
        for (let b = 0; b < batch; b++) {
          const at = xPointer + (b * length + r0) * dim * FLOAT;
          check(wasm.pe_wasm_add_table(at, rows * dim, rows, dim, staging, rows, 0, scale));
        }
      });
      return x;
    }
    // x in JS: stage its slab, and the table rows first unless the table is in wasm already.
    const { rows: maxRows, group } = chunkShape(batch, dim, rowsOf ? dim : 0, 1); // no sinusoid: any rows will do
    forEachChunk(offset, length, maxRows, (start, rows) => {
      const r0 = start - offset;
      let tableAt = tablePointer;
      let tableOffset = start;
      let tableRowCount = tableRows;
      let slabAt = staging;
      if (rowsOf) {
        floats(staging, rows * dim).set(rowsOf.subarray(start * dim, (start + rows) * dim));
        tableAt = staging;
        tableOffset = 0;
        tableRowCount = rows;
        slabAt = staging + rows * dim * FLOAT;
      }
      for (let b0 = 0; b0 < batch; b0 += group) {
        const g = Math.min(group, batch - b0);
        stageSlab(x, slabAt, length, dim, b0, g, r0, rows);
        check(wasm.pe_wasm_add_table(slabAt, g * rows * dim, rows, dim, tableAt, tableRowCount, tableOffset, scale));
        unstageSlab(x, slabAt, length, dim, b0, g, r0, rows);
      }
    });
    return x;
  }

  function alloc(n, options) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) refuse('BAD_SIZE', 'n', 'a whole number of floats ≥ 0', n);
    const o = checkOptions(options, ['dtype'], 'alloc');
    const dtype = o.dtype === undefined ? 'float32' : o.dtype;
    if (!['float32', 'float16', 'bfloat16'].includes(dtype)) refuse('BAD_DTYPE', 'dtype', "'float32' (the default), 'float16' or 'bfloat16'", dtype);
    const bytes = n * (dtype === 'float32' ? FLOAT : 2);
    if (bytes > MAX_WASM_BYTES) {
      throw new PosencError('TOO_LARGE', `alloc(${n}) needs ${bytes} bytes; wasm32 memory holds at most 4 GiB`, 'n', n);
    }
    return new WasmBuffer(state, malloc(bytes, `alloc(${n})`), n, dtype);
  }

  return Object.freeze({
    simd: wasm.pe_wasm_simd() === 1,
    sinusoidal,
    sinusoidalAt,
    addSinusoidal,
    addTable,
    alloc,
    ...alibiMethods(state),
    ...resampleMethods(state),
    ...precision.methods,
    ...sinusoidal2dMethods(state),
    ...ropeMethods(state),
  });
}
