// View 1: value against position for chosen columns of the table. When there
// are more positions than pixels, each column becomes its min/max envelope per
// pixel, so fast sines show as the band they fill instead of a false slow wave.
// A large table's envelopes come from the worker; until they do, the plot is a
// preview of evenly sampled rows, and its title says so.
import { drawLinePlot, plotIn } from '../draw/line-plot.js';
import { pairColor } from '../draw/colormap.js';
import {
  columnInfo,
  envelopes,
  frequency,
  sampledRows,
  tableShape,
  tableValue,
  tableVersion,
  wavelength,
} from '../compute/encoding.js';
import { blockStarts } from '../compute/aggregate.js';
import { createRedrawGuard, availableWidth, compactScreen } from '../draw/canvas.js';
import { fixed6, sig6 } from '../draw/format.js';
import { shownDims } from '../state/dims.js';
import { onCursor as onSharedCursor, setCursor } from '../state/cursor.js';

/** One legend entry: a short line in the column's colour and dash, and its name. */
function legendEntry(j, pair, kind, color) {
  const item = document.createElement('span');
  const dash = kind === 'cos' ? ' stroke-dasharray="5 3"' : '';
  item.innerHTML =
    `<svg width="26" height="10" aria-hidden="true"><line x1="1" y1="5" x2="25" y2="5" stroke="${color}"` +
    ` stroke-width="2.5"${dash}/></svg>`;
  item.append(`dim ${j} (${kind}, pair ${pair})`);
  return item;
}

const HINT = 'Hover or tap the plot (or focus it and use the arrow keys) to read values.';

export function createSquigglesView({ container, legend, readout }) {
  let state = null;
  let dims = [];
  let lastP = null;
  const needsDraw = createRedrawGuard();

  // One line per column: its pair, frequency and wavelength, and its value at p once a position is pointed at.
  // With none, the lines say what each column is on a desktop, where the room kept for them (render's
  // min-height) would otherwise stand empty under the chart; a phone wraps them, so it shows the hint alone.
  function describe(p) {
    const { dim: d, offset, length, base, layout } = tableShape();
    const at = p != null && p >= offset && p < offset + length;
    if (!at && compactScreen()) return HINT;
    const lines = [at ? `position p = ${p}` : HINT];
    // The columns of the last render: a position pointed at before this d's first frame may find some past it.
    for (const j of dims) {
      if (j >= d) continue;
      const { pair, kind } = columnInfo(j, d, layout);
      lines.push(
        `  dimension ${String(j).padStart(4)} (pair ${pair}, ${kind})  frequency ${sig6(frequency(pair, d, base))} rad/position` +
          `  wavelength ${sig6(wavelength(pair, d, base))}${at ? `  value ${fixed6(tableValue(p - offset, j))}` : ''}`,
      );
    }
    return lines.join('\n');
  }

  function onCursor(x) {
    const p = x == null || !Number.isFinite(x) ? null : Math.round(x);
    if (p === lastP) return;
    lastP = p;
    readout.textContent = describe(p);
    readout.dataset.p = p ?? '';
    setCursor(p, 'squiggles');
  }

  // Another view pointed at a position: mark it here and read it.
  onSharedCursor((p) => {
    const plot = plotIn(container);
    if (p == null) plot?.setCursor({ left: -10, top: -10 });
    else plot?.setCursor({ left: plot.valToPos(p, 'x'), top: plot.over.clientHeight / 2 });
    lastP = p;
    readout.textContent = describe(p);
    readout.dataset.p = p ?? '';
  }, 'squiggles');

  // Keyboard: arrows move the readout (and uPlot's cursor) along positions.
  container.addEventListener('keydown', (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const { offset, length } = tableShape();
    const p = Math.max(
      offset,
      Math.min(offset + length - 1, (lastP ?? offset - step) + step * (event.shiftKey ? 10 : 1)),
    );
    const plot = plotIn(container);
    plot?.setCursor({ left: plot.valToPos(p, 'x'), top: plot.over.clientHeight / 2 });
    onCursor(p);
  });

  function render(nextState) {
    state = nextState;
    dims = shownDims(state);
    // Room for a line per column, so a position pointed at in another view never pushes the page down.
    const minHeight = `${(dims.length + 1) * 1.4 + 0.2}em`;
    if (readout.style.minHeight !== minHeight) readout.style.minHeight = minHeight;
    const { dim: d, offset, length, layout } = tableShape();
    const width = Math.max(200, availableWidth(container, 600));
    const buckets = Math.max(50, Math.round(width - 70));
    const envelope = length > 2 * buckets;
    const count = envelope ? buckets : length;
    // Exact columns (or per-pixel envelopes); for a large table, a preview of sampled rows until the worker answers.
    const exact = envelopes(dims, count);
    if (!needsDraw([tableVersion(), width, dims.join(','), exact !== null])) return;
    const series = [];
    const bands = [];
    // One colour per pair among the pairs shown, so a pair's sine and cosine match.
    const shownPairs = [...new Set(dims.map((j) => columnInfo(j, d, layout).pair))];
    const colorOf = (pair) => pairColor(shownPairs.indexOf(pair));
    const preview = exact ? null : sampledRows(count);
    const starts = blockStarts(length, count);
    const x = preview
      ? Float64Array.from(preview.rows, (r) => offset + r)
      : Float64Array.from({ length: count }, (_, b) => offset + (starts[b] + starts[b + 1] - 1) / 2);
    dims.forEach((j, n) => {
      const { pair, kind } = columnInfo(j, d, layout);
      const color = colorOf(pair);
      const dash = kind === 'cos' ? [6, 4] : undefined;
      if (preview) {
        const values = Float64Array.from(preview.rows, (_, b) => preview.table[b * d + j]);
        series.push({ label: `d${j} (sampled)`, values, stroke: color, dash, width: 1 });
        // Shaped as the envelope that replaces it (a min line on the max, an empty band), so its chart is reused.
        series.push({ label: `d${j} (sampled)`, values, stroke: color, dash, width: 1, hidden: !envelope });
        if (envelope) bands.push([series.length - 1, series.length, `${color}33`]);
      } else if (!envelope) {
        // With a hidden twin where the envelope has its min line: the chart keeps its shape (and is reused) when a
        // drag of the length crosses into envelopes.
        const values = Float64Array.from(exact[n].hi);
        series.push({ label: `d${j}`, values, stroke: color, dash, width: 1.5 });
        series.push({ label: `d${j}`, values, stroke: color, dash, width: 1, hidden: true });
      } else {
        series.push({ label: `d${j} max`, values: Float64Array.from(exact[n].hi), stroke: color, dash, width: 1 });
        series.push({ label: `d${j} min`, values: Float64Array.from(exact[n].lo), stroke: color, dash, width: 1 });
        bands.push([series.length - 1, series.length, `${color}33`]);
      }
    });
    // The legend's DOM is rebuilt only when its entries change (not on every frame of a drag of T or the length).
    const entries = dims.map((j) => ({ j, ...columnInfo(j, d, layout) }));
    const legendKey = entries.map(({ j, pair, kind }) => `${j} ${pair} ${kind} ${colorOf(pair)}`).join(',');
    if (legend.dataset.entries !== legendKey) {
      legend.replaceChildren(...entries.map(({ j, pair, kind }) => legendEntry(j, pair, kind, colorOf(pair))));
      legend.dataset.entries = legendKey;
    }
    drawLinePlot(container, {
      title: preview
        ? `Columns ${dims.join(', ')}: preview of ${preview.count} sampled positions (envelope being computed)`
        : envelope
          ? `Columns ${dims.join(', ')}: min/max envelope per pixel (${length} positions)`
          : `Columns ${dims.join(', ')} (d = ${d}, ${layout})`,
      xLabel: 'position p',
      yLabel: 'value',
      x,
      series,
      bands,
      yRange: [-1.08, 1.08],
      height: 300,
      onCursor,
      // Points under two device pixels apart: column spans, since stroking such zigzags is a long task. Decided
      // by the exact count, so a preview and the envelope replacing it share one chart (and one way of drawing).
      spans: count * 2 >= buckets * (window.devicePixelRatio || 1),
    });
    // Written only on a change: a frame of a drag writes no DOM it does not have to (each write costs a layout).
    const text = describe(lastP);
    if (readout.textContent !== text) readout.textContent = text;
  }

  return { render };
}
