// The squiggles view's columns: a list the reader types ("0-3, 64"), a
// preset, or 'auto', the default: the sine and cosine of two pairs, a fast one
// (the fastest that still draws as a wave at the table's length) and a slow
// one (about twice the length), so no line is flat or a solid band, every pair
// shows both of its columns, and the axis holds four curves.
import { FIELDS, MAX_SQUIGGLE_DIMS } from './fields.js';

/**
 * "0-3, 8, 10" → { value: [0, 1, 2, 3, 8, 10], note }: each below d, at most
 * MAX_SQUIGGLE_DIMS; "auto" (or nothing readable) → { value: 'auto' }.
 */
export function parseDims(text, d) {
  if (String(text).trim() === 'auto') return { value: 'auto', note: '' };
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
      if (j >= d) {
        note = `dimensions go from 0 to ${d - 1} when d = ${d}; dropped ${j}…`;
        break;
      }
      if (!dims.includes(j)) dims.push(j);
    }
  }
  if (dims.length > MAX_SQUIGGLE_DIMS) {
    dims.length = MAX_SQUIGGLE_DIMS;
    note = `at most ${MAX_SQUIGGLE_DIMS} dimensions are drawn at once`;
  }
  if (dims.length === 0) return { value: 'auto', note: note || 'no dimensions chosen; showing the default ones' };
  return { value: dims, note };
}

/** [0, 1, 2, 3, 8] → "0-3,8": short and readable in a URL; 'auto' stays 'auto'. */
export function formatDims(dims) {
  if (dims === 'auto') return 'auto';
  const sorted = [...dims].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Column lists for the preset buttons (and 'auto'), for a table of d columns in a layout. */
export function presetDims(name, { d, layout, len, base }) {
  if (name === 'first2') return [0, 1].filter((j) => j < d);
  if (name === 'first8') return [0, 1, 2, 3, 4, 5, 6, 7].filter((j) => j < d);
  const column = (pair, kind) =>
    layout === 'split' ? (kind === 'sin' ? pair : d / 2 + pair) : 2 * pair + (kind === 'cos');
  if (name === 'spread') {
    // The sines of 8 pairs spaced evenly from the fastest to the slowest.
    const pairs = Math.min(8, d / 2);
    const out = Array.from({ length: pairs }, (_, n) => Math.round((n * (d / 2 - 1)) / Math.max(1, pairs - 1)));
    return [...new Set(out)].map((pair) => column(pair, 'sin'));
  }
  // auto: two pairs, sine and cosine (four curves: a learner can follow each). Pair i turns once every
  // 2π·T^(2i/d) positions. The slow one turns about once in twice the length; the fast one is the fastest
  // that still shows as a wave when the whole length fits about 1000 pixels (at least 8 positions a turn
  // per pixel-width of positions), so a long table draws squiggles, not solid bands.
  const pairAt = (wavelength) => ((d / 2) * Math.log(Math.max(1, wavelength / (2 * Math.PI)))) / Math.log(base);
  const last = Math.max(0, Math.min(d / 2 - 1, Math.floor(pairAt(2 * len))));
  const fast = Math.max(0, Math.min(last, Math.ceil(pairAt((8 * len) / 1000))));
  const pairs = [...new Set([fast, last])];
  return pairs.flatMap((pair) => [column(pair, 'sin'), column(pair, 'cos')]);
}

/** The columns the squiggles view draws for a state. */
export function shownDims(state) {
  return state.dims === 'auto' ? presetDims('auto', state) : state.dims;
}
