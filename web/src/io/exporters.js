// The export buttons of every figure: PNG of its canvases and plots, CSV of
// the numbers it plots, and the encoding table as CSV or NPY, named after the
// state that drew them.
import { download, downloadFigure, tableCsv, tableNpy } from './export.js';
import { plotIn } from '../draw/uplot-mount.js';
import { fullTable, tableShape } from '../compute/encoding.js';

const $ = (id) => document.getElementById(id);

/** Wires every [data-export] and [data-csv] button; views: { comparison, rope, precision, longRange } with csv(). */
export function wireExports(state, views) {
  const stem = () => {
    const { dim, length, base, offset, layout } = tableShape();
    return `posenc-d${dim}-len${length}-base${base}-off${offset}-${layout}`;
  };
  const rope = () => `posenc-rope-${state.rs}-hd${state.rhd}-theta${state.rbase}`;
  const plots = (...ids) => ids.map((id) => plotIn($(id))).filter(Boolean);
  const figures = {
    squiggles: () => downloadFigure(plots('squiggles-plot'), `${stem()}-squiggles.png`),
    heatmap: () => downloadFigure([$('heatmap-canvas')], `${stem()}-heatmap.png`),
    circles: () =>
      downloadFigure([$('circles-canvas'), $('matrix-canvas')], `${stem()}-p${state.p}-k${state.k}-rotation.png`),
    similarity: () => downloadFigure([$('similarity-canvas'), ...plots('profile-plot')], `${stem()}-similarity.png`),
    embedding: () => downloadFigure([$('embedding-canvas')], `${stem()}-embedding.png`),
    naive: () => downloadFigure(plots('naive-raw', 'naive-norm', 'naive-sin'), `${stem()}-naive.png`),
    comparison: () =>
      downloadFigure(['cmp-sin', 'cmp-learned', 'cmp-rope', 'cmp-alibi'].map($), `posenc-comparison-w${state.cw}.png`),
    'comparison-profiles': () =>
      downloadFigure(plots('cmp-profile', 'cmp-alibi-profile'), `posenc-comparison-profiles-w${state.cw}.png`),
    rope: () => downloadFigure(plots('rope-speed', 'rope-wavelength', 'rope-bands'), `${rope()}.png`),
    precision: () => downloadFigure(plots('precision-plot'), 'posenc-precision.png'),
    longrange: () => downloadFigure(plots('longrange-plot'), 'posenc-long-range.png'),
  };
  for (const button of document.querySelectorAll('[data-export]')) {
    button.addEventListener('click', () => figures[button.dataset.export]());
  }
  const tables = {
    comparison: () => download(views.comparison.csv(), `posenc-comparison-profiles-w${state.cw}.csv`),
    rope: () => download(views.rope.csv(), `${rope()}.csv`),
    precision: () => download(views.precision.csv(), 'posenc-precision.csv'),
    longrange: () => download(views.longRange.csv(), 'posenc-long-range.csv'),
  };
  for (const button of document.querySelectorAll('[data-csv]')) {
    button.addEventListener('click', () => tables[button.dataset.csv]());
  }
  $('export-csv').addEventListener('click', () => {
    // A big table takes a moment to format: say so before the page is busy.
    const button = $('export-csv');
    button.textContent = 'CSV…';
    button.disabled = true;
    setTimeout(() => {
      const { length, dim, offset } = tableShape();
      download(tableCsv(fullTable(), length, dim, offset), `${stem()}.csv`);
      button.textContent = 'CSV';
      button.disabled = false;
    }, 30);
  });
  $('export-npy').addEventListener('click', () => {
    const { length, dim } = tableShape();
    download(tableNpy(fullTable(), length, dim), `${stem()}.npy`);
  });
}
