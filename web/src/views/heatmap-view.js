// View 2: the whole table as a heatmap, position across and dimension down.
// When table cells outnumber the pixels, each pixel shows the mean of the
// block of cells it covers (never one cell picked per pixel, which draws
// moiré rings that are not in the table), and the line under the figure says
// how many cells a pixel averages. Wheel, drag, pinch and the keyboard
// (+ − 0, arrows) zoom and pan down to single cells; hover, tap or arrows
// read one cell exactly, to 6 digits. The grid comes from the table worker;
// until it arrives, a small table keeps its last picture and a large one shows
// a preview of evenly sampled rows, and the line says so.
import { availableWidth, createRedrawGuard, fitCanvas, themeColors } from '../draw/canvas.js';
import { DIVERGING_LUT } from '../draw/colormap.js';
import {
  columnInfo,
  columnOf,
  frequency,
  heatGrid,
  onWorker,
  sampledRows,
  tableShape,
  tableValue,
  tableVersion,
  wavelength,
} from '../compute/encoding.js';
import { fixed6, sig6 } from '../draw/format.js';
import { cursorPosition, onCursor, setCursor } from '../state/cursor.js';
import { drawColorBar, drawTitle, paintGrid } from '../draw/heatmap-draw.js';
import { drawAxes } from '../draw/heatmap-axes.js';
import { waitForWorker } from './scheduler.js';

const MARGIN = { left: 62, right: 86, top: 34, bottom: 44 };
const MIN_SPAN = 4; // the deepest zoom shows 4 positions × 4 dimensions (or fewer, if the table has fewer)

export function createHeatmapView({ canvas, marker, cursorLine, readout, summary }) {
  let plot = null; // plot rect in CSS pixels
  let cell = null; // { row, col } (dimension, table row) under the pointer or keyboard cursor
  let view = null; // viewport { p0, p1, j0, j1 } in table rows and columns
  let shownShape = '';
  let lastGrid = null;
  let redraw = () => {};
  const needsDraw = createRedrawGuard();

  function layoutLabel(d, layout) {
    return layout === 'split'
      ? `split layout: columns 0–${d / 2 - 1} sines, ${d / 2}–${d - 1} cosines`
      : 'interleaved layout: even columns sines, odd columns cosines';
  }

  function render() {
    const { dim: d, length, offset, layout } = tableShape();
    if (shownShape !== `${length}|${d}`) {
      shownShape = `${length}|${d}`;
      view = { p0: 0, p1: length, j0: 0, j1: d };
    }
    const width = availableWidth(canvas.parentElement);
    const height = Math.round(Math.min(460, Math.max(260, width * 0.42)));
    const ratio = Math.max(1, window.devicePixelRatio || 1);
    const w = width - MARGIN.left - MARGIN.right;
    const h = height - MARGIN.top - MARGIN.bottom;
    const grid = heatGrid(view, Math.round(w * ratio), Math.round(h * ratio));
    // A small table's grid is a moment away in the worker: keep the picture until it lands (a large one previews).
    if (!grid && !onWorker()) return waitForWorker();
    const viewKey = [view.p0, view.p1, view.j0, view.j1].join(',');
    if (!needsDraw([tableVersion(), width, viewKey, grid !== null])) return;
    const { ctx } = fitCanvas(canvas, width, height);
    const colors = themeColors();
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    plot = { x: MARGIN.left, y: MARGIN.top, w, h };
    lastGrid = grid;
    if (grid) {
      paintGrid(
        ctx,
        ratio,
        plot,
        grid.rows,
        grid.cols,
        { array: grid.mean, rowStride: grid.cols, colStride: 1 },
        DIVERGING_LUT,
        -1,
        1,
      );
    } else {
      // Preview: rows sampled evenly across the viewport, every column of it.
      const { count, table } = sampledRows(Math.round(w * ratio), view.p0, view.p1);
      const sample = table.subarray(view.j0);
      paintGrid(
        ctx,
        ratio,
        plot,
        view.j1 - view.j0,
        count,
        { array: sample, rowStride: 1, colStride: d },
        DIVERGING_LUT,
        -1,
        1,
      );
    }
    if (layout === 'split' && d >= 4 && view.j0 < d / 2 && view.j1 > d / 2) {
      const y = plot.y + ((d / 2 - view.j0) / (view.j1 - view.j0)) * plot.h;
      ctx.strokeStyle = colors.fg;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(plot.x, Math.round(y) + 0.5);
      ctx.lineTo(plot.x + plot.w, Math.round(y) + 0.5);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    drawAxes(ctx, plot, colors, {
      xDomain: [offset + view.p0, offset + view.p1],
      yDomain: [view.j0, view.j1],
      xLabel: 'position p',
      yLabel: 'dimension (column)',
    });
    // Narrow screens get the short title, so it is never cut.
    const title =
      width < 560
        ? `PE table: ${length} × ${d}, ${layout}`
        : `PE table: ${length} positions × d = ${d}; ${layoutLabel(d, layout)}`;
    drawTitle(ctx, title, plot.x, 8, colors);
    drawColorBar(
      ctx,
      ratio,
      { x: plot.x + plot.w + 18, y: plot.y + 16, w: 14, h: plot.h - 16 },
      DIVERGING_LUT,
      -1,
      1,
      colors,
    );
    describeGrid(grid);
    if (cell && (cell.row >= d || cell.col >= length)) cell = null;
    // A position another view pointed at before this one first drew (view was null then): mark it now.
    const shared = cursorPosition();
    if (!cell && shared != null && shared >= offset && shared < offset + length) {
      cell = { row: view.j0, col: shared - offset };
    }
    showCell();
  }

  /** The line under the figure: what one pixel shows, and how far the view is zoomed. */
  function describeGrid(grid) {
    const { dim: d, length, offset } = tableShape();
    const spanP = view.p1 - view.p0;
    const spanJ = view.j1 - view.j0;
    const zoomed = spanP < length || spanJ < d;
    const where = zoomed
      ? `Zoomed to positions ${offset + view.p0}–${offset + view.p1 - 1}, dimensions ${view.j0}–${view.j1 - 1} (0 or double-click resets). `
      : '';
    let what;
    if (!grid) what = 'Preview: a sample of evenly spread positions; the per-pixel mean is being computed.';
    else if (grid.cols === spanP && grid.rows === spanJ) what = 'Every cell of the table is drawn (no aggregation).';
    else {
      const perX = spanP / grid.cols;
      const perY = spanJ / grid.rows;
      what =
        `Each pixel shows the mean of the ${perX > 1 ? `≈${perX.toPrecision(2)} positions` : 'one position'} × ` +
        `${perY > 1 ? `≈${perY.toPrecision(2)} dimensions` : 'one dimension'} it covers, so columns faster than the ` +
        'pixels average towards 0 instead of drawing false patterns. Zoom in to reach single cells.';
    }
    // Written only on a change (as the label below): a frame of a drag writes no DOM it does not have to.
    if (summary.textContent !== `${where}${what}`) summary.textContent = `${where}${what}`;
    // The image's name states what it shows (written only on a change: a frame of a drag writes no DOM).
    const label =
      `Heatmap of the encoding table: ${length} positions across (${offset}–${offset + length - 1}), ` +
      `${d} dimensions down, each value from −1 (one colour) to 1 (the other)`;
    if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
    const perPixel = grid ? String((spanP / grid.cols) * (spanJ / grid.rows)) : '';
    if (summary.dataset.cellsPerPixel !== perPixel) summary.dataset.cellsPerPixel = perPixel;
  }

  function showCell() {
    if (!cell || !plot) {
      marker.hidden = true;
      showCursorLine(null);
      const hint = 'Hover or tap the heatmap (or focus it and use the arrow keys) to read a cell.';
      if (readout.textContent !== hint) readout.textContent = hint;
      delete readout.dataset.p;
      delete readout.dataset.dim;
      return;
    }
    const { dim: d, offset, base, layout } = tableShape();
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
      `angle p·w mod 2π = ${angle.toFixed(6)} rad   value = ${fixed6(value)}` +
      blockText(r, j);
    readout.dataset.p = String(p);
    readout.dataset.dim = String(j);
    readout.dataset.value = fixed6(value);
    // Outline the cell, at least 5 px so it stays visible when cells are tiny.
    const cw = plot.w / (view.p1 - view.p0);
    const ch = plot.h / (view.j1 - view.j0);
    const mw = Math.max(5, cw);
    const mh = Math.max(5, ch);
    Object.assign(marker.style, {
      left: `${plot.x + (r - view.p0 + 0.5) * cw - mw / 2 - 2}px`,
      top: `${plot.y + (j - view.j0 + 0.5) * ch - mh / 2 - 2}px`,
      width: `${mw + 4}px`,
      height: `${mh + 4}px`,
    });
    marker.hidden = r < view.p0 || r >= view.p1 || j < view.j0 || j >= view.j1;
    setCursor(p, 'heatmap');
    showCursorLine(p);
  }

  /** The shared position cursor as a vertical line over the plot (hidden when off the view). */
  function showCursorLine(p) {
    const { offset } = tableShape();
    const r = p == null ? -1 : p - offset;
    if (!plot || r < view.p0 || r >= view.p1) {
      cursorLine.hidden = true;
      return;
    }
    const cw = plot.w / (view.p1 - view.p0);
    Object.assign(cursorLine.style, {
      left: `${plot.x + (r - view.p0 + 0.5) * cw - 1}px`,
      top: `${plot.y}px`,
      height: `${plot.h}px`,
    });
    cursorLine.hidden = false;
  }

  // Another view pointed at a position: mark it, and read the cell of that position in the current row.
  onCursor((p) => {
    const { offset, length } = tableShape();
    // view is null until the heatmap first draws (it draws when scrolled near, e.g. below a phone's fold).
    if (p == null || view === null || p < offset || p >= offset + length) {
      showCursorLine(null);
      return;
    }
    cell = { row: cell?.row ?? view.j0, col: p - offset };
    showCell();
  }, 'heatmap');

  /** For an aggregated pixel: the block it averages and its mean, min and max. */
  function blockText(r, j) {
    const grid = lastGrid;
    if (!grid || (grid.cols === view.p1 - view.p0 && grid.rows === view.j1 - view.j0)) return '';
    const x = Math.max(0, findBlock(grid.colStarts, r - view.p0));
    const y = Math.max(0, findBlock(grid.rowStarts, j - view.j0));
    const { offset } = tableShape();
    const at = y * grid.cols + x;
    return (
      `\nits pixel averages positions ${offset + view.p0 + grid.colStarts[x]}–${offset + view.p0 + grid.colStarts[x + 1] - 1}, ` +
      `dimensions ${view.j0 + grid.rowStarts[y]}–${view.j0 + grid.rowStarts[y + 1] - 1}: mean ${fixed6(grid.mean[at])}, ` +
      `min ${fixed6(grid.min[at])}, max ${fixed6(grid.max[at])}`
    );
  }

  /** (column, row) table indices under a client point, or null outside the plot. */
  function cellAt(clientX, clientY) {
    const box = canvas.getBoundingClientRect();
    const x = clientX - box.left - plot.x;
    const y = clientY - box.top - plot.y;
    if (x < 0 || y < 0 || x >= plot.w || y >= plot.h) return null;
    return {
      row: Math.min(view.j1 - 1, view.j0 + Math.floor((y / plot.h) * (view.j1 - view.j0))),
      col: Math.min(view.p1 - 1, view.p0 + Math.floor((x / plot.w) * (view.p1 - view.p0))),
    };
  }

  /** Zooms by factor (< 1 zooms in) around the table point (col, row) at fractions (fx, fy) of the plot. */
  function zoom(factor, col, row, fx, fy) {
    const { dim: d, length } = tableShape();
    const spanP = clamp(Math.round((view.p1 - view.p0) * factor), Math.min(MIN_SPAN, length), length);
    const spanJ = clamp(Math.round((view.j1 - view.j0) * factor), Math.min(MIN_SPAN, d), d);
    const p0 = clamp(Math.round(col + 0.5 - fx * spanP), 0, length - spanP);
    const j0 = clamp(Math.round(row + 0.5 - fy * spanJ), 0, d - spanJ);
    setView({ p0, p1: p0 + spanP, j0, j1: j0 + spanJ });
  }

  /** Moves the view by (dp, dj) table cells, staying inside the table. */
  function pan(dp, dj) {
    const { dim: d, length } = tableShape();
    const p0 = clamp(Math.round(view.p0 + dp), 0, length - (view.p1 - view.p0));
    const j0 = clamp(Math.round(view.j0 + dj), 0, d - (view.j1 - view.j0));
    setView({ p0, p1: p0 + view.p1 - view.p0, j0, j1: j0 + view.j1 - view.j0 });
  }

  function setView(next) {
    if (next.p0 === view.p0 && next.p1 === view.p1 && next.j0 === view.j0 && next.j1 === view.j1) return;
    view = next;
    redraw();
  }

  function resetView() {
    const { dim: d, length } = tableShape();
    setView({ p0: 0, p1: length, j0: 0, j1: d });
  }

  // ---- pointer: hover and tap read, drag pans, wheel and pinch zoom ----------
  const pointers = new Map(); // pointerId → { x, y }
  let pinch = null;
  canvas.addEventListener('pointerdown', (event) => {
    if (!plot) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    canvas.setPointerCapture(event.pointerId);
    cell = cellAt(event.clientX, event.clientY) ?? cell;
    showCell();
    if (pointers.size === 2) pinch = { distance: pointerDistance(), view: { ...view } };
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!plot) return;
    const last = pointers.get(event.pointerId);
    if (!last) {
      cell = cellAt(event.clientX, event.clientY);
      showCell();
      return;
    }
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const at = cellAt(mid.x, mid.y);
      if (at) {
        const box = canvas.getBoundingClientRect();
        view = pinch.view;
        zoom(
          pinch.distance / Math.max(1, pointerDistance()),
          at.col,
          at.row,
          (mid.x - box.left - plot.x) / plot.w,
          (mid.y - box.top - plot.y) / plot.h,
        );
      }
      return;
    }
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    pan((-dx / plot.w) * (view.p1 - view.p0), (-dy / plot.h) * (view.j1 - view.j0));
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType === 'mouse' && !pointers.size) {
      cell = null;
      showCell();
    }
  });
  canvas.addEventListener(
    'wheel',
    (event) => {
      if (!plot) return;
      const at = cellAt(event.clientX, event.clientY);
      if (!at) return;
      event.preventDefault();
      const box = canvas.getBoundingClientRect();
      zoom(
        event.deltaY < 0 ? 0.8 : 1.25,
        at.col,
        at.row,
        (event.clientX - box.left - plot.x) / plot.w,
        (event.clientY - box.top - plot.y) / plot.h,
      );
    },
    { passive: false },
  );
  canvas.addEventListener('dblclick', resetView);

  function pointerDistance() {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  // ---- keyboard: arrows read cells (the view follows), + − zoom, 0 resets ----
  canvas.addEventListener('keydown', (event) => {
    const { dim: d, length } = tableShape();
    const start = cell ?? { row: view.j0, col: view.p0 };
    if (event.key === '+' || event.key === '=' || event.key === '-' || event.key === '_') {
      event.preventDefault();
      const inward = event.key === '+' || event.key === '=';
      zoom(
        inward ? 0.5 : 2,
        start.col,
        start.row,
        (start.col - view.p0 + 0.5) / (view.p1 - view.p0),
        (start.row - view.j0 + 0.5) / (view.j1 - view.j0),
      );
      return;
    }
    if (event.key === '0') {
      event.preventDefault();
      resetView();
      return;
    }
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const step = event.shiftKey ? 10 : 1;
    cell = {
      row: clamp(start.row + move[0] * step, 0, d - 1),
      col: clamp(start.col + move[1] * step, 0, length - 1),
    };
    // Keep the read cell in view.
    const dp = cell.col < view.p0 ? cell.col - view.p0 : cell.col >= view.p1 ? cell.col - view.p1 + 1 : 0;
    const dj = cell.row < view.j0 ? cell.row - view.j0 : cell.row >= view.j1 ? cell.row - view.j1 + 1 : 0;
    if (dp || dj) pan(dp, dj);
    showCell();
  });
  canvas.addEventListener('blur', () => {
    if (!canvas.matches(':hover')) {
      cell = null;
      showCell();
    }
  });

  return {
    render,
    /** Called with a function that redraws this view (zoom and pan are the view's own state). */
    setRedraw(fn) {
      redraw = fn;
    },
  };
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}

/** The block b with starts[b] ≤ i < starts[b + 1]. */
function findBlock(starts, i) {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
