// View 1: value against position for chosen columns of the table. When there
// are more positions than pixels, each column becomes its min/max envelope per
// pixel, so fast sines show as the band they fill instead of a false slow wave.
import { drawLinePlot, plotIn } from '../draw/line-plot.js';
import { pairColor } from '../draw/colormap.js';
import {
  columnInfo,
  frequency,
  tableShape,
  tableValue,
  tableVersion,
  tableView,
  wavelength,
} from '../compute/encoding.js';
import { createRedrawGuard } from '../draw/canvas.js';
import { fixed6, sig6 } from '../draw/format.js';

/** Columns for the preset buttons. */
export function presetDims(name, d) {
  if (name === 'first2') return [0, 1].filter((j) => j < d);
  if (name === 'first8') return [0, 1, 2, 3, 4, 5, 6, 7].filter((j) => j < d);
  // spread: the sine of 8 pairs spaced evenly from the fastest to the slowest.
  const pairs = Math.min(8, d / 2);
  const out = [];
  for (let n = 0; n < pairs; n++) {
    const pair = Math.round((n * (d / 2 - 1)) / Math.max(1, pairs - 1));
    out.push(pair * 2);
  }
  return [...new Set(out)];
}

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

export function createSquigglesView({ container, legend, readout }) {
  let state = null;
  let lastP = null;
  const needsDraw = createRedrawGuard();

  function describe(p) {
    const { dim: d, offset, length, base, layout } = tableShape();
    if (p == null || p < offset || p >= offset + length) return 'Hover the plot to read values.';
    const lines = [`position p = ${p}`];
    for (const j of state.dims) {
      const { pair, kind } = columnInfo(j, d, layout);
      lines.push(
        `  dimension ${String(j).padStart(4)} (pair ${pair}, ${kind})  frequency ${sig6(frequency(pair, d, base))} rad/position` +
          `  wavelength ${sig6(wavelength(pair, d, base))}  value ${fixed6(tableValue(p - offset, j))}`,
      );
    }
    return lines.join('\n');
  }

  function onCursor(x) {
    const p = x == null ? null : Math.round(x);
    if (p === lastP) return;
    lastP = p;
    readout.textContent = describe(p);
    readout.dataset.p = p ?? '';
  }

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
    const { dim: d, offset, length, layout } = tableShape();
    const table = tableView();
    const width = Math.max(200, container.clientWidth || 600);
    if (!needsDraw([tableVersion(), width, state.dims.join(',')])) return;
    const buckets = Math.max(50, Math.round(width - 70));
    const envelope = length > 2 * buckets;
    const series = [];
    const bands = [];
    // One colour per pair among the pairs shown, so a pair's sine and cosine match.
    const shownPairs = [...new Set(state.dims.map((j) => columnInfo(j, d, layout).pair))];
    const colorOf = (pair) => pairColor(shownPairs.indexOf(pair));
    let x;
    if (!envelope) {
      x = Float64Array.from({ length }, (_, r) => offset + r);
      for (const j of state.dims) {
        const { pair, kind } = columnInfo(j, d, layout);
        const values = new Float64Array(length);
        for (let r = 0; r < length; r++) values[r] = table[r * d + j];
        series.push({ label: `d${j}`, values, stroke: colorOf(pair), dash: kind === 'cos' ? [6, 4] : undefined });
      }
    } else {
      // One x per pixel bucket; each column gives an upper and a lower series with a band between.
      x = new Float64Array(buckets);
      const starts = new Int32Array(buckets + 1);
      for (let b = 0; b <= buckets; b++) starts[b] = Math.round((b * length) / buckets);
      for (let b = 0; b < buckets; b++) x[b] = offset + (starts[b] + starts[b + 1] - 1) / 2;
      for (const j of state.dims) {
        const { pair, kind } = columnInfo(j, d, layout);
        const hi = new Float64Array(buckets);
        const lo = new Float64Array(buckets);
        for (let b = 0; b < buckets; b++) {
          let mn = Infinity;
          let mx = -Infinity;
          for (let r = starts[b]; r < starts[b + 1]; r++) {
            const v = table[r * d + j];
            if (v < mn) mn = v;
            if (v > mx) mx = v;
          }
          hi[b] = mx;
          lo[b] = mn;
        }
        const color = colorOf(pair);
        const dash = kind === 'cos' ? [6, 4] : undefined;
        series.push({ label: `d${j} max`, values: hi, stroke: color, dash, width: 1 });
        series.push({ label: `d${j} min`, values: lo, stroke: color, dash, width: 1 });
        bands.push([series.length - 1, series.length, `${color}33`]);
      }
    }
    legend.replaceChildren(
      ...state.dims.map((j) => {
        const { pair, kind } = columnInfo(j, d, layout);
        return legendEntry(j, pair, kind, colorOf(pair));
      }),
    );
    drawLinePlot(container, {
      title: envelope
        ? `Columns ${state.dims.join(', ')}: min/max envelope per pixel (${length} positions)`
        : `Columns ${state.dims.join(', ')} (d = ${d}, ${layout})`,
      xLabel: 'position p',
      yLabel: 'value',
      x,
      series,
      bands,
      yRange: [-1.08, 1.08],
      height: 300,
      onCursor,
    });
    readout.textContent = describe(lastP);
  }

  return { render };
}
