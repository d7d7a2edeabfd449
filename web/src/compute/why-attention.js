// View 0's numbers: attention over two sentences made of the same words in a
// different order, without and with the sinusoidal encoding.
//
// The scores are cosine similarities times a fixed temperature, so the picture
// means the same at every d: plain q·k/√d of vectors whose length grows with d
// sharpens to an identity matrix as d grows (each word attends only to itself),
// which hides what the encoding changes. The sentences have five words, not
// three: "man bites dog" is "dog bites man" reversed, and a reversal keeps every
// distance between words, so a score that depends on distance alone could not
// tell the two apart.
import { addSinusoidal } from '../../../src/js/index.js';
import { toyEmbedding } from './toy-embedding.js';

export const SENTENCES = [
  ['the', 'dog', 'bites', 'the', 'man'],
  ['the', 'man', 'bites', 'the', 'dog'],
];

/** Scores are TEMPERATURE · cos(row i, row j): between −8 and 8 whatever d is. */
export const TEMPERATURE = 8;

/** For each word of `from`, the index of the same word (same occurrence) in `to`. */
export function wordOrder(from, to) {
  const used = new Set();
  return from.map((word) => {
    const n = to.findIndex((w, k) => w === word && !used.has(k));
    used.add(n);
    return n;
  });
}

/** softmax(TEMPERATURE · cos(x_i, x_j)) over n rows of d: { weights (n × n), out (n × d) }, in double. */
export function cosineAttention(x, n, d) {
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += x[i * d + k] * x[i * d + k];
    norms[i] = Math.sqrt(s) || 1;
  }
  const weights = new Float64Array(n * n);
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += x[i * d + k] * x[j * d + k];
      weights[i * n + j] = (TEMPERATURE * dot) / (norms[i] * norms[j]);
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

/** Rows and columns of an n × n matrix picked by order: result[i][j] = m[order[i]][order[j]]. */
export function reorder(m, order) {
  const n = order.length;
  const r = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) r[i * n + j] = m[order[i] * n + order[j]];
  return r;
}

let kept = { d: 0, runs: null }; // the last d's word vectors and attention without position

/**
 * Each sentence's word vectors at d and their attention without position: the same for every base, so a drag of T
 * recomputes only the attention with the encoding added (at d = 2048 the rest was half of each frame's work).
 */
function wordsAt(d) {
  if (kept.d !== d) {
    const runs = SENTENCES.map((sentence) => {
      const n = sentence.length;
      const x = new Float32Array(n * d);
      sentence.forEach((w, r) => x.set(toyEmbedding(w, d), r * d));
      return { words: sentence, n, x, plain: cosineAttention(x, n, d) };
    });
    kept = { d, runs };
  }
  return kept.runs;
}

const largestGap = (a, b) => a.reduce((g, v, k) => Math.max(g, Math.abs(v - b[k])), 0);

/**
 * Both sentences' attention at d and base: without position (the word vectors,
 * normal with variance 1/d) and with the encoding added to them (unscaled, so at
 * every d it outweighs the toy words by the same margin). B's matrices are also
 * given in A's word order (bInA), so the two compare cell by cell; gap is the
 * largest |A − B in A's order| of each pair, outGap the largest difference of
 * the word `dog`'s output.
 */
export function whyAttention(d, base) {
  const order = wordOrder(SENTENCES[0], SENTENCES[1]);
  const runs = wordsAt(d).map(({ words, n, x, plain }) => {
    const placed = cosineAttention(addSinusoidal(x.slice(), { length: n, dim: d, base }), n, d);
    return { words, plain, placed };
  });
  const [a, b] = runs;
  const dogA = SENTENCES[0].indexOf('dog');
  const dogB = SENTENCES[1].indexOf('dog');
  const outGap = (ra, rb) => {
    let gap = 0;
    for (let k = 0; k < d; k++) gap = Math.max(gap, Math.abs(ra.out[dogA * d + k] - rb.out[dogB * d + k]));
    return gap;
  };
  const without = { a: a.plain.weights, bInA: reorder(b.plain.weights, order) };
  const withPe = { a: a.placed.weights, bInA: reorder(b.placed.weights, order) };
  return {
    words: SENTENCES,
    order,
    without: { ...without, gap: largestGap(without.a, without.bInA), outGap: outGap(a.plain, b.plain) },
    with: { ...withPe, gap: largestGap(withPe.a, withPe.bInA), outGap: outGap(a.placed, b.placed) },
  };
}
