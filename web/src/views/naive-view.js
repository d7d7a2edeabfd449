// View 5: why sinusoids. The raw index grows without bound; p/(length − 1)
// stays in [0, 1] but its step between neighbours depends on the length; the
// sinusoidal rows stay bounded and their step is the same for every length.
import { pairColor } from '../draw/colormap.js';
import { columnOf, columnsAt, rowRanges, tableShape, tableVersion, wavelength } from '../compute/encoding.js';
import { waitForWorker } from './scheduler.js';
import { createRedrawGuard, availableWidth } from '../draw/canvas.js';
import { fixed6 } from '../draw/format.js';
import { drawLinePlot } from '../draw/line-plot.js';

/** Plots at most this many points per curve; values are sampled evenly. */
const MAX_POINTS = 1200;

/** The pair whose wavelength is closest (in ratio) to target positions. */
function pairNearWavelength(target, d, base) {
  let best = 0;
  for (let i = 1; i < d / 2; i++) {
    const err = (n) => Math.abs(Math.log(wavelength(n, d, base) / target));
    if (err(i) < err(best)) best = i;
  }
  return best;
}

export function createNaiveView({ raw, norm, sin, facts }) {
  const needsDraw = createRedrawGuard();

  function render() {
    const stats = rowRanges();
    const { dim: d, length, offset, layout } = tableShape();
    const stride = Math.max(1, Math.ceil(length / MAX_POINTS));
    const rows = [];
    for (let r = 0; r < length; r += stride) rows.push(r);
    if (rows[rows.length - 1] !== length - 1) rows.push(length - 1);
    // Sines whose wavelengths are about the length, a quarter and a sixteenth of it.
    const pairs = [...new Set([1, 4, 16].map((part) => pairNearWavelength(length / part, d, tableShape().base)))];
    const columns = pairs.map((i) => columnOf(i, 'sin', d, layout));
    // For a large table the worker reads the columns: the last picture stays until it answers.
    const sampled = columnsAt(rows, columns);
    if (!sampled) return waitForWorker();
    if (!needsDraw([tableVersion(), availableWidth(raw.parentElement), stats !== null])) return undefined;
    const x = Float64Array.from(rows, (r) => offset + r);
    const span = Math.max(1, length - 1);
    const height = 220;

    drawLinePlot(raw, {
      title: 'Raw index p',
      xLabel: 'position p',
      yLabel: 'feature',
      x,
      series: [{ label: 'p', values: x, stroke: pairColor(1), width: 2 }],
      height,
    });
    // The same feature for a text a quarter as long: it climbs 4× as steeply.
    const short = Math.max(2, Math.ceil(length / 4));
    drawLinePlot(norm, {
      title: `p / (length − 1): length ${length} and ${short}`,
      xLabel: 'position p',
      yLabel: 'feature',
      x,
      series: [
        { label: `length ${length}`, values: Float64Array.from(rows, (r) => r / span), stroke: pairColor(4), width: 2 },
        {
          label: `length ${short}`,
          values: rows.map((r) => (r < short ? r / (short - 1) : null)),
          stroke: pairColor(0),
          dash: [6, 4],
          width: 2,
        },
      ],
      height,
      yRange: [-0.05, 1.05],
    });
    drawLinePlot(sin, {
      title: 'Sinusoidal (sine of pairs ' + pairs.join(', ') + ')',
      xLabel: 'position p',
      yLabel: 'feature',
      x,
      series: columns.map((j, n) => {
        return {
          label: `d${j}`,
          values: Float64Array.from(sampled.subarray(n * rows.length, (n + 1) * rows.length)),
          stroke: pairColor(n),
          width: 1.5,
        };
      }),
      height,
      yRange: [-1.08, 1.08],
    });

    const items = [
      offset + length - 1 > 1
        ? `Raw index: the last position here is ${offset + length - 1}, far outside the ±1 range of the other features ` +
          'of an embedding, and a longer text only pushes it further.'
        : `Raw index: these ${length === 1 ? 'position stays' : 'positions stay'} within ±1, but only because the text ` +
          'is this short: position 100 would be 100, far outside the ±1 range of the other features.',
      `p / (length − 1): bounded, but the step between neighbours is 1/(length − 1) = ` +
        `${length > 1 ? fixed6(1 / (length - 1)) : '—'} at length ${length}; the same value means a different ` +
        `position in a text of another length (dashed: length ${short}; at length 10 the step is ${fixed6(1 / 9)}, ` +
        `at 8192 it is ${fixed6(1 / 8191)}).`,
      length < 2
        ? 'Sinusoidal: every value in [−1, 1]; pick a length ≥ 2 to see the step between neighbours.'
        : stats
          ? `Sinusoidal: every value in [−1, 1], and the distance ‖PE(p+1) − PE(p)‖ between neighbours is ` +
            `${fixed6(stats.stepMin)} … ${fixed6(stats.stepMax)} over this whole table: the same at every position and for every length.`
          : 'Sinusoidal: every value in [−1, 1]; measuring the step between neighbours over the whole table…',
    ];
    // The sinusoid's step as numbers, for the test that holds the caption ("a constant step") to them at every d.
    facts.dataset.stepMin = stats && length >= 2 ? String(stats.stepMin) : '';
    facts.dataset.stepMax = stats && length >= 2 ? String(stats.stepMax) : '';
    facts.replaceChildren(
      ...items.map((t) => {
        const li = document.createElement('li');
        li.textContent = t;
        return li;
      }),
    );
  }

  return { render };
}
