// The query/key geometry of attention biases, checked alike by ALiBi's bias
// (../alibi) and T5's and Shaw's (../relative): lengths, and the key position
// of query row 0.
import { PosencError, refuse } from './errors.js';
import { MAX_POSITION } from './validate.js';

/** A query or key length (0 … 2^31); `fallback` when undefined and one is given. */
export function checkLength(name, value, fallback) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_POSITION) {
    refuse('BAD_LENGTH', name, `an integer from 0 to ${MAX_POSITION}`, value);
  }
  return value;
}

/** Key position of query row 0: by default the last query sits on the last key. */
export function checkQueryOffset(offset, queryLength, keyLength) {
  if (offset === undefined) {
    if (queryLength > keyLength) {
      throw new PosencError(
        'BAD_OFFSET',
        `queryLength ${queryLength} exceeds keyLength ${keyLength}, so the default offset (keyLength − queryLength, ` +
          'which puts the last query on the last key) would be negative; pass offset: the key position of query row 0',
        'offset',
        offset,
      );
    }
    return keyLength - queryLength;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset + queryLength > MAX_POSITION) {
    refuse(
      'BAD_OFFSET',
      'offset',
      `an integer ≥ 0 with offset + queryLength ≤ ${MAX_POSITION} (queryLength is ${queryLength})`,
      offset,
    );
  }
  return offset;
}
