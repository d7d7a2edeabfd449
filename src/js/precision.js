// Reduced precision (posenc.h, pe_dtype): sinusoidal tables as float16 or
// bfloat16 bit patterns, each rounded once from the core's float64 value; the
// naive recipes other code uses (pe_recipe), for comparison; and rounding any
// float64 to those formats. The plan and staging are the instance's
// (wasm-calls.js).
import { PosencError, refuse } from './errors.js';
import { checkPositions, checkOptions, checkEncoding, checkNotDetached } from './validate.js';
import { forEachChunk, BLOCK } from './chunks.js';
import { WasmBuffer, pointerOf } from './wasm-buffer.js';
import { halfToFloatBits } from './learned-decode.js';

const DTYPES = { float32: 0, float16: 1, bfloat16: 2 };
const RECIPES = { 'float32-angle': 0, float16: 1, bfloat16: 2 };
const HALF = 2;
const FLOAT = 4;

/**
 * The dtype option: 0 for float32 (or left out), 1 float16, 2 bfloat16.
 * Anything else is refused with BAD_DTYPE.
 */
export function dtypeCode(dtype) {
  if (dtype === undefined) return 0;
  if (typeof dtype !== 'string' || !Object.hasOwn(DTYPES, dtype)) {
    refuse('BAD_DTYPE', 'dtype', "'float32' (the default), 'float16' or 'bfloat16'", dtype);
  }
  return DTYPES[dtype];
}

/** The 16-bit dtypes' names, for messages. */
const dtypeName = (code) => (code === 1 ? 'float16' : 'bfloat16');

/** `out` for a 16-bit table: a Uint16Array of exactly count elements, else a refusal. */
function checkBitsOut(out, count, shape, code) {
  if (out === undefined) {
    try {
      return new Uint16Array(count);
    } catch {
      throw new PosencError('TOO_LARGE', `the table needs ${count} elements, more than a JS Uint16Array can hold; ask for fewer rows`, 'length', count);
    }
  }
  if (!(out instanceof Uint16Array)) {
    const why = out instanceof WasmBuffer ? ' (a WasmBuffer holds float32 values, not 16-bit patterns)' : '';
    refuse('BAD_BUFFER', 'out', `a Uint16Array with dtype '${dtypeName(code)}'${why}`, out);
  }
  if (out.length !== count) refuse('BAD_SIZE', 'out', shape, out);
  return out;
}

export function precisionMethods(state) {
  const calls = state.calls;
  const { wasm, check, plan: ensurePlan } = calls;
  // The shared staging region, as local names: ensureStaging(bytes) then staging, stagingBytes.
  let staging = 0;
  let stagingBytes = 0;
  function ensureStaging(bytes) {
    ({ at: staging, bytes: stagingBytes } = calls.staging(bytes));
  }

  const halves = (pointer, count) => new Uint16Array(state.memory.buffer, pointer, count);

  /** sinusoid({ ..., dtype }) for a 16-bit dtype (instance.js forwards here). */
  function table(o, code) {
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const count = length * dim;
    const out = checkBitsOut(o.out, count, `length·dim = ${length}·${dim} = ${count} elements`, code);
    const planAt = ensurePlan(dim, base, layout, frequencies);
    ensureStaging(BLOCK * dim * HALF);
    checkBitsOut(out, count, `length·dim = ${length}·${dim} = ${count} elements`, code); // a view of wasm memory may have detached
    forEachChunk(offset, length, Math.floor(stagingBytes / (dim * HALF)), (start, rows) => {
      check(wasm.pe_wasm_plan_table_dtype(planAt, code, start, rows, staging, rows * dim));
      out.set(halves(staging, rows * dim), (start - offset) * dim);
    });
    return out;
  }

  /** sinusoidalAt(positions, { ..., dtype }) for a 16-bit dtype. */
  function tableAt(positions, o, code) {
    const { dim, base, layout, frequencies } = checkEncoding(o, false);
    const inWasm = positions instanceof WasmBuffer;
    const count = inWasm ? (pointerOf(positions, state, 'positions'), positions.length) : checkPositions(positions);
    const total = count * dim;
    const shape = `positions.length·dim = ${count}·${dim} = ${total} elements`;
    const out = checkBitsOut(o.out, total, shape, code);
    const planAt = ensurePlan(dim, base, layout, frequencies);
    ensureStaging(16 + (dim * HALF + FLOAT));
    const list = inWasm ? positions.array : positions; // a view made after any growth
    if (inWasm) checkPositions(list);
    checkBitsOut(out, total, shape, code);
    // Staging: up to maxRows uint32 positions, then their rows.
    let maxRows = Math.floor(stagingBytes / (dim * HALF + FLOAT));
    while (Math.ceil((maxRows * FLOAT) / 16) * 16 + maxRows * dim * HALF > stagingBytes) maxRows--;
    const rowsAt = staging + Math.ceil((maxRows * FLOAT) / 16) * 16;
    for (let first = 0; first < count; first += maxRows) {
      const rows = Math.min(maxRows, count - first);
      const stage = new Uint32Array(state.memory.buffer, staging, rows);
      for (let i = 0; i < rows; i++) stage[i] = list[first + i];
      check(wasm.pe_wasm_plan_table_at_dtype(planAt, code, staging, rows, rowsAt, rows * dim));
      out.set(halves(rowsAt, rows * dim), first * dim);
    }
    return out;
  }

  function recipeTable(options) {
    const o = checkOptions(options, ['recipe', 'length', 'dim', 'base', 'offset', 'layout', 'preset', 'frequencies'], 'recipeTable');
    if (typeof o.recipe !== 'string' || !Object.hasOwn(RECIPES, o.recipe)) {
      refuse('BAD_RECIPE', 'recipe', "'float32-angle', 'float16' or 'bfloat16'", o.recipe);
    }
    const { dim, length, offset, base, layout, frequencies } = checkEncoding(o, true);
    const count = length * dim;
    let out;
    try {
      out = new Float32Array(count);
    } catch {
      throw new PosencError('TOO_LARGE', `the table needs ${count} floats, more than a JS Float32Array can hold; ask for fewer rows`, 'length', count);
    }
    const planAt = ensurePlan(dim, base, layout, frequencies);
    ensureStaging(dim * FLOAT);
    const rowsPerCall = Math.floor(stagingBytes / (dim * FLOAT));
    for (let first = 0; first < length; first += rowsPerCall) {
      const rows = Math.min(rowsPerCall, length - first);
      check(wasm.pe_wasm_plan_recipe_table(planAt, RECIPES[o.recipe], offset + first, rows, staging, rows * dim));
      out.set(calls.floats(staging, rows * dim), first * dim);
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
    for (let k = 0; k < values.length; k++) {
      if (typeof values[k] !== 'number') refuse('BAD_BUFFER', `values[${k}]`, 'a number', values[k]);
    }
    const out = new Uint16Array(values.length);
    ensureStaging(16 * 10);
    const per = Math.floor(stagingBytes / (8 + HALF) / 8) * 8;
    const outAt = staging + per * 8;
    for (let first = 0; first < values.length; first += per) {
      const n = Math.min(per, values.length - first);
      const stage = new Float64Array(state.memory.buffer, staging, n);
      for (let k = 0; k < n; k++) stage[k] = values[first + k];
      check(wasm.pe_wasm_narrow_f64(staging, n, code, outAt));
      out.set(halves(outAt, n), first);
    }
    return out;
  }

  return { table, tableAt, methods: { recipeTable, roundToBits, bitsToFloat32 } };
}

/** float16 / bfloat16 bit patterns -> their values (exact in float32). Needs no wasm. */
export function bitsToFloat32(bits, options) {
  const o = checkOptions(options, ['dtype'], 'bitsToFloat32');
  const code = dtypeCode(o.dtype);
  if (code === 0) refuse('BAD_DTYPE', 'dtype', "'float16' or 'bfloat16'", o.dtype);
  if (!(bits instanceof Uint16Array)) refuse('BAD_BUFFER', 'bits', 'a Uint16Array of bit patterns', bits);
  checkNotDetached(bits, 'bits');
  const words = new Uint32Array(bits.length);
  for (let k = 0; k < bits.length; k++) words[k] = code === 1 ? halfToFloatBits(bits[k]) : bits[k] << 16;
  return new Float32Array(words.buffer);
}
