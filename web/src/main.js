// The page's one root: reads the state from the URL, loads the posenc wasm
// core, creates the views, wires the controls and redraws the views when the
// state changes. Everything a view draws comes from the package.
import 'uplot/dist/uPlot.min.css';
import { init, PosencError } from '../../src/js/index.js';
import { readQuery, writeQuery } from './state/query.js';
import { clampField } from './state/clamp.js';
import { formatDims, parseDims, presetDims, shownDims } from './state/dims.js';
import { NUMBER_CONTROLS, syncControls, wireNumber } from './state/controls.js';
import { createNotes } from './state/notes.js';
import { cursorPosition, setCursor } from './state/cursor.js';
import { wirePlayer } from './state/player.js';
import { FIELDS } from './state/fields.js';
import { onSummaryReady, updateTable } from './compute/encoding.js';
import { createWhyView } from './views/why-view.js';
import { createScheduler } from './views/scheduler.js';
import { warmCanvases } from './draw/canvas-warm.js';
import { applyTheme, watchSystemTheme } from './draw/theme.js';
import { compactScreen } from './draw/canvas.js';
import { wireAnchors } from './state/anchor.js';
import { wireShortcuts } from './state/shortcuts.js';

const $ = (id) => document.getElementById(id);

const { state, notes: urlNotes } = readQuery(location.search);
const notes = createNotes($('notes'));
urlNotes.forEach((text, n) => notes.set(`url${n}`, text));

// ---- views ----------------------------------------------------------------
// The first view's figure is built at once; every other view is a dynamic import,
// loaded when its section nears the viewport (the scheduler's load()), so the
// first view's weight does not grow with the views below the fold.

let learned = null; // the comparison view's learned-table panel, made with the view

// Each view with the section it draws in: the view itself, or a function
// loading it. A view that fails says so there and leaves the rest alone.
const views = [
  ['why', createWhyView({ canvas: $('why-canvas'), facts: $('why-facts') })],
  [
    'squiggles',
    () =>
      import('./views/squiggles-view.js').then(({ createSquigglesView }) =>
        createSquigglesView({
          container: $('squiggles-plot'),
          legend: $('squiggles-legend'),
          readout: $('squiggles-readout'),
        }),
      ),
  ],
  [
    'heatmap',
    () =>
      import('./views/heatmap-view.js').then(({ createHeatmapView }) =>
        createHeatmapView({
          canvas: $('heatmap-canvas'),
          marker: $('heatmap-marker'),
          cursorLine: $('heatmap-cursor'),
          readout: $('heatmap-readout'),
          summary: $('heatmap-aggregation'),
        }),
      ),
  ],
  [
    'rotation',
    () =>
      import('./views/rotation-view.js').then(({ createRotationView }) =>
        createRotationView({
          circlesCanvas: $('circles-canvas'),
          circlesNote: $('circles-note'),
          matrixCanvas: $('matrix-canvas'),
          similarityCanvas: $('similarity-canvas'),
          profile: $('profile-plot'),
          residualOut: $('rotation-residual'),
          similarityOut: $('similarity-facts'),
          similarityReadout: $('similarity-readout'),
        }),
      ),
  ],
  [
    'embedding',
    () =>
      import('./views/embedding-view.js').then(({ createEmbeddingView }) =>
        createEmbeddingView({ canvas: $('embedding-canvas'), facts: $('embedding-facts'), wordSelect: $('ctl-word') }),
      ),
  ],
  [
    'naive',
    () =>
      import('./views/naive-view.js').then(({ createNaiveView }) =>
        createNaiveView({ raw: $('naive-raw'), norm: $('naive-norm'), sin: $('naive-sin'), facts: $('naive-facts') }),
      ),
  ],
  [
    'comparison',
    () =>
      // Its learned table's panel (file drop, the shipped table) comes with it: none of the first view.
      Promise.all([import('./views/comparison-view.js'), import('./io/learned-panel.js')]).then(
        async ([{ createComparisonView }, { createLearnedPanel }]) => {
          learned ??= createLearnedPanel({ onChange: () => scheduler.request(['comparison']) }); // once, if loaded again
          await learned.ready();
          return createComparisonView({
            canvases: { sin: $('cmp-sin'), learned: $('cmp-learned'), rope: $('cmp-rope'), alibi: $('cmp-alibi') },
            profile: $('cmp-profile'),
            alibiProfile: $('cmp-alibi-profile'),
            readout: $('cmp-readout'),
            facts: $('cmp-facts'),
            learned,
            allHeads: $('cmp-all-heads'),
          });
        },
      ),
  ],
  [
    'longrange',
    () =>
      import('./views/longrange-view.js').then(({ createLongRangeView }) =>
        createLongRangeView({
          plot: $('longrange-plot'),
          readout: $('longrange-readout'),
          facts: $('longrange-facts'),
          all: $('longrange-all'),
        }),
      ),
  ],
  [
    'rope',
    () =>
      import('./views/rope-view.js').then(({ createRopeView }) =>
        createRopeView({
          speed: $('rope-speed'),
          wavelength: $('rope-wavelength'),
          bands: $('rope-bands'),
          readout: $('rope-readout'),
          facts: $('rope-facts'),
          config: $('rope-config'),
          status: $('rope-status'),
          plots: $('rope-plots'),
        }),
      ),
  ],
  [
    'precision',
    () =>
      import('./views/precision-view.js').then(({ createPrecisionView }) =>
        createPrecisionView({
          plot: $('precision-plot'),
          readout: $('precision-readout'),
          facts: $('precision-facts'),
          all: $('precision-all'),
        }),
      ),
  ],
  [
    't5-distance',
    () =>
      import('./views/t5-distance-view.js').then(({ createT5DistanceView }) =>
        createT5DistanceView({
          buckets: $('t5-buckets-plot'),
          others: $('t5-others-plot'),
          facts: $('t5-facts'),
          readout: $('t5-readout'),
        }),
      ),
  ],
  // Wired once, when it nears the viewport; it draws on its own (on a file, paste or example).
  ['identify', () => import('./views/identify-view.js').then(({ mountIdentifyView }) => mountIdentifyView())],
  // View 12: what a dropped, pasted or preset config.json says (a preset loads it at once).
  [
    'config',
    () =>
      import('./views/config-view.js').then(({ createConfigView }) =>
        createConfigView({
          zone: $('config-drop'),
          file: $('config-file'),
          paste: $('config-paste'),
          status: $('config-status'),
          facts: $('config-facts'),
          plot: $('config-plot'),
          readout: $('config-readout'),
          onRead: (text, source, fromUser) => fromUser && applyConfig(text, source),
        }),
      ),
  ],
].map(([section, view]) => ({ section, view, error: $(`${section}-error`) }));

/** Runs one step of a view's drawing (its render, or the rest a render returned); a failure is said in its section. */
function drawStep(entry, step) {
  try {
    const more = step();
    if (entry.error) entry.error.textContent = '';
    // The rest keeps its mark: a rest waiting for the worker is not run until the worker answers.
    return typeof more === 'function'
      ? Object.assign(() => drawStep(entry, more), { waiting: more.waiting })
      : undefined;
  } catch (failure) {
    const message = failure instanceof PosencError ? failure.message : (failure?.message ?? failure);
    if (entry.error) entry.error.textContent = `This view could not be drawn: ${message}`;
    console.error(failure);
    return undefined;
  }
}

/** A loaded view: made, and told how to ask for its own redraws. */
function adopt(entry, view) {
  entry.view = view;
  view?.setRedraw?.(() => scheduler.request([entry.section]));
}

/** The view of a section, loaded once (when it nears the viewport, or when an export asks for it first). */
function viewOf(section) {
  const entry = views.find((e) => e.section === section);
  entry.loading ??=
    typeof entry.view === 'function'
      ? entry.view().then(
          (view) => adopt(entry, view),
          (error) => {
            entry.loading = undefined; // tried again when next asked
            if (entry.error) entry.error.textContent = `This view could not be loaded: ${error.message}`;
            throw error;
          },
        )
      : Promise.resolve();
  return entry.loading.then(() => entry.view);
}

/** The encoding table every frame starts from; a failure is said where the notes are, never a blank page. */
function prepareTable() {
  try {
    updateTable(state);
    notes.set('error', '');
    return true;
  } catch (error) {
    notes.set('error', error instanceof PosencError ? error.message : `Something went wrong: ${error.message}`);
    console.error(error);
    return false;
  }
}

const scheduler = createScheduler({
  prepare: prepareTable,
  onFirstDraw: warmCanvases,
  entries: views.map((entry) => ({
    section: $(entry.section),
    draw: () => (entry.view?.render ? drawStep(entry, () => entry.view.render(state)) : undefined),
    load: typeof entry.view === 'function' ? () => viewOf(entry.section) : undefined,
  })),
});
for (const entry of views) if (typeof entry.view !== 'function') adopt(entry, entry.view);
// A large table's summaries arrive from the worker: redraw the views that wait for them.
const WAITING = {
  grid: ['heatmap'],
  envelopes: ['squiggles'],
  rows: ['rotation', 'naive'],
  similarity: ['rotation'],
  columns: ['naive'],
};
onSummaryReady((kind) => scheduler.request(WAITING[kind]));

// ---- controls -------------------------------------------------------------
function syncUrl() {
  const query = writeQuery(state);
  if (query !== location.search) history.replaceState(null, '', `${location.pathname}${query}${location.hash}`);
}

/**
 * Applies a change to the state: URL, controls and (soon) the views follow.
 * transient: an animation frame or a slider's drag, which leave the URL alone
 * (browsers throttle history updates, and each costs the main thread); the
 * player writes it when it stops, a slider when it is let go.
 */
function commit(changes, { transient = false } = {}) {
  notes.clearUrlNotes();
  // A field the model's config set, changed by hand: the page no longer shows that model.
  if (!('model' in changes) && Object.keys(changes).some((name) => modelSet.has(name))) forgetModel();
  Object.assign(state, changes);
  if ('d' in changes && state.dims !== 'auto') {
    // Columns past the new d no longer exist.
    const { value, note } = parseDims(formatDims(state.dims), state.d);
    state.dims = value;
    notes.set('dims', note);
  }
  if (state.head >= state.heads) state.head = state.heads - 1;
  if (!transient) syncUrl();
  syncControls(state);
  labelControlsToggle();
  scheduler.request();
}

for (const name of NUMBER_CONTROLS) {
  wireNumber(name, {
    current: (field) => state[field],
    commit: (field, value, note, options) => {
      notes.set(field, note);
      commit({ [field]: value }, options);
    },
    settle: syncUrl,
  });
}

const choose = (id, name, read = (el) => el.value) =>
  $(id).addEventListener('change', (event) => commit({ [name]: clampField(name, read(event.target)).value }));
for (const radio of document.querySelectorAll('input[name="layout"]')) {
  radio.addEventListener('change', () => radio.checked && commit({ layout: radio.value }));
}
choose('ctl-scale', 'scale', (el) => el.checked);
choose('ctl-qk', 'qk');
choose('ctl-causal', 'causal', (el) => el.checked);
choose('ctl-rs', 'rs');

$('ctl-dims').addEventListener('input', () => {
  const { value, note } = parseDims($('ctl-dims').value, state.d);
  notes.set('dims', note);
  commit({ dims: value });
});
$('ctl-dims').addEventListener('change', () => syncControls(state));
for (const button of document.querySelectorAll('[data-dims]')) {
  button.addEventListener('click', () => {
    notes.set('dims', '');
    const preset = button.dataset.dims;
    commit({ dims: preset === 'auto' ? 'auto' : presetDims(preset, state) });
    $('ctl-dims').value = formatDims(shownDims(state));
  });
}

for (const name of ['s1', 's2']) {
  $(`ctl-${name}`).addEventListener('input', (event) => {
    const text = event.target.value.slice(0, 200);
    commit({ [name]: /[\p{L}\p{N}]/u.test(text) ? text : state[name] });
  });
}
$('ctl-word').addEventListener('change', (event) => {
  $('ctl-word').dataset.chosen = event.target.value;
  scheduler.request();
});

$('ctl-theme').addEventListener('change', (event) => {
  applyTheme(event.target.value);
  commit({ theme: event.target.value });
});
watchSystemTheme(() => {
  if (state.theme === 'auto') {
    applyTheme('auto');
    scheduler.request();
  }
});

// ---- model presets ---------------------------------------------------------
// The wasm core, loaded once: the page starts drawing, and a model's config is read, when it is ready.
const coreReady = init();
// A model is read from its config.json (the corpus file) by the package's fromConfig; its fields come from
// that reading (state/model-presets.js), every other field a model can set goes back to its default.
let modelSet = new Set(); // the fields the shown model's config set
let modelRequest = 0; // the latest choice wins when configs load out of order

// The models and their config reader: no part of the first view (3.6 kB gzip), loaded once it is drawn (or at
// once when the URL names a model); the menu is filled when they arrive.
let models = null;
const loadModels = () =>
  (models ??= Promise.all([import('./state/model-presets.js'), import('./state/model-config.js')]).then(
    ([presets, config]) => {
      fillMenu(presets);
      return { ...presets, ...config };
    },
    (error) => {
      models = null; // asked again by the next choice
      throw error;
    },
  ));

/** Fields set by hand: the page no longer shows the model (its config's longrope factors and mscale stay). */
function forgetModel() {
  modelSet = new Set();
  $('preset-note').textContent = '';
  if (state.model) {
    state.model = '';
    $('ctl-preset').value = '';
  }
}

/** The fields a description sets, each clamped as the URL's are, over every model field's default. */
function modelChanges(MODEL_FIELDS, fields) {
  const changes = Object.fromEntries(MODEL_FIELDS.map((name) => [name, FIELDS[name].initial]));
  for (const [name, value] of Object.entries(fields)) changes[name] = clampField(name, String(value)).value;
  if (changes.rs === 'llama3' && changes.rlo >= changes.rhi) changes.rlo = FIELDS.rlo.initial;
  return changes;
}

/** A preset's config text; the loaders of the corpus files come with the first model chosen. */
const presetText = (preset) => import('./state/preset-files.js').then((files) => files.presetText(preset));

/** Shows the model of this id: its config read, its fields set, the others reset; fresh: chosen now (not from the URL). */
async function choosePreset(id, { fresh = true } = {}) {
  const request = ++modelRequest;
  let name = id;
  try {
    const m = await loadModels();
    const preset = m.presetById(id);
    name = preset.name;
    if (request !== modelRequest) return;
    if (preset.tensor) $('learned-tensor').value = preset.tensor;
    if (!preset.file) {
      m.clearModelConfig();
      modelSet = new Set(Object.keys(preset.set));
      $('preset-note').textContent = m.presetNote(preset, null);
      if (fresh) commit({ ...modelChanges(m.MODEL_FIELDS, preset.set), model: preset.id });
      return;
    }
    $('preset-note').textContent = `${preset.name}: reading its config.json…`;
    const [text] = await Promise.all([presetText(preset), coreReady]);
    if (request !== modelRequest) return;
    const description = m.useModelConfig(preset.id, text);
    const fields = m.presetFields(description);
    modelSet = new Set(Object.keys(fields));
    $('preset-note').textContent = m.presetNote(preset, description);
    viewOf('config').then((view) => view.load(text, `${preset.name}’s config.json`));
    // From the URL, a field the URL gives is the URL's (a page writes them with the model); the model sets the rest.
    const given = fresh ? new Set() : new Set(new URLSearchParams(location.search).keys());
    const changes = Object.entries(modelChanges(m.MODEL_FIELDS, fields)).filter(([name]) => !given.has(name));
    commit({ ...Object.fromEntries(changes), model: preset.id });
  } catch (error) {
    if (request !== modelRequest) return;
    $('preset-note').textContent = `${name}: its config could not be read: ${error.message}`;
    console.error(error);
  }
}

/** A config.json the user dropped, chose or pasted in view 12: the views above show its scheme. */
async function applyConfig(text, source) {
  const request = ++modelRequest;
  const m = await loadModels();
  if (request !== modelRequest) return;
  const description = m.useModelConfig(source, text);
  const fields = m.presetFields(description);
  commit({ ...modelChanges(m.MODEL_FIELDS, fields), model: '' });
  modelSet = new Set(Object.keys(fields));
  $('preset-note').textContent = m.presetNote({ name: source, tensor: '' }, description);
}

/** The menu grouped by what the models use (MODEL_GROUPS), an <optgroup> each; the URL's model selected. */
function fillMenu({ MODEL_GROUPS, MODEL_PRESETS }) {
  $('ctl-preset').append(
    ...MODEL_GROUPS.map((group) => {
      const element = document.createElement('optgroup');
      element.label = group.label;
      element.append(
        ...MODEL_PRESETS.filter((p) => p.group === group.id).map((preset) => new Option(preset.name, preset.id)),
      );
      return element;
    }),
  );
  $('ctl-preset').value = state.model;
}
$('ctl-preset').addEventListener('change', (event) => {
  if (event.target.value) choosePreset(event.target.value);
  else {
    forgetModel();
    modelRequest++;
    loadModels().then((m) => {
      m.clearModelConfig();
      commit({ model: '' });
    });
  }
});
if (state.model) choosePreset(state.model, { fresh: false });

// ---- motion ----------------------------------------------------------------
wirePlayer($('play-p'), {
  label: 'p',
  read: () => state.p,
  write: (p) => commit({ p }, { transient: true }),
  onStop: syncUrl,
  range: () => ({ min: 0, max: 1000, step: 1 }),
});
wirePlayer($('play-k'), {
  label: 'k',
  read: () => state.k,
  write: (k) => commit({ k }, { transient: true }),
  onStop: syncUrl,
  range: () => ({ min: 0, max: 200, step: 1 }),
});
// The shared position cursor sweeps the table, about 10 s end to end.
const sweep = () => ({
  min: state.off,
  max: state.off + state.len - 1,
  step: Math.max(1, Math.round(state.len / 600)),
});
for (const id of ['play-squiggles', 'play-heatmap']) {
  wirePlayer($(id), {
    label: 'position',
    read: () => cursorPosition() ?? state.off - 1,
    write: (p) => setCursor(p),
    range: sweep,
  });
}

// On phones the bar folds to one button that names the current values.
$('controls-toggle').addEventListener('click', () => {
  const open = $('controls').classList.toggle('open');
  $('controls-toggle').setAttribute('aria-expanded', String(open));
});
function labelControlsToggle() {
  $('controls-toggle').textContent =
    `Parameters: d ${state.d}, length ${state.len}, T ${state.base}, offset ${state.off} ▾`;
}

// ---- start ----------------------------------------------------------------
// On a phone the facts lists and the RoPE aside start folded to their titles (open on a desktop), so no view is
// taller than two screens; tapping a title opens it.
if (compactScreen()) for (const fold of document.querySelectorAll('details[data-phone-fold]')) fold.open = false;
applyTheme(state.theme);
wireShortcuts(wireAnchors({ bar: $('controls') }));
syncControls(state);
labelControlsToggle();
syncUrl();
let lastWidth = 0;
new ResizeObserver(([entry]) => {
  const width = Math.round(entry.contentRect.width);
  if (width !== lastWidth) {
    lastWidth = width;
    scheduler.request();
  }
}).observe(document.querySelector('main'));

coreReady
  .then(({ simd }) => {
    $('engine').textContent = simd ? '(WebAssembly SIMD build)' : '(WebAssembly scalar build)';
    scheduler.enable();
    scheduler.drawAll();
    performance.mark('posenc-first-view'); // the first screen is drawn (tests weigh what loaded until now)
    document.body.dataset.ready = '1';
    // After the first view: the export buttons' wiring (they stay disabled until then) and the model menu.
    import('./io/exporters.js').then(
      ({ wireExports }) => wireExports(state, viewOf),
      (error) => notes.set('error', `The export buttons could not be loaded: ${error.message}`),
    );
    loadModels().catch((error) => notes.set('error', `The model menu could not be loaded: ${error.message}`));
  })
  .catch((error) => {
    notes.set('error', `The posenc WebAssembly core could not be loaded: ${error.message}`);
    console.error(error);
  });
