// RoPE keyed by thousands of layer types (issue 25): `posenc config` read the
// whole config once per layer type in both CLIs (3,000 types: 109 s native,
// 53 s in the JS CLI, whose fromConfig with a layerType did the same). Then
// each type was read from the config cut to its own entry, which still carried
// everything outside the dict: 3,000 types beside a 1000 x 1000 number array
// took 82.8 s native. Now the core reads every type from one opened document
// (pe_config_read_types), which must answer for each type as pe_config_read
// does for it alone: checked here on hostile texts (escaped and repeated keys,
// text_config, rope_scaling, brackets inside strings, 1e400) against
// fromConfig with a layerType, which reads the whole text for that type, and
// both CLIs against each other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { instantiate, PosencError } from '../src/js/index.js';
import { NATIVE, NODE_CLI, sameRun } from './support/cli-run.js';

const posenc = await instantiate({ simd: true });
const dir = mkdtempSync(join(tmpdir(), 'posenc-types-'));

/**
 * n layer types, each its own RoPE base, one layer each, as transformers v5 writes them; beside them (side > 0) a
 * side x side number array outside the dict.
 */
function manyTypes(n, side = 0) {
  const rope_parameters = {};
  for (let i = 0; i < n; i++) rope_parameters[`t${i}`] = { rope_type: 'default', rope_theta: 1000 + i };
  const config = {
    model_type: 'llama',
    hidden_size: 64,
    num_attention_heads: 4,
    num_hidden_layers: n,
    layer_types: Object.keys(rope_parameters),
    rope_parameters,
  };
  if (side > 0)
    config.extra_table = Array.from({ length: side }, (_, i) =>
      Array.from({ length: side }, (_, j) => (i * side + j) % 997),
    );
  return JSON.stringify(config);
}

/** CPU seconds of one CLI run (bash's `time` of the child: the machine is shared, wall time says little). */
function cpu(program, args) {
  const timed = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" > /dev/null', 'time', ...program, ...args], {
    encoding: 'utf8',
  });
  const [user, sys] = timed.stderr.trim().split('\n').pop().split(' ').map(Number);
  return user + sys;
}

test('posenc config: 3,000 layer types in linear time in both CLIs, the same bytes', () => {
  const times = {};
  for (const n of [30, 300, 3000]) {
    const file = join(dir, `types-${n}.json`);
    writeFileSync(file, manyTypes(n));
    const run = sameRun(['config', file]);
    assert.is(run.status, 0, run.stderr.toString());
    assert.ok(
      run.stdout.toString().includes(`layer ${n - 1}: t${n - 1}; kv_heads 4; scheme rope base ${1000 + n - 1} `),
    );
    for (const [cli, program] of [
      ['native', [NATIVE]],
      ['node', [process.execPath, NODE_CLI]],
    ])
      times[`${cli} ${n}`] = Math.min(cpu(program, ['config', file]), cpu(program, ['config', file]));
  }
  console.log(`  posenc config, layer types (CPU s): ${JSON.stringify(times)}`);
  for (const cli of ['native', 'node']) {
    // Less the start (30 types): quadratic is 100 times 300's work, linear 10 (slack for a shared machine).
    const start = times[`${cli} 30`];
    const a = Math.max(0, times[`${cli} 300`] - start);
    const b = times[`${cli} 3000`] - start;
    assert.ok(b < 25 * a + 2, `${cli}: 3,000 types took ${b.toFixed(2)} s past the start, 300 ${a.toFixed(2)} s`);
  }
});

const base = {
  model_type: 'llama',
  hidden_size: 64,
  num_attention_heads: 4,
  num_hidden_layers: 3,
};
/** Hostile texts keyed by layer type, and the layer types each has. */
const HOSTILE = [
  [
    'escaped and repeated entry keys (the last wins)',
    '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":3,' +
      '"layer_types":["a","b","a"],"rope_parameters":{"\\u0061":{"rope_theta":5},"b":{"rope_theta":6},' +
      '"a":{"rope_theta":7,"rope_type":"linear","factor":2}}}',
  ],
  [
    'the dict named with escapes, repeated after a flat one',
    '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,"layer_types":["a","b"],' +
      '"rope_parameters":{"rope_theta":9},"rope_param\\u0065ters":{"a":{"rope_theta":11},"b":{"rope_theta":12}}}',
  ],
  [
    'layer_types after the dict, brackets and quotes inside strings',
    JSON.stringify({
      ...base,
      rope_parameters: { 'x}"]': { rope_theta: 3, note_: undefined }, '[y': { rope_theta: 4 } },
      comment: 'a } and a ] and a \\" inside',
      layer_types: ['x}"]', '[y', 'x}"]'],
    }),
  ],
  [
    'inside text_config, a null rope_parameters, rope_scaling keyed',
    JSON.stringify({
      model_type: 'gemma3',
      layer_types: ['z'],
      text_config: {
        ...base,
        rope_parameters: null,
        rope_scaling: { a: { rope_theta: 2 }, b: { rope_theta: 3 } },
        layer_types: ['a', 'b', 'a'],
      },
    }),
  ],
  [
    '1e400 in one type: refused, not the default base',
    '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,"layer_types":["a","b"],' +
      '"rope_parameters":{"a":{"rope_theta":500},"b":{"rope_theta":1e400}}}',
  ],
  [
    'hidden members: an earlier layer_types, layer count and dict that later ones replace',
    '{"num_hidden_layers":9,"layer_types":["q","q"],"rope_parameters":{"q":{"rope_theta":0}},"model_type":"llama",' +
      '"hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,"layer_types":["a","b"],' +
      '"rope_param\\u0065ters":{"a":{"rope_theta":500},"b":{"rope_theta":600}}}',
  ],
  [
    'hidden members at the top level and inside text_config, a hidden text_config',
    '{"text_config":{"layer_types":["z"]},"model_type":"gemma3","model_type":"llama","text_config":{' +
      '"rope_scaling":{"a":{"rope_theta":7}},"hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,' +
      '"layer_types":["b","b"],"hidden_size":32,"rope_scaling":{"a":{"rope_theta":70},"b":{"rope_theta":80}},' +
      '"layer_types":["a","b"]}}',
  ],
  [
    'an unknown key in a later type',
    '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":2,"layer_types":["a","b"],' +
      '"rope_parameters":{"a":{"rope_theta":500},"b":{"rope_theta":5,"rope_wobble":1}}}',
  ],
];

/** What fromConfig answers, or the refusal's code and message. */
function answer(call) {
  try {
    return call();
  } catch (error) {
    if (!(error instanceof PosencError)) throw error;
    return { code: error.code, message: error.message };
  }
}

test('every layer type read in one reading answers as the whole config read for that type alone', () => {
  let checked = 0;
  for (const [name, text] of HOSTILE) {
    const whole = answer(() => posenc.fromConfig(text));
    const types = whole.layerTypes ? Object.keys(whole.layerTypes) : ['a', 'b'];
    for (const type of types) {
      // The whole text read once for this type (ropeFrequencies reads one layer type, no per-layer answer).
      const one = answer(() => Array.from(posenc.ropeFrequencies({ config: text, layerType: type, length: 3 })));
      if (whole.code) {
        // A refusal: the first type that refuses alone refuses the whole answer, in the same words.
        if (one.code) {
          assert.equal(whole, one, `${name}, ${type}: the first refusing type's refusal`);
          checked++;
          break;
        }
        continue;
      }
      assert.ok(!one.code, `${name}, ${type}: ${JSON.stringify(one)}`);
      const alone = answer(() => posenc.fromConfig(text, { layerType: type }));
      assert.equal(whole.layerTypes[type], alone.rope, `${name}, ${type}: fromConfig's layerTypes`);
      checked++;
    }
    const file = join(dir, 'hostile.json');
    writeFileSync(file, text);
    for (const format of ['text', 'json']) sameRun(['config', file, '--format', format]);
  }
  assert.ok(checked >= 12, `${checked} layer types checked`);
});

test('many layer types beside a large remainder: linear in both CLIs and fromConfig, the same bytes', () => {
  // 1,000 types beside a 1.9 MB array: each type read with everything outside the dict cost 1,000 readings of the
  // array (quadratic); one reading costs the array once plus the types. The references are the two parts alone.
  const parts = { both: manyTypes(1000, 700), types: manyTypes(1000, 0), table: manyTypes(1, 700) };
  const files = {};
  for (const [key, text] of Object.entries(parts)) {
    files[key] = join(dir, `beside-${key}.json`);
    writeFileSync(files[key], text);
  }
  const run = sameRun(['config', files.both]);
  assert.is(run.status, 0, run.stderr.toString());
  assert.ok(run.stdout.toString().includes('layer 999: t999; kv_heads 4; scheme rope base 1999 '));
  const seconds = (call) => {
    let best = Infinity;
    for (let k = 0; k < 2; k++) {
      const started = process.cpuUsage();
      call();
      const used = process.cpuUsage(started);
      best = Math.min(best, (used.user + used.system) / 1e6);
    }
    return best;
  };
  const times = {};
  for (const key of Object.keys(parts)) {
    times[`fromConfig ${key}`] = seconds(() => posenc.fromConfig(parts[key]));
    for (const [cli, program] of [
      ['native', [NATIVE]],
      ['node', [process.execPath, NODE_CLI]],
    ])
      times[`${cli} ${key}`] = Math.min(cpu(program, ['config', files[key]]), cpu(program, ['config', files[key]]));
  }
  console.log(`  1,000 types beside a 1.9 MB array (CPU s): ${JSON.stringify(times)}`);
  for (const who of ['fromConfig', 'native', 'node']) {
    const both = times[`${who} both`],
      parts2 = times[`${who} types`] + times[`${who} table`];
    // Linear: about the parts' sum (each CLI's start counted twice there); quadratic was hundreds of times it.
    assert.ok(both < 4 * parts2 + 1, `${who}: ${both.toFixed(2)} s, the parts alone ${parts2.toFixed(2)} s`);
  }
});

/** A config like the JS fuzzer's config:3397795266: an earlier layer_types of `hidden` entries, then 30 types. */
function hiddenList(hidden) {
  const rope_parameters = {};
  for (let i = 0; i < 30; i++) rope_parameters[`t${i}`] = { rope_theta: 1000 + i };
  const early = JSON.stringify(new Array(hidden).fill('full_attention'));
  const late = JSON.stringify({
    ...base,
    num_hidden_layers: 30,
    layer_types: Object.keys(rope_parameters),
    rope_parameters,
  });
  return `{"num_hidden_layers":${hidden},"layer_types":${early},${late.slice(1)}`;
}

test('posenc config: a 6.8 MB layer_types hidden by a later one costs nothing per layer type, the same bytes', () => {
  const file = join(dir, 'hidden-list.json');
  writeFileSync(file, hiddenList(200000));
  const run = sameRun(['config', file]);
  assert.is(run.status, 0, run.stderr.toString());
  assert.ok(run.stdout.toString().includes('layer 29: t29; kv_heads 4; scheme rope base 1029 '));
  // Each of the 30 types read the whole 6.8 MB several times over: 7 s of CPU native, past 20 s in Node, before
  // the jump table (src/core/config/json.c) and the cut without hidden members; now a fraction of a second.
  const native = cpu([NATIVE], ['config', file]);
  const node = cpu([process.execPath, NODE_CLI], ['config', file]);
  console.log(`  posenc config, 6.8 MB hidden list, 30 types (CPU s): native ${native}, node ${node}`);
  assert.ok(native < 2, `native: ${native} s`);
  assert.ok(node < 6, `node: ${node} s`);
});

test('1e400 as a base or factor is refused naming the key, where it read as infinity or the default', () => {
  const file = join(dir, 'overflow.json');
  for (const [text, key] of [
    ['{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"rope_theta":1e400}', 'rope_theta'],
    [
      '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"rope_scaling":{"rope_type":"linear","factor":-1e999}}',
      'rope_scaling.factor',
    ],
  ]) {
    const got = answer(() => posenc.fromConfig(text));
    assert.is(got.code, 'BAD_SCALING', `${key}: ${JSON.stringify(got)}`);
    assert.is(got.message, `config key '${key}' must be a finite number: it is past the range of a double`);
    writeFileSync(file, text);
    const run = sameRun(['rope', '--config', file, '--length', '2']);
    assert.is(run.status, 1);
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
