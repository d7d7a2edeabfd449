// `posenc table2d`: MAE's 2-D sin-cos table (src/cli/table2d_command.c prints the same bytes).
import { instantiate } from '../instance.js';
import { formatRows, prologue, epilogue, float32Bytes } from '../shared/format.js';
import { fail, flagOn, parseDecimal } from './args.js';
import { formatOption, kernelsOption, countOption, dtypeOption, TABLE_FORMATS_HELP, COMMON_HELP } from './options.js';

const MAX_FLOATS = 2 ** 28; // one call's table: 1 GiB of float32

export const usage = `usage: posenc table2d --height H --width W --dim D [options]

Prints the 2-D sin-cos table of a H x W grid of patches as MAE builds it (one row per patch,
row-major; the first D/2 columns encode the column x, the last D/2 the row y).

  --height H    grid rows, 1 to 65536 (required)
  --width W     grid columns, 1 to 65536 (required)
  --dim D       embedding size, a multiple of 4, 4 to 65536 (required)
  --base T      frequency base, above 1 and at most 1e300 (default 10000)
  --cls-token   a leading row of zeros for the class token (--no-cls-token: none, the default)
  --dtype T     float32 (the table's type, the only one)
${TABLE_FORMATS_HELP}${COMMON_HELP}
examples:
  posenc table2d --height 14 --width 14 --dim 768 --cls-token --format npy --output pos.npy
  posenc table2d --height 2 --width 3 --dim 8 --format csv
`;

export const options = ['--height', '--width', '--dim', '--base', '--dtype', '--format', '--kernels', '--output'];

export const flags = ['--cls-token'];

export async function run(given, write) {
  const range = 'an integer from 1 to 65536';
  const height = countOption(given, '--height', undefined, 1, 65536, range);
  const width = countOption(given, '--width', undefined, 1, 65536, range);
  const dim = countOption(given, '--dim', undefined, 4, 65536, 'a multiple of 4 from 4 to 65536');
  if (dim % 4 !== 0) fail(`--dim must be a multiple of 4 from 4 to 65536; got ${given.get('--dim')}`);
  const baseText = given.get('--base');
  const base = baseText === undefined ? 10000 : parseDecimal(baseText);
  if (base === undefined || !(base > 1 && base <= 1e300))
    fail(`--base must be above 1 and at most 1e300; got ${baseText}`);
  const cls = flagOn(given, '--cls-token');
  dtypeOption(given, ['float32'], "float32 (the table's type)");
  const format = formatOption(given, ['text', 'csv', 'json', 'npy', 'f32', 'raw'], 'text, csv, json, npy, f32 or raw');
  const kernels = kernelsOption(given);
  const rows = height * width + (cls ? 1 : 0);
  if (rows * dim > MAX_FLOATS)
    fail(`the table has ${rows * dim} values, more than one call makes (2^28): ask for a smaller grid`);
  const posenc = await instantiate(kernels);
  const values = posenc.sinusoidal2d({ height, width, dim, base, clsToken: cls });
  await write(prologue(format, rows, dim));
  await write(
    ['npy', 'f32', 'raw'].includes(format) ? float32Bytes(values) : formatRows(format, values, rows, dim, 0, 0),
  );
  await write(epilogue(format, rows));
}
