// Reads a position table from NumPy's .npy format (versions 1.0, 2.0, 3.0):
//   "\x93NUMPY", major, minor, header length (uint16 LE in 1.0, uint32 LE in
//   2.0 and 3.0), then a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1024, 768), }
//   (latin-1 text in 1.0/2.0, UTF-8 in 3.0), then the data.
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
import { PosencError } from '../runtime/errors.js';
import { checkOptions } from '../runtime/validate.js';
import { asBytes, badFile, decodeFloats, printable } from './decode.js';
import { checkExpected, tableShape, elementCount, shapeText } from './shape.js';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

// descr -> [element kind, little-endian]; '|' and '=' never describe floats in files numpy writes.
const DTYPES = {
  '<f2': ['f2', true],
  '>f2': ['f2', false],
  '<f4': ['f4', true],
  '>f4': ['f4', false],
  '<f8': ['f8', true],
  '>f8': ['f8', false],
};

export const isNpy = (bytes) => bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);

/**
 * @param {ArrayBuffer | ArrayBufferView} input  the file's bytes
 * @param {{rows?: number, dim?: number}} [options]  the shape the table must have
 * @returns {{table: Float32Array, rows: number, dim: number, dtype: string, shape: number[]}}
 */
export function readNpy(input, options) {
  const expected = checkExpected(checkOptions(options, ['rows', 'dim'], 'readNpy'));
  const bytes = asBytes(input);
  const { header, dataStart } = splitHeader(bytes);
  const { descr, fortran_order: fortran, shape } = header;
  if (typeof descr !== 'string') {
    throw new PosencError(
      'BAD_FILE_DTYPE',
      'the .npy array has a structured dtype; a position table must be float16, float32 or float64',
      'dtype',
      descr,
    );
  }
  if (!Object.hasOwn(DTYPES, descr)) {
    throw new PosencError(
      'BAD_FILE_DTYPE',
      `the .npy array has dtype '${printable(descr)}'; supported: float16, float32, float64 in either byte order ('<f2', '<f4', '<f8', '>f2', '>f4', '>f8')`,
      'dtype',
      descr,
    );
  }
  if (typeof fortran !== 'boolean')
    throw badFile('.npy', `'fortran_order' must be True or False; got ${show(fortran)}`);
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw badFile('.npy', `'shape' must be a tuple of integers ≥ 0; got ${show(shape)}`);
  }
  if (fortran && shape.filter((n) => n !== 1).length > 1) {
    throw new PosencError(
      'BAD_FILE_ORDER',
      `the .npy array ${shapeText(shape)} is stored in Fortran (column-major) order; save it in C order, e.g. np.save(path, np.ascontiguousarray(table))`,
      'fortran_order',
      fortran,
    );
  }
  const { rows, dim } = tableShape(shape, expected, `the .npy array`);
  const [kind, little] = DTYPES[descr];
  const size = Number(descr.slice(2));
  const available = bytes.length - dataStart;
  const count = elementCount(shape, size, available);
  if (count === undefined) {
    throw badFile(
      '.npy',
      `the data is truncated: shape ${shapeText(shape)} of '${descr}' needs ${shape.reduce((a, n) => a * n, size)} bytes after the header, the file has ${available}`,
    );
  }
  // Bytes past the array are allowed: np.load ignores them too (several arrays may be saved to one file).
  return { table: decodeFloats(bytes, dataStart, count, kind, little), rows, dim, dtype: descr, shape };
}

/** The header dict and where the data starts, or BAD_FILE. */
function splitHeader(bytes) {
  if (!isNpy(bytes)) throw badFile('.npy', 'it does not start with the magic string "\\x93NUMPY"');
  if (bytes.length < 10) throw badFile('.npy', `the file ends after ${bytes.length} bytes, inside the preamble`);
  const major = bytes[6];
  const minor = bytes[7];
  if (major < 1 || major > 3) throw badFile('.npy', `format version ${major}.${minor} is not 1.0, 2.0 or 3.0`);
  const wide = major >= 2;
  const start = wide ? 12 : 10;
  if (bytes.length < start) throw badFile('.npy', `the file ends after ${bytes.length} bytes, inside the preamble`);
  const length = wide
    ? new DataView(bytes.buffer, bytes.byteOffset + 8, 4).getUint32(0, true)
    : bytes[8] | (bytes[9] << 8);
  if (start + length > bytes.length) {
    throw badFile(
      '.npy',
      `the header says it is ${length} bytes long but the file ends ${bytes.length - start} bytes after the preamble`,
    );
  }
  const raw = bytes.subarray(start, start + length);
  let text;
  if (major === 3) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw badFile('.npy', 'the version 3.0 header is not UTF-8');
    }
  } else {
    text = latin1(raw);
  }
  let header;
  try {
    header = parsePythonLiteral(text);
  } catch (error) {
    throw badFile(
      '.npy',
      `the header is not a Python dict literal (${error.message}): ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header))
    throw badFile('.npy', 'the header is not a dict');
  for (const key of ['descr', 'fortran_order', 'shape']) {
    if (!Object.hasOwn(header, key)) throw badFile('.npy', `the header has no '${key}' key`);
  }
  return { header, dataStart: start + length };
}

/** latin-1 bytes -> text (TextDecoder's 'latin1' is really windows-1252). */
function latin1(raw) {
  let text = '';
  for (let i = 0; i < raw.length; i += 8192) text += String.fromCharCode(...raw.subarray(i, i + 8192));
  return text;
}

const show = (value) => JSON.stringify(value) ?? String(value);

/**
 * The subset of Python literals .npy headers use: dicts, tuples, lists,
 * strings, integers (with Python 2's L suffix), True, False, None. Dicts
 * become null-prototype objects, tuples and lists arrays. Throws Error.
 */
function parsePythonLiteral(text) {
  let at = 0;
  const fail = (what) => {
    throw new Error(`${what} at character ${at}`);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };

  function sequence(close) {
    const items = [];
    for (;;) {
      space();
      if (text[at] === close) {
        at++;
        return items;
      }
      items.push(value());
      space();
      if (text[at] === ',') at++;
      else if (text[at] !== close) fail(`expected ',' or '${close}'`);
    }
  }

  function dict() {
    const out = Object.create(null);
    for (;;) {
      space();
      if (text[at] === '}') {
        at++;
        return out;
      }
      const key = value();
      if (typeof key !== 'string') fail('a dict key that is not a string');
      space();
      if (text[at++] !== ':') fail("expected ':'");
      out[key] = value();
      space();
      if (text[at] === ',') at++;
      else if (text[at] !== '}') fail("expected ',' or '}'");
    }
  }

  function string(quote) {
    let out = '';
    for (;;) {
      if (at >= text.length) fail('an unterminated string');
      const c = text[at++];
      if (c === quote) return out;
      if (c === '\\') {
        if (at >= text.length) fail('an unterminated string');
        out += text[at++];
      } else {
        out += c;
      }
    }
  }

  function value() {
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      return dict();
    }
    if (c === '(') {
      at++;
      return sequence(')');
    }
    if (c === '[') {
      at++;
      return sequence(']');
    }
    if (c === "'" || c === '"') {
      at++;
      return string(c);
    }
    const word = /^(?:[-+]?\d+[lL]?|True|False|None)/.exec(text.slice(at, at + 40));
    if (!word) fail(at >= text.length ? 'the end of the text' : `unexpected ${JSON.stringify(c)}`);
    at += word[0].length;
    if (word[0] === 'True') return true;
    if (word[0] === 'False') return false;
    if (word[0] === 'None') return null;
    return Number(word[0].replace(/[lL]$/, ''));
  }

  const result = value();
  space();
  if (at !== text.length) fail('unexpected text after the literal');
  return result;
}
