// Both CLIs read their input files through one reader each (src/cli/read_input.c,
// src/js/cli/read-input.js), with the same caps and words: '-' is standard input
// wherever a file is read; a regular file above its cap is refused before it is
// read; a stream (/dev/zero, a FIFO with an endless writer) stops at the cap;
// a missing file names the path and the OS's reason with exit status 2. And both
// read a config's text with JSON's own semantics, as fromConfig does on the text
// and on JSON.parse of it. Each case is run by both CLIs, which must agree byte
// for byte.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync, openSync, ftruncateSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATIVE, NODE_CLI, native, sameRun } from './support/cli-run.js';
import { init, fromConfig } from '../src/js/index.js';

const dir = mkdtempSync(join(tmpdir(), 'posenc-inputs-'));
const LLAMA = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, rope_theta: 500000 };
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify(LLAMA));
const table = join(dir, 'table.npy');
writeFileSync(table, native(['table', '--length', '64', '--dim', '16', '--format', 'npy']).stdout);
const ids = join(dir, 'ids.txt');
writeFileSync(ids, '0 1 2 7\n');
const layered = join(dir, 'layered.json'); // `posenc config` answers per layer
writeFileSync(layered, JSON.stringify({ ...LLAMA, num_hidden_layers: 3 }));
const bloom = join(dir, 'bloom.json');
writeFileSync(bloom, JSON.stringify({ model_type: 'bloom', n_head: 8, hidden_size: 64, n_layer: 2 }));

/** `cli args` through bash with `redirect` (stdin or a pipe); { status, stdout, stderr } as text. */
function shell(cli, args, redirect) {
  const quoted = [...cli, ...args].map((a) => `'${a}'`).join(' ');
  const run = spawnSync('bash', ['-c', `${quoted} ${redirect}`], { timeout: 60_000, maxBuffer: 1 << 26 });
  return { status: run.status, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}
const CLIS = { native: [NATIVE], node: [process.execPath, NODE_CLI] };

/** Both CLIs through bash: the same status, stdout and stderr; returns the native run. */
function bothShell(args, redirect) {
  const [a, b] = Object.values(CLIS).map((cli) => shell(cli, args, redirect));
  assert.is(b.status, a.status, `status of ${args.join(' ')} ${redirect}: node said ${b.stderr}`);
  assert.is(b.stdout, a.stdout, `stdout of ${args.join(' ')} ${redirect}`);
  assert.is(b.stderr, a.stderr, `stderr of ${args.join(' ')} ${redirect}`);
  return a;
}

test("'-' reads standard input wherever a file is read, in both CLIs", () => {
  const cases = [
    [['identify', table], ['identify', '-'], table],
    [['rope', '--config', config], ['rope', '--config', '-'], config],
    [['config', layered], ['config', '-'], layered], // read once: every layer's reading reuses the text
    [['alibi', '--config', bloom], ['alibi', '--config', '-'], bloom],
    [
      ['rope', '--config', config, '--position-ids', `@${ids}`],
      ['rope', '--config', config, '--position-ids', '@-'],
      ids,
    ],
  ];
  for (const [fromFile, fromStdin, file] of cases) {
    const want = sameRun(fromFile);
    assert.is(want.status, 0, `${fromFile.join(' ')}: ${want.stderr}`);
    for (const redirect of [`< '${file}'`, `< <(cat '${file}')`]) {
      // a file, then a pipe
      const got = bothShell(fromStdin, redirect);
      assert.is(got.status, 0, `${fromStdin.join(' ')} ${redirect}: ${got.stderr}`);
      assert.is(got.stdout, want.stdout.toString(), `${fromStdin.join(' ')} ${redirect}`);
    }
  }
});

test('a missing file: the path and the reason, exit status 2, in both CLIs', () => {
  const missing = join(dir, 'nope');
  for (const [args, what] of [
    [['rope', '--config', missing], '--config'],
    [['alibi', '--config', missing], '--config'],
    [['identify', missing], 'identify'],
    [['rope', '--config', config, '--position-ids', `@${missing}`], '--position-ids'],
  ]) {
    const run = sameRun(args);
    assert.is(run.status, 2, args.join(' '));
    assert.is(run.stderr.toString(), `posenc: ${what}: cannot read ${missing}: No such file or directory\n`);
  }
  const run = sameRun(['identify', dir]);
  assert.is(run.stderr.toString(), `posenc: identify: cannot read ${dir}: Is a directory\n`);
});

test('a regular file above its cap is refused before it is read, in both CLIs', () => {
  for (const [args, name, cap, noun] of [
    [(f) => ['rope', '--config', f], '--config', 64, 'a config.json'],
    [(f) => ['identify', f], 'identify', 256, 'a table'],
    [(f) => ['rope', '--config', config, '--position-ids', `@${f}`], '--position-ids', 64, 'a file of position ids'],
  ]) {
    const big = join(dir, `big-${cap}`);
    const fd = openSync(big, 'w');
    ftruncateSync(fd, cap * 2 ** 20 + 1); // sparse: nothing to read in time, were it read
    closeSync(fd);
    const started = Date.now();
    const run = sameRun(args(big));
    assert.is(run.status, 1, run.stderr.toString());
    assert.is(run.stderr.toString(), `posenc: ${name}: ${big} is larger than ${cap} MiB, posenc's limit for ${noun}\n`);
    assert.ok(Date.now() - started < 10_000, 'refused at once');
    rmSync(big);
  }
});

test('an endless stream (/dev/zero, a FIFO fed by yes) stops at the cap in both CLIs', () => {
  for (const [args, name, cap, noun] of [
    [['rope', '--config', '/dev/zero'], '--config', 64, 'a config.json'],
    [['rope', '--config', config, '--position-ids', '@/dev/zero'], '--position-ids', 64, 'a file of position ids'],
    [['identify', '/dev/zero'], 'identify', 256, 'a table'],
  ]) {
    const run = bothShell(args, '');
    assert.is(run.status, 1);
    assert.is(run.stderr, `posenc: ${name}: /dev/zero is larger than ${cap} MiB, posenc's limit for ${noun}\n`);
  }
  const fifo = join(dir, 'fifo');
  spawnSync('mkfifo', [fifo]);
  for (const cli of Object.values(CLIS)) {
    const run = spawnSync(
      'bash',
      ['-c', `(yes > '${fifo}' 2>/dev/null &) ; ${[...cli, 'rope', '--config', fifo].map((a) => `'${a}'`).join(' ')}`],
      { timeout: 60_000 },
    );
    assert.is(run.status, 1, run.stderr.toString());
    assert.is(
      run.stderr.toString(),
      `posenc: --config: ${fifo} is larger than 64 MiB, posenc's limit for a config.json\n`,
    );
  }
  // a FIFO fed a config once reads like the file
  for (const cli of Object.values(CLIS)) {
    const run = spawnSync(
      'bash',
      ['-c', `(cat '${config}' > '${fifo}' &) ; ${[...cli, 'rope', '--config', fifo].map((a) => `'${a}'`).join(' ')}`],
      { timeout: 60_000 },
    );
    assert.is(run.stdout.toString(), native(['rope', '--config', config]).stdout.toString());
  }
});

test('t5-buckets refuses a row it would have to build whole past 2^24 keys, in both CLIs alike', () => {
  for (const keys of ['16777217', '2147483648']) {
    const run = sameRun(['t5-buckets', '--query-length', '1', '--key-length', keys]);
    assert.is(run.status, 2);
    assert.is(
      run.stderr.toString(),
      `posenc: --key-length must be an integer from 0 to 16777216 (a row of buckets is made whole, at most 64 MiB); got ${keys}\n`,
    );
  }
});

test('a config read with JSON semantics gives one answer: both CLIs, fromConfig on the text and on JSON.parse', async () => {
  await init();
  const texts = [
    '{"model_type": "llama", "head_dim": 8, "rope_theta": 10, "rope_theta": 500000, "num_attention_heads": 2}',
    '{"model_\\u0074ype": "llama", "head_dim": 8, "rope\\u005ftheta": 500000}',
    '{"model_type": "llama", "head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 2}, "rope_scaling": {"rope_type": "linear", "factor": 4}}',
    '{"model_type": "llama", "head_dim": 8, "rope_wobble": 0, "rope_wobble": 1}',
    `{"a": ${'['.repeat(999)}${']'.repeat(999)}, "model_type": "llama", "head_dim": 8}`,
    `{"a": ${'['.repeat(1000)}${']'.repeat(1000)}, "model_type": "llama", "head_dim": 8}`,
    '{"text_config": {"model_type": "llama", "head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 2, "mrope_interleaved": true}}}',
  ];
  const answers = [];
  texts.forEach((text, k) => {
    const path = join(dir, `semantics-${k}.json`);
    writeFileSync(path, text);
    const run = sameRun(['rope', '--config', path]);
    const describe = (config) => {
      try {
        const d = fromConfig(config);
        return JSON.stringify(d.rope);
      } catch (error) {
        return `${error.code}: ${error.message}`;
      }
    };
    const fromText = describe(text);
    let parsed;
    try {
      parsed = describe(JSON.parse(text));
    } catch {
      parsed = fromText;
    }
    assert.is(parsed, fromText, `fromConfig on the text and on JSON.parse of case ${k}`);
    answers.push([run.status, run.stderr.toString(), fromText]);
  });
  assert.is(answers[0][0], 0);
  assert.match(answers[0][2], /"base":500000/);
  assert.match(answers[1][2], /"base":500000/);
  assert.match(answers[2][2], /"factor":4/);
  assert.is(
    answers[3][1],
    "posenc: config key 'rope_wobble' changes the position encoding and posenc does not read it for this model\n",
  );
  assert.is(answers[4][0], 0);
  assert.is(
    answers[5][1],
    "posenc: config key '(config)' nests objects and arrays deeper than 1000 levels, posenc's limit for a config.json\n",
  );
  assert.is(
    answers[6][1],
    "posenc: config key 'text_config.rope_scaling.mrope_interleaved' is not a key of rope_type 'linear' that posenc knows (HF's names), so it is refused\n",
  );
  // invalid UTF-8 and a byte-order mark are refused alike by both CLIs
  for (const bytes of [
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]),
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(LLAMA))]),
  ]) {
    const path = join(dir, 'bytes.json');
    writeFileSync(path, bytes);
    const run = sameRun(['rope', '--config', path]);
    assert.is(
      run.stderr.toString(),
      "posenc: config key '(config)' must be a JSON object: the text of a config.json\n",
    );
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
