// identify(table, { rows, dim, kind }): which positional-encoding convention a
// table or RoPE cos/sin cache follows, and how far it is from exact (posenc.h,
// pe_diagnose). The fitting and the verdict's words live in the C core, so the
// package, the Node CLI and the native CLI say the same thing; this module
// checks the arguments, stages the table in wasm and parses the core's JSON.
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkListLength, plainView } from '../runtime/validate.js';
import { newArray } from '../runtime/buffers.js';

const KINDS = { auto: 0, table: 1, 'cos-sin': 2 };
const MAX_INV_FREQ = 32768; // PE_INV_FREQ_MAX_COUNT
import { FLOAT } from '../runtime/memory.js';
const TEXT_BYTES = 16384;
const JSON_BYTES = 16384; // LongRoPE lists up to 256 factors

/** table as a Float32Array (copied from a Float64Array or an Array of numbers). */
function floatsOf(table) {
  table = plainView(table, 'table');
  if (table instanceof Float32Array) return table;
  if (table instanceof Float64Array || Array.isArray(table)) {
    // Each value read once (no iterator): a getter cannot answer twice.
    const values = newArray(Float32Array, checkListLength(table.length, 'table'), 'table');
    for (let k = 0; k < values.length; k++) {
      const v = table[k];
      if (typeof v !== 'number') refuse('BAD_BUFFER', `table[${k}]`, 'a number', v);
      values[k] = v;
    }
    return values;
  }
  return refuse(
    'BAD_BUFFER',
    'table',
    'a Float32Array, a Float64Array or an Array of numbers (row-major rows × dim)',
    table,
  );
}

function checkCount(name, value) {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2 ** 32 - 1) {
    refuse('BAD_SHAPE', name, 'a whole number from 1 to 2^32 - 1', value);
  }
  return value;
}

/** { rows, dim } from the options and the table's length: one may be left out. */
function shapeOf(length, o) {
  let rows = checkCount('rows', o.rows);
  let dim = checkCount('dim', o.dim);
  if (rows === undefined && dim === undefined)
    refuse('BAD_SHAPE', 'rows and dim', 'given (at least one of them: the table is row-major rows × dim)', undefined);
  if (rows === undefined) rows = length / dim;
  if (dim === undefined) dim = length / rows;
  if (!Number.isInteger(rows) || !Number.isInteger(dim) || rows * dim !== length) {
    throw new PosencError(
      'BAD_SHAPE',
      `table has ${length} values, not rows·dim = ${o.rows ?? '?'}·${o.dim ?? '?'}`,
      'table',
      length,
    );
  }
  if (length === 0 || (rows < 2 && dim < 2)) {
    throw new PosencError(
      'BAD_SHAPE',
      `table must have two rows or two columns at least; got ${rows}×${dim}`,
      'table',
      length,
    );
  }
  return { rows, dim };
}

/** identify on one instance's runtime. */
export function diagnoseMethods(runtime) {
  const { wasm, check } = runtime;

  /**
   * @param {Float32Array | Float64Array | number[]} table  row-major rows × dim (or dim × rows: detected)
   * @param {{rows?: number, dim?: number, kind?: 'auto' | 'table' | 'cos-sin'}} options
   */
  function identify(table, options) {
    const o = checkOptions(options, ['rows', 'dim', 'kind'], 'identify');
    const kind = o.kind ?? 'auto';
    if (kind === 'inv-freq') {
      if (o.rows !== undefined || o.dim !== undefined)
        refuse('BAD_SHAPE', 'rows and dim', "left out with kind 'inv-freq' (the vector is 1-D)", o.rows ?? o.dim);
      return identifyInvFreq(table);
    }
    if (typeof kind !== 'string' || !Object.hasOwn(KINDS, kind))
      refuse('BAD_KIND', 'kind', "'auto' (the default), 'table', 'cos-sin' or 'inv-freq'", o.kind);
    const values = floatsOf(table);
    const { rows, dim } = shapeOf(values.length, o);
    const scratchBytes = wasm.pe_wasm_diagnose_scratch_size(rows, dim) >>> 0;
    if (scratchBytes === 0)
      throw new PosencError(
        'TOO_LARGE',
        `a ${rows}×${dim} table is too large to identify in wasm32 memory`,
        'table',
        values.length,
      );
    const blocks = [
      [values.length * FLOAT, 'the table in wasm'],
      [scratchBytes, 'scratch'],
      [TEXT_BYTES + JSON_BYTES + 16, 'the report'],
    ];
    return runtime.withTemporary(blocks, (at, scratch, text) => {
      const json = text + TEXT_BYTES;
      const bad = json + JSON_BYTES;
      runtime.floats(at, values.length).set(values);
      const status = wasm.pe_wasm_diagnose(
        at,
        rows,
        dim,
        KINDS[kind],
        scratch,
        scratchBytes,
        text,
        TEXT_BYTES,
        json,
        JSON_BYTES,
        bad,
      );
      try {
        check(status);
      } catch (error) {
        if (!(error instanceof PosencError) || error.code !== 'BAD_TABLE') throw error;
        const cell = runtime.words(bad, 1)[0];
        const row = Math.floor(cell / dim);
        const where = `table[${row}, ${cell % dim}] (row ${row}, column ${cell % dim})`;
        throw new PosencError(
          'BAD_TABLE',
          `${where} is ${values[cell]}; identify needs finite numbers`,
          'table',
          values[cell],
        );
      }
      const facts = cString(runtime, json);
      const result = JSON.parse(facts);
      result.json = facts;
      result.text = cString(runtime, text);
      result.verdict = result.text.slice('verdict: '.length, result.text.indexOf('\n'));
      return result;
    });
  }

  /** A bare inv_freq vector (pe_diagnose_inv_freq): its values read exactly, as float64. */
  function identifyInvFreq(vector) {
    vector = plainView(vector, 'table');
    if (!(vector instanceof Float32Array || vector instanceof Float64Array || Array.isArray(vector)))
      refuse('BAD_BUFFER', 'table', "a Float32Array, a Float64Array or an Array of numbers (kind 'inv-freq')", vector);
    const count = vector.length;
    if (count < 1 || count > MAX_INV_FREQ)
      refuse('BAD_SHAPE', 'table', `an inv_freq vector of 1 to ${MAX_INV_FREQ} values`, count);
    const values = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const v = vector[k]; // read once: a getter cannot answer twice
      if (typeof v !== 'number') refuse('BAD_BUFFER', `table[${k}]`, 'a number', v);
      values[k] = v;
    }
    const scratchBytes = wasm.pe_wasm_inv_freq_scratch_size() >>> 0;
    const blocks = [
      [count * 8, 'the vector in wasm'],
      [scratchBytes, 'the result'],
      [TEXT_BYTES + JSON_BYTES + 16, 'the report'],
    ];
    return runtime.withTemporary(blocks, (at, scratch, text) => {
      const json = text + TEXT_BYTES;
      const bad = json + JSON_BYTES;
      runtime.doubles(at, count).set(values);
      const status = wasm.pe_wasm_diagnose_inv_freq(
        at,
        count,
        scratch,
        scratchBytes,
        text,
        TEXT_BYTES,
        json,
        JSON_BYTES,
        bad,
      );
      try {
        check(status);
      } catch (error) {
        if (!(error instanceof PosencError) || !['BAD_TABLE', 'BAD_FREQUENCIES'].includes(error.code)) throw error;
        const k = runtime.words(bad, 1)[0];
        const x = values[k];
        // in words both CLIs print alike (identify_command.c)
        const what =
          Number.isNaN(x) || !Number.isFinite(x) ? String(x) : x === 0 ? '0' : x < 0 ? 'negative' : 'above 4';
        throw new PosencError(
          error.code,
          `table[${k}] is ${what}; an inv_freq vector holds finite frequencies above 0 and at most 4`,
          'table',
          values[k],
        );
      }
      const facts = cString(runtime, json);
      const result = JSON.parse(facts);
      result.json = facts;
      result.text = cString(runtime, text);
      result.verdict = result.text.slice('verdict: '.length, result.text.indexOf('\n'));
      return result;
    });
  }

  return { identify };
}

/** The NUL-terminated string the core wrote at pointer (16-aligned). */
function cString(runtime, pointer) {
  const bytes = new Uint8Array(runtime.words(pointer, 0).buffer, pointer);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
}
