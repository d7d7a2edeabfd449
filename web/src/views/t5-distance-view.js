// View: distance as the relative schemes see it. One query in the middle of
// a window of keys, against the signed offset Δ = j − i (key minus query):
// T5's bucket (encoder and decoder, t5Buckets) beside ALiBi's bias (first and
// last of 8 heads, alibiBias) and RoPE's score q·k / (|q||k|) for q = k = all
// ones (rope, d and T from the page's controls). T5 is exact up to 8 (encoder)
// or 16 (decoder) and then logarithmic; ALiBi is linear; RoPE oscillates.
import { alibiBias, alibiSlopes, rope, t5Buckets } from '../../../src/js/index.js';
import { createRedrawGuard, themeColors } from '../draw/canvas.js';
import { drawLinePlot } from '../draw/line-plot.js';

const SPAN = 300; // offsets −SPAN … SPAN
const HEADS = 8;

/** RoPE's score of the query at offset 0 with keys at every offset. */
function ropeScores(d, base) {
  const n = 2 * SPAN + 1;
  const x = rope(new Float32Array(n * d).fill(1), { length: n, heads: 1, headDim: d, base, layout: 'interleaved' });
  const dot = (a, b) => {
    let sum = 0;
    for (let t = 0; t < d; t++) sum += x[a * d + t] * x[b * d + t];
    return sum;
  };
  const norm = Math.sqrt(dot(SPAN, SPAN));
  return Array.from({ length: n }, (_, k) => dot(SPAN, k) / (norm * Math.sqrt(dot(k, k))));
}

export function createT5DistanceView({ buckets, others, facts }) {
  const needsDraw = createRedrawGuard();

  function render(state) {
    if (!needsDraw([state.d, state.base, buckets.clientWidth])) return;
    const colors = themeColors();
    const x = Array.from({ length: 2 * SPAN + 1 }, (_, k) => k - SPAN);
    // One query at key position SPAN among keys 0 … 2·SPAN: key k is at offset k − SPAN.
    const row = (bidirectional) =>
      Array.from(t5Buckets({ queryLength: 1, keyLength: 2 * SPAN + 1, offset: SPAN, bidirectional }));
    const encoder = row(true);
    const decoder = row(false);
    drawLinePlot(buckets, {
      title: "T5's bucket (32 buckets, max distance 128)",
      xLabel: 'offset j − i (key − query)',
      yLabel: 'bucket',
      x,
      series: [
        { label: 'encoder (bidirectional)', values: encoder, stroke: colors.accent, width: 2 },
        { label: 'decoder (causal)', values: decoder, stroke: colors.muted, dash: [6, 4] },
      ],
    });
    const bias = alibiBias({ heads: HEADS, queryLength: 1, keyLength: 2 * SPAN + 1, offset: SPAN });
    const slopes = alibiSlopes(HEADS);
    const ropeScore = ropeScores(state.d, state.base);
    drawLinePlot(others, {
      title: 'ALiBi bias and RoPE score at the same offsets',
      xLabel: 'offset j − i (key − query)',
      yLabel: 'bias / score',
      x,
      yRange: [-3, 1.05],
      series: [
        {
          label: `ALiBi head 0 (slope ${slopes[0]})`,
          values: Array.from(bias.subarray(0, x.length)),
          stroke: colors.accent,
        },
        {
          label: `ALiBi head ${HEADS - 1}`,
          values: Array.from(bias.subarray((HEADS - 1) * x.length)),
          stroke: colors.muted,
        },
        { label: 'RoPE q·k/(|q||k|)', values: ropeScore, stroke: colors.fg, dash: [4, 3] },
      ],
    });
    const starts = [];
    for (let k = SPAN; k >= 0; k--) if (k === SPAN || encoder[k] !== encoder[k + 1]) starts.push(SPAN - k);
    facts.textContent =
      `T5's encoder gives keys behind the query buckets 0–15 and keys ahead 16–31; behind, each ` +
      `bucket starts at distance ${starts.join(', ')}: one bucket per distance up to 7, then log-spaced, all distances ` +
      `from ${starts[starts.length - 1]} on share bucket ${encoder[0]}. ALiBi's penalty grows without bound; RoPE's ` +
      'score oscillates and decays.';
  }

  return { render };
}
