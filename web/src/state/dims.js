// The squiggles view's columns: a list the reader types ("0-3, 64"), a
// preset, or 'auto', the default: the sine and cosine of four pairs whose
// wavelengths spread from the fastest to about twice the table's length, so
// no line is flat and every pair shows both of its columns.
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
  // auto: pair i turns once every 2π·T^(2i/d) positions; keep those up to twice the length.
  const visible = Math.floor(((d / 2) * Math.log(Math.max(2, (2 * len) / (2 * Math.PI)))) / Math.log(base));
  const last = Math.max(0, Math.min(d / 2 - 1, visible));
  const pairs = [...new Set([0, 1, 2, 3].map((n) => Math.round((n * last) / 3)))];
  return pairs.flatMap((pair) => [column(pair, 'sin'), column(pair, 'cos')]);
}

/** The columns the squiggles view draws for a state. */
export function shownDims(state) {
  return state.dims === 'auto' ? presetDims('auto', state) : state.dims;
}
