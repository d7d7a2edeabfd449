// `posenc rope --config config.json`: a model's RoPE frequencies or attention
// factor (src/cli/rope_command.c prints the same bytes).
import { instantiate } from '../runtime/instance.js';
import { formatValues } from './format.js';
import { fail } from './args.js';
import { formatOption, countOption, dtypeOption, narrowValues, COMMON_HELP } from './options.js';
import { readConfigOption } from './config-option.js';
import { withoutSections } from '../config/rope-config.js';

export const usage = `usage: posenc rope --config config.json [options]

Prints the RoPE frequencies w_i (one per rotated pair) of a model's config.json, read as HF
transformers reads it (rope_theta, rope_scaling / rope_parameters, partial_rotary_factor, ...).

  --config FILE      a model's config.json (required)
  --layer-type T     the layer type, when the RoPE differs by layer type (Gemma 3: full_attention
                     or sliding_attention)
  --length N         positions offset ... offset+N-1 (default 0); dynamic NTK scales for
                     L = offset + N
  --offset P         first position (default 0)
  --what W           frequencies (default) or attention-factor; cos-sin arrives with the cos/sin
                     caches
  --dtype T          float64 (default: the core's values), float32, float16 or bfloat16: each
                     value rounded once to that type
  --format F         text (one value per line), csv or json; 17 significant digits for float64,
                     9 for the others
${COMMON_HELP}`;

export const options = [
  '--config',
  '--layer-type',
  '--length',
  '--offset',
  '--what',
  '--dtype',
  '--format',
  '--output',
];

export async function run(given, write) {
  const path = given.get('--config');
  if (path === undefined) fail("--config is required (a model's config.json)");
  const range = 'an integer from 0 to 2147483648';
  const length = countOption(given, '--length', '0', 0, 2147483648, range);
  const offset = countOption(given, '--offset', '0', 0, 2147483648, range);
  if (offset + length > 2147483648) fail(`--offset + --length must be at most 2147483648; got ${offset} + ${length}`);
  const what = given.get('--what') ?? 'frequencies';
  if (!['frequencies', 'attention-factor', 'cos-sin'].includes(what))
    fail(`--what must be frequencies, attention-factor or cos-sin; got ${what}`);
  if (what === 'cos-sin')
    fail('--what cos-sin is not available yet: it needs the cos/sin caches (use --what frequencies)');
  const dtypes = ['float64', 'float32', 'float16', 'bfloat16'];
  const dtype = dtypeOption(given, dtypes, 'float64, float32, float16 or bfloat16');
  const format = formatOption(given, ['text', 'csv', 'json'], 'text, csv or json');
  const posenc = await instantiate();
  const layerType = given.get('--layer-type');
  const d = readConfigOption(posenc, path, layerType);
  if (d.kind !== 'rope')
    fail(
      `the config describes a model with ${d.kind} positions, not RoPE (see posenc ${d.kind === 'alibi' ? 'alibi' : 'rope --help'} --config)`,
      1,
    );
  if (d.rope.scaling?.rope_type === 'longrope') {
    fail(
      "rope_type 'longrope' is not supported yet: HF's short/long factors arrive with the RoPE variants of issue 12",
      1,
    );
  }
  const { headDim, rotaryDim, base, scaling } = d.rope;
  const spelled = withoutSections({ headDim, rotaryDim, base, scaling: scaling ?? undefined, length: offset + length });
  const { frequencies, attentionFactor } = posenc.ropeFrequencies(spelled);
  const digits = dtype === 'float64' ? 16 : 8;
  if (what === 'frequencies')
    await write(formatValues(format, 'pair', 'frequency', narrowValues(posenc, dtype, frequencies), digits));
  else
    await write(
      formatValues(format, 'index', 'attention_factor', narrowValues(posenc, dtype, [attentionFactor]), digits),
    );
}
