// Binds the page's form controls to the state: one wiring for every number
// box (with its slider, if it has one), and one sync that writes the state
// back into every control. A box commits after a pause in typing, on Enter
// or on leaving it; a slider commits on every input event, so the views
// follow a drag.
import { clampField } from './clamp.js';
import { formatDims, shownDims } from './dims.js';
import { grouped } from '../draw/format.js';

const $ = (id) => document.getElementById(id);

// Number fields with a box `ctl-<name>` (and maybe a slider `ctl-<name>-range`).
export const NUMBER_CONTROLS = [
  'd',
  'len',
  'base',
  'off',
  'p',
  'k',
  'cw',
  'heads',
  'head',
  'rhd',
  'rbase',
  'rf',
  'rl0',
  'rlen',
  'rbf',
  'rbs',
  'rlo',
  'rhi',
];

// Sliders whose scale is not the field's own: base moves on log10(T).
// offset moves on log10(offset) (0 at the left end), so its slider reaches 10^6 and still steps by 1 near 1.
const SLIDER_SCALES = {
  base: { toSlider: (v) => Math.log10(v), fromSlider: (v) => Number((10 ** Number(v)).toPrecision(3)) },
  off: {
    toSlider: (v) => (v > 0 ? Math.log10(v) : 0),
    fromSlider: (v) => (Number(v) > 0 ? Math.round(10 ** Number(v)) : 0),
  },
};

const VALUE_NAMES = { base: 'T', len: 'length', off: 'offset', cw: 'window' };

/**
 * Wires the box and slider of a number field. commit(name, value, note, { transient }) is
 * called with the clamped value whenever it differs from current(name); transient while a
 * slider is dragged, and settle() once it is let go (a drag writes the URL once, not per input).
 */
export function wireNumber(name, { current, commit, settle }) {
  const box = $(`ctl-${name}`);
  const range = $(`ctl-${name}-range`);
  const take = (raw, options) => {
    // A change event after Enter re-sends the value already shown: keep its note.
    if (String(raw) === String(current(name))) return;
    const { value, note } = clampField(name, raw);
    commit(name, value, note, options);
  };
  let typingTimer = 0;
  box.addEventListener('input', () => {
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => box.value !== '' && take(box.value), 400);
  });
  box.addEventListener('change', () => {
    clearTimeout(typingTimer);
    take(box.value);
  });
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      clearTimeout(typingTimer);
      take(box.value);
    }
  });
  const scale = SLIDER_SCALES[name];
  range?.addEventListener('input', () =>
    take(scale ? scale.fromSlider(range.value) : Number(range.value), { transient: true }),
  );
  range?.addEventListener('change', settle);
}

/** Sets a property or attribute only when it changes: this runs on every input of a drag, and each write costs style work. */
function write(element, name, value) {
  if (name in element) {
    if (element[name] !== String(value)) element[name] = String(value);
  } else if (element.getAttribute(name) !== String(value)) element.setAttribute(name, String(value));
}

/** Writes the state into every control (a box being typed in keeps its text). */
export function syncControls(state) {
  for (const name of NUMBER_CONTROLS) {
    write($(`ctl-${name}`), 'value', state[name]);
    const range = $(`ctl-${name}-range`);
    if (range) {
      const scale = SLIDER_SCALES[name];
      write(range, 'value', scale ? scale.toSlider(state[name]) : Math.min(state[name], Number(range.max)));
      // Screen readers hear the field's value, not the slider's (log) position: "T = 10,000".
      write(range, 'aria-valuetext', `${VALUE_NAMES[name] ?? name} = ${grouped(state[name])}`);
    }
  }
  $(`ctl-layout-${state.layout}`).checked = true;
  if (document.activeElement !== $('ctl-dims')) $('ctl-dims').value = formatDims(shownDims(state));
  for (const name of ['s1', 's2'])
    if (document.activeElement !== $(`ctl-${name}`)) $(`ctl-${name}`).value = state[name];
  $('ctl-scale').checked = state.scale;
  $('ctl-theme').value = state.theme;
  $('ctl-head').max = String(state.heads - 1);
  $('ctl-qk').value = state.qk;
  $('ctl-causal').checked = state.causal;
  $('ctl-rs').value = state.rs;
  for (const label of document.querySelectorAll('.rope-controls [data-types]')) {
    label.hidden = !label.dataset.types.split(' ').includes(state.rs);
  }
}
