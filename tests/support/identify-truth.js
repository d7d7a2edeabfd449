// What an identify() verdict gets wrong against a peer-made file's truth (index.json's entries, written by
// tests/fixtures/identify-peers/make_corpus.py and tests/support/identify-sweep.py), and the confusion-table class
// it falls in. Shared by tests/diagnose-corpus.test.js, tests/diagnose-sweep.test.js and identify-sweep.js.

const HF_KEYS = [
  'factor',
  'original_max_position_embeddings',
  'attention_factor',
  'low_freq_factor',
  'high_freq_factor',
  'short_factor',
  'long_factor',
];

/**
 * What is wrong with verdict r against truth t: a list of short phrases, empty when right. A LongRoPE factor the
 * verdict leaves open (null, with its range in pairFactorRanges) is not wrong when its range holds the truth: it
 * goes to open, the list of factors the cells do not fix; so does a YaRN or Llama 3 factor tied with another
 * (factorTied) when either is the truth.
 */
export function problems(t, r, open = []) {
  const out = [];
  if (!r.identified) out.push('not identified');
  if (t.kind === 'cos-sin') {
    if (r.kind !== 'cos-sin') out.push(`kind ${r.kind}`);
    else {
      if (r.cache !== t.cache) out.push(`cache ${r.cache}`);
      if (r.layout !== t.layout) out.push(`layout ${r.layout}`);
    }
  } else {
    for (const key of ['layout', 'cosFirst', 'frequencies']) if (r[key] !== t[key]) out.push(`${key} ${r[key]}`);
    if (t.grid && !(r.gridHeight === t.grid[0] && r.gridWidth === t.grid[1])) out.push('grid');
  }
  if (r.offset !== t.offset) out.push(`first position ${r.offset}`);
  if (t.storage && r.storage !== t.storage) out.push(`storage ${r.storage}`);
  if (t.recipe && r.recipe !== t.recipe && r.recipeTied !== t.recipe) out.push(`recipe ${r.recipe}`);
  if (Boolean(t.transposed) !== Boolean(r.transposed)) out.push('transposed');
  const type = t.hf ? t.hf.rope_type : 'none';
  const got = r.ropeScaling ? r.ropeScaling.rope_type : 'none';
  if (got !== type) out.push(`scaling ${got}`);
  else if (t.hf && type !== 'dynamic') {
    for (const key of HF_KEYS) {
      const want = t.hf[key];
      if (want === undefined) continue;
      // short_factor or long_factor: rows within the first original_max_position_embeddings positions may be
      // either list's (HF picks by the length the cache was built for), and then the verdict names neither
      const either = /^(short|long)_factor$/.test(key) && t.offset + r.rows <= t.hf.original_max_position_embeddings;
      // rows past original_max_position_embeddings are long_factor's in HF (the list it takes for a cache built
      // that far), whichever key the corpus's list came from
      const past = /^(short|long)_factor$/.test(key) && !either;
      const value =
        (past ? r.ropeScaling.long_factor : r.ropeScaling[key]) ??
        (key === 'attention_factor' ? 1 : either ? r.ropeScaling.factors : undefined);
      const close = (a, b) => typeof a === 'number' && Math.abs(a - b) <= 1e-4 * Math.abs(b);
      const inRange = (k, x) => {
        const [lo, hi] = r.pairFactorRanges?.[k] ?? [];
        return lo <= x * (1 + 2e-5) && (hi === null || x <= hi * (1 + 2e-5));
      };
      const ok = Array.isArray(want)
        ? Array.isArray(value) &&
          value.length === want.length &&
          want.every((x, k) => close(value[k], Math.fround(x)) || (value[k] === null && inRange(k, Math.fround(x))))
        : close(value, want);
      if (ok && Array.isArray(want)) open.push(...value.flatMap((x, k) => (x === null ? [k] : [])));
      // a factor the verdict says the cells leave open between two values (factorTied), the truth one of them
      const tied = key === 'factor' && r.factorTied > 0 && (ok || close(r.factorTied, want));
      if (tied) open.push('factor');
      else if (!ok) out.push(`${key} ${Array.isArray(value) ? '[..]' : value}`);
    }
  } else if (type === 'dynamic') {
    // seq_len / original and factor are one relation (alpha - 1 = factor (seq_len / original - 1)): either set
    const alpha = t.hf.factor * (t.hf.seq_len / t.hf.original_max_position_embeddings) - t.hf.factor + 1;
    if (!(Math.abs(r.dynamicAlpha - alpha) < 1e-4 * alpha)) out.push(`alpha ${r.dynamicAlpha}`);
  }
  if (type !== 'dynamic' && !(Math.abs(r.base - t.base) <= 5e-6 * t.base) && type !== 'longrope')
    out.push(`base ${r.base}`);
  return out;
}

export const family = (t) =>
  t.kind === 'cos-sin'
    ? `HF ${t.hf ? t.hf.rope_type : 'default'} ${t.cache} ${t.storage}`
    : t.file.replace(/-\d+(-noise|-transposed)?\.npy$/, '$1').replace(/-\d+x\d+\.npy$/, '');
export const verdictClass = (t, r, wrong, open) =>
  !r.sinusoidal
    ? 'NOT SINUSOIDAL'
    : wrong.length === 0
      ? open.length
        ? 'right, factors open'
        : 'right'
      : !r.identified
        ? `nearest ${r.ropeScaling ? r.ropeScaling.rope_type : r.kind}`
        : `wrong: ${wrong[0].split(' ')[0]}`;
