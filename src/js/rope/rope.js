// RoPE (rotary position embeddings) on one instance's wasm: rope() rotates
// queries or keys in place, ropeFrequencies() returns the scaled frequencies.
// The core computes both (posenc.h, "RoPE"); this file checks, stages and
// calls. Every check runs, and the core's own check runs on the real sizes,
// before x is written, so a refused call leaves x as it was.
import { PosencError, refuse } from './errors.js';
import { checkOptions, checkSpan, checkPositions } from './validate.js';
import { WasmBuffer, pointerOf } from './wasm-buffer.js';
import { forEachChunk } from './chunks.js';
import { checkRopeOptions, checkRotary, checkSequenceLength, ropeSpec, SPEC_LENGTH } from './rope-options.js';

const FLOAT = 4;
const STAGING_FLOATS = 65536; // a JS-array x travels through wasm in chunks of about 256 KiB

/** Rows with a position: positions given (length = positions.length) or offset + row. */
function checkRows(o) {
  if (o.positions === undefined) {
    const [length, offset] = checkSpan(o.length, o.offset);
    return { length, offset, positions: null, end: offset + length };
  }
  const length = checkPositions(o.positions);
  if (o.offset !== undefined && o.offset !== 0) {
    refuse('BAD_OFFSET', 'offset', 'left out (or 0) when positions is given: each row sits at its listed position', o.offset);
  }
  if (o.length !== undefined && o.length !== length) {
    refuse('BAD_LENGTH', 'length', `positions.length = ${length} (one position per row), or left out`, o.length);
  }
  let end = 0;
  for (let l = 0; l < length; l++) end = Math.max(end, o.positions[l] + 1);
  return { length, offset: 0, positions: o.positions, end };
}

export function ropeMethods(state) {
  const calls = state.calls;
  const { wasm, check } = calls;
  let spec = 0; // SPEC_LENGTH doubles, then room for one more (ropeFrequencies' attention factor)
  let scratch = 0; // pe_rope's own scratch: its size follows the spec
  let scratchBytes = 0;
  // The shared staging region, as local names: ensureStaging(bytes) then staging, stagingBytes.
  let staging = 0;
  let stagingBytes = 0;

  function writeSpec(values) {
    if (spec === 0) spec = calls.malloc((SPEC_LENGTH + 1) * 8, 'rope spec');
    new Float64Array(state.memory.buffer, spec, SPEC_LENGTH).set(values);
  }

  /** Scratch for the spec written last; the core's status when it refuses the spec. */
  function ensureScratch() {
    const bytes = wasm.pe_wasm_rope_scratch_size(spec) >>> 0;
    if (bytes === 0) check(wasm.pe_wasm_rope(spec, 0, 0, 0, 0, 0, 0, 0)); // throws: the reason
    if (bytes <= scratchBytes) return;
    const pointer = calls.malloc(bytes, 'rope scratch');
    calls.free(scratch);
    scratch = pointer;
    scratchBytes = bytes;
  }

  function ensureStaging(bytes) {
    ({ at: staging, bytes: stagingBytes } = calls.staging(bytes));
  }

  function rope(x, options) {
    const c = checkRopeOptions(options);
    const { length, offset, positions, end } = checkRows(c.o);
    if (!(x instanceof Float32Array) && !(x instanceof WasmBuffer)) refuse('BAD_BUFFER', 'x', 'a Float32Array or a WasmBuffer from alloc()', x);
    const row = c.heads * c.headDim;
    const slab = length * row;
    const xLength = x.length;
    if (slab === 0 ? xLength !== 0 : xLength % slab !== 0) {
      const shape = c.order === 0 ? '(batch, length, heads, headDim)' : '(batch, heads, length, headDim)';
      refuse('BAD_SIZE', 'x', `${shape} floats: a multiple of length·heads·headDim = ${length}·${c.heads}·${c.headDim} = ${slab}`, x);
    }
    const xPointer = x instanceof WasmBuffer ? pointerOf(x, state, 'x') : 0;
    // Dynamic NTK's L is the whole call's (max position + 1), whatever the chunks.
    writeSpec(ropeSpec(c, end));
    ensureScratch();
    // The core checks the spec and the scaled frequencies for this L before anything is written.
    check(wasm.pe_wasm_rope(spec, 0, 0, 0, 0, 0, scratch, scratchBytes));
    if (xLength === 0) return x;

    if (xPointer !== 0) {
      const posPointer = positions ? calls.malloc(length * 4, 'positions') : 0;
      try {
        if (positions) new Uint32Array(state.memory.buffer, posPointer, length).set(positions);
        check(wasm.pe_wasm_rope(spec, xPointer, xLength, length, offset, posPointer, scratch, scratchBytes));
      } finally {
        calls.free(posPointer);
      }
      return x;
    }

    // A JS array: chunks of rows for groups of batch items. With order 'bhld' every
    // (batch item, head) is an item of one-head rows, which rotate the same way.
    const blhd = c.order === 0;
    const items = (xLength / slab) * (blhd ? 1 : c.heads);
    const rowFloats = blhd ? row : c.headDim;
    writeSpec(ropeSpec({ ...c, heads: blhd ? c.heads : 1, order: 0 }, end));
    ensureStaging(Math.max(STAGING_FLOATS, rowFloats + 8) * FLOAT);
    if (x.length !== xLength) {
      throw new PosencError('BAD_BUFFER', 'x is a detached view: wasm memory grew, which detaches views such as ' +
        'WasmBuffer.array; pass the WasmBuffer itself', 'x', x);
    }
    const capacity = stagingBytes / FLOAT - 4; // floats after the positions' alignment slack
    let rows = Math.floor(capacity / (items * rowFloats + 1));
    let group = items;
    if (rows < 1) {
      rows = 1;
      group = Math.floor((capacity - 1) / rowFloats);
    }
    rows = Math.min(rows, length);
    const slabAt = staging + Math.ceil((rows * 4) / 16) * 16;
    const heapF32 = new Float32Array(state.memory.buffer); // no allocation below: the view stays valid
    const heapU32 = new Uint32Array(state.memory.buffer);
    forEachChunk(positions ? 0 : offset, length, rows, (start, n) => {
      const r0 = positions ? start : start - offset;
      if (positions) for (let i = 0; i < n; i++) heapU32[(staging >>> 2) + i] = positions[r0 + i];
      for (let b0 = 0; b0 < items; b0 += group) {
        const g = Math.min(group, items - b0);
        const at = slabAt >>> 2;
        for (let b = 0; b < g; b++) {
          const from = ((b0 + b) * length + r0) * rowFloats;
          heapF32.set(x.subarray(from, from + n * rowFloats), at + b * n * rowFloats);
        }
        check(wasm.pe_wasm_rope(spec, slabAt, g * n * rowFloats, n, positions ? 0 : start, positions ? staging : 0,
          scratch, scratchBytes));
        for (let b = 0; b < g; b++) {
          const to = ((b0 + b) * length + r0) * rowFloats;
          x.set(heapF32.subarray(at + b * n * rowFloats, at + (b + 1) * n * rowFloats), to);
        }
      }
    });
    return x;
  }

  function ropeFrequencies(options) {
    const o = checkOptions(options, ['headDim', 'rotaryDim', 'base', 'scaling', 'length'], 'ropeFrequencies');
    const c = checkRotary(o);
    const length = checkSequenceLength(o.length);
    writeSpec(ropeSpec({ ...c, heads: 1, layout: 0, order: 0, inverse: false }, length));
    const half = c.rotaryDim / 2;
    const w = calls.malloc(half * 8, 'frequencies');
    try {
      check(wasm.pe_wasm_rope_frequencies(spec, w, half, spec + SPEC_LENGTH * 8));
      return {
        frequencies: new Float64Array(state.memory.buffer, w, half).slice(),
        attentionFactor: new Float64Array(state.memory.buffer, spec + SPEC_LENGTH * 8, 1)[0],
      };
    } finally {
      calls.free(w);
    }
  }

  return { rope, ropeFrequencies };
}
