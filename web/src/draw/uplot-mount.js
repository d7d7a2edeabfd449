// The uPlot charts on the page, one per container: a redraw with the same
// shape (size, axes, scales, series count and fills) gives the container's chart the new data,
// title, labels, strokes, dashes, points, ranges and hooks, and any other redraw replaces the chart
// (making one builds DOM and costs a layout: too slow for every frame of a
// drag). PNG export finds a chart again by its container.
import uPlot from 'uplot';

const plots = new WeakMap(); // container → uPlot
const shapes = new WeakMap(); // container → shapeOf(opts) of its chart
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

// uPlot's own path builder for a series that gives none (straight segments between points).
const linearPaths = uPlot.paths.linear();

/**
 * What must match for a chart to be reused: every option but the title, hooks and each series' label, stroke,
 * width, dash, path builder and whether and how its points show (uPlot reads these when it draws), functions
 * compared by source. (The RoPE view's scaling menu recolours and re-dashes its curves: without these, each
 * choice replaced its three charts, 10-15 ms of canvas set-up of a 26 ms draw.)
 */
function shapeOf(opts) {
  const series = opts.series.map(({ label, stroke, width, dash, paths, points, ...rest }) => ({
    ...rest,
    points: points && { ...points, show: undefined, fill: undefined, stroke: undefined },
  }));
  const shape = { ...opts, title: undefined, hooks: undefined, series };
  return JSON.stringify(shape, (_, value) => (typeof value === 'function' ? String(value) : value));
}

/** Gives an existing chart of the same shape the new options' data, title, labels, ranges and hooks. */
function update(plot, opts, data) {
  for (const [name, scale] of Object.entries(opts.scales ?? {})) {
    // Range functions close over the new spec (a fixed y range, a single x).
    if (typeof scale.range === 'function') plot.scales[name].range = scale.range;
  }
  for (const name of Object.keys(plot.hooks)) delete plot.hooks[name];
  Object.assign(plot.hooks, opts.hooks ?? {});
  opts.series.forEach((s, n) => {
    plot.series[n].label = s.label;
    if (n === 0) return;
    // setData below drops every series' cached path, and uPlot calls stroke() afresh each draw, so these take
    // effect in this very draw. uPlot keeps strokes and point styles as functions (its fnOrSelf).
    const stroke = () => s.stroke ?? null;
    Object.assign(plot.series[n], { stroke, width: s.width ?? 1, dash: s.dash, paths: s.paths ?? linearPaths });
    // As uPlot's initSeries sets them up: show and fill as given (undefined: its own choice), the stroke the
    // series' unless given, size, width and spacing from the series' width unless given.
    const { show, fill, stroke: pointStroke, ...sizes } = s.points ?? {};
    const diameter = Math.round((3 + Math.max(1, s.width ?? 1) * 2) * 1000) / 1000;
    Object.assign(plot.series[n].points, {
      show: () => show,
      fill: () => fill,
      stroke: pointStroke === undefined ? stroke : () => pointStroke,
      size: diameter,
      width: Math.max(1, diameter * 0.2),
      space: diameter * 2,
      ...sizes,
    });
  });
  const title = plot.root.querySelector('.u-title');
  if (title) title.textContent = opts.title ?? '';
  // As a new chart would: no cursor left over from the old data (after setData uPlot would report it again,
  // moving the shared cursor back to where a pointer or key left this chart long ago). In a batch, uPlot draws
  // now, inside the view's step, where the scheduler times it, not in a microtask after the frame's steps.
  plot.batch(() => {
    plot.setCursor({ left: -10, top: -10 }, false);
    plot.setData(data);
  });
}

/** Draws data in container: into its chart when the shape is the same, else in a new chart replacing it. */
export function mountPlot(container, opts, data, shown = opts.series.length - 1) {
  // How many curves share the axis (tests hold the default to at most five); shown: those drawn.
  const curves = String(shown);
  if (container.dataset.curves !== curves) container.dataset.curves = curves;
  const shape = shapeOf(opts);
  const old = plots.get(container);
  if (old && shapes.get(container) === shape) {
    update(old, opts, data);
    labelCanvas(old, opts);
    return old;
  }
  old?.destroy();
  const plot = new uPlot(opts, data, container);
  plots.set(container, plot);
  shapes.set(container, shape);
  labelCanvas(plot, opts);
  readFromKeyboard(container);
  if (!container.hasAttribute('aria-label')) {
    container.setAttribute('aria-label', `${opts.title ?? 'plot'}: arrow keys move the readout along the x axis`);
  }
  return plot;
}

function labelCanvas(plot, opts) {
  // The chart canvas is an image named by its title and axes; the readout beside it is its text alternative.
  const axes = (opts.axes ?? []).map((a) => a.label).filter(Boolean);
  plot.ctx.canvas.setAttribute('role', 'img');
  // Its section's facts state what the chart shows, in numbers.
  const facts = plot.root.closest('section')?.querySelector('.facts[id], .result[id]');
  if (facts && !plot.ctx.canvas.hasAttribute('aria-describedby'))
    plot.ctx.canvas.setAttribute('aria-describedby', facts.id);
  plot.ctx.canvas.setAttribute(
    'aria-label',
    `${opts.title ?? 'plot'}${axes.length ? ` (${axes.join(' against ')})` : ''}`,
  );
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
