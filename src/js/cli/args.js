// Argument parsing of `posenc table`, mirrored by src/cli/args.c: the same
// options, checks in the same order and the same messages, so the Node and
// native CLIs fail alike.
import { closest } from '../runtime/errors.js';
import { FORMATS } from './format.js';
import { PRESETS } from '../sinusoid/presets.js';

export const USAGE = `usage: posenc table --length N --dim D [options]

Prints the sinusoidal positional-encoding table of positions offset ... offset+N-1
(one row per position, D columns).

  --length N    number of positions, 0 to 2147483648 (required)
  --dim D       embedding size, even, 2 to 65536 (required)
  --base T      frequency base, a finite number above 1 (default 10000)
  --offset P    first position (default 0); offset + length <= 2147483648
  --layout L    interleaved [s0 c0 s1 c1 ...] or split [s0 s1 ... c0 c1 ...] (default interleaved)
  --frequencies F  paper, w_i = T^(-2i/D), or tensor2tensor, w_i = T^(-i/(D/2-1)) (default paper)
  --preset P    vaswani, tensor2tensor, fairseq or marian: sets --layout and --frequencies
  --format F    text (4 decimals), csv or json (9 decimals), npy (NumPy .npy float32)
                or f32 (raw little-endian float32) (default text)
  --kernels K   auto, simd or scalar (default auto); all give the same bits
  -h, --help    print this help
`;

const OPTIONS = [
  '--length',
  '--dim',
  '--base',
  '--offset',
  '--layout',
  '--format',
  '--kernels',
  '--frequencies',
  '--preset',
];
const MAX_POSITION = 2147483648;

export class UsageError extends Error {}

const fail = (message) => {
  throw new UsageError(message);
};

/** Decimal digits only, at most 2^31; undefined when not. */
function parseCount(text) {
  if (!/^[0-9]{1,12}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_POSITION ? value : undefined;
}

/** A plain decimal number (no hex, inf or spaces), so C's strtod and JS agree on its value. */
function parseDecimal(text) {
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * @param {string[]} argv arguments after the program name
 * @returns {{help: true} | {length: number, dim: number, base: number, offset: number,
 *           layout: string, frequencies: string, format: string, kernels: string}}
 */
export function parseArgs(argv) {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  if (argv.length === 0) fail("missing command: try 'posenc table --length 10 --dim 4' or 'posenc --help'");
  if (argv[0] !== 'table') fail(`unknown command '${argv[0]}'; the only command is 'table' (see posenc --help)`);
  const given = {};
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) fail(`unexpected argument '${arg}' (options start with --; see posenc --help)`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (!OPTIONS.includes(name)) {
      const guess = closest(name, OPTIONS);
      fail(`unknown option '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}`);
    }
    if (eq >= 0) given[name] = arg.slice(eq + 1);
    else if (i + 1 < argv.length) given[name] = argv[++i];
    else fail(`${name} needs a value`);
  }

  if (given['--dim'] === undefined) fail('--dim is required (the embedding size, an even number from 2 to 65536)');
  if (given['--length'] === undefined) fail('--length is required (the number of positions)');
  const dim = parseCount(given['--dim']);
  if (dim === undefined || dim < 2 || dim > 65536)
    fail(`--dim must be an even integer from 2 to 65536; got ${given['--dim']}`);
  if (dim % 2 !== 0) fail(`--dim must be an even number (sines and cosines come in pairs); got ${given['--dim']}`);
  const length = parseCount(given['--length']);
  if (length === undefined) fail(`--length must be an integer from 0 to 2147483648; got ${given['--length']}`);
  const offsetText = given['--offset'] ?? '0';
  const offset = parseCount(offsetText);
  if (offset === undefined) fail(`--offset must be an integer from 0 to 2147483648; got ${offsetText}`);
  if (offset + length > MAX_POSITION) fail(`--offset + --length must be at most 2147483648; got ${offset} + ${length}`);
  const baseText = given['--base'] ?? '10000';
  const base = parseDecimal(baseText);
  if (base === undefined || !Number.isFinite(base) || !(base > 1))
    fail(`--base must be a finite number above 1; got ${baseText}`);
  let layout = given['--layout'];
  let frequencies = given['--frequencies'];
  const preset = given['--preset'];
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
  const format = given['--format'] ?? 'text';
  if (!FORMATS.includes(format)) fail(`--format must be text, csv, json, npy or f32; got ${format}`);
  const kernels = given['--kernels'] ?? 'auto';
  if (!['auto', 'simd', 'scalar'].includes(kernels)) fail(`--kernels must be auto, simd or scalar; got ${kernels}`);
  return { length, dim, base, offset, layout, frequencies, format, kernels };
}
