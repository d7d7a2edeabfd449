// Deterministic toy word embeddings: a word's vector is drawn from a generator
// seeded by a hash of the word, so the same word always gets the same vector
// (in every browser, on every load) without any model weights.

/** Lower-cased words: letters, digits and apostrophes; at most 48 of them. */
export function tokenize(sentence) {
  return (
    String(sentence)
      .toLowerCase()
      .match(/[\p{L}\p{N}']+/gu) ?? []
  ).slice(0, 48);
}

/** FNV-1a over the word's UTF-16 code units: a stable 32-bit seed. */
export function hashWord(word) {
  let h = 0x811c9dc5;
  for (let n = 0; n < word.length; n++) {
    h ^= word.charCodeAt(n);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, well-mixed 32-bit generator; returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The word's d values, normal with variance 1/d (Box–Muller), the size of a
 * freshly initialised embedding: scaled by √d it becomes comparable to PE.
 */
export function toyEmbedding(word, d) {
  const next = mulberry32(hashWord(word));
  const out = new Float32Array(d);
  const sigma = 1 / Math.sqrt(d);
  for (let j = 0; j < d; j += 2) {
    const u = 1 - next();
    const v = next();
    const radius = Math.sqrt(-2 * Math.log(u)) * sigma;
    out[j] = radius * Math.cos(2 * Math.PI * v);
    if (j + 1 < d) out[j + 1] = radius * Math.sin(2 * Math.PI * v);
  }
  return out;
}

/** Cosine similarity of two equal-length vectors, in double. */
export function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let j = 0; j < a.length; j++) {
    dot += a[j] * b[j];
    na += a[j] * a[j];
    nb += b[j] * b[j];
  }
  return dot / Math.sqrt(na * nb);
}
