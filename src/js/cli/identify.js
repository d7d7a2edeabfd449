// `posenc identify FILE [options]`, mirrored by src/cli/identify_command.c
// (same options, checks, messages and output): reads the table with the
// package's readers (.npy, .safetensors), or as CSV text or raw float32 by
// the same rules as src/cli/read_table.c, and prints the core's report.
import { instantiate } from '../instance.js';
import { readTable } from '../learned/read.js';
import { isNpy } from '../learned/npy.js';
import { isSafetensors } from '../learned/safetensors.js';
import { fail } from './args.js';
import { COMMON_HELP } from './options.js';
import { readInput, MAX_TABLE_BYTES } from './read-input.js';

export const usage = `usage: posenc identify FILE [options]

Names the positional-encoding convention of the table in FILE and its error
against the exact table. FILE is .npy, .safetensors, CSV or whitespace-separated
text (one row per line), JSON (an array of rows; told from CSV by its content),
or raw little-endian float32 (give --rows and/or --dim).

  --name T      the tensor of a .safetensors file (needed when it holds several)
  --rows N      rows of a raw float32 file (checked against other files)
  --dim D       columns of a raw float32 file (checked against other files)
  --kind K      auto (default), table (sine-cosine pairs), cos-sin (a RoPE cos or sin cache)
                or inv-freq (a model's inv_freq vector: one column or one row, read as
                float32; auto reads a one-column or one-row FILE so)
  --json        print the facts as one JSON object instead of the report
${COMMON_HELP}
examples:
  posenc identify pe.npy
  posenc identify model.safetensors --name embed_positions.weight --json
  posenc identify inv_freq.npy
`;

export const options = ['--name', '--rows', '--dim', '--kind', '--output'];
export const flags = ['--json'];
export const operand = 'FILE';

const refused = (message) => fail(message, 1);

/** --rows or --dim: 1 ... 2^32 - 1 from decimal digits; 0 when absent. */
function shapeOption(given, name) {
  const text = given.get(name);
  if (text === undefined) return 0;
  const value = /^[0-9]{1,10}$/.test(text) ? Number(text) : 0;
  if (value < 1 || value > 4294967295) fail(`${name} must be an integer from 1 to 4294967295; got ${text}`);
  return value;
}

const isText = (bytes) =>
  bytes.length > 0 && bytes.every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));

/** A field as a number (plain decimal, nan, [+-]inf, [+-]infinity), else undefined. */
function parseField(text) {
  if (text.length === 0 || text.length >= 64) return undefined;
  const sign = text[0] === '-' ? -1 : 1;
  const word = (text[0] === '+' || text[0] === '-' ? text.slice(1) : text).toLowerCase();
  if (word === 'nan') return NaN;
  if (word === 'inf' || word === 'infinity') return sign * Infinity;
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text) ? Number(text) : undefined;
}

/** CSV or whitespace-separated rows; a first line of names is skipped (src/cli/read_table.c's rules). */
function readText(bytes, wantRows, wantDim) {
  const values = [];
  let rows = 0;
  let dim = 0;
  const lines = new TextDecoder('latin1').decode(bytes).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, index) => {
    const fields = line.split(/[,\t ;\r]+/).filter((f) => f.length > 0);
    if (fields.length === 0) return;
    let header = false;
    const numbers = [];
    fields.forEach((field, k) => {
      const value = parseField(field);
      if (value === undefined) {
        if (rows === 0 && k === 0) header = true;
        if (!(rows === 0 && header))
          refused(`line ${index + 1}, field ${k + 1}: '${field.slice(0, 40)}' is not a number`);
        return;
      }
      if (header) refused(`line ${index + 1} mixes names and numbers`);
      numbers.push(value);
    });
    if (header) return;
    if (rows === 0) dim = numbers.length;
    else if (numbers.length !== dim)
      refused(`line ${index + 1} has ${numbers.length} numbers; the first row has ${dim}`);
    for (const v of numbers) values.push(v);
    rows++;
  });
  if (rows === 0) refused('the text holds no numbers');
  if ((wantRows && rows !== wantRows) || (wantDim && dim !== wantDim))
    refused(`the table is ${rows} x ${dim}, not the --rows/--dim given`);
  return { table: Float32Array.from(values), rows, dim };
}

const isSpace = (b) => b === 32 || b === 9 || b === 10 || b === 13;
function skipSpace(bytes, p) {
  while (p < bytes.length && isSpace(bytes[p])) p++;
  return p;
}

/** Text whose first non-blank character is '[' is JSON (by content, whatever the file's name). */
const isJson = (bytes) => {
  const p = skipSpace(bytes, 0);
  return p < bytes.length && bytes[p] === 0x5b;
};

const JSON_NUMBER = /^-?(?:NaN|Infinity|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/;

/** An array of rows of numbers, or a flat array with --rows and/or --dim (src/cli/read_table.c's rules). */
function readJson(bytes, wantRows, wantDim) {
  const text = new TextDecoder('latin1').decode(bytes);
  const values = [];
  let p = skipSpace(bytes, skipSpace(bytes, 0) + 1);
  const nested = text[p] === '[';
  let rows = 0;
  let dim = 0;
  let ok = true;
  for (;;) {
    let inRow = 0;
    if (nested) {
      if (text[p] !== '[') break;
      p = skipSpace(bytes, p + 1);
    }
    while (p < text.length && text[p] !== ']') {
      const m = JSON_NUMBER.exec(text.slice(p, p + 64));
      if (!m || m[0] === '-NaN' || m[0].length >= 64) {
        ok = false;
        break;
      }
      const word = m[0].replace(/^-/, '');
      const sign = m[0][0] === '-' ? -1 : 1;
      values.push(word === 'NaN' ? NaN : word === 'Infinity' ? sign * Infinity : Number(m[0]));
      inRow++;
      p = skipSpace(bytes, p + m[0].length);
      if (text[p] === ',') p = skipSpace(bytes, p + 1);
      else if (text[p] !== ']') ok = false;
      if (!ok) break;
    }
    if (!ok || p >= text.length) {
      ok = false;
      break;
    }
    p = skipSpace(bytes, p + 1);
    if (!nested) break;
    rows++;
    if (rows === 1) dim = inRow;
    else if (inRow !== dim) refused(`JSON row ${rows} has ${inRow} numbers; the first row has ${dim}`);
    if (text[p] === ',') p = skipSpace(bytes, p + 1);
    else if (text[p] === ']') {
      p = skipSpace(bytes, p + 1);
      break;
    } else ok = false;
    if (!ok) break;
  }
  if (!ok || p !== text.length) refused(`not a JSON array of rows of numbers (at byte ${Math.min(p, text.length)})`);
  if (values.length === 0) refused('the JSON holds no numbers');
  if (!nested) {
    if (!wantRows && !wantDim) refused('a flat JSON array needs --rows and/or --dim');
    rows = wantRows || Math.floor(values.length / wantDim);
    dim = wantDim || Math.floor(values.length / wantRows);
    if (rows * dim !== values.length) refused(`the array holds ${values.length} numbers, not --rows x --dim`);
  } else if ((wantRows && rows !== wantRows) || (wantDim && dim !== wantDim))
    refused(`the table is ${rows} x ${dim}, not the --rows/--dim given`);
  return { table: Float32Array.from(values), rows, dim };
}

function readRaw(bytes, wantRows, wantDim) {
  if (!wantRows && !wantDim) refused('a raw float32 file needs --rows and/or --dim');
  if (bytes.length % 4) refused(`a raw float32 file has a multiple of 4 bytes; this one has ${bytes.length}`);
  const count = bytes.length / 4;
  const rows = wantRows || Math.floor(count / wantDim);
  const dim = wantDim || Math.floor(count / wantRows);
  if (rows * dim !== count) refused(`the file holds ${count} floats, not --rows x --dim`);
  const table = new Float32Array(count);
  new Uint8Array(table.buffer).set(bytes);
  return { table, rows, dim };
}

// The parsers' own words (V8's JSON.parse, npy.js's literal parser) after these
// messages are left out: the native CLI's parsers cannot say the same.
const PARSER_DETAIL =
  /^(not a valid \.(?:npy|safetensors) file: the header is not (?:a Python dict literal|UTF-8 JSON)) \(.*$/s;

function readAny(bytes, o) {
  if (isNpy(bytes) || isSafetensors(bytes)) {
    const shape = { rows: o.rows || undefined, dim: o.dim || undefined };
    try {
      return readTable(bytes, o.name === undefined ? shape : { name: o.name, ...shape });
    } catch (error) {
      if (PARSER_DETAIL.test(error.message)) error.message = error.message.replace(PARSER_DETAIL, '$1');
      throw error;
    }
  }
  if (o.name !== undefined) refused('--name is for .safetensors files');
  if (isText(bytes) && isJson(bytes)) return readJson(bytes, o.rows, o.dim);
  return isText(bytes) ? readText(bytes, o.rows, o.dim) : readRaw(bytes, o.rows, o.dim);
}

export async function run(given, write) {
  const o = { name: given.get('--name'), rows: shapeOption(given, '--rows'), dim: shapeOption(given, '--dim') };
  const file = given.get('FILE');
  if (file === undefined)
    fail('identify needs a FILE (.npy, .safetensors, CSV or raw float32; see posenc identify --help)');
  const kind = given.get('--kind') ?? 'auto';
  if (!['auto', 'table', 'cos-sin', 'inv-freq'].includes(kind))
    fail(`--kind must be auto, table, cos-sin or inv-freq; got ${kind}`);
  const bytes = readInput('identify', 'a table', file, MAX_TABLE_BYTES);
  const { table, rows, dim } = readAny(bytes, o);
  // one column or one row: a frequency vector (identify_command.c's rule)
  const vector = kind === 'inv-freq' || (kind === 'auto' && (dim === 1 || rows === 1));
  const posenc = await instantiate();
  const result = vector ? posenc.identify(table, { kind: 'inv-freq' }) : posenc.identify(table, { rows, dim, kind });
  await write(given.get('--json') === 'true' ? result.json + '\n' : result.text);
}
