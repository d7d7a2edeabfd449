// The uPlot charts on the page, one per container: a redraw replaces the
// container's chart, and PNG export finds it again by its container.
import uPlot from 'uplot';

const plots = new WeakMap(); // container → uPlot
const keyed = new WeakSet(); // containers already reading the keyboard

/**
 * Makes a chart container readable from the keyboard: focusable, and the
 * arrow keys move uPlot's cursor from data point to data point (Shift: 10),
 * which runs the chart's cursor hook and so its readout. Containers that
 * handle keys themselves carry data-keys="own".
 */
function readFromKeyboard(container) {
  if (keyed.has(container) || container.dataset.keys === 'own') return;
  keyed.add(container);
  if (!container.hasAttribute('tabindex')) container.tabIndex = 0;
  let index = -1;
  container.addEventListener('keydown', (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
    const u = plots.get(container);
    if (!step || !u) return;
    event.preventDefault();
    const xs = u.data[0];
    index = Math.max(0, Math.min(xs.length - 1, (index < 0 ? 0 : index) + step * (event.shiftKey ? 10 : 1)));
    u.setCursor({ left: u.valToPos(xs[index], 'x'), top: u.over.clientHeight / 2 });
  });
}

/** Draws a new chart in container, replacing the one there. */
export function mountPlot(container, opts, data) {
  plots.get(container)?.destroy();
  const plot = new uPlot(opts, data, container);
  plots.set(container, plot);
  // The chart canvas is an image named by its title and axes; the readout beside it is its text alternative.
  const axes = (opts.axes ?? []).map((a) => a.label).filter(Boolean);
  plot.ctx.canvas.setAttribute('role', 'img');
  plot.ctx.canvas.setAttribute(
    'aria-label',
    `${opts.title ?? 'plot'}${axes.length ? ` (${axes.join(' against ')})` : ''}`,
  );
  readFromKeyboard(container);
  if (!container.hasAttribute('aria-label')) {
    container.setAttribute('aria-label', `${opts.title ?? 'plot'}: arrow keys move the readout along the x axis`);
  }
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
