// `posenc rope --config config.json`: a model's RoPE frequencies, attention
// factor or cos/sin cache rows (plain, mrope or 2-D positions: rope-axes.js)
// (src/cli/rope_command.c prints the same bytes).
import { instantiate } from '../runtime/instance.js';
import { formatValues, formatRows, prologue, epilogue } from './format.js';
import { fail } from './args.js';
import { formatOption, countOption, dtypeOption, narrowValues, COMMON_HELP } from './options.js';
import { readConfigOption } from './config-option.js';
import { ropeAxesOptions } from './rope-axes.js';
import { withoutSections } from '../config/rope-config.js';

export const usage = `usage: posenc rope --config config.json [options]

Prints the RoPE frequencies w_i (one per rotated pair) of a model's config.json, read as HF
transformers reads it (rope_theta, rope_scaling / rope_parameters, partial_rotary_factor, ...),
its attention factor, or its cos/sin cache rows.

  --config FILE      a model's config.json (required)
  --layer-type T     the layer type, when the RoPE differs by layer type (Gemma 3: full_attention
                     or sliding_attention)
  --length N         positions offset ... offset+N-1 (default 0); dynamic NTK scales for
                     L = offset + N
  --offset P         first position (default 0)
  --position-ids IDS the rows' positions instead of --offset/--length, one row of ids per axis:
                     0,1,2 (plain RoPE), T;H;W rows for mrope (0,1,1;0,0,1;0,1,0), R;C rows for
                     --vision, or @FILE with one row per line; whole numbers below 2^31,
                     separated by ',' or blanks; dynamic NTK scales for L = the largest + 1
  --mrope-section S  Qwen2-VL's mrope: pairs per axis T,H,W summing to rotary_dim/2 (16,24,24
                     for head_dim 128); the config's rope_scaling.mrope_section is used without it
  --vision           2-D RoPE of vision patches (Qwen2-VL's vision tower): the first half of the
                     pairs turn by the patch's row, the second by its column
  --what W           frequencies (default), attention-factor, or cos-sin: one line per row,
                     cos of the rotary_dim/2 pairs then their sin, times the attention factor (the
                     package's ropeCosSin; with axes, HF's cos/sin after the section split)
  --dtype T          float64 (default: the core's values), float32, float16 or bfloat16: each
                     value rounded once to that type; cos-sin: float32 (default: the products
                     rope multiplies by), float16 or bfloat16
  --format F         text (one value per line), csv or json; 17 significant digits for float64,
                     9 for the others; cos-sin as \`posenc table\` prints rows (text 4 decimals, csv
                     and json 9; csv's first column is the position, or the row with --position-ids)
${COMMON_HELP}`;

const MAX_COS_VALUES = 16777216; // 2^24 a run: the cache is built whole before it is printed

export const options = [
  '--config',
  '--layer-type',
  '--length',
  '--offset',
  '--position-ids',
  '--mrope-section',
  '--what',
  '--dtype',
  '--format',
  '--output',
];
export const flags = ['--vision'];

/** The cos/sin cache rows [cos | sin] (rotaryDim values a row) in format, as the package's ropeCosSin gives them. */
async function writeCosSin(posenc, spelled, axes, rows, dtype, format, write) {
  const r = spelled.rotaryDim ?? spelled.headDim;
  const half = r / 2;
  if (rows.length * half > MAX_COS_VALUES) {
    fail(
      `--what cos-sin prints at most 16777216 cos values (rows x rotary_dim/2) in one run; got ${rows.length} rows x ${half} pairs`,
    );
  }
  const where = rows.ids === null ? { offset: rows.offset, length: rows.length } : { positions: rows.ids };
  // float32: the core's own products; the others rounded once from its float64 values.
  const asked = dtype === 'float32' ? 'float32' : 'float64';
  let { cos, sin } = posenc.ropeCosSin({ ...spelled, ...axes, ...where, dtype: asked });
  if (asked === 'float64') [cos, sin] = [narrowValues(posenc, dtype, cos), narrowValues(posenc, dtype, sin)];
  const line = new Float32Array(r);
  let text = prologue(format, rows.length, r);
  for (let l = 0; l < rows.length; l++) {
    line.set(cos.subarray(l * half, (l + 1) * half));
    line.set(sin.subarray(l * half, (l + 1) * half), half);
    text += formatRows(format, line, 1, r, l, rows.ids === null ? rows.offset + l : l);
    if (text.length > 1 << 16) (await write(text), (text = ''));
  }
  await write(text + epilogue(format, rows.length));
}

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
  const dtype =
    what === 'cos-sin'
      ? dtypeOption(given, ['float32', 'float16', 'bfloat16'], 'float32, float16 or bfloat16 with --what cos-sin')
      : dtypeOption(given, ['float64', 'float32', 'float16', 'bfloat16'], 'float64, float32, float16 or bfloat16');
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
  const scaled = scaling !== null && scaling !== undefined && scaling.rope_type !== 'default';
  const { axes, rows } = ropeAxesOptions(given, { rotaryDim, scaling, scaled }, { offset, length });
  const spelled = withoutSections({ headDim, rotaryDim, base, scaling: scaling ?? undefined });
  if (what === 'cos-sin') return writeCosSin(posenc, spelled, axes, rows, dtype, format, write);
  const { frequencies, attentionFactor } = posenc.ropeFrequencies({ ...spelled, ...axes, length: rows.end });
  const digits = dtype === 'float64' ? 16 : 8;
  if (what === 'frequencies')
    await write(formatValues(format, 'pair', 'frequency', narrowValues(posenc, dtype, frequencies), digits));
  else
    await write(
      formatValues(format, 'index', 'attention_factor', narrowValues(posenc, dtype, [attentionFactor]), digits),
    );
}
