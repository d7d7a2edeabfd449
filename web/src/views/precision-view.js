// View 8: precision against position. At positions spread evenly on a log
// scale up to 2^24, the worst error over a few rows and all d columns of:
// posenc's float32, float16 and bfloat16 outputs, and the naive recipes
// (angle in float32, everything in float16, everything in bfloat16) as the
// package's recipeTable reproduces them. Everything is computed live, in the
// compute worker (compute/precision-errors.js says against what): 150-300 ms
// at d = 2048, which kept the main thread busy and its garbage collector
// stopping it. Linked to the shared position cursor: it marks the cursor's
// position on the x axis.
import { availableWidth, createRedrawGuard, themeColors, plotHeight } from '../draw/canvas.js';
import { pairColor } from '../draw/colormap.js';
import { computeOff } from '../compute/compute-client.js';
import { drawLogPlot } from '../draw/log-plot.js';
import { csvColumns } from '../io/csv-columns.js';
import { linkCursor, markPlotX } from './linked-cursor.js';
import { waitForWorker } from './scheduler.js';

const PROMISE = 6e-8;
// Down to 1e-12, below every curve, so the legend has room under them.
const Y_RANGE = [1e-12, 4];

const CURVES = [
  { key: 'posenc32', label: 'posenc float32', color: 0, dash: undefined, width: 2.6 },
  { key: 'posenc16', label: 'posenc float16', color: 1, dash: undefined, width: 2.6 },
  { key: 'posencBf16', label: 'posenc bfloat16', color: 2, dash: undefined, width: 2.6 },
  { key: 'recipe32', label: 'naive float32 angle', color: 0, dash: [6, 4], width: 1.6 },
  { key: 'recipe16', label: 'naive float16', color: 1, dash: [6, 4], width: 1.6 },
  { key: 'recipeBf16', label: 'naive bfloat16', color: 2, dash: [6, 4], width: 1.6 },
];

export function createPrecisionView({ plot, readout, facts, all }) {
  let redraw = () => {};
  all?.addEventListener('change', () => redraw());
  const needsDraw = createRedrawGuard();
  let shown = null;
  const cursor = linkCursor('precision', (p) => {
    markPlotX(plot, p);
    showAt(p);
  });

  // The worker's errors for the newest (d, base) it answered, and the (d, base) last asked for.
  let answer = null; // { want, rows, positions, errors: { key: Float64Array } } (compute/precision-errors.js)
  let asked = '';

  function render(state) {
    const width = availableWidth(plot.parentElement, 900);
    const { d, base } = state;
    // Four curves by default (float32 and bfloat16, posenc and naive); float16's pair on request.
    const drawn = all?.checked ? CURVES : CURVES.filter((c) => !c.key.endsWith('16') || c.key.endsWith('Bf16'));
    const want = `${d}|${base}`;
    if (answer?.want !== want) {
      if (asked !== want) ask(want, d, base);
      return waitForWorker(); // the last picture stays until the answer redraws the view
    }
    asked = want; // an answer still coming for another (d, base) is no longer wanted
    if (!needsDraw([answer.want, width, drawn.length])) return undefined;
    draw(d, base, drawn, answer);
    return undefined;
  }

  function ask(want, d, base) {
    asked = want;
    computeOff('precision', { d, base }).then(
      (done) => {
        if (!done || asked !== want) return; // a newer (d, base) was asked for
        answer = { want, ...done.result };
        redraw();
      },
      (error) => console.error(`precision: ${error.message}`),
    );
  }

  function draw(d, base, drawn, { rows, positions, errors }) {
    const colors = themeColors();
    const firstBroken = (key) => positions[errors[key].findIndex((e) => e === Infinity)];
    drawLogPlot(plot, {
      title: `Worst error over ${rows} rows × d = ${d} columns, against position (T = ${base})`,
      xLabel: 'position p',
      yLabel: 'max |error|',
      x: positions,
      xLog: 2,
      yLog: 10,
      yRange: Y_RANGE,
      series: drawn.map((c) => ({
        label: c.label,
        // Log axis: an exact 0 or a non-finite value has no place on it (non-finite ones are listed below).
        values: Array.from(errors[c.key], (e) => (e > 0 && Number.isFinite(e) ? Math.max(e, Y_RANGE[0]) : null)),
        stroke: pairColor(c.color),
        dash: c.dash,
        width: c.width,
      })),
      markers: markers(availableWidth(plot.parentElement, 900) < 640, drawn, colors),
      legendColumns: 2,
      height: plotHeight(380, 214), // its marker labels need 150 px of plot on a phone
      onCursor: cursor.fromChart((x) => {
        const at = showAt(x);
        markPlotX(plot, at);
        return at;
      }),
    });
    shown = { rows, positions, errors, curves: CURVES };
    writeFacts(positions, errors, CURVES, firstBroken, d);
    showAt(null);
    cursor.refresh();
  }

  function writeFacts(positions, errors, curves, firstBroken, d) {
    const worstFrom = (key, from) => Math.max(...errors[key].filter((_, n) => positions[n] >= from));
    const items = [
      `posenc float32 stays within ${worstFrom('posenc32', 1).toExponential(1)} of the float64 reference at every sampled position ` +
        `up to 2^24 (its promise: 6e-8), for d = ${d}.`,
    ];
    if (errors.posenc16.length) {
      items.push(
        `posenc float16 / bfloat16: the phase is exact, so the error is only the final rounding: at most ` +
          `${worstFrom('posenc16', 1).toExponential(1)} / ${worstFrom('posencBf16', 1).toExponential(1)}, at every position.`,
      );
    }
    if (errors.recipe32.length) {
      items.push(
        `Naive recipes from position 2^16 on: float32 angle up to ${worstFrom('recipe32', 65536).toPrecision(2)}, ` +
          `float16 ${describeWorst(worstFrom('recipe16', 65536), firstBroken('recipe16'))}, ` +
          `bfloat16 ${describeWorst(worstFrom('recipeBf16', 65536), firstBroken('recipeBf16'))}.`,
      );
    }
    items.push(
      'Reference: posenc’s float32 table for the 16-bit outputs and the recipes; sin and cos of p·wᵢ in float64 ' +
        '(JavaScript’s Math, within about 5e-9) for posenc’s float32 output itself. Values that are NaN or infinite are not plotted.',
    );
    facts.replaceChildren(...items.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
    // For the browser test: the worst error of each curve from 2^16 on.
    facts.dataset.worstFrom65536 = JSON.stringify(
      Object.fromEntries(
        curves.map((c) => [c.key, worstFrom(c.key, 65536) === Infinity ? 'Infinity' : worstFrom(c.key, 65536)]),
      ),
    );
  }

  /** Reads the errors at the sampled position nearest x (on the log axis); returns it (null: none). */
  function showAt(x) {
    if (!shown) return null;
    if (x == null || !(x > 0)) {
      readout.textContent = 'Hover the plot (or focus it and use the arrow keys) to read the errors at one position.';
      readout.dataset.p = '';
      return null;
    }
    const { rows, positions, errors, curves } = shown;
    let n = 0;
    for (let k = 1; k < positions.length; k++) {
      if (Math.abs(Math.log(positions[k] / x)) < Math.abs(Math.log(positions[n] / x))) n = k;
    }
    const text = (e) => (e === Infinity ? 'NaN/∞' : e.toExponential(3));
    readout.textContent =
      `positions ${positions[n]} … ${positions[n] + rows - 1}\n` +
      curves.map((c) => `${c.label} ${text(errors[c.key][n])}`).join('   ');
    readout.dataset.p = String(positions[n]);
    return positions[n];
  }

  /** Errors per sampled position; Infinity (a NaN or infinite output) stays 'Infinity'. */
  const csv = () =>
    csvColumns([
      { name: 'position', values: shown?.positions ?? [] },
      ...(shown?.curves ?? []).map((c) => ({ name: c.key, values: shown.errors[c.key] })),
    ]);

  return {
    render,
    csv,
    setRedraw: (fn) => {
      redraw = fn;
    },
  };
}

const describeWorst = (e, broken) =>
  e === Infinity ? `non-finite (NaN or ∞) from position ${broken}` : `up to ${e.toPrecision(2)}`;

/**
 * The promise's line and where float16 and bfloat16 stop holding integers. On a narrow plot (a phone: about 240 px
 * wide and 100 px tall) the long labels ran over the y axis, into each other and over posenc's curves: there the
 * labels are short and only the drawn types' markers show; the promise's sits left above its line, the x markers'
 * in the bottom row under posenc's curves (256's to the left of its line, 2048's to the right), 65504's at the top.
 */
function markers(narrow, drawn, colors) {
  const promise = { axis: 'y', value: PROMISE, color: colors.muted };
  const limit = (value, color, label, more) => ({ axis: 'x', value, color: pairColor(color), label, ...more });
  if (!narrow)
    return [
      { ...promise, label: 'posenc float32 promise: 6e-8', align: 'right' },
      limit(256, 2, 'bfloat16 integers stop at 256', { row: 2, bottom: true }),
      limit(2048, 1, 'float16 integers stop at 2048', { row: 1, bottom: true }),
      limit(65504, 1, 'float16 max 65504', { row: 0, bottom: true }),
    ];
  const float16 = drawn.some((c) => c.key === 'posenc16' || c.key === 'recipe16');
  return [
    { ...promise, label: 'f32 promise 6e-8', align: 'left' },
    limit(256, 2, 'bf16 ints ≤ 256', { row: 0, bottom: true, side: 'left' }),
    ...(float16
      ? [limit(2048, 1, 'f16 ints ≤ 2048', { row: 0, bottom: true }), limit(65504, 1, 'f16 max 65504', { row: 0 })]
      : []),
  ];
}
