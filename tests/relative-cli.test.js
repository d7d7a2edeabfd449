// `posenc t5-buckets` in both CLIs: the native (build/posenc) and the Node
// (src/js/cli/main.js) one print the same bytes for every format and option, fail
// alike with the same messages, write the same --output file, and print the
// package's buckets (t5Buckets) across the CLI's row chunks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instantiate } from '../src/js/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const NATIVE = join(root, 'build/posenc');
const NODE_CLI = join(root, 'src/js/cli/cli.js');
const pe = await instantiate();

const native = (args) => spawnSync(NATIVE, ['t5-buckets', ...args], { maxBuffer: 1 << 28 });
const node = (args) => spawnSync(process.execPath, [NODE_CLI, 't5-buckets', ...args], { maxBuffer: 1 << 28 });

function sameRun(args) {
  const a = native(args);
  const b = node(args);
  const what = `posenc t5-buckets ${args.join(' ')}`;
  assert.is(b.status, a.status, `exit code of ${what}: node ${b.stderr}`);
  assert.ok(
    Buffer.compare(a.stdout, b.stdout) === 0,
    `stdout of ${what} differs:\nnative ${a.stdout.subarray(0, 300)}\nnode   ${b.stdout.subarray(0, 300)}`,
  );
  assert.is(b.stderr.toString(), a.stderr.toString(), `stderr of ${what}`);
  return a;
}

test('same bytes in both CLIs: formats, causal, offsets, bucket settings, empty shapes', () => {
  for (const format of ['text', 'csv', 'json']) {
    for (const extra of [
      [],
      ['--causal'],
      ['--key-length', '40', '--offset', '2147483600'],
      ['--num-buckets', '8', '--max-distance', '20'],
      ['--num-buckets=64', '--max-distance=1000', '--causal'],
      ['--key-length', '0', '--offset', '3'],
      ['--query-length', '0'],
    ]) {
      // The extras replace the defaults (an option given twice is refused).
      const given = new Map([
        ['--query-length', '5'],
        ['--key-length', '30'],
      ]);
      const flags = extra.filter((a) => a === '--causal' || a.includes('='));
      for (let i = 0; i < extra.length; i++) if (!flags.includes(extra[i])) given.set(extra[i], extra[++i]);
      const run = sameRun([...[...given].flat(), '--format', format, ...flags]);
      assert.is(run.status, 0, run.stderr.toString());
    }
  }
});

test("the printed buckets are the package's, across the CLI's 65536-value chunks", () => {
  const args = ['--query-length', '300', '--key-length', '500', '--offset', '100', '--format', 'csv'];
  const run = sameRun(args);
  const rows = run.stdout
    .toString()
    .trimEnd()
    .split('\n')
    .map((line) => line.split(',').map(Number));
  const want = pe.t5Buckets({ queryLength: 300, keyLength: 500, offset: 100 });
  assert.is(rows.length, 300);
  rows.forEach((row, i) => assert.equal(row, Array.from(want.subarray(i * 500, (i + 1) * 500)), `row ${i}`));
  const json = JSON.parse(
    sameRun(['--query-length', '3', '--key-length', '7', '--format', 'json', '--causal']).stdout.toString(),
  );
  assert.equal(json.flat(), Array.from(pe.t5Buckets({ queryLength: 3, keyLength: 7, bidirectional: false })));
});

test('--output FILE: both CLIs write the bytes they print', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-t5-'));
  try {
    const args = ['--query-length', '20', '--key-length', '90', '--format', 'json'];
    const printed = sameRun(args).stdout;
    for (const [name, run] of [
      ['native', native],
      ['node', node],
    ]) {
      const file = join(dir, `${name}.json`);
      const result = run([...args, '--output', file]);
      assert.is(result.status, 0, result.stderr.toString());
      assert.is(result.stdout.length, 0);
      assert.ok(Buffer.compare(readFileSync(file), printed) === 0, `${name} --output`);
    }
    sameRun([...args, '--output', join(dir, 'no/such/dir/out.json')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--help and --version alike; the version is package.json's", () => {
  const help = sameRun(['--help']);
  assert.ok(help.stdout.toString().startsWith('usage: posenc t5-buckets --query-length N'));
  sameRun(['-h', '--bogus']);
  const version = sameRun(['--version']).stdout.toString();
  assert.is(version, `posenc ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
});

test('usage errors: same message and exit code 2 in both CLIs', () => {
  const cases = [
    [[], '--query-length is required'],
    [['--query-length'], '--query-length needs a value'],
    [['--query-length', 'x'], 'got x'],
    [['--query-length', '2147483649'], 'from 0 to 2147483648'],
    [['--query-length', '3', '--key-length', '2'], '--offset must be given'],
    [['--query-length', '3', '--offset', '2147483647'], 'at most 2147483648; got 2147483647 + 3'],
    [['--query-length', '3', '--num-buckets', '3'], 'from 4 to 1024'],
    [['--query-length', '3', '--num-buckets', '1', '--causal'], 'from 2 to 1024 with --causal'],
    [['--query-length', '3', '--num-buckets', '1025'], 'got 1025'],
    [['--query-length', '3', '--max-distance', '8'], 'above 8 (the exact distances)'],
    [['--query-length', '3', '--max-distance', '16', '--causal'], 'above 16'],
    [['--query-length', '3', '--format', 'xml'], '--format must be text, csv, json, npy or raw; got xml'],
    [['--query-length', '3', '--format', 'f32'], "T5's buckets are integers: use --format raw (int32) or npy (<i4)"],
    [['--query-length', '3', '--causal=yes'], '--causal takes no value'],
    [['--query-length', '3', '--bogus', '1'], "unknown option '--bogus'"],
    [['--query-length', '3', 'extra'], "unexpected argument 'extra'"],
  ];
  for (const [args, text] of cases) {
    const run = sameRun(args);
    assert.is(run.status, 2, args.join(' '));
    assert.ok(run.stderr.toString().includes(text), `${args.join(' ')}: ${run.stderr}`);
  }
});

test.run();
