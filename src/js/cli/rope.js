// `posenc rope --config config.json`: a model's RoPE frequencies, attention
// factor or cos/sin cache rows (plain, mrope or 2-D positions: rope-axes.js)
// (src/cli/rope_command.c prints the same bytes).
import { instantiate } from '../instance.js';
import { FORMATS, formatRows, prologue, epilogue, float32Bytes, uint16Bytes } from '../shared/format.js';
import { fail } from './args.js';
import {
  formatOption,
  countOption,
  dtypeOption,
  dtypeFormatCheck,
  narrowValues,
  valueList,
  COMMON_HELP,
} from './options.js';
import { readConfigOption } from './config-option.js';
import { ropeAxesOptions } from './rope-axes.js';
import { DESCRIPTION_OPTIONS, descriptionGiven, ropeFlags } from './rope-flags.js';
import { withoutSections } from '../rope/config-options.js';

export const usage = `usage: posenc rope (--config config.json | --head-dim D [RoPE flags]) [options]

Prints the RoPE frequencies w_i (one per rotated pair) of a model's config.json, read as HF
transformers reads it (rope_theta, rope_scaling / rope_parameters, partial_rotary_factor, ...),
or of the RoPE the flags below describe, its attention factor, or its cos/sin cache rows.

  --config FILE      a model's config.json (or the RoPE flags, not both)
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
                     9 for the others; npy (a 1-D array: <f8, <f4 or <f2 by --dtype), f32 (with
                     --dtype float32) or raw (the --dtype's own little-endian bytes); cos-sin as
                     \`posenc table\` prints rows (text 4 decimals, csv and json 9; csv's first column
                     is the position, or the row with --position-ids), npy (float32, or float16's
                     <f2), f32 (float32) or raw (the --dtype's own bytes)

RoPE flags (instead of --config; the parameters are HF's rope_scaling keys):
  --head-dim D       the head dimension, 2 to 65536 (required without --config)
  --rotary-dim R     the rotated dimensions, even, 2 to D (default D)
  --base B           rope_theta, above 1 and at most 1e300 (default 10000)
  --scaling T        default (none), linear, dynamic, yarn or llama3 (default default)
  --factor F         linear, dynamic, yarn, llama3: the scaling factor, at least 1
  --original-max-position-embeddings L
                     dynamic, yarn, llama3: the pre-training context length
  --beta-fast B, --beta-slow B, --attention-factor A, --mscale M, --mscale-all-dim M,
  --truncate, --no-truncate
                     yarn's parameters (HF's defaults when absent)
  --low-freq-factor L, --high-freq-factor H
                     llama3's parameters (required with it)

${COMMON_HELP}
examples:
  posenc rope --config config.json --length 8192 --format csv
  posenc rope --head-dim 128 --base 500000 --scaling linear --factor 4
  posenc rope --head-dim 128 --base 500000 --format npy --output inv_freq.npy
  posenc rope --head-dim 64 --what cos-sin --length 2048 --format npy --output cos_sin.npy
  posenc rope --config qwen2-vl.json --what cos-sin --position-ids '0,1,1;0,0,1;0,1,0'
`;

const MAX_COS_VALUES = 16777216; // 2^24 a run: the cache is built whole before it is printed

export const options = [
  '--config',
  '--layer-type',
  ...DESCRIPTION_OPTIONS.filter((name) => name !== '--truncate'),
  '--length',
  '--offset',
  '--position-ids',
  '--mrope-section',
  '--what',
  '--dtype',
  '--format',
  '--output',
];
export const flags = ['--vision', '--truncate'];

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
  const binary = ['npy', 'f32', 'raw'].includes(format);
  // npy and raw of a 16-bit type: the values' own bits (each narrowed value rounds to itself).
  const bytes16 = asked === 'float64' && (format === 'npy' || format === 'raw');
  await write(prologue(format, rows.length, r, dtype === 'float16' ? '<f2' : '<f4'));
  let text = '';
  for (let l = 0; l < rows.length; l++) {
    line.set(cos.subarray(l * half, (l + 1) * half));
    line.set(sin.subarray(l * half, (l + 1) * half), half);
    if (bytes16) await write(uint16Bytes(posenc.roundToBits(line, { dtype })));
    else if (binary) await write(float32Bytes(line));
    else text += formatRows(format, line, 1, r, l, rows.ids === null ? rows.offset + l : l);
    if (text.length > 1 << 16) (await write(text), (text = ''));
  }
  await write(text + epilogue(format, rows.length));
}

export async function run(given, write) {
  const path = given.get('--config');
  const flag = descriptionGiven(given);
  if (path !== undefined && flag !== undefined) fail(`give --config or ${flag}, not both (the config sets it)`);
  if (path === undefined && flag === undefined)
    fail("--config or --head-dim is required (a model's config.json, or the RoPE by flags: see posenc rope --help)");
  if (path === undefined && given.has('--layer-type'))
    fail('--layer-type picks a layer type of --config, so it needs --config');
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
  const format = formatOption(given, FORMATS, 'text, csv, json, npy, f32 or raw');
  dtypeFormatCheck(dtype, format);
  const posenc = await instantiate();
  const d =
    path === undefined
      ? { kind: 'rope', rope: ropeFlags(given) }
      : readConfigOption(posenc, path, given.get('--layer-type'));
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
  const [name, values] = what === 'frequencies' ? ['frequency', frequencies] : ['attention_factor', [attentionFactor]];
  await write(
    valueList(
      posenc,
      format,
      dtype,
      what === 'frequencies' ? 'pair' : 'index',
      name,
      narrowValues(posenc, dtype, values),
    ),
  );
}
