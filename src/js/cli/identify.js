// `posenc identify FILE [options]`, mirrored by src/cli/identify.c (same
// options, checks, messages and output): reads the table with the package's
// readers (.npy, .safetensors), or as CSV text or raw float32 by the same
// rules as src/cli/read_table.c, and prints the core's report.
import { readFile } from 'node:fs/promises';
import { readTable } from '../learned/read.js';
import { isNpy } from '../learned/npy.js';
import { isSafetensors } from '../learned/safetensors.js';

export const IDENTIFY_USAGE = `usage: posenc identify FILE [options]

Names the positional-encoding convention of the table in FILE and its error
against the exact table. FILE is .npy, .safetensors, CSV or whitespace-separated
text (one row per line), or raw little-endian float32 (give --rows and/or --dim).

  --name T      the tensor of a .safetensors file (needed when it holds several)
  --rows N      rows of a raw float32 file (checked against other files)
  --dim D       columns of a raw float32 file (checked against other files)
  --kind K      auto (default), table (sine-cosine pairs) or cos-sin (a RoPE cos or sin cache)
  --json        print the facts as one JSON object instead of the report
  -h, --help    print this help
`;

class InputError extends Error {}
const usage = (message) => Object.assign(new InputError(message), { exitCode: 2 });
const refused = (message) => Object.assign(new InputError(message), { exitCode: 1 });

/** 1 ... 2^32 - 1 from decimal digits; 0 when not. */
function parseCount(text) {
  if (!/^[0-9]{1,10}$/.test(text)) return 0;
  const value = Number(text);
  return value <= 4294967295 ? value : 0;
}

function parseArgs(argv) {
  const o = { file: undefined, name: undefined, kind: 'auto', rows: 0, dim: 0, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') {
      o.json = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      if (o.file !== undefined) throw usage(`identify reads one FILE; '${arg}' is a second one`);
      o.file = arg;
      continue;
    }
    const eq = arg.indexOf('=');
    const option = (eq < 0 ? arg : arg.slice(0, eq)).slice(0, 31);
    const value = eq >= 0 ? arg.slice(eq + 1) : i + 1 < argv.length ? argv[++i] : undefined;
    if (!['--name', '--rows', '--dim', '--kind'].includes(option))
      throw usage(`unknown option '${option}' for identify (see posenc identify --help)`);
    if (value === undefined) throw usage(`${option} needs a value`);
    if (option === '--name') o.name = value;
    else if (option === '--kind') o.kind = value;
    else {
      const n = parseCount(value);
      if (!n) throw usage(`${option} must be an integer from 1 to 4294967295; got ${value}`);
      o[option.slice(2)] = n;
    }
  }
  if (o.file === undefined)
    throw usage('identify needs a FILE (.npy, .safetensors, CSV or raw float32; see posenc identify --help)');
  if (!['auto', 'table', 'cos-sin'].includes(o.kind))
    throw usage(`--kind must be auto, table or cos-sin; got ${o.kind}`);
  return o;
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
          throw refused(`line ${index + 1}, field ${k + 1}: '${field.slice(0, 40)}' is not a number`);
        return;
      }
      if (header) throw refused(`line ${index + 1} mixes names and numbers`);
      numbers.push(value);
    });
    if (header) return;
    if (rows === 0) dim = numbers.length;
    else if (numbers.length !== dim)
      throw refused(`line ${index + 1} has ${numbers.length} numbers; the first row has ${dim}`);
    for (const v of numbers) values.push(v);
    rows++;
  });
  if (rows === 0) throw refused('the text holds no numbers');
  if ((wantRows && rows !== wantRows) || (wantDim && dim !== wantDim))
    throw refused(`the table is ${rows} x ${dim}, not the --rows/--dim given`);
  return { table: Float32Array.from(values), rows, dim };
}

function readRaw(bytes, wantRows, wantDim) {
  if (!wantRows && !wantDim) throw refused('a raw float32 file needs --rows and/or --dim');
  if (bytes.length % 4) throw refused(`a raw float32 file has a multiple of 4 bytes; this one has ${bytes.length}`);
  const count = bytes.length / 4;
  const rows = wantRows || Math.floor(count / wantDim);
  const dim = wantDim || Math.floor(count / wantRows);
  if (rows * dim !== count) throw refused(`the file holds ${count} floats, not --rows x --dim`);
  const table = new Float32Array(count);
  new Uint8Array(table.buffer).set(bytes);
  return { table, rows, dim };
}

function readAny(bytes, o) {
  if (isNpy(bytes) || isSafetensors(bytes)) {
    const shape = { rows: o.rows || undefined, dim: o.dim || undefined };
    return readTable(bytes, o.name === undefined ? shape : { name: o.name, ...shape });
  }
  if (o.name !== undefined) throw refused('--name is for .safetensors files');
  return isText(bytes) ? readText(bytes, o.rows, o.dim) : readRaw(bytes, o.rows, o.dim);
}

/** Runs `posenc identify`; returns the exit code. posenc: an instance (instance.js). */
export async function runIdentify(argv, loadPosenc, write) {
  if (argv.includes('--help') || argv.includes('-h')) {
    await write(IDENTIFY_USAGE);
    return 0;
  }
  let o;
  try {
    o = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`posenc: ${error.message}\n`);
    return error.exitCode ?? 2;
  }
  let bytes;
  try {
    bytes = new Uint8Array(await readFile(o.file));
  } catch {
    process.stderr.write(`posenc: cannot read '${o.file}'\n`);
    return 1;
  }
  try {
    const { table, rows, dim } = readAny(bytes, o);
    const posenc = await loadPosenc();
    const result = posenc.identify(table, { rows, dim, kind: o.kind });
    await write(o.json ? result.json + '\n' : result.text);
    return 0;
  } catch (error) {
    process.stderr.write(`posenc: ${error.message}\n`);
    return 1;
  }
}
