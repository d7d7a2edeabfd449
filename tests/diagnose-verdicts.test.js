// Verdicts that never mislead: sinusoidal tables whose parameters are far from
// the common ones (bases 7 and 1e9, odd dims, fairseq's zero column for an odd
// embedding_dim, first positions up to 2^31 - rows) are identified, or told
// apart as sinusoidal with what was searched; none is called "not sines and
// cosines". Tables: posenc's own exact ones (table at any offset) and the
// peers' (tests/support/table-peers.py).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, identify, sinusoidal } from '../src/js/index.js';
import { peerTables } from './support/table-peers.js';
import * as peers from './support/diagnose-peers.js';
import { generator } from './support/random.js';

test.before(async () => {
  await init();
});

const exact = (rows, dim, base, offset) => ({
  rows,
  dim,
  table: sinusoidal({ length: rows, dim, base, offset }),
});

const CASES = [
  ['base 7, dim 64', () => exact(512, 64, 7, 0)],
  ['base 1e9, dim 128', () => exact(512, 128, 1e9, 0)],
  ['base 7 at 1e6', () => exact(512, 64, 7, 1000000)],
  ['base 1e9 at 1e8', () => exact(512, 128, 1e9, 100000000)],
  ['dim 30 (not a multiple of 4)', () => exact(256, 30, 10000, 0)],
  ['dim 6 at 12345', () => exact(256, 6, 10000, 12345)],
  ['at 100000', () => exact(1024, 64, 10000, 100000)],
  ['at 2^31 - 512', () => exact(512, 64, 10000, 2 ** 31 - 512)],
];

test('exact tables at odd bases, odd dims and huge offsets: identified with their parameters', () => {
  const rows = [];
  let wrong = 0;
  for (const [name, make] of CASES) {
    const t = make();
    const r = identify(t.table, { rows: t.rows, dim: t.dim });
    const base = Number(name.match(/base ([0-9e.]+)/)?.[1] ?? 10000);
    const want = name.includes('2^31') ? 2 ** 31 - 512 : Number(name.match(/at ([0-9e.]+)/)?.[1] ?? 0);
    const ok = r.identified && Math.abs(r.base - base) <= 1e-6 * base && r.offset === want;
    wrong += !ok;
    rows.push(`  ${ok ? 'ok   ' : 'WRONG'} ${name}: ${r.verdict.slice(0, 160)}`);
    assert.not.match(r.verdict, /not sines and cosines/);
  }
  console.log(rows.join('\n'));
  assert.is(wrong, 0, `${wrong} of ${CASES.length} misread (above)`);
});

test("fairseq's odd embedding_dim (a zero column appended) is read past the zero column", () => {
  const { odd } = peerTables([{ name: 'odd', maker: 'fairseq_odd', args: [512, 65] }]);
  const r = identify(odd.table, { rows: odd.rows, dim: odd.dim });
  assert.ok(r.identified, r.verdict);
  assert.is(r.zeroLastColumns, 1);
  assert.is(r.frequencies, 'tensor2tensor');
  assert.match(r.text, /the last column is zeros/);
});

test('what was searched is said when nothing fits, and nothing sinusoidal is called random', () => {
  // one column of sines without its cosines: sinusoidal, but no pairing fits
  const rows = 256;
  const lone = Float32Array.from({ length: rows * 3 }, (_, k) => {
    const r = Math.floor(k / 3);
    const c = k % 3;
    return Math.fround(c === 0 ? Math.sin(r) : c === 1 ? Math.sin(r / 100) : Math.cos(r / 1000));
  });
  const r = identify(lone, { rows, dim: 3 });
  assert.not.ok(r.identified, r.verdict);
  assert.match(r.verdict, /searched: /);
  assert.not.match(r.verdict, /not sines and cosines/);
  // cells off every recipe in one of 97 (not noise spread evenly): nearest convention and the search, not "random"
  const t = exact(512, 64, 10000, 5000).table.map((v, k) => v + (k % 97 ? 0 : 3e-3));
  const n = identify(t, { rows: 512, dim: 64 });
  // base 1e9 near 2^31: past what the offset search settles today, but said to be sinusoidal, with the search
  const far = identify(exact(512, 64, 1e9, 2 ** 31 - 512).table, { rows: 512, dim: 64 });
  assert.ok(far.identified || /structure of sinusoids; searched: first positions 0 to/.test(far.verdict), far.verdict);
  assert.not.ok(n.identified, n.verdict);
  assert.match(n.verdict, /nearest: .*base 10000.*searched: first positions 0 to/);
});

// Noise wider than any recipe's rounding, spread evenly (Gaussian, 1e-4 and 1e-2 of the amplitude): the convention
// and first position are read and the verdict says noisy, with no recipe; fairseq's tensor2tensor frequencies under
// noise read as paper's at base 13500 too (three digits are round at that precision): the rounder base wins.
test('noisy tables: identified as noisy, with the convention and first position, no recipe', () => {
  const random = generator(24);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const t2t = (rows, dim, start) => {
    const half = dim / 2;
    const out = new Float32Array(rows * dim);
    for (let r = 0; r < rows; r++)
      for (let i = 0; i < half; i++) {
        const a = (start + r) * Math.exp((-i * Math.log(10000)) / (half - 1));
        out[r * dim + i] = Math.sin(a);
        out[r * dim + half + i] = Math.cos(a);
      }
    return out;
  };
  for (const sd of [1e-4, 1e-2])
    for (const [name, cells, rule] of [
      ['paper at 65537', exact(32, 64, 10000, 65537).table, 'paper'],
      ['tensor2tensor at 0', t2t(32, 64, 0), 'tensor2tensor'],
    ]) {
      const noisy = cells.map((v) => v + sd * gauss());
      const r = identify(noisy, { rows: 32, dim: 64 });
      const what = `${name}, sd ${sd}: ${r.verdict}`;
      assert.ok(r.identified, what);
      assert.is(r.recipe, 'unknown', what);
      assert.is(r.frequencies, rule, what);
      assert.is(r.base, 10000, what);
      assert.is(r.offset, name.endsWith('65537') ? 65537 : 0, what);
      assert.match(r.verdict, /noisy: the cells are the convention's plus noise of rms /, what);
    }
});

// A noisy cache's duplicated halves differ by their noise, not by a share of their energy: still halves duplicated
// (read as one column per frequency before, which sent every reading after it astray).
test('a noisy cos cache keeps its duplicated halves', () => {
  const random = generator(25);
  const cells = peers.llamaCache(32, 128, { base: 10000, fn: 'cos', dtype: 'float32', start: 100 });
  for (const sd of [1e-4, 1e-2]) {
    const r = identify(
      cells.map((v) => v + sd * (random.next() - 0.5) * Math.sqrt(12)),
      { rows: 32, dim: 128 },
    );
    assert.is(r.kind, 'cos-sin', r.verdict);
    assert.is(r.layout, 'halves', `sd ${sd}: ${r.verdict}`);
    assert.ok(r.sinusoidal, r.verdict);
  }
});

// A miss lists what was searched, in words and as facts: the first positions (to 2^31 - rows, the exact searches'
// range), the bases, layouts, recipes and RoPE scalings tried, and the reading nearest. A YaRN x4 bfloat16 cos cache
// at base 12345 (no rope_theta HF's sets hold) at first position 500000: a sinusoidal cache no reading explains.
test('a miss says what was searched: positions, bases, layouts, recipes, scalings, nearest', () => {
  const scaling = { type: 'yarn', factor: 4, original: 2048 };
  const cells = peers.llamaCache(32, 128, { base: 12345, scaling, fn: 'cos', dtype: 'bfloat16', start: 500000 });
  const r = identify(cells, { rows: 32, dim: 128 });
  assert.not.ok(r.identified, r.verdict);
  assert.ok(r.sinusoidal, r.verdict);
  assert.match(r.verdict, /^no known convention reproduces the cells; nearest: RoPE cos/);
  assert.match(r.verdict, /searched: first positions 0 to 2147483617\b/);
  for (const part of [
    /bases: any .*rope_theta 1e4, 5e4, 1e5, 5e5, 1e6, 5e6, 1e7/,
    /layouts: interleaved and split pairs .*cos\/sin caches/,
    /recipes: exact, numpy float64 angles, float32 angles/,
    /scalings: none and linear .*YaRN \(factors 2 to 128.*Llama 3 \(factors 2 to 32.*\d+ parameter sets read cell by cell/,
  ])
    assert.match(r.verdict, part);
  const s = r.searched;
  assert.is(s.positions, 2 ** 31 - 31);
  assert.ok(s.readings.includes('scaled') && s.readings.includes('phase-lines'), JSON.stringify(s));
  assert.ok(s.candidates > 0, JSON.stringify(s));
  assert.equal(s.bases, ['any', 10000, 50000, 100000, 500000, 1000000, 5000000, 10000000]);
  for (const layout of ['interleaved', 'split', 'cos-sin halves']) assert.ok(s.layouts.includes(layout), layout);
  for (const recipe of ['exact', 'float32-hf', 'bfloat16']) assert.ok(s.recipes.includes(recipe), recipe);
  for (const scaling of ['none', 'linear', 'yarn', 'llama3']) assert.ok(s.scalings.includes(scaling), scaling);
  // a table: no RoPE scaling is tried, and none is listed
  const t = identify(
    exact(512, 64, 10000, 5000).table.map((v, k) => v + (k % 97 ? 0 : 3e-3)),
    {
      rows: 512,
      dim: 64,
    },
  );
  assert.not.ok(t.identified, t.verdict);
  assert.match(t.verdict, /searched: first positions 0 to \d+.*; bases: any.*; layouts: .*; recipes: /);
  assert.not.match(t.verdict, /scalings: /);
  assert.equal(t.searched.scalings, []);
});

test('noise and random walks stay not sinusoidal under the loose column count', () => {
  // the loose count (a few slow columns fit) is for far-out float32 caches; tables of no sinusoid must fail it
  const random = generator(24);
  for (const rows of [16, 32, 128, 512])
    for (const kind of ['noise', 'walk']) {
      const dim = 64;
      const table = new Float32Array(rows * dim);
      for (let c = 0; c < dim; c++)
        for (let r = 0, x = 0; r < rows; r++) {
          x = kind === 'noise' ? random.next() - 0.5 : x + random.next() - 0.5;
          table[r * dim + c] = 0.02 * x;
        }
      const r = identify(table, { rows, dim });
      assert.not.ok(r.sinusoidal, `${kind} ${rows} rows: ${r.verdict}`);
    }
});

test('one exact sine column among noise is not sinusoidal', () => {
  // the loose count takes one column at the storage's precision for a far-out cache whose other columns float32
  // angles blurred: those swing to the common peak with a sinusoid's mean square; noise does not
  const random = generator(7);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const NOISE = {
    uniform: () => 2 * random.next() - 1,
    gaussian: () => 0.5 * gauss(),
    small: () => 0.01 * gauss(),
    'offset small': () => 0.5 + 0.01 * gauss(),
  };
  for (const rows of [16, 32, 128])
    for (const [kind, noise] of Object.entries(NOISE)) {
      const dim = 32;
      const table = new Float32Array(rows * dim);
      for (let r = 0; r < rows; r++) {
        table[r * dim] = Math.sin(0.3 * r + 1);
        for (let c = 1; c < dim; c++) table[r * dim + c] = noise();
      }
      const r = identify(table, { rows, dim });
      assert.not.ok(r.sinusoidal, `${kind} ${rows} rows: ${r.verdict}`);
    }
});

test('far-out caches of one column per frequency are sinusoidal, not learned or random', () => {
  // at 1.3e7 float32 angles blur the fast columns and past 2^24 rows repeat in runs: the strict and the loose
  // counts find too few turning columns that fit; the slow ones still follow the recurrence within their steps.
  // At HF's rope_theta the far reading (diag_far.c) identifies them; at base 12345 (no rope_theta of HF's list)
  // nothing does, and the verdict reads from the slow columns alone
  const single = (rows, dim, options) => {
    const halves = peers.llamaCache(rows, dim, options);
    return Float32Array.from(
      { length: (rows * dim) / 2 },
      (_, k) => halves[Math.floor(k / (dim / 2)) * dim + (k % (dim / 2))],
    );
  };
  let slowOnly = 0;
  const OPTIONS = [
    {},
    { scaling: { type: 'linear', factor: 4 } },
    { scaling: { type: 'yarn', factor: 16, original: 4096, attention: 1 } },
    { base: 12345 },
  ];
  for (const start of [13e6, 2 ** 24 + 3])
    for (const options of OPTIONS)
      for (const fn of ['cos', 'sin'])
        for (const dtype of ['float32', 'bfloat16']) {
          const r = identify(single(32, 128, { ...options, fn, start, dtype }), { rows: 32, dim: 64 });
          const what = `${fn} ${dtype} ${JSON.stringify(options)} @${start}: ${r.verdict}`;
          assert.ok(r.sinusoidal, what);
          assert.not.match(r.verdict, /learned or random|no two columns pair up/, what);
          assert.is(r.identified, !options.base, what);
          if (r.identified) {
            assert.is(r.offset, start, what);
            continue;
          }
          assert.match(r.verdict, /searched: first positions 0 to \d+/, what);
          // one column per frequency past 2^24 is still a RoPE cache, not "sines and cosines"
          if (start > 2 ** 24) assert.match(r.verdict, /^RoPE cos or sin cache of positions rounded to float32/, what);
          // only the slow columns sinusoids: the nearest reading's first position and error are no estimates, and
          // are not given
          if (!/only the slow columns follow sinusoids/.test(r.verdict)) continue;
          slowOnly++;
          assert.not.match(r.verdict, /undetermined \(about|first above 1e-6|: error /, what);
          // nor is the scaling: the JSON carries none of the nearest reading's scaling facts
          assert.is(r.scaling, 'unread', what);
          assert.is(r.ropeScaling, null, what);
          for (const key of ['factor', 'bandLow', 'bandHigh', 'attentionFactor'])
            assert.is(r[key], 0, `${key}: ${what}`);
        }
  assert.ok(slowOnly >= 2, `${slowOnly} verdicts read from the slow columns alone`);
});

test("Phi-3's short_factor far out, a list no shipped config carries: its two-decimal factors searched", () => {
  // far out only column 0 places the position, at inv_freq 1 / short_factor[0]: diag_far_longrope_search.c tries
  // each two-decimal factor of column 0, then every other column's at each first position column 0 leaves
  // (before it, these caches were not identified: "not read without a shipped list")
  const scaling = { ...peers.PHI3_MINI_128K, seqLen: 4096 };
  for (const [start, dtype] of [
    [13e6, 'float32'],
    [2 ** 24 + 3, 'bfloat16'],
  ]) {
    const r = identify(peers.llamaCache(32, 96, { scaling, start, dtype }), { rows: 32, dim: 96 });
    const what = `${dtype} @${start}: ${r.verdict}`;
    assert.ok(r.identified && r.offset === start && r.factorList === undefined, what);
    assert.ok(Math.abs(r.ropeScaling.attention_factor - 1.190238) < 1e-6, what);
    const got = r.ropeScaling.long_factor;
    scaling.short.forEach((value, k) => {
      const x = Math.round(value * 100) / 100; // the config's two decimals (the peer's list is float32-derived)
      const [lo, hi] = r.pairFactorRanges?.[k] ?? [got[k], got[k]];
      // float32 fixes every factor; bfloat16 leaves slow columns open over a range that holds the truth
      if (dtype === 'float32') assert.is(got[k], x, `${k}: ${what}`);
      else assert.ok(got[k] === x || (got[k] === null && lo <= x && x <= hi), `${k} ${lo}..${hi}: ${what}`);
    });
  }
});

test("the corpus's Phi-3 long_factor far out is OmniGen-v1's shipped list: read at it", () => {
  const scaling = { ...peers.PHI3_MINI_128K, seqLen: 131072 };
  for (const [start, dtype] of [
    [13e6, 'bfloat16'],
    [2 ** 24 + 3, 'float32'],
  ]) {
    const r = identify(peers.llamaCache(32, 96, { scaling, start, dtype }), { rows: 32, dim: 96 });
    const what = `${dtype} @${start}: ${r.verdict}`;
    assert.ok(r.identified && r.offset === start && r.factorList === 'OmniGen-v1 long_factor', what);
    assert.ok(
      r.ropeScaling.long_factor.every((x, k) => Math.abs(x - Math.fround(scaling.long[k])) < 1e-6 * x),
      what,
    );
  }
});

test("HF float32 caches past 2^24 (rows sharing a float32 position): RoPE, base, the grid's range, the search", () => {
  // LlamaRotaryEmbedding takes position_ids.float(): past 2^24 consecutive positions round to one float32
  // multiple of 2^k, so rows repeat in runs; no whole first position reproduces them
  const CASES = [
    // first position, rows, dim, the float32 grid's range of first positions, base read
    [2 ** 24 + 3, 2048, 128, '16777216 to 33554431', true],
    [9e8, 2048, 128, '536870912 to 1073741823', true],
    [9e8, 256, 128, '536870912 to 1073741823', false],
    [9e8, 32, 64, '268435456 or past', false], // two runs: a lower bound only
  ];
  for (const [start, rows, dim, range, baseRead] of CASES)
    for (const fn of ['cos', 'sin']) {
      const r = identify(peers.llamaCache(rows, dim, { fn, start }), { rows, dim });
      const what = `${fn} @${start} ${rows}x${dim}: ${r.verdict}`;
      assert.not.ok(r.identified && r.offset !== start, what); // never a wrong first position
      if (r.identified) continue;
      assert.not.match(r.verdict, /not sines and cosines|no two columns pair up|no known convention/, what);
      assert.match(r.verdict, /RoPE cos or sin cache .*HF's RoPE recipe: position_ids\.float\(\)/, what);
      assert.match(r.verdict, /known only to the float32 grid/, what);
      assert.ok(r.verdict.includes(`first position ${range}`), what);
      if (baseRead) assert.match(r.verdict, /base 10000 /, what);
      assert.match(r.verdict, /searched: (first positions 0 to [1-9]|no first position \(no reading placed)/, what);
      // the grid's facts by name; where two whole runs or more show, the runs' breaks fix the first position
      // modulo twice the step (a run of 2^k + 1 rows is centred on an even mantissa), and the grid points'
      // columns (8 at least) show the sinusoids
      assert.ok(r.positionGrid >= 2 && r.distinctRows >= 1, what);
      const whole = range.includes(' to ');
      assert.is(r.positionGridWhole, whole, what);
      assert.is(r.positionGridPhase, whole ? start % (2 * r.positionGrid) : -1, what);
      if (whole) assert.ok(r.verdict.includes(`and ${start % (2 * r.positionGrid)} modulo ${2 * r.positionGrid}`));
      if (r.distinctRows >= 8) assert.ok(r.sinusoidal, what);
    }
});

test('HF linear caches past 2^24: read at the grid points, identified with the exact first position', () => {
  // one row a run, at the float32 grid's points, is a cache of inv_freq times the step at whole positions; the
  // row at the first point fixes the first position (the whole reading does not identify these)
  for (const factor of [2, 4])
    for (const fn of ['cos', 'sin']) {
      const start = 2 ** 24 + 3;
      const r = identify(peers.llamaCache(64, 128, { fn, start, scaling: { type: 'linear', factor } }), {
        rows: 64,
        dim: 128,
      });
      const what = `linear ${factor} ${fn}: ${r.verdict}`;
      assert.ok(r.identified, what);
      assert.is(r.offset, start, what);
      assert.is(r.ropeScaling?.rope_type, 'linear', what);
      assert.is(r.ropeScaling?.factor, factor, what);
      assert.is(r.base, 10000, what);
      assert.is(r.positionGrid, 2, what);
    }
});

test("Marian's table (float64 pow) in few rows far out: exact and numpy's recipe both said, neither alone", () => {
  // in 16 rows at 1.3e7 exact values leave one cell of 1,024 more than an ulp off, numpy's exp angles none: neither
  // recipe is Marian's to the bit, and one cell does not tell them apart (issue 24; numpy alone was named)
  for (const rows of [16, 32]) {
    const r = identify(peers.marian(rows, 64, 13000000), { rows, dim: 64 });
    assert.ok(r.identified, r.verdict);
    assert.equal([r.recipe, r.recipeTied].sort(), ['exact', 'float64-numpy'], `${rows} rows: ${r.verdict}`);
    assert.ok(r.verdict.includes('these rows do not tell'), r.verdict);
  }
  // a recipe that gives every cell bit for bit is told apart by any lag: posenc's exact table far out
  const far = identify(sinusoidal({ length: 16, dim: 64, offset: 13000000 }), { rows: 16, dim: 64 });
  assert.equal([far.recipe, far.recipeTied], ['exact', ''], far.verdict);
});

test('a LongRoPE cache of 8 rows from 0: slow pairs whose columns never leave 1 are open, not factor 0', () => {
  // cos of under 1e-4 rad is 1 in float32: the fit reads no frequency there, and any factor from some bound up
  // gives the cells (issue 24: pairs 45-47 were stated as factor 0, a list no config holds)
  const scaling = { ...peers.PHI3_MINI_128K, seqLen: 4096 };
  const r = identify(peers.llamaCache(8, 96, { scaling, fn: 'cos' }), { rows: 8, dim: 96 });
  assert.ok(r.identified, r.verdict);
  const list = r.ropeScaling.factors ?? r.ropeScaling.short_factor;
  const off = [];
  list.forEach((x, k) => {
    const want = Math.fround(scaling.short[k]);
    const [lo, hi] = r.pairFactorRanges[k];
    const ok = x === null ? lo <= want && (hi === null || want <= hi) : Math.abs(x - want) <= 1e-4 * want;
    if (!ok) off.push(`${k}: ${x} [${lo}, ${hi}] for ${want}`);
  });
  assert.equal(off, []);
  assert.equal(r.pairFactorRanges[47].slice(1), [null], JSON.stringify(r.pairFactorRanges[47]));
});

test.run();
