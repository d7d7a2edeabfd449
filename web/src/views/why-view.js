// View 0: why a transformer needs position. Self-attention (here with q = k =
// v = the word vectors, the smallest honest version) compares every word with
// every other; without position, "the dog bites the man" and "the man bites the
// dog" are the same set of vectors, so each word gets exactly the same weights
// and output in both. Adding the package's encoding (addSinusoidal) breaks the
// tie. The numbers come from compute/why-attention.js; the drawn facts are
// written on the canvas's data-* attributes (the browser test reads them).
import { createRedrawGuard, fitCanvas, themeColors, availableWidth } from '../draw/canvas.js';
import { CIVIDIS_LUT } from '../draw/cividis.js';
import { drawTitle, paintGrid } from '../draw/heatmap-draw.js';
import { fixed6 } from '../draw/format.js';
import { whyAttention } from '../compute/why-attention.js';

export function createWhyView({ canvas, facts }) {
  const needsDraw = createRedrawGuard();

  function render(state) {
    const { d, base } = state;
    const width = Math.min(availableWidth(canvas.parentElement, 600), 760);
    if (!needsDraw([d, base, width])) return;
    const result = whyAttention(d, base);
    const scale = drawMatrices(result, width);
    const { without, with: withPe } = result;
    facts.innerHTML =
      `<li>Without position, B’s weights in A’s word order are A’s: largest difference ` +
      `<strong data-value="${without.gap}">${without.gap.toFixed(2)}</strong>, and “dog” gets the same output ` +
      `(difference <strong data-value="${without.outGap}">${fixed6(without.outGap)}</strong>). The model cannot ` +
      `tell who bit whom.</li>` +
      `<li>With the encoding added (d = ${d}, T = ${base}), the weights differ by up to ` +
      `<strong data-value="${withPe.gap}">${withPe.gap.toFixed(2)}</strong> (on a colour scale from ` +
      `${scale.lo.toFixed(2)} to ${scale.hi.toFixed(2)} shared by all four) and “dog”’s output by ` +
      `<strong data-value="${withPe.outGap}">${fixed6(withPe.outGap)}</strong>: the order now changes what the ` +
      `model sees.</li>`;
    // The drawn facts, for tests and tools: the largest cell difference of each pair, and the shared scale.
    facts.dataset.without = String(without.outGap);
    facts.dataset.with = String(withPe.outGap);
    Object.assign(canvas.dataset, {
      d: String(d),
      gapWithout: String(without.gap),
      gapWith: String(withPe.gap),
      scaleLo: String(scale.lo),
      scaleHi: String(scale.hi),
      sharedScale: '1',
    });
    canvas.setAttribute(
      'aria-label',
      `Attention weights of the two sentences, B shown in A’s word order. Without position the two matrices are ` +
        `the same (largest difference ${without.gap.toFixed(2)}); with the encoding they differ by up to ` +
        `${withPe.gap.toFixed(2)}.`,
    );
  }

  /** Draws the four panels on one colour scale; returns that scale { lo, hi }. */
  function drawMatrices({ words, without, with: withPe }, width) {
    const colors = themeColors();
    const n = words[0].length;
    const label = 40; // room for the row words left of each panel
    // Four panels in a row, or two rows of two on a narrow screen.
    const perRow = width >= 640 ? 4 : 2;
    const cell = Math.max(22, Math.min(30, Math.floor((width - perRow * (label + 16)) / (perRow * n))));
    const block = cell * n;
    const gap = Math.max(12, Math.floor((width - perRow * (block + label)) / perRow));
    const rowHeight = block + 62;
    const legend = 34;
    const height = rowHeight * (4 / perRow) + legend;
    const { ctx, ratio } = fitCanvas(canvas, width, height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);
    const panels = [
      ['A, no position', words[0], without.a],
      ['B, no position', words[1], without.bInA],
      ['A, with position', words[0], withPe.a],
      ['B, with position', words[1], withPe.bInA],
    ];
    // One scale for all four: equal weights look equal, and a small difference looks small.
    const all = panels.flatMap(([, , m]) => [...m]);
    const lo = 0;
    const hi = Math.max(...all, 1e-9);
    panels.forEach(([title, sentence, weights], k) => {
      const column = k % perRow;
      const x = label + column * (block + label + gap);
      const top = Math.floor(k / perRow) * rowHeight;
      const rect = { x, y: top + 44, w: block, h: block };
      paintGrid(ctx, ratio, rect, n, n, { array: weights, rowStride: n, colStride: 1 }, CIVIDIS_LUT, lo, hi);
      ctx.font = colors.smallFont;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          const v = weights[r * n + c];
          ctx.fillStyle = (v - lo) / (hi - lo) > 0.55 ? '#000000' : '#ffffff';
          ctx.fillText(
            v >= 0.995 ? '1' : v.toFixed(2).replace(/^0/, ''),
            x + (c + 0.5) * cell,
            rect.y + (r + 0.5) * cell,
          );
        }
      }
      // Rows (and columns) in A's word order, for both sentences.
      ctx.fillStyle = colors.muted;
      ctx.textAlign = 'right';
      words[0].forEach((w, r) => ctx.fillText(w, x - 4, rect.y + (r + 0.5) * cell));
      drawTitle(ctx, title, x - label + 4, top + 4, colors);
      ctx.font = colors.smallFont;
      ctx.fillStyle = colors.muted;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(`“${sentence.join(' ')}”`, x - label + 4, top + 22);
    });
    // The shared colour bar.
    const barY = height - legend + 8;
    const barW = Math.min(240, width - 220);
    paintGrid(
      ctx,
      ratio,
      { x: label, y: barY, w: barW, h: 10 },
      1,
      64,
      (r, c) => lo + ((hi - lo) * c) / 63,
      CIVIDIS_LUT,
      lo,
      hi,
    );
    ctx.fillStyle = colors.muted;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    ctx.fillText(lo.toFixed(2), label - 4, barY + 5);
    ctx.textAlign = 'left';
    // The bar's name, shorter where the full one would run off a phone's canvas (the caption says the scale is shared).
    const room = width - (label + barW + 4);
    const long = `${hi.toFixed(2)}  weight, one scale for all four`;
    ctx.fillText(ctx.measureText(long).width <= room ? long : `${hi.toFixed(2)}  weight`, label + barW + 4, barY + 5);
    canvas.dataset.description =
      'Attention weights (rows: each word attending; columns: the word attended to), written in each cell; ' +
      'B’s rows and columns are put in A’s word order. Without position the two matrices are the same numbers.';
    return { lo, hi };
  }

  return { render };
}
