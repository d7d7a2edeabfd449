// The export buttons of every figure: PNG of its canvases and plots, CSV of
// the numbers it plots, and the encoding table as CSV or NPY, named after the
// state that drew them. This module is loaded once the first view is drawn
// (main.js), the writers (and the plot registry, with uPlot) on the first
// click, so the first view carries none of them.
import { tableShape } from '../compute/encoding.js';

/** The writers and the plot registry, loaded once, on the first export (again on the next if that load failed). */
let writers = null;
const loadWriters = () =>
  (writers ??= Promise.all([import('./export.js'), import('../draw/uplot-mount.js')]).then(
    ([exp, mount]) => ({ ...exp, plotIn: mount.plotIn }),
    (error) => {
      writers = null; // a failed fetch of the chunk would otherwise leave every export button dead until a reload
      throw error;
    },
  ));

const $ = (id) => document.getElementById(id);

/**
 * Wires every [data-export] and [data-csv] button; viewOf(section) resolves to a loaded view
 * (comparison, rope, precision, longrange) with csv().
 */
export function wireExports(state, viewOf) {
  const stem = () => {
    const { dim, length, base, offset, layout } = tableShape();
    return `posenc-d${dim}-len${length}-base${base}-off${offset}-${layout}`;
  };
  const rope = () => `posenc-rope-${state.rs}-hd${state.rhd}-theta${state.rbase}`;
  let w = null; // the writers, set before any handler below runs
  /** A click handler running fn once the writers are loaded; a failure is said in the button's section. */
  const withWriters = (fn) => (event) => {
    const section = event?.currentTarget?.closest?.('section');
    return loadWriters()
      .then((writers) => {
        w = writers;
        return fn();
      })
      .catch((error) => {
        const out = section && $(`${section.id}-error`);
        if (out) out.textContent = `The export failed: ${error.message}`;
        else console.error(error);
      });
  };
  enableWhenDrawn();
  const plots = (...ids) => ids.map((id) => w.plotIn($(id))).filter(Boolean);
  const figures = {
    squiggles: () => w.downloadFigure(plots('squiggles-plot'), `${stem()}-squiggles.png`),
    heatmap: () => w.downloadFigure([$('heatmap-canvas')], `${stem()}-heatmap.png`),
    circles: () =>
      w.downloadFigure([$('circles-canvas'), $('matrix-canvas')], `${stem()}-p${state.p}-k${state.k}-rotation.png`),
    similarity: () => w.downloadFigure([$('similarity-canvas'), ...plots('profile-plot')], `${stem()}-similarity.png`),
    embedding: () => w.downloadFigure([$('embedding-canvas')], `${stem()}-embedding.png`),
    naive: () => w.downloadFigure(plots('naive-raw', 'naive-norm', 'naive-sin'), `${stem()}-naive.png`),
    comparison: () =>
      w.downloadFigure(
        ['cmp-sin', 'cmp-learned', 'cmp-rope', 'cmp-alibi'].map($),
        `posenc-comparison-w${state.cw}.png`,
      ),
    'comparison-profiles': () =>
      w.downloadFigure(plots('cmp-profile', 'cmp-alibi-profile'), `posenc-comparison-profiles-w${state.cw}.png`),
    rope: () => w.downloadFigure(plots('rope-speed', 'rope-wavelength', 'rope-bands'), `${rope()}.png`),
    precision: () => w.downloadFigure(plots('precision-plot'), 'posenc-precision.png'),
    longrange: () => w.downloadFigure(plots('longrange-plot'), 'posenc-long-range.png'),
  };
  for (const button of document.querySelectorAll('[data-export]')) {
    button.addEventListener(
      'click',
      withWriters(() => figures[button.dataset.export]()),
    );
  }
  const csvOf = (section, name) => viewOf(section).then((view) => w.download(view.csv(), name));
  const tables = {
    comparison: () => csvOf('comparison', `posenc-comparison-profiles-w${state.cw}.csv`),
    rope: () => csvOf('rope', `${rope()}.csv`),
    precision: () => csvOf('precision', 'posenc-precision.csv'),
    longrange: () => csvOf('longrange', 'posenc-long-range.csv'),
  };
  for (const button of document.querySelectorAll('[data-csv]')) {
    button.addEventListener(
      'click',
      withWriters(() => tables[button.dataset.csv]()),
    );
  }
  // The table's two formats, made in steps (the page stays responsive); the button says how far it got.
  const tableExport = (id, label, write) =>
    $(id).addEventListener(
      'click',
      withWriters(async () => {
        const button = $(id);
        const shape = { ...tableShape() };
        button.disabled = true;
        try {
          const blob = await write(shape, (done) => {
            button.textContent = `${label} ${Math.floor((100 * done) / shape.length)}%`;
          });
          w.download(blob, `${stem()}.${label.toLowerCase()}`);
        } finally {
          button.textContent = label;
          button.disabled = false;
        }
      }),
    );
  tableExport('export-csv', 'CSV', (shape, progress) => w.tableCsv(shape, progress));
  tableExport('export-npy', 'NPY', (shape, progress) => w.tableNpy(shape, progress));
}

/**
 * Export buttons work only on a drawn figure (a PNG of a canvas not yet drawn is
 * empty): each section's buttons start disabled (web/index.html) and are enabled
 * once the scheduler marks the section data-drawn (already, when this module
 * arrives after the first view, or later).
 */
function enableWhenDrawn() {
  const buttons = (section) => section.querySelectorAll('.actions button');
  const enable = (section) => {
    for (const button of buttons(section)) {
      button.disabled = false;
      button.removeAttribute('title');
    }
  };
  const watch = new MutationObserver((changes) => {
    for (const change of changes) if (change.target.dataset.drawn) enable(change.target);
  });
  for (const section of document.querySelectorAll('section')) {
    if (buttons(section).length === 0) continue;
    if (section.dataset.drawn) enable(section);
    else watch.observe(section, { attributes: true, attributeFilter: ['data-drawn'] });
  }
}
