// Reduced precision (posenc.h, pe_dtype): sinusoidal tables as float16 or
// bfloat16 bit patterns, each rounded once from the core's float64 value (the
// sinusoid family's `dtype` option lands here); the naive recipes other code
// uses (pe_recipe), for comparison; and rounding any float64 to those formats.
// Built on the sinusoid plan and the staging region of the runtime.
import { refuse } from '../runtime/errors.js';
import { checkOptions, positionList, checkNotDetached, plainView, checkListLength } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { newArray } from '../runtime/buffers.js';
import { forEachChunk, BLOCK } from '../runtime/chunks.js';
import { FLOAT, splitRegion } from '../runtime/memory.js';
import { checkEncoding } from '../sinusoid/options.js';
import { dtypeCode, bitsToFloat32 } from './bits.js';

const RECIPES = { 'float32-angle': 0, float16: 1, bfloat16: 2 };
const HALF = 2;

/** The 16-bit dtypes' names, for messages. */
const dtypeName = (code) => (code === 1 ? 'float16' : 'bfloat16');

/** `out` for a 16-bit table: a Uint16Array of exactly count elements, else a refusal. */
function checkBitsOut(out, count, shape, code) {
  if (out === undefined) return newArray(Uint16Array, count, 'length');
  out = plainView(out, 'out');
  if (!(out instanceof Uint16Array)) {
    const why = out instanceof WasmBuffer ? ' (a WasmBuffer holds float32 values, not 16-bit patterns)' : '';
    refuse('BAD_BUFFER', 'out', `a Uint16Array with dtype '${dtypeName(code)}'${why}`, out);
  }
  if (out.length !== count) refuse('BAD_SIZE', 'out', shape, out);
  return out;
}

/** sinusoidal() and sinusoidalAt() for dtype 'float16' / 'bfloat16': { table, tableAt }, called with checked options. */
export function reducedTables(runtime) {
  const { wasm, check, plan } = runtime;

  /** sinusoidal({ ..., dtype }) for a 16-bit dtype. */
  function table(o, code) {
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const count = length * dim;
    const shape = `length·dim = ${length}·${dim} = ${count} elements`;
    const out = checkBitsOut(o.out, count, shape, code);
    const planAt = plan(dim, base, layout, frequencies);
    const staging = runtime.staging(BLOCK * dim * HALF);
    checkBitsOut(out, count, shape, code); // a view of wasm memory may have detached
    forEachChunk(offset, length, Math.floor(staging.bytes / (dim * HALF)), (start, rows) => {
      check(wasm.pe_wasm_plan_table_dtype(planAt, code, start, rows, staging.at, rows * dim));
      out.set(runtime.halves(staging.at, rows * dim), (start - offset) * dim);
    });
    return out;
  }

  /** sinusoidalAt(positions, { ..., dtype }) for a 16-bit dtype. */
  function tableAt(positions, o, code) {
    const { dim, base, layout, frequencies } = checkEncoding(o, false);
    positions = plainView(positions, 'positions');
    const inWasm = positions instanceof WasmBuffer;
    const given = inWasm ? (runtime.pointerOf(positions, 'positions'), null) : positionList(positions);
    const count = inWasm ? positions.length : given.length;
    const total = count * dim;
    const shape = `positions.length·dim = ${count}·${dim} = ${total} elements`;
    const out = checkBitsOut(o.out, total, shape, code);
    const planAt = plan(dim, base, layout, frequencies);
    const staging = runtime.staging(16 + (dim * HALF + FLOAT));
    const list = inWasm ? positionList(positions.array) : given; // a view made after any growth, then checked
    checkBitsOut(out, total, shape, code);
    // Staging: up to maxRows uint32 positions, then their rows.
    const { rows: maxRows, bodyAt: rowsAt } = splitRegion(staging, FLOAT, dim * HALF);
    for (let first = 0; first < count; first += maxRows) {
      const rows = Math.min(maxRows, count - first);
      runtime.copyWordsIn(staging.at, list, first, rows);
      check(wasm.pe_wasm_plan_table_at_dtype(planAt, code, staging.at, rows, rowsAt, rows * dim));
      out.set(runtime.halves(rowsAt, rows * dim), first * dim);
    }
    return out;
  }

  return { table, tableAt };
}

/** recipeTable, roundToBits and bitsToFloat32 on one instance's runtime. */
export function precisionMethods(runtime) {
  const { wasm, check, plan } = runtime;

  function recipeTable(options) {
    const o = checkOptions(
      options,
      ['recipe', 'length', 'dim', 'base', 'offset', 'layout', 'preset', 'frequencies'],
      'recipeTable',
    );
    if (typeof o.recipe !== 'string' || !Object.hasOwn(RECIPES, o.recipe)) {
      refuse('BAD_RECIPE', 'recipe', "'float32-angle', 'float16' or 'bfloat16'", o.recipe);
    }
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const count = length * dim;
    const out = newArray(Float32Array, count, 'length');
    const planAt = plan(dim, base, layout, frequencies);
    const staging = runtime.staging(dim * FLOAT);
    const rowsPerCall = Math.floor(staging.bytes / (dim * FLOAT));
    for (let first = 0; first < length; first += rowsPerCall) {
      const rows = Math.min(rowsPerCall, length - first);
      check(wasm.pe_wasm_plan_recipe_table(planAt, RECIPES[o.recipe], offset + first, rows, staging.at, rows * dim));
      runtime.copyOut(out, first * dim, staging.at, rows * dim);
    }
    return out;
  }

  /** float64 values -> their float16 / bfloat16 bit patterns, rounded to nearest even in one step. */
  function roundToBits(values, options) {
    const o = checkOptions(options, ['dtype'], 'roundToBits');
    const code = dtypeCode(o.dtype);
    if (code === 0) refuse('BAD_DTYPE', 'dtype', "'float16' or 'bfloat16' (Math.fround rounds to float32)", o.dtype);
    if (!Array.isArray(values) && !(values instanceof Float64Array) && !(values instanceof Float32Array)) {
      refuse('BAD_BUFFER', 'values', 'an Array, Float64Array or Float32Array of numbers', values);
    }
    checkNotDetached(values, 'values');
    // Each value read once, here: the staging pointer below is taken after the caller's getters have run.
    const count = checkListLength(values.length, 'values');
    const numbers = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const v = values[k];
      if (typeof v !== 'number') refuse('BAD_BUFFER', `values[${k}]`, 'a number', v);
      numbers[k] = v;
    }
    values = numbers;
    const out = new Uint16Array(values.length);
    const staging = runtime.staging(16 * 10);
    const per = Math.floor(staging.bytes / (8 + HALF) / 8) * 8;
    const outAt = staging.at + per * 8;
    for (let first = 0; first < values.length; first += per) {
      const n = Math.min(per, values.length - first);
      const stage = runtime.doubles(staging.at, n);
      for (let k = 0; k < n; k++) stage[k] = values[first + k];
      check(wasm.pe_wasm_narrow_f64(code, staging.at, n, outAt));
      out.set(runtime.halves(outAt, n), first);
    }
    return out;
  }

  return { recipeTable, roundToBits, bitsToFloat32 };
}
