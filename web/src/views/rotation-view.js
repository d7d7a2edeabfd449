// View 3: the relative-position property. PE(p) and PE(p+k) come from the
// package; R(k) is built here from the frequencies, because applying it is the
// demonstration: the residual max|R(k)·PE(p) − PE(p+k)| shows it holds.
// Linked to the shared position cursor: moving p here moves it, and the
// similarity matrix marks it (row and column) and reads that row.
import { sinusoidalAt } from '../../../src/js/index.js';
import {
  createRedrawGuard,
  fitCanvas,
  themeColors,
  availableWidth,
  plotHeight,
  compactScreen,
} from '../draw/canvas.js';
import { DIVERGING_LUT, pairColor } from '../draw/colormap.js';
import {
  columnOf,
  frequency,
  rowRanges,
  similarityOf,
  tableShape,
  tableVersion,
  wavelength,
} from '../compute/encoding.js';
import { fixed6, grouped, sig6 } from '../draw/format.js';
import { drawColorBar, drawTitle, paintGrid } from '../draw/heatmap-draw.js';
import { drawAxes } from '../draw/heatmap-axes.js';
import { drawLinePlot } from '../draw/line-plot.js';
import { linkCursor, markMatrix } from './linked-cursor.js';

const TAU = 2 * Math.PI;
const MAX_CIRCLES = 8;
const MATRIX_PAIRS = 8;
// Similarity work is window² · d / 2 multiply-adds (about 4 ms, in the table worker).
const SIMILARITY_BUDGET = 2 ** 22;

/** Rotation of one (sin, cos) pair by angle: sin(a+θ), cos(a+θ) from sin a, cos a. */
export function rotatePair(s, c, angle) {
  const cs = Math.cos(angle);
  const sn = Math.sin(angle);
  return [s * cs + c * sn, c * cs - s * sn];
}

// Circles show only pairs that turn visibly while p or k plays (one position
// per frame): a wavelength of at most this many positions, one turn in ≤ 17 s.
export const VISIBLE_WAVELENGTH = 1000;

/** The last pair whose wavelength 2π·T^(2i/d) is at most VISIBLE_WAVELENGTH (at least pair 0). */
export function lastVisiblePair(d, base) {
  const last = Math.floor(((d / 2) * Math.log(VISIBLE_WAVELENGTH / (2 * Math.PI))) / Math.log(base));
  return Math.max(0, Math.min(d / 2 - 1, last));
}

/** The pairs drawn as circles: evenly spread from the fastest (0) to the last visibly turning one. */
function circlePairs(d, base) {
  const last = lastVisiblePair(d, base);
  const n = Math.min(MAX_CIRCLES, last + 1);
  const out = [];
  for (let m = 0; m < n; m++) out.push(Math.round((m * last) / Math.max(1, n - 1)));
  return [...new Set(out)];
}

export function createRotationView(elements) {
  const { circlesCanvas, circlesNote, matrixCanvas, similarityCanvas, profile, residualOut, similarityOut } = elements;
  const { similarityReadout } = elements;
  const circlesNeedDraw = createRedrawGuard();
  let similarityKey = ''; // what the similarity matrix last drew
  let similarity = null; // { sim, window, offset, rect }: what the matrix shows, for the cursor
  let lastP = null;
  const cursor = linkCursor('rotation', (p) => showPosition(p));

  /** Marks position p (null: none) on the similarity matrix and reads its row's cosine to its neighbours. */
  function showPosition(p) {
    if (!similarity) return;
    const { sim, window, offset, rect } = similarity;
    const n = p == null ? null : p - offset;
    markMatrix(similarityCanvas, rect, window, n);
    if (n == null || n < 0 || n >= window) {
      similarityReadout.textContent =
        'Point at a position in any view (here: hover the matrix, or focus it and use the arrow keys) to read its row.';
      similarityReadout.dataset.p = '';
      return;
    }
    const near = [-2, -1, 1, 2].filter((delta) => n + delta >= 0 && n + delta < window);
    similarityReadout.textContent =
      `position p = ${p}: cos(PE(p), PE(p + Δ)) ` +
      near.map((delta) => `Δ = ${delta}: ${fixed6(sim[n * window + n + delta])}`).join(', ');
    similarityReadout.dataset.p = String(p);
  }

  // Hover or the arrow keys on the matrix point at a position (its column).
  similarityCanvas.tabIndex = 0;
  similarityCanvas.addEventListener('mousemove', (event) => {
    if (!similarity) return;
    const { window, offset, rect } = similarity;
    const box = similarityCanvas.getBoundingClientRect();
    const scale = box.width / (parseFloat(similarityCanvas.style.width) || box.width);
    const x = (event.clientX - box.left) / scale - rect.x;
    if (x < 0 || x >= rect.w) return;
    const p = offset + Math.min(window - 1, Math.floor((x / rect.w) * window));
    showPosition(p);
    cursor.point(p);
  });
  similarityCanvas.addEventListener('mouseleave', () => {
    showPosition(null);
    cursor.point(null);
  });
  similarityCanvas.addEventListener('keydown', (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[event.key];
    if (!step || !similarity) return;
    event.preventDefault();
    const { window, offset } = similarity;
    const current = Number(similarityReadout.dataset.p || offset - step);
    const p = Math.max(offset, Math.min(offset + window - 1, current + step * (event.shiftKey ? 10 : 1)));
    showPosition(p);
    cursor.point(p);
  });

  function render(state) {
    const { dim: d, base, layout } = tableShape();
    const { p, k } = state;
    // Moving p here (slider, box, ▶) points every view at it; the first render only notes it.
    const moved = lastP !== null && p !== lastP;
    lastP = p;
    const total = availableWidth(circlesCanvas.parentElement, 900);
    // The similarity matrix (window² · d / 2 multiply-adds) is computed by the table worker and drawn as the
    // rest of the work, in a later frame; its key is kept only once drawn, since the scheduler drops the rest
    // when the view is asked again first.
    const key = [tableVersion(), total, rowRanges() !== null, document.documentElement.dataset.theme].join('|');
    const rest = key === similarityKey ? undefined : () => similarityStep(key);
    if (moved) {
      cursor.point(p);
      showPosition(p);
    }
    if (circlesNeedDraw([d, base, layout, p, k, total])) drawRotation(state, total);
    return rest;
  }

  function drawRotation(state, total) {
    const { dim: d, base, layout } = tableShape();
    const { p, k } = state;
    const rows = sinusoidalAt([p, p + k], { dim: d, base, layout });
    const half = d / 2;
    // The residual over every pair in one loop without allocating (d / 2 = 1024 pairs on a drag of d); the
    // drawn pairs (at most 8 circles and the matrix's 8 blocks) are described apart.
    let residual = 0;
    for (let i = 0; i < half; i++) {
      const js = columnOf(i, 'sin', d, layout);
      const jc = columnOf(i, 'cos', d, layout);
      const angle = k * frequency(i, d, base);
      const cs = Math.cos(angle);
      const sn = Math.sin(angle);
      const rs = rows[js] * cs + rows[jc] * sn;
      const rc = rows[jc] * cs - rows[js] * sn;
      residual = Math.max(residual, Math.abs(rs - rows[d + js]), Math.abs(rc - rows[d + jc]));
    }
    const pairAt = (i) => {
      const js = columnOf(i, 'sin', d, layout);
      const jc = columnOf(i, 'cos', d, layout);
      const angle = k * frequency(i, d, base);
      const rotated = rotatePair(rows[js], rows[jc], angle);
      return { i, angle, from: [rows[js], rows[jc]], to: [rows[d + js], rows[d + jc]], rotated };
    };
    residualOut.innerHTML =
      `max over all ${d} columns of |R(k)·PE(p) − PE(p+k)| = <strong id="residual-value">${residual.toExponential(2)}</strong>` +
      ` for p = ${p}, k = ${k} (float32 values from the package, rotation in double)`;
    residualOut.dataset.residual = String(residual);
    const colors = themeColors();
    // On a phone the matrix keeps to 240 px: full width, it alone would take half a screen.
    const matrixWidth = total >= 860 ? 300 : Math.min(total, compactScreen() ? 240 : total);
    const circlesWidth = total >= 860 ? total - matrixWidth - 16 : total;
    drawCircles(circlePairs(d, base).map(pairAt), state, circlesWidth, colors);
    drawMatrix(
      Array.from({ length: Math.min(MATRIX_PAIRS, half) }, (_, i) => pairAt(i)),
      state,
      half,
      matrixWidth,
      colors,
    );
  }

  function drawCircles(shown, state, width, colors) {
    // Three to a row on a phone (two at 150 px would stack the circles a screen tall).
    const narrow = width < 450;
    const cellW = narrow ? Math.floor(width / 3) : 150;
    const cellH = narrow ? 132 : 178;
    // As many per row as fit, spread over balanced rows (8 → 4 + 4 rather than 5 + 3).
    const fit = Math.max(1, Math.min(shown.length, Math.floor(width / cellW)));
    const perRow = Math.ceil(shown.length / Math.ceil(shown.length / fit));
    const height = 40 + Math.ceil(shown.length / perRow) * cellH;
    const { ctx } = fitCanvas(circlesCanvas, width, height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    const last = shown.at(-1).i;
    drawTitle(ctx, `Unit circles (x = cos, y = sin), p = ${state.p}, k = ${state.k}`, 4, 4, colors);
    circlesCanvas.dataset.pairs = shown.map((pair) => pair.i).join(' ');
    // The text alternative: each circle's turn, as the arcs draw it.
    circlesCanvas.setAttribute(
      'aria-description',
      shown
        .map((pair) => `pair ${pair.i} turns ${((((pair.angle % TAU) + TAU) % TAU) * (180 / Math.PI)).toFixed(2)}°`)
        .join('; '),
    );
    circlesNote.textContent =
      `The circles show pairs 0–${last}, spread evenly: the pairs whose wavelength is at most ${VISIBLE_WAVELENGTH} ` +
      `positions, so each one visibly turns while p or k plays.` +
      (last < state.d / 2 - 1
        ? ` Pairs ${last + 1}–${state.d / 2 - 1} turn too, too slowly to see: the slowest once every ` +
          `${grouped(Math.round(wavelength(state.d / 2 - 1, state.d, state.base)))} positions.`
        : '');
    // Legend.
    ctx.font = colors.font;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const legendY = 28;
    ringAt(ctx, 14, legendY, colors.fg);
    ctx.fillStyle = colors.fg;
    ctx.fillText('PE(p)', 26, legendY);
    dotAt(ctx, 84, legendY, colors.fg);
    ctx.fillStyle = colors.fg;
    ctx.fillText('PE(p+k)', 94, legendY);
    crossAt(ctx, 166, legendY, colors.fg);
    ctx.fillStyle = colors.fg;
    ctx.fillText('R(k)·PE(p)', 176, legendY);
    if (width >= 440) ctx.fillText('arc: the turn k·w mod 2π', 262, legendY);

    const labels = [];
    shown.forEach((pair, n) => {
      const cx = (n % perRow) * cellW + cellW / 2;
      const top = 40 + Math.floor(n / perRow) * cellH;
      const r = narrow ? 32 : 46;
      const cy = top + r + 10;
      const color = pairColor(n);
      ctx.strokeStyle = colors.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(cx - r - 6, cy);
      ctx.lineTo(cx + r + 6, cy);
      ctx.moveTo(cx, cy - r - 6);
      ctx.lineTo(cx, cy + r + 6);
      ctx.stroke();
      ctx.strokeStyle = colors.muted;
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, TAU);
      ctx.stroke();
      // Point (cos, sin) at screen (cx + r cos, cy − r sin).
      const [s0, c0] = pair.from;
      const [s1, c1] = pair.to;
      const [sr, cr] = pair.rotated;
      const start = Math.atan2(s0, c0);
      const turn = ((pair.angle % TAU) + TAU) % TAU;
      ctx.strokeStyle = color;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.arc(cx, cy, r * 0.72, -start, -(start + turn), true);
      ctx.stroke();
      ctx.lineWidth = 1;
      ringAt(ctx, cx + r * c0, cy - r * s0, color);
      dotAt(ctx, cx + r * c1, cy - r * s1, color);
      crossAt(ctx, cx + r * cr, cy - r * sr, colors.fg);
      const turns = Math.floor(pair.angle / TAU);
      const w = frequency(pair.i, tableShape().dim, tableShape().base);
      labels.push({
        x: cx,
        y: cy + r,
        name: `pair ${pair.i}`,
        w: `w = ${sig6(w)}`,
        turn: `turn ${((turn * 180) / Math.PI).toFixed(2)}°${turns > 0 ? ` + ${turns}×360°` : ''}`,
      });
    });
    // The labels by font, one font change each rather than three per circle (each change parses the font).
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillStyle = colors.fg;
    ctx.font = `600 ${colors.font}`;
    for (const label of labels) ctx.fillText(label.name, label.x, label.y + 10);
    ctx.font = colors.font;
    for (const label of labels) ctx.fillText(label.w, label.x, label.y + 26);
    ctx.fillStyle = colors.muted;
    for (const label of labels) ctx.fillText(label.turn, label.x, label.y + 42);
  }

  function drawMatrix(pairs, state, half, width, colors) {
    const n = pairs.length * 2;
    const size = Math.min(width - 90, 260);
    const height = size + 86;
    const { ctx, ratio } = fitCanvas(matrixCanvas, width, height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    const rect = { x: 28, y: 40, w: size, h: size };
    // Entries in interleaved order: block i maps (sin_i, cos_i) to (sin_i', cos_i'). Laid out once as an array:
    // painted from a function, each of the matrix's ~60,000 pixels would take its own cos and sin.
    const entries = new Float64Array(n * n);
    pairs.forEach(({ angle }, i) => {
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      entries.set([c, s], 2 * i * n + 2 * i);
      entries.set([-s, c], (2 * i + 1) * n + 2 * i);
    });
    const entry = (row, col) => entries[row * n + col];
    paintGrid(ctx, ratio, rect, n, n, { array: entries, rowStride: n, colStride: 1 }, DIVERGING_LUT, -1, 1);
    ctx.strokeStyle = colors.muted;
    ctx.lineWidth = 1;
    ctx.strokeRect(rect.x - 0.5, rect.y - 0.5, rect.w + 1, rect.h + 1);
    const cellSize = size / n;
    if (cellSize >= 26) {
      ctx.font = colors.smallFont;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let row = 0; row < n; row++) {
        for (let col = 0; col < n; col++) {
          const v = entry(row, col);
          if (row >> 1 !== col >> 1) continue;
          ctx.fillStyle = Math.abs(v) > 0.6 ? '#ffffff' : '#111111';
          ctx.fillText(v.toFixed(2), rect.x + (col + 0.5) * cellSize, rect.y + (row + 0.5) * cellSize);
        }
      }
    }
    drawTitle(ctx, `R(k), k = ${state.k}`, 4, 4, colors);
    ctx.font = colors.smallFont;
    ctx.fillStyle = colors.muted;
    ctx.fillText(`first ${pairs.length} of ${half} 2×2 blocks`, 4, 22);
    ctx.fillText('block i = [[cos k·wᵢ, sin k·wᵢ], [−sin k·wᵢ, cos k·wᵢ]]', 4, rect.y + size + 10);
    ctx.fillText('acting on (sinᵢ, cosᵢ); zero off the blocks', 4, rect.y + size + 26);
    drawColorBar(
      ctx,
      ratio,
      { x: rect.x + size + 14, y: rect.y + 16, w: 12, h: size - 16 },
      DIVERGING_LUT,
      -1,
      1,
      colors,
      {
        title: 'entry',
      },
    );
  }

  /** Draws the similarity once the worker has it; until then waits (the worker's answer asks for a redraw). */
  function similarityStep(key) {
    const { dim: d, length } = tableShape();
    const window = Math.max(1, Math.min(length, 256, Math.floor(Math.sqrt(SIMILARITY_BUDGET / d))));
    const result = similarityOf(window);
    if (!result) return Object.assign(() => similarityStep(key), { waiting: true });
    similarityKey = key;
    drawSimilarity(result, themeColors());
    cursor.refresh();
    return undefined;
  }

  function drawSimilarity({ window, sim, bandDeviation }, colors) {
    const { dim: d, length, offset } = tableShape();
    const stats = rowRanges();
    const total = availableWidth(similarityCanvas.parentElement, 800);
    const width = Math.min(total, 440);
    const size = width - (compactScreen() ? 170 : 140);
    const height = size + 84;
    const { ctx, ratio } = fitCanvas(similarityCanvas, width, height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    const rect = { x: 62, y: 34, w: size, h: size };
    similarity = { sim, window, offset, rect };
    paintGrid(ctx, ratio, rect, window, window, { array: sim, rowStride: window, colStride: 1 }, DIVERGING_LUT, -1, 1);
    drawAxes(ctx, rect, colors, {
      xDomain: [offset, offset + window],
      yDomain: [offset, offset + window],
      xLabel: 'position q',
      yLabel: 'position p',
      xTicks: 4,
      yTicks: 4,
    });
    drawTitle(ctx, `cos(PE(p), PE(q)), ${window} position${window === 1 ? '' : 's'}`, 4, 6, colors);
    drawColorBar(
      ctx,
      ratio,
      { x: rect.x + size + 16, y: rect.y + 16, w: 12, h: size - 16 },
      DIVERGING_LUT,
      -1,
      1,
      colors,
      {
        title: 'cos',
      },
    );

    const mid = Math.floor(window / 2);
    const deltas = Float64Array.from({ length: window }, (_, n) => n - mid);
    const midRow = deltas.map((delta) => sim[mid * window + mid + delta]);
    const firstRow = Array.from(deltas, (delta) => (delta >= 0 ? sim[delta] : null));
    drawLinePlot(profile, {
      title: 'Profile along a row: the same curve for every p',
      // A phone draws it short: no x label (the title names the row), so the plot keeps 60 px for three y ticks.
      xLabel: compactScreen() ? null : 'offset q − p',
      yLabel: ['cos similarity', 'cos'],
      x: deltas,
      series: [
        { label: `row p = ${offset + mid}`, values: midRow, stroke: pairColor(0), width: 2.5 },
        { label: `row p = ${offset}`, values: firstRow, stroke: pairColor(1), dash: [5, 4], width: 1.5 },
      ],
      height: compactScreen() ? 130 : plotHeight(Math.max(220, height - 40)),
      yRange: [-1.05, 1.05],
    });
    const expected = Math.sqrt(d / 2);
    similarityOut.innerHTML =
      (stats
        ? `Every row's norm over the ${length} position${length === 1 ? '' : 's'} of the table: min ${fixed6(stats.normMin)}, max ${fixed6(stats.normMax)}; `
        : `Measuring every row's norm over the ${length} positions of the table… `) +
      `√(d/2) = ${fixed6(expected)}. ` +
      `Bands: every entry equals row ${offset}'s entry at the same |p − q| to within ` +
      `<strong>${bandDeviation.toExponential(1)}</strong>. Solid: row p = ${offset + mid}; dashed: row p = ${offset}.`;
    similarityOut.dataset.minNorm = stats ? String(stats.normMin) : '';
    similarityOut.dataset.maxNorm = stats ? String(stats.normMax) : '';
    similarityOut.dataset.bandDeviation = String(bandDeviation);
  }

  return { render };
}

function ringAt(ctx, x, y, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.arc(x, y, 6, 0, TAU);
  ctx.stroke();
  ctx.lineWidth = 1;
}

function dotAt(ctx, x, y, color) {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(x, y, 4.5, 0, TAU);
  ctx.fill();
}

function crossAt(ctx, x, y, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x - 3, y - 3);
  ctx.lineTo(x + 3, y + 3);
  ctx.moveTo(x + 3, y - 3);
  ctx.lineTo(x - 3, y + 3);
  ctx.stroke();
  ctx.lineWidth = 1;
}
