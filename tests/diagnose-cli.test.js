// `posenc identify FILE` in both CLIs: the Node CLI (src/js/cli/identify.js,
// the package's readers) and the native one (src/cli/identify_command.c, its own
// readers) print the same bytes for .npy, .safetensors, CSV and raw float32
// files, report and JSON, and fail alike on NaN cells and bad options.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as peers from './support/diagnose-peers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const NATIVE = join(root, 'build/posenc');
const NODE_CLI = join(root, 'src/js/cli/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'posenc-identify-'));

const native = (args) => spawnSync(NATIVE, ['identify', ...args], { maxBuffer: 1 << 24 });
const node = (args) => spawnSync(process.execPath, [NODE_CLI, 'identify', ...args], { maxBuffer: 1 << 24 });

function sameRun(args) {
  const a = native(args);
  const b = node(args);
  assert.is(b.status, a.status, `exit code of identify ${args.join(' ')}: native ${a.stderr} node ${b.stderr}`);
  assert.ok(
    Buffer.compare(a.stdout, b.stdout) === 0,
    `stdout of identify ${args.join(' ')} differs:\nnative ${a.stdout}\nnode   ${b.stdout}`,
  );
  assert.is(b.stderr.toString(), a.stderr.toString(), `stderr of identify ${args.join(' ')}`);
  return a;
}

const bytesOf = (floats) => Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);

function npy(floats, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const pre = Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 255, header.length >> 8]);
  return Buffer.concat([pre, Buffer.from(header, 'latin1'), bytesOf(floats)]);
}

function safetensors(tensors) {
  const header = {};
  let at = 0;
  for (const [name, floats, shape] of tensors) {
    header[name] = { dtype: 'F32', shape, data_offsets: [at, at + floats.byteLength] };
    at += floats.byteLength;
  }
  header.__metadata__ = { format: 'pt' };
  const text = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([length, text, ...tensors.map(([, floats]) => bytesOf(floats))]);
}

const csv = (floats, rows, dim) => {
  const lines = [
    '# position table',
    ...Array.from({ length: rows }, (_, r) =>
      Array.from(floats.subarray(r * dim, (r + 1) * dim), (v) => v.toPrecision(9)).join(','),
    ),
  ];
  return lines.join('\n').replace('# position table', Array.from({ length: dim }, (_, j) => `d${j}`).join(',')) + '\n';
};

const file = (name, contents) => {
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
};

const tutorial = peers.tutorial(512, 64);
const fairseq = peers.fairseqForward(300, 32);
const cosCache = peers.llamaCache(400, 64);

test('the same report and JSON from both CLIs for every file format', () => {
  const tensors = [
    ['cos_cached', cosCache, [400, 64]],
    ['fairseq', fairseq, [300, 32]],
  ];
  const twoTensors = file('two.safetensors', safetensors(tensors));
  const runs = [
    [file('tutorial.npy', npy(tutorial, [512, 64]))],
    [file('tutorial-3d.npy', npy(tutorial, [1, 512, 64])), '--json'],
    [twoTensors, '--name', 'cos_cached'],
    [twoTensors, '--name=fairseq', '--json'],
    [file('fairseq.csv', csv(fairseq, 300, 32))],
    [file('tutorial.f32', bytesOf(tutorial)), '--rows', '512'],
    [file('tutorial.f32', bytesOf(tutorial)), '--dim', '64', '--kind', 'table'],
    [file('transposed.f32', bytesOf(peers.transpose(tutorial, 512, 64))), '--rows', '64'],
  ];
  for (const args of runs) {
    const a = sameRun(args);
    assert.is(a.status, 0, `${args.join(' ')}: ${a.stderr}`);
    const out = a.stdout.toString();
    if (args.includes('--json') || args.includes('--json')) JSON.parse(out);
    else assert.match(out, /^verdict: /);
  }
  assert.match(
    native([join(dir, 'fairseq.csv')]).stdout.toString(),
    /tensor2tensor frequencies, base 10000, first position 2/,
  );
});

test('both CLIs refuse alike: NaN cells, bad options, unreadable files', () => {
  const withNan = csv(tutorial, 512, 64).replace(/\n([^\n]*)\n/, (m, line) => `\n${line.replace(/^[^,]*/, 'nan')}\n`);
  const runs = [
    [[file('nan.csv', withNan)], 1, /table\[0, 0\] \(row 0, column 0\) is NaN/],
    [[join(dir, 'tutorial.f32')], 1, /needs --rows and\/or --dim/],
    [[join(dir, 'tutorial.f32'), '--rows', '513'], 1, /not --rows x --dim/],
    [[join(dir, 'missing.npy')], 2, /cannot read .*missing.npy: No such file or directory/], // README: a file that cannot be read exits 2
    [[join(dir, 'tutorial.npy'), '--kind', 'rope'], 2, /--kind must be auto, table, cos-sin or inv-freq/],
    [[join(dir, 'tutorial.npy'), '--layout', 'split'], 2, /unknown option '--layout'/],
    [['--rows', '5'], 2, /needs a FILE/],
    [[join(dir, 'tutorial.npy'), '--rows', 'x'], 2, /--rows must be an integer/],
  ];
  for (const [args, status, message] of runs) {
    const a = native(args);
    const b = node(args);
    assert.is(a.status, status, `native ${args.join(' ')}: ${a.stderr}`);
    assert.is(b.status, status, `node ${args.join(' ')}: ${b.stderr}`);
    assert.match(a.stderr.toString(), message);
    assert.match(b.stderr.toString(), message);
    assert.is(b.stdout.length + a.stdout.length, 0);
  }
});

const rowsOf = (floats, rows, dim) =>
  Array.from({ length: rows }, (_, r) => Array.from(floats.subarray(r * dim, (r + 1) * dim)));

test('JSON is told from CSV by its content, whatever the name: the same report as the CSV', () => {
  const asCsv = sameRun([file('fairseq.csv', csv(fairseq, 300, 32))]).stdout.toString();
  // a JSON file named .csv, and one named .txt with Python's indent and NaN spelling absent
  const json = JSON.stringify(rowsOf(fairseq, 300, 32));
  for (const args of [
    [file('fairseq-json.csv', json)],
    [file('fairseq.txt', '\n  ' + JSON.stringify(rowsOf(fairseq, 300, 32), null, 1) + '\n')],
    [file('fairseq-flat.json', JSON.stringify(Array.from(fairseq))), '--dim', '32'],
  ]) {
    const a = sameRun(args);
    assert.is(a.status, 0, `${args.join(' ')}: ${a.stderr}`);
    assert.is(a.stdout.toString(), asCsv, `${args[0]} read as the CSV is`);
  }
  const refusals = [
    ['[[1, 2], [3]]', /JSON row 2 has 1 numbers; the first row has 2/],
    ['[[1, 2], [3, x]]', /not a JSON array of rows of numbers \(at byte 13\)/],
    ['[1, 2, 3]', /a flat JSON array needs --rows and\/or --dim/],
    ['[[1, 2], [3, NaN]]', /table\[1, 1\] \(row 1, column 1\) is NaN/],
    ['[]', /the JSON holds no numbers/],
  ];
  for (const [text, message] of refusals) {
    const a = sameRun([file('bad.json', text)]);
    assert.is(a.status, 1, text);
    assert.match(a.stderr.toString(), message);
  }
});

test('identify --help is the same in both', () => {
  sameRun(['--help']);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
