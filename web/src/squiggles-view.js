// View 1: value against position for chosen columns of the table. When there
// are more positions than pixels, each column becomes its min/max envelope per
// pixel, so fast sines show as the band they fill instead of a false slow wave.
import { drawLinePlot } from './line-plot.js';
import { pairColor } from './colormap.js';
import { columnInfo, frequency, tableShape, tableValue, tableView, wavelength } from './encoding.js';
import { fixed6, sig6 } from './format.js';

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

export function createSquigglesView({ container, readout }) {
  let state = null;
  let lastP = null;

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

  function render(nextState) {
    state = nextState;
    const { dim: d, offset, length, layout } = tableShape();
    const table = tableView();
    const width = Math.max(200, container.clientWidth || 600);
    const buckets = Math.max(50, Math.round(width - 70));
    const envelope = length > 2 * buckets;
    const series = [];
    const bands = [];
    let x;
    if (!envelope) {
      x = Float64Array.from({ length }, (_, r) => offset + r);
      for (const j of state.dims) {
        const { pair, kind } = columnInfo(j, d, layout);
        const values = new Float64Array(length);
        for (let r = 0; r < length; r++) values[r] = table[r * d + j];
        series.push({ label: `d${j}`, values, stroke: pairColor(pair), dash: kind === 'cos' ? [6, 4] : undefined });
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
        const color = pairColor(pair);
        const dash = kind === 'cos' ? [6, 4] : undefined;
        series.push({ label: `d${j} max`, values: hi, stroke: color, dash, width: 1 });
        series.push({ label: `d${j} min`, values: lo, stroke: color, dash, width: 1 });
        bands.push([series.length - 1, series.length, `${color}33`]);
      }
    }
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
      onCursor,
    });
    readout.textContent = describe(lastP);
  }

  return { render };
}
