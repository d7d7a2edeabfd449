// Axis labels of the page's uPlot charts: a label given as choices, longest to
// shortest, takes the first that fits its side of the plot (uPlot centres a
// label there and the canvas cuts what is longer: a phone's short plots cut the
// long ones); and, for tests, what each chart drew, written on its container.
import uPlot from 'uplot';
import { themeColors } from './canvas.js';

let measure = null; // a 2-D context for text widths, made on the first label given as choices
/**
 * label: a text, or [longest, …, shortest] (a phone's short plots cut a long label): the first that fits in room
 * CSS px, else the shortest.
 */
export function fittingLabel(label, room, font) {
  if (!Array.isArray(label)) return label;
  return label.find((text) => textWidth(text, font) <= room) ?? label.at(-1);
}

/** The width of text in a CSS font, in CSS px. */
export function textWidth(text, font) {
  measure ??= document.createElement('canvas').getContext('2d');
  measure.font = font;
  return measure.measureText(text).width;
}

/**
 * For tests: the y tick labels uPlot drew (its axis's `_values`, kept after each draw), the curves' names and the
 * plot's height in CSS px, so a chart too short to read (one tick) shows, and its axis labels' lengths beside the plot's width (a
 * label longer than its side is cut). Written only on a change.
 */
export function describeAxes(container, u) {
  const ticks = (u.axes[1]._values ?? []).filter((v) => v != null && v !== '').join(' | ');
  const height = String(Math.round(u.bbox.height / uPlot.pxRatio));
  if (container.dataset.yTicks !== ticks) container.dataset.yTicks = ticks;
  if (container.dataset.plotHeight !== height) container.dataset.plotHeight = height;
  // The labels' lengths and the plot's width in CSS px: uPlot centres each label on its side, the canvas cuts the rest.
  u.ctx.save();
  u.ctx.font = themeColors().font;
  const labels = u.axes.map((axis) => Math.ceil(u.ctx.measureText(axis.label ?? '').width)).join(' ');
  u.ctx.restore();
  const width = String(Math.round(u.bbox.width / uPlot.pxRatio));
  if (container.dataset.labelWidths !== labels) container.dataset.labelWidths = labels;
  // The curves' names, so a test can tell which are drawn (the legend is painted on the canvas).
  const series = u.series
    .slice(1)
    .map((s) => s.label ?? '')
    .join(' | ');
  if (container.dataset.series !== series) container.dataset.series = series;
  if (container.dataset.plotWidth !== width) container.dataset.plotWidth = width;
}
