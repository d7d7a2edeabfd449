// A thin wrapper over uPlot: one call draws a plot in a container, themed from
// the page's CSS, replacing the previous plot there. Plots are cheap to make,
// so a change of data, size or theme simply makes a new one.
import { availableWidth, themeColors } from './canvas.js';
import { mountPlot, plotIn, cursorHooks } from './uplot-mount.js';

/**
 * container: element to fill. spec: { title, xLabel, yLabel, x (array), series: [{ label, values, stroke,
 * dash, width }], bands: [[upperIndex, lowerIndex, fill]], height, yRange: [lo, hi] | undefined,
 * onCursor(xValue | null) }. Series indices in bands count from 1 (0 is x), as uPlot does.
 */
export function drawLinePlot(container, spec) {
  const colors = themeColors();
  const width = Math.max(200, availableWidth(container, 600));
  const axis = (label) => ({
    label,
    stroke: colors.fg,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font: colors.font,
    labelFont: colors.font,
  });
  const opts = {
    title: spec.title,
    width,
    height: spec.height ?? 260,
    pxAlign: 0,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      // One position alone gets a window of ±1 around it, not uPlot's made-up 0–100.
      x: spec.x.length === 1 ? { time: false, range: () => [spec.x[0] - 1, spec.x[0] + 1] } : { time: false },
      y: spec.yRange ? { range: () => spec.yRange } : { auto: true },
    },
    axes: [axis(spec.xLabel), { ...axis(spec.yLabel), size: 56 }],
    series: [
      { label: spec.xLabel },
      ...spec.series.map((s) => ({
        label: s.label,
        stroke: s.stroke,
        width: s.width ?? 1.5,
        dash: s.dash,
        points: { show: false },
        spanGaps: false,
      })),
    ],
    bands: (spec.bands ?? []).map(([upper, lower, fill]) => ({ series: [upper, lower], fill })),
    hooks: {
      ...cursorHooks(spec.onCursor),
      // The x range drawn, readable by tests and assistive tools.
      setScale: [
        (u, key) => {
          if (key === 'x') container.dataset.xRange = `${u.scales.x.min} ${u.scales.x.max}`;
        },
      ],
    },
  };
  return mountPlot(container, opts, [spec.x, ...spec.series.map((s) => s.values)]);
}

export { plotIn };
