// identify() on YaRN and Llama 3 cos/sin caches that start far from position 0 (issue 24): caches made by HF's
// float32 steps as transcribed in tests/support/diagnose-peers.js (nothing there calls posenc), sliced at a
// first position chosen at random (seed printed), a few dozen rows as a decode-time slice holds. Each must be
// identified with its first position and the rope_scaling HF needs to regenerate it. Prints the CPU time of
// 8192 x 1024 tables and caches at several first positions (measured, not asserted: the machine is shared).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, identify } from '../src/js/index.js';
import * as peers from './support/diagnose-peers.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
const random = generator(seed);

const YARN = { type: 'yarn', factor: 4, original: 2048 };
const LLAMA3 = { type: 'llama3', factor: 8, original: 8192 };
const CASES = [
  ['YaRN x4 f32 sin', 10000, YARN, 'sin', 'float32', { factor: 4, original_max_position_embeddings: 2048 }],
  ['YaRN x4 bf16 cos', 10000, YARN, 'cos', 'bfloat16', { factor: 4, original_max_position_embeddings: 2048 }],
  ['Llama 3 f32 cos', 500000, LLAMA3, 'cos', 'float32', { factor: 8, original_max_position_embeddings: 8192 }],
  ['Llama 3 f16 sin', 500000, LLAMA3, 'sin', 'float16', { factor: 8, low_freq_factor: 1, high_freq_factor: 4 }],
];

test.before(async () => {
  await init();
  console.log(`diagnose-scaled: seed ${seed} (POSENC_SEED to replay)`);
});

for (const [name, base, scaling, fn, dtype, hf] of CASES) {
  test(`${name} at a far first position`, () => {
    // first positions from 10^5 to 1.1 x 10^6, which the phase lines cannot read (float32 angles 0.03 rad off at
    // 10^6). Past 2^24 HF's float32 position_ids repeat rows (p and p + 1 round alike), which no reading takes
    // for a sinusoid of the row yet (issue 24, left open)
    const start = Math.floor(1e5 + random.next() * 1e6);
    const cells = peers.llamaCache(32, 128, { base, scaling, fn, dtype, start });
    const r = identify(cells, { rows: 32, dim: 128 });
    const where = `${name} at ${start}: ${r.verdict}`;
    assert.ok(r.identified, where);
    assert.is(r.kind, 'cos-sin', where);
    assert.is(r.cache, fn, where);
    assert.is(r.offset, start, where);
    assert.is(r.base, base, where);
    assert.is(r.ropeScaling?.rope_type, scaling.type, where);
    for (const [key, want] of Object.entries(hf)) assert.is(r.ropeScaling[key], want, `${key}: ${where}`);
    if (scaling.type === 'yarn')
      assert.ok(Math.abs(r.ropeScaling.attention_factor - (0.1 * Math.log(4) + 1)) < 1e-6, where);
  });
}

// Linear caches far out, 32 rows: the columns' recurrences read the base loosely (a bfloat16 cache at factor 4:
// 10^4 as 8.6e3 +- 41%; the slow columns hardly turn over the rows), and it snapped to the nearest round number
// (9e3), which the cells refuse. The common rope_theta near it are read cell by cell too. These first positions
// were missed before that (a seeded sweep of 144 linear caches, factors 2/4/8, bases 1e4/5e5, f32/f16/bf16: 129
// right before, 144 after); each must come back with its first position, base and factor.
const LINEAR_MISSES = [
  ['bfloat16', 10000, 8, 'cos', 207910],
  ['bfloat16', 500000, 8, 'sin', 113940],
  ['bfloat16', 500000, 8, 'cos', 935590],
  ['float16', 10000, 4, 'sin', 1065589],
  ['float16', 10000, 8, 'cos', 867352],
  ['float32', 10000, 8, 'cos', 872008],
  ['float32', 500000, 8, 'cos', 983877],
];
test('linear caches far out whose base the recurrences read loosely', () => {
  for (const [dtype, base, factor, fn, start] of LINEAR_MISSES) {
    const cells = peers.llamaCache(32, 128, { base, scaling: { type: 'linear', factor }, fn, dtype, start });
    const r = identify(cells, { rows: 32, dim: 128 });
    const where = `${dtype} ${base} x${factor} ${fn} at ${start}: ${r.verdict}`;
    assert.ok(r.identified, where);
    assert.is(r.cache, fn, where);
    assert.is(r.offset, start, where);
    assert.is(r.base, base, where);
    assert.is(r.ropeScaling?.rope_type, 'linear', where);
    assert.is(r.ropeScaling.factor, factor, where);
  }
});

// The YaRN x4 bfloat16 cos caches the lead's seeded sweep (session 35) found unread, 11 of 40 first positions in
// [1e5, 1.1e6): the exact search spent its budget on candidates at YaRN factors the cells' peak rules out and on
// the same slow pairs once per context. Each must be identified with its first position, base and factor.
const YARN_BF16_MISSES = [779461, 773123, 272698, 437741, 893896, 679871, 308948, 887573, 211338, 570387, 519268];
test('YaRN x4 bf16 cos at the 11 first positions the lead found unread', () => {
  for (const start of YARN_BF16_MISSES) {
    const cells = peers.llamaCache(32, 128, { base: 10000, scaling: YARN, fn: 'cos', dtype: 'bfloat16', start });
    const r = identify(cells, { rows: 32, dim: 128 });
    const where = `${start}: ${r.verdict}`;
    assert.ok(r.identified, where);
    assert.is(r.cache, 'cos', where);
    assert.is(r.offset, start, where);
    assert.is(r.base, 10000, where);
    assert.is(r.ropeScaling?.rope_type, 'yarn', where);
    assert.is(r.ropeScaling.factor, 4, where);
    assert.is(r.ropeScaling.original_max_position_embeddings, 2048, where);
  }
});

// A YaRN cache from position 0 of few rows: its slow columns hardly turn, so frequencies fitted to the cells
// describe only the fast ones (a fit once gave factor 5.71 and beta_fast 16 for DeepSeek-V3's factor 40 with full
// confidence); HF's parameter sets read cell by cell decide, and no fitted reading overrules them.
const FROM_ZERO = [
  ['DeepSeek-V3 YaRN x40 f32 cos', 64, { type: 'yarn', factor: 40, original: 4096, attention: 1 }, 'cos', 'float32'],
  ['DeepSeek-V3 YaRN x40 f32 sin', 64, { type: 'yarn', factor: 40, original: 4096, attention: 1 }, 'sin', 'float32'],
  ['YaRN x16 f32 cos', 128, { type: 'yarn', factor: 16, original: 4096 }, 'cos', 'float32'],
];
for (const [name, dim, scaling, fn, dtype] of FROM_ZERO) {
  test(`${name} from position 0: HF's factor, never a fitted one`, () => {
    const cells = peers.llamaCache(32, dim, { base: 10000, scaling, fn, dtype, start: 0 });
    const r = identify(cells, { rows: 32, dim });
    const where = `${name}: ${r.verdict}`;
    assert.ok(r.identified, where);
    assert.is(r.offset, 0, where);
    assert.is(r.ropeScaling?.rope_type, 'yarn', where);
    assert.is(r.ropeScaling.factor, scaling.factor, where);
    assert.is(r.ropeScaling.original_max_position_embeddings, scaling.original, where);
    assert.is(r.ropeScaling.beta_fast, 32, where);
    const attention = scaling.attention ?? 0.1 * Math.log(scaling.factor) + 1;
    assert.ok(Math.abs(r.ropeScaling.attention_factor - attention) < 1e-6, where);
  });
}

// HF's dynamic NTK: a forward pass past max_position_embeddings rebuilds inv_freq at base rope_theta
// alpha^(d/(d-2)), alpha = factor seq_len / original - factor + 1. The cells fix alpha (not factor, original and
// seq_len apart): each cache must be identified as dynamic with its alpha and first position. Not yet: an alpha
// off the coarse grid from 32 rows (x4 at seq_len 5000 of 4096, alpha 1 + 113/128: the base read from the
// recurrences is 5% loose there, so the candidates near it miss; issue 24, left open).
const DYNAMIC = [
  ['x2 at 4096 of 2048 (alpha 3) f32 sin', { factor: 2, original: 2048, seqLen: 4096 }, 'sin', 'float32'],
  ['x2 at 4096 of 2048 (alpha 3) bf16 cos', { factor: 2, original: 2048, seqLen: 4096 }, 'cos', 'bfloat16'],
  ['x4 at 6144 of 4096 (alpha 3) f16 cos', { factor: 4, original: 4096, seqLen: 6144 }, 'cos', 'float16'],
];
for (const [name, params, fn, dtype] of DYNAMIC) {
  test(`dynamic NTK ${name} at a far first position`, () => {
    const start = Math.floor(random.next() * 1.1e6);
    const scaling = { type: 'dynamic', ...params };
    const cells = peers.llamaCache(32, 128, { base: 10000, scaling, fn, dtype, start });
    const r = identify(cells, { rows: 32, dim: 128 });
    const where = `${name} at ${start}: ${r.verdict}`;
    const alpha = (params.factor * params.seqLen) / params.original - params.factor + 1;
    assert.ok(r.identified, where);
    assert.is(r.cache, fn, where);
    assert.is(r.offset, start, where);
    assert.is(r.ropeScaling?.rope_type, 'dynamic', where);
    assert.is(r.ropeScaling.rope_theta, 10000, where);
    assert.is(r.dynamicAlpha, alpha, where);
  });
}

// LongRoPE's amplitude sqrt(1 + ln factor / ln original) gives factor and original as powers of two; a float16
// cache holds the amplitude only to half its ulp (5e-4), which must not lose them.
test('Phi-3 LongRoPE f16 sin from position 0: factor and original from the amplitude', () => {
  const scaling = { ...peers.PHI3_MINI_128K, seqLen: 8192 };
  const cells = peers.llamaCache(32, 96, { base: 10000, scaling, fn: 'sin', dtype: 'float16' });
  const r = identify(cells, { rows: 32, dim: 96 });
  const where = r.verdict;
  assert.ok(r.identified, where);
  assert.is(r.ropeScaling?.rope_type, 'longrope', where);
  assert.is(r.ropeScaling.factor, 32, where);
  assert.is(r.ropeScaling.original_max_position_embeddings, 4096, where);
});

// A LongRoPE cache of 32 bfloat16 rows from position 0: its slow columns never leave A cos(0) to bfloat16's ulp, so
// any factor above a bound reproduces them (a fit once stated 0.04 to 2.46 for Phi-3's 2 to 2.95 with full
// confidence). Every factor stated must be the config's; every factor left open must have a range holding it.
for (const [name, fn, dtype, list] of [
  ['bf16 short cos', 'cos', 'bfloat16', 'short'],
  ['f16 long sin', 'sin', 'float16', 'long'],
]) {
  test(`Phi-3 LongRoPE ${name} from position 0, 32 rows: no factor the cells do not fix`, () => {
    const scaling = { ...peers.PHI3_MINI_128K, seqLen: list === 'long' ? 8192 : 4096 };
    const cells = peers.llamaCache(32, 96, { base: 10000, scaling, fn, dtype });
    const r = identify(cells, { rows: 32, dim: 96 });
    const where = r.verdict;
    assert.ok(r.identified, where);
    assert.is(r.offset, 0, where);
    assert.is(r.ropeScaling?.rope_type, 'longrope', where);
    // 32 rows from position 0 may be the start of a cache built with either list
    const got = r.ropeScaling.factors;
    assert.ok(Array.isArray(got) && got.length === 48, where);
    const want = peers.PHI3_MINI_128K[list].map(Math.fround);
    let open = 0;
    want.forEach((x, k) => {
      const [lo, hi] = r.pairFactorRanges[k];
      assert.ok(
        lo <= x * (1 + 2e-5) && (hi === null || x <= hi * (1 + 2e-5)),
        `pair ${k}: ${x} outside [${lo}, ${hi}]`,
      );
      if (got[k] === null) open++;
      else assert.ok(Math.abs(got[k] - x) <= 1e-4 * x, `pair ${k}: ${got[k]} stated, config ${x}: ${where}`);
    });
    assert.is(r.pairFactorsOpen, open, where);
    assert.ok(open > 0, `32 rows cannot fix every factor: ${where}`);
    assert.match(r.verdict, new RegExp(`${open} of the 48 factors not fixed by these rows`), where);
  });
}

test('prints the CPU time of 8192 x 1024 at several first positions', () => {
  for (const start of [0, 65537, 1000003]) {
    const tables = [
      ['tutorial f32', peers.tutorial(8192, 1024, 10000, start)],
      ['HF YaRN cos f32', peers.llamaCache(8192, 1024, { scaling: YARN, start })],
    ];
    for (const [name, cells] of tables) {
      const before = process.cpuUsage();
      const r = identify(cells, { rows: 8192, dim: 1024 });
      const used = process.cpuUsage(before);
      const ms = (used.user + used.system) / 1000;
      console.log(`  ${name} 8192x1024 at ${start}: ${ms.toFixed(0)} ms CPU, identified ${r.identified}`);
    }
  }
});

test.run();
