// identify(vector, { kind: 'inv-freq' }) on inv_freq buffers made by the
// peers' own code: tests/support/hf-inv-freq.py runs HF transformers'
// _compute_*_parameters (written out there in torch, from
// modeling_rope_utils.py), the PyTorch tutorial's exp and numpy's float64
// recipe with Debian's python3-torch (build.sh test installs it), at the
// configs of real checkpoints, stored as float32 and cast to float64,
// float16 and bfloat16 as model.to() casts buffers. Each must be named with
// its base, rotary dim, scaling parameters (those HF would need to regenerate
// it) and recipe; the Python package and both CLIs must say the same.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, identify, PosencError } from '../src/js/index.js';
import { expectRefusal } from './support/js-bits.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAKER = join(ROOT, 'tests/support/hf-inv-freq.py');

// Phi-3-mini-128k-instruct's long_factor (config.json, 48 pairs of head_dim 96).
const PHI3_LONG = [
  1.08, 1.11, 1.14, 1.34, 1.59, 1.6, 1.62, 2.23, 3.18, 3.26, 3.9, 4.68, 5.0, 5.03, 5.1, 5.2, 5.34, 5.6, 5.61, 5.63,
  5.64, 5.67, 5.69, 5.72, 5.73, 5.74, 5.77, 5.8, 5.81, 5.87, 5.92, 5.96, 5.99, 6.04, 6.05, 6.07, 6.08, 6.14, 6.21, 6.22,
  6.23, 6.24, 6.25, 6.26, 6.28, 6.29, 6.3, 6.31,
];
// Its short_factor: 1.0 ... (first 48 of the config's list, two decimals).
const PHI3_SHORT = [
  1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.25, 1.25, 1.4, 1.45, 1.45, 1.45, 1.55, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9,
  1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.95, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.05,
  2.1, 2.1, 2.1,
];

const none = (base, rotaryDim, recipe = 'hf') => ({ base, rotaryDim, scaling: 'none', recipe });
const LLAMA31 = { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4 };

// [name, maker, args, storage, truth]
const CASES = [
  ['Llama 2 7B', 'default', [10000, 128], 'float32', none(10000, 128)],
  ['Llama 3 base 500000', 'default', [500000, 128], 'float32', none(500000, 128)],
  ['Qwen2 base 1e6', 'default', [1000000, 128], 'float32', none(1e6, 128)],
  ['GPT-NeoX dim 64', 'default', [10000, 64], 'float32', none(10000, 64)],
  ['Phi-3 dim 96', 'default', [10000, 96], 'float32', none(10000, 96)],
  ["Phi-2's partial rotary 32", 'default', [10000, 32], 'float32', none(10000, 32)],
  ['base 7, rotary 66', 'default', [7, 66], 'float32', none(7, 66)],
  ['base 1e9', 'default', [1e9, 128], 'float32', none(1e9, 128)],
  ['odd rotary dim 33', 'default', [10000, 33], 'float32', none(10000, 33)],
  [
    'Llama 2 cast to float64 (float32 values)',
    'default',
    [10000, 128],
    'float64',
    { ...none(10000, 128), storage: 'float32' },
  ],
  ['Llama 2 after .half()', 'default', [10000, 128], 'float16', { base: 10000, rotaryDim: 128, scaling: 'none' }],
  ['Llama 2 in bfloat16', 'default', [10000, 128], 'bfloat16', { base: 10000, rotaryDim: 128, scaling: 'none' }],
  ['tutorial exp (float32)', 'tutorial', [10000, 128], 'float32', none(10000, 128, 'exp')],
  ['numpy float64, cast to float32', 'numpy64', [10000, 128], 'float32', none(10000, 128, 'exact')],
  ['numpy float64', 'numpy64', [10000, 128], 'float64', none(10000, 128, 'exact')],
  [
    'linear x4 (HF >= 4.43)',
    'linear',
    [10000, 128, 4.0],
    'float32',
    { base: 10000, rotaryDim: 128, scaling: 'linear', recipe: 'hf', ropeScaling: { rope_type: 'linear', factor: 4 } },
  ],
  [
    'Llama 3.1 8B',
    'llama3',
    [500000, 128, 8.0, 1.0, 4.0, 8192],
    'float32',
    {
      base: 500000,
      rotaryDim: 128,
      scaling: 'llama3',
      recipe: 'hf',
      ropeScaling: { ...LLAMA31, original_max_position_embeddings: 8192 },
    },
  ],
  [
    'Llama 3.2 1B (factor 32, head 64)',
    'llama3',
    [500000, 64, 32.0, 1.0, 4.0, 8192],
    'float32',
    {
      base: 500000,
      rotaryDim: 64,
      scaling: 'llama3',
      ropeScaling: { ...LLAMA31, factor: 32, original_max_position_embeddings: 8192 },
    },
  ],
  [
    'Llama 3.1 8B in bfloat16',
    'llama3',
    [500000, 128, 8.0, 1.0, 4.0, 8192],
    'bfloat16',
    { base: 500000, scaling: 'llama3', ropeScaling: { ...LLAMA31, original_max_position_embeddings: 8192 } },
  ],
  [
    'Qwen2.5 YaRN factor 4',
    'yarn',
    [1000000, 128, 4.0, 32768],
    'float32',
    {
      base: 1e6,
      scaling: 'yarn',
      recipe: 'hf',
      ropeScaling: {
        rope_type: 'yarn',
        factor: 4,
        beta_fast: 32,
        beta_slow: 1,
        original_max_position_embeddings: 32768,
        truncate: true,
      },
    },
  ],
  [
    'Qwen2.5 YaRN factor 4 in bfloat16',
    'yarn',
    [1000000, 128, 4.0, 32768],
    'bfloat16',
    { base: 1e6, scaling: 'yarn', ropeScaling: { rope_type: 'yarn', factor: 4 } },
  ],
  [
    'Qwen2.5 YaRN factor 4 in float16',
    'yarn',
    [1000000, 128, 4.0, 32768],
    'float16',
    { base: 1e6, scaling: 'yarn', ropeScaling: { rope_type: 'yarn', factor: 4 } },
  ],
  [
    'DeepSeek-V3 YaRN factor 40 (qk_rope_head_dim 64)',
    'yarn',
    [10000, 64, 40.0, 4096],
    'float32',
    {
      base: 10000,
      rotaryDim: 64,
      scaling: 'yarn',
      recipe: 'hf',
      ropeScaling: { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096, truncate: true },
    },
  ],
  [
    'gpt-oss style YaRN, truncate false',
    'yarn',
    [150000, 64, 32.0, 4096, 32, 1, false],
    'float32',
    { base: 150000, scaling: 'yarn', ropeScaling: { rope_type: 'yarn', factor: 32, truncate: false } },
  ],
  [
    'Phi-3-mini-128k long_factor',
    'longrope',
    [10000, 96, PHI3_LONG],
    'float32',
    { base: 10000, rotaryDim: 96, scaling: 'longrope', recipe: 'hf', factors: PHI3_LONG },
  ],
  [
    'Phi-3-mini-128k short_factor',
    'longrope',
    [10000, 96, PHI3_SHORT],
    'float32',
    { base: 10000, rotaryDim: 96, scaling: 'longrope', recipe: 'hf', factors: PHI3_SHORT },
  ],
  [
    'dynamic NTK x2 after 10000 positions (base 10000, max 4096)',
    'dynamic',
    [10000, 128, 2.0, 4096, 10000],
    'float32',
    { scaling: 'dynamic', ropeTheta: 10000, alpha: (2 * 10000) / 4096 - 2 + 1, recipe: 'hf' },
  ],
];

let made;

test.before(async () => {
  await init();
  const input = CASES.map(([name, maker, args, dtype]) => ({ name, maker, args, dtype }));
  const run = spawnSync('/usr/bin/python3', [MAKER], { input: JSON.stringify(input), maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`hf-inv-freq.py failed (python3-torch is needed): ${run.stderr}`);
  made = JSON.parse(run.stdout);
});

const close = (x, y, rel = 1e-9) => Math.abs(x - y) <= rel * Math.abs(y);

test('peer-made inv_freq vectors: base, rotary dim, scaling and recipe', () => {
  const rows = [];
  let wrong = 0;
  for (const [name, , , storage, truth] of CASES) {
    const values = storage === 'float32' ? Float32Array.from(made[name]) : Float64Array.from(made[name]);
    const r = identify(values, { kind: 'inv-freq' });
    const problems = [];
    if (!r.identified) problems.push('not identified');
    if (r.storage !== (truth.storage ?? storage)) problems.push(`storage ${r.storage}`);
    if (truth.base !== undefined && !close(r.base, truth.base)) problems.push(`base ${r.base}`);
    if (truth.rotaryDim !== undefined && r.rotaryDim !== truth.rotaryDim) problems.push(`rotaryDim ${r.rotaryDim}`);
    if (r.scaling !== truth.scaling) problems.push(`scaling ${r.scaling}`);
    if (truth.recipe !== undefined && r.recipe !== truth.recipe && r.recipeTied !== truth.recipe)
      problems.push(`recipe ${r.recipe}/${r.recipeTied}`);
    for (const [key, value] of Object.entries(truth.ropeScaling ?? {}))
      if (r.ropeScaling?.[key] !== value) problems.push(`${key} ${r.ropeScaling?.[key]}`);
    if (truth.factors && !truth.factors.every((f, k) => close(r.ropeScaling.factors[k], f, 1e-12)))
      problems.push(`factors ${r.ropeScaling.factors}`);
    if (truth.ropeTheta !== undefined && r.ropeTheta !== truth.ropeTheta) problems.push(`ropeTheta ${r.ropeTheta}`);
    if (truth.alpha !== undefined && !close(r.dynamicAlpha, truth.alpha, 1e-5))
      problems.push(`alpha ${r.dynamicAlpha} (want ${truth.alpha})`);
    wrong += problems.length > 0;
    rows.push(`  ${problems.length ? 'WRONG' : 'ok   '} ${name}: ${problems.join(', ') || r.verdict.slice(0, 150)}`);
  }
  console.log(rows.join('\n'));
  assert.is(wrong, 0, `${wrong} of ${CASES.length} vectors misread (above)`);
});

test('what a vector cannot tell is said: head_dim, positions scaled linearly, which LongRoPE list', () => {
  const plain = identify(Float32Array.from(made['Llama 2 7B']), { kind: 'inv-freq' });
  assert.match(plain.text, /head_dim is not in the vector/);
  assert.match(plain.text, /a vector cannot show it/);
  const phi = identify(Float32Array.from(made['Phi-3-mini-128k long_factor']), { kind: 'inv-freq' });
  assert.match(phi.text, /short_factor .* long_factor past it\): it cannot say which/);
  const llama = identify(Float32Array.from(made['Llama 3.1 8B']), { kind: 'inv-freq' });
  assert.match(llama.text, /fix only original_max_position_embeddings \/ low_freq_factor = 8192/);
});

test('HF float32 and correctly rounded differ, and each is named for its own vector', () => {
  const hf = identify(Float32Array.from(made['Llama 2 7B']), { kind: 'inv-freq' });
  const exact = identify(Float32Array.from(made['numpy float64, cast to float32']), { kind: 'inv-freq' });
  assert.is(hf.recipe, 'hf');
  assert.is(exact.recipe, 'exact');
  assert.ok(hf.recipeExact === 64 && exact.recipeExact === 64, `${hf.recipeExact} ${exact.recipeExact}`);
});

test('a vector that is no RoPE frequency vector is not given one', () => {
  const rising = Float32Array.from({ length: 32 }, (_, k) => 0.01 * (k + 1));
  const r = identify(rising, { kind: 'inv-freq' });
  assert.not.ok(r.identified, r.verdict);
  assert.match(r.verdict, /searched:/);
  const noisy = Float32Array.from(made['Llama 2 7B']).map((w, k) => w * (1 + 1e-3 * Math.sin(7 * k)));
  const n = identify(noisy, { kind: 'inv-freq' });
  assert.not.ok(n.identified, n.verdict);
  assert.match(n.verdict, /nearest: RoPE inv_freq, rotary_dim 128 .*base \d.*searched: /);
});

test('refusals are coded and name the value', () => {
  const good = () => Float32Array.from(made['Llama 2 7B']);
  const zero = good();
  zero[5] = 0;
  const nan = good();
  nan[3] = NaN;
  const cases = [
    [zero, {}, 'BAD_FREQUENCIES', ['table[5]', 'above 0']],
    [nan, {}, 'BAD_TABLE', ['table[3]', 'NaN']],
    [good(), { rows: 64 }, 'BAD_SHAPE', ['rows and dim']],
    [new Float32Array(0), {}, 'BAD_SHAPE', ['1 to 32768']],
    [new Int32Array(4), {}, 'BAD_BUFFER', ['Float32Array']],
  ];
  for (const [table, more, code, texts] of cases)
    expectRefusal(PosencError, (given) => identify(given.table, { kind: 'inv-freq', ...more }), { table }, code, texts);
});

test('the Python package and both CLIs print the same report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-inv-freq-'));
  const values = Float32Array.from(made['Llama 3.1 8B']);
  const r = identify(values, { kind: 'inv-freq' });
  const csv = join(dir, 'inv_freq.csv');
  writeFileSync(csv, Array.from(values, (v) => v.toPrecision(9)).join('\n') + '\n');
  const native = spawnSync(join(ROOT, 'build/posenc'), ['identify', csv, '--kind', 'inv-freq']);
  assert.is(native.status, 0, String(native.stderr));
  assert.is(String(native.stdout), r.text);
  const node = spawnSync(process.execPath, [join(ROOT, 'src/js/cli/cli.js'), 'identify', csv, '--kind', 'inv-freq']);
  assert.is(node.status, 0, String(node.stderr));
  assert.is(String(node.stdout), r.text);
  const py = spawnSync('/usr/bin/python3', ['-c', PY_CHECK, csv], {
    env: { ...process.env, PYTHONPATH: join(ROOT, 'src/python') },
  });
  assert.is(py.status, 0, String(py.stderr));
  assert.is(String(py.stdout), r.text);
});

// A 1-D numpy array with neither rows nor dim is read as an inv_freq vector.
const PY_CHECK = `
import sys, numpy as np
from posenc import identify
w = np.loadtxt(sys.argv[1], dtype=np.float32)
sys.stdout.write(identify(w)["text"])
`;

test.run();
