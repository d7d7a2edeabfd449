// The export buttons of every figure: PNG of its canvases and plots, CSV of
// the numbers it plots, and the encoding table as CSV or NPY, named after the
// state that drew them. The writers (and the plot registry, with uPlot) are
// loaded on the first click, so the first view carries none of them.
import { fullTable, tableShape } from '../compute/encoding.js';

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
  /** A click handler running fn once the writers are loaded. */
  const withWriters = (fn) => () =>
    loadWriters().then((writers) => {
      w = writers;
      fn();
    });
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
  $('export-csv').addEventListener('click', () => {
    // A big table takes a moment to format: say so before the page is busy.
    const button = $('export-csv');
    button.textContent = 'CSV…';
    button.disabled = true;
    const write = () => {
      const { length, dim, offset } = tableShape();
      w.download(w.tableCsv(fullTable(), length, dim, offset), `${stem()}.csv`);
      button.textContent = 'CSV';
      button.disabled = false;
    };
    withWriters(() => setTimeout(write, 30))();
  });
  $('export-npy').addEventListener(
    'click',
    withWriters(() => {
      const { length, dim } = tableShape();
      w.download(w.tableNpy(fullTable(), length, dim), `${stem()}.npy`);
    }),
  );
}
