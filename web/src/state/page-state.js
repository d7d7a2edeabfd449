// The page's whole state: its limits, its defaults, and its round trip through
// the URL query string. Reading never throws: a part it cannot read falls back
// to its default, and a value outside its range is clamped with a note saying so.

export const LIMITS = {
  d: { min: 2, max: 2048 },
  len: { min: 1, max: 8192 },
  base: { min: 2, max: 1e7 },
  off: { min: 0, max: 1_000_000 },
  p: { min: 0, max: 1_000_000 },
  k: { min: 0, max: 8192 },
};

export const DEFAULT_SENTENCES = ['The cat chased the mouse', 'The mouse chased the cat'];
export const MAX_SQUIGGLE_DIMS = 16;

export const DEFAULTS = Object.freeze({
  d: 128,
  len: 256,
  base: 10000,
  off: 0,
  layout: 'interleaved',
  // The sines of 8 pairs from the fastest to the slowest (the 'spread' preset at d = 128).
  dims: [0, 18, 36, 54, 72, 90, 108, 126],
  p: 10,
  k: 5,
  s1: DEFAULT_SENTENCES[0],
  s2: DEFAULT_SENTENCES[1],
  scale: false,
  theme: 'auto',
});

const LAYOUTS = ['interleaved', 'split'];
const THEMES = ['auto', 'light', 'dark'];
const MAX_SENTENCE_CHARS = 200;

/** Clamps an integer-valued field; returns { value, note }. */
export function clampInteger(name, raw) {
  const { min, max } = LIMITS[name];
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isFinite(n)) {
    return { value: DEFAULTS[name], note: `${name} “${raw}” is not a number; using ${DEFAULTS[name]}` };
  }
  let value = Math.round(n);
  let note = value !== n ? `${name} must be a whole number; using ${value}` : '';
  if (value < min) { value = min; note = `${name} ${n} is below ${min}; clamped to ${min}`; }
  if (value > max) { value = max; note = `${name} ${n} is above ${max}; clamped to ${max}`; }
  return { value, note };
}

/** d: clamped, and an odd d is explained and replaced by the next even one. */
export function clampDim(raw) {
  const { value, note } = clampInteger('d', raw);
  if (value % 2 === 0) return { value, note };
  const even = Math.min(value + 1, LIMITS.d.max);
  return {
    value: even,
    note: `d = ${value} is odd: each frequency fills a sine and a cosine column, so d must be even; showing d = ${even}`,
  };
}

export function clampBase(raw) {
  const { min, max } = LIMITS.base;
  const n = Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isFinite(n)) {
    return { value: DEFAULTS.base, note: `base “${raw}” is not a number; using ${DEFAULTS.base}` };
  }
  if (n < min) return { value: min, note: `base ${n} is below ${min}; clamped to ${min}` };
  if (n > max) return { value: max, note: `base ${n} is above ${max}; clamped to ${max}` };
  return { value: n, note: '' };
}

/** "0-3, 8, 10" → [0, 1, 2, 3, 8, 10], each below d, at most MAX_SQUIGGLE_DIMS. */
export function parseDims(text, d) {
  const dims = [];
  let note = '';
  for (const part of String(text).split(',')) {
    const m = part.trim().match(/^(\d+)(?:\s*[-–]\s*(\d+))?$/);
    if (!m) {
      if (part.trim() !== '') note = `could not read “${part.trim()}” as a dimension or range`;
      continue;
    }
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let j = Math.min(from, to); j <= Math.max(from, to) && dims.length <= MAX_SQUIGGLE_DIMS; j++) {
      if (j >= d) { note = `dimensions go from 0 to ${d - 1} when d = ${d}; dropped ${j}…`; break; }
      if (!dims.includes(j)) dims.push(j);
    }
  }
  if (dims.length > MAX_SQUIGGLE_DIMS) {
    dims.length = MAX_SQUIGGLE_DIMS;
    note = `at most ${MAX_SQUIGGLE_DIMS} dimensions are drawn at once`;
  }
  if (dims.length === 0) {
    dims.push(...DEFAULTS.dims.filter((j) => j < d));
    note = note || 'no dimensions chosen; showing the default ones';
  }
  return { value: dims, note };
}

/** "0,1,2,3,8" → "0-3,8": short and readable in a URL. */
export function formatDims(dims) {
  const sorted = [...dims].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return parts.join(',');
}

function cleanSentence(raw, fallback) {
  const text = String(raw ?? '').slice(0, MAX_SENTENCE_CHARS);
  return /[\p{L}\p{N}]/u.test(text) ? text : fallback;
}

/**
 * Reads a query string into a full state. Returns { state, notes }: notes
 * explain every part that was clamped or could not be read.
 */
export function readQuery(search) {
  const params = new URLSearchParams(search);
  const state = { ...DEFAULTS, dims: [...DEFAULTS.dims] };
  const notes = [];
  const take = (result) => { if (result.note) notes.push(result.note); return result.value; };

  if (params.has('d')) state.d = take(clampDim(params.get('d')));
  for (const name of ['len', 'off', 'p', 'k']) {
    if (params.has(name)) state[name] = take(clampInteger(name, params.get(name)));
  }
  if (params.has('base')) state.base = take(clampBase(params.get('base')));
  if (params.has('layout')) {
    const layout = params.get('layout');
    if (LAYOUTS.includes(layout)) state.layout = layout;
    else notes.push(`layout “${layout}” is not interleaved or split; using interleaved`);
  }
  if (params.has('theme') && THEMES.includes(params.get('theme'))) state.theme = params.get('theme');
  if (params.has('scale')) state.scale = params.get('scale') === '1';
  if (params.has('s1')) state.s1 = cleanSentence(params.get('s1'), DEFAULTS.s1);
  if (params.has('s2')) state.s2 = cleanSentence(params.get('s2'), DEFAULTS.s2);
  state.dims = take(parseDims(params.has('dims') ? params.get('dims') : formatDims(DEFAULTS.dims), state.d));
  return { state, notes };
}

/** Writes the parts that differ from the defaults, so shared URLs stay short. */
export function writeQuery(state) {
  const params = new URLSearchParams();
  for (const name of ['d', 'len', 'base', 'off', 'layout', 'p', 'k', 's1', 's2', 'theme']) {
    if (state[name] !== DEFAULTS[name]) params.set(name, String(state[name]));
  }
  const dims = formatDims(state.dims);
  if (dims !== formatDims(DEFAULTS.dims)) params.set('dims', dims);
  if (state.scale) params.set('scale', '1');
  const text = params.toString();
  return text ? `?${text}` : '';
}
