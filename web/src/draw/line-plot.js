// A thin wrapper over uPlot: one call draws a plot in a container, themed from
// the page's CSS, replacing the previous plot there. Plots are cheap to make,
// so a change of data, size or theme simply makes a new one.
import { availableWidth, themeColors } from './canvas.js';
import { mountPlot, plotIn, cursorHooks } from './uplot-mount.js';
import { bandRanges, columnRanges, hexRgba, paintBands, paintColumns } from './column-spans.js';
import { strokeWidths } from './stroke-width.js';
import { describeAxes, fittingLabel } from './axis-labels.js';

const layers = new WeakMap(); // chart → { canvas, ctx, image }: where its spans are painted, kept while the size stays

/** An ImageData of w × h for the chart and a canvas of that size to draw it from. */
function layerFor(u, w, h) {
  let layer = layers.get(u);
  if (layer?.image.width !== w || layer.image.height !== h) {
    const canvas = Object.assign(document.createElement('canvas'), { width: w, height: h });
    layer = { canvas, ctx: canvas.getContext('2d'), image: new ImageData(w, h) };
    layers.set(u, layer);
  }
  return layer;
}

// A series uPlot leaves alone: the draw hook paints it (spans), or it is hidden.
const noPaths = () => null;

/**
 * A draw hook that paints every series as column spans (see column-spans.js), bands first, then lines, in one
 * image over the plot area, for a chart whose series have no paths of their own (spec.spans).
 */
function spansHook(spec) {
  return (u) => {
    const ratio = window.devicePixelRatio || 1; // uPlot's own canvas scale
    const left = Math.round(u.bbox.left);
    const top = Math.round(u.bbox.top);
    const width = Math.round(u.bbox.width);
    const height = Math.round(u.bbox.height);
    if (width < 1 || height < 1 || u.data[0].length === 0) return;
    // The scales are linear: a value's canvas pixel is affine in it (two valToPos calls, not one per point).
    const affine = (key) => {
      const at0 = u.valToPos(0, key, true);
      const slope = u.valToPos(1, key, true) - at0;
      return (v) => (v == null ? NaN : at0 + slope * v);
    };
    const [toX, toY] = [affine('x'), affine('y')];
    // Plain loops: Float64Array.from with a map function goes through the iterator protocol, several times slower.
    const pixelsOf = (values, to) => {
      const out = new Float64Array(values.length);
      for (let k = 0; k < values.length; k++) out[k] = to(values[k]);
      return out;
    };
    const xs = pixelsOf(u.data[0], toX);
    const ranges = u.data.map((values, i) =>
      i === 0 || spec.series[i - 1].hidden
        ? null
        : columnRanges(xs, pixelsOf(values, toY), left, width, top, top + height),
    );
    const { canvas, ctx, image } = layerFor(u, width, height);
    const pixels = new Uint32Array(image.data.buffer);
    pixels.fill(0);
    const bands = (spec.bands ?? []).map(([upper, lower, fill]) => ({
      ranges: bandRanges(ranges[upper], ranges[lower]),
      rgba: hexRgba(fill),
    }));
    paintBands(pixels, width, height, bands, left, top);
    spec.series.forEach((s, n) => {
      if (s.hidden) return;
      const dash = s.dash?.map((px) => Math.round(px * ratio));
      const pad = ((s.width ?? 1.5) * ratio) / 2;
      paintColumns(pixels, width, height, ranges[n + 1], left, top, hexRgba(s.stroke), pad, dash);
    });
    ctx.putImageData(image, 0, 0);
    u.ctx.drawImage(canvas, left, top);
  };
}

/**
 * container: element to fill. spec: { title, xLabel, yLabel (each a text or [longest, …, shortest]: the first that
 * fits its side of the plot, axis-labels.js), x (array), series: [{ label, values, stroke,
 * dash, width, hidden }], bands: [[upperIndex, lowerIndex, fill]], height, yRange: [lo, hi] | undefined,
 * onCursor(xValue | null), spans: boolean }. Series indices in bands count from 1 (0 is x), as uPlot does.
 * spans: the series are dense (points under two device pixels apart) and drawn as column spans, not paths;
 * their strokes are then "#rrggbb" and band fills "#rrggbbaa". hidden: a series kept but not drawn, so a view
 * whose series count changes with the data (an envelope's min and max, or one exact line) keeps its chart: the
 * chart is reused while the options' shape stays (drawing with spans or paths does not change it), and making a
 * new one is a long task in a drag.
 */
export function drawLinePlot(container, spec) {
  const colors = themeColors();
  const width = Math.max(200, availableWidth(container, 600));
  const strokeWidth = strokeWidths(spec, width, window.devicePixelRatio || 1);
  const axis = (label) => ({
    label,
    stroke: colors.fg,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font: colors.font,
    labelFont: colors.font,
  });
  const height = spec.height ?? 260;
  // The plot's sides, which uPlot centres the axis labels on: the y axis's 56 px, the x axis's 50 px of ticks and
  // each axis's 30 px for its label, uPlot's paddings.
  const xLabel = fittingLabel(spec.xLabel, width - 56 - 30 - 16, colors.font);
  const yLabel = fittingLabel(spec.yLabel, height - 50 - 30 - 16, colors.font);
  const opts = {
    title: spec.title,
    width,
    height,
    pxAlign: 0,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      // One position alone gets a window of ±1 around it, not uPlot's made-up 0–100.
      x: spec.x.length === 1 ? { time: false, range: () => [spec.x[0] - 1, spec.x[0] + 1] } : { time: false },
      y: spec.yRange ? { range: () => spec.yRange } : { auto: true },
    },
    axes: [axis(xLabel), { ...axis(yLabel), size: 56 }],
    series: [
      { label: xLabel },
      ...spec.series.map((s, n) => ({
        label: s.label,
        stroke: s.stroke,
        width: strokeWidth[n],
        dash: s.dash,
        points: { show: false },
        spanGaps: false,
        ...(spec.spans || s.hidden ? { paths: noPaths } : {}),
      })),
    ],
    // With spans the draw hook paints the bands too (uPlot fills a band while drawing its upper edge's path).
    bands: spec.spans ? [] : (spec.bands ?? []).map(([upper, lower, fill]) => ({ series: [upper, lower], fill })),
    hooks: {
      ...cursorHooks(spec.onCursor),
      draw: [...(spec.spans ? [spansHook(spec)] : []), (u) => describeAxes(container, u)],
      // The x range drawn, readable by tests and assistive tools.
      setScale: [
        (u, key) => {
          if (key === 'x') container.dataset.xRange = `${u.scales.x.min} ${u.scales.x.max}`;
        },
      ],
    },
  };
  const shown = spec.series.filter((s) => !s.hidden).length;
  return mountPlot(container, opts, [spec.x, ...spec.series.map((s) => s.values)], shown);
}

export { plotIn };
