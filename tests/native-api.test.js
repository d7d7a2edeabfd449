// The native test tools under AddressSanitizer and UBSan: the C API unit
// tests, and the harness over a sweep of shapes, whose outputs must match the
// optimised harness bit for bit (sanitizers must not change a value, and the
// -O2 build must not differ from the -O1 one).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { API_ASAN, HARNESS, HARNESS_ASAN, serve, runHarness } from './support/native-harness.js';
import { sameBits, compared } from './support/builds-bits.js';
import { generator, seedFromEnv } from './support/random.js';

// The internal math routines' stated bounds, restated over their domains.
const MATH_BOUNDS = fileURLToPath(new URL('../build/test/math-bounds', import.meta.url));

const seed = seedFromEnv();
console.log(`native-api.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);

// The failures and a sanitizer's first lines, without its shadow-byte dump.
const brief = (stderr) => {
  const lines = stderr.split('\n');
  const dump = lines.findIndex((l) => l.startsWith('Shadow bytes around'));
  return lines.slice(0, dump < 0 ? 40 : Math.min(dump, 40)).join('\n');
};

test('the native test tools are built', () => {
  for (const bin of [API_ASAN, MATH_BOUNDS, HARNESS, HARNESS_ASAN])
    assert.ok(existsSync(bin), `${bin} is missing: run bash build.sh`);
});

test('C API unit tests pass under ASan and UBSan', () => {
  // Each program with the fewest checks it may run (a floor, so that a
  // test silently skipped shows).
  for (const [bin, name, floor] of [
    [API_ASAN, 'api-asan', 1700],
    [MATH_BOUNDS, 'math-bounds', 15],
  ]) {
    const run = spawnSync(bin, [], { encoding: 'utf8' });
    const lines = run.stdout.trim().split('\n');
    const summary = lines[lines.length - 1];
    console.log(`${name}: ${summary}`);
    assert.ok(run.status === 0, `${name} exited ${run.status} (signal ${run.signal}):\n${brief(run.stderr)}`);
    const m = /^(\d+) passed, (\d+) failed$/.exec(summary);
    assert.ok(m, `${name}'s last line is not "N passed, M failed": ${summary}`);
    assert.is(Number(m[2]), 0);
    assert.ok(Number(m[1]) >= floor, `only ${m[1]} checks of ${name} ran`);
    assert.is(run.stderr, '', `${name} printed to stderr`);
  }
});

test('the harness guards catch a write past the end', () => {
  for (const bin of [HARNESS, HARNESS_ASAN]) {
    const r = runHarness(bin, ['damage', 'scalar']);
    assert.is(r.status, 3, `${bin} damage exited ${r.status}: ${r.stderr}`);
    assert.match(r.stderr, /guard/);
  }
});

test('the harness reports a refused call with its status', () => {
  const r = runHarness(HARNESS, ['table', 'simd', '5', '10000', 'interleaved', '0', '3']);
  assert.is(r.status, 4);
  assert.match(r.stderr, /status 2/);
  const s = runHarness(HARNESS, ['table', 'simd', '4', '10000', 'interleaved', '2147483647', '2']);
  assert.is(s.status, 4);
  assert.match(s.stderr, /status 6/);
});

test('one-shot harness commands agree with serve', () => {
  const one = runHarness(HARNESS, ['table', 'simd', '6', '10000', 'split', '65', '9']);
  assert.is(one.status, 0, one.stderr);
  const [served] = serve(HARNESS, 'simd', [{ op: 'table', dim: 6, base: 1e4, layout: 'split', offset: 65, length: 9 }]);
  const buf = Buffer.from(one.stdout);
  sameBits(
    new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)),
    served,
    'one-shot table',
    6,
  );
});

test('one-shot at, add and addtable agree with serve', () => {
  const positions = Uint32Array.from([5, 2 ** 31 - 1, 0, 5, 77]);
  const x = Float32Array.from({ length: 2 * 3 * 10 }, (_, k) => k / 7 - 3);
  const table = Float32Array.from({ length: 6 * 10 }, (_, k) => Math.sin(k));
  const asBytes = (t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength);
  const asFloats = (b) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
  const served = serve(HARNESS, 'scalar', [
    { op: 'at', dim: 10, base: 1e4, layout: 'split', positions },
    { op: 'add', dim: 10, base: 1e4, layout: 'interleaved', offset: 9, length: 3, scale: 1.5, x },
    { op: 'addtable', length: 3, dim: 10, rows: 6, offset: 2, scale: 0.5, x, table },
  ]);
  const one = [
    runHarness(HARNESS, ['at', 'scalar', '10', '10000', 'split'], asBytes(positions)),
    runHarness(HARNESS, ['add', 'scalar', '10', '10000', 'interleaved', '9', '3', '1.5'], asBytes(x)),
    runHarness(
      HARNESS,
      ['addtable', 'scalar', '3', '10', '6', '2', '0.5'],
      Buffer.concat([asBytes(x), asBytes(table)]),
    ),
  ];
  one.forEach((r, k) => {
    assert.is(r.status, 0, r.stderr);
    sameBits(asFloats(r.stdout), served[k], `one-shot ${['at', 'add', 'addtable'][k]}`, 10);
  });
});

// Shapes around the SIMD width (4 lanes) and the block sizes.
function sweepRequests() {
  const reqs = [];
  const dims = [2, 4, 6, 8, 10, 12, 16, 18, 30, 34, 64, 66, 130, 258, 1026, 8192];
  const lengths = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 129];
  const bases = [2, 1e4, 1e7];
  for (const dim of dims) {
    for (const length of dim > 256 ? [0, 1, 3, 65] : lengths) {
      for (const offset of [0, 1, 63, 2 ** 24 - 1, 2 ** 31 - length]) {
        const layout = rng.next() < 0.5 ? 'interleaved' : 'split';
        const base = rng.pick(bases);
        reqs.push({ op: 'table', dim, base, layout, offset, length });
      }
      const layout = rng.next() < 0.5 ? 'interleaved' : 'split';
      const base = rng.pick(bases);
      const positions = Array.from({ length }, () => rng.pick([0, 1, 5, 2 ** 31 - 1, rng.int(0, 2 ** 31 - 1)]));
      reqs.push({ op: 'at', dim, base, layout, positions });
      const batch = rng.int(0, 3);
      const x = Float32Array.from({ length: batch * length * dim }, () => rng.next() * 8 - 4);
      reqs.push({
        op: 'add',
        dim,
        base,
        layout,
        offset: rng.int(0, 2 ** 31 - length),
        length,
        scale: Math.sqrt(dim),
        x,
      });
      const rows = length + rng.int(0, 5);
      const table = Float32Array.from({ length: rows * dim }, () => rng.next() * 2 - 1);
      reqs.push({ op: 'addtable', length, dim, rows, offset: rng.int(0, rows - length), scale: 1.25, x, table });
    }
  }
  return reqs;
}

test('harness-asan runs a sweep cleanly and matches the optimised harness bit for bit', () => {
  const reqs = sweepRequests();
  const before = compared.values;
  for (const kernels of ['scalar', 'simd']) {
    const fast = serve(HARNESS, kernels, reqs);
    const checked = serve(HARNESS_ASAN, kernels, reqs);
    reqs.forEach((r, k) => sameBits(checked[k], fast[k], `${kernels} ${r.op} #${k} d=${r.dim} L=${r.length}`, r.dim));
  }
  const n = compared.values - before;
  console.log(`native: ${reqs.length} requests x 2 kernel sets, ${n} values compared`);
  assert.ok(n > 1e5, `only ${n} values compared`);
});

test.run();
