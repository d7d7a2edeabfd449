// The sinusoidal encoding (Vaswani et al.; posenc.h, pe_table): the table of a
// run of positions, the rows of listed positions, and the in-place add to a
// batch of activations. Each call: scalar checks, then allocation (which may
// grow memory and detach views), then buffer checks on fresh lengths, then
// writing; a JS array travels through the runtime's staging region.
import { refuse } from '../runtime/errors.js';
import { checkOptions, checkScale, positionList, plainView } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { newArray, checkJsFloats, batchOf } from '../runtime/buffers.js';
import { forEachChunk, BLOCK } from '../runtime/chunks.js';
import { STAGING_BYTES, FLOAT, chunkShape, splitRegion } from '../runtime/memory.js';
import { checkEncoding } from './options.js';
import { reducedTables } from '../precision/precision.js';
import { dtypeCode } from '../precision/bits.js';

const TABLE_OPTIONS = ['length', 'dim', 'base', 'offset', 'layout', 'out', 'preset', 'frequencies', 'dtype'];
const AT_OPTIONS = ['dim', 'base', 'layout', 'out', 'preset', 'frequencies', 'dtype'];
const ADD_OPTIONS = ['length', 'dim', 'base', 'offset', 'layout', 'scale', 'preset', 'frequencies'];

/** sinusoidal, sinusoidalAt and addSinusoidal on one instance's runtime. */
export function sinusoidMethods(runtime) {
  const { wasm, check, plan } = runtime;
  const reduced = reducedTables(runtime); // dtype 'float16' / 'bfloat16': the precision family's tables

  function sinusoidal(options) {
    const o = checkOptions(options, TABLE_OPTIONS, 'sinusoidal');
    if (o.out !== undefined) o.out = plainView(o.out, 'out'); // before the plan: no caller's code after it
    const dtype = dtypeCode(o.dtype);
    if (dtype !== 0) return reduced.table(o, dtype);
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const count = length * dim;
    const shape = `length·dim = ${length}·${dim} = ${count} floats`;
    const fresh = o.out === undefined ? newArray(Float32Array, count, 'length') : null; // a refused size allocates nothing
    const planAt = plan(dim, base, layout, frequencies);
    if (o.out instanceof WasmBuffer) {
      const pointer = runtime.pointerOf(o.out, 'out');
      if (o.out.length !== count) refuse('BAD_SIZE', 'out', shape, o.out);
      if (count !== 0) check(wasm.pe_wasm_plan_table(planAt, offset, length, pointer, count));
      return o.out;
    }
    const staging = runtime.staging(BLOCK * dim * FLOAT);
    const out = fresh ?? checkJsFloats(o.out, 'out', count, shape);
    forEachChunk(offset, length, Math.floor(staging.bytes / (dim * FLOAT)), (start, rows) => {
      check(wasm.pe_wasm_plan_table(planAt, start, rows, staging.at, rows * dim));
      runtime.copyOut(out, (start - offset) * dim, staging.at, rows * dim);
    });
    return out;
  }

  function sinusoidalAt(positions, options) {
    const o = checkOptions(options, AT_OPTIONS, 'sinusoidalAt');
    if (o.out !== undefined) o.out = plainView(o.out, 'out'); // before the plan: no caller's code after it
    const dtype = dtypeCode(o.dtype);
    if (dtype !== 0) return reduced.tableAt(positions, o, dtype);
    const { dim, base, layout, frequencies } = checkEncoding(o, false);
    positions = plainView(positions, 'positions');
    const inWasm = positions instanceof WasmBuffer;
    const given = inWasm ? (runtime.pointerOf(positions, 'positions'), null) : positionList(positions);
    const count = inWasm ? positions.length : given.length;
    const total = count * dim;
    const shape = `positions.length·dim = ${count}·${dim} = ${total} floats`;
    const fresh = o.out === undefined ? newArray(Float32Array, total, 'length') : null;
    const planAt = plan(dim, base, layout, frequencies);
    const staging = runtime.staging(16 + (dim + 1) * FLOAT);
    const list = inWasm ? positionList(positions.array) : given; // a view made after any growth, then checked
    let outPointer = 0;
    if (o.out instanceof WasmBuffer) {
      outPointer = runtime.pointerOf(o.out, 'out');
      if (o.out.length !== total) refuse('BAD_SIZE', 'out', shape, o.out);
    }
    const out = fresh ?? (outPointer ? o.out : checkJsFloats(o.out, 'out', total, shape));
    // Staging holds up to maxRows positions (uint32), then their rows when out is a JS array.
    const { rows: maxRows, bodyAt: rowsAt } = splitRegion(staging, FLOAT, dim * FLOAT);
    for (let first = 0; first < count; first += maxRows) {
      const rows = Math.min(maxRows, count - first);
      runtime.copyWordsIn(staging.at, list, first, rows);
      if (outPointer !== 0) {
        check(wasm.pe_wasm_plan_table_at(planAt, staging.at, rows, outPointer + first * dim * FLOAT, rows * dim));
      } else {
        check(wasm.pe_wasm_plan_table_at(planAt, staging.at, rows, rowsAt, rows * dim));
        runtime.copyOut(out, first * dim, rowsAt, rows * dim);
      }
    }
    return out;
  }

  function addSinusoidal(x, options) {
    const o = checkOptions(options, ADD_OPTIONS, 'addSinusoidal');
    x = plainView(x, 'x'); // after the getters: refused when detached, read without the caller's code
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const scale = checkScale(o.scale);
    const planAt = plan(dim, base, layout, frequencies);
    if (x instanceof WasmBuffer) {
      const pointer = runtime.pointerOf(x, 'x');
      if (batchOf(x, length, dim) !== 0) check(wasm.pe_wasm_plan_add(planAt, scale, offset, length, pointer, x.length));
      return x;
    }
    // A batch too big for one block of rows in staging is added group by group
    // to a staged chunk of the table, so the sinusoids are computed once.
    const wholeBatch = batchOf(x, length, dim) * dim * BLOCK * FLOAT <= Math.max(STAGING_BYTES, runtime.stagingBytes());
    const staging = runtime.staging((wholeBatch ? 1 : 2) * BLOCK * dim * FLOAT);
    const batch = batchOf(x, length, dim); // again: growing memory detaches views
    if (batch === 0) return x;
    const { rows: maxRows, group } = chunkShape(staging.bytes / FLOAT, batch, dim, wholeBatch ? 0 : dim, BLOCK);
    forEachChunk(offset, length, maxRows, (start, rows) => {
      const r0 = start - offset;
      if (group === batch) {
        runtime.stageSlab(x, staging.at, length, dim, 0, batch, r0, rows);
        check(wasm.pe_wasm_plan_add(planAt, scale, start, rows, staging.at, batch * rows * dim));
        runtime.unstageSlab(x, staging.at, length, dim, 0, batch, r0, rows);
        return;
      }
      // pe_add adds the very float32 values pe_table gives, so table + add_table has the same bits.
      check(wasm.pe_wasm_plan_table(planAt, start, rows, staging.at, rows * dim));
      const slabAt = staging.at + rows * dim * FLOAT;
      for (let b0 = 0; b0 < batch; b0 += group) {
        const g = Math.min(group, batch - b0);
        runtime.stageSlab(x, slabAt, length, dim, b0, g, r0, rows);
        check(wasm.pe_wasm_add_table(staging.at, rows, dim, scale, 0, rows, slabAt, g * rows * dim));
        runtime.unstageSlab(x, slabAt, length, dim, b0, g, r0, rows);
      }
    });
    return x;
  }

  return { sinusoidal, sinusoidalAt, addSinusoidal };
}
