// The uPlot charts on the page, one per container: a redraw replaces the
// container's chart, and PNG export finds it again by its container.
import uPlot from 'uplot';

const plots = new WeakMap(); // container → uPlot

/** Draws a new chart in container, replacing the one there. */
export function mountPlot(container, opts, data) {
  plots.get(container)?.destroy();
  const plot = new uPlot(opts, data, container);
  plots.set(container, plot);
  return plot;
}

/** The chart in a container (for PNG export and hover), or undefined. */
export function plotIn(container) {
  return plots.get(container);
}

/** uPlot hooks reporting the x value under the cursor (null when off the plot). */
export function cursorHooks(onCursor) {
  if (!onCursor) return {};
  return {
    setCursor: [
      (u) => {
        const left = u.cursor.left;
        onCursor(left == null || left < 0 ? null : u.posToVal(left, 'x'));
      },
    ],
  };
}
