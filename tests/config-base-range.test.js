// A config's RoPE base out of range (issue 25): HF computes inv_freq = 1 /
// base^(2i/d) from whatever rope_theta says (modeling_rope_utils.py's default
// init), so 0 gives an infinite first frequency, a negative base NaN and a
// base below 1 frequencies that rise with i; posenc's RoPE takes 1 < base <=
// 1e300. The config reader took any finite number and handed it on. Each base
// key is now refused by the core with the key named (BAD_SCALING in
// fromConfig, the same bytes from both CLIs); 1e300 and a base just above 1
// are still read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate, PosencError } from '../src/js/index.js';
import { sameRun } from './support/cli-run.js';

const posenc = await instantiate({ simd: true });
const dir = mkdtempSync(join(tmpdir(), 'posenc-base-'));
const llama = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 2 };
const RANGE =
  "must be above 1 and at most 1e300: RoPE's frequencies are base^(-2i/d), infinite at 0, NaN below 0, rising below 1";

/** [what, config text, the key named]. Texts, so that -0 and 1e301 stay as written. */
const BAD = [];
for (const v of ['0', '-0', '0.5', '1', '-10000', '1e301'])
  BAD.push([
    `rope_theta ${v}`,
    `{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,"rope_theta":${v}}`,
    'rope_theta',
  ]);
BAD.push(
  [
    "the dict's rope_theta 0 (over a good top-level one)",
    JSON.stringify({ ...llama, rope_theta: 10000, rope_parameters: { rope_type: 'default', rope_theta: 0 } }),
    'rope_parameters.rope_theta',
  ],
  [
    'rotary_emb_base 0.9 (GPT-NeoX)',
    JSON.stringify({
      model_type: 'gpt_neox',
      hidden_size: 64,
      num_attention_heads: 4,
      num_hidden_layers: 2,
      rotary_emb_base: 0.9,
    }),
    'rotary_emb_base',
  ],
  [
    "Gemma 3's rope_local_base_freq 0 (its sliding layers)",
    JSON.stringify({
      model_type: 'gemma3_text',
      hidden_size: 64,
      num_attention_heads: 4,
      head_dim: 16,
      num_hidden_layers: 2,
      rope_local_base_freq: 0,
    }),
    'rope_local_base_freq',
  ],
  [
    "ModernBERT's local_rope_theta -1",
    JSON.stringify({
      model_type: 'modernbert',
      hidden_size: 64,
      num_attention_heads: 4,
      num_hidden_layers: 2,
      local_rope_theta: -1,
    }),
    'local_rope_theta',
  ],
  [
    'one layer type keyed with rope_theta 0.5',
    JSON.stringify({
      ...llama,
      layer_types: ['a', 'b'],
      rope_parameters: { a: { rope_theta: 500 }, b: { rope_theta: 0.5 } },
    }),
    'rope_parameters.b.rope_theta',
  ],
);

function refusal(call) {
  try {
    call();
  } catch (error) {
    if (error instanceof PosencError) return error;
    throw error;
  }
  return null;
}

test('a base of 0, -0, below 1, 1, negative or past 1e300 is refused naming its key, in fromConfig and the core', () => {
  for (const [what, text, key] of BAD) {
    const error = refusal(() => posenc.fromConfig(text));
    assert.ok(error, `${what}: accepted`);
    assert.is(error.code, 'BAD_SCALING', what);
    assert.is(error.message, `config key '${key}' ${RANGE}`, what);
    // As an object too (JSON.stringify writes -0 as 0: refused all the same).
    assert.is(refusal(() => posenc.fromConfig(JSON.parse(text)))?.code, 'BAD_SCALING', `${what}, as an object`);
  }
});

test('both CLIs refuse each with the same bytes (config and rope --config)', () => {
  const file = join(dir, 'config.json');
  for (const [what, text, key] of BAD) {
    writeFileSync(file, text);
    for (const args of [
      ['config', file],
      ['rope', '--config', file, '--length', '2'],
    ]) {
      const run = sameRun(args);
      assert.is(run.status, 1, `${what}: ${args[0]}`);
      // rope --config names a layer type first when the config has several: the key is named either way.
      if (args[0] === 'config')
        assert.ok(run.stderr.toString().includes(`'${key}' ${RANGE}`), `${what}: ${run.stderr}`);
    }
  }
});

test('the edges that are bases: just above 1, 1e300, and a top-level 0 the dict overrides', () => {
  const ok = (text) => posenc.fromConfig(text).rope.base;
  assert.is(ok(`{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"rope_theta":1.0000001}`), 1.0000001);
  assert.is(ok(`{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"rope_theta":1e300}`), 1e300);
  assert.is(
    ok(JSON.stringify({ ...llama, rope_theta: 0, rope_parameters: { rope_type: 'default', rope_theta: 500 } })),
    500,
  );
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
