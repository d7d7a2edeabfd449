// Reads one tensor of a .safetensors file as a position table:
//   8 bytes: N, the header length (uint64 little-endian)
//   N bytes: a UTF-8 JSON object {"<name>": {"dtype": "F32", "shape": [rows, dim],
//            "data_offsets": [begin, end]}, ..., "__metadata__": {...}}
//   the data: each tensor little-endian, row-major, at bytes [begin, end) after the header
// https://github.com/huggingface/safetensors#format
import { PosencError } from '../runtime/errors.js';
import { checkOptions } from '../runtime/validate.js';
import { asBytes, badFile, decodeFloats, ELEMENT, printable } from './decode.js';
import { checkExpected, tableShape, elementCount, shapeText } from './shape.js';
import { checkSafetensorsRules } from './safetensors-rules.js';
import { topLevelKeys } from './header-keys.js';

const DTYPES = { F16: 'f2', BF16: 'bf16', F32: 'f4', F64: 'f8' };
const NAMES_SHOWN = 20;

/** True when the bytes start like a safetensors file: a header length, then '{'. */
export const isSafetensors = (bytes) => bytes.length >= 9 && bytes[8] === 0x7b;

/**
 * @param {ArrayBuffer | ArrayBufferView} input  the file's bytes
 * @param {{name?: string, rows?: number, dim?: number}} [options]  the tensor (optional
 *   when the file holds only one) and the shape it must have
 * @returns {{table: Float32Array, rows: number, dim: number, dtype: string, shape: number[], name: string}}
 */
export function readSafetensors(input, options) {
  const o = checkOptions(options, ['name', 'rows', 'dim'], 'readSafetensors');
  if (o.name !== undefined && typeof o.name !== 'string') {
    throw new PosencError(
      'BAD_NAME',
      `name must be a tensor name (a string) or undefined; got ${show(o.name)}`,
      'name',
      o.name,
    );
  }
  const expected = checkExpected(o);
  const bytes = asBytes(input);
  const { header, text, dataStart } = splitHeader(bytes);
  // The file's order (JSON.parse's object lists integer-like keys first), each name once.
  const keys = topLevelKeys(text);
  const names = [...new Set(keys)].filter((key) => key !== '__metadata__');
  checkComplete(header, names, bytes.length - dataStart);
  checkSafetensorsRules(keys, header, names, bytes.length - dataStart);
  const name = o.name ?? onlyName(names);
  if (!Object.hasOwn(header, name) || name === '__metadata__') {
    throw new PosencError(
      'BAD_NAME',
      `this .safetensors file has no tensor named ${show(name)}; ${listNames(names)}`,
      'name',
      name,
    );
  }
  const entry = header[name];
  const what = `tensor ${show(name)}`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
    throw badFile('.safetensors', `the header entry of ${what} is not an object`);
  const { dtype, shape, data_offsets: offsets } = entry;
  if (typeof dtype !== 'string') throw badFile('.safetensors', `${what} has no dtype string`);
  if (!Object.hasOwn(DTYPES, dtype)) {
    throw new PosencError(
      'BAD_FILE_DTYPE',
      `${what} has dtype ${printable(dtype)}; supported: F32, F16, BF16, F64`,
      'dtype',
      dtype,
    );
  }
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw badFile('.safetensors', `the shape of ${what} must be a list of integers ≥ 0; got ${show(shape)}`);
  }
  if (
    !Array.isArray(offsets) ||
    offsets.length !== 2 ||
    !offsets.every((n) => Number.isSafeInteger(n) && n >= 0) ||
    offsets[0] > offsets[1]
  ) {
    throw badFile(
      '.safetensors',
      `the data_offsets of ${what} must be [begin, end] with 0 ≤ begin ≤ end; got ${show(offsets)}`,
    );
  }
  const dataLength = bytes.length - dataStart;
  if (offsets[1] > dataLength) {
    throw badFile(
      '.safetensors',
      `${what} ends at byte ${offsets[1]} of the data, but the file holds only ${dataLength} bytes of data (truncated?)`,
    );
  }
  const kind = DTYPES[dtype];
  const size = ELEMENT[kind].size;
  const span = offsets[1] - offsets[0];
  const count = elementCount(shape, size, span);
  if (count === undefined || count * size !== span) {
    throw badFile(
      '.safetensors',
      `${what} has shape ${shapeText(shape)} of ${dtype}, which is not the ${span} bytes its data_offsets ${show(offsets)} span`,
    );
  }
  const { rows, dim } = tableShape(shape, expected, `${what} of the .safetensors file`);
  return { table: decodeFloats(bytes, dataStart + offsets[0], count, kind, true), rows, dim, dtype, shape, name };
}

function splitHeader(bytes) {
  if (bytes.length < 8)
    throw badFile('.safetensors', `the file is ${bytes.length} bytes long, shorter than the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const low = view.getUint32(0, true);
  const high = view.getUint32(4, true);
  const length = high * 2 ** 32 + low;
  if (length > bytes.length - 8) {
    throw badFile(
      '.safetensors',
      `the header length is ${length} bytes but only ${bytes.length - 8} bytes follow it (truncated, or not a .safetensors file)`,
    );
  }
  let header;
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + length));
    header = JSON.parse(text);
  } catch (error) {
    throw badFile('.safetensors', `the header is not UTF-8 JSON (${error.message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header))
    throw badFile('.safetensors', 'the header is not a JSON object');
  return { header, text, dataStart: 8 + length };
}

/** A file cut short anywhere in its data is refused, whichever tensor is asked for. */
function checkComplete(header, names, dataLength) {
  for (const name of names) {
    const end = header[name]?.data_offsets?.[1];
    if (Number.isSafeInteger(end) && end > dataLength) {
      throw badFile(
        '.safetensors',
        `tensor ${show(name)} ends at byte ${end} of the data, but the file holds only ${dataLength} bytes of data (truncated?)`,
      );
    }
  }
}

function onlyName(names) {
  if (names.length === 1) return names[0];
  throw new PosencError('BAD_NAME', `name must say which tensor to read: ${listNames(names)}`, 'name', undefined);
}

/** "it holds: a, b, …" with likely position tables first. */
function listNames(names) {
  if (names.length === 0) return 'it holds no tensors';
  const looksPositional = (n) => /pos/i.test(n);
  const sorted = [...names.filter(looksPositional), ...names.filter((n) => !looksPositional(n))];
  const shown = sorted.slice(0, NAMES_SHOWN).map(show).join(', ');
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  return `it holds ${names.length} tensor${names.length === 1 ? '' : 's'}: ${shown}${more}`;
}

const show = (value) => JSON.stringify(value) ?? String(value);
