// The RoPE description given by flags instead of --config (`posenc rope
// --head-dim 128 --base 500000 --scaling llama3 ...`), with the checks and
// messages of src/cli/rope_flags_option.c. The parameters are HF's
// rope_scaling keys spelled as flags (factor -> --factor,
// original_max_position_embeddings -> --original-max-position-embeddings),
// each read by the rope types that read the key (src/js/rope/scaling.js).
import { fail, parseCount, parseDecimal } from './args.js';
import { countOption } from './options.js';

/** The description flags, in the order they are checked (from --factor on: the scaling's parameters). */
export const DESCRIPTION_OPTIONS = [
  '--head-dim',
  '--rotary-dim',
  '--base',
  '--scaling',
  '--factor',
  '--original-max-position-embeddings',
  '--beta-fast',
  '--beta-slow',
  '--attention-factor',
  '--mscale',
  '--mscale-all-dim',
  '--low-freq-factor',
  '--high-freq-factor',
  '--truncate',
];

const YARN = [
  '--factor',
  '--original-max-position-embeddings',
  '--beta-fast',
  '--beta-slow',
  '--attention-factor',
  '--mscale',
  '--mscale-all-dim',
  '--truncate',
];
// The --scaling types and the parameters each reads.
const READS = {
  default: [],
  linear: ['--factor'],
  dynamic: ['--factor', '--original-max-position-embeddings'],
  yarn: YARN,
  llama3: ['--factor', '--original-max-position-embeddings', '--low-freq-factor', '--high-freq-factor'],
};
const FLOAT_MAX = 3.4028234663852886e38;

/** The first description flag given, or undefined. */
export const descriptionGiven = (given) => DESCRIPTION_OPTIONS.find((name) => given.has(name));

/** A finite decimal of `name` at least min (above it when `above`), or undefined when absent. */
function number(given, name, min, above, what) {
  const text = given.get(name);
  if (text === undefined) return undefined;
  const v = parseDecimal(text);
  if (v === undefined || !Number.isFinite(v) || v < min || (above && v === min))
    fail(`${name} must be ${what}; got ${text}`);
  return v;
}

/** { headDim, rotaryDim, base, scaling } as the package takes them (scaling: an HF rope_scaling dict or undefined). */
export function ropeFlags(given) {
  const headDim = countOption(given, '--head-dim', undefined, 2, 65536, 'an integer from 2 to 65536');
  const rotaryText = given.get('--rotary-dim');
  if (rotaryText === undefined && headDim % 2 !== 0)
    fail(`--head-dim must be even (RoPE turns pairs) unless --rotary-dim is given; got ${headDim}`);
  let rotaryDim = headDim;
  if (rotaryText !== undefined) {
    rotaryDim = parseCount(rotaryText);
    if (rotaryDim === undefined || rotaryDim < 2 || rotaryDim > headDim || rotaryDim % 2 !== 0)
      fail(`--rotary-dim must be an even integer from 2 to --head-dim (${headDim}); got ${rotaryText}`);
  }
  const base = number(given, '--base', 1, true, 'a number above 1 and at most 1e300') ?? 10000;
  if (base > 1e300) fail(`--base must be a number above 1 and at most 1e300; got ${given.get('--base')}`);
  const type = given.get('--scaling') ?? 'default';
  if (!Object.hasOwn(READS, type)) fail(`--scaling must be default, linear, dynamic, yarn or llama3; got ${type}`);
  for (const name of DESCRIPTION_OPTIONS.slice(4)) {
    if (given.has(name) && !READS[type].includes(name))
      fail(`${name} is not a parameter of --scaling ${type} (${READS[type].join(', ') || 'it has none'})`);
  }
  const rope = { headDim, rotaryDim, base, scaling: undefined };
  if (type === 'default') return rope;
  if (!given.has('--factor')) fail(`--factor is required with --scaling ${type} (a number at least 1)`);
  const scaling = { rope_type: type, factor: number(given, '--factor', 1, false, 'a number at least 1') };
  rope.scaling = scaling;
  if (type === 'linear') return rope;
  const original = given.get('--original-max-position-embeddings');
  if (original === undefined)
    fail(
      `--original-max-position-embeddings is required with --scaling ${type} (the context length the model was trained with)`,
    );
  if (!/^[0-9]+$/.test(original) || Number(original) < 1 || Number(original) > 4294967295)
    fail(`--original-max-position-embeddings must be an integer from 1 to 4294967295; got ${original}`);
  scaling.original_max_position_embeddings = Number(original);
  if (type === 'dynamic' && rotaryDim < 4)
    fail(`--scaling dynamic needs a rotary dimension of at least 4; got ${rotaryDim}`);
  if (type === 'yarn') {
    const betaFast = number(given, '--beta-fast', 0, false, 'a number at least 0 (0: 32)');
    const betaSlow = number(given, '--beta-slow', 0, false, 'a number at least 0 (0: 1)');
    const attention = number(given, '--attention-factor', 0, true, 'a number above 0 and below 3.4e38');
    const mscale = number(given, '--mscale', -Infinity, false, 'a finite number');
    const mscaleAllDim = number(given, '--mscale-all-dim', -Infinity, false, 'a finite number');
    if (attention > FLOAT_MAX)
      fail(`--attention-factor must be a number above 0 and below 3.4e38; got ${given.get('--attention-factor')}`);
    // 0 is the core's "use HF's default" for the betas, as absent.
    if (betaFast) scaling.beta_fast = betaFast;
    if (betaSlow) scaling.beta_slow = betaSlow;
    if (attention !== undefined) scaling.attention_factor = attention;
    if (mscale !== undefined) scaling.mscale = mscale;
    if (mscaleAllDim !== undefined) scaling.mscale_all_dim = mscaleAllDim;
    if (given.get('--truncate') === 'false') scaling.truncate = false;
  }
  if (type === 'llama3') {
    for (const name of ['--low-freq-factor', '--high-freq-factor'])
      if (!given.has(name)) fail(`${name} is required with --scaling llama3 (a number above 0)`);
    const low = number(given, '--low-freq-factor', 0, true, 'a number above 0');
    scaling.low_freq_factor = low;
    scaling.high_freq_factor = number(given, '--high-freq-factor', low, true, 'a number above --low-freq-factor');
  }
  return rope;
}
