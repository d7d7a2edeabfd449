// From a tensor's shape to a (rows, dim) position table: leading axes of size
// 1 are dropped ((1, 197, 768) is a ViT pos_embed), what is left must be 2-D,
// and it must match the rows and dim the caller expects, when given.
import { PosencError, refuse } from '../runtime/errors.js';

const MAX_AXES = 64; // NumPy 2's NPY_MAXDIMS
const MAX_AXIS = 2 ** 31;

export const shapeText = (shape) => `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;

/** Expected rows / dim from the options: undefined, or integers ≥ 0 / ≥ 1. */
export function checkExpected(o) {
  if (o.rows !== undefined && !(Number.isInteger(o.rows) && o.rows >= 0))
    refuse('BAD_LENGTH', 'rows', 'an integer ≥ 0 (the expected number of rows) or undefined', o.rows);
  if (o.dim !== undefined && !(Number.isInteger(o.dim) && o.dim >= 1))
    refuse('BAD_DIM', 'dim', 'an integer ≥ 1 (the expected row size) or undefined', o.dim);
  return { rows: o.rows, dim: o.dim };
}

/** { rows, dim } of a tensor named `what` (for messages), or BAD_SHAPE. */
export function tableShape(shape, expected, what) {
  if (shape.length > MAX_AXES) {
    throw new PosencError(
      'BAD_SHAPE',
      `${what} has ${shape.length} axes; a position table has at most ${MAX_AXES} (NumPy's limit)`,
      'shape',
      shape.length,
    );
  }
  let first = 0; // one pass (shift() in a loop was quadratic in the number of axes)
  while (shape.length - first > 2 && shape[first] === 1) first++;
  const axes = shape.slice(first);
  if (axes.length !== 2) {
    throw new PosencError(
      'BAD_SHAPE',
      `${what} has shape ${shapeText(shape)}; a position table must be 2-D (rows, dim), after dropping leading axes of size 1`,
      'shape',
      shape,
    );
  }
  const [rows, dim] = axes;
  // Huge axes with data fail the size check; beside an axis of 0 they would not.
  if (rows * dim === 0 && (rows > MAX_AXIS || dim > MAX_AXIS)) {
    throw new PosencError(
      'BAD_SHAPE',
      `${what} has shape ${shapeText(shape)}; each axis of a position table is at most 2^31`,
      'shape',
      shape,
    );
  }
  const wrong = [];
  if (expected.rows !== undefined && rows !== expected.rows) wrong.push(`${expected.rows} rows`);
  if (expected.dim !== undefined && dim !== expected.dim) wrong.push(`dim ${expected.dim}`);
  if (wrong.length) {
    throw new PosencError(
      'BAD_SHAPE',
      `${what} has shape ${shapeText(shape)}, so ${rows} rows of dim ${dim}; expected ${wrong.join(' and ')}`,
      'shape',
      shape,
    );
  }
  return { rows, dim };
}

/**
 * Number of elements of `shape`, or undefined when they need more than
 * `available` bytes at `size` bytes each (checked as it multiplies, so a
 * hostile shape cannot overflow).
 */
export function elementCount(shape, size, available) {
  if (shape.includes(0)) return 0;
  let count = 1;
  for (const n of shape) {
    count *= n;
    if (count * size > available) return undefined;
  }
  return count;
}
