// identify() on tables and caches that do not start at position 0, as a user
// holds them: a window of a longer table, a cache sliced at decode time
// (tests/support/diagnose-peers.js transcribes each peer; `start` is the first
// position). Each must be identified with its first position found exactly
// where the data determine it; where they do not (float32 angles past 2^20,
// where the angle's own rounding hides the position's last digits, or a
// scaled cache whose low frequencies hardly turn over its rows) the verdict
// must still never call the table learned or random, and must say what was
// searched. Also the verdicts that must never be a match: a constant table,
// random tables. Prints the confusion table (truth vs verdict) and the times.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, identify, sinusoidal } from '../src/js/index.js';
import * as peers from './support/diagnose-peers.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
const random = generator(seed);
const TOP = 2 ** 31 - 256; // the last window of 256 rows below 2^31
// float32 tables read exactly (diag_exact.c) wherever float32 holds the positions: the last window below 2^24
const F32_EXACT_TOP = 2 ** 24 - 256;

// [name, make(start), dim, truth, starts the method must read exactly]
const ROWS = 256;
const SOURCES = [
  [
    'posenc exact (float64 angles)',
    (s) => sinusoidal({ length: ROWS, dim: 128, offset: s }),
    { layout: 'interleaved', frequencies: 'paper', recipe: 'exact' },
    [0, 1, 100, 65536, 100000, 1e6, TOP],
  ],
  [
    'HF Marian (numpy f64)',
    (s) => peers.marian(ROWS, 128, s),
    { layout: 'split', frequencies: 'paper', recipe: 'exact' },
    [0, 1, 100, 65536, 100000, 1e6],
  ],
  [
    'PyTorch tutorial f32',
    (s) => peers.tutorial(ROWS, 128, 10000, s),
    { layout: 'interleaved', frequencies: 'paper', recipe: 'float32-angle-exp' },
    [0, 1, 100, 1000, 5000, 30000, 65536, 100000, 1e6, F32_EXACT_TOP],
  ],
  [
    'tensor2tensor start_index',
    (s) => peers.tensor2tensor(ROWS, 128, s),
    { layout: 'split', frequencies: 'tensor2tensor', recipe: 'float32-angle-exp' },
    [0, 1, 100, 65536, 100000, 1e6, F32_EXACT_TOP],
  ],
  [
    'Keras SinePositionEncoding f32',
    (s) => peers.keras(ROWS, 128, 'float32', s),
    { layout: 'interleaved', frequencies: 'paper', recipe: 'float32-angle-keras' },
    [0, 1, 100, 65536, 100000, 1e6, F32_EXACT_TOP],
  ],
  [
    'GPT-J embed_positions',
    (s) => peers.gptjPositions(ROWS, 128, s),
    { layout: 'split', frequencies: 'paper', recipe: 'float32-angle-hf' },
    [0, 1, 100, 65536, 100000, 1e6, F32_EXACT_TOP],
  ],
  [
    'GPT-J cos (repeat_interleave)',
    (s) => peers.gptjCosCache(ROWS, 128, s),
    { kind: 'cos-sin', cache: 'cos', layout: 'neighbours', frequencies: 'paper', recipe: 'float32-angle-hf' },
    [0, 1, 100, 65536, 100000],
  ],
  [
    'HF Llama cos f32',
    (s) => peers.llamaCache(ROWS, 128, { start: s }),
    { kind: 'cos-sin', cache: 'cos', frequencies: 'paper', recipe: 'float32-angle-hf' },
    [0, 1, 100, 65536, 100000],
  ],
  [
    'HF Llama sin f32',
    (s) => peers.llamaCache(ROWS, 128, { start: s, fn: 'sin' }),
    { kind: 'cos-sin', cache: 'sin', frequencies: 'paper', recipe: 'float32-angle-hf' },
    [0, 1, 100, 65536, 100000],
  ],
];
// Starts beyond what the method reads exactly today: each is printed, and must not be called learned or random
// (float32 tables past 2^24, where float32 rounds the positions themselves and rows repeat).
const BEYOND = [TOP];
const BEYOND_CACHES = [
  ['HF Llama cos bf16 theta 5e5', (s) => peers.llamaCache(ROWS, 128, { start: s, base: 500000, dtype: 'bfloat16' })],
  [
    'HF YaRN x4 cos f32',
    (s) => peers.llamaCache(ROWS, 128, { start: s, scaling: { type: 'yarn', factor: 4, original: 2048 } }),
  ],
];

const rows = [];
const label = (r) =>
  r.identified
    ? `${r.kind === 'cos-sin' ? r.cache : r.layout} ${r.frequencies} T=${+r.base.toPrecision(6)} p0=${r.offset} ${r.recipe}`
    : r.sinusoidal
      ? `none (nearest p0=${+r.offset.toPrecision(8)})`
      : `none: ${r.verdict.slice(0, 60)}`;

test.before(async () => {
  await init();
  console.log(`diagnose-offsets: seed ${seed} (POSENC_SEED=${seed} replays)`);
});

for (const [name, make, truth, starts] of SOURCES) {
  test(`${name}: identified with its first position at ${starts.join(', ')}`, () => {
    for (const start of starts) {
      const t0 = performance.now();
      const r = identify(make(start), { dim: 128 });
      const ms = performance.now() - t0;
      rows.push([`${name} @${start}`, `p0=${start} ${truth.recipe}`, label(r), ms]);
      assert.ok(r.identified, `${name} @${start}: ${r.verdict}`);
      assert.ok(r.offsetKnown, `${name} @${start}: first position undetermined (${r.offset})`);
      assert.is(r.offset, start, `${name} @${start}: first position`);
      assert.ok(Math.abs(r.base - 10000) < 0.05, `${name} @${start}: base ${r.base}`);
      for (const key of Object.keys(truth)) assert.is(r[key], truth[key], `${name} @${start}: ${key} (${r.verdict})`);
    }
  });
}

test('beyond what the data determine: never learned or random, and the search is said', () => {
  const cases = [
    ...[SOURCES[2], SOURCES[4]].flatMap(([name, make]) => BEYOND.map((s) => [name, make, s])),
    ...BEYOND_CACHES.flatMap(([name, make]) => [1, 100, 100000, 1e6].map((s) => [name, make, s])),
  ];
  for (const [name, make, start] of cases) {
    const t0 = performance.now();
    const r = identify(make(start), { dim: 128 });
    rows.push([`${name} @${start}`, `p0=${start}`, label(r), performance.now() - t0]);
    assert.not.match(r.verdict, /learned or random/, `${name} @${start}: ${r.verdict}`);
    if (!r.identified) assert.match(r.verdict, /searched: first positions 0 to \d+/, `${name} @${start}`);
  }
});

test('a constant table and random tables are never a match', () => {
  const constant = new Float32Array(512 * 64).fill(0.5);
  const cases = [
    ['constant 0.5', constant],
    ['constant 1 (bfloat16 values)', new Float32Array(512 * 64).fill(1)],
    ['random uniform', peers.randomTable(512, 64, random)],
    ['learned-like', peers.learnedLike(512, 64, random)],
  ];
  for (const [name, t] of cases) {
    const r = identify(t, { rows: 512, dim: 64 });
    rows.push([name, 'none', label(r), 0]);
    assert.not.ok(r.identified, `${name}: ${r.verdict}`);
    assert.not.ok(r.sinusoidal, `${name}: read as sinusoids: ${r.verdict}`);
    assert.not.match(r.verdict, /structure of sinusoids/, `${name}: ${r.verdict}`);
  }
});

test('prints the confusion table', () => {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\n${'case'.padEnd(w0)} | ${'truth'.padEnd(w1)} | verdict (ms)`);
  for (const [name, truth, got, ms] of rows)
    console.log(`${name.padEnd(w0)} | ${truth.padEnd(w1)} | ${got} (${ms.toFixed(0)})`);
  assert.ok(rows.length > 40);
});

test.run();
