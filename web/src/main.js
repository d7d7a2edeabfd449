// The page: reads the state from the URL, loads the posenc wasm core, wires the
// controls, and redraws every view when the state changes.
import 'uplot/dist/uPlot.min.css';
import { init, PosencError } from '../../src/js/index.js';
import { clampBase, clampDim, clampInteger, parseDims, readQuery, writeQuery, formatDims } from './state.js';
import { tableShape, tableView, updateTable } from './encoding.js';
import { createSquigglesView, presetDims } from './squiggles-view.js';
import { createHeatmapView } from './heatmap-view.js';
import { createRotationView } from './rotation-view.js';
import { createEmbeddingView } from './embedding-view.js';
import { createNaiveView } from './naive-view.js';
import { download, downloadFigure, tableCsv, tableNpy } from './export.js';
import { plotIn } from './line-plot.js';
import { createScheduler } from './scheduler.js';
import { applyTheme, watchSystemTheme } from './theme.js';
import { createBeyond } from './beyond.js';
import { createT5DistanceView } from './views/t5-distance-view.js';
import { mountIdentifyView } from './views/identify-view.js';

const $ = (id) => document.getElementById(id);

const { state, notes: loadNotes } = readQuery(location.search);
const notes = new Map(); // field → note shown under the controls
loadNotes.forEach((text, n) => notes.set(`url${n}`, text));

function showNotes() {
  $('notes').replaceChildren(
    ...[...notes.values()].map((text) => {
      const p = document.createElement('p');
      p.textContent = text;
      return p;
    }),
  );
}

function setNote(field, text) {
  if (!text && !notes.has(field)) return;
  if (text) notes.set(field, text);
  else notes.delete(field);
  showNotes();
}

// ---- views ----------------------------------------------------------------
const views = [
  createSquigglesView({ container: $('squiggles-plot'), legend: $('squiggles-legend'), readout: $('squiggles-readout') }),
  createHeatmapView({ canvas: $('heatmap-canvas'), marker: $('heatmap-marker'), readout: $('heatmap-readout') }),
  createRotationView({
    circlesCanvas: $('circles-canvas'),
    matrixCanvas: $('matrix-canvas'),
    similarityCanvas: $('similarity-canvas'),
    profile: $('profile-plot'),
    residualOut: $('rotation-residual'),
    similarityOut: $('similarity-facts'),
  }),
  createEmbeddingView({ canvas: $('embedding-canvas'), facts: $('embedding-facts'), wordSelect: $('ctl-word') }),
  createNaiveView({ raw: $('naive-raw'), norm: $('naive-norm'), sin: $('naive-sin'), facts: $('naive-facts') }),
];

// Sections 6–8 (comparison, RoPE, precision): their own state and controls, in the same URL and render loop.
const beyond = createBeyond({ search: location.search, onChange: () => commit({}), setNote });
views.push(...beyond.views);
views.push(createT5DistanceView({ buckets: $('t5-buckets-plot'), others: $('t5-others-plot'), facts: $('t5-facts') }));
beyond.notes.forEach((text, n) => notes.set(`url-beyond${n}`, text));

let renders = 0;
function renderAll() {
  try {
    const start = performance.now();
    updateTable(state);
    const times = [performance.now() - start];
    for (const view of views) {
      const t0 = performance.now();
      view.render(state);
      times.push(performance.now() - t0);
    }
    renders += 1;
    document.body.dataset.renderSteps = times.map((t) => t.toFixed(0)).join(' ');
    setNote('error', '');
    // For the browser test: how many frames were drawn and how long the last took.
    document.body.dataset.renders = String(renders);
    document.body.dataset.renderMs = (performance.now() - start).toFixed(1);
  } catch (error) {
    // Never a blank page: say what failed where the notes are, and keep the rest.
    setNote('error', error instanceof PosencError ? error.message : `Something went wrong: ${error.message}`);
    console.error(error);
  }
}

const scheduler = createScheduler(renderAll);

// ---- controls -------------------------------------------------------------
function syncUrl() {
  const query = beyond.query(writeQuery(state));
  if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
}

function syncControls() {
  $('ctl-d').value = state.d;
  $('ctl-d-range').value = state.d;
  $('ctl-len').value = state.len;
  $('ctl-len-range').value = state.len;
  $('ctl-base').value = state.base;
  $('ctl-base-range').value = Math.log10(state.base);
  $('ctl-off').value = state.off;
  $('ctl-off-range').value = Math.min(state.off, 10000);
  $(`ctl-layout-${state.layout}`).checked = true;
  $('ctl-p').value = state.p;
  $('ctl-p-range').value = Math.min(state.p, 1000);
  $('ctl-k').value = state.k;
  $('ctl-k-range').value = Math.min(state.k, 200);
  if (document.activeElement !== $('ctl-dims')) $('ctl-dims').value = formatDims(state.dims);
  if (document.activeElement !== $('ctl-s1')) $('ctl-s1').value = state.s1;
  if (document.activeElement !== $('ctl-s2')) $('ctl-s2').value = state.s2;
  $('ctl-scale').checked = state.scale;
  $('ctl-theme').value = state.theme;
}

/** Applies a change to the state: URL, inputs and (soon) the views follow. */
function commit(changes, { immediate = false } = {}) {
  // Notes about the loaded URL are stale once the user changes something.
  for (const key of [...notes.keys()]) if (key.startsWith('url')) notes.delete(key);
  showNotes();
  Object.assign(state, changes);
  if ('d' in changes) {
    // Columns past the new d no longer exist.
    const { value, note } = parseDims(formatDims(state.dims), state.d);
    state.dims = value;
    setNote('dims', note);
  }
  syncUrl();
  syncControls();
  scheduler.request({ immediate });
}

/** A number box and its slider: the slider commits at once, typing after a pause or on Enter. */
function wireNumber(name, clamp, { fromRange = Number } = {}) {
  const box = $(`ctl-${name}`);
  const range = $(`ctl-${name}-range`);
  const take = (raw) => {
    // A change event after Enter re-sends the value already shown: keep its note.
    if (String(raw) === String(state[name])) return;
    const { value, note } = clamp(raw);
    setNote(name, note);
    commit({ [name]: value });
  };
  let typingTimer = 0;
  box.addEventListener('input', () => {
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => {
      if (box.value !== '') take(box.value);
    }, 400);
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
  range.addEventListener('input', () => take(fromRange(range.value)));
}

wireNumber('d', clampDim);
wireNumber('len', (raw) => clampInteger('len', raw));
wireNumber('base', clampBase, { fromRange: (v) => Number((10 ** Number(v)).toPrecision(3)) });
wireNumber('off', (raw) => clampInteger('off', raw));
wireNumber('p', (raw) => clampInteger('p', raw));
wireNumber('k', (raw) => clampInteger('k', raw));

for (const radio of document.querySelectorAll('input[name="layout"]')) {
  radio.addEventListener('change', () => radio.checked && commit({ layout: radio.value }));
}

$('ctl-dims').addEventListener('input', () => {
  const { value, note } = parseDims($('ctl-dims').value, state.d);
  setNote('dims', note);
  commit({ dims: value });
});
$('ctl-dims').addEventListener('change', () => syncControls());
for (const button of document.querySelectorAll('[data-dims]')) {
  button.addEventListener('click', () => {
    setNote('dims', '');
    commit({ dims: presetDims(button.dataset.dims, state.d) }, { immediate: true });
    $('ctl-dims').value = formatDims(state.dims);
  });
}

for (const n of ['1', '2']) {
  $(`ctl-s${n}`).addEventListener('input', (event) => {
    const text = event.target.value.slice(0, 200);
    commit({ [`s${n}`]: /[\p{L}\p{N}]/u.test(text) ? text : state[`s${n}`] });
  });
}
$('ctl-scale').addEventListener('change', (event) => commit({ scale: event.target.checked }));
$('ctl-word').addEventListener('change', (event) => {
  $('ctl-word').dataset.chosen = event.target.value;
  scheduler.request({ immediate: true });
});

$('ctl-theme').addEventListener('change', (event) => {
  applyTheme(event.target.value);
  commit({ theme: event.target.value }, { immediate: true });
});
watchSystemTheme(() => {
  if (state.theme === 'auto') {
    applyTheme('auto');
    scheduler.request({ immediate: true });
  }
});

// ---- exports --------------------------------------------------------------
const fileStem = () => {
  const { dim, length, base, offset, layout } = tableShape();
  return `posenc-d${dim}-len${length}-base${base}-off${offset}-${layout}`;
};
const exporters = {
  squiggles: () => downloadFigure([plotIn($('squiggles-plot'))], `${fileStem()}-squiggles.png`),
  heatmap: () => downloadFigure([$('heatmap-canvas')], `${fileStem()}-heatmap.png`),
  circles: () =>
    downloadFigure([$('circles-canvas'), $('matrix-canvas')], `${fileStem()}-p${state.p}-k${state.k}-rotation.png`),
  similarity: () => downloadFigure([$('similarity-canvas'), plotIn($('profile-plot'))], `${fileStem()}-similarity.png`),
  embedding: () => downloadFigure([$('embedding-canvas')], `${fileStem()}-embedding.png`),
  naive: () => downloadFigure(['naive-raw', 'naive-norm', 'naive-sin'].map((id) => plotIn($(id))), `${fileStem()}-naive.png`),
};
for (const button of document.querySelectorAll('[data-export]')) {
  button.addEventListener('click', () => exporters[button.dataset.export]());
}
$('export-csv').addEventListener('click', () => {
  // A big table takes a moment to format: say so before the page is busy.
  const button = $('export-csv');
  button.textContent = 'CSV…';
  button.disabled = true;
  setTimeout(() => {
    const { length, dim, offset } = tableShape();
    download(tableCsv(tableView(), length, dim, offset), `${fileStem()}.csv`);
    button.textContent = 'CSV';
    button.disabled = false;
  }, 30);
});
$('export-npy').addEventListener('click', () => {
  const { length, dim } = tableShape();
  download(tableNpy(tableView(), length, dim), `${fileStem()}.npy`);
});

// ---- start ----------------------------------------------------------------
applyTheme(state.theme);
syncControls();
syncUrl();
showNotes();
let lastWidth = 0;
new ResizeObserver(([entry]) => {
  const width = Math.round(entry.contentRect.width);
  if (width !== lastWidth) {
    lastWidth = width;
    scheduler.request();
  }
}).observe(document.querySelector('main'));

init()
  .then(({ simd }) => {
    $('engine').textContent = simd ? '(WebAssembly SIMD build)' : '(WebAssembly scalar build)';
    renderAll();
    scheduler.enable();
    mountIdentifyView();
    document.body.dataset.ready = '1';
  })
  .catch((error) => {
    setNote('error', `The posenc WebAssembly core could not be loaded: ${error.message}`);
    console.error(error);
  });
