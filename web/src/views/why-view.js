// View 0: why a transformer needs position. Self-attention (here with q = k =
// v = the word vectors, the smallest honest version) compares every word with
// every other; without position, "dog bites man" and "man bites dog" are the
// same set of vectors, so each word gets exactly the same output in both and
// any summary of the sentence is identical. Adding the package's encoding
// (addSinusoidal, scaled by √d as the Transformer does) breaks the tie.
import { addSinusoidal } from '../../../src/js/index.js';
import { createRedrawGuard, fitCanvas, themeColors, availableWidth } from '../draw/canvas.js';
import { CIVIDIS_LUT } from '../draw/sequential-colormap.js';
import { drawTitle, paintGrid } from '../draw/heatmap-draw.js';
import { fixed6 } from '../draw/format.js';
import { toyEmbedding } from '../compute/toy-embedding.js';

const SENTENCES = [
  ['dog', 'bites', 'man'],
  ['man', 'bites', 'dog'],
];

/** Softmax(X·Xᵀ/√d)·X for n rows of d: { weights (n × n), out (n × d) }, in double. */
function selfAttention(x, n, d) {
  const weights = new Float64Array(n * n);
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += x[i * d + k] * x[j * d + k];
      weights[i * n + j] = dot / Math.sqrt(d);
      max = Math.max(max, weights[i * n + j]);
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += weights[i * n + j] = Math.exp(weights[i * n + j] - max);
    for (let j = 0; j < n; j++) {
      weights[i * n + j] /= sum;
      for (let k = 0; k < d; k++) out[i * d + k] += weights[i * n + j] * x[j * d + k];
    }
  }
  return { weights, out };
}

/** The largest |difference| between the output for `word` in sentence A and in sentence B. */
function wordGap(a, b, word, d) {
  const ra = SENTENCES[0].indexOf(word);
  const rb = SENTENCES[1].indexOf(word);
  let gap = 0;
  for (let k = 0; k < d; k++) gap = Math.max(gap, Math.abs(a.out[ra * d + k] - b.out[rb * d + k]));
  return gap;
}

export function createWhyView({ canvas, facts }) {
  const needsDraw = createRedrawGuard();

  function render(state) {
    const { d, base } = state;
    const width = Math.min(availableWidth(canvas.parentElement, 600), 720);
    if (!needsDraw([d, base, width])) return;
    const results = SENTENCES.map((words) => {
      const x = new Float32Array(words.length * d);
      words.forEach((w, r) => x.set(toyEmbedding(w, d), r * d));
      const plain = selfAttention(x, words.length, d);
      const placed = addSinusoidal(x.slice(), { length: words.length, dim: d, base, scale: Math.sqrt(d) });
      return { words, plain, placed: selfAttention(placed, words.length, d) };
    });
    const [a, b] = results;
    const without = wordGap(a.plain, b.plain, 'dog', d);
    const withPosition = wordGap(a.placed, b.placed, 'dog', d);
    drawMatrices(results, width);
    facts.innerHTML =
      `<li>Without position, “dog” gets the same attention output in both sentences: largest difference ` +
      `<strong data-value="${without}">${fixed6(without)}</strong>. The model cannot tell who bit whom.</li>` +
      `<li>With the sinusoidal encoding added (d = ${d}, T = ${base}), the outputs differ by up to ` +
      `<strong data-value="${withPosition}">${fixed6(withPosition)}</strong>: the order now changes what the model sees.</li>`;
    facts.dataset.without = String(without);
    facts.dataset.with = String(withPosition);
  }

  function drawMatrices(results, width) {
    const colors = themeColors();
    // Four panels in a row, or two rows of two on a narrow screen.
    const perRow = width >= 560 ? 4 : 2;
    const cell = Math.max(26, Math.min(40, Math.floor((width - 60) / (perRow * 3.5))));
    const block = cell * 3;
    const gap = Math.max(16, Math.floor((width - perRow * block - 16) / perRow));
    const rowHeight = block + 60;
    const height = rowHeight * (4 / perRow) + 10;
    const { ctx, ratio } = fitCanvas(canvas, width, height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    const panels = [
      ['A, no position', results[0].words, results[0].plain.weights],
      ['B, no position', results[1].words, results[1].plain.weights],
      ['A, with PE', results[0].words, results[0].placed.weights],
      ['B, with PE', results[1].words, results[1].placed.weights],
    ];
    ctx.font = colors.smallFont;
    panels.forEach(([title, words, weights], n) => {
      const column = n % perRow;
      const x = 8 + column * (block + gap) + (perRow === 4 && n >= 2 ? gap / 2 : 0);
      const top = Math.floor(n / perRow) * rowHeight;
      const rect = { x, y: top + 40, w: block, h: block };
      // Each panel on its own colour range, with the weights written in the cells.
      const lo = Math.min(...weights);
      const hi = Math.max(...weights, lo + 1e-9);
      paintGrid(ctx, ratio, rect, 3, 3, { array: weights, rowStride: 3, colStride: 1 }, CIVIDIS_LUT, lo, hi);
      ctx.font = colors.smallFont;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) {
          const v = weights[r * 3 + c];
          ctx.fillStyle = (v - lo) / (hi - lo) > 0.55 ? '#000000' : '#ffffff';
          ctx.fillText(v.toFixed(2), x + (c + 0.5) * cell, rect.y + (r + 0.5) * cell);
        }
      }
      drawTitle(ctx, title, x, top + 4, colors);
      ctx.font = colors.smallFont;
      ctx.fillStyle = colors.muted;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(words.join(' '), x, top + 22);
    });
    canvas.dataset.description =
      'Attention weights (rows: each word attending; columns: the word attended to), written in each cell. ' +
      'Without position, sentence B’s matrix is sentence A’s with rows and columns swapped: the same numbers.';
    canvas.setAttribute('aria-description', canvas.dataset.description);
  }

  return { render };
}
