// The state of the "beyond sinusoidal" views (comparison, RoPE, precision): its
// limits, defaults and round trip through the URL. It lives beside the page's
// own state (state.js) under its own parameter names; like it, reading never
// throws, and a value it cannot read or must clamp comes back with a note.

export const SCALINGS = ['none', 'linear', 'dynamic', 'yarn', 'llama3'];
export const QK_CHOICES = ['same', 'independent', 'ones'];

// name in the URL → { min, max, integer, even, log } for numeric fields.
export const BEYOND_LIMITS = {
  cw: { min: 8, max: 512, integer: true }, // comparison window (positions)
  heads: { min: 1, max: 64, integer: true }, // ALiBi heads
  head: { min: 0, max: 63, integer: true }, // ALiBi head drawn as a matrix
  rhd: { min: 4, max: 1024, integer: true, even: true }, // RoPE head_dim
  rbase: { min: 2, max: 1e9 }, // rope_theta
  rf: { min: 1, max: 128 }, // factor
  rl0: { min: 16, max: 1_048_576, integer: true }, // original_max_position_embeddings
  rlen: { min: 16, max: 16_777_216, integer: true }, // context length
  rbf: { min: 0.01, max: 1024 }, // beta_fast
  rbs: { min: 0.01, max: 1024 }, // beta_slow
  rlo: { min: 0.01, max: 1024 }, // low_freq_factor
  rhi: { min: 0.01, max: 1024 }, // high_freq_factor
};

export const BEYOND_DEFAULTS = Object.freeze({
  cw: 128,
  heads: 8,
  head: 0,
  causal: true,
  qk: 'same',
  rhd: 128,
  rbase: 10000,
  rs: 'yarn',
  rf: 8,
  rl0: 4096,
  rlen: 32768,
  rbf: 32,
  rbs: 1,
  rlo: 1,
  rhi: 4,
});

const LABELS = {
  cw: 'comparison window', heads: 'ALiBi heads', head: 'ALiBi head', rhd: 'head_dim', rbase: 'rope_theta',
  rf: 'factor', rl0: 'original_max_position_embeddings', rlen: 'context length', rbf: 'beta_fast',
  rbs: 'beta_slow', rlo: 'low_freq_factor', rhi: 'high_freq_factor',
};

/** Clamps a numeric field; returns { value, note }. */
export function clampBeyond(name, raw) {
  const { min, max, integer, even } = BEYOND_LIMITS[name];
  const label = LABELS[name];
  const text = String(raw).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) {
    return { value: BEYOND_DEFAULTS[name], note: `${label} “${raw}” is not a number; using ${BEYOND_DEFAULTS[name]}` };
  }
  let value = integer ? Math.round(n) : n;
  let note = value !== n ? `${label} must be a whole number; using ${value}` : '';
  if (even && value % 2 !== 0) {
    value += 1;
    note = `${label} ${n} is odd (elements rotate in pairs); using ${value}`;
  }
  if (value < min) { value = min; note = `${label} ${n} is below ${min}; clamped to ${min}`; }
  if (value > max) { value = max; note = `${label} ${n} is above ${max}; clamped to ${max}`; }
  return { value, note };
}

/** The beyond state from a query string: { state, notes }. */
export function readBeyondQuery(search) {
  const params = new URLSearchParams(search);
  const state = { ...BEYOND_DEFAULTS };
  const notes = [];
  for (const name of Object.keys(BEYOND_LIMITS)) {
    if (!params.has(name)) continue;
    const { value, note } = clampBeyond(name, params.get(name));
    state[name] = value;
    if (note) notes.push(note);
  }
  if (state.head >= state.heads) {
    notes.push(`ALiBi head ${state.head} does not exist with ${state.heads} heads; showing head ${state.heads - 1}`);
    state.head = state.heads - 1;
  }
  if (params.has('causal')) state.causal = params.get('causal') !== '0';
  if (params.has('qk')) {
    const qk = params.get('qk');
    if (QK_CHOICES.includes(qk)) state.qk = qk;
    else notes.push(`qk “${qk}” is not one of ${QK_CHOICES.join(', ')}; using ${BEYOND_DEFAULTS.qk}`);
  }
  if (params.has('rs')) {
    const rs = params.get('rs');
    if (SCALINGS.includes(rs)) state.rs = rs;
    else notes.push(`RoPE scaling “${rs}” is not one of ${SCALINGS.join(', ')}; using ${BEYOND_DEFAULTS.rs}`);
  }
  return { state, notes };
}

/** Appends the fields that differ from the defaults to a query string made by state.js. */
export function withBeyondQuery(query, state) {
  const params = new URLSearchParams(query);
  for (const name of Object.keys(BEYOND_DEFAULTS)) {
    if (state[name] === BEYOND_DEFAULTS[name]) continue;
    params.set(name, typeof state[name] === 'boolean' ? (state[name] ? '1' : '0') : String(state[name]));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The HF rope_scaling dict for the chosen type, with only the keys that type
 * reads (so it could be pasted into a model config), or undefined for none.
 */
export function ropeScalingDict(state) {
  const factor = state.rf;
  const original = state.rl0;
  switch (state.rs) {
    case 'linear':
      return { rope_type: 'linear', factor };
    case 'dynamic':
      return { rope_type: 'dynamic', factor, original_max_position_embeddings: original };
    case 'yarn':
      return { rope_type: 'yarn', factor, original_max_position_embeddings: original, beta_fast: state.rbf, beta_slow: state.rbs };
    case 'llama3':
      return {
        rope_type: 'llama3', factor, original_max_position_embeddings: original,
        low_freq_factor: state.rlo, high_freq_factor: state.rhi,
      };
    default:
      return undefined;
  }
}
