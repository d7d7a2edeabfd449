// `posenc config FILE [options]`, mirrored by src/cli/config_command.c (same
// options, checks, messages and bytes): what every layer of a model uses,
// from fromConfig's per-layer answer; layers with one description share a line.
import { readConfigText } from './config-option.js';
import { instantiate } from '../instance.js';
import { PosencError } from '../runtime/errors.js';
import { fail } from './args.js';
import { formatExp } from '../shared/format.js';
import { formatOption, COMMON_HELP } from './options.js';

export const usage = `usage: posenc config FILE [options]

Prints what every layer of the model whose config.json is FILE uses for positions, read as HF
transformers reads the file: RoPE (base, head and rotary dims, layout, scaling), ALiBi, relative
buckets, learned or sinusoidal tables, or none (NoPE attention, or no attention: Mamba, linear
attention); each layer's kind and key/value heads; and the keys that change nothing.

  --format F    text (layers with one description on one line) or json (one object a layer)
${COMMON_HELP}
examples:
  posenc config config.json
  posenc config gemma3.json --format json --output layers.json
`;

export const options = ['--format', '--output'];
export const operand = 'FILE';

/** A number as both CLIs print it: whole numbers plainly, others with 17 significant digits. */
const number = (v) => (Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : formatExp(v, 16));

/** The fields of a layer's description, in the order src/cli/config_command.c prints them. */
function fields(layer) {
  const f = [
    ['kind', layer.kind, 'word'],
    ['kv_heads', layer.kvHeads],
  ];
  const scheme = (name) => f.push(['scheme', name, 'word']);
  if (layer.scheme === 'none') {
    scheme('none');
    f.push(['none', layer.none, 'word']);
    return f;
  }
  scheme(layer.scheme);
  if (layer.scheme === 'rope') {
    const r = layer.rope;
    const s = r.scaling;
    f.push(['base', r.base], ['head_dim', r.headDim], ['rotary_dim', r.rotaryDim], ['layout', r.layout, 'word']);
    const type = s === null ? 'default' : s.rope_type;
    f.push(['scaling', type, 'word']);
    if (type !== 'default') {
      f.push(['factor', s.factor]);
      if (type !== 'linear') f.push(['original_max_position_embeddings', s.original_max_position_embeddings]);
      if (type === 'longrope' && s.attention_factor !== undefined) f.push(['attention_factor', s.attention_factor]);
      if (type === 'llama3') f.push(['low_freq_factor', s.low_freq_factor], ['high_freq_factor', s.high_freq_factor]);
      if (type === 'yarn') {
        for (const k of ['beta_fast', 'beta_slow', 'attention_factor', 'mscale', 'mscale_all_dim'])
          if (s[k] !== undefined) f.push([k, s[k]]);
        if (s.truncate === false) f.push(['truncate', 'false', 'raw']);
      }
    }
    if (s && s.mrope_section) {
      f.push(['mrope_section', s.mrope_section, 'list']);
      if (s.mrope_interleaved) f.push(['mrope_interleaved', 'true', 'raw']);
    }
  } else if (layer.scheme === 'alibi') f.push(['heads', layer.heads]);
  else if (layer.scheme === 'relative' && layer.relative === 'shaw')
    f.push(['relative', 'shaw', 'word'], ['max_relative', layer.maxRelative]);
  else if (layer.scheme === 'relative')
    f.push(['relative', 't5', 'word'], ['buckets', layer.numBuckets], ['max_distance', layer.maxDistance]);
  else {
    f.push(['dim', layer.dim], ['rows', layer.maxPositions ?? 0], ['offset', layer.positionOffset]);
    if (layer.scheme === 'sinusoidal')
      f.push(['layout', layer.layout, 'word'], ['frequencies', layer.frequencies, 'word']);
  }
  return f;
}

const textValue = ([, v, how]) => (how === 'list' ? v.join(',') : how ? v : number(v));
const jsonValue = ([, v, how]) =>
  how === 'word' ? `"${v}"` : how === 'list' ? `[${v.join(',')}]` : how === 'raw' ? v : number(v);

/**
 * Text: "kind; kv_heads N; [attention_chunk N;] [sliding_window N;] [sliding_bidirectional 1;] [query_scale ...;]
 * scheme ...", as C joins it.
 */
function textOf(layer) {
  const [kind, heads, ...rest] = fields(layer);
  const chunk = layer.attentionChunk ? ` attention_chunk ${layer.attentionChunk};` : '';
  const window =
    (layer.slidingWindow ? ` sliding_window ${layer.slidingWindow};` : '') +
    (layer.slidingBidirectional ? ' sliding_bidirectional 1;' : '');
  return (
    `${kind[1]}; kv_heads ${heads[1]};${chunk}${window}${queryScaleText(layer.queryScale)}` +
    rest.map((f) => ` ${f[0]} ${textValue(f)}`).join('')
  );
}

/** The layer's query scale as a formula in the position p (C's query_scale); '' without one. */
function queryScaleText(q) {
  if (!q) return '';
  const step = q.shift ? `(p + ${q.shift}) / ${number(q.length)}` : `p / ${number(q.length)}`;
  return ` query_scale 1 + ${number(q.beta)} ln(1 + floor(${step}));`;
}

const jsonOf = (layer) => {
  const [kind, heads, ...rest] = fields(layer).map((f) => `"${f[0]}":${jsonValue(f)}`);
  const chunk = layer.attentionChunk ? [`"attention_chunk":${layer.attentionChunk}`] : [];
  const window = layer.slidingWindow ? [`"sliding_window":${layer.slidingWindow}`] : [];
  if (layer.slidingBidirectional) window.push('"sliding_bidirectional":1');
  const q = layer.queryScale;
  if (q) window.push(`"query_scale":{"beta":${number(q.beta)},"length":${number(q.length)},"shift":${q.shift}}`);
  return [kind, heads, ...chunk, ...window, ...rest].join(',');
};

/** "0-3,5,7-9" of sorted indices. */
function ranges(list) {
  const parts = [];
  for (let k = 0; k < list.length;) {
    let end = k;
    while (end + 1 < list.length && list[end + 1] === list[end] + 1) end++;
    parts.push(end > k ? `${list[k]}-${list[end]}` : `${list[k]}`);
    k = end + 1;
  }
  return parts.join(',');
}

export async function run(given, write) {
  const format = formatOption(given, ['text', 'json'], 'text or json');
  const path = given.get('FILE');
  if (path === undefined) fail("config needs a FILE: a model's config.json (see posenc config --help)");
  const text = readConfigText('config', path);
  const posenc = await instantiate();
  let layers;
  let ignored = [];
  try {
    const whole = posenc.fromConfig(text);
    layers = whole.layers;
    if (layers === undefined) {
      // No layer count: fromConfig answers without layers; the native CLI refuses in the core's words.
      const inner = JSON.parse(text).text_config;
      const prefix = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? 'text_config.' : '';
      fail(
        `config key '${prefix}num_hidden_layers' needed for a per-layer answer: the number of layers (n_layer, num_layers)`,
        1,
      );
    }
    const first = layers.find((l) => l.scheme !== 'none');
    if (first)
      ignored = first.layerType ? posenc.fromConfig(text, { layerType: first.layerType }).ignored : whole.ignored;
  } catch (error) {
    if (!(error instanceof PosencError)) throw error;
    fail(error.message, 1);
  }
  if (format === 'json') {
    const rows = layers.map((l, i) => `    {"index":${l.index},${jsonOf(l)}}${i + 1 < layers.length ? ',' : ''}\n`);
    await write(
      `{\n  "layers": [\n${rows.join('')}  ],\n  "ignored": [${ignored.map((k) => `"${k}"`).join(',')}]\n}\n`,
    );
    return;
  }
  // Layers grouped by description, in the order of each description's first layer (a Map keeps it): linear.
  const groups = new Map();
  layers.forEach((l, i) => {
    const desc = textOf(l);
    const list = groups.get(desc);
    if (list) list.push(i);
    else groups.set(desc, [i]);
  });
  let out = '';
  for (const [desc, list] of groups) out += `layer${list.length > 1 ? 's' : ''} ${ranges(list)}: ${desc}\n`;
  await write(`${out}ignored: ${ignored.join(', ')}\n`);
}
