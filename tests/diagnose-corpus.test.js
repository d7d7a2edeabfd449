// identify() on the corpus made by the peers' own code: tests/fixtures/identify-peers/*.npy, written by
// make_corpus.py with Debian's PyTorch and numpy (the versions are in index.json's header). Every file is
// read as a user holds it (the .npy as saved) and must be identified with its convention, first position,
// recipe and scaling in HF's names, and never be called learned or random. The files the core does not
// identify yet are listed in known-misses.json with the state seen ("miss": sinusoidal but not identified
// or wrong; "open": right in every fact the cells fix, with LongRoPE factors they leave open given as ranges
// that hold the truth; "not-sinusoidal": the verdict the issue forbids, still open): each must still be in that state,
// so a fix (or a regression) shows here and moves it. Prints the confusion table (truth x verdict).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { init, identify, readNpy } from '../src/js/index.js';

const DIR = new URL('./fixtures/identify-peers/', import.meta.url);
const INDEX = JSON.parse(readFileSync(new URL('index.json', DIR), 'utf8'));

// Not identified today (issue 24, left open): file -> "miss" or "not-sinusoidal".
const KNOWN_MISSES = new Map(Object.entries(JSON.parse(readFileSync(new URL('known-misses.json', DIR), 'utf8'))));

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
 * goes to open, the list of factors the cells do not fix.
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
      if (!ok) out.push(`${key} ${Array.isArray(value) ? '[..]' : value}`);
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

const family = (t) =>
  t.kind === 'cos-sin'
    ? `HF ${t.hf ? t.hf.rope_type : 'default'} ${t.cache} ${t.storage}`
    : t.file.replace(/-\d+(-noise|-transposed)?\.npy$/, '$1').replace(/-\d+x\d+\.npy$/, '');
const verdictClass = (t, r, wrong, open) =>
  !r.sinusoidal
    ? 'NOT SINUSOIDAL'
    : wrong.length === 0
      ? open.length
        ? 'right, factors open'
        : 'right'
      : !r.identified
        ? `nearest ${r.ropeScaling ? r.ropeScaling.rope_type : r.kind}`
        : `wrong: ${wrong[0].split(' ')[0]}`;

const table = new Map();
const states = {}; // file -> state, written to $POSENC_MISSES_OUT when set (to renew known-misses.json)

test.before(async () => {
  await init();
  console.log(`diagnose-corpus: ${INDEX.files.length} files by ${INDEX.generator} (torch ${INDEX.torch})`);
});

for (const t of INDEX.files) {
  test(`identifies ${t.file}`, () => {
    const { table: cells, rows, dim } = readNpy(readFileSync(new URL(t.file, DIR)));
    const r = identify(cells, { rows, dim });
    const open = [];
    const wrong = problems(t, r, open);
    const key = family(t);
    const row = table.get(key) ?? new Map();
    const cls = verdictClass(t, r, wrong, open);
    row.set(cls, (row.get(cls) ?? 0) + 1);
    table.set(key, row);
    // "open": right in every fact the cells fix, with the LongRoPE factors they leave open said as ranges
    const state = !r.sinusoidal ? 'not-sinusoidal' : wrong.length ? 'miss' : open.length ? 'open' : 'right';
    if (state === 'open') assert.match(r.verdict, /factors not fixed by these rows/, t.file);
    if (state !== 'right') states[t.file] = state;
    const known = KNOWN_MISSES.get(t.file);
    if (known === undefined) {
      assert.ok(r.sinusoidal, `${t.file}: a sinusoidal table called not sinusoidal: ${r.verdict}`);
      assert.equal(wrong, [], `${t.file}: ${wrong.join('; ')}: ${r.verdict}`);
    } else {
      assert.is(state, known, `${t.file} is ${state} now (known-misses.json says ${known}): ${r.verdict}`);
    }
  });
}

test('prints the confusion table (truth x verdict)', () => {
  const classes = [...new Set([...table.values()].flatMap((row) => [...row.keys()]))].sort();
  const width = Math.max(...[...table.keys()].map((k) => k.length));
  console.log(`\n${'truth'.padEnd(width)} | ${classes.join(' | ')}`);
  for (const [key, row] of table)
    console.log(
      `${key.padEnd(width)} | ${classes.map((c) => String(row.get(c) ?? '').padStart(c.length)).join(' | ')}`,
    );
  const right = [...table.values()].reduce((n, row) => n + (row.get('right') ?? 0), 0);
  console.log(`right ${right} of ${INDEX.files.length}; known misses ${KNOWN_MISSES.size}`);
  if (process.env.POSENC_MISSES_OUT)
    writeFileSync(process.env.POSENC_MISSES_OUT, JSON.stringify(states, null, 2) + '\n');
  assert.is(right + KNOWN_MISSES.size, INDEX.files.length);
});

test.run();
