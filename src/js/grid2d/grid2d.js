// 2-D sin-cos tables for vision transformers, MAE's layout (posenc.h,
// pe_grid2d): token y·width + x holds the 1-D split table of dim/2 for the
// column x, then the one for the row y; an optional leading row of zeros for
// the class token.
import { PosencError, refuse } from '../runtime/errors.js';
import { checkOptions, checkBase, checkFlag, MAX_DIM, MAX_POSITION } from '../runtime/validate.js';
import { WasmBuffer } from '../runtime/wasm-buffer.js';
import { checkOut, checkAttached } from '../runtime/buffers.js';
import { FLOAT } from '../runtime/memory.js';

function checkSide(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_POSITION) {
    refuse('BAD_LENGTH', name, `an integer from 0 to ${MAX_POSITION} (patches along the grid's ${name})`, value);
  }
  return value;
}

function checkDim2d(dim) {
  if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 4 || dim > MAX_DIM || dim % 4 !== 0) {
    refuse(
      'BAD_DIM',
      'dim',
      `a multiple of 4 from 4 to ${MAX_DIM} (each axis gets dim/2 channels of sine-cosine pairs)`,
      dim,
    );
  }
  return dim;
}

/** sinusoidal2d on one instance's runtime. */
export function grid2dMethods(runtime) {
  const { wasm, check } = runtime;

  function sinusoidal2d(options) {
    const o = checkOptions(options, ['height', 'width', 'dim', 'base', 'clsToken', 'out'], 'sinusoidal2d');
    const height = checkSide('height', o.height);
    const width = checkSide('width', o.width);
    const dim = checkDim2d(o.dim);
    const base = checkBase(o.base);
    const cls = checkFlag(o.clsToken, 'clsToken') ? 1 : 0;
    const rows = cls + height * width;
    const count = rows * dim;
    const shape = `(${cls ? '1 + ' : ''}height·width)·dim = ${rows}·${dim} = ${count} floats`;
    if (count > 2 ** 32 / FLOAT) {
      throw new PosencError(
        'TOO_LARGE',
        `the table needs ${count} floats, more than wasm32 memory holds`,
        'height',
        height,
      );
    }
    const out = checkOut(o.out, count, shape);
    const outPointer = out instanceof WasmBuffer ? runtime.pointerOf(out, 'out') : 0;
    if (count === 0) return out;
    const scratchBytes = wasm.pe_wasm_table_2d_scratch_size(height, width, dim, base, cls) >>> 0;
    if (scratchBytes === 0)
      throw new PosencError(
        'TOO_LARGE',
        `the ${height}×${width} grid's scratch does not fit in wasm32 memory`,
        'height',
        height,
      );
    const outBlock = outPointer ? null : [count * FLOAT, 'the 2-D table in wasm'];
    runtime.withTemporary([[scratchBytes, 'scratch'], outBlock], (scratch, outAt) => {
      if (outAt) checkAttached(out, count, 'out');
      check(wasm.pe_wasm_table_2d(height, width, dim, base, cls, outAt || outPointer, count, scratch, scratchBytes));
      if (outAt) out.set(runtime.floats(outAt, count));
    });
    return out;
  }

  return { sinusoidal2d };
}
