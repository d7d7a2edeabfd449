// View 6: four ways to encode distance, side by side on the same axes (query
// position i down, key position j across, the same window of positions): the
// sinusoidal similarity PE·PEᵀ, the same similarity of a learned table's rows,
// RoPE's query-key score and ALiBi's bias; then each against the offset j − i.
// Linked to the shared position cursor: it marks key j = p (and query i = p)
// in all four panels; pointing at a cell points at its key position j.
import { availableWidth, compactScreen, fitCanvas, themeColors, plotHeight } from '../draw/canvas.js';
import { DIVERGING_LUT, LUT_SIZE, pairColor } from '../draw/colormap.js';
import { CIVIDIS_LUT, viridisColors } from '../draw/sequential-colormap.js';
import {
  alibiMatrices,
  diagonalProfile,
  largestSpread,
  learnedMatrix,
  ropeMatrix,
  sharedWindow,
  sinusoidalMatrix,
} from '../compute/comparison-data.js';
import { fixed6, sig6, tickLabel } from '../draw/format.js';
import { drawTitle, paintGrid } from '../draw/heatmap-draw.js';
import { drawAxes } from '../draw/heatmap-axes.js';
import { drawLogPlot } from '../draw/log-plot.js';
import { csvColumns } from '../io/csv-columns.js';
import { linkCursor, markMatrix } from './linked-cursor.js';
import { inSteps } from './scheduler.js';
import { modelRope } from '../state/model-config.js';
import { ropeScalingDict } from '../state/rope-scaling.js';

const GAP = 12;
const MARGIN = { left: 58, right: 12, top: 44 };
// The panels' titles (ALiBi's names its head): "name: formula", split there when a panel is too narrow for one line.
const TITLES = {
  sin: 'Sinusoidal: cos(PE(i), PE(j))',
  learned: 'Learned: cos(row i, row j)',
  rope: 'RoPE: cos(q(i), k(j))',
};
const TITLE_LINE = 15; // the second title line's height
// Under the colour bar's labels: room left when the title takes one line, less when it takes two.
const BELOW = { oneLine: 92, twoLines: 92 - TITLE_LINE };

/** Whether text fits maxWidth pixels in a figure title's font (measured on canvas). */
function fits(canvas, text, maxWidth) {
  const ctx = canvas.getContext('2d');
  ctx.font = `600 ${themeColors().font}`;
  return ctx.measureText(text).width <= maxWidth;
}

const QK_TEXT = {
  same: 'q = k, one seeded random vector',
  independent: 'q and k independent seeded random vectors',
  ones: 'q = k = all ones',
};

/** Panel width: four in a row on a wide page, two on a medium one, one on a phone. */
/** The heads whose profile is drawn: all when asked (or at most five), else five spread ones and the chosen. */
/** The profiles' chart height: about half on a phone, so the view stays well inside two screens there. */
const profileHeight = () => (compactScreen() ? 124 : plotHeight(300));
/**
 * A phone's profile charts spend their height on the plot: no x label (the title says what x is: the offset j − i;
 * uPlot keeps 30 px for any label), a 32 px x axis (uPlot's is 50) and y ticks down to 20 px apart (uPlot's 30),
 * so the 80 px plot labels three. At 110 px with uPlot's axes, the plot was 18 px tall and its y axis showed only 0.
 */
const profileAxes = (xLabel) => (compactScreen() ? { xLabel: null, xAxisSize: 32, ySpace: 20 } : { xLabel });

export function profileHeads(heads, chosen, all) {
  if (all || heads <= 5) return new Set(Array.from({ length: heads }, (_, h) => h));
  const picked = new Set([0, heads - 1, Math.min(chosen, heads - 1)]);
  for (let n = 1; picked.size < 5 && n < 4; n++) picked.add(Math.round((n * (heads - 1)) / 4));
  return picked;
}

function panelWidth(total) {
  if (total >= 960) return Math.floor((total - 3 * GAP) / 4);
  // Two a row from phone width up: four stacked panels were four screens tall on a phone.
  if (total >= 300) return Math.floor((total - GAP) / 2);
  return total;
}

/** The chosen model's RoPE for the RoPE panel (the RoPE view's fields, as its config set them), or null. */
function modelPanelRope(state) {
  const rope = modelRope();
  if (!rope) return null;
  const scaling = ropeScalingDict(state, rope.scaling) ?? null;
  return { headDim: state.rhd, base: state.rbase, scaling, layout: rope.layout };
}

export function createComparisonView(elements) {
  const { canvases, profile, alibiProfile, readout, facts, learned, allHeads } = elements;
  let redraw = () => {};
  allHeads?.addEventListener('change', () => {
    drawnKey = '';
    redraw();
  });
  let last = null; // what the readout reads: { W, rect, panels }
  let columns = []; // the profiles, for CSV export
  const markAll = (p) => {
    for (const canvas of Object.values(canvases)) markMatrix(canvas, last?.rect, last?.W ?? 0, p);
  };
  const cursor = linkCursor('comparison', (p) => {
    markAll(p);
    if (p != null && last && p < last.W) showCell(Number(readout.dataset.i ?? 0), p);
  });

  let drawnKey = ''; // what the panels last drew in full
  // Each panel's matrix with what it was computed from, and what each canvas last showed: a change of one control
  // recomputes and repaints only the panels it concerns (dragging T redraws the sinusoidal and RoPE panels, not the
  // learned table's or ALiBi's, whose matrices cost as much again at d = 2048).
  const matrices = new Map(); // panel → { key, value }
  const painted = new Map(); // panel → the key of what its canvas shows
  const matrixOf = (panel, key, compute) => {
    const kept = matrices.get(panel);
    if (kept?.key === key) return kept.value;
    const value = compute();
    matrices.set(panel, { key, value });
    return value;
  };

  /**
   * Draws the panels whose picture changed, then the profiles, each as its own step (the scheduler runs the rest in
   * later frames: each cosine matrix is up to W² · d multiply-adds).
   */
  function render(state) {
    const source = learned.current();
    const total = availableWidth(canvases.sin.parentElement, 900);
    // A chosen model's RoPE (its head_dim, rope_theta and scaling) replaces the bar's d and T in the RoPE panel.
    const model = modelPanelRope(state);
    const theme = document.documentElement.dataset.theme;
    const key = [state.d, state.base, state.cw, state.heads, state.head, state.causal, state.qk, source.label, total]
      .concat(model ? [model.headDim, model.base, JSON.stringify(model.scaling), model.layout] : [])
      .concat(theme)
      .join('|');
    if (key === drawnKey) return undefined;
    const { d, base } = state;
    const W = sharedWindow(state.cw, Math.max(d, source.dim), source.rows);
    const colors = themeColors();
    const width = panelWidth(total);
    const size = Math.max(60, width - MARGIN.left - MARGIN.right);
    // A panel too narrow for its title (two to a row on a phone) writes it on two lines, name then formula; the
    // room comes from the space under the colour bar, so the view grows no taller.
    const wrap = !fits(canvases.sin, TITLES.sin, width - 8);
    const rect = { x: MARGIN.left, y: MARGIN.top + (wrap ? TITLE_LINE : 0), w: size, h: size, wrap };
    const cosBar = { lut: DIVERGING_LUT, lo: -1, hi: 1, label: 'cosine' };
    const head = Math.min(state.head, state.heads - 1);
    const keys = {
      sin: `${W}|${d}|${base}`,
      learned: `${W}|${source.label}`,
      rope: `${W}|${d}|${base}|${state.qk}|${model ? JSON.stringify(model) : ''}`,
      alibi: `${W}|${state.heads}|${state.causal}`,
    };
    const framed = `${width}|${theme}`;
    // A panel is repainted when its matrix or its frame changed (or its canvas was never painted).
    const stale = (panel, extra = '') => painted.get(panel) !== `${keys[panel]}|${extra}|${framed}`;
    const paintedNow = (panel, extra = '') => painted.set(panel, `${keys[panel]}|${extra}|${framed}`);
    // The source object itself, not only its label, decides whether the learned matrix is still right.
    if (matrices.get('learned')?.source !== source) matrices.delete('learned');
    const sinOf = () => matrixOf('sin', keys.sin, () => sinusoidalMatrix(W, d, base));
    const learnedOf = () => {
      const value = matrixOf('learned', keys.learned, () => learnedMatrix(source, W));
      matrices.get('learned').source = source;
      return value;
    };
    const ropeOf = () => matrixOf('rope', keys.rope, () => ropeMatrix(W, d, base, state.qk, model));
    const alibiOf = () => matrixOf('alibi', keys.alibi, () => alibiMatrices(W, state.heads, state.causal));

    const steps = [];
    if (stale('sin')) {
      steps.push(() => {
        drawPanel(canvases.sin, width, rect, colors, {
          title: TITLES.sin,
          subtitle: `d = ${d}, T = ${base}`,
          matrix: sinOf(),
          W,
          ...cosBar,
        });
        paintedNow('sin');
      });
    }
    if (stale('learned')) {
      steps.push(() => {
        drawPanel(canvases.learned, width, rect, colors, {
          title: TITLES.learned,
          subtitle: `${source.short}, ${source.rows} × ${source.dim}`,
          matrix: learnedOf(),
          W,
          ...cosBar,
        });
        paintedNow('learned');
      });
    }
    if (stale('rope')) {
      steps.push(() => {
        // The RoPE the panel rotates with, for readers and tests (the subtitle is drawn on the canvas).
        Object.assign(canvases.rope.dataset, {
          headDim: String(model?.headDim ?? d),
          base: String(model?.base ?? base),
        });
        drawPanel(canvases.rope, width, rect, colors, {
          title: TITLES.rope,
          subtitle: `head_dim ${model?.headDim ?? d}, base ${model?.base ?? base}${model?.scaling ? `, ${model.scaling.rope_type}` : ''}, ${state.qk === 'ones' ? 'q = k = 1' : state.qk === 'same' ? 'q = k random' : 'q, k random'}`,
          matrix: ropeOf(),
          W,
          ...cosBar,
        });
        paintedNow('rope');
      });
    }
    // The ALiBi panel, the profiles and the facts: cheap once the matrices are there, one step.
    steps.push(() => {
      const { slopes, bias } = alibiOf();
      const plane = W * W;
      const alibiHead = bias.subarray(head * plane, (head + 1) * plane);
      if (stale('alibi', head)) {
        const deepest = -slopes[head] * (W - 1);
        drawPanel(canvases.alibi, width, rect, colors, {
          title: `ALiBi: bias of head ${head}`,
          subtitle: `m = ${sig6(slopes[head])}, ${state.heads} heads${state.causal ? ', causal' : ''}`,
          matrix: alibiHead,
          W,
          lut: CIVIDIS_LUT,
          lo: Math.min(deepest, -1e-6),
          hi: 0,
          label: state.causal ? 'bias; grey: masked' : 'bias −m·|j − i|',
          masked: state.causal,
        });
        paintedNow('alibi', head);
      }
      const sin = sinOf();
      const learnedSim = learnedOf();
      const rope = ropeOf();
      last = { W, rect, panels: { sin, learned: learnedSim, rope, alibi: alibiHead }, head };
      drawProfiles(W, { sin, learnedSim, rope, source, state });
      drawAlibiProfile(W, slopes, bias, state);
      writeFacts(W, { sin, learnedSim, rope, source, slopes, state, d });
      drawnKey = key;
      cursor.refresh();
    });
    return inSteps(steps);
  }

  function drawProfiles(W, { sin, learnedSim, rope, source }) {
    const deltas = Array.from({ length: 2 * W - 1 }, (_, n) => n - (W - 1));
    const sinProfile = diagonalProfile(sin, W);
    const learnedProfile = diagonalProfile(learnedSim, W);
    const series = [
      { label: 'sinusoidal', values: sinProfile.mean, stroke: pairColor(0), width: 2.2 },
      { label: `learned (mean over i; dashed: min, max)`, values: learnedProfile.mean, stroke: pairColor(1), width: 2 },
      { label: '', values: learnedProfile.min, stroke: pairColor(1), width: 1, dash: [4, 3] },
      { label: '', values: learnedProfile.max, stroke: pairColor(1), width: 1, dash: [4, 3] },
    ];
    series.push({
      label: 'RoPE q·k',
      values: diagonalProfile(rope, W).mean,
      stroke: pairColor(2),
      width: 2,
      dash: [7, 3],
    });
    columns = [
      { name: 'offset', values: deltas },
      { name: 'sinusoidal', values: sinProfile.mean },
      { name: 'learned_mean', values: learnedProfile.mean },
      { name: 'learned_min', values: learnedProfile.min },
      { name: 'learned_max', values: learnedProfile.max },
      { name: 'rope', values: series[4].values },
    ];
    drawLogPlot(profile, {
      title: 'Similarity against offset j − i',
      ...profileAxes('offset j − i (positions)'),
      yLabel: 'cosine',
      x: deltas,
      series,
      yRange: [-1.05, 1.05],
      height: profileHeight(),
    });
  }

  function drawAlibiProfile(W, slopes, bias, state) {
    const deltas = Array.from({ length: 2 * W - 1 }, (_, n) => n - (W - 1));
    const colors = viridisColors(state.heads);
    const plane = W * W;
    const series = [];
    // At most five heads on the axis by default (the first, the chosen one, the last and evenly spread ones);
    // every head on request, and always in the CSV.
    const drawn = profileHeads(state.heads, state.head, Boolean(allHeads?.checked));
    for (let h = 0; h < state.heads; h++) {
      const { mean } = diagonalProfile(bias, W, h * plane);
      columns.push({ name: `alibi_head${h}`, values: mean });
      if (!drawn.has(h)) continue;
      const named = h === 0 || h === state.heads - 1 || state.heads <= 6;
      series.push({
        label: named ? `head ${h}: m = ${sig6(slopes[h])}` : '',
        values: mean,
        stroke: colors[h],
        width: h === state.head ? 3 : 1.5,
      });
    }
    drawLogPlot(alibiProfile, {
      title: `ALiBi bias against offset, ${drawn.size} of ${state.heads} heads`,
      ...profileAxes('offset j − i (positions)'),
      // uPlot cuts an axis label longer than the plot's height (half on a phone).
      yLabel: compactScreen() ? 'bias' : 'bias added to the score',
      x: deltas,
      series,
      height: profileHeight(),
    });
  }

  function writeFacts(W, { sin, learnedSim, rope, source, slopes, state, d }) {
    const sinSpread = largestSpread(diagonalProfile(sin, W));
    const learnedSpread = largestSpread(diagonalProfile(learnedSim, W));
    const ropeSpread = largestSpread(diagonalProfile(rope, W));
    const items = [
      `Window: positions 0–${W - 1} in every panel` +
        (W < state.cw
          ? ` (asked ${state.cw}; limited by ${W === source.rows ? `the learned table’s ${source.rows} rows` : `the work budget at d = ${Math.max(d, source.dim)}`})`
          : '') +
        '.',
      `Sinusoidal: each diagonal j − i is constant to within ${sinSpread.toExponential(1)}: the similarity depends only on the offset.`,
      `Learned (${source.label}): along one diagonal the similarity varies by up to ${fixed6(learnedSpread)}; ` +
        'nothing forces a learned table to depend only on the offset.',
      `RoPE (${QK_TEXT[state.qk]}): each diagonal constant to within ${ropeSpread.toExponential(1)}: ` +
        'the score of a rotated query and key depends only on j − i.' +
        (state.qk === 'ones' && !modelPanelRope(state)
          ? ' With all-ones vectors it is exactly the sinusoidal curve.'
          : ''),
      `ALiBi: no embedding; head h adds −m_h·|j − i| to its scores. Slopes for ${state.heads} heads: ` +
        `${Array.from(slopes.slice(0, 8), sig6).join(', ')}${state.heads > 8 ? ', …' : ''}.`,
    ];
    facts.replaceChildren(...items.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
    facts.dataset.window = String(W);
    // The facts as numbers, for the test that holds the caption to them at every d.
    Object.assign(facts.dataset, {
      learnedSpread: String(learnedSpread),
      sinSpread: String(sinSpread),
      ropeSpread: String(ropeSpread),
    });
  }

  /** Hover: one cell (i, j) read in all four panels at once. */
  function readCell(canvas, event) {
    if (!last) return;
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left - last.rect.x;
    const y = event.clientY - box.top - last.rect.y;
    if (x < 0 || y < 0 || x >= last.rect.w || y >= last.rect.h) return;
    const { W } = last;
    pointAt(Math.min(W - 1, Math.floor((y / last.rect.h) * W)), Math.min(W - 1, Math.floor((x / last.rect.w) * W)));
  }

  /** Keyboard: arrow keys move the read cell (Shift: 10 at a time). */
  function moveCell(event) {
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!step || !last) return;
    event.preventDefault();
    const { W } = last;
    const by = event.shiftKey ? 10 : 1;
    const i = Number(readout.dataset.i ?? 0);
    const j = Number(readout.dataset.j ?? 0);
    pointAt(Math.max(0, Math.min(W - 1, i + step[0] * by)), Math.max(0, Math.min(W - 1, j + step[1] * by)));
  }

  function showCell(i, j) {
    const { W, panels } = last;
    const at = (m) => (m ? m[i * W + j] : null);
    const show = (v) => (v === null ? 'n/a' : Number.isFinite(v) ? fixed6(v) : v < 0 ? '−∞ (masked)' : String(v));
    readout.textContent =
      `query i = ${i}, key j = ${j}, offset j − i = ${j - i}\n` +
      `sinusoidal ${show(at(panels.sin))}   learned ${show(at(panels.learned))}   ` +
      `RoPE ${show(at(panels.rope))}   ALiBi head ${last.head} ${show(at(panels.alibi))}`;
    Object.assign(readout.dataset, { i: String(i), j: String(j) });
  }
  /** The pointer or the keyboard chose cell (i, j): read it, and point every view at key position j. */
  function pointAt(i, j) {
    showCell(i, j);
    markAll(j);
    cursor.point(j);
  }
  for (const canvas of Object.values(canvases)) {
    canvas.tabIndex = 0;
    canvas.addEventListener('mousemove', (event) => readCell(canvas, event));
    canvas.addEventListener('mouseleave', () => {
      markAll(null);
      cursor.point(null);
    });
    canvas.addEventListener('keydown', moveCell);
  }

  return {
    render,
    csv: () => csvColumns(columns),
    setRedraw: (fn) => {
      redraw = fn;
    },
  };
}

/** One W × W panel: the grid, axes, title and a horizontal colour bar under it. */
function drawPanel(canvas, width, rect, colors, spec) {
  const height = rect.y + rect.h + (rect.wrap ? BELOW.twoLines : BELOW.oneLine);
  const { ctx, ratio } = fitCanvas(canvas, width, height);
  ctx.fillStyle = colors.bg;
  ctx.fillRect(0, 0, width, height);
  const { matrix, W, lut, lo, hi } = spec;
  paintGrid(ctx, ratio, rect, W, W, { array: matrix, rowStride: W, colStride: 1 }, lut, lo, hi);
  if (spec.masked) {
    // The future keys j > i: the upper triangle, masked with −∞.
    const cw = rect.w / W;
    const ch = rect.h / W;
    ctx.fillStyle = colors.grid;
    ctx.beginPath();
    ctx.moveTo(rect.x + rect.w, rect.y);
    for (let i = 0; i < W - 1; i++) {
      ctx.lineTo(rect.x + (i + 1) * cw, rect.y + i * ch);
      ctx.lineTo(rect.x + (i + 1) * cw, rect.y + (i + 1) * ch);
    }
    ctx.lineTo(rect.x + rect.w, rect.y + (W - 1) * ch);
    ctx.closePath();
    ctx.fill();
  }
  drawAxes(ctx, rect, colors, {
    xDomain: [0, W],
    yDomain: [0, W],
    xLabel: 'key position j',
    yLabel: 'query position i',
    xTicks: 3,
    yTicks: 3,
  });
  ctx.font = `600 ${colors.font}`; // the title's, for fitText
  const [name, formula] = spec.title.split(/(?<=:) /);
  const lines = rect.wrap && formula ? [name, formula] : [spec.title];
  const drawn = lines.map((line) => fitText(ctx, line, width - 8));
  drawn.forEach((line, n) => drawTitle(ctx, line, 4, 4 + n * TITLE_LINE, colors));
  // What the title says as drawn, and its widest line in CSS pixels: a test checks it is whole and inside the canvas.
  canvas.dataset.title = drawn.join('\n');
  canvas.dataset.titleWidth = String(Math.max(...drawn.map((line) => ctx.measureText(line).width)));
  ctx.font = colors.smallFont;
  ctx.fillStyle = colors.muted;
  const subtitle = fitParts(ctx, spec.subtitle, width - 8);
  ctx.fillText(subtitle, 4, rect.y - 22);
  canvas.dataset.subtitle = subtitle;
  // Where the title, the subtitle and the plot are, in CSS px ("x0 y0 x1 y1"): a test checks none runs into the next.
  const ink = (text, x, y) => {
    const m = ctx.measureText(text);
    return [x, y - m.actualBoundingBoxAscent, x + m.width, y + m.actualBoundingBoxDescent].map(Math.round).join(' ');
  };
  ctx.font = `600 ${colors.font}`;
  const titleBoxes = drawn.map((line, n) => ink(line, 4, 4 + n * TITLE_LINE));
  ctx.font = colors.smallFont;
  canvas.dataset.textBoxes = [...titleBoxes, ink(subtitle, 4, rect.y - 22)].join(', ');
  canvas.dataset.plotBox = [rect.x, rect.y, rect.x + rect.w, rect.y + rect.h].map(Math.round).join(' ');
  drawHorizontalBar(
    ctx,
    ratio,
    { x: rect.x, y: rect.y + rect.h + 48, w: rect.w, h: 9 },
    lut,
    lo,
    hi,
    colors,
    spec.label,
  );
}

function drawHorizontalBar(ctx, ratio, rect, lut, lo, hi, colors, label) {
  const w = Math.max(1, Math.round(rect.w * ratio));
  const h = Math.max(1, Math.round(rect.h * ratio));
  const image = ctx.createImageData(w, h);
  const pixels = new Uint32Array(image.data.buffer);
  for (let px = 0; px < w; px++) {
    const color = lut[Math.min(LUT_SIZE - 1, Math.floor(((px + 0.5) / w) * LUT_SIZE))];
    for (let py = 0; py < h; py++) pixels[py * w + px] = color;
  }
  ctx.putImageData(image, Math.round(rect.x * ratio), Math.round(rect.y * ratio));
  ctx.strokeStyle = colors.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(rect.x - 0.5, rect.y - 0.5, rect.w + 1, rect.h + 1);
  ctx.font = colors.smallFont;
  ctx.fillStyle = colors.fg;
  ctx.textBaseline = 'top';
  const ends = [
    [lo, 'left', rect.x],
    [hi, 'right', rect.x + rect.w],
  ];
  let endWidth = 0;
  for (const [v, align, x] of ends) {
    const text = (v > 0 ? '+' : '') + barValue(v);
    endWidth = Math.max(endWidth, ctx.measureText(text).width);
    ctx.textAlign = align;
    ctx.fillText(text, x, rect.y + rect.h + 3);
  }
  // The name between the end values, centred: as wide as the wider end leaves on both sides.
  ctx.textAlign = 'center';
  ctx.fillText(fitParts(ctx, label, rect.w - 2 * endWidth - 12), rect.x + rect.w / 2, rect.y + rect.h + 3);
}

const barValue = (v) => (Math.abs(v) >= 100 ? tickLabel(Math.round(v)) : String(Number(v.toPrecision(3))));

/**
 * Text of parts ("a, b, c" or "a; b") cut to the parts that fit maxWidth pixels, whole: a narrow panel says "head_dim
 * 128, base 10000", never "base 1000…", a number cut short. One part too wide alone is cut with an ellipsis.
 */
function fitParts(ctx, text, maxWidth) {
  const parts = text.split(/(?<=[,;]) /);
  for (let n = parts.length; n > 0; n--) {
    const kept = parts.slice(0, n).join(' ').replace(/[,;]$/, '');
    if (ctx.measureText(kept).width <= maxWidth) return kept;
  }
  return fitText(ctx, parts[0].replace(/[,;]$/, ''), maxWidth);
}

/** Shortens text with an ellipsis to fit maxWidth pixels. */
function fitText(ctx, text, maxWidth) {
  if (ctx.measureText(text).width <= maxWidth) return text;
  let cut = text.length;
  while (cut > 1 && ctx.measureText(`${text.slice(0, cut)}…`).width > maxWidth) cut--;
  return `${text.slice(0, cut)}…`;
}
