// `posenc alibi`: ALiBi's slopes for --heads N or a model's config.json
// (src/cli/alibi_command.c prints the same bytes).
import { instantiate } from '../instance.js';
import { FORMATS } from '../shared/format.js';
import { fail } from './args.js';
import { formatOption, countOption, dtypeOption, valueList, COMMON_HELP } from './options.js';
import { readConfigOption } from './config-option.js';

export const usage = `usage: posenc alibi (--heads N | --config config.json) [options]

Prints ALiBi's slopes m_h, one per head (Press et al.; BLOOM's and MPT's): the float32 nearest
2^(-8(h+1)/n), with every other slope of 2n for the heads past the largest power of two.

  --heads N     number of attention heads, 1 to 65536
  --config FILE a model's config.json (BLOOM, MPT with attn_config.alibi, ...) instead of --heads
  --dtype T     float32 (the slopes' type, the only one)
  --format F    text (one value per line), csv or json, values with 9 significant digits; or the
                (heads,) float32 array: npy (<f4), f32 or raw (little-endian float32)
${COMMON_HELP}
examples:
  posenc alibi --heads 12
  posenc alibi --config bloom.json --format json
  posenc alibi --heads 32 --format npy --output slopes.npy
`;

export const options = ['--heads', '--config', '--dtype', '--format', '--output'];

export async function run(given, write) {
  const path = given.get('--config');
  if (path !== undefined && given.has('--heads')) fail('give --heads or --config, not both');
  if (path === undefined && !given.has('--heads'))
    fail('--heads is required (the number of attention heads), or --config');
  let heads = path === undefined ? countOption(given, '--heads', undefined, 1, 65536, 'an integer from 1 to 65536') : 0;
  dtypeOption(given, ['float32'], "float32 (the slopes' type)");
  const format = formatOption(given, FORMATS, 'text, csv, json, npy, f32 or raw');
  const posenc = await instantiate();
  if (path !== undefined) {
    const d = readConfigOption(posenc, path, undefined);
    if (d.kind !== 'alibi') fail(`the config describes a model with ${d.kind} positions, not ALiBi`, 1);
    heads = d.heads;
  }
  await write(valueList(posenc, format, 'float32', 'head', 'slope', posenc.alibiSlopes(heads)));
}
