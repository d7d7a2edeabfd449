// RoPE (rotary position embeddings) on one instance's runtime: rope() rotates
// queries or keys in place, ropeFrequencies() returns the scaled frequencies.
// The core computes both (posenc.h, "RoPE"); this file checks, stages and
// calls. The JS checks run first; then the core's frequencies for the call's
// spec and length, whose status names any spec the core refuses (a scaling
// whose numbers overflow, say): all before x is written, so a refused call
// leaves x as it was.
import { checkOptions } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { batchOf, checkAttached } from '../runtime/buffers.js';
import { forEachChunk } from '../runtime/chunks.js';
import { FLOAT, chunkShape } from '../runtime/memory.js';
import { checkRopeOptions, checkRotary, checkRows, checkSequenceLength, ropeSpec, SPEC_LENGTH } from './options.js';

const STAGING_FLOATS = 65536; // a JS-array x travels through wasm in chunks of about 256 KiB
const DOUBLE = 8;

/** rope and ropeFrequencies on one instance's runtime. */
export function ropeMethods(runtime) {
  const { wasm, check } = runtime;
  const ensureSpec = runtime.reserve('rope spec'); // SPEC_LENGTH doubles
  const ensureScratch = runtime.reserve('rope scratch'); // pe_rope's own scratch: its size follows the spec

  /** The spec's address after writing values there. */
  function writeSpec(values) {
    const spec = ensureSpec(SPEC_LENGTH * DOUBLE).at;
    runtime.doubles(spec, SPEC_LENGTH).set(values);
    return spec;
  }

  /**
   * The core's frequencies and attention factor for the spec, in staging
   * (w at staging.at, then the factor): { staging, half }. A spec the core
   * refuses throws here, with the core's status.
   */
  function scaledFrequencies(spec, rotaryDim) {
    const half = rotaryDim / 2;
    const staging = runtime.staging((half + 1) * DOUBLE);
    check(wasm.pe_wasm_rope_frequencies(spec, staging.at, half, staging.at + half * DOUBLE));
    return { staging, half };
  }

  function rope(x, options) {
    const c = checkRopeOptions(options);
    const { length, offset, positions, end } = checkRows(c.o);
    const blhd = c.order === 0;
    const row = c.heads * c.headDim;
    const shape = blhd ? '(batch, length, heads, headDim)' : '(batch, heads, length, headDim)';
    const batch = batchOf(x, length, row, shape, `length·heads·headDim = ${length}·${c.heads}·${c.headDim}`);
    const xLength = x.length;
    const xPointer = x instanceof WasmBuffer ? runtime.pointerOf(x, 'x') : 0;
    // Dynamic NTK's L is the whole call's (max position + 1), whatever the chunks.
    let spec = writeSpec(ropeSpec(c, end));
    scaledFrequencies(spec, c.rotaryDim);
    if (xLength === 0) return x;
    const scratch = ensureScratch(wasm.pe_wasm_rope_scratch_size(spec) >>> 0);

    if (xPointer !== 0) {
      const positionsBlock = positions ? [length * 4, 'positions'] : null;
      runtime.withTemporary([positionsBlock], (positionsAt) => {
        if (positions) runtime.words(positionsAt, length).set(positions);
        check(wasm.pe_wasm_rope(spec, xPointer, xLength, length, offset, positionsAt, scratch.at, scratch.bytes));
      });
      return x;
    }

    // A JS array: chunks of rows for groups of batch items. With order 'bhld' every
    // (batch item, head) is an item of one-head rows, which rotate the same way.
    const items = batch * (blhd ? 1 : c.heads);
    const rowFloats = blhd ? row : c.headDim;
    spec = writeSpec(ropeSpec({ ...c, heads: blhd ? c.heads : 1, order: 0 }, end));
    const staging = runtime.staging(Math.max(STAGING_FLOATS, rowFloats + 8) * FLOAT);
    checkAttached(x, xLength, 'x');
    // Floats after the positions' alignment slack; one uint32 position per row.
    let { rows, group } = chunkShape(staging.bytes / FLOAT - 4, items, rowFloats, 1, 1);
    rows = Math.min(rows, length);
    const slabAt = staging.at + Math.ceil((rows * 4) / 16) * 16;
    forEachChunk(positions ? 0 : offset, length, rows, (start, n) => {
      const r0 = positions ? start : start - offset;
      if (positions) runtime.copyWordsIn(staging.at, positions, r0, n);
      for (let b0 = 0; b0 < items; b0 += group) {
        const g = Math.min(group, items - b0);
        runtime.stageSlab(x, slabAt, length, rowFloats, b0, g, r0, n);
        check(
          wasm.pe_wasm_rope(
            spec,
            slabAt,
            g * n * rowFloats,
            n,
            positions ? 0 : start,
            positions ? staging.at : 0,
            scratch.at,
            scratch.bytes,
          ),
        );
        runtime.unstageSlab(x, slabAt, length, rowFloats, b0, g, r0, n);
      }
    });
    return x;
  }

  function ropeFrequencies(options) {
    const o = checkOptions(options, ['headDim', 'rotaryDim', 'base', 'scaling', 'length'], 'ropeFrequencies');
    const c = checkRotary(o);
    const length = checkSequenceLength(o.length);
    const spec = writeSpec(ropeSpec({ ...c, heads: 1, layout: 0, order: 0, inverse: false }, length));
    const { staging, half } = scaledFrequencies(spec, c.rotaryDim);
    const values = runtime.doubles(staging.at, half + 1);
    return { frequencies: values.slice(0, half), attentionFactor: values[half] };
  }

  return { rope, ropeFrequencies };
}
