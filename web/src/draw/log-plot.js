// Line plots for the comparison, RoPE and precision views: like line-plot.js (uPlot, themed
// from the page's CSS, replaced on every draw) plus what those views need:
// logarithmic axes, marker lines (an original context length, a threshold) and
// a legend drawn inside the canvas, below the axes (never over the data), so
// an exported PNG says which line is which.
import uPlot from 'uplot';
import { availableWidth, compactScreen, themeColors } from './canvas.js';
import { mountPlot, plotIn, cursorHooks } from './uplot-mount.js';
import { describeAxes, fittingLabel, textWidth } from './axis-labels.js';

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const superscript = (n) => String(n).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c]);

/** Tick label for a power of 2 or 10 on a log axis: 1, 16, 4k, 1M / 10⁻⁶. */
export function logTickLabel(v, base) {
  if (base === 2) {
    if (v >= 1 && v < 1e4) return String(v);
    if (v >= 1e4 && v < 2 ** 20) return `${v / 1024}k`;
    if (v >= 2 ** 20) return `${v / 2 ** 20}M`;
    return `2${superscript(Math.round(Math.log2(v)))}`;
  }
  const k = Math.round(Math.log10(v));
  if (k >= 0 && k <= 3) return String(10 ** k);
  return `10${superscript(k)}`;
}

/** Powers of base inside [lo, hi], thinned to at most `most` of them. */
function powerSplits(lo, hi, base, most) {
  const first = Math.ceil(Math.log(lo) / Math.log(base) - 1e-9);
  const last = Math.floor(Math.log(hi) / Math.log(base) + 1e-9);
  const step = Math.max(1, Math.ceil((last - first + 1) / most));
  const out = [];
  for (let k = first; k <= last; k++) if ((k - first) % step === 0) out.push(base ** k);
  return out;
}

/**
 * container: element to fill. spec: { title, xLabel, yLabel (each a text or [longest, …, shortest]: the first that
 * fits its side of the plot), x, series: [{ label, values, stroke, dash,
 * width }], height, xLog: 2 | 10 | undefined, yLog: 2 | 10 | undefined, xRange, yRange, markers: [{ axis:
 * 'x' | 'y', value, label, color, row, bottom, align, side ('left' | 'right' of an x marker's line; else where it
 * fits) }], legendColumns (on a phone only as many as fit), xAxisSize (px under the plot for the x ticks; uPlot's
 * 50 if not given, 32 on a phone), ySpace (the least px between y ticks, uPlot's 30), onCursor(xValue | null) }. An
 * xLabel of null draws no x label and takes no room for one (uPlot keeps 30 px for any label, even an empty one).
 */
export function drawLogPlot(container, spec) {
  const colors = themeColors();
  const width = Math.max(220, availableWidth(container, 600));
  // Room under the x axis for the legend: on narrow screens as many columns as fit.
  const named = spec.series.filter((s) => s.label && !s.hideInLegend).length;
  const columns = width >= 640 ? (spec.legendColumns ?? 1) : legendColumnsThatFit(spec, width);
  const legendH = named ? Math.ceil(named / columns) * 16 + 16 : 0;
  const height = (spec.height ?? 280) + legendH;
  // The plot's sides, which uPlot centres the axis labels on: the y axis's 62 px and the 12 px paddings, the x
  // axis's ticks and its label. A phone keeps 32 + 18 px under the plot, not uPlot's 50 + 30: its short charts
  // give the difference to their curves.
  const compact = compactScreen();
  const xAxisSize = spec.xAxisSize ?? (compact ? 32 : 50);
  const xLabelSize = compact ? 18 : 30;
  const xLabel = fittingLabel(spec.xLabel, width - 62 - 12, colors.font);
  const plotH = (spec.height ?? 280) - 12 - xAxisSize - (xLabel === null ? 0 : xLabelSize);
  const yLabel = fittingLabel(spec.yLabel, plotH, colors.font);
  // Log y ticks at least 16 px apart (a phone's 78 px RoPE wavelength chart had nine labels touching).
  const yTicks = Math.max(3, Math.min(10, Math.floor(plotH / 16)));
  const axis = (label, log, horizontal) => ({
    label,
    stroke: colors.fg,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font: colors.font,
    labelFont: colors.font,
    ...(horizontal ? { size: xAxisSize, labelSize: xLabelSize } : { size: 62 }),
    ...(!horizontal && spec.ySpace ? { space: spec.ySpace } : {}),
    ...(log
      ? {
          splits: (u, axisIndex, lo, hi) =>
            powerSplits(lo, hi, log, horizontal ? Math.max(3, Math.floor(width / 70)) : yTicks),
          // The splits are already thinned: label every one (uPlot's log filter would blank some).
          filter: (u, splits) => splits,
          values: (u, splits) => splits.map((v) => (v == null ? '' : logTickLabel(v, log))),
        }
      : {}),
  });
  const scale = (log, range) => ({
    ...(log ? { distr: 3, log } : {}),
    ...(range ? { range: () => range } : { auto: true }),
  });
  const opts = {
    title: spec.title,
    width,
    height,
    pxAlign: 0,
    legend: { show: false },
    padding: [12, 12, legendH, 0],
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: { x: { time: false, ...scale(spec.xLog, spec.xRange) }, y: scale(spec.yLog, spec.yRange) },
    axes: [axis(xLabel, spec.xLog, true), axis(yLabel, spec.yLog, false)],
    series: [
      { label: xLabel },
      ...spec.series.map((s) => ({
        label: s.label,
        stroke: s.stroke,
        width: s.width ?? 1.8,
        dash: s.dash,
        points: { show: s.points ?? false, size: 5, fill: s.stroke },
        spanGaps: false,
      })),
    ],
    hooks: {
      draw: [
        (u) => {
          drawMarkers(u, spec.markers ?? [], colors);
          drawLegend(u, spec.series, colors, columns, legendH);
          describeAxes(container, u);
        },
      ],
      ...cursorHooks(spec.onCursor),
    },
  };
  return mountPlot(container, opts, [spec.x, ...spec.series.map((s) => s.values)]);
}

export { plotIn as logPlotIn };

/** Dashed vertical or horizontal lines at given values, each with a label. */
function drawMarkers(u, markers, colors) {
  const { ctx } = u;
  const ratio = uPlot.pxRatio;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  ctx.font = `${Math.round(11 * ratio)}px system-ui, sans-serif`;
  ctx.lineWidth = ratio;
  ctx.setLineDash([5 * ratio, 4 * ratio]);
  // The labels drawn so far, [x0, y0, x1, y1]: a vertical line's label moves a row along until it is clear of them
  // (on a phone's short precision chart three labels and the promise's ran over each other).
  const placed = [];
  const clear = (x0, y0, w, h) => !placed.some(([a0, b0, a1, b1]) => x0 < a1 && a0 < x0 + w && y0 < b1 && b0 < y0 + h);
  for (const m of markers) {
    const position = u.valToPos(m.value, m.axis === 'x' ? 'x' : 'y', true);
    if (!Number.isFinite(position)) continue;
    ctx.strokeStyle = m.color ?? colors.fg;
    ctx.fillStyle = m.color ?? colors.fg;
    ctx.beginPath();
    if (m.axis === 'x') {
      if (position < left - 1 || position > left + width + 1) continue;
      ctx.moveTo(position, top);
      ctx.lineTo(position, top + height);
      ctx.stroke();
      const room = left + width - position;
      const textW = ctx.measureText(m.label).width;
      const toRight = m.side ? m.side === 'right' : room > textW + 8 * ratio;
      // Right of the line if it fits, else left of it; kept inside the plot (a phone's narrow plot put the
      // precision chart's labels over its y axis).
      const wanted = toRight ? position + 4 * ratio : position - 4 * ratio - textW;
      const x = Math.max(left + 2 * ratio, Math.min(wanted, left + width - textW - 2 * ratio));
      // Labels stack from the top, or from the bottom when the top is where the curves are.
      let y = m.bottom ? top + height - (18 + 15 * (m.row ?? 0)) * ratio : top + (4 + 15 * (m.row ?? 0)) * ratio;
      const along = (m.bottom ? -15 : 15) * ratio;
      for (let tries = 0; tries < 6 && !clear(x - 2 * ratio, y - ratio, textW + 4 * ratio, 14 * ratio); tries++) {
        const next = y + along;
        if (next < top || next + 14 * ratio > top + height) break; // no row left inside the plot
        y = next;
      }
      placed.push([x - 2 * ratio, y - ratio, x + textW + 2 * ratio, y + 13 * ratio]);
      labelBackground(ctx, x - 2 * ratio, y - ratio, textW + 4 * ratio, 14 * ratio, colors);
      ctx.fillStyle = m.color ?? colors.fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(m.label, x, y);
    } else {
      if (position < top - 1 || position > top + height + 1) continue;
      ctx.moveTo(left, position);
      ctx.lineTo(left + width, position);
      ctx.stroke();
      const textW = ctx.measureText(m.label).width;
      const x = m.align === 'right' ? left + width - 4 * ratio : left + 4 * ratio;
      const x0 = m.align === 'right' ? x - textW - 2 * ratio : x - 2 * ratio;
      placed.push([x0, position - 15 * ratio, x0 + textW + 4 * ratio, position - 2 * ratio]);
      labelBackground(
        ctx,
        m.align === 'right' ? x - textW - 2 * ratio : x - 2 * ratio,
        position - 15 * ratio,
        textW + 4 * ratio,
        13 * ratio,
        colors,
      );
      ctx.fillStyle = m.color ?? colors.fg;
      ctx.textAlign = m.align === 'right' ? 'right' : 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(m.label, x, position - 2 * ratio);
    }
  }
  ctx.restore();
  describeMarkers(u, placed);
}

/**
 * For tests: the marker labels' boxes and the plot's box, in CSS px from the canvas's corner ("x0 y0 x1 y1",
 * boxes joined by ", "), so a label over another or over an axis shows. Written only on a change.
 */
function describeMarkers(u, placed) {
  const css = (box) => box.map((v) => Math.round(v / uPlot.pxRatio)).join(' ');
  const { left, top, width, height } = u.bbox;
  const data = u.root.parentElement.dataset;
  const boxes = placed.map(css).join(', ');
  const plot = css([left, top, left + width, top + height]);
  if (data.markerBoxes !== boxes) data.markerBoxes = boxes;
  if (data.markerPlot !== plot) data.markerPlot = plot;
}

/** A translucent patch of the background under a marker's label, so lines do not cross its text. */
function labelBackground(ctx, x, y, w, h, colors) {
  ctx.save();
  ctx.setLineDash([]);
  ctx.globalAlpha = 0.82;
  ctx.fillStyle = colors.bg;
  ctx.fillRect(x, y, w, h);
  ctx.restore();
}

/** On a phone, up to spec.legendColumns legend columns, as many as the chart's width holds (drawLegend's sizes). */
function legendColumnsThatFit(spec, width) {
  const labels = spec.series.filter((s) => s.label && !s.hideInLegend).map((s) => s.label);
  const textW = Math.max(0, ...labels.map((label) => textWidth(label, '11.5px system-ui, sans-serif')));
  let columns = spec.legendColumns ?? 1;
  while (columns > 1 && (12 + 22 + textW) * columns + 6 > width) columns--;
  return columns;
}

/** A legend in the strip of height legendH (CSS px) at the bottom of the canvas, in `columns` columns. */
function drawLegend(u, series, colors, columns, legendH) {
  const shown = series.filter((s) => s.label && !s.hideInLegend);
  if (shown.length === 0) return;
  const { ctx } = u;
  const ratio = uPlot.pxRatio;
  ctx.save();
  ctx.font = `${Math.round(11.5 * ratio)}px system-ui, sans-serif`;
  const lineH = 16 * ratio;
  const sample = 22 * ratio;
  const pad = 6 * ratio;
  const rows = Math.ceil(shown.length / columns);
  const textW = Math.max(...shown.map((s) => ctx.measureText(s.label).width));
  const columnW = pad * 2 + sample + textW;
  const boxW = columnW * columns + pad;
  const x = Math.max(0, Math.min(u.bbox.left, ctx.canvas.width - boxW));
  const y = ctx.canvas.height - legendH * ratio + 4 * ratio;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  shown.forEach((s, n) => {
    const cx = x + pad + Math.floor(n / rows) * columnW;
    const cy = y + pad + lineH * ((n % rows) + 0.5);
    ctx.strokeStyle = s.stroke;
    ctx.lineWidth = (s.width ?? 1.8) * ratio;
    ctx.setLineDash((s.dash ?? []).map((v) => v * ratio));
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(cx + sample, cy);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = colors.fg;
    ctx.fillText(s.label, cx + pad + sample, cy);
  });
  ctx.restore();
}
