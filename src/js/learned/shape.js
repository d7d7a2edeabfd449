// From a tensor's shape to a (rows, dim) position table: leading axes of size
// 1 are dropped ((1, 197, 768) is a ViT pos_embed), what is left must be 2-D,
// and it must match the rows and dim the caller expects, when given.
import { PosencError, refuse } from '../runtime/errors.js';

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
  const axes = shape.slice();
  while (axes.length > 2 && axes[0] === 1) axes.shift();
  if (axes.length !== 2) {
    throw new PosencError(
      'BAD_SHAPE',
      `${what} has shape ${shapeText(shape)}; a position table must be 2-D (rows, dim), after dropping leading axes of size 1`,
      'shape',
      shape,
    );
  }
  const [rows, dim] = axes;
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
