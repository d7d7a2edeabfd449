// The state's round trip through the URL query string, so a view can be
// shared. Reading never throws: every parameter goes through clampField, and
// the notes say what was clamped or could not be read. Writing keeps only the
// fields that differ from their defaults, so shared URLs stay short.
import { clampField, clampLlama3Pair } from './clamp.js';
import { formatDims, parseDims } from './dims.js';
import { FIELDS, defaultState } from './fields.js';

/** Reads a query string into a full state: { state, notes }. */
export function readQuery(search) {
  const params = new URLSearchParams(search);
  const state = defaultState();
  const notes = [];
  for (const name of Object.keys(FIELDS)) {
    if (name === 'dims' || !params.has(name)) continue;
    const { value, note } = clampField(name, params.get(name));
    state[name] = value;
    // The theme is a preference, not a view: an unknown one is silently the default.
    if (note && name !== 'theme') notes.push(note);
  }
  if (params.has('dims')) {
    const dims = parseDims(params.get('dims'), state.d);
    state.dims = dims.value;
    if (dims.note) notes.push(dims.note);
  }
  const pairNote = clampLlama3Pair(state);
  if (pairNote) notes.push(pairNote);
  if (state.head >= state.heads) {
    notes.push(`ALiBi head ${state.head} does not exist with ${state.heads} heads; showing head ${state.heads - 1}`);
    state.head = state.heads - 1;
  }
  return { state, notes };
}

/** The query string ('' or '?…') for a state. */
export function writeQuery(state) {
  const params = new URLSearchParams();
  for (const [name, field] of Object.entries(FIELDS)) {
    if (name === 'dims') continue;
    if (state[name] === field.initial) continue;
    params.set(name, field.kind === 'flag' ? (state[name] ? '1' : '0') : String(state[name]));
  }
  if (state.dims !== 'auto') params.set('dims', formatDims(state.dims));
  const text = params.toString();
  return text ? `?${text}` : '';
}
