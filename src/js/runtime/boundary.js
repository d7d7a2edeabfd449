// The C↔JS boundary, declared once. The structs that cross wasm memory travel
// as arrays of doubles (the loader never lays out a C struct); each crossing
// below lists its slots in order, each slot named by its C field path in
// posenc.h ('scaling.factor' is pe_rotary's rope.scaling.factor), with how C
// reads the double. build.sh generates the C side from this file
// (src/wasm/boundary-gen.mjs writes build/gen/pe_wasm_boundary.h: the
// unpackers and packers src/wasm uses), and refuses to build when a crossing
// and its posenc.h struct disagree: every field of the struct is a slot here
// or is listed as left out, with the reason. The JS side writes and reads
// slots by these names (at[name]), never by number.
//
// EXPORTS states each pe_wasm_* export's parameters in order, and the core
// entry point it wraps: they follow posenc.h's one order (the description,
// the call's choices, the positions as offset, length, the output, the
// scratch), so a wrapper's parameters are its core function's with the
// struct flattened (tests/runtime-boundary.test.js checks src/wasm against it).

/**
 * How C reads a slot (in) or writes it (out: every kind is a plain conversion):
 *   whole    a whole number in uint32 range, cast to the field's type (integers,
 *            enums); outside the range UINT32_MAX, which the core refuses
 *   double   as is
 *   flag     nonzero is 1
 *   address  a wasm address (a pointer into wasm memory), as whole
 */
export const KINDS = Object.freeze(['whole', 'double', 'flag', 'address']);

/**
 * A crossing: `struct` (posenc.h's typedef), `direction` ('in': JS writes, C
 * reads; 'out': C writes, JS reads), `fields` as [path, kind, count = 1]
 * (count > 1: an array field, one slot per element), `omitted` as
 * { path: why }. Gives { struct, direction, fields, omitted, length, at }:
 * at[path] is the path's first slot, length the doubles it takes.
 */
function crossing(struct, direction, fields, omitted = {}) {
  const at = {};
  const list = [];
  let length = 0;
  for (const [path, kind, count = 1] of fields) {
    if (!KINDS.includes(kind)) throw new Error(`boundary: ${struct}.${path} has unknown kind '${kind}'`);
    if (Object.hasOwn(at, path)) throw new Error(`boundary: ${struct}.${path} is listed twice`);
    at[path] = length;
    list.push(Object.freeze({ path, kind, count, at: length }));
    length += count;
  }
  return Object.freeze({
    struct,
    direction,
    fields: Object.freeze(list),
    omitted: Object.freeze({ ...omitted }),
    length,
    at: Object.freeze(at),
  });
}

/** pe_rotary, written by the RoPE module (src/js/rope/options.js) for every RoPE export that takes a spec. */
export const ROTARY = crossing('pe_rotary', 'in', [
  ['head_dim', 'whole'],
  ['rotary_dim', 'whole'],
  ['heads', 'whole'],
  ['base', 'double'],
  ['layout', 'whole'],
  ['order', 'whole'],
  ['inverse', 'flag'],
  ['scaling.type', 'whole'],
  ['scaling.factor', 'double'],
  ['scaling.original_max_position_embeddings', 'whole'],
  ['scaling.beta_fast', 'double'],
  ['scaling.beta_slow', 'double'],
  ['scaling.attention_factor', 'double'],
  ['scaling.mscale', 'double'],
  ['scaling.mscale_all_dim', 'double'],
  ['scaling.no_truncate', 'flag'],
  ['scaling.low_freq_factor', 'double'],
  ['scaling.high_freq_factor', 'double'],
  ['scaling.sequence_length', 'whole'],
  ['scaling.short_factor', 'address'], // LONGROPE: rotary_dim/2 doubles in wasm memory
  ['scaling.long_factor', 'address'],
  ['axes.type', 'whole'],
  ['axes.mrope_section', 'whole', 3],
  ['xpos.scale_base', 'double'], // 0: off
  ['xpos.gamma', 'double'],
  ['xpos.key', 'flag'],
  ['xpos.center', 'whole'],
]);

/** pe_config, written by pe_wasm_config_read, read by the config reader (src/js/runtime/config-read.js). */
export const CONFIG = crossing(
  'pe_config',
  'out',
  [
    ['kind', 'whole'],
    ['heads', 'whole'],
    ['hidden_size', 'whole'],
    ['max_positions', 'whole'],
    ['position_offset', 'whole'],
    ['rope.head_dim', 'whole'],
    ['rope.rotary_dim', 'whole'],
    ['rope.base', 'double'],
    ['rope.layout', 'whole'],
    ['rope.scaling.type', 'whole'],
    ['rope.scaling.factor', 'double'],
    ['rope.scaling.original_max_position_embeddings', 'whole'],
    ['rope.scaling.beta_fast', 'double'],
    ['rope.scaling.beta_slow', 'double'],
    ['rope.scaling.attention_factor', 'double'],
    ['rope.scaling.mscale', 'double'],
    ['rope.scaling.mscale_all_dim', 'double'],
    ['rope.scaling.no_truncate', 'flag'],
    ['rope.scaling.low_freq_factor', 'double'],
    ['rope.scaling.high_freq_factor', 'double'],
    ['layer_types', 'whole'],
    ['longrope', 'flag'],
    ['longrope_factor', 'double'],
    ['longrope_attention_factor', 'double'],
    ['mrope_sections', 'whole'],
    ['mrope_section', 'whole', 4],
    ['layout', 'whole'],
    ['frequencies', 'whole'],
    ['shaw', 'flag'],
    ['num_buckets', 'whole'],
    ['max_distance', 'whole'],
    ['max_relative', 'whole'],
    ['encoder_decoder', 'flag'],
    ['mrope_interleaved', 'flag'],
    ['kv_heads', 'whole'],
  ],
  {
    'rope.heads': 'the config says heads (heads above)',
    'rope.order': 'always BLHD from a config',
    'rope.inverse': 'never from a config',
    'rope.scaling.sequence_length': "the call's, not the config's",
    'rope.scaling.short_factor': 'LONGROPE: the factors stay in the factors array the caller gave',
    'rope.scaling.long_factor': 'likewise',
    'rope.axes.type': 'the config gives mrope_section (above); the call picks the axes',
    'rope.axes.mrope_section': 'likewise',
    'rope.xpos.scale_base': 'no config names xPos',
    'rope.xpos.gamma': 'likewise',
    'rope.xpos.key': 'likewise',
    'rope.xpos.center': 'likewise',
    short_factor: 'in the factors array the caller gave (short then long, rotary_dim/2 each)',
    long_factor: 'likewise',
  },
);

/** pe_config_layer's numbers, written by pe_wasm_config_layer (its names cross as text beside them). */
export const CONFIG_LAYER = crossing(
  'pe_config_layer',
  'out',
  [
    ['layers', 'whole'],
    ['kv_heads', 'whole'],
    ['positions', 'whole'],
    ['attention_chunk', 'whole'],
    ['sliding_window', 'whole'],
    ['sliding_bidirectional', 'whole'],
    ['query_scale_beta', 'double'],
    ['query_scale_length', 'double'],
    ['query_scale_shift', 'whole'],
  ],
  {
    kind: 'NUL-terminated text at 0 of the text block (CONFIG_LAYER_TEXT)',
    layer_type: 'NUL-terminated text at 24 of the text block',
  },
);
/** The bytes of pe_wasm_config_layer's text block and where each name starts (24: posenc.h's char[24]). */
export const CONFIG_LAYER_TEXT = Object.freeze({ bytes: 48, kind: 0, layer_type: 24 });

/** The crossings by name, as build.sh's generator reads them. */
export const CROSSINGS = Object.freeze({ ROTARY, CONFIG, CONFIG_LAYER });

/** The doubles of a crossing 'out' read into { path: number } ({ path: number[] } for arrays). */
export function readFields(crossingOf, doubles) {
  const out = {};
  for (const { path, count, at } of crossingOf.fields)
    out[path] = count === 1 ? doubles[at] : Array.from(doubles.subarray(at, at + count));
  return out;
}

/**
 * Every pe_wasm_* export (and the allocator): { core, params } with params in
 * the order the export takes them, and core the posenc.h entry point it
 * wraps (null: none). The parameters it shares with core keep core's order;
 * an export whose order differs says why in `own`.
 */
export const EXPORTS = Object.freeze({
  // common.c
  pe_malloc: { core: null, params: ['bytes'] },
  pe_free: { core: null, params: ['ptr'] },
  pe_wasm_status_str: { core: 'pe_status_str', params: ['status'] },
  pe_wasm_status_name: { core: 'pe_status_name', params: ['status'] },
  pe_wasm_simd: { core: null, params: [] },
  pe_wasm_set_rounding: { core: 'pe_set_rounding', params: ['rounding'] },
  pe_wasm_rounding: { core: null, params: [] },
  // sinusoid.c (a pe_sinusoid flattened: dim, base, layout, frequencies)
  pe_wasm_scratch_size: { core: 'pe_scratch_size', params: ['dim'] },
  pe_wasm_plan_init: { core: 'pe_plan_init', params: ['dim', 'base', 'layout', 'frequencies', 'memory', 'bytes'] },
  pe_wasm_plan_table: { core: 'pe_plan_table', params: ['plan', 'offset', 'length', 'out', 'out_count'] },
  pe_wasm_plan_table_at: { core: 'pe_plan_table_at', params: ['plan', 'positions', 'count', 'out', 'out_count'] },
  pe_wasm_plan_add: { core: 'pe_plan_add', params: ['plan', 'scale', 'offset', 'length', 'x', 'x_count'] },
  // precision.c
  pe_wasm_plan_table_dtype: {
    core: 'pe_plan_table_dtype',
    params: ['plan', 'dtype', 'offset', 'length', 'out', 'out_count'],
  },
  pe_wasm_plan_table_at_dtype: {
    core: 'pe_plan_table_at_dtype',
    params: ['plan', 'dtype', 'positions', 'count', 'out', 'out_count'],
  },
  pe_wasm_narrow_f64: { core: 'pe_narrow_f64', params: ['dtype', 'in', 'count', 'out'] }, // out holds count
  pe_wasm_plan_recipe_table: {
    core: 'pe_plan_recipe_table',
    params: ['plan', 'recipe', 'offset', 'length', 'out', 'out_count'],
  },
  // grid2d.c (a pe_grid2d flattened)
  pe_wasm_table_2d_scratch_size: {
    core: 'pe_table_2d_scratch_size',
    params: ['height', 'width', 'dim', 'base', 'cls_token'],
  },
  pe_wasm_table_2d: {
    core: 'pe_table_2d',
    params: ['height', 'width', 'dim', 'base', 'cls_token', 'out', 'out_count', 'scratch', 'scratch_bytes'],
  },
  // rope.c (spec: a pe_rotary as ROTARY's doubles)
  pe_wasm_rope_scratch_size: { core: 'pe_rope_scratch_size', params: ['spec'] },
  pe_wasm_rope_xpos_reach: { core: 'pe_rope_xpos_reach', params: ['spec'] },
  pe_wasm_rope_frequencies: {
    core: 'pe_rope_frequencies',
    params: ['spec', 'w', 'w_count', 'attention_factor'],
  },
  pe_wasm_rope: {
    core: 'pe_rope',
    params: ['spec', 'offset', 'length', 'positions', 'x', 'x_count', 'scratch', 'scratch_bytes'],
  },
  pe_wasm_rope_plan_size: { core: 'pe_rope_plan_size', params: ['spec', 'cache_rows'] },
  pe_wasm_rope_plan_init: {
    core: 'pe_rope_plan_init',
    params: ['spec', 'cache_rows', 'memory', 'bytes', 'plan'],
  },
  pe_wasm_rope_plan_apply: {
    core: 'pe_rope_plan_apply_heads',
    params: ['plan', 'dtype', 'heads', 'sequence_length', 'offset', 'length', 'positions', 'x', 'x_count'],
  },
  pe_wasm_rope_plan_cos_sin: {
    core: 'pe_rope_plan_cos_sin',
    params: ['plan', 'dtype', 'expand', 'offset', 'length', 'positions', 'cos', 'sin', 'count'],
  },
  // alibi.c (a pe_alibi flattened)
  pe_wasm_alibi_slopes: { core: 'pe_alibi_slopes', params: ['heads', 'out', 'out_count'] },
  pe_wasm_alibi_bias: {
    core: 'pe_alibi_bias',
    params: [
      'heads',
      'query_length',
      'key_length',
      'query_offset',
      'causal',
      'first_head',
      'head_count',
      'out',
      'out_count',
    ],
  },
  // learned.c
  pe_wasm_add_table: {
    core: 'pe_add_table',
    params: ['table', 'table_rows', 'dim', 'scale', 'offset', 'length', 'x', 'x_count'],
  },
  pe_wasm_resample_table: {
    core: 'pe_resample_table',
    params: ['table', 'rows', 'dim', 'new_rows', 'out', 'out_count'],
  },
  // relative.c (a pe_t5 or pe_shaw flattened)
  pe_wasm_t5_buckets: {
    core: 'pe_t5_buckets',
    params: [
      'query_length',
      'key_length',
      'query_offset',
      'num_buckets',
      'max_distance',
      'bidirectional',
      'out',
      'out_count',
    ],
  },
  pe_wasm_t5_bias: {
    core: 'pe_t5_bias',
    params: [
      'query_length',
      'key_length',
      'query_offset',
      'num_buckets',
      'max_distance',
      'bidirectional',
      'table',
      'table_count',
      'heads',
      'first_head',
      'head_count',
      'out',
      'out_count',
    ],
  },
  pe_wasm_shaw_indices: {
    core: 'pe_shaw_indices',
    params: ['query_length', 'key_length', 'query_offset', 'max_relative', 'out', 'out_count'],
  },
  // diagnose.c
  pe_wasm_diagnose_scratch_size: { core: 'pe_diagnose_scratch_size', params: ['rows', 'cols'] },
  pe_wasm_inv_freq_scratch_size: { core: 'pe_diagnose_inv_freq', params: [] },
  pe_wasm_diagnose_inv_freq: {
    core: 'pe_diagnose_inv_freq',
    params: ['inv_freq', 'count', 'scratch', 'scratch_bytes', 'text', 'text_bytes', 'json', 'json_bytes', 'bad_index'],
  },
  pe_wasm_diagnose: {
    core: 'pe_diagnose',
    params: [
      'table',
      'rows',
      'cols',
      'kind',
      'scratch',
      'scratch_bytes',
      'text',
      'text_bytes',
      'json',
      'json_bytes',
      'bad_cell',
    ],
    own: 'one call reads the table and writes the verdict (text, json) into the scratch-backed result, so JS never reads pe_diagnosis',
  },
  // config.c (out: CONFIG's or CONFIG_LAYER's doubles)
  pe_wasm_config_read: {
    core: 'pe_config_read',
    params: ['json', 'json_bytes', 'layer_type', 'factors', 'factors_count', 'out', 'keys', 'keys_bytes'],
  },
  pe_wasm_config_read_types: {
    core: 'pe_config_read_types',
    params: [
      'json',
      'json_bytes',
      'factors',
      'factors_count',
      'configs',
      'count',
      'fields',
      'keys',
      'keys_bytes',
      'refused',
    ],
  },
  pe_wasm_config_layer: {
    core: 'pe_config_layer_read',
    params: ['json', 'json_bytes', 'layer', 'out', 'text', 'keys', 'keys_bytes'],
  },
  pe_wasm_config_layers: {
    core: 'pe_config_layers_read',
    params: ['json', 'json_bytes', 'count', 'layers', 'out', 'text', 'keys', 'keys_bytes'],
  },
});
