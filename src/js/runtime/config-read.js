// A model's config.json read by the C core (posenc.h, "Model configs";
// src/wasm/config.c): the one place configs are interpreted, so the package,
// both CLIs and the page read a config alike. This file stages the text,
// calls the core, turns its numbers (CONFIG's doubles, read by their C names:
// src/js/runtime/boundary.js) into a description, and maps the core's refusals
// to PosencErrors that name the config key. It is the runtime's because two
// families read through it: config (fromConfig) and rope (its `config` option).
import { PosencError, describe } from './errors.js';
import { CONFIG, CONFIG_LAYER, CONFIG_LAYER_TEXT, readFields } from './boundary.js';
import { alibiSlopes } from './alibi-slopes.js';

const FIELDS = CONFIG.length;
const KINDS = ['', 'rope', 'alibi', 'sinusoidal', 'learned', 'relative', 'none'];
const SCALING_TYPES = ['default', 'linear', 'dynamic', 'yarn', 'llama3'];

/**
 * How deep a config may nest (objects and arrays): PE_CONFIG_MAX_DEPTH, the
 * core's bound for text, so an object and its text get one answer (a
 * config.json nests 3 or 4 levels).
 */
export const MAX_CONFIG_DEPTH = 1000;
/** The longest config text read: PE_CONFIG_MAX_BYTES (64 MiB), refused before wasm memory is allocated. */
export const MAX_CONFIG_BYTES = 64 * 2 ** 20;

function badValue(path, what, value) {
  throw new PosencError(
    'BAD_CONFIG',
    `config value ${path} must be a JSON value (a finite number, a string, true, false, null, an array or a plain object); got ${what}`,
    path,
    value,
  );
}

/**
 * A config object as JSON text, each value read once and checked: a NaN, an
 * infinity, a BigInt, a function, a symbol, an undefined array element, a
 * cycle, an object of a class (Date, Map, a typed array) or nesting deeper than
 * MAX_CONFIG_DEPTH is refused (BAD_CONFIG) naming its key path, where
 * JSON.stringify would write null, drop it or throw a TypeError/RangeError.
 * An object property whose value is undefined is left out, as JSON.stringify does.
 */
export function configJson(config) {
  const parts = [];
  const open = new Set(); // the objects being written: meeting one again is a cycle
  const write = (value, path, depth) => {
    switch (typeof value) {
      case 'string':
        parts.push(JSON.stringify(value));
        return;
      case 'boolean':
        parts.push(value ? 'true' : 'false');
        return;
      case 'number':
        if (!Number.isFinite(value)) badValue(path, `${value} (JSON has no NaN or infinity)`, value);
        parts.push(JSON.stringify(value));
        return;
      case 'object':
        break;
      default:
        badValue(path, describe(value), value);
    }
    if (value === null) {
      parts.push('null');
      return;
    }
    if (depth >= MAX_CONFIG_DEPTH) {
      // The core's words for text nested as deep (config key '(config)').
      throw new PosencError(
        'BAD_CONFIG',
        // No path in the words: the text of the same object is refused with exactly these (one answer).
        `config key '(config)' nests objects and arrays deeper than ${MAX_CONFIG_DEPTH} levels, posenc's limit ` +
          'for a config.json',
        'config',
        undefined,
      );
    }
    if (open.has(value)) badValue(path, 'an object that contains itself (a cycle)', undefined);
    let isArray;
    try {
      isArray = Array.isArray(value);
    } catch {
      badValue(path, 'a revoked Proxy', undefined);
    }
    if (!isArray) {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) badValue(path, describe(value), value);
    }
    open.add(value);
    if (isArray) {
      const length = value.length;
      parts.push('[');
      for (let i = 0; i < length; i++) {
        if (i > 0) parts.push(',');
        const item = value[i];
        if (item === undefined) badValue(`${path}[${i}]`, 'undefined (JSON arrays have no holes)', item);
        write(item, `${path}[${i}]`, depth + 1);
      }
      parts.push(']');
    } else {
      parts.push('{');
      let first = true;
      for (const key of Object.keys(value)) {
        const item = value[key];
        if (item === undefined) continue; // absent, as JSON.stringify has it
        if (!first) parts.push(',');
        first = false;
        parts.push(JSON.stringify(key), ':');
        write(item, `${path}.${key}`, depth + 1);
      }
      parts.push('}');
    }
    open.delete(value);
  };
  write(config, 'config', 0);
  return parts.join('');
}

/** The config as UTF-8 bytes: a config.json's text as given, or an object serialised. */
function configBytes(config) {
  if (typeof config === 'string') return new TextEncoder().encode(config);
  if (config === null || typeof config !== 'object' || Array.isArray(config) || ArrayBuffer.isView(config)) {
    throw new PosencError(
      'BAD_CONFIG',
      `config must be a model's config.json: an object (JSON.parse of the file) or its text; got ${describe(config)}`,
      'config',
      config,
    );
  }
  return new TextEncoder().encode(configJson(config));
}

function checkLayerType(layerType) {
  // '' is a name like any other (no config has it: the core lists those it has, as the native CLI says).
  if (layerType === undefined || (typeof layerType === 'string' && !layerType.includes('\0'))) return layerType;
  throw new PosencError(
    'BAD_LAYER_TYPE',
    `layerType must be a layer type of the config such as 'full_attention'; got ${describe(layerType)}`,
    'layerType',
    layerType,
  );
}

/** The HF scaling dict posenc's rope() takes, rebuilt from the core's numbers (only the keys that matter). */
function scalingDict(f, factors) {
  const scaling = (name) => f[`rope.scaling.${name}`]; // pe_rope_scaling's names are HF's keys
  const half = f['rope.rotary_dim'] / 2;
  const mrope =
    f.mrope_sections > 0
      ? {
          mrope_section: f.mrope_section.slice(0, f.mrope_sections),
          ...(f.mrope_interleaved ? { mrope_interleaved: true } : {}),
        }
      : {};
  if (f.longrope) {
    return {
      rope_type: 'longrope',
      short_factor: Array.from(factors.subarray(0, half)),
      long_factor: Array.from(factors.subarray(half, 2 * half)),
      original_max_position_embeddings: scaling('original_max_position_embeddings'),
      factor: f.longrope_factor,
      ...(f.longrope_attention_factor !== 0 ? { attention_factor: f.longrope_attention_factor } : {}),
      ...mrope,
    };
  }
  const type = SCALING_TYPES[scaling('type')];
  if (type === 'default') return f.mrope_sections > 0 ? { rope_type: 'default', ...mrope } : null;
  const dict = { rope_type: type, factor: scaling('factor') };
  if (type !== 'linear') dict.original_max_position_embeddings = scaling('original_max_position_embeddings');
  if (type === 'llama3') {
    dict.low_freq_factor = scaling('low_freq_factor');
    dict.high_freq_factor = scaling('high_freq_factor');
  }
  if (type === 'yarn') {
    for (const key of ['beta_fast', 'beta_slow', 'attention_factor', 'mscale', 'mscale_all_dim'])
      if (scaling(key) !== 0) dict[key] = scaling(key);
    if (scaling('no_truncate')) dict.truncate = false;
  }
  return { ...dict, ...mrope };
}

/** d without a `layers` key when there is no per-layer answer (no layer count). */
const withoutUndefined = (d) => {
  if (d.layers === undefined) delete d.layers;
  return d;
};

const relativeOf = (d) =>
  d.scheme === 'shaw'
    ? { relative: 'shaw', maxRelative: d.maxRelative }
    : { relative: 't5', numBuckets: d.numBuckets, maxDistance: d.maxDistance };
const tableOf = (d) => {
  const t = { dim: d.dim, positionOffset: d.positionOffset };
  if (d.maxPositions !== undefined) t.maxPositions = d.maxPositions;
  if (d.kind === 'sinusoidal') Object.assign(t, { layout: d.layout, frequencies: d.frequencies });
  return t;
};

/** What the core's numbers (readFields(CONFIG, ...)) say, as the description fromConfig returns (without `ignored`). */
function describeFields(f, factors) {
  const kind = KINDS[f.kind];
  const common = {
    kind,
    heads: f.heads || undefined,
    kvHeads: f.kv_heads || undefined, // key/value heads: fewer than heads with GQA, 1 with MQA
    hiddenSize: f.hidden_size || undefined,
    maxPositions: f.max_positions || undefined,
  };
  if (kind === 'rope') {
    return {
      ...common,
      rope: {
        headDim: f['rope.head_dim'],
        rotaryDim: f['rope.rotary_dim'],
        base: f['rope.base'],
        layout: f['rope.layout'] === 0 ? 'interleaved' : 'half',
        scaling: scalingDict(f, factors),
      },
    };
  }
  if (kind === 'alibi' || kind === 'none') return common;
  if (kind === 'relative') {
    if (f.shaw) return { ...common, scheme: 'shaw', maxRelative: f.max_relative };
    return {
      ...common,
      scheme: 't5',
      numBuckets: f.num_buckets,
      maxDistance: f.max_distance,
      encoderDecoder: f.encoder_decoder === 1,
    };
  }
  const offset = { positionOffset: f.position_offset };
  if (kind === 'sinusoidal') {
    return {
      ...common,
      dim: f.hidden_size,
      layout: f.layout === 0 ? 'interleaved' : 'split',
      frequencies: f.frequencies === 0 ? 'paper' : 'tensor2tensor',
      ...offset,
    };
  }
  return { ...common, dim: f.hidden_size, ...offset };
}

/** configReader(runtime): readConfigOnce, one call of the core for one layer type, and fromConfig. */
export function configReader(runtime) {
  const { wasm } = runtime;
  // The statuses whose refusal this file words itself, by name (runtime/status.js).
  const statusOf = (name) => runtime.status.names.indexOf(name);
  const STATUS_CONFIG = statusOf('PE_ERR_CONFIG');
  const STATUS_LAYER_TYPE = statusOf('PE_ERR_LAYER_TYPE');
  const STATUS_SCALING = statusOf('PE_ERR_SCALING');
  const STATUS_TOO_LARGE = statusOf('PE_ERR_TOO_LARGE');

  /** The lines of the NUL-terminated `keys` text the core wrote at keysAt (keysBytes of room), empty ones dropped. */
  function keyLines(keysAt, keysBytes) {
    const keysText = runtime.bytes(keysAt, keysBytes);
    return new TextDecoder()
      .decode(keysText.subarray(0, keysText.indexOf(0)))
      .split('\n')
      .filter((l) => l !== '');
  }

  /** A refusal of the core's config reading, its key and reason as `keys` gave them (nothing for PE_OK). */
  function refuseKeys(status, lines) {
    if (status === STATUS_CONFIG || status === STATUS_SCALING) {
      const code = status === STATUS_CONFIG ? 'BAD_CONFIG' : 'BAD_SCALING';
      // '(config)' is the core's name for the whole document.
      const path = lines[0].startsWith('(') ? 'config' : `config.${lines[0]}`;
      throw new PosencError(code, `config key '${lines[0]}' ${lines[1]}`, path, undefined);
    }
    // PE_ERR_SCRATCH cannot come back: factorsCount holds as many numbers as the text can, and the core
    // checks longrope's lists (rotary_dim / 2 numbers each) before the room for them.
    runtime.check(status);
  }

  /**
   * Reads `config` for `layerType`: { description, ignored } or, when the RoPE
   * differs by layer type and none (or an unknown one) was named, { layerTypes }.
   */
  function readConfigOnce(config, layerType) {
    return readBytes(configBytes(config), layerType);
  }

  /** readConfigOnce of a config already made bytes (configBytes). */
  function readBytes(bytes, layerType) {
    checkLayerType(layerType);
    if (bytes.length > MAX_CONFIG_BYTES) {
      throw new PosencError(
        'TOO_LARGE',
        `config is ${bytes.length} bytes of JSON; posenc reads at most ${MAX_CONFIG_BYTES} (64 MiB) for a config.json`,
        'config',
        bytes.length,
      );
    }
    const layerBytes = layerType === undefined ? null : new TextEncoder().encode(layerType + '\0');
    const factorsCount = Math.ceil(bytes.length / 2) + 2; // a number takes at least 2 bytes ("1,")
    const keysBytes = 8 * bytes.length + 256;
    const total =
      16 + bytes.length + 16 + (layerBytes ? layerBytes.length : 0) + 8 * factorsCount + 8 * FIELDS + keysBytes + 64;
    const base = runtime.malloc(total, 'config');
    try {
      const align = (at) => Math.ceil(at / 16) * 16;
      const jsonAt = base;
      const layerAt = layerBytes ? align(jsonAt + bytes.length) : 0;
      const factorsAt = align((layerBytes ? layerAt + layerBytes.length : jsonAt + bytes.length) + 1);
      const outAt = factorsAt + 8 * factorsCount;
      const keysAt = outAt + 8 * FIELDS;
      const heap = runtime.bytes(0);
      heap.set(bytes, jsonAt);
      if (layerBytes) heap.set(layerBytes, layerAt);
      const status = wasm.pe_wasm_config_read(
        jsonAt,
        bytes.length,
        layerAt,
        factorsAt,
        factorsCount,
        outAt,
        keysAt,
        keysBytes,
      );
      const lines = keyLines(keysAt, keysBytes);
      if (status === STATUS_LAYER_TYPE) {
        if (layerType === undefined) return { layerTypes: lines };
        const error =
          lines.length === 0
            ? new PosencError(
                'BAD_LAYER_TYPE',
                `layerType is not used: the config's RoPE is the same for every layer; got ${describe(layerType)}`,
                'layerType',
                layerType,
              )
            : new PosencError(
                'BAD_LAYER_TYPE',
                `layerType must be one of the config's layer types (${lines.map((l) => `'${l}'`).join(', ')}); got ${describe(layerType)}`,
                'layerType',
                layerType,
              );
        error.layerTypes = lines; // for callers that word their own message (the CLI)
        throw error;
      }
      refuseKeys(status, lines);
      const fields = readFields(CONFIG, runtime.doubles(outAt, FIELDS));
      const factors = runtime.doubles(factorsAt, Math.min(factorsCount, fields['rope.rotary_dim'])).slice();
      return { description: describeFields(fields, factors), ignored: lines };
    } finally {
      runtime.free(base);
    }
  }

  const CONFIG_STRUCT = 296; // sizeof(pe_config) in wasm32 (src/wasm/config.c asserts it)

  /**
   * Every layer type of a config keyed by them, the `names` the core listed, in one reading
   * (pe_config_read_types; one reading a type was quadratic in the types): { descriptions } in the names' order
   * and the last type's ignored keys, or the first type's refusal as readBytes throws it for that type.
   */
  function readTypes(bytes, names) {
    const count = names.length;
    const factorsCount = Math.ceil(bytes.length / 2) + 2;
    const keysBytes = 8 * bytes.length + 256;
    const align = (at) => Math.ceil(at / 16) * 16;
    const base = runtime.malloc(
      16 + bytes.length + 16 + 8 * factorsCount + 16 + count * (CONFIG_STRUCT + 8 * FIELDS) + 16 + keysBytes + 16,
      'config',
    );
    let refusedType;
    try {
      const jsonAt = base;
      const factorsAt = align(jsonAt + bytes.length + 1);
      const configsAt = align(factorsAt + 8 * factorsCount);
      const outAt = align(configsAt + count * CONFIG_STRUCT);
      const keysAt = outAt + 8 * FIELDS * count;
      const refusedAt = align(keysAt + keysBytes);
      runtime.bytes(0).set(bytes, jsonAt);
      const status = wasm.pe_wasm_config_read_types(
        jsonAt,
        bytes.length,
        factorsAt,
        factorsCount,
        configsAt,
        count,
        outAt,
        keysAt,
        keysBytes,
        refusedAt,
      );
      const lines = keyLines(keysAt, keysBytes);
      if (status !== STATUS_OK) {
        refusedType = new Uint32Array(runtime.bytes(refusedAt, 4).slice().buffer)[0];
        if (refusedType >= count) refuseKeys(status, lines);
      } else {
        const doubles = runtime.doubles(outAt, FIELDS * count).slice();
        const descriptions = [];
        let used = 0; // each longrope type's lists follow the previous one's in factors
        for (let t = 0; t < count; t++) {
          const fields = readFields(CONFIG, doubles.subarray(FIELDS * t, FIELDS * (t + 1)));
          const take = Math.min(factorsCount - used, fields['rope.rotary_dim']);
          descriptions.push(describeFields(fields, runtime.doubles(factorsAt + 8 * used, take).slice()));
          if (fields.longrope) used += fields['rope.rotary_dim'];
        }
        return { descriptions, ignored: lines };
      }
    } finally {
      runtime.free(base);
    }
    // One type refused: read alone, it throws that refusal in readBytes' words (its layerType named).
    readBytes(bytes, names[refusedType]);
    throw new Error(`config: layer type ${refusedType} refused in one reading and not alone`);
  }

  const STATUS_OK = statusOf('PE_OK');
  const LAYER_TEXT = CONFIG_LAYER_TEXT.bytes;
  const LAYER_FIELDS = CONFIG_LAYER.length;
  const POSITIONS = ['config', 'nope', 'no-attention'];

  // sizeof(pe_config_layer): six 32-bit fields, two doubles, one 32-bit field (and 4 bytes of padding), kind[24],
  // layer_type[24]
  const LAYER_STRUCT = 96;

  /**
   * Every layer of the config: [{ index, kind, layerType, positions, kvHeads }].
   * Two readings of the config, whatever its layer count: the first layer
   * (pe_config_layer_read) says how many there are (at most PE_CONFIG_MAX_LAYERS),
   * then pe_config_layers_read answers them all.
   */
  function readLayers(bytes) {
    const keysBytes = 8 * bytes.length + 256;
    const refusal = (status, keysAt) => {
      const lines = keyLines(keysAt, keysBytes);
      if ((status === STATUS_CONFIG || status === STATUS_TOO_LARGE) && lines.length >= 2) {
        throw new PosencError(
          status === STATUS_CONFIG ? 'BAD_CONFIG' : 'TOO_LARGE',
          `config key '${lines[0]}' ${lines[1]}`,
          `config.${lines[0]}`,
          undefined,
        );
      }
      runtime.check(status);
    };
    const align = (at) => Math.ceil(at / 16) * 16;
    let count;
    {
      const base = runtime.malloc(
        16 + bytes.length + 16 + 8 * LAYER_FIELDS + LAYER_TEXT + keysBytes + 64,
        'config layers',
      );
      try {
        const jsonAt = base;
        const outAt = align(jsonAt + bytes.length + 1);
        const textAt = outAt + 8 * LAYER_FIELDS;
        const keysAt = textAt + LAYER_TEXT;
        runtime.bytes(0).set(bytes, jsonAt);
        const status = wasm.pe_wasm_config_layer(jsonAt, bytes.length, 0, outAt, textAt, keysAt, keysBytes);
        if (status !== STATUS_OK) refusal(status, keysAt);
        const out = readFields(CONFIG_LAYER, runtime.doubles(outAt, LAYER_FIELDS));
        count = out.layers;
      } finally {
        runtime.free(base);
      }
    }
    const base = runtime.malloc(
      16 + bytes.length + 16 + count * (LAYER_STRUCT + 8 * LAYER_FIELDS + LAYER_TEXT) + 32 + keysBytes + 64,
      'config layers',
    );
    try {
      const jsonAt = base;
      const layersAt = align(jsonAt + bytes.length + 1);
      const outAt = align(layersAt + count * LAYER_STRUCT);
      const textAt = outAt + 8 * LAYER_FIELDS * count;
      const keysAt = textAt + LAYER_TEXT * count;
      runtime.bytes(0).set(bytes, jsonAt);
      const status = wasm.pe_wasm_config_layers(
        jsonAt,
        bytes.length,
        count,
        layersAt,
        outAt,
        textAt,
        keysAt,
        keysBytes,
      );
      if (status !== STATUS_OK) refusal(status, keysAt);
      const doubles = runtime.doubles(outAt, LAYER_FIELDS * count).slice();
      const text = runtime.bytes(textAt, LAYER_TEXT * count).slice();
      const decoder = new TextDecoder();
      // A NUL-terminated field: ASCII by hand (a TextDecoder call per field took most of the time), else decoded.
      const word = (at) => {
        let ascii = '';
        for (let k = at; text[k] !== 0; k++) {
          if (text[k] >= 0x80) return decoder.decode(text.subarray(at, text.indexOf(0, at)));
          ascii += String.fromCharCode(text[k]);
        }
        return ascii;
      };
      const layers = new Array(count);
      for (let index = 0; index < count; index++) {
        const at = LAYER_TEXT * index;
        const out = readFields(CONFIG_LAYER, doubles.subarray(LAYER_FIELDS * index, LAYER_FIELDS * (index + 1)));
        layers[index] = {
          index,
          kind: word(at + CONFIG_LAYER_TEXT.kind),
          layerType: word(at + CONFIG_LAYER_TEXT.layer_type) || undefined,
          positions: POSITIONS[out.positions],
          kvHeads: out.kv_heads,
          attentionChunk: out.attention_chunk,
          slidingWindow: out.sliding_window,
          slidingBidirectional: out.sliding_bidirectional,
          queryScale:
            out.query_scale_length > 0
              ? { beta: out.query_scale_beta, length: out.query_scale_length, shift: out.query_scale_shift }
              : undefined,
        };
      }
      return layers;
    } finally {
      runtime.free(base);
    }
  }

  /** One layer's description in fromConfig's `layers` (scheme and its settings, or none). */
  function layerEntry(layer, byType) {
    const { index, kind, kvHeads } = layer;
    // Llama 4's chunked layers: attention within blocks of attentionChunk positions.
    const chunk = layer.attentionChunk ? { attentionChunk: layer.attentionChunk } : {};
    // Sliding layers: a query sees the slidingWindow keys up to itself.
    if (layer.slidingWindow) chunk.slidingWindow = layer.slidingWindow;
    // ModernBERT's local layers: the window reaches slidingWindow keys on both sides (|q - k| <= slidingWindow).
    if (layer.slidingBidirectional) chunk.slidingBidirectional = true;
    // Ministral 3's and Llama 4's queries scaled by position: 1 + beta ln(1 + floor((p + shift) / length)).
    if (layer.queryScale) chunk.queryScale = layer.queryScale;
    if (layer.positions !== 'config') {
      const none = layer.positions === 'nope' ? 'nope' : 'no-attention';
      return { index, kind, scheme: 'none', none, kvHeads, ...chunk };
    }
    const d = byType.get(layer.layerType ?? '');
    const entry = { index, kind, scheme: d.kind, kvHeads, ...chunk };
    if (layer.layerType) entry.layerType = layer.layerType;
    if (d.kind === 'rope') entry.rope = d.rope;
    else if (d.kind === 'alibi') entry.heads = d.heads;
    else if (d.kind === 'relative') Object.assign(entry, relativeOf(d));
    else Object.assign(entry, tableOf(d));
    return entry;
  }

  /**
   * fromConfig(config, { layerType }?): what the model uses. RoPE that differs
   * by layer type is described per layer type under `layerTypes` (or, with
   * layerType, that layer type's under `rope`); otherwise under `rope`.
   */
  function fromConfig(config, options) {
    if (
      options !== undefined &&
      (options === null || typeof options !== 'object' || Object.keys(options).some((k) => k !== 'layerType'))
    ) {
      throw new PosencError(
        'BAD_OPTIONS',
        `fromConfig(config, options): options must be { layerType } or left out; got ${describe(options)}`,
        'options',
        options,
      );
    }
    const layerType = options?.layerType; // read once
    const bytes = configBytes(config); // and the config once: its getters run here only
    const first = readBytes(bytes, layerType);
    const layers = (byType) => withLayers(bytes, byType, layerType);
    if (first.description && first.description.kind === 'alibi') {
      return withoutUndefined({
        ...first.description,
        slopes: alibiSlopes(runtime, first.description.heads),
        layers: layers(new Map([['', first.description]])),
        ignored: first.ignored,
      });
    }
    if (!first.layerTypes) {
      const byType = new Map([['', first.description]]);
      return withoutUndefined({ ...first.description, layers: layers(byType), ignored: first.ignored });
    }
    const names = first.layerTypes; // each once: the dict's keys (the last of a repeated one) or Gemma's two
    const layerTypes = {};
    const byType = new Map();
    const read = readTypes(bytes, names);
    names.forEach((name, t) => {
      const description = read.descriptions[t];
      byType.set(name, description);
      Object.defineProperty(layerTypes, name, { value: description.rope, enumerable: true, writable: true });
    });
    const { rope: _, ...common } = read.descriptions[names.length - 1];
    return withoutUndefined({ ...common, layerTypes, layers: layers(byType), ignored: read.ignored });
  }

  /**
   * The per-layer answer from every layer (pe_config_layer_read) and byType,
   * each layer type's description as fromConfig read it ('' when the config
   * has one); a layer type it lacks is read here, once.
   */
  function withLayers(bytes, byType, layerType) {
    let read;
    try {
      read = readLayers(bytes);
    } catch (error) {
      // A config without a layer count (a trimmed one): no per-layer answer, the rest stands.
      if (error instanceof PosencError && error.code === 'BAD_CONFIG' && error.argument.endsWith('num_hidden_layers'))
        return undefined;
      throw error;
    }
    // With a layerType, its layers only: another type is neither read nor answered for (a refusal in it is not
    // this call's, as the native `rope --config --layer-type` reads that type alone).
    const wanted = layerType === undefined ? read : read.filter((l) => l.layerType === layerType);
    for (const layer of wanted) {
      const key = layer.layerType ?? '';
      if (layer.positions !== 'config' || byType.has(key)) continue;
      // a type fromConfig did not read: the layerType asked for, or one the config does not list (its refusal)
      byType.set(key, readBytes(bytes, key).description);
    }
    return wanted.map((layer) => layerEntry(layer, byType));
  }

  /** Layer `layer` of the config: its layer type for readConfigOnce, or a coded refusal when it has no positions. */
  function layerOf(config, layer, call) {
    if (!Number.isInteger(layer) || layer < 0) {
      throw new PosencError(
        'BAD_LAYER',
        `${call}(): layer must be a layer index, a whole number ≥ 0; got ${describe(layer)}`,
        'layer',
        layer,
      );
    }
    const read = readLayers(configBytes(config));
    if (layer >= read.length) {
      throw new PosencError(
        'BAD_LAYER',
        `${call}(): layer must be 0 … ${read.length - 1} (the config has ${read.length} layers); got ${describe(layer)}`,
        'layer',
        layer,
      );
    }
    const l = read[layer];
    if (l.positions !== 'config') {
      const why =
        l.positions === 'nope'
          ? `its attention uses no positions (NoPE, a ${l.kind} layer)`
          : `it has no attention (a ${l.kind} layer)`;
      throw new PosencError(
        'NO_POSITIONS',
        `${call}(): layer ${layer} of this config rotates nothing: ${why}`,
        'layer',
        layer,
      );
    }
    return l.layerType;
  }

  return { readConfigOnce, fromConfig, layerOf };
}
