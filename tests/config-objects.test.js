// Config objects that JSON cannot hold (issue 25): JSON.stringify writes NaN
// and infinities as null (so a NaN rope_theta silently became the default
// base), drops functions and symbols, and throws a TypeError on a BigInt or a
// cycle and a RangeError on deep nesting. fromConfig and every RoPE call that
// takes `config` refuse each with BAD_CONFIG naming the key path; getters of a
// config object run once; RoPE keyed by 3,000 layer types reads in linear time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { MAX_CONFIG_DEPTH, MAX_CONFIG_BYTES } from '../src/js/runtime/config-read.js';

let posenc;
test.before(async () => {
  posenc = await instantiate();
});

const llama = (extra) => ({ model_type: 'llama', hidden_size: 64, num_attention_heads: 4, ...extra });

function refusesConfig(call, path, name) {
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, `${name}: ${error}`);
    assert.is(error.code, 'BAD_CONFIG', `${name}: ${error.message}`);
    if (path !== undefined) {
      assert.is(error.argument, path, `${name}: ${error.message}`);
      assert.ok(error.message.includes(path), `${name}: the message names ${path}: ${error.message}`);
    }
    return;
  }
  assert.unreachable(`${name} was accepted`);
}

test('NaN and infinities anywhere in a config object are BAD_CONFIG naming the key (NaN was the default base)', () => {
  const cases = [
    [llama({ rope_theta: NaN }), 'config.rope_theta'],
    [llama({ rope_theta: Infinity }), 'config.rope_theta'],
    [llama({ rope_scaling: { rope_type: 'linear', factor: -Infinity } }), 'config.rope_scaling.factor'],
    [{ text_config: llama({ rope_theta: NaN }) }, 'config.text_config.rope_theta'],
    [llama({ unrelated: [1, 2, NaN] }), 'config.unrelated[2]'],
  ];
  for (const [config, path] of cases) {
    refusesConfig(() => posenc.fromConfig(config), path, `fromConfig ${path}`);
    refusesConfig(() => posenc.ropeFrequencies({ config }), path, `ropeFrequencies ${path}`);
    refusesConfig(() => posenc.createRope({ config }), path, `createRope ${path}`);
    const x = new Float32Array(16).fill(0.5);
    refusesConfig(() => posenc.rope(x, { config, length: 1 }), path, `rope ${path}`);
    assert.ok(
      x.every((v) => v === 0.5),
      'x untouched',
    );
  }
});

test('BigInt, functions, symbols, undefined array elements and class instances are BAD_CONFIG, not TypeError', () => {
  const cases = [
    [llama({ rope_theta: 10000n }), 'config.rope_theta'],
    [llama({ rope_scaling: { rope_type: 'linear', factor: () => 2 } }), 'config.rope_scaling.factor'],
    [llama({ note: Symbol('x') }), 'config.note'],
    [llama({ list: [1, undefined] }), 'config.list[1]'],
    [llama({ list: [1, , 3] }), 'config.list[1]'], // eslint-disable-line no-sparse-arrays
    [llama({ when: new Date(0) }), 'config.when'],
    [llama({ table: new Map() }), 'config.table'],
    [llama({ w: new Float32Array(2) }), 'config.w'],
  ];
  for (const [config, path] of cases) refusesConfig(() => posenc.fromConfig(config), path, path);
  // An undefined property is absent, as JSON.stringify has it.
  assert.is(posenc.fromConfig(llama({ rope_scaling: undefined })).kind, 'rope');
  assert.is(posenc.fromConfig(Object.assign(Object.create(null), llama())).kind, 'rope');
});

test('a cycle, and nesting deeper than the stated bound, are BAD_CONFIG (were TypeError and RangeError)', () => {
  const cyclic = llama();
  cyclic.text_config = cyclic;
  refusesConfig(() => posenc.fromConfig(cyclic), 'config.text_config', 'text_config loop');
  const indirect = llama({ a: { b: {} } });
  indirect.a.b.c = indirect.a;
  refusesConfig(() => posenc.fromConfig(indirect), 'config.a.b.c', 'indirect loop');
  // The same object twice is no cycle.
  const shared = { rope_type: 'linear', factor: 2 };
  assert.is(posenc.fromConfig(llama({ rope_scaling: shared, other: { s: shared } })).kind, 'rope');
  let deep = 1;
  for (let i = 0; i < 200000; i++) deep = { d: deep };
  refusesConfig(() => posenc.fromConfig(llama({ deep })), 'config', 'very deep');
  // Around the stated bound, an object and its text get one answer (the core's bound is the same).
  const outcome = (config) => {
    try {
      return posenc.fromConfig(config).kind;
    } catch (error) {
      assert.instance(error, PosencError);
      return error.code;
    }
  };
  for (const levels of [MAX_CONFIG_DEPTH - 1, MAX_CONFIG_DEPTH, MAX_CONFIG_DEPTH + 1]) {
    let nested = 1;
    for (let i = 0; i < levels - 1; i++) nested = [nested]; // levels - 1 arrays inside the top-level object
    const config = llama({ nested });
    assert.is(outcome(config), outcome(JSON.stringify(config)), `${levels} levels`);
    if (levels > MAX_CONFIG_DEPTH) assert.is(outcome(config), 'BAD_CONFIG', `${levels} levels`);
  }
});

test('config text above 64 MiB is TOO_LARGE before it is copied to wasm', () => {
  const text = JSON.stringify(llama({ pad: 'x'.repeat(MAX_CONFIG_BYTES) }));
  try {
    posenc.fromConfig(text);
    assert.unreachable('read');
  } catch (error) {
    assert.instance(error, PosencError);
    assert.is(error.code, 'TOO_LARGE', error.message);
    assert.is(error.argument, 'config');
  }
});

test('a config object’s getters run once per call, also with RoPE keyed by layer type', () => {
  let reads = 0;
  const config = llama({
    layer_types: ['a', 'b', 'c'],
    rope_parameters: {
      a: { rope_type: 'default', rope_theta: 100 },
      b: { rope_type: 'linear', factor: 2, rope_theta: 5 },
    },
  });
  Object.defineProperty(config.rope_parameters, 'c', {
    enumerable: true,
    get() {
      reads++;
      return { rope_type: 'default', rope_theta: 7 };
    },
  });
  const d = posenc.fromConfig(config);
  assert.is(reads, 1);
  assert.equal(Object.keys(d.layerTypes), ['a', 'b', 'c']);
  assert.is(d.layerTypes.c.base, 7);
  assert.is(d.layerTypes.b.scaling.factor, 2);
  assert.not.ok(
    d.ignored.some((k) => k.startsWith('rope_parameters')),
    `ignored: ${d.ignored}`,
  );
});

/** A config with n layer types, each with its own RoPE, as transformers v5 writes them. */
function manyTypes(n) {
  const rope_parameters = {};
  for (let i = 0; i < n; i++) rope_parameters[`type_${i}`] = { rope_type: 'default', rope_theta: 1000 + i };
  return llama({ rope_parameters, layer_types: Object.keys(rope_parameters) });
}

test('fromConfig is linear in the layer types (3,000 types took minutes)', () => {
  posenc.fromConfig(manyTypes(50)); // warm
  const time = (n) => {
    const config = manyTypes(n);
    const t = performance.now();
    const d = posenc.fromConfig(config);
    assert.is(Object.keys(d.layerTypes).length, n);
    assert.is(d.layerTypes[`type_${n - 1}`].base, 1000 + n - 1);
    return performance.now() - t;
  };
  const small = Math.max(time(300), time(300));
  const large = time(3000);
  console.log(`  fromConfig: 300 layer types ${small.toFixed(0)} ms, 3000 ${large.toFixed(0)} ms`);
  // Linear measured 2-5x under load (a fixed start), the whole config read per type 20x (71 s): 25x let that pass.
  assert.ok(large < 12 * small + 2000, `10x the layer types took ${(large / small).toFixed(1)}x the time`);
  const text = JSON.stringify(manyTypes(3000));
  const t = performance.now();
  assert.is(Object.keys(posenc.fromConfig(text).layerTypes).length, 3000);
  assert.ok(performance.now() - t < 20 * small + 5000, 'the same from text');
});

test.run();
