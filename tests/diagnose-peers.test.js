// identify() on a corpus of tables built by the peers' own formulas and
// precisions (tests/support/diagnose-peers.js transcribes each peer's code;
// nothing there calls posenc): each must be identified with its convention,
// base, first position and recipe, and the negative cases must not be. Prints
// the confusion table (truth vs identified).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, identify } from '../src/js/index.js';
import * as peers from './support/diagnose-peers.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
const random = generator(seed);

const sin = { layout: 'split', cosFirst: false };
const inter = { layout: 'interleaved', cosFirst: false };
const cos = (layout) => ({ kind: 'cos-sin', cache: 'cos', layout });

// A scaled HF cos cache: its truth, with the facts every such case shares.
const scaledCache = (base, scaling, more) => ({
  ...cos('halves'),
  frequencies: 'paper',
  base,
  offset: 0,
  scaling,
  recipe: 'float32-angle-fitted',
  ...more,
});
// HF's YaRN x4 on rope_theta 10000 or 1e6: the canonical parameters, HF's default attention 0.1 ln 4 + 1
const YARN4_HF = { rope_type: 'yarn', factor: 4, beta_fast: 32, beta_slow: 1, attention_factor: 0.1 * Math.log(4) + 1 };
// Phi-3-mini-128k: factor 131072 / 4096, HF's default attention sqrt(1 + ln 32 / ln 4096)
const PHI3_HF = {
  rope_type: 'longrope',
  factor: 32,
  original_max_position_embeddings: 4096,
  attention_factor: Math.sqrt(1 + Math.log(32) / Math.log(4096)),
};

// truth: the facts identify must report (base to 6 significant digits, the recipe exactly).
const CASES = [
  [
    'PyTorch tutorial f32',
    () => peers.tutorial(2048, 256),
    { ...inter, frequencies: 'paper', base: 10000, offset: 0, recipe: 'float32-angle-exp' },
  ],
  [
    'PyTorch tutorial f32 -> f16',
    () => peers.castTable(peers.tutorial(1024, 256), 'float16'),
    { ...inter, frequencies: 'paper', base: 10000, offset: 0, storage: 'float16' },
  ],
  [
    'HF Marian (numpy f64)',
    () => peers.marian(512, 256),
    { ...sin, frequencies: 'paper', base: 10000, offset: 0, recipe: 'exact' },
  ],
  [
    'fairseq weights (padding row 1)',
    () => peers.fairseqWeights(1026, 256),
    { ...sin, frequencies: 'tensor2tensor', base: 10000, offset: 0, recipe: 'float32-angle-exp', zeroRow: 1 },
  ],
  [
    'fairseq forward (from 2)',
    () => peers.fairseqForward(1024, 256),
    { ...sin, frequencies: 'tensor2tensor', base: 10000, offset: 2, recipe: 'float32-angle-exp' },
  ],
  [
    'tensor2tensor timing signal',
    () => peers.tensor2tensor(1024, 128),
    { ...sin, frequencies: 'tensor2tensor', base: 10000, offset: 0, recipe: 'float32-angle-exp' },
  ],
  [
    'tensor2tensor start_index 5',
    () => peers.tensor2tensor(1024, 128, 5),
    { ...sin, frequencies: 'tensor2tensor', base: 10000, offset: 5, recipe: 'float32-angle-exp' },
  ],
  [
    'Keras SinePositionEncoding f32',
    () => peers.keras(1024, 256),
    { ...inter, frequencies: 'paper', base: 10000, offset: 0, recipe: 'float32-angle-keras' },
  ],
  [
    'Keras mixed_bfloat16',
    () => peers.keras(512, 128, 'bfloat16'),
    { ...inter, frequencies: 'paper', base: 10000, offset: 0, recipe: 'bfloat16', storage: 'bfloat16' },
  ],
  [
    'GPT-J embed_positions',
    () => peers.gptjPositions(2048, 256),
    { ...sin, frequencies: 'paper', base: 10000, offset: 0, recipe: 'float32-angle-hf' },
  ],
  [
    'GPT-J cos (repeat_interleave)',
    () => peers.gptjCosCache(2048, 128),
    { ...cos('neighbours'), frequencies: 'paper', base: 10000, offset: 0, recipe: 'float32-angle-hf' },
  ],
  [
    'HF Llama cos f32',
    () => peers.llamaCache(2048, 128),
    { ...cos('halves'), frequencies: 'paper', base: 10000, offset: 0, recipe: 'float32-angle-hf' },
  ],
  [
    'HF Llama sin f32',
    () => peers.llamaCache(2048, 128, { fn: 'sin' }),
    {
      kind: 'cos-sin',
      cache: 'sin',
      layout: 'halves',
      frequencies: 'paper',
      base: 10000,
      offset: 0,
      recipe: 'float32-angle-hf',
    },
  ],
  [
    'HF Llama cos bf16 theta 5e5',
    () => peers.llamaCache(4096, 128, { base: 500000, dtype: 'bfloat16' }),
    { ...cos('halves'), frequencies: 'paper', base: 500000, offset: 0, storage: 'bfloat16' },
  ],
  [
    'HF Llama cos f16',
    () => peers.llamaCache(2048, 64, { dtype: 'float16' }),
    { ...cos('halves'), frequencies: 'paper', base: 10000, offset: 0, storage: 'float16' },
  ],
  [
    'HF Llama linear x4',
    () => peers.llamaCache(4096, 128, { scaling: { type: 'linear', factor: 4 } }),
    {
      ...cos('halves'),
      frequencies: 'paper',
      base: 10000,
      offset: 0,
      scaling: 'linear',
      factor: 4,
      recipe: 'float32-angle-hf',
    },
  ],
  [
    'HF Llama dynamic NTK',
    () => peers.llamaCache(4096, 128, { scaling: { type: 'dynamic', factor: 2, original: 2048, seqLen: 4096 } }),
    {
      ...cos('halves'),
      frequencies: 'paper',
      base: 10000 * ((2 * 4096) / 2048 - 1) ** (128 / 126),
      offset: 0,
      scaling: 'dynamic',
      factor: 2,
      recipe: 'float32-angle-fitted',
      invFormula: 'float32-angle-hf',
      // HF's names; the set the frequencies allow with seq_len the cache's length and a power-of-two original
      hf: { rope_type: 'dynamic', factor: 2, rope_theta: 10000, original_max_position_embeddings: 2048, seq_len: 4096 },
    },
  ],
  [
    'HF dynamic NTK, cache cut from 5000',
    () => peers.llamaCache(4096, 128, { scaling: { type: 'dynamic', factor: 2, original: 2048, seqLen: 5000 } }),
    {
      ...cos('halves'),
      frequencies: 'paper',
      base: 10000 * ((2 * 5000) / 2048 - 1) ** (128 / 126),
      offset: 0,
      // HF's dynamic base from rope_theta 10000 regenerated and read cell by cell (alpha - 1 = 369/128 on the
      // 1/2^j grid); factor, original and seq_len stay one relation: factor (seq_len / original - 1) = alpha - 1
      scaling: 'dynamic',
      recipe: 'float32-angle-hf',
      dynamicAlpha: (2 * 5000) / 2048 - 1,
      text: /alpha 3\.8828125.*factor \(L \/ original - 1\) = 2\.8828125/s,
    },
  ],
  [
    'HF YaRN x4',
    () => peers.llamaCache(8192, 128, { scaling: { type: 'yarn', factor: 4, original: 2048 } }),
    scaledCache(10000, 'yarn', {
      factor: 4,
      hf: { ...YARN4_HF, original_max_position_embeddings: 2048, truncate: true, mscale: 1 },
    }),
  ],
  [
    'HF YaRN x4 (Qwen2.5: theta 1e6, original 32768)',
    () => peers.llamaCache(8192, 128, { base: 1e6, scaling: { type: 'yarn', factor: 4, original: 32768 } }),
    scaledCache(1e6, 'yarn', { factor: 4, hf: { ...YARN4_HF, original_max_position_embeddings: 32768 } }),
  ],
  [
    'HF YaRN x16 beta_fast 64 beta_slow 2',
    () =>
      peers.llamaCache(8192, 128, { scaling: { type: 'yarn', factor: 16, original: 4096, betaFast: 64, betaSlow: 2 } }),
    scaledCache(10000, 'yarn', {
      factor: 16,
      // only original / beta_fast and original / beta_slow are fixed: the canonical set has HF's default betas
      hf: { rope_type: 'yarn', factor: 16, beta_fast: 32, beta_slow: 1, original_max_position_embeddings: 2048 },
      text: /any original_max_position_embeddings from/,
    }),
  ],
  [
    'HF Llama 3 x8',
    () => peers.llamaCache(8192, 128, { base: 500000, scaling: { type: 'llama3', factor: 8, original: 8192 } }),
    scaledCache(500000, 'llama3', {
      factor: 8,
      hf: {
        rope_type: 'llama3',
        factor: 8,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 8192,
      },
    }),
  ],
  [
    'HF Llama 3 x32 low 2 high 8 original 16384',
    () =>
      peers.llamaCache(8192, 128, {
        base: 500000,
        scaling: { type: 'llama3', factor: 32, original: 16384, low: 2, high: 8 },
      }),
    scaledCache(500000, 'llama3', {
      factor: 32,
      // only original / low_freq_factor and original / high_freq_factor are fixed: canonical low_freq_factor 1
      hf: {
        rope_type: 'llama3',
        factor: 32,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 8192,
      },
    }),
  ],
  [
    'HF Phi-3-mini-128k LongRoPE short',
    () => peers.llamaCache(4096, 96, { scaling: { ...peers.PHI3_MINI_128K, seqLen: 4096 } }),
    scaledCache(10000, 'per-pair', { hf: { ...PHI3_HF, short_factor: peers.PHI3_MINI_128K.short } }),
  ],
  [
    'HF Phi-3-mini-128k LongRoPE short, cos within 1 ulp (SLEEF)',
    // PyTorch's cos is 1 ulp off in places, then multiplied by attention_scaling and rounded again
    () => peers.llamaCache(4096, 96, { scaling: { ...peers.PHI3_MINI_128K, seqLen: 4096 }, sleef: random }),
    scaledCache(10000, 'per-pair', { hf: { ...PHI3_HF, short_factor: peers.PHI3_MINI_128K.short } }),
  ],
  [
    'HF Phi-3-mini-128k LongRoPE long',
    () => peers.llamaCache(8192, 96, { scaling: { ...peers.PHI3_MINI_128K, seqLen: 8192 } }),
    scaledCache(10000, 'per-pair', { hf: { ...PHI3_HF, long_factor: peers.PHI3_MINI_128K.long } }),
  ],
  [
    'MAE 2-D 14x14 + cls (numpy f64)',
    () => peers.mae(14, 256),
    { ...sin, frequencies: 'paper', base: 10000, offset: 0, recipe: 'exact', grid: [14, 14] },
  ],
  [
    'transposed tutorial',
    () => peers.transpose(peers.tutorial(1024, 128), 1024, 128),
    { ...inter, frequencies: 'paper', base: 10000, offset: 0, recipe: 'float32-angle-exp', transposed: true },
  ],
  [
    'base off by 1% (10100)',
    () => peers.tutorial(2048, 256, 10100),
    { ...inter, frequencies: 'paper', base: 10100, offset: 0, recipe: 'float32-angle-exp' },
  ],
];

const label = (r) => (!r.identified ? `none${r.sinusoidal ? ' (nearest ' + short(r) + ')' : ''}` : short(r));
function short(r) {
  const grid = r.gridWidth ? `2-D ${r.gridHeight}x${r.gridWidth} ` : '';
  const shape = grid + (r.kind === 'cos-sin' ? `${r.cache}-${r.layout}` : `${r.layout}-${r.cosFirst ? 'cos' : 'sin'}`);
  const scaling = r.ropeScaling ? ` ${hfLabel(r.ropeScaling)}` : '';
  return `${shape} ${r.frequencies} T=${+r.base.toPrecision(7)}${scaling} p0=${r.offset} ${r.storage === 'float32' ? '' : r.storage + ' '}${r.recipe}`;
}
const truthLabel = (t) => {
  const shape =
    (t.grid ? `2-D ${t.grid[0]}x${t.grid[1]} ` : '') +
    (t.kind === 'cos-sin' ? `${t.cache}-${t.layout}` : `${t.layout}-${t.cosFirst ? 'cos' : 'sin'}`);
  const scaling = t.hf ? ` ${hfLabel(t.hf)}` : t.scaling && t.scaling !== 'none' ? ` ${t.scaling}x${t.factor}` : '';
  return `${shape} ${t.frequencies} T=${+t.base.toPrecision(7)}${scaling} p0=${t.offset} ${t.storage ?? ''}${t.storage ? ' ' : ''}${t.recipe ?? '(any)'}`;
};

/** rope_scaling in HF's names, short: "yarn(factor 4, beta_fast 32, ..., short_factor[48] 1.05..2.95)". */
function hfLabel(h) {
  const parts = [];
  for (const [key, value] of Object.entries(h)) {
    if (key === 'rope_type' || key === 'rope_theta' || key === 'truncate') continue;
    const name = key.replace('original_max_position_embeddings', 'original');
    if (Array.isArray(value))
      parts.push(`${name}[${value.length}] ${+value[0].toPrecision(4)}..${+value.at(-1).toPrecision(4)}`);
    else parts.push(`${name} ${+value.toPrecision(6)}`);
  }
  return `${h.rope_type}(${parts.join(', ')})`;
}

/** Each fact of rope_scaling (HF's names) as the peer's config gives it: numbers to 1e-4, lists to float32. */
function checkHf(name, r, hf) {
  assert.ok(r.ropeScaling, `${name}: no ropeScaling (${r.verdict})`);
  for (const [key, want] of Object.entries(hf)) {
    // LongRoPE rows within the first original_max_position_embeddings positions may be a cache built with either
    // list (HF picks by the length it was built for): then the reading names neither, and says so
    const either =
      /^(short|long)_factor$/.test(key) &&
      r.ropeScaling.factors &&
      r.offset + r.rows <= hf.original_max_position_embeddings;
    const got = either ? r.ropeScaling.factors : r.ropeScaling[key];
    if (Array.isArray(want)) {
      assert.ok(Array.isArray(got) && got.length === want.length, `${name}: ${key} is ${JSON.stringify(got)}`);
      want.forEach((x, k) =>
        assert.ok(Math.abs(got[k] - Math.fround(x)) < 2e-5 * x, `${name}: ${key}[${k}] ${got[k]}, config ${x}`),
      );
    } else if (typeof want === 'number') {
      assert.ok(Math.abs(got - want) <= 1e-4 * want, `${name}: ${key} ${got}, expected ${want}: ${r.text}`);
    } else assert.is(got, want, `${name}: ${key}`);
  }
}

const rows = [];

test.before(async () => {
  await init();
  console.log(`diagnose-peers: seed ${seed} (POSENC_SEED=${seed} replays)`);
});

for (const [name, make, truth] of CASES) {
  test(`identifies ${name}`, () => {
    const t = make();
    // the transposed case is handed over as it is stored: (dim, rows) = (128, 1024)
    const shape = truth.transposed ? { rows: 128, dim: 1024 } : { rows: t.length / dimOf(name), dim: dimOf(name) };
    const r = identify(t, shape);
    rows.push([name, truthLabel(truth), label(r)]);
    assert.ok(r.identified, `${name}: not identified: ${r.verdict}`);
    for (const key of [
      'kind',
      'cache',
      'layout',
      'cosFirst',
      'frequencies',
      'offset',
      'storage',
      'scaling',
      'transposed',
    ]) {
      if (truth[key] !== undefined) assert.is(r[key], truth[key], `${name}: ${key} (${r.verdict})`);
    }
    assert.ok(
      Math.abs(r.base - truth.base) / truth.base < 5e-6,
      `${name}: base ${r.base}, expected ${truth.base} to 6 digits`,
    );
    if (truth.factor !== undefined)
      assert.ok(Math.abs(r.factor - truth.factor) < 1e-3 * truth.factor, `${name}: factor ${r.factor}`);
    if (truth.recipe !== undefined) assert.is(r.recipe, truth.recipe, `${name}: recipe (${r.verdict})`);
    if (truth.invFormula !== undefined) {
      assert.is(r.invFormula, truth.invFormula);
      assert.ok(r.invFormulaShare > 0.5, `${name}: the formula gives ${r.invFormulaShare} of inv_freq`);
    }
    if (truth.grid !== undefined) assert.equal([r.gridHeight, r.gridWidth], truth.grid, `${name}: grid`);
    if (truth.zeroRow !== undefined) assert.is(r.firstInnerZeroRow, truth.zeroRow);
    if (truth.hf !== undefined) checkHf(name, r, truth.hf);
    if (truth.dynamicAlpha !== undefined)
      assert.ok(Math.abs(r.dynamicAlpha - truth.dynamicAlpha) < 1e-5 * truth.dynamicAlpha, `alpha ${r.dynamicAlpha}`);
    if (truth.text !== undefined) assert.match(r.text, truth.text);
    if (truth.scaling === undefined || truth.scaling === 'none') assert.is(r.ropeScaling, null, `${name}: no scaling`);
  });
}

// Each case's dim: the generators are called with it as their second argument.
const DIMS = new Map(CASES.map(([name, make]) => [name, Number(/\(\s*\d+,\s*(\d+)/.exec(make.toString())?.[1])]));
function dimOf(name) {
  return DIMS.get(name);
}

const NEGATIVES = [
  ['random uniform', () => peers.randomTable(512, 128, random)],
  ['learned-like random walks', () => peers.learnedLike(512, 128, random)],
];

for (const [name, make] of NEGATIVES) {
  test(`does not claim a convention for ${name}`, () => {
    const r = identify(make(), { rows: 512, dim: 128 });
    rows.push([name, 'none', label(r)]);
    assert.not.ok(r.identified, `${name}: ${r.verdict}`);
    assert.ok(r.nearest.length > 0, 'nearest candidates are listed');
    assert.match(r.text, /nearest standard tables/);
    assert.not.ok(r.sinusoidal, `${name} read as sinusoids: ${r.verdict}`);
    assert.ok(r.nearest[0].distance > 0.5, `${name}: distance ${r.nearest[0].distance}`);
  });
}

// An exact table plus noise of 1e-3 keeps its convention and first position readable, not its recipe: identified
// as noisy (the convention's cells plus noise, no recipe), never called random nor given a recipe.
test('names the convention of an exact table + noise 1e-3, as noisy', () => {
  const r = identify(peers.noisy(512, 128, 1e-3, random), { rows: 512, dim: 128 });
  rows.push(['exact table + noise 1e-3', 'interleaved-sin paper T=10000 p0=0 noisy', label(r)]);
  assert.ok(r.identified, r.verdict);
  assert.ok(r.sinusoidal, 'a noisy sinusoidal table is still read as sinusoids');
  assert.is(r.layout, 'interleaved');
  assert.is(r.frequencies, 'paper');
  assert.is(r.offset, 0);
  assert.ok(Math.abs(r.base - 10000) < 1, `noisy base ${r.base}`);
  assert.is(r.recipe, 'unknown', 'no recipe is read from noisy cells');
  assert.match(r.verdict, /noisy: the cells are the convention's plus noise of rms/);
});

test('prints the confusion table', () => {
  const width = Math.max(...rows.map((r) => r[0].length));
  const w2 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\n${'case'.padEnd(width)} | ${'truth'.padEnd(w2)} | identified`);
  for (const [name, truth, got] of rows) console.log(`${name.padEnd(width)} | ${truth.padEnd(w2)} | ${got}`);
  assert.is(rows.length, CASES.length + NEGATIVES.length + 1);
});

test.run();
