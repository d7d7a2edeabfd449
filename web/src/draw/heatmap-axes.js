// Axes around a heatmap in CSS pixels, with d3-scale's nice ticks. Apart from heatmap-draw.js so that the first
// view, a heatmap without axes, loads without d3-scale (and the d3-format, d3-interpolate and d3-color it brings).
import { scaleLinear } from 'd3-scale';
import { tickLabel } from './format.js';

/**
 * Axes around a plot rect: x ticks below over [x0, x1), y ticks left over [y0, y1)
 * growing downwards (row 0 at the top). Ticks sit at cell centres.
 */
export function drawAxes(ctx, rect, colors, { xDomain, yDomain, xLabel, yLabel, xTicks = 8, yTicks = 6 }) {
  ctx.strokeStyle = colors.muted;
  ctx.fillStyle = colors.fg;
  ctx.lineWidth = 1;
  ctx.font = colors.font;
  ctx.strokeRect(rect.x - 0.5, rect.y - 0.5, rect.w + 1, rect.h + 1);

  const [x0, x1] = xDomain;
  const xs = scaleLinear()
    .domain([x0, x1])
    .range([rect.x, rect.x + rect.w]);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  // As many ticks as asked for, fewer when their labels would touch (a phone's narrow plot at a long length).
  const ticks = spacedTicks(
    x0,
    x1,
    xTicks,
    (t) => xs(t + 0.5),
    (t) => ctx.measureText(tickLabel(t)).width,
  );
  const boxes = [];
  for (const t of ticks) {
    const px = xs(t + 0.5);
    const half = ctx.measureText(tickLabel(t)).width / 2;
    ctx.fillRect(Math.round(px) - 0.5, rect.y + rect.h, 1, 4);
    ctx.fillText(tickLabel(t), px, rect.y + rect.h + 6);
    boxes.push(`${(px - half).toFixed(1)} ${(px + half).toFixed(1)}`);
  }
  // The tick labels as text, for tests and for the figure's text alternative; their extents in CSS px, for tests.
  ctx.canvas.dataset.xTicks = ticks.map(tickLabel).join(' | ');
  ctx.canvas.dataset.xTickBoxes = boxes.join(', ');
  const [y0, y1] = yDomain;
  const ys = scaleLinear()
    .domain([y0, y1])
    .range([rect.y, rect.y + rect.h]);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of integerTicks(y0, y1, yTicks)) {
    const py = ys(t + 0.5);
    ctx.fillRect(rect.x - 4, Math.round(py) - 0.5, 4, 1);
    ctx.fillText(tickLabel(t), rect.x - 6, py);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText(xLabel, rect.x + rect.w / 2, rect.y + rect.h + 36);
  ctx.save();
  ctx.translate(rect.x - 44, rect.y + rect.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'bottom';
  ctx.fillText(yLabel, 0, 0);
  ctx.restore();
}

/** Nice integer ticks inside [lo, hi) (cells lo … hi − 1). */
export function integerTicks(lo, hi, count) {
  return scaleLinear()
    .domain([lo, hi - 1])
    .ticks(count)
    .filter((t) => Number.isInteger(t) && t >= lo && t < hi);
}

// Clear space between two neighbouring tick labels, in CSS px.
const TICK_GAP = 8;

/**
 * Nice integer ticks in [lo, hi), at most count, thinned (count lowered) until no two neighbouring labels come
 * within TICK_GAP: at(t) is a tick's centre, width(t) its label's width, both in CSS px.
 */
export function spacedTicks(lo, hi, count, at, width) {
  for (let n = count; n > 1; n--) {
    const ticks = integerTicks(lo, hi, n);
    const clear = ticks.every(
      (t, i) => i === 0 || at(t) - width(t) / 2 - (at(ticks[i - 1]) + width(ticks[i - 1]) / 2) >= TICK_GAP,
    );
    if (clear) return ticks;
  }
  return integerTicks(lo, hi, 1);
}
