// configToRopeOptions: `config` (a model's config.json) and `layerType` in
// place of headDim/rotaryDim/base/scaling, for every RoPE entry point
// (ropeFrequencies, rope, and the plans and caches built on the same options).
// The config is read by the core (../runtime/config-read.js); this file only
// merges.
import { PosencError } from '../runtime/errors.js';

// Options a config supplies; giving them beside `config` is refused, never merged silently.
const FROM_CONFIG = ['headDim', 'rotaryDim', 'base', 'scaling'];

/**
 * options with `config`/`layerType` replaced by what the config says, or
 * options unchanged when there is no config. `layout` (GPT-J and DeepSeek pair
 * adjacent elements), `heads` (num_attention_heads) and with it `kvHeads` (the
 * key/value heads of GQA/MQA) come from the config when the caller leaves
 * `heads` out and `call` takes them.
 */
export function configToRopeOptions(readConfigOnce, options, call, { layout = true, heads = true } = {}, layerOf) {
  if (options === null || typeof options !== 'object' || options.config === undefined) {
    for (const name of ['layerType', 'layer']) {
      if (options && typeof options === 'object' && options[name] !== undefined) {
        throw new PosencError(
          'BAD_OPTIONS',
          `${call}(): ${name} picks a ${name === 'layer' ? 'layer' : 'layer type'} of config, so it needs config`,
          name,
          options[name],
        );
      }
    }
    return options;
  }
  const { config, layer, ...withType } = options;
  if (layer !== undefined && withType.layerType !== undefined) {
    throw new PosencError('BAD_OPTIONS', `${call}(): give 'layer' or 'layerType', not both`, 'layer', layer);
  }
  const fromLayer = layer !== undefined && layerOf ? layerOf(config, layer, call) : undefined;
  const { layerType = fromLayer, ...rest } = withType;
  for (const name of FROM_CONFIG) {
    if (rest[name] !== undefined) {
      throw new PosencError(
        'BAD_OPTIONS',
        `${call}(): give 'config' or '${name}', not both (the config sets ${name})`,
        name,
        rest[name],
      );
    }
  }
  const read = readConfigOnce(config, layerType);
  if (read.layerTypes) {
    throw new PosencError(
      'BAD_LAYER_TYPE',
      `${call}(): the config's RoPE differs by layer type: pass layerType, one of ${read.layerTypes.map((l) => `'${l}'`).join(', ')}`,
      'layerType',
      layerType,
    );
  }
  const d = read.description;
  if (d.kind !== 'rope') {
    throw new PosencError(
      'BAD_CONFIG',
      `${call}(): 'config' describes a model with ${d.kind} positions, not RoPE (see fromConfig)`,
      'config',
      undefined,
    );
  }
  const merged = { ...rest, headDim: d.rope.headDim, rotaryDim: d.rope.rotaryDim, base: d.rope.base };
  if (d.rope.scaling !== null) merged.scaling = d.rope.scaling;
  if (layout && merged.layout === undefined) merged.layout = d.rope.layout;
  // The config gives the pair (num_attention_heads, the key/value count); a given `heads` overrides the pair.
  if (heads && merged.heads === undefined && d.heads !== undefined) {
    merged.heads = d.heads;
    if (merged.kvHeads === undefined && d.kvHeads !== undefined) merged.kvHeads = d.kvHeads;
  }
  return merged;
}

/** The scaling without Qwen2-VL's mrope_section: the frequencies do not depend on how pairs split over t/h/w. */
export function withoutSections(options) {
  const given = options && typeof options === 'object' ? options.scaling : undefined; // once: a getter may change
  if (!given || typeof given !== 'object' || given.mrope_section === undefined) return options;
  const { mrope_section: _, mrope_interleaved: __, ...scaling } = given;
  const plain = Object.keys(scaling).every((k) => k === 'rope_type' && scaling[k] === 'default');
  return { ...options, scaling: plain ? undefined : scaling };
}
