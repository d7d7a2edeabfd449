// `--config FILE` of the rope and alibi subcommands: the file read whole and
// interpreted by the core (fromConfig, through wasm), with the messages of
// src/cli/config_option.c.
import { readFileSync } from 'node:fs';
import { PosencError } from '../runtime/errors.js';
import { fail } from './args.js';

const quoted = (names) => names.map((n) => `'${n}'`).join(', ');

/** fromConfig of the file for layerType (or undefined), or the CLI's failure. */
export function readConfigOption(posenc, path, layerType) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    fail(`--config: could not read the file ${path}`);
  }
  let description;
  try {
    description = posenc.fromConfig(text, layerType === undefined ? undefined : { layerType });
  } catch (error) {
    if (!(error instanceof PosencError)) throw error;
    if (error.code === 'BAD_LAYER_TYPE') {
      if (error.layerTypes.length === 0)
        fail(`--layer-type is not used: the config's RoPE is the same for every layer; got ${layerType}`);
      fail(`--layer-type must be one of the config's layer types (${quoted(error.layerTypes)}); got ${layerType}`);
    }
    fail(error.message, 1);
  }
  if (description.layerTypes)
    fail(
      `--layer-type is required: the config's RoPE differs by layer type (${quoted(Object.keys(description.layerTypes))})`,
    );
  return description;
}
