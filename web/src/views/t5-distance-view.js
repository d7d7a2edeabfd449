// View: distance as the relative schemes see it. One query in the middle of
// a window of keys, against the signed offset Δ = j − i (key minus query):
// T5's bucket (encoder and decoder, t5Buckets) beside ALiBi's bias (first and
// last of 8 heads, alibiBias) and RoPE's score q·k / (|q||k|) for q = k = all
// ones (rope, d and T from the page's controls). T5 is exact up to 8 (encoder)
// or 16 (decoder) and then logarithmic; ALiBi is linear; RoPE oscillates.
// Linked to the shared position cursor: position p is the key at offset +p
// from a query at position 0; pointing at offset Δ here points at |Δ|.
import { alibiBias, alibiSlopes, rope, t5Buckets } from '../../../src/js/index.js';
import { createRedrawGuard, themeColors } from '../draw/canvas.js';
import { drawLinePlot } from '../draw/line-plot.js';
import { fixed6 } from '../draw/format.js';
import { linkCursor, markPlotX } from './linked-cursor.js';

const SPAN = 300; // offsets −SPAN … SPAN
const HEADS = 8;

/** RoPE's score of the query at offset 0 with keys at every offset. */
const fixed3 = (v) => v.toFixed(3);
// A rise the eye sees: 1% of the plot's axis (−1.05 … 1.05), two pixels or so on a 200 px plot.
const RIPPLE_SEEN = 0.02;

function ropeScores(d, base) {
  const n = 2 * SPAN + 1;
  const x = rope(new Float32Array(n * d).fill(1), { length: n, heads: 1, headDim: d, base, layout: 'interleaved' });
  // One pass over each key row: its dot product with the query's row and its own squared norm.
  const q = SPAN * d;
  let qq = 0;
  for (let t = 0; t < d; t++) qq += x[q + t] * x[q + t];
  const scores = new Array(n);
  for (let k = 0; k < n; k++) {
    let qk = 0;
    let kk = 0;
    for (let t = 0, r = k * d; t < d; t++, r++) {
      qk += x[q + t] * x[r];
      kk += x[r] * x[r];
    }
    scores[k] = qk / (Math.sqrt(qq) * Math.sqrt(kk));
  }
  return scores;
}

export function createT5DistanceView({ buckets, others, facts, readout }) {
  const needsDraw = createRedrawGuard();
  let shown = null; // { series: [{ label, values }] } at offsets −SPAN … SPAN
  const cursor = linkCursor('t5-distance', (p) => {
    const offset = p != null && p <= SPAN ? p : null;
    for (const plot of [buckets, others]) markPlotX(plot, offset);
    showAt(offset);
  });

  /** Reads every curve at offset Δ (null: none); returns |Δ|, the position a query at 0 sees there. */
  function showAt(offset) {
    if (!shown || offset == null || Math.abs(offset) > SPAN) {
      readout.textContent = 'Hover a plot (or focus it and use the arrow keys) to read every curve at one offset.';
      readout.dataset.offset = '';
      return null;
    }
    const k = offset + SPAN;
    readout.textContent =
      `offset j − i = ${offset}:  ` +
      shown.series
        .map(({ label, values }) => `${label} ${Number.isInteger(values[k]) ? values[k] : fixed6(values[k])}`)
        .join(';  ');
    readout.dataset.offset = String(offset);
    return Math.abs(offset);
  }
  const onCursor = cursor.fromChart((x) => {
    const offset = x == null ? null : Math.round(x);
    const distance = showAt(offset);
    for (const plot of [buckets, others]) markPlotX(plot, distance == null ? null : offset);
    return distance;
  });

  // What no control changes (T5's buckets, ALiBi's bias and factors): computed once, on the first draw.
  let fixed = null;
  function fixedCurves() {
    const x = Array.from({ length: 2 * SPAN + 1 }, (_, k) => k - SPAN);
    // One query at key position SPAN among keys 0 … 2·SPAN: key k is at offset k − SPAN.
    const row = (bidirectional) =>
      Array.from(t5Buckets({ queryLength: 1, keyLength: 2 * SPAN + 1, offset: SPAN, bidirectional }));
    const bias = alibiBias({ heads: HEADS, queryLength: 1, keyLength: 2 * SPAN + 1, offset: SPAN });
    // ALiBi's bias −m·|j − i| reaches −150 for head 0 within the span: drawn as the factor e^bias it puts on
    // the attention weights (1 at the query, falling towards 0), every head fits the axis RoPE's score needs.
    const factor = (head) => Array.from(bias.subarray(head * x.length, (head + 1) * x.length), Math.exp);
    return {
      x,
      encoder: row(true),
      decoder: row(false),
      bias,
      slopes: alibiSlopes(HEADS),
      factors: [factor(0), factor(HEADS - 1)],
    };
  }
  const bucketsNeedDraw = createRedrawGuard(); // the bucket plot: only its width or the theme redraws it

  function render(state) {
    if (!needsDraw([state.d, state.base, buckets.clientWidth])) return;
    const colors = themeColors();
    fixed ??= fixedCurves();
    const { x, encoder, decoder, bias, slopes } = fixed;
    if (bucketsNeedDraw([buckets.clientWidth]))
      drawLinePlot(buckets, {
        title: "T5's bucket (32 buckets, max distance 128)",
        xLabel: 'offset j − i (key − query)',
        yLabel: 'bucket',
        x,
        series: [
          { label: 'encoder (bidirectional)', values: encoder, stroke: colors.accent, width: 2 },
          { label: 'decoder (causal)', values: decoder, stroke: colors.muted, dash: [6, 4] },
        ],
        onCursor,
      });
    const ropeScore = ropeScores(state.d, state.base);
    const yRange = [-1.05, 1.05];
    const drawn = [...fixed.factors, ropeScore];
    others.dataset.yRange = yRange.join(' ');
    others.dataset.clipped = String(drawn.flat().filter((v) => v < yRange[0] || v > yRange[1]).length);
    drawLinePlot(others, {
      title: 'ALiBi’s factor on attention weights and RoPE’s score at the same offsets',
      xLabel: 'offset j − i (key − query)',
      yLabel: 'factor e^bias / score',
      x,
      yRange,
      series: [
        {
          label: `ALiBi head 0 (slope ${slopes[0]})`,
          values: drawn[0],
          stroke: colors.accent,
        },
        {
          label: `ALiBi head ${HEADS - 1}`,
          values: drawn[1],
          stroke: colors.muted,
        },
        { label: 'RoPE q·k/(|q||k|)', values: ropeScore, stroke: colors.fg, dash: [4, 3] },
      ],
      onCursor,
    });
    shown = {
      series: [
        { label: 'T5 encoder bucket', values: encoder },
        { label: 'decoder bucket', values: decoder },
        { label: 'ALiBi head 0 bias', values: bias.subarray(0, x.length) },
        { label: `head ${HEADS - 1} bias`, values: bias.subarray((HEADS - 1) * x.length) },
        { label: 'RoPE score', values: ropeScore },
      ],
    };
    cursor.refresh();
    // RoPE's score ahead of the query: how far it rises again after falling (its ripple: a visible oscillation
    // or none) and its largest size beyond half the span (how far it decays). With one pair it is cos(Δ), which
    // never decays; with many, the pairs' turns average out into a smooth fall.
    let low = Infinity;
    let ripple = 0;
    let far = 0;
    for (let k = SPAN; k < x.length; k++) {
      low = Math.min(low, ropeScore[k]);
      ripple = Math.max(ripple, ropeScore[k] - low);
    }
    for (let k = 0; k < x.length; k++) if (Math.abs(x[k]) >= SPAN / 2) far = Math.max(far, Math.abs(ropeScore[k]));
    Object.assign(facts.dataset, { ropeRipple: String(ripple), ropeFar: String(far) });
    const pairs = `${state.d / 2} pair${state.d === 2 ? '' : 's'}`;
    const ropeText =
      ripple < RIPPLE_SEEN
        ? `RoPE's score falls smoothly, the turns of its ${pairs} averaging out (no rise over ` +
          `${ripple.toExponential(0)}); beyond ±${SPAN / 2} it stays within ±${fixed3(far)}.`
        : far > 0.9
          ? `RoPE's score oscillates without decaying: with ${pairs} it still reaches ${fixed3(far)} beyond ` +
            `±${SPAN / 2}; more pairs, each turning at its own rate, make the sum decay.`
          : `RoPE's score oscillates (rising again by up to ${fixed3(ripple)}) and decays: beyond ±${SPAN / 2} ` +
            `it stays within ±${fixed3(far)}.`;
    const starts = [];
    for (let k = SPAN; k >= 0; k--) if (k === SPAN || encoder[k] !== encoder[k + 1]) starts.push(SPAN - k);
    facts.textContent =
      `T5's encoder gives keys behind the query buckets 0–15 and keys ahead 16–31; behind, each ` +
      `bucket starts at distance ${starts.join(', ')}: one bucket per distance up to 7, then log-spaced, all distances ` +
      `from ${starts[starts.length - 1]} on share bucket ${encoder[0]}. ALiBi's penalty grows without bound ` +
      `(head 0's bias is ${bias[0]} at offset −${SPAN}), so its factor on the weights falls to 0. ${ropeText}`;
  }

  return { render };
}
