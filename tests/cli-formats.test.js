// The Node CLI (src/js/cli/cli.js) and the native CLI (build/posenc) print the
// same bytes for every format, and fail alike; the shared decimal formatter
// rounds exact ties to even in both languages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate } from '../src/js/index.js';
import { formatFixed } from '../src/js/shared/format.js';
import { rng } from './support/random.js';
import { native, node, sameRun, root, NATIVE, NODE_CLI } from './support/cli-run.js';

const random = rng('cli');
const pe = await instantiate();

test('formatter: exact ties round to even, -0 keeps its sign', () => {
  const cases = [
    [0.03125, 4, '0.0312'],
    [0.09375, 4, '0.0938'],
    [-0.03125, 4, '-0.0312'],
    [0.15625, 4, '0.1562'],
    [0.0009765625, 9, '0.000976562'],
    [0.0029296875, 9, '0.002929688'],
    [0.001953125, 9, '0.001953125'],
    [0.5, 0, '0'],
    [1.5, 0, '2'],
    [2.5, 0, '2'],
    [-0.5, 0, '-0'],
    [-0, 4, '-0.0000'],
    [0, 4, '0.0000'],
    [-0.00001, 4, '-0.0000'],
    [1, 4, '1.0000'],
    [-1, 9, '-1.000000000'],
    [Math.fround(0.8414709848), 4, '0.8415'],
    [Math.fround(0.99995), 4, '0.9999'],
    [NaN, 4, 'nan'],
    [Infinity, 4, 'inf'],
    [-Infinity, 9, '-inf'],
  ];
  for (const [v, digits, text] of cases) assert.is(formatFixed(v, digits), text, `${v} at ${digits} decimals`);
});

test('formatter: the C and JS formatters agree on ties and random floats', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-fmt-'));
  try {
    // A tiny driver over src/cli/format.c: reads float bit patterns, prints them at 4 and 9 decimals.
    writeFileSync(
      join(dir, 'driver.c'),
      `#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include "format.h"
int main(void) {
    uint32_t bits; float v; char out[CLI_FIXED_MAX];
    while (scanf("%u", &bits) == 1) {
        memcpy(&v, &bits, 4);
        for (int d = 0; d <= 9; d++) { size_t n = cli_format_fixed(out, v, d); fwrite(out, 1, n, stdout); putchar(d == 9 ? '\\n' : ' '); }
    }
    return 0;
}
`,
    );
    const cc = spawnSync('gcc', [
      '-std=c11',
      '-O2',
      '-ffp-contract=off',
      `-I${join(root, 'src/cli')}`,
      '-o',
      join(dir, 'driver'),
      join(dir, 'driver.c'),
      join(root, 'src/cli/format.c'),
    ]);
    assert.is(cc.status, 0, cc.stderr.toString());
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.5,
      1.5,
      2.5,
      0.03125,
      -0.09375,
      0.0009765625,
      2 ** -30,
      -(2 ** -126),
      2 ** -149,
      0.99999994,
    ];
    for (let k = 1; k <= 200; k++) values.push(k / 2 ** 5, -k / 2 ** 11, k / 2 ** 13); // many exact ties at 4 and 9 decimals
    for (let k = 0; k < 3000; k++) values.push(Math.fround(random.next() * 2 - 1));
    const bits = new Uint32Array(Float32Array.from(values).buffer);
    const run = spawnSync(join(dir, 'driver'), { input: Array.from(bits).join('\n') + '\n' });
    assert.is(run.status, 0, run.stderr.toString());
    const lines = run.stdout.toString().trimEnd().split('\n');
    assert.is(lines.length, values.length);
    const f32 = new Float32Array(bits.buffer);
    f32.forEach((v, i) => {
      const expected = Array.from({ length: 10 }, (_, d) => formatFixed(v, d)).join(' ');
      assert.is(lines[i], expected, `value ${v} (0x${bits[i].toString(16)})`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const SHAPES = [
  ['--length', '10', '--dim', '4'],
  ['--length', '130', '--dim', '6', '--offset', '60', '--layout', 'split'],
  ['--length', '3', '--dim', '64', '--base', '2'],
  ['--length', '70', '--dim', '2', '--offset', '2147483578', '--base', '1e7'],
  ['--length', '5', '--dim', '1030', '--base', '12.5', '--layout=split', '--offset=63'],
  ['--length', '0', '--dim', '8'],
  ['--length', '40', '--dim', '12', '--preset', 'fairseq', '--offset', '2'],
  ['--length', '9', '--dim', '6', '--frequencies', 'tensor2tensor', '--base', '1e7'],
  ['--length', '9', '--dim', '2', '--preset', 'tensor2tensor', '--layout', 'split', '--frequencies', 'tensor2tensor'],
  ['--length', '66', '--dim', '10', '--preset', 'marian', '--offset', '16777200'],
];
const FORMATS = ['text', 'csv', 'json', 'npy', 'f32'];

test('Node and native CLIs print the same bytes for every format', () => {
  for (const shape of SHAPES) {
    for (const format of FORMATS) {
      const result = sameRun(['table', ...shape, '--format', format]);
      assert.is(result.status, 0, result.stderr.toString());
    }
  }
});

test('--kernels simd and scalar print the same bytes in both CLIs', () => {
  const args = ['table', '--length', '200', '--dim', '10', '--offset', '33', '--format', 'f32'];
  const simd = sameRun([...args, '--kernels', 'simd']).stdout;
  const scalar = sameRun([...args, '--kernels', 'scalar']).stdout;
  assert.ok(Buffer.compare(simd, scalar) === 0, 'simd and scalar kernels differ');
  assert.ok(Buffer.compare(simd, sameRun([...args, '--kernels', 'auto']).stdout) === 0, 'auto differs');
});

test('a table larger than one chunk streams identically', () => {
  const result = sameRun(['table', '--length', '9000', '--dim', '16', '--offset', '5', '--format', 'f32']);
  const values = new Float32Array(
    result.stdout.buffer.slice(result.stdout.byteOffset, result.stdout.byteOffset + result.stdout.byteLength),
  );
  const expected = pe.sinusoidal({ length: 9000, dim: 16, offset: 5 });
  assert.ok(
    Buffer.compare(Buffer.from(values.buffer), Buffer.from(expected.buffer)) === 0,
    'f32 output equals the API table',
  );
  sameRun(['table', '--length', '9000', '--dim', '16', '--offset', '5', '--format', 'json']);
});

test('text and csv match the formatter applied to the API output', () => {
  const table = pe.sinusoidal({ length: 10, dim: 4 });
  const text = native(['table', '--length', '10', '--dim', '4']).stdout.toString();
  assert.is(text.split('\n')[1], '0.8415 0.5403 0.0100 0.9999');
  const lines = text.trimEnd().split('\n');
  lines.forEach((line, r) =>
    assert.is(line, Array.from(table.subarray(r * 4, r * 4 + 4), (v) => formatFixed(v, 4)).join(' ')),
  );
  const csv = node(['table', '--length', '10', '--dim', '4', '--format', 'csv']).stdout.toString().split('\n');
  assert.is(csv[0], 'position,d0,d1,d2,d3');
  assert.is(csv[2], '1,0.841470957,0.540302277,0.009999833,0.999949992');
  const json = JSON.parse(node(['table', '--length', '10', '--dim', '4', '--format', 'json']).stdout.toString());
  assert.is(json.length, 10);
  assert.is(json[1][0], 0.841470957);
  assert.equal(JSON.parse(native(['table', '--length', '0', '--dim', '4', '--format', 'json']).stdout.toString()), []);
});

test('npy: magic, dict, 64-byte alignment, data equals the API output', () => {
  for (const [length, dim, offset, layout] of [
    [10, 4, 0, 'interleaved'],
    [123, 38, 1000, 'split'],
    [0, 2, 0, 'interleaved'],
  ]) {
    const bytes = node([
      'table',
      '--length',
      String(length),
      '--dim',
      String(dim),
      '--offset',
      String(offset),
      '--layout',
      layout,
      '--format',
      'npy',
    ]).stdout;
    assert.equal(Array.from(bytes.subarray(0, 8)), [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
    const headerLength = bytes.readUInt16LE(8);
    assert.is((10 + headerLength) % 64, 0, 'header is a multiple of 64 bytes');
    const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
    assert.ok(header.endsWith('\n'), 'header ends in a newline');
    assert.match(
      header,
      new RegExp(`^\\{'descr': '<f4', 'fortran_order': False, 'shape': \\(${length}, ${dim}\\), \\} *\\n$`),
    );
    const data = bytes.subarray(10 + headerLength);
    assert.is(data.length, length * dim * 4);
    const expected = pe.sinusoidal({ length, dim, offset, layout });
    assert.ok(Buffer.compare(data, Buffer.from(expected.buffer)) === 0, 'npy data equals the API table');
  }
});

test('bad arguments: exit code 2 and the same one-line message in both CLIs', () => {
  const bad = [
    [],
    ['tabel'],
    ['table'],
    ['table', '--dim', '4'],
    ['table', '--length', '3'],
    ['table', '--lenght', '3', '--dim', '4'],
    ['table', '--length', '3', '--dim', '5'],
    ['table', '--length', '3', '--dim', '0'],
    ['table', '--length', '3', '--dim', '-4'],
    ['table', '--length', '3', '--dim', '4.0'],
    ['table', '--length', '3', '--dim', '65538'],
    ['table', '--length', '-1', '--dim', '4'],
    ['table', '--length', '1.5', '--dim', '4'],
    ['table', '--length', '2147483649', '--dim', '4'],
    ['table', '--length', '3', '--dim', '4', '--offset', 'x'],
    ['table', '--length', '3', '--dim', '4', '--offset', '2147483647'],
    ['table', '--length', '3', '--dim', '4', '--base', '1'],
    ['table', '--length', '3', '--dim', '4', '--base', 'inf'],
    ['table', '--length', '3', '--dim', '4', '--base', '0x10'],
    ['table', '--length', '3', '--dim', '4', '--base', '1e999'],
    ['table', '--length', '3', '--dim', '4', '--base', 'nan'],
    ['table', '--length', '3', '--dim', '4', '--base', ' 5'],
    ['table', '--length', '3', '--dim', '4', '--layout', 'spilt'],
    ['table', '--length', '3', '--dim', '4', '--format', 'xml'],
    ['table', '--length', '3', '--dim', '4', '--kernels', 'gpu'],
    ['table', '--length', '3', '--dim'],
    ['table', 'extra'],
    ['table', '--length', '3', '--dim', '4', '--preset', 'bert'],
    ['table', '--length', '3', '--dim', '4', '--frequencies', 't2t'],
    ['table', '--length', '3', '--dim', '4', '--preset', 'fairseq', '--layout', 'interleaved'],
    ['table', '--length', '3', '--dim', '4', '--preset', 'vaswani', '--frequencies', 'tensor2tensor'],
    ['table', '--presets', 'x'],
    ['table', '--Format', 'csv'],
    ['table', '--zzzzzzzz', '1'],
    ['table', '--' + 'z'.repeat(600)],
    ['table', '--length', '1', '--dim', '9'.repeat(700)],
    ['table', '-d', '4'],
    ['table', '--dim=', '--length=3'],
    ['table', '--length', '3', '--dim', '4', '--dim', '8'],
    ['table', '--length=3', '--dim', '4', '--length', '3'],
    ['table', '--length', '3', '--dim', '4', '--base', '1e301'],
    ['table', '--length', '3', '--dim', '4', '--base', '1.7976931348623157e308'],
  ];
  for (const args of bad) {
    const result = sameRun(args);
    assert.is(result.status, 2, `exit code of ${args.join(' ')}`);
    assert.is(result.stdout.length, 0, 'nothing on stdout');
    const stderr = result.stderr.toString();
    assert.match(stderr, /^posenc: [^\n]+\n$/, `one line on stderr for ${args.join(' ')}: ${stderr}`);
  }
  assert.is(
    native(['table', '--length', '3', '--dim', '5']).stderr.toString(),
    'posenc: --dim must be an even number (sines and cosines come in pairs); got 5\n',
  );
  assert.is(
    native(['table', '--lenght', '3', '--dim', '4']).stderr.toString(),
    "posenc: unknown option '--lenght' (did you mean '--length'?)\n",
  );
  assert.is(
    native(['table', '--length', '3', '--dim', '4', '--dim', '8']).stderr.toString(),
    'posenc: --dim is given twice; give it once\n',
  );
});

test('an output that cannot be written (/dev/full): the same message and exit status 1 in both CLIs', () => {
  const full = openSync('/dev/full', 'w');
  try {
    for (const format of ['text', 'npy']) {
      const args = ['table', '--length', '5000', '--dim', '64', '--format', format];
      const options = { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' };
      const a = spawnSync(NATIVE, args, options);
      const b = spawnSync(process.execPath, [NODE_CLI, ...args], options);
      assert.is(a.status, 1, a.stderr);
      assert.is(a.stderr, 'posenc: cannot write standard output: No space left on device\n');
      assert.is(b.status, a.status, b.stderr);
      assert.is(b.stderr, a.stderr);
    }
  } finally {
    closeSync(full);
  }
});

test('--help prints the same usage to stdout with exit 0', () => {
  for (const args of [['--help'], ['-h']]) assert.match(sameRun(args).stdout.toString(), /^usage: posenc COMMAND/);
  for (const args of [
    ['table', '--help'],
    ['table', '--length', '3', '--help'],
  ]) {
    const result = sameRun(args);
    assert.is(result.status, 0);
    assert.match(result.stdout.toString(), /^usage: posenc table --length N --dim D/);
  }
});

test.run();
