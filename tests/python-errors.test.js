// PosencError carries the JS package's codes in Python too (issue 27): the same
// bad argument given to the Python package and to the JS package is refused
// with the same code, for every call both have (sinusoidal, rope, rope_cos_sin,
// rope_frequencies, alibi, from_config, identify). Python runs from src/python
// over build/lib/libposenc.so (tests/support/python-cli.js).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { instantiate, PosencError } from '../src/js/index.js';
import { root } from './support/cli-run.js';
import { PYTHON, PYTHON_ENV, makeSharedLibrary } from './support/python-cli.js';

const GEMMA3 = {
  model_type: 'gemma3_text',
  hidden_size: 1152,
  head_dim: 256,
  num_attention_heads: 4,
  rope_theta: 1000000,
  rope_local_base_freq: 10000,
  rope_scaling: { rope_type: 'linear', factor: 8 },
};
const LINEAR = (factor) => ({ rope_type: 'linear', factor });

// [Python call, JS call]: each the same request in the two packages' spelling.
const CASES = [
  [{ call: 'sinusoidal', args: [4, 7] }, (p) => p.sinusoidal({ length: 4, dim: 7 })],
  [{ call: 'sinusoidal', args: [4, 8], kwargs: { base: 1 } }, (p) => p.sinusoidal({ length: 4, dim: 8, base: 1 })],
  [
    { call: 'sinusoidal', args: [4, 8], kwargs: { layout: 'diagonal' } },
    (p) => p.sinusoidal({ length: 4, dim: 8, layout: 'diagonal' }),
  ],
  [
    { call: 'sinusoidal', args: [4, 8], kwargs: { offset: 2 ** 31 - 3 } },
    (p) => p.sinusoidal({ length: 4, dim: 8, offset: 2 ** 31 - 3 }),
  ],
  [
    { call: 'sinusoidal', args: [4, 8], kwargs: { dtype: 'int8' } },
    (p) => p.sinusoidal({ length: 4, dim: 8, dtype: 'int8' }),
  ],
  [
    { call: 'sinusoidal', args: [4, 8], kwargs: { preset: 'nope' } },
    (p) => p.sinusoidal({ length: 4, dim: 8, preset: 'nope' }),
  ],
  [
    { call: 'rope_cos_sin', kwargs: { head_dim: 8, rotary_dim: 5, length: 2 } },
    (p) => p.ropeCosSin({ headDim: 8, rotaryDim: 5, length: 2 }),
  ],
  [
    { call: 'rope_cos_sin', kwargs: { head_dim: 8, length: 2, scaling: LINEAR(0.5) } },
    (p) => p.ropeCosSin({ headDim: 8, length: 2, scaling: LINEAR(0.5) }),
  ],
  [
    { call: 'rope_cos_sin', kwargs: { head_dim: 8, length: 2, scaling: { rope_type: 'warp', factor: 2 } } },
    (p) => p.ropeCosSin({ headDim: 8, length: 2, scaling: { rope_type: 'warp', factor: 2 } }),
  ],
  [
    { call: 'rope_cos_sin', kwargs: { head_dim: 32, positions: [[0], [1], [2]], mrope_section: [4, 6, 5] } },
    (p) => p.ropeCosSin({ headDim: 32, positions: [[0], [1], [2]], mropeSection: [4, 6, 5] }),
  ],
  [
    { call: 'rope_cos_sin', kwargs: { head_dim: 8, positions: [0, 2 ** 31] } },
    (p) => p.ropeCosSin({ headDim: 8, positions: [0, 2 ** 31] }),
  ],
  [
    { call: 'rope_cos_sin', kwargs: { head_dim: 8, length: 2, dtype: 'int8' } },
    (p) => p.ropeCosSin({ headDim: 8, length: 2, dtype: 'int8' }),
  ],
  [
    { call: 'rope_frequencies', kwargs: { head_dim: 8, base: 0.5 } },
    (p) => p.ropeFrequencies({ headDim: 8, base: 0.5 }),
  ],
  [
    { call: 'rope_frequencies', kwargs: { head_dim: 64, scaling: { rope_type: 'dynamic', factor: 2 } } },
    (p) => p.ropeFrequencies({ headDim: 64, scaling: { rope_type: 'dynamic', factor: 2 } }),
  ],
  [{ call: 'alibi_slopes', args: [0] }, (p) => p.alibiSlopes(0)],
  [{ call: 'alibi_bias', args: [0, 4] }, (p) => p.alibiBias({ heads: 0, queryLength: 4 })],
  [{ call: 'from_config', args: [{ model_type: 'mystery' }] }, (p) => p.fromConfig({ model_type: 'mystery' })],
  [
    { call: 'from_config', args: [GEMMA3, 'middle_attention'] },
    (p) => p.fromConfig(GEMMA3, { layerType: 'middle_attention' }),
  ],
  [
    { call: 'identify', table: [16, 8, 5, 3] },
    (p) => {
      const table = p.sinusoidal({ length: 16, dim: 8 });
      table[5 * 8 + 3] = NaN;
      return p.identify(table, { rows: 16, dim: 8 });
    },
  ],
  [
    { call: 'identify', table: [16, 8, 0, 0], kwargs: { kind: 'heatmap' } },
    (p) => {
      const table = p.sinusoidal({ length: 16, dim: 8 });
      table[0] = NaN;
      return p.identify(table, { rows: 16, dim: 8, kind: 'heatmap' });
    },
  ],
];

test('each shared bad call: the Python package raises the JS package’s code', async () => {
  makeSharedLibrary();
  const r = spawnSync(PYTHON, [join(root, 'tests/support/python_error_codes.py')], {
    env: PYTHON_ENV,
    input: JSON.stringify(CASES.map(([py]) => py)),
    encoding: 'utf8',
  });
  assert.is(r.status, 0, r.stderr);
  const pythonCodes = JSON.parse(r.stdout);
  const posenc = await instantiate();
  const seen = new Set();
  CASES.forEach(([py, js], k) => {
    let code = 'OK';
    try {
      js(posenc);
    } catch (error) {
      if (!(error instanceof PosencError)) throw error;
      code = error.code;
    }
    assert.is.not(code, 'OK', `case ${k} (${py.call}) is refused in JS`);
    assert.is(pythonCodes[k], code, `case ${k}: ${py.call} ${JSON.stringify(py.kwargs ?? py.args ?? {})}`);
    seen.add(code);
  });
  console.log(`python-errors: ${CASES.length} refusals, ${seen.size} codes alike: ${[...seen].join(' ')}`);
  assert.ok(seen.size >= 10, `only ${seen.size} distinct codes`);
});

test.run();
