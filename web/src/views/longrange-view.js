// View 7: long range. The score between a query at position 0 and a key at
// distance Δ, for Δ from 1 to 2^20 on a log axis, for every encoding on the
// page, computed by the package (compute/long-range.js). Hover or the arrow
// keys read every curve at one distance. Linked to the shared position cursor:
// position p is the key at distance Δ = p from the query at position 0.
import { availableWidth, createRedrawGuard, themeColors, plotHeight } from '../draw/canvas.js';
import { pairColor } from '../draw/colormap.js';
import { drawLogPlot } from '../draw/log-plot.js';
import { fixed6 } from '../draw/format.js';
import { csvColumns } from '../io/csv-columns.js';
import { longRangeSteps, sampleDistances } from '../compute/long-range.js';
import { linkCursor, markPlotX } from './linked-cursor.js';
import { modelConfigVersion, modelRope } from '../state/model-config.js';

// One step of the curves' computation, in ms (the scheduler's frame budget is 12 ms).
const STEP_MS = 6;

const STYLE = {
  sinusoidal: { color: 0, width: 2.4 },
  rope_same: { color: 1, width: 2.4 },
  rope_random: { color: 1, width: 1.4, dash: [2, 3] },
  rope_linear: { color: 2, width: 1.6, dash: [7, 3] },
  rope_dynamic: { color: 3, width: 1.6, dash: [7, 3] },
  rope_yarn: { color: 4, width: 1.6, dash: [7, 3] },
  rope_llama3: { color: 5, width: 1.6, dash: [7, 3] },
};

/**
 * The curves drawn by default, at most five on the axis: sinusoidal, RoPE (q = k), RoPE with the
 * scaling chosen in the RoPE view (when one is), ALiBi's steepest and gentlest heads. all: every curve.
 */
export function shownCurves(curves, state, all) {
  if (all) return curves;
  const keep = new Set(['sinusoidal', 'rope_same', `rope_${state.rs}`]);
  return curves.filter((c) => keep.has(c.key) || c.key.startsWith('alibi_')).slice(0, 5);
}

export function createLongRangeView({ plot, readout, facts, all }) {
  let redraw = () => {};
  all?.addEventListener('change', () => redraw());
  const needsDraw = createRedrawGuard();
  let shown = null;
  const cursor = linkCursor('longrange', (p) => {
    markPlotX(plot, p);
    showAt(p);
  });

  // The curves are computed in steps of at most STEP_MS (one curve at least; scheduler.js runs the rest in later
  // frames: at head_dim 1024 all of them took one 60–110 ms task), and drawn once complete; a render under the same
  // key continues the job a newer input cut short.
  let job = null; // { state, everyCurve, distances, steps, result, n }: the computation under way
  let curves = new Map(); // the last complete computation's curves by their own inputs (long-range.js)

  function render(state) {
    const width = availableWidth(plot.parentElement, 900);
    const key = ['d', 'base', 'rhd', 'rbase', 'rf', 'rl0', 'rbf', 'rbs', 'rlo', 'rhi', 'heads'].map((k) => state[k]);
    const everyCurve = Boolean(all?.checked);
    const fresh = needsDraw([...key, state.rs, everyCurve, modelConfigVersion(), width]);
    if (!fresh && !job) return undefined;
    if (fresh) {
      const distances = sampleDistances();
      const { steps, result } = longRangeSteps({ ...state }, distances, modelRope()?.scaling ?? null, curves);
      job = { state: { ...state }, everyCurve, distances, steps, result, n: 0 };
    }
    return step();
  }

  /** Runs curve steps for up to STEP_MS (one at least), then returns itself, or draws when all are done. */
  function step() {
    const start = performance.now();
    do job.steps[job.n++]();
    while (job.n < job.steps.length && performance.now() - start < STEP_MS);
    if (job.n < job.steps.length) return step;
    const { state, everyCurve, distances, result } = job;
    job = null;
    curves = result.cache;
    draw(state, everyCurve, distances, result);
    return undefined;
  }

  function draw(state, everyCurve, distances, { curves: computed, refused }) {
    const curves = shownCurves(computed, state, everyCurve);
    const colors = themeColors();
    plot.dataset.distanceMax = String(distances.at(-1)); // the farthest Δ drawn (the heading promises 2^20)
    drawLogPlot(plot, {
      title: 'Score between positions 0 and Δ, against the distance Δ',
      xLabel: 'distance Δ (positions)',
      yLabel: ['cosine / attention factor', 'score'],
      x: Float64Array.from(distances),
      xLog: 10,
      yRange: [-1.05, 1.05],
      series: curves.map((c) => {
        const style = STYLE[c.key] ?? { color: 6, width: 1.6, dash: c.key.endsWith('0') ? undefined : [3, 3] };
        return {
          label: c.label,
          values: c.values,
          stroke: pairColor(style.color),
          width: style.width,
          dash: style.dash,
        };
      }),
      markers: [{ axis: 'x', value: state.rl0, label: `original context L0 = ${state.rl0}`, color: colors.muted }],
      legendColumns: 2,
      height: plotHeight(400, 214),
      onCursor: cursor.fromChart((x) => {
        const at = showAt(x);
        markPlotX(plot, at);
        return at;
      }),
    });
    shown = { distances, curves, computed };
    writeFacts(state, distances, computed, refused);
    showAt(null);
    cursor.refresh();
  }

  /** Reads every curve at the sampled distance at or below x; returns that distance (null: none). */
  function showAt(x) {
    if (!shown) return null;
    const { distances, curves } = shown;
    if (x == null || x < distances[0]) {
      readout.textContent = 'Hover the plot (or focus it and use the arrow keys) to read every curve at one distance.';
      readout.dataset.distance = '';
      return null;
    }
    let n = 0;
    while (n + 1 < distances.length && distances[n + 1] <= x) n++;
    readout.textContent = `Δ = ${distances[n]}:  ` + curves.map((c) => `${c.label} ${fixed6(c.values[n])}`).join(';  ');
    readout.dataset.distance = String(distances[n]);
    return distances[n];
  }

  function writeFacts(state, distances, curves, refused) {
    const nearest = (delta) => distances.findIndex((v) => v >= delta);
    const at = (key, delta) => curves.find((c) => c.key === key).values[nearest(delta)];
    const far = distances.length - 1;
    const meanAbs = (key, from) => {
      const c = curves.find((x) => x.key === key).values;
      let s = 0;
      for (let n = from; n <= far; n++) s += Math.abs(c[n]);
      return s / (far - from + 1);
    };
    const from = distances.findIndex((v) => v >= 1024);
    const items = [
      `Sinusoidal and RoPE with q = k start at 1 and fall as Δ grows: cos at Δ = 16 is ${fixed6(at('sinusoidal', 16))} ` +
        `(sinusoidal) and ${fixed6(at('rope_same', 16))} (RoPE); beyond Δ = 1024 their mean |score| is ` +
        `${fixed6(meanAbs('sinusoidal', from))} and ${fixed6(meanAbs('rope_same', from))}: far tokens look alike.`,
      `RoPE with independent q, k (dotted, under “all curves”) wanders around 0: RoFormer’s long-term decay is a bound on its size, ` +
        `mean |score| beyond 1024 = ${fixed6(meanAbs('rope_random', from))}.`,
      `Scaled RoPE (dashed; factor ${state.rf}, L0 = ${state.rl0}, from the RoPE view’s controls) stretches the ` +
        'slow pairs, so the curve stays high further out: that is how a model reaches past L0.',
      ...refused.map((text) => `Not drawn, the package refused these RoPE parameters: ${text}`),
      `ALiBi multiplies attention weights by e^(−m·Δ): the steepest head forgets within a few positions, the ` +
        `gentlest still keeps ${fixed6(curves.at(-1).values[nearest(1024)])} at Δ = ${distances[nearest(1024)]}.`,
    ];
    facts.replaceChildren(...items.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
  }

  return {
    render,
    setRedraw: (fn) => {
      redraw = fn;
    },
    csv: () =>
      csvColumns([
        { name: 'distance', values: shown.distances },
        ...shown.computed.map((c) => ({ name: c.key, values: c.values })),
      ]),
  };
}
