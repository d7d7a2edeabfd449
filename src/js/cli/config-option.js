// `--config FILE` of the rope and alibi subcommands: the file read whole and
// interpreted by the core (fromConfig, through wasm), with the messages of
// src/cli/config_option.c.
import { PosencError } from '../runtime/errors.js';
import { fail } from './args.js';
import { readInput, MAX_CONFIG_BYTES } from './read-input.js';

const quoted = (names) => names.map((n) => `'${n}'`).join(', ');

/** A config file's text for the CLI option or command `what` (capped at MAX_CONFIG_BYTES), or the CLI's failure. */
export function readConfigText(what, path) {
  const bytes = readInput(what, 'a config.json', path, MAX_CONFIG_BYTES);
  try {
    // Strict UTF-8 with a BOM kept, as the core reads the bytes (which refuses both).
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    fail("config key '(config)' must be a JSON object: the text of a config.json", 1);
  }
}

/** fromConfig of the file for layerType (or undefined), or the CLI's failure. */
export function readConfigOption(posenc, path, layerType) {
  const text = readConfigText('--config', path);
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
