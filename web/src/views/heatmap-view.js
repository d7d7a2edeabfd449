// View 2: the whole table as a heatmap, position across and dimension down,
// painted straight from the wasm-resident table. Hover or arrow keys read one
// cell to 6 digits.
import { availableWidth, createRedrawGuard, fitCanvas, themeColors } from '../draw/canvas.js';
import { DIVERGING_LUT } from '../draw/colormap.js';
import {
  columnInfo,
  columnOf,
  frequency,
  tableShape,
  tableValue,
  tableVersion,
  tableView,
  wavelength,
} from '../compute/encoding.js';
import { fixed6, sig6 } from '../draw/format.js';
import { drawAxes, drawColorBar, drawTitle, paintGrid } from '../draw/heatmap-draw.js';

const MARGIN = { left: 62, right: 86, top: 34, bottom: 44 };

export function createHeatmapView({ canvas, marker, readout }) {
  let plot = null; // plot rect in CSS pixels
  let cell = null; // { row, col } under the pointer or keyboard cursor
  const needsDraw = createRedrawGuard();

  function layoutLabel(d, layout) {
    return layout === 'split'
      ? `split layout: columns 0–${d / 2 - 1} sines, ${d / 2}–${d - 1} cosines`
      : 'interleaved layout: even columns sines, odd columns cosines';
  }

  function render() {
    const { dim: d, length, offset, layout } = tableShape();
    const width = availableWidth(canvas.parentElement);
    if (!needsDraw([tableVersion(), width])) return;
    const height = Math.round(Math.min(460, Math.max(260, width * 0.42)));
    const { ctx, ratio } = fitCanvas(canvas, width, height);
    const colors = themeColors();
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    plot = {
      x: MARGIN.left,
      y: MARGIN.top,
      w: width - MARGIN.left - MARGIN.right,
      h: height - MARGIN.top - MARGIN.bottom,
    };
    const table = tableView();
    // rows of the picture are dimensions, columns are positions: cell (j, r) = table[r * d + j].
    paintGrid(ctx, ratio, plot, d, length, { array: table, rowStride: 1, colStride: d }, DIVERGING_LUT, -1, 1);
    if (layout === 'split' && d >= 4) {
      const y = plot.y + plot.h / 2;
      ctx.strokeStyle = colors.fg;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(plot.x, Math.round(y) + 0.5);
      ctx.lineTo(plot.x + plot.w, Math.round(y) + 0.5);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    drawAxes(ctx, plot, colors, {
      xDomain: [offset, offset + length],
      yDomain: [0, d],
      xLabel: 'position p',
      yLabel: 'dimension (column)',
    });
    drawTitle(ctx, `PE table: ${length} positions × d = ${d}; ${layoutLabel(d, layout)}`, plot.x, 8, colors);
    drawColorBar(
      ctx,
      ratio,
      { x: plot.x + plot.w + 18, y: plot.y + 16, w: 14, h: plot.h - 16 },
      DIVERGING_LUT,
      -1,
      1,
      colors,
    );
    if (cell && (cell.row >= d || cell.col >= length)) cell = null;
    showCell();
  }

  function showCell() {
    if (!cell || !plot) {
      marker.hidden = true;
      readout.textContent = 'Hover the heatmap to read a cell.';
      delete readout.dataset.p;
      delete readout.dataset.dim;
      return;
    }
    const { dim: d, length, offset, base, layout } = tableShape();
    const { row: j, col: r } = cell;
    const { pair, kind } = columnInfo(j, d, layout);
    const p = offset + r;
    const value = tableValue(r, j);
    const w = frequency(pair, d, base);
    const angle = (p * w) % (2 * Math.PI);
    const other = layout === 'split' ? 'interleaved' : 'split';
    readout.textContent =
      `p = ${p}   dimension ${j} (${kind} of pair ${pair}; column ${columnOf(pair, kind, d, other)} in ${other})` +
      `   frequency w = ${sig6(w)} rad/position` +
      `   wavelength ${sig6(wavelength(pair, d, base))} positions\n` +
      `angle p·w mod 2π = ${angle.toFixed(6)} rad   value = ${fixed6(value)}`;
    readout.dataset.p = String(p);
    readout.dataset.dim = String(j);
    readout.dataset.value = fixed6(value);
    // Outline the cell, at least 5 px so it stays visible when cells are tiny.
    const cw = plot.w / length;
    const ch = plot.h / d;
    const mw = Math.max(5, cw);
    const mh = Math.max(5, ch);
    Object.assign(marker.style, {
      left: `${plot.x + (r + 0.5) * cw - mw / 2 - 2}px`,
      top: `${plot.y + (j + 0.5) * ch - mh / 2 - 2}px`,
      width: `${mw + 4}px`,
      height: `${mh + 4}px`,
    });
    marker.hidden = false;
  }

  function cellAt(event) {
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left - plot.x;
    const y = event.clientY - box.top - plot.y;
    if (x < 0 || y < 0 || x >= plot.w || y >= plot.h) return null;
    const { dim: d, length } = tableShape();
    return {
      row: Math.min(d - 1, Math.floor((y / plot.h) * d)),
      col: Math.min(length - 1, Math.floor((x / plot.w) * length)),
    };
  }

  canvas.addEventListener('pointermove', (event) => {
    if (!plot) return;
    cell = cellAt(event);
    showCell();
  });
  canvas.addEventListener('pointerleave', () => {
    cell = null;
    showCell();
  });
  canvas.addEventListener('keydown', (event) => {
    const { dim: d, length } = tableShape();
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const step = event.shiftKey ? 10 : 1;
    const start = cell ?? { row: 0, col: 0 };
    cell = {
      row: Math.max(0, Math.min(d - 1, start.row + move[0] * step)),
      col: Math.max(0, Math.min(length - 1, start.col + move[1] * step)),
    };
    showCell();
  });
  canvas.addEventListener('blur', () => {
    if (!canvas.matches(':hover')) {
      cell = null;
      showCell();
    }
  });

  return { render };
}
