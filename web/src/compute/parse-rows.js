// Pasted or dropped text as a table for identify (compute-worker.js): one row
// per line, fields split by commas, semicolons or spaces, numbers read as
// `posenc identify` reads CSV (plain decimals, nan, [+-]inf(inity)).
import { PosencError } from '../../../src/js/index.js';

/** A field as a number (plain decimal, nan, [+-]inf(inity), as `posenc identify` reads CSV), else undefined. */
function parseField(field) {
  const word = field.replace(/^[+-]/, '').toLowerCase();
  if (word === 'nan') return NaN;
  if (word === 'inf' || word === 'infinity') return field.startsWith('-') ? -Infinity : Infinity;
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(field) ? Number(field) : undefined;
}

/** Rows of numbers from text: one row per line, fields split by commas, semicolons or spaces; a first line of names is skipped. */
export function parseRows(text) {
  const rows = [];
  for (const line of text.split('\n')) {
    const fields = line.split(/[,;\s]+/).filter((f) => f.length > 0);
    if (fields.length === 0) continue;
    const numbers = fields.map(parseField);
    const bad = numbers.indexOf(undefined);
    if (bad >= 0) {
      if (rows.length === 0 && numbers.every((n) => n === undefined)) continue; // a header line of names
      throw new PosencError('BAD_FILE', `row ${rows.length + 1}: '${fields[bad]}' is not a number`);
    }
    if (rows.length && numbers.length !== rows[0].length) {
      throw new PosencError(
        'BAD_SHAPE',
        `row ${rows.length + 1} has ${numbers.length} numbers; the first row has ${rows[0].length}`,
      );
    }
    rows.push(numbers);
  }
  if (rows.length === 0) throw new PosencError('BAD_SHAPE', 'no numbers found: paste one row of the table per line');
  return { table: Float32Array.from(rows.flat()), rows: rows.length, dim: rows[0].length };
}
