// `posenc table`: the sinusoidal table (src/cli/table_command.c prints the same bytes).
import { instantiate } from '../instance.js';
import { formatRows, prologue, epilogue, float32Bytes, uint16Bytes } from '../shared/format.js';
import { bitsToFloat32 } from '../precision/bits.js';
import { forEachChunk, BLOCK } from '../runtime/chunks.js';
import { PRESETS } from '../sinusoid/presets.js';
import { fail, parseCount, parseDecimal } from './args.js';
import {
  formatOption,
  kernelsOption,
  dtypeOption,
  dtypeFormatCheck,
  TABLE_FORMATS_HELP,
  COMMON_HELP,
} from './options.js';

// Rows are generated, formatted and written about this many floats at a time,
// and at least one 64-position block (the core's seed interval) per chunk.
const CHUNK_FLOATS = 65536;
const MAX_POSITION = 2147483648;

export const usage = `usage: posenc table --length N --dim D [options]

Prints the sinusoidal positional-encoding table of positions offset ... offset+N-1
(one row per position, D columns).

  --length N    number of positions, 0 to 2147483648 (required)
  --dim D       embedding size, even, 2 to 65536 (required)
  --base T      frequency base, above 1 and at most 1e300 (default 10000)
  --offset P    first position (default 0); offset + length <= 2147483648
  --layout L    interleaved [s0 c0 s1 c1 ...] or split [s0 s1 ... c0 c1 ...] (default interleaved)
  --frequencies F  paper, w_i = T^(-2i/D), or tensor2tensor, w_i = T^(-i/(D/2-1)) (default paper)
  --preset P    vaswani, tensor2tensor, fairseq or marian: sets --layout and --frequencies
  --dtype T     float32 (default), float16 or bfloat16: each value the nearest of that type
${TABLE_FORMATS_HELP}${COMMON_HELP}
examples:
  posenc table --length 10 --dim 4
  posenc table --length 2048 --dim 512 --format npy --output pe.npy
  posenc table --length 8 --dim 16 --preset tensor2tensor --format csv
  posenc table --length 4096 --dim 128 --dtype bfloat16 --format raw --output pe.bf16
`;

export const options = [
  '--length',
  '--dim',
  '--base',
  '--offset',
  '--layout',
  '--format',
  '--kernels',
  '--frequencies',
  '--preset',
  '--dtype',
  '--output',
];

function parse(given) {
  if (!given.has('--dim')) fail('--dim is required (the embedding size, an even number from 2 to 65536)');
  if (!given.has('--length')) fail('--length is required (the number of positions)');
  const dim = parseCount(given.get('--dim'));
  if (dim === undefined || dim < 2 || dim > 65536)
    fail(`--dim must be an even integer from 2 to 65536; got ${given.get('--dim')}`);
  if (dim % 2 !== 0) fail(`--dim must be an even number (sines and cosines come in pairs); got ${given.get('--dim')}`);
  const length = parseCount(given.get('--length'));
  if (length === undefined) fail(`--length must be an integer from 0 to 2147483648; got ${given.get('--length')}`);
  const offsetText = given.get('--offset') ?? '0';
  const offset = parseCount(offsetText);
  if (offset === undefined) fail(`--offset must be an integer from 0 to 2147483648; got ${offsetText}`);
  if (offset + length > MAX_POSITION) fail(`--offset + --length must be at most 2147483648; got ${offset} + ${length}`);
  const baseText = given.get('--base') ?? '10000';
  const base = parseDecimal(baseText);
  if (base === undefined || !(base > 1 && base <= 1e300))
    fail(`--base must be above 1 and at most 1e300; got ${baseText}`);
  let layout = given.get('--layout');
  let frequencies = given.get('--frequencies');
  const preset = given.get('--preset');
  if (preset !== undefined) {
    if (!Object.hasOwn(PRESETS, preset))
      fail(`--preset must be vaswani, tensor2tensor, fairseq or marian; got ${preset}`);
    const p = PRESETS[preset];
    if (layout !== undefined && layout !== p.layout)
      fail(`--layout must be ${p.layout} with --preset ${preset}; got ${layout}`);
    if (frequencies !== undefined && frequencies !== p.frequencies) {
      fail(`--frequencies must be ${p.frequencies} with --preset ${preset}; got ${frequencies}`);
    }
    ({ layout, frequencies } = p);
  }
  layout ??= 'interleaved';
  if (layout !== 'interleaved' && layout !== 'split') fail(`--layout must be interleaved or split; got ${layout}`);
  frequencies ??= 'paper';
  if (frequencies !== 'paper' && frequencies !== 'tensor2tensor')
    fail(`--frequencies must be paper or tensor2tensor; got ${frequencies}`);
  const format = formatOption(given, ['text', 'csv', 'json', 'npy', 'f32', 'raw'], 'text, csv, json, npy, f32 or raw');
  const dtype = dtypeOption(given, ['float32', 'float16', 'bfloat16'], 'float32, float16 or bfloat16');
  dtypeFormatCheck(dtype, format);
  return { length, dim, base, offset, layout, frequencies, format, dtype };
}

export async function run(given, write) {
  const { length, dim, base, offset, layout, frequencies, format, dtype } = parse(given);
  const posenc = await instantiate(kernelsOption(given));
  const maxRows = Math.max(BLOCK, Math.floor(CHUNK_FLOATS / dim));
  const wide = dtype === 'float32';
  const buffer = new (wide ? Float32Array : Uint16Array)(Math.min(maxRows, Math.max(length, 1)) * dim);
  await write(prologue(format, length, dim, dtype === 'float16' ? '<f2' : '<f4'));
  const chunks = [];
  forEachChunk(offset, length, maxRows, (start, rows) => chunks.push([start, rows]));
  for (const [start, rows] of chunks) {
    const out = buffer.subarray(0, rows * dim);
    const values = posenc.sinusoidal({
      length: rows,
      dim,
      base,
      offset: start,
      layout,
      frequencies,
      out,
      ...(wide ? {} : { dtype }),
    });
    if (['npy', 'f32', 'raw'].includes(format)) await write(wide ? float32Bytes(values) : uint16Bytes(values));
    else
      await write(
        formatRows(format, wide ? values : bitsToFloat32(values, { dtype }), rows, dim, start - offset, start),
      );
  }
  await write(epilogue(format, length));
}
