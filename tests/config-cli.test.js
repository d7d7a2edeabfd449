// `posenc config FILE`: the native and Node CLIs print the same bytes, text and
// JSON, for every config of the corpus (and the same message for a bad file);
// the JSON's layers are fromConfig's per-layer answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate } from '../src/js/index.js';
import { root, sameRunInProcess } from './support/cli-run.js';

const INDEX = JSON.parse(readFileSync(join(root, 'tests/fixtures/configs-index.json'), 'utf8'));
const file = (name) => join(root, 'tests/fixtures/configs', name);
const posenc = await instantiate({ simd: true });

test('posenc config: the same text and JSON in both CLIs for every corpus config', async () => {
  let lines = 0;
  for (const e of INDEX.entries) {
    for (const format of ['text', 'json']) {
      const run = await sameRunInProcess(['config', file(e.file), '--format', format]);
      if (run.status === 0) lines += run.stdout.toString().split('\n').length;
    }
  }
  console.log(`config-cli: ${INDEX.entries.length} configs, ${lines} lines identical in both CLIs`);
});

test('posenc config: windows, two-sided ones marked, as fromConfig says (ModernBERT, Mistral v0.1, GLM-4)', async () => {
  for (const name of ['modernbert-large-zeroshot-v2.0.json', 'mistral-7b-v0.1.json', 'glm-4-9b-chat.json']) {
    const run = await sameRunInProcess(['config', file(name), '--format', 'json']);
    assert.is(run.status, 0, name);
    const layers = posenc.fromConfig(readFileSync(file(name), 'utf8')).layers;
    JSON.parse(run.stdout.toString()).layers.forEach((p, i) => {
      assert.is(p.sliding_window, layers[i].slidingWindow, `${name} layer ${i}: window`);
      assert.is(p.sliding_bidirectional, layers[i].slidingBidirectional ? 1 : undefined, `${name} layer ${i}`);
    });
  }
  const text = (await sameRunInProcess(['config', file('modernbert-large-zeroshot-v2.0.json')])).stdout.toString();
  assert.match(text, /sliding_attention; kv_heads 16; sliding_window 64; sliding_bidirectional 1;/);
});

test("posenc config --format json: one object a layer, as fromConfig's layers say", async () => {
  for (const name of ['gemma-3-4b-it.json', 'smollm3-3b-base.json', 'ai21-jamba-1.5-mini.json', 'whisper-tiny.json']) {
    const run = await sameRunInProcess(['config', file(name), '--format', 'json']);
    assert.is(run.status, 0, name);
    const printed = JSON.parse(run.stdout.toString());
    const layers = posenc.fromConfig(readFileSync(file(name), 'utf8')).layers;
    assert.is(printed.layers.length, layers.length, name);
    printed.layers.forEach((p, i) => {
      assert.is(p.kind, layers[i].kind, `${name} layer ${i}`);
      assert.is(p.scheme, layers[i].scheme, `${name} layer ${i}`);
      assert.is(p.kv_heads, layers[i].kvHeads, `${name} layer ${i}`);
      if (p.scheme === 'rope') assert.is(p.base, layers[i].rope.base, `${name} layer ${i}`);
    });
  }
  const text = (await sameRunInProcess(['config', file('smollm3-3b-base.json')])).stdout.toString();
  assert.match(text, /^layers 0-2,4-6,.*: attention; kv_heads 4; scheme rope base 5000000 /m);
  assert.match(text, /^layers 3,7,11,15,19,23,27,31,35: attention; kv_heads 4; scheme none none nope$/m);
});

test("posenc config: Llama 4's chunked layers print their attention_chunk, alike in both CLIs", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-config-'));
  const text_config = {
    model_type: 'llama4_text',
    attention_chunk_size: 8192,
    head_dim: 128,
    hidden_size: 5120,
    num_attention_heads: 40,
    num_hidden_layers: 8,
    num_key_value_heads: 8,
    no_rope_layers: [],
    rope_theta: 500000.0,
  };
  writeFileSync(join(dir, 'llama4.json'), JSON.stringify({ model_type: 'llama4', text_config }));
  const text = (await sameRunInProcess(['config', join(dir, 'llama4.json')])).stdout.toString();
  assert.match(text, /^layers 0-2,4-6: chunked_attention; kv_heads 8; attention_chunk 8192; scheme rope base 500000 /m);
  // Llama4TextConfig's attn_temperature_tuning (default on) scales the NoPE layers' queries.
  const nope = 'full_attention; kv_heads 8; query_scale 1 + 1.0000000000000001e-01 ln(1 + floor((p + 1) / 8192));';
  assert.ok(text.includes(`\nlayers 3,7: ${nope} scheme none none nope\n`), text);
  const run = await sameRunInProcess(['config', join(dir, 'llama4.json'), '--format', 'json']);
  const printed = JSON.parse(run.stdout.toString()).layers;
  assert.equal(
    printed.map((l) => l.attention_chunk ?? 0),
    [8192, 8192, 8192, 0, 8192, 8192, 8192, 0],
  );
  rmSync(dir, { recursive: true, force: true });
});

test("posenc config: Devstral Small 2's query scale by position, as fromConfig says, alike in both CLIs", async () => {
  const name = 'devstral-small-2-24b-instruct.json';
  const run = await sameRunInProcess(['config', file(name), '--format', 'json']);
  assert.is(run.status, 0);
  const layers = posenc.fromConfig(readFileSync(file(name), 'utf8')).layers;
  JSON.parse(run.stdout.toString()).layers.forEach((p, i) =>
    assert.equal(p.query_scale, layers[i].queryScale, `layer ${i}`),
  );
  const text = (await sameRunInProcess(['config', file(name)])).stdout.toString();
  assert.match(
    text,
    /^layers 0-39: attention; kv_heads 8; query_scale 1 \+ 1.0000000000000001e-01 ln\(1 \+ floor\(p \/ 8192\)\); scheme rope base 100000000 /m,
  );
});

test('posenc config: sliding layers print their sliding_window, alike in both CLIs', async () => {
  const text = (await sameRunInProcess(['config', file('gemma-2-2b.json')])).stdout.toString();
  assert.match(text, /^layers 0,2,4,.*: sliding_attention; kv_heads 4; sliding_window 4096; scheme rope /m);
  assert.match(text, /^layers 1,3,5,.*: full_attention; kv_heads 4; scheme rope /m);
  const run = await sameRunInProcess(['config', file('gpt-oss-120b.json'), '--format', 'json']);
  const printed = JSON.parse(run.stdout.toString()).layers;
  assert.equal(
    printed.slice(0, 4).map((l) => l.sliding_window ?? 0),
    [128, 0, 128, 0],
  );
  const phi = (await sameRunInProcess(['config', file('phi-3-mini-4k-instruct.json')])).stdout.toString();
  assert.match(phi, /^layers 0-31: attention; kv_heads 32; sliding_window 2047; scheme rope /m);
});

test('posenc config: a missing file, a bad format and a config without layers fail alike', async () => {
  // A config without a layer count (top level or text_config): the JS CLI threw a TypeError.
  const dir = mkdtempSync(join(tmpdir(), 'posenc-config-'));
  const llama = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, rope_theta: 10000 };
  writeFileSync(join(dir, 'top.json'), JSON.stringify(llama));
  writeFileSync(join(dir, 'text.json'), JSON.stringify({ model_type: 'x', text_config: llama }));
  for (const args of [
    ['config', '/nonexistent/config.json'],
    ['config', file('gpt2.json'), '--format', 'csv'],
    ['config'],
    ['config', join(dir, 'top.json')],
    ['config', join(dir, 'text.json'), '--format', 'json'],
  ]) {
    const run = await sameRunInProcess(args); // status, stdout and stderr byte for byte
    assert.ok(run.status !== 0, args.join(' '));
  }
  rmSync(dir, { recursive: true, force: true });
});

// HF indexes layer_types and no_rope_layers by layer: anything but a list there (or a layer type that is not a
// short name) fails when the model is built. Both CLIs and fromConfig refuse it naming the key, where the native
// CLI asked for --layer-type and the JS one refused a layerType "" (the ten-minute fuzz, config:1668755482).
test('posenc config: layer_types and no_rope_layers that are not lists are refused by name, alike', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-config-'));
  const base = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 4 };
  const typed = { rope_parameters: { t0: { rope_theta: 1000 }, t1: { rope_theta: 1001 } } };
  const cases = [
    ['layer_types', { ...base, ...typed, layer_types: 7 }],
    ['layer_types', { ...base, ...typed, layer_types: { t0: 1 } }],
    ['layer_types', { ...base, ...typed, layer_types: ['t0', 1, 't1', 't0'] }],
    ['layer_types', { ...base, layer_types: ['t0', 'x'.repeat(24), 't0', 't0'] }],
    ['no_rope_layers', { ...base, model_type: 'smollm3', no_rope_layers: 3 }],
  ];
  for (const [key, config] of cases) {
    const path = join(dir, 'c.json');
    writeFileSync(path, JSON.stringify(config));
    const run = await sameRunInProcess(['config', path]); // status, stdout and stderr byte for byte
    assert.is(run.status, 1, JSON.stringify(config));
    assert.match(run.stderr.toString(), `config key '${key}' must `);
    try {
      posenc.fromConfig(config);
      assert.unreachable(`fromConfig accepted ${JSON.stringify(config)}`);
    } catch (e) {
      assert.is(e.code, 'BAD_CONFIG');
      assert.match(e.message, `'${key}'`);
    }
  }
  // The fuzz case itself: duplicates leave layer_types 7 (the last one wins, as in JSON.parse).
  writeFileSync(
    join(dir, 'dup.json'),
    '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":4,"layer_types":7,' +
      '"layer_types":["t0","t1","t1","t0"],"rope_parameters":{"t0":{"rope_theta":1000},"t1":{"rope_theta":1001}},' +
      '"layer_types":7}',
  );
  const dup = await sameRunInProcess(['config', join(dir, 'dup.json')]);
  assert.match(dup.stderr.toString(), "config key 'layer_types' must be a list");
  // A list still answers: the types listed, each with its own base.
  writeFileSync(join(dir, 'ok.json'), JSON.stringify({ ...base, ...typed, layer_types: ['t0', 't1', 't1', 't0'] }));
  const ok = (await sameRunInProcess(['config', join(dir, 'ok.json')])).stdout.toString();
  assert.match(ok, /^layers 0,3: t0; kv_heads 4; scheme rope base 1000 /m);
  rmSync(dir, { recursive: true, force: true });
});

test.run();
