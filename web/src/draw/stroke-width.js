// How wide a chart's curves are stroked. Chromium's software rasteriser replays every stroke at the compositor
// commit, in the frame's own task: a 1.5 px stroke of a zigzag whose every segment crosses the plot (a fast sine
// at a few positions a turn) cost it 3–12 ms there (1118 × 300 px, 256 points; dashed the most), a stroke one
// device pixel wide a tenth of that (Skia's hairline path). Such a curve is drawn one device pixel wide, which
// also keeps the zigzag from filling in; every other curve keeps its width.

// A curve longer than this many plot widths counts as a zigzag.
export const HAIRLINE_LENGTH = 4;

/**
 * Each series' stroke width in CSS px for a drawLinePlot spec ({ x, series: [{ values, width, hidden }], yRange,
 * height, spans }) drawn width CSS px wide at ratio device pixels per CSS px: its own (1.5 if none), or 1 / ratio
 * for a shown curve whose path is longer than HAIRLINE_LENGTH plot widths. Spans charts paint their own pixels.
 * The plot area is estimated from the chart's size (uPlot's axes take about 70 px across and 80 down).
 */
export function strokeWidths(spec, width, ratio) {
  const own = spec.series.map((s) => s.width ?? 1.5);
  if (spec.spans) return own;
  const xs = spec.x;
  const plotW = Math.max(1, width - 70);
  const plotH = Math.max(1, (spec.height ?? 260) - 80);
  let [lo, hi] = spec.yRange ?? [Infinity, -Infinity];
  if (!spec.yRange) {
    for (const s of spec.series) {
      if (s.hidden) continue;
      for (const v of s.values) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  const xSpan = Math.abs(xs[xs.length - 1] - xs[0]) || 1;
  const ySpan = hi > lo ? hi - lo : 1;
  return spec.series.map((s, n) => {
    if (s.hidden) return own[n];
    let length = 0;
    for (let k = 1; k < s.values.length; k++) {
      const dx = ((xs[k] - xs[k - 1]) / xSpan) * plotW;
      const dy = ((s.values[k] - s.values[k - 1]) / ySpan) * plotH;
      // A gap (null or NaN) breaks the line: no length across it.
      if (s.values[k] != null && s.values[k - 1] != null && Number.isFinite(dy)) length += Math.hypot(dx, dy);
    }
    return length > HAIRLINE_LENGTH * plotW ? Math.min(own[n], 1 / ratio) : own[n];
  });
}
