// Option checks several subcommands share, with the messages of src/cli/options.c.
import { fail, parseCount } from './args.js';
import { bitsToFloat32 } from '../precision/bits.js';
import { formatValues, npyHeaderOf, littleEndianBytes } from '../shared/format.js';

/** --format among `allowed` (default text). */
export function formatOption(given, allowed, listed) {
  const format = given.get('--format') ?? 'text';
  if (!allowed.includes(format)) fail(`--format must be ${listed}; got ${format}`);
  return format;
}

/** --dtype among `allowed` (default the first). */
export function dtypeOption(given, allowed, listed) {
  const dtype = given.get('--dtype') ?? allowed[0];
  if (!allowed.includes(dtype)) fail(`--dtype must be ${listed}; got ${dtype}`);
  return dtype;
}

/** f32 only for float32 and npy not for bfloat16 (NumPy lacks it). */
export function dtypeFormatCheck(dtype, format) {
  if (dtype !== 'float32' && format === 'f32')
    fail(`--format f32 writes float32: use --format raw for --dtype ${dtype}`);
  if (dtype === 'bfloat16' && format === 'npy')
    fail('--format npy has no bfloat16 (NumPy lacks the type): use --format raw');
}

/**
 * float64 values as the dtype's nearest values, rounded once (the package's
 * roundToBits for the 16-bit types, Math.fround for float32), as numbers.
 */
export function narrowValues(posenc, dtype, values) {
  if (dtype === 'float64') return values;
  if (dtype === 'float32') return Float64Array.from(values, Math.fround);
  return Float64Array.from(bitsToFloat32(posenc.roundToBits(values, { dtype }), { dtype }));
}

/**
 * Values, each already rounded to dtype (narrowValues), as a list: text, csv or json (formatValues;
 * 17 significant digits for float64, 9 for the others), or a 1-D array of the dtype in npy (<f8,
 * <f4, <f2), f32 or raw (its little-endian bytes); src/cli/options.c cli_write_value_list writes the
 * same bytes. dtypeFormatCheck has refused f32 beside a dtype other than float32 and npy beside bfloat16.
 */
export function valueList(posenc, format, dtype, indexName, valueName, values) {
  if (['text', 'csv', 'json'].includes(format))
    return formatValues(format, indexName, valueName, values, dtype === 'float64' ? 16 : 8);
  const typed =
    dtype === 'float64'
      ? Float64Array.from(values)
      : dtype === 'float32'
        ? Float32Array.from(values)
        : Uint16Array.from(posenc.roundToBits(Float64Array.from(values), { dtype }));
  const descr = { float64: '<f8', float32: '<f4', float16: '<f2' }[dtype];
  const data = littleEndianBytes(typed);
  if (format !== 'npy') return data;
  const header = npyHeaderOf([values.length], descr);
  const bytes = new Uint8Array(header.length + data.length);
  bytes.set(header);
  bytes.set(data, header.length);
  return bytes;
}

/** --kernels as instantiate() takes it. */
export function kernelsOption(given) {
  const kernels = given.get('--kernels') ?? 'auto';
  if (!['auto', 'simd', 'scalar'].includes(kernels)) fail(`--kernels must be auto, simd or scalar; got ${kernels}`);
  return kernels === 'auto' ? {} : { simd: kernels === 'simd' };
}

/** A count option from min to max; `fallback` when absent (undefined: required). */
export function countOption(given, name, fallback, min, max, what) {
  const text = given.get(name) ?? fallback;
  if (text === undefined) fail(`${name} is required (${what})`);
  const value = parseCount(text);
  if (value === undefined || value < min || value > max) fail(`${name} must be ${what}; got ${text}`);
  return value;
}

/** Usage lines several subcommands share (src/cli/commands.h). */
export const TABLE_FORMATS_HELP = `  --format F    text (4 decimals), csv or json (9 decimals), npy (NumPy .npy float32)
                f32 (raw little-endian float32) or raw (the --dtype's own little-endian bytes)
                (default text)
  --kernels K   auto, simd or scalar (default auto); all give the same bits
`;
export const COMMON_HELP = `  --output FILE write to FILE instead of standard output
  --version     print the version
  -h, --help    print this help
`;
