// The per-layer answer of configs with thousands of layers (issue 25): linear
// time in the layers in fromConfig, the JS CLI and the native CLI (each layer
// read the whole config again: 3,000 Gemma 3 layers took 4.4 s in fromConfig,
// 4.3 s in the native `posenc config`, 16 s in the JS one; 2^20 layers in a
// 100-byte config took fromConfig 11 s), the answer the same as the layer
// pattern written out here, and the stated cap, PE_CONFIG_MAX_LAYERS (65,536),
// refused alike by the API and both CLIs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate, PosencError } from '../src/js/index.js';
import { spawnSync } from 'node:child_process';
import { NATIVE, NODE_CLI, sameRun } from './support/cli-run.js';

const posenc = await instantiate({ simd: true });
const dir = mkdtempSync(join(tmpdir(), 'posenc-layers-'));

const kindOf = (i) => ((i + 1) % 6 ? 'sliding_attention' : 'full_attention');
/** Gemma 3 as transformers v5 writes it, with n layers named by layer_types. */
const gemma = (n) => ({
  model_type: 'gemma3_text',
  head_dim: 256,
  num_attention_heads: 4,
  num_key_value_heads: 1,
  num_hidden_layers: n,
  layer_types: Array.from({ length: n }, (_, i) => kindOf(i)),
  rope_parameters: { full_attention: { rope_theta: 1e6 }, sliding_attention: { rope_theta: 10000 } },
});
/** Llama 4 with n layers and a no_rope_layers list (every fourth layer NoPE). */
const llama4 = (n) => ({
  model_type: 'llama4_text',
  head_dim: 128,
  num_attention_heads: 40,
  num_key_value_heads: 8,
  num_hidden_layers: n,
  rope_theta: 500000,
  no_rope_layers: Array.from({ length: n }, (_, i) => ((i + 1) % 4 ? 1 : 0)),
});

/** CPU milliseconds of call() (the machine is shared: wall time says little), the best of `rounds`. */
function cpuMs(call, rounds = 2) {
  let best = Infinity;
  for (let k = 0; k < rounds; k++) {
    const t = process.cpuUsage();
    call();
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

test('fromConfig: every layer of 30,000 as the pattern says, text and object alike', () => {
  const text = JSON.stringify(gemma(30000));
  const d = posenc.fromConfig(text);
  assert.is(d.layers.length, 30000);
  for (const l of d.layers) {
    const kind = kindOf(l.index);
    if (l.kind !== kind || l.layerType !== kind || l.scheme !== 'rope' || l.kvHeads !== 1)
      assert.unreachable(`layer ${l.index}: ${JSON.stringify(l)}`);
    if (l.rope.base !== (kind === 'full_attention' ? 1e6 : 10000)) assert.unreachable(`layer ${l.index} base`);
  }
  assert.equal(posenc.fromConfig(JSON.parse(text)).layers, d.layers);
  const l4 = posenc.fromConfig(llama4(30000)).layers;
  for (const l of l4) {
    const nope = (l.index + 1) % 4 === 0;
    if ((l.scheme === 'none') !== nope || (nope && l.none !== 'nope')) assert.unreachable(`llama4 layer ${l.index}`);
  }
});

test('fromConfig is linear in the layers: 30,000 take about 10 times 3,000', () => {
  for (const [name, make] of [
    ['gemma 3', gemma],
    ['llama 4', llama4],
  ]) {
    const small = JSON.stringify(make(3000));
    const large = JSON.stringify(make(30000));
    posenc.fromConfig(small); // warm
    const a = cpuMs(() => posenc.fromConfig(small), 3);
    const b = cpuMs(() => posenc.fromConfig(large));
    console.log(`  fromConfig ${name}: 3,000 layers ${a.toFixed(0)} ms, 30,000 ${b.toFixed(0)} ms (CPU)`);
    assert.ok(b < 30 * a + 300, `${name}: 10x the layers took ${(b / a).toFixed(1)}x the time`);
  }
});

test('posenc config: 30,000 layers in both CLIs, the same bytes, in linear time', () => {
  for (const format of ['text', 'json']) {
    const times = {};
    for (const n of [3000, 30000]) {
      const file = join(dir, `gemma-${n}.json`);
      writeFileSync(file, JSON.stringify(gemma(n)));
      const args = ['config', file, '--format', format];
      const run = sameRun(args);
      assert.is(run.status, 0, run.stderr.toString());
      if (format === 'text')
        assert.ok(run.stdout.toString().startsWith(`layers 0-4,6-10,`), run.stdout.subarray(0, 80).toString());
      // CPU seconds of each CLI, from bash's `time` (a child's CPU time: the machine is shared).
      for (const [cli, program] of [
        ['native', [NATIVE]],
        ['node', [process.execPath, NODE_CLI]],
      ]) {
        const timed = spawnSync(
          'bash',
          ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" > /dev/null', 'time', ...program, ...args],
          {
            encoding: 'utf8',
          },
        );
        const [user, sys] = timed.stderr.trim().split('\n').pop().split(' ').map(Number);
        times[`${cli} ${n}`] = user + sys;
      }
    }
    console.log(`  posenc config --format ${format} (CPU s): ${JSON.stringify(times)}`);
    for (const cli of ['native', 'node'])
      assert.ok(
        times[`${cli} 30000`] < 30 * times[`${cli} 3000`] + 1,
        `${cli}: 10x the layers took ${times[`${cli} 30000`]} s, 3,000 ${times[`${cli} 3000`]} s`,
      );
  }
});

test('more layers than PE_CONFIG_MAX_LAYERS: TOO_LARGE naming the key, in the API and both CLIs alike', () => {
  const bloom = { model_type: 'bloom', hidden_size: 64, n_head: 8, n_layer: 2 ** 20 };
  assert.throws(
    () => posenc.fromConfig(bloom),
    (e) =>
      e instanceof PosencError &&
      e.code === 'TOO_LARGE' &&
      e.argument === 'config.n_layer' &&
      e.message === "config key 'n_layer' makes 1048576 layers; posenc answers at most 65536 (PE_CONFIG_MAX_LAYERS)",
  );
  assert.is(posenc.fromConfig({ ...bloom, n_layer: 65536 }).layers.length, 65536);
  const file = join(dir, 'bloom.json');
  writeFileSync(file, JSON.stringify(bloom));
  for (const args of [
    ['config', file],
    ['alibi', '--config', file],
  ]) {
    const run = sameRun(args); // status, stdout and stderr byte for byte
    assert.is(run.status, 1, args.join(' '));
    assert.match(run.stderr.toString(), /config key 'n_layer' makes 1048576 layers; posenc answers at most 65536/);
  }
  const llama = join(dir, 'llama.json');
  writeFileSync(llama, JSON.stringify({ ...llama4(4), num_hidden_layers: 70000, no_rope_layers: [] }));
  const run = sameRun(['rope', '--config', llama, '--length', '2']);
  assert.is(run.status, 1);
  assert.match(run.stderr.toString(), /config key 'num_hidden_layers' makes 70000 layers/);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
