// The three "beyond sinusoidal" sections (comparison, RoPE, precision): their
// state, controls, learned-table loading and exports. main.js adds their
// views to its render loop and their parameters to its URL.
import { clampBeyond, readBeyondQuery, withBeyondQuery } from './beyond-state.js';
import { createComparisonView } from './comparison-view.js';
import { createRopeView } from './rope-view.js';
import { createPrecisionView } from './precision-view.js';
import { EXAMPLE_LABEL, exampleTable, loadTableFile, tableFromBytes } from './learned-source.js';
import { wireFileDrop } from './file-drop.js';
import { download, downloadFigure } from './export.js';
import { logPlotIn } from './log-plot.js';

const $ = (id) => document.getElementById(id);

/**
 * search: the page's query string. onChange(): called after the state changed
 * (main.js then writes the URL and schedules a redraw). setNote(field, text):
 * main.js's notes under the controls.
 */
export function createBeyond({ search, onChange, setNote }) {
  const { state, notes } = readBeyondQuery(search);

  // ---- the learned table ----------------------------------------------------
  let loaded = null; // { table, rows, dim, label, short } of the last file read successfully
  let lastFile = null; // { bytes, name } of the last file read, to re-read with another tensor name
  const learned = { current: () => loaded ?? exampleTable() };

  function showFileStatus(kind, text) {
    const status = $('learned-status');
    status.textContent = text;
    status.className = `file-status ${kind}`;
    status.dataset.state = kind;
  }
  function takeResult(result, fileName) {
    if (result.bytes) lastFile = { bytes: result.bytes, name: fileName };
    if (result.ok) {
      loaded = result;
      showFileStatus('loaded', `Showing ${result.label}.`);
    } else {
      showFileStatus('error', `${result.message} ${loaded ? `Still showing ${loaded.label}.` : 'Still showing the generated example.'}`);
    }
    onChange();
  }
  wireFileDrop({
    zone: $('learned-drop'),
    input: $('learned-file'),
    onFile: async (file) => {
      showFileStatus('busy', `Reading “${file.name}”…`);
      takeResult(await loadTableFile(file, $('learned-tensor').value), file.name);
    },
  });
  $('learned-tensor').addEventListener('change', () => {
    if (lastFile) takeResult(tableFromBytes(lastFile.bytes, lastFile.name, $('learned-tensor').value), lastFile.name);
  });
  $('learned-example').addEventListener('click', () => {
    loaded = null;
    showFileStatus('example', `Showing the ${EXAMPLE_LABEL}.`);
    onChange();
  });

  // ---- views ----------------------------------------------------------------
  const comparison = createComparisonView({
    canvases: { sin: $('cmp-sin'), learned: $('cmp-learned'), rope: $('cmp-rope'), alibi: $('cmp-alibi') },
    profile: $('cmp-profile'),
    alibiProfile: $('cmp-alibi-profile'),
    readout: $('cmp-readout'),
    facts: $('cmp-facts'),
    learned,
  });
  const rope = createRopeView({
    speed: $('rope-speed'),
    wavelength: $('rope-wavelength'),
    bands: $('rope-bands'),
    readout: $('rope-readout'),
    facts: $('rope-facts'),
    config: $('rope-config'),
    status: $('rope-status'),
    plots: $('rope-plots'),
  });
  const precision = createPrecisionView({
    plot: $('precision-plot'),
    readout: $('precision-readout'),
    facts: $('precision-facts'),
    status: $('precision-status'),
  });

  /** A view that fails says so in its own section and leaves the rest of the page alone. */
  const guarded = (view, errorId) => ({
    render(pageState) {
      const out = $(errorId);
      try {
        view.render(pageState, state);
        out.textContent = '';
      } catch (error) {
        out.textContent = `This view could not be drawn: ${error?.message ?? error}`;
      }
    },
  });
  const views = [guarded(comparison, 'comparison-error'), guarded(rope, 'rope-error'), guarded(precision, 'precision-error')];

  // ---- controls -------------------------------------------------------------
  function sync() {
    for (const name of ['cw', 'heads', 'head', 'rhd', 'rbase', 'rf', 'rl0', 'rlen', 'rbf', 'rbs', 'rlo', 'rhi']) {
      const box = $(`ctl-${name}`);
      if (document.activeElement !== box) box.value = state[name];
    }
    $('ctl-cw-range').value = state.cw;
    $('ctl-head').max = String(state.heads - 1);
    $('ctl-qk').value = state.qk;
    $('ctl-causal').checked = state.causal;
    $('ctl-rs').value = state.rs;
    for (const label of document.querySelectorAll('.rope-controls [data-types]')) {
      label.hidden = !label.dataset.types.split(' ').includes(state.rs);
    }
  }

  function commit(changes) {
    Object.assign(state, changes);
    if (state.head >= state.heads) state.head = state.heads - 1;
    sync();
    onChange();
  }

  /** A number box (and its slider, if any): typing commits after a pause, on Enter or on leaving the box. */
  function wireNumber(name) {
    const box = $(`ctl-${name}`);
    const take = (raw) => {
      if (String(raw) === String(state[name])) return;
      const { value, note } = clampBeyond(name, raw);
      setNote(`beyond-${name}`, note);
      commit({ [name]: value });
    };
    let timer = 0;
    box.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => box.value !== '' && take(box.value), 400);
    });
    box.addEventListener('change', () => {
      clearTimeout(timer);
      take(box.value);
    });
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        clearTimeout(timer);
        take(box.value);
      }
    });
    $(`ctl-${name}-range`)?.addEventListener('input', (event) => take(event.target.value));
  }
  for (const name of ['cw', 'heads', 'head', 'rhd', 'rbase', 'rf', 'rl0', 'rlen', 'rbf', 'rbs', 'rlo', 'rhi']) wireNumber(name);
  $('ctl-qk').addEventListener('change', (event) => commit({ qk: event.target.value }));
  $('ctl-causal').addEventListener('change', (event) => commit({ causal: event.target.checked }));
  $('ctl-rs').addEventListener('change', (event) => commit({ rs: event.target.value }));

  // ---- exports --------------------------------------------------------------
  const exporters = {
    comparison: () => downloadFigure(['cmp-sin', 'cmp-learned', 'cmp-rope', 'cmp-alibi'].map($), `posenc-comparison-w${state.cw}.png`),
    'comparison-profiles': () =>
      downloadFigure(['cmp-profile', 'cmp-alibi-profile'].map((id) => logPlotIn($(id))), `posenc-comparison-profiles-w${state.cw}.png`),
    rope: () =>
      downloadFigure(['rope-speed', 'rope-wavelength', 'rope-bands'].map((id) => logPlotIn($(id))).filter(Boolean),
        `posenc-rope-${state.rs}-hd${state.rhd}-theta${state.rbase}.png`),
    precision: () => downloadFigure([logPlotIn($('precision-plot'))], 'posenc-precision.png'),
  };
  for (const button of document.querySelectorAll('[data-beyond-export]')) {
    button.addEventListener('click', () => exporters[button.dataset.beyondExport]());
  }
  const tables = {
    comparison: () => download(comparison.csv(), `posenc-comparison-profiles-w${state.cw}.csv`),
    rope: () => download(rope.csv(), `posenc-rope-${state.rs}-hd${state.rhd}-theta${state.rbase}.csv`),
    precision: () => download(precision.csv(), 'posenc-precision.csv'),
  };
  for (const button of document.querySelectorAll('[data-beyond-csv]')) {
    button.addEventListener('click', () => tables[button.dataset.beyondCsv]());
  }

  sync();
  showFileStatus('example', `Showing the ${EXAMPLE_LABEL}.`);
  return { views, notes, query: (query) => withBeyondQuery(query, state) };
}
