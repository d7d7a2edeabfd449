// Output formats of `posenc table` and the other commands: a shared module
// (pure JS, no wasm), used by the Node CLI (../cli) and the page's exports
// (web/src/io), and mirrored line for line by src/cli/format.c, so all print
// the same bytes.
//
// Decimals: s = v * 10^k in double (exact for a float32 |v| <= 1, k <= 9),
// rounded half to even to an integer n; '-' when v's sign bit is set (so -0
// prints -0.0000 as printf does), then |n| / 10^k, '.', |n| mod 10^k padded.

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

export const DIGITS = { text: 4, csv: 9, json: 9 };
export const FORMATS = ['text', 'csv', 'json', 'npy', 'f32', 'raw'];

/** Rounds s >= 0 to an integer, ties to even; exact for s < 2^52. */
function roundHalfEven(s) {
  const whole = Math.floor(s);
  const rest = s - whole; // exact: s and whole share an exponent range
  if (rest > 0.5 || (rest === 0.5 && whole % 2 === 1)) return whole + 1;
  return whole;
}

/** v with `digits` decimals (0 ... 9), as described above. */
export function formatFixed(v, digits) {
  const negative = v < 0 || Object.is(v, -0);
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return negative ? '-inf' : 'inf';
  const scale = POW10[digits];
  const n = roundHalfEven(Math.abs(v * scale));
  const whole = Math.floor(n / scale);
  const sign = negative ? '-' : '';
  if (digits === 0) return sign + whole;
  return sign + whole + '.' + String(n - whole * scale).padStart(digits, '0');
}

/** `position,d0,d1,...` */
function csvHeader(dim) {
  let line = 'position';
  for (let j = 0; j < dim; j++) line += ',d' + j;
  return line + '\n';
}

/**
 * The text of `rows` rows of a table chunk (values row-major) for text, csv
 * or json. firstRow is the row's index in the whole table (json needs it for
 * the separators), position the absolute position of the chunk's first row.
 */
export function formatRows(format, values, rows, dim, firstRow, position) {
  const digits = DIGITS[format];
  let text = '';
  for (let r = 0; r < rows; r++) {
    const row = r * dim;
    if (format === 'text') {
      text += formatFixed(values[row], digits);
      for (let j = 1; j < dim; j++) text += ' ' + formatFixed(values[row + j], digits);
      text += '\n';
    } else if (format === 'csv') {
      text += position + r;
      for (let j = 0; j < dim; j++) text += ',' + formatFixed(values[row + j], digits);
      text += '\n';
    } else {
      text += (firstRow + r === 0 ? '[' : ',\n[') + formatFixed(values[row], digits);
      for (let j = 1; j < dim; j++) text += ',' + formatFixed(values[row + j], digits);
      text += ']';
    }
  }
  return text;
}

/** What comes before the rows: csv header, json's opening bracket, npy header (NumPy's descr: '<f4', '<f2'). */
export function prologue(format, length, dim, descr = '<f4') {
  if (format === 'csv') return csvHeader(dim);
  if (format === 'json') return '[\n';
  if (format === 'npy') return npyHeader(length, dim, descr);
  return '';
}

/** What comes after the rows: json's closing bracket (an empty table is `[\n]\n`). */
export function epilogue(format, length) {
  if (format !== 'json') return '';
  return length === 0 ? ']\n' : '\n]\n';
}

/** NPY 1.0 header for a (length, dim) little-endian C-order array (float32 unless descr says); a multiple of 64 bytes. */
export function npyHeader(length, dim, descr = '<f4') {
  return npyHeaderOf([length, dim], descr);
}

/** NPY 1.0 header for a little-endian C-order array of `shape` (1 or 2 sizes; 1-D prints as NumPy's `(n,)`). */
export function npyHeaderOf(shape, descr) {
  const sizes = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${sizes}), }`;
  const unpadded = 10 + dict.length + 1; // magic 6 + version 2 + header length 2, dict, '\n'
  dict += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const bytes = new Uint8Array(10 + dict.length);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, dict.length & 0xff, dict.length >> 8]);
  for (let i = 0; i < dict.length; i++) bytes[10 + i] = dict.charCodeAt(i);
  return bytes;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** 16-bit values (float16 or bfloat16 bits) as little-endian bytes (a copy). */
export function uint16Bytes(values) {
  const bytes = new Uint8Array(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    bytes[2 * i] = values[i] & 0xff;
    bytes[2 * i + 1] = values[i] >> 8;
  }
  return bytes;
}

/** The float32 values as little-endian bytes (a copy). */
export function float32Bytes(values) {
  return littleEndianBytes(values);
}

/** A typed array's values (Float64Array, Float32Array, Int32Array, Uint16Array) as little-endian bytes (a copy). */
export function littleEndianBytes(values) {
  const bytes = new Uint8Array(values.byteLength);
  const source = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (littleEndian) {
    bytes.set(source);
  } else {
    const width = values.BYTES_PER_ELEMENT;
    for (let i = 0; i < bytes.length; i++) bytes[i] = source[i - (i % width) + width - 1 - (i % width)];
  }
  return bytes;
}

/**
 * v in exponent form with `digits` decimals, as C's "%.*e" prints it (at
 * least two exponent digits). An exact tie (v = 0.03759765625, a float16, to
 * 8 decimals) goes to the even digit as glibc's printf does; toExponential
 * would round it away from zero.
 */
export function formatExp(v, digits) {
  let text = v.toExponential(digits);
  // toExponential(100) is exact for every double whose decimal expansion ends within 101 digits, as a tie's does.
  const [mantissa, exponent] = v.toExponential(100).split('e');
  const all = mantissa.replace(/^-/, '').replace('.', '');
  if (/^50*$/.test(all.slice(digits + 1)) && Number(all[digits]) % 2 === 0) {
    const kept = all.slice(0, digits + 1);
    text = `${v < 0 ? '-' : ''}${kept[0]}${digits > 0 ? '.' : ''}${kept.slice(1)}e${exponent}`;
  }
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

/**
 * A list of numbers in text (one per line), csv (a header, then "i,v") or
 * json ([v, ...]), each in exponent form with `digits` decimals; src/cli/format.c
 * cli_write_values prints the same bytes.
 */
export function formatValues(format, indexName, valueName, values, digits) {
  const texts = Array.from(values, (v) => formatExp(v, digits));
  if (format === 'csv') return `${indexName},${valueName}\n` + texts.map((t, i) => `${i},${t}\n`).join('');
  if (format === 'json') return texts.length === 0 ? '[]\n' : `[\n${texts.join(',\n')}\n]\n`;
  return texts.map((t) => t + '\n').join('');
}
