// View 4: the embedding add. Two sentences become toy token embeddings; the
// package adds the encoding (optionally after scaling by √d). The same word
// at two positions is identical before the add and different after it.
import { addSinusoidal, sinusoidal } from '../../../src/js/index.js';
import { createRedrawGuard, fitCanvas, themeColors, availableWidth } from '../draw/canvas.js';
import { DIVERGING_LUT } from '../draw/colormap.js';
import { tableShape } from '../compute/encoding.js';
import { fixed6 } from '../draw/format.js';
import { drawColorBar, drawTitle, paintGrid } from '../draw/heatmap-draw.js';
import { cosine, tokenize, toyEmbedding } from '../compute/toy-embedding.js';

/** Rows r0 … r1 of a row-major (rows, d) array. */
const rowOf = (array, r, d) => array.subarray(r * d, (r + 1) * d);

/** Whether row ra of a and row rb of b (d floats each) hold the same bits. */
function sameBits(a, ra, b, rb, d) {
  const x = new Uint32Array(a.buffer, a.byteOffset + ra * d * 4, d);
  const y = new Uint32Array(b.buffer, b.byteOffset + rb * d * 4, d);
  for (let j = 0; j < d; j++) if (x[j] !== y[j]) return false;
  return true;
}

/**
 * How many rows of a (na rows) are bit-for-bit equal to some row of b (nb rows). Compared in place, bits against
 * bits: joining each row's d numbers into a string key took 12 ms a frame at d = 2048, and unequal rows differ in
 * their first values, so the scan stops there.
 */
function sharedRows(a, b, na, nb, d) {
  let count = 0;
  for (let r = 0; r < na; r++) {
    for (let q = 0; q < nb; q++) {
      if (sameBits(a, r, b, q, d)) {
        count += 1;
        break;
      }
    }
  }
  return count;
}

/** The largest |value| over arrays (plain loops: for…of over typed arrays is several times slower). */
function largestMagnitude(arrays) {
  let m = 0;
  for (const array of arrays) {
    for (let k = 0; k < array.length; k++) {
      const v = Math.abs(array[k]);
      if (v > m) m = v;
    }
  }
  return m;
}

/** A symmetric colour range of at least ±1, rounded up to one decimal. */
const niceRange = (m) => Math.max(1, Math.ceil(m * 10) / 10);

export function createEmbeddingView({ canvas, facts, wordSelect }) {
  const needsDraw = createRedrawGuard();
  // The words' toy vectors at the current d: the same while T, the offset or the layout is dragged.
  let vectors = { d: 0, byWord: new Map() };
  const wordVector = (word, d) => {
    if (vectors.d !== d || vectors.byWord.size > 256) vectors = { d, byWord: new Map() };
    let vector = vectors.byWord.get(word);
    if (!vector) {
      vector = toyEmbedding(word, d);
      vectors.byWord.set(word, vector);
    }
    return vector;
  };
  function compute(sentence, state) {
    const { dim: d, base, offset, layout } = tableShape();
    const words = tokenize(sentence);
    const n = words.length;
    const scale = state.scale ? Math.sqrt(d) : 1;
    const x = new Float32Array(n * d);
    words.forEach((word, r) => x.set(wordVector(word, d), r * d));
    const encoding = sinusoidal({ length: n, dim: d, base, offset, layout });
    const sum = addSinusoidal(x.slice(), { length: n, dim: d, base, offset, layout, scale });
    const scaled = x.map((v) => v * scale); // what enters the add: x·scale
    return { words, n, scaled, encoding, sum };
  }

  function render(state) {
    const { dim: d, offset, base, layout } = tableShape();
    const width = availableWidth(canvas.parentElement, 0);
    if (!needsDraw([d, offset, base, layout, state.s1, state.s2, state.scale, wordSelect.dataset.chosen, width]))
      return;
    const a = compute(state.s1, state);
    const b = compute(state.s2, state);

    // Words in both sentences, for the comparison.
    const common = [...new Set(a.words)].filter((w) => b.words.includes(w));
    const options = common.join('|');
    if (wordSelect.dataset.options !== options) {
      wordSelect.replaceChildren(...common.map((w) => new Option(w, w)));
      wordSelect.dataset.options = options;
    }
    const preferred = wordSelect.dataset.chosen;
    const word = common.includes(preferred) ? preferred : common.includes('cat') ? 'cat' : common[0];
    if (word !== undefined) wordSelect.value = word;
    wordSelect.disabled = common.length === 0;

    let text = '';
    if (word !== undefined) {
      const ra = a.words.indexOf(word);
      const rb = b.words.indexOf(word);
      const before = cosine(rowOf(a.scaled, ra, d), rowOf(b.scaled, rb, d));
      const after = cosine(rowOf(a.sum, ra, d), rowOf(b.sum, rb, d));
      text +=
        `“${word}” at p = ${offset + ra} in A and p = ${offset + rb} in B: cosine similarity before the add ` +
        `<strong>${fixed6(before)}</strong>, after <strong id="word-after">${fixed6(after)}</strong>. `;
    } else {
      text += 'The sentences share no word to compare. ';
    }
    if (a.n > 0) {
      const before = sharedRows(a.scaled, b.scaled, a.n, b.n, d);
      const after = sharedRows(a.sum, b.sum, a.n, b.n, d);
      text +=
        `Rows of A that are also rows of B: <span id="rows-before">${before}</span> of ${a.n} before the add` +
        `${before === a.n && a.n === b.n ? ' (the same bag of words)' : ''}, ` +
        `<span id="rows-after">${after}</span> of ${a.n} after it (only the same word at the same position).`;
    }
    facts.innerHTML = text;
    draw([a, b], state);
  }

  function draw(sentences, state) {
    const { dim: d, offset } = tableShape();
    const colors = themeColors();
    const width = availableWidth(canvas.parentElement, 900);
    const labelW = 92;
    const barW = 84;
    const gap = 12;
    const panelW = Math.max(60, (width - labelW - barW - 2 * gap) / 3);
    const rowH = Math.max(8, Math.min(22, Math.floor(260 / Math.max(1, ...sentences.map((s) => s.n)))));
    const blockHeights = sentences.map((s) => 44 + Math.max(1, s.n) * rowH);
    const height = blockHeights.reduce((x, y) => x + y, 0) + 16;
    const { ctx, ratio } = fitCanvas(canvas, width, height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, width, height);

    const range = niceRange(largestMagnitude(sentences.flatMap((s) => [s.scaled, s.encoding, s.sum])));
    const scaleText = state.scale ? `embedding × √d = ×${Math.sqrt(d).toFixed(2)}` : 'embedding (not scaled)';
    const titles =
      panelW >= 220
        ? [[scaleText], [`encoding PE(p), p from ${offset}`], ['sum = embedding + PE (package add)']]
        : [state.scale ? ['embedding×√d', 'emb.×√d', '×√d'] : ['embedding', 'emb.'], ['PE(p)'], ['sum']];

    let top = 0;
    sentences.forEach((s, n) => {
      drawTitle(ctx, `Sentence ${n === 0 ? 'A' : 'B'}: “${n === 0 ? state.s1 : state.s2}”`, 4, top + 4, colors);
      const y = top + 40;
      ctx.font = colors.smallFont;
      ctx.fillStyle = colors.muted;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      // Each title within its panel and the gap after it (a phone's 57 px panels ran 'embedding×√d' into 'PE(p)').
      const fits = (options) => options.find((t) => ctx.measureText(t).width <= panelW + gap - 4) ?? options.at(-1);
      titles.forEach((t, c) => ctx.fillText(fits(t), labelW + c * (panelW + gap), y - 3));
      if (s.n > 0) {
        [s.scaled, s.encoding, s.sum].forEach((arr, c) => {
          const rect = { x: labelW + c * (panelW + gap), y, w: panelW, h: s.n * rowH };
          paintGrid(ctx, ratio, rect, s.n, d, { array: arr, rowStride: d, colStride: 1 }, DIVERGING_LUT, -range, range);
          ctx.strokeStyle = colors.muted;
          ctx.strokeRect(rect.x - 0.5, rect.y - 0.5, rect.w + 1, rect.h + 1);
        });
        ctx.fillStyle = colors.fg;
        ctx.font = colors.font;
        ctx.textAlign = 'right';
        ctx.textBaseline = 'middle';
        if (rowH >= 11) {
          s.words.forEach((word, r) =>
            ctx.fillText(`${offset + r} ${word.slice(0, 10)}`, labelW - 6, y + (r + 0.5) * rowH),
          );
        }
      }
      top += blockHeights[n];
    });
    drawColorBar(
      ctx,
      ratio,
      { x: width - barW + 26, y: 40 + 16, w: 12, h: Math.max(40, height - 40 - 16 - 24) },
      DIVERGING_LUT,
      -range,
      range,
      colors,
    );
  }

  return { render };
}
