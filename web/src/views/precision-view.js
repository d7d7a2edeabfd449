// View 8: precision against position. At positions spread evenly on a log
// scale up to 2^24, the worst error over a few rows and all d columns of:
// posenc's float32, float16 and bfloat16 outputs, and the naive recipes
// (angle in float32, everything in float16, everything in bfloat16) as the
// package's recipeTable reproduces them. Everything is computed live. Linked
// to the shared position cursor: it marks the cursor's position on the x axis.
//
// References: the 16-bit outputs and the recipes are measured against
// posenc's float32 table (within 6e-8 of exact, far below their errors);
// posenc's float32 output itself against sin and cos of p·wᵢ evaluated in
// float64 here (within about 5e-9 below 2^24), the one thing finer than it.
import { bitsToFloat32, recipeTable, sinusoidal } from '../../../src/js/index.js';
import { availableWidth, createRedrawGuard, themeColors, plotHeight } from '../draw/canvas.js';
import { pairColor } from '../draw/colormap.js';
import { frequency } from '../compute/encoding.js';
import { drawLogPlot } from '../draw/log-plot.js';
import { csvColumns } from '../io/csv-columns.js';
import { linkCursor, markPlotX } from './linked-cursor.js';

const ROWS = 4; // rows per sampled position: p … p + 3
const STEPS_PER_OCTAVE = 4;
const LAST_OCTAVE = 24;
const PROMISE = 6e-8;
// Down to 1e-12, below every curve, so the legend has room under them.
const Y_RANGE = [1e-12, 4];

/** Sample positions: round(2^(k/4)) for k = 0 … 96, without repeats (1 … 2^24). */
export function samplePositions() {
  const out = [];
  for (let k = 0; k <= LAST_OCTAVE * STEPS_PER_OCTAVE; k++) {
    const p = Math.round(2 ** (k / STEPS_PER_OCTAVE));
    if (out[out.length - 1] !== p) out.push(p);
  }
  return out;
}

/** max |values − reference| over a block; Infinity when a value is NaN or infinite. */
function worstError(values, reference) {
  let worst = 0;
  for (let n = 0; n < reference.length; n++) {
    const v = values[n];
    if (!Number.isFinite(v)) return Infinity;
    const e = Math.abs(v - reference[n]);
    if (e > worst) worst = e;
  }
  return worst;
}

/** The float64 reference for posenc's float32 rows (interleaved: sin, cos per pair). */
function float64Rows(p, d, base) {
  const out = new Float64Array(ROWS * d);
  for (let r = 0; r < ROWS; r++) {
    for (let i = 0; i < d / 2; i++) {
      const angle = (p + r) * frequency(i, d, base);
      out[r * d + 2 * i] = Math.sin(angle);
      out[r * d + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}

const CURVES = [
  { key: 'posenc32', label: 'posenc float32', color: 0, dash: undefined, width: 2.6 },
  { key: 'posenc16', label: 'posenc float16', color: 1, dash: undefined, width: 2.6 },
  { key: 'posencBf16', label: 'posenc bfloat16', color: 2, dash: undefined, width: 2.6 },
  { key: 'recipe32', label: 'naive float32 angle', color: 0, dash: [6, 4], width: 1.6 },
  { key: 'recipe16', label: 'naive float16', color: 1, dash: [6, 4], width: 1.6 },
  { key: 'recipeBf16', label: 'naive bfloat16', color: 2, dash: [6, 4], width: 1.6 },
];
// One step of the errors' computation, in ms (the scheduler's frame budget is 12 ms).
const STEP_MS = 6;
const RECIPES = { recipe32: 'float32-angle', recipe16: 'float16', recipeBf16: 'bfloat16' };

export function createPrecisionView({ plot, readout, facts, all }) {
  let redraw = () => {};
  all?.addEventListener('change', () => redraw());
  const needsDraw = createRedrawGuard();
  let shown = null;
  const cursor = linkCursor('precision', (p) => {
    markPlotX(plot, p);
    showAt(p);
  });

  // The errors at every sampled position cost 6 package calls and ROWS × d float64 sines each: 1–3 ms per position
  // at d = 2048, 150–300 ms in all, so they are computed in steps of at most STEP_MS (scheduler.js runs the rest in
  // later frames) and drawn once complete; a render under the same key continues the job a newer input cut short.
  let job = null; // { d, base, drawn, positions, errors, n }: the computation under way

  function render(state) {
    const width = availableWidth(plot.parentElement, 900);
    const { d, base } = state;
    // Four curves by default (float32 and bfloat16, posenc and naive); float16's pair on request.
    const drawn = all?.checked ? CURVES : CURVES.filter((c) => !c.key.endsWith('16') || c.key.endsWith('Bf16'));
    const fresh = needsDraw([d, base, width, drawn.length]);
    if (!fresh && !job) return undefined;
    if (fresh) {
      const positions = samplePositions();
      job = { d, base, drawn, positions, errors: Object.fromEntries(CURVES.map((c) => [c.key, []])), n: 0 };
    }
    return step();
  }

  /** Computes positions for up to STEP_MS (one at least), then returns itself, or draws when all are done. */
  function step() {
    const { d, base, positions, errors } = job;
    // The 16-bit outputs (Uint16Array bit patterns) read as numbers by the package.
    const posenc16 = (p, dtype) =>
      bitsToFloat32(sinusoidal({ length: ROWS, dim: d, base, offset: p, dtype }), { dtype });
    const start = performance.now();
    do {
      const p = positions[job.n++];
      const f32 = sinusoidal({ length: ROWS, dim: d, base, offset: p });
      errors.posenc32.push(worstError(f32, float64Rows(p, d, base)));
      errors.posenc16.push(worstError(posenc16(p, 'float16'), f32));
      errors.posencBf16.push(worstError(posenc16(p, 'bfloat16'), f32));
      for (const [key, recipe] of Object.entries(RECIPES)) {
        errors[key].push(worstError(recipeTable({ recipe, length: ROWS, dim: d, base, offset: p }), f32));
      }
    } while (job.n < positions.length && performance.now() - start < STEP_MS);
    if (job.n < positions.length) return step;
    const { drawn } = job;
    job = null;
    draw(d, base, drawn, positions, errors);
    return undefined;
  }

  function draw(d, base, drawn, positions, errors) {
    const colors = themeColors();
    const firstBroken = (key) => positions[errors[key].findIndex((e) => e === Infinity)];
    drawLogPlot(plot, {
      title: `Worst error over ${ROWS} rows × d = ${d} columns, against position (T = ${base})`,
      xLabel: 'position p',
      yLabel: 'max |error|',
      x: positions,
      xLog: 2,
      yLog: 10,
      yRange: Y_RANGE,
      series: drawn.map((c) => ({
        label: c.label,
        // Log axis: an exact 0 or a non-finite value has no place on it (non-finite ones are listed below).
        values: errors[c.key].map((e) => (e > 0 && Number.isFinite(e) ? Math.max(e, Y_RANGE[0]) : null)),
        stroke: pairColor(c.color),
        dash: c.dash,
        width: c.width,
      })),
      markers: [
        { axis: 'y', value: PROMISE, label: 'posenc float32 promise: 6e-8', color: colors.muted, align: 'right' },
        { axis: 'x', value: 256, label: 'bfloat16 integers stop at 256', color: pairColor(2), row: 2, bottom: true },
        { axis: 'x', value: 2048, label: 'float16 integers stop at 2048', color: pairColor(1), row: 1, bottom: true },
        { axis: 'x', value: 65504, label: 'float16 max 65504', color: pairColor(1), row: 0, bottom: true },
      ],
      legendColumns: 2,
      height: plotHeight(380),
      onCursor: cursor.fromChart((x) => {
        const at = showAt(x);
        markPlotX(plot, at);
        return at;
      }),
    });
    shown = { positions, errors, curves: CURVES };
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
    const { positions, errors, curves } = shown;
    let n = 0;
    for (let k = 1; k < positions.length; k++) {
      if (Math.abs(Math.log(positions[k] / x)) < Math.abs(Math.log(positions[n] / x))) n = k;
    }
    const text = (e) => (e === Infinity ? 'NaN/∞' : e.toExponential(3));
    readout.textContent =
      `positions ${positions[n]} … ${positions[n] + ROWS - 1}\n` +
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
