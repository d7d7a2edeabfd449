// The JS API of the posenc package: values, shapes, and every refusal with
// its code, its message and untouched inputs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { init, instantiate, sinusoidal, PosencError } from '../src/js/index.js';
import { rng } from './support/random.js';
import { sameBits, snapshot, unchanged, float64s, expectRefusal } from './support/js-bits.js';

const ORACLE = new URL('../build/test/oracle', import.meta.url).pathname;
const random = rng('sinusoid-api.test.js');
const simd = await instantiate();
const scalar = await instantiate({ simd: false });

test('use before init throws NOT_INITIALIZED', async () => {
  // A separate copy of the package-level state that nobody has initialised.
  const fresh = await import('../src/js/default-instance.js?before-init');
  for (const call of [
    () => fresh.sinusoidal({ length: 1, dim: 2 }),
    () => fresh.alloc(4),
    () => fresh.sinusoidalAt([0], { dim: 2 }),
    () => fresh.addSinusoidal(new Float32Array(2), { length: 1, dim: 2 }),
    () => fresh.addTable(new Float32Array(2), new Float32Array(2), { length: 1, dim: 2 }),
  ]) {
    try {
      call();
      assert.unreachable('no error');
    } catch (error) {
      assert.instance(error, PosencError);
      assert.is(error.code, 'NOT_INITIALIZED');
      assert.match(error.message, /init\(\)/);
    }
  }
});

test('init is one-shot: concurrent calls share one promise; one with other options is refused', async () => {
  const a = init();
  const b = init({});
  assert.is(a, b);
  const other = await init({ simd: false }).then(
    () => 'accepted',
    (error) => error.code,
  );
  assert.is(other, 'BAD_OPTIONS');
  const result = await a;
  assert.equal(Object.keys(result), ['simd']);
  assert.is(typeof result.simd, 'boolean');
  assert.is(init(), a);
});

test('the two builds report which kernels they run', () => {
  assert.is(scalar.simd, false);
  assert.is(
    simd.simd,
    WebAssembly.validate(
      new Uint8Array([
        0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 17, 11,
      ]),
    ),
  );
});

test('instantiate({wasm}) accepts bytes, a Module, a Response, a URL, a URL string and a path', async () => {
  const url = new URL('../build/wasm/posenc.wasm', import.meta.url);
  const bytes = readFileSync(url);
  const expected = scalar.sinusoidal({ length: 3, dim: 6, offset: 99 });
  const sources = [
    bytes,
    new Uint8Array(bytes).buffer,
    await WebAssembly.compile(bytes),
    new Response(bytes, { headers: { 'content-type': 'application/wasm' } }),
    new Response(bytes), // no wasm MIME type: falls back to compiling the bytes
    Promise.resolve(new Response(bytes)),
    url,
    url.href,
    url.pathname,
  ];
  for (const wasm of sources) {
    const instance = await instantiate({ wasm });
    assert.is(instance.simd, false);
    sameBits(instance.sinusoidal({ length: 3, dim: 6, offset: 99 }), expected, `wasm from ${describeSource(wasm)}`);
  }
});

const describeSource = (s) => (typeof s === 'string' ? s : s?.constructor?.name);

test('loading failures are LOAD_FAILED; bad init options are refused', async () => {
  for (const wasm of [
    '/nonexistent/posenc.wasm',
    new Uint8Array([1, 2, 3]),
    42,
    new Response('nope', { status: 404 }),
  ]) {
    try {
      await instantiate({ wasm });
      assert.unreachable(`${describeSource(wasm)} loaded`);
    } catch (error) {
      assert.instance(error, PosencError);
      assert.is(error.code, 'LOAD_FAILED', error.message);
    }
  }
  for (const [options, code] of [
    [{ simd: 'yes' }, 'BAD_OPTIONS'],
    [{ smid: false }, 'UNKNOWN_OPTION'],
    [7, 'BAD_OPTIONS'],
  ]) {
    try {
      await instantiate(options);
      assert.unreachable('instantiated');
    } catch (error) {
      assert.is(error.code, code, error.message);
    }
  }
});

test('row 1 of the d=4 table is 0.8415 0.5403 0.0100 0.9999', async () => {
  await init();
  const table = sinusoidal({ length: 10, dim: 4 });
  assert.instance(table, Float32Array);
  assert.is(table.length, 40);
  assert.is(Array.from(table.subarray(4, 8), (v) => v.toFixed(4)).join(' '), '0.8415 0.5403 0.0100 0.9999');
  assert.equal(Array.from(table.subarray(0, 4)), [0, 1, 0, 1]);
});

test('split layout puts the sines first', () => {
  const inter = simd.sinusoidal({ length: 20, dim: 8, offset: 3 });
  const split = simd.sinusoidal({ length: 20, dim: 8, offset: 3, layout: 'split' });
  for (let r = 0; r < 20; r++) {
    for (let i = 0; i < 4; i++) {
      assert.is(split[r * 8 + i], inter[r * 8 + 2 * i], `sin row ${r} pair ${i}`);
      assert.is(split[r * 8 + 4 + i], inter[r * 8 + 2 * i + 1], `cos row ${r} pair ${i}`);
    }
  }
});

test('values are within 6e-8 of the quad-precision oracle', () => {
  assert.ok(existsSync(ORACLE), 'build/test/oracle is built by build.sh');
  for (const [dim, base, layout, offset, length] of [
    [4, 10000, 'interleaved', 0, 10],
    [64, 10000, 'split', 1000, 70],
    [130, 2, 'interleaved', 12345, 9],
    [512, 1e7, 'interleaved', 2 ** 24 - 40, 50],
  ]) {
    const run = spawnSync(ORACLE, ['table', String(dim), String(base), layout, String(offset), String(length)]);
    assert.is(run.status, 0, run.stderr?.toString());
    const exact = float64s(run.stdout);
    for (const instance of [simd, scalar]) {
      const got = instance.sinusoidal({ length, dim, base, offset, layout });
      let worst = 0;
      for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - exact[i]));
      assert.ok(worst <= 6e-8, `d=${dim} T=${base} ${layout} offset ${offset}: max error ${worst}`);
    }
  }
});

test('the SIMD and scalar builds agree bit for bit', () => {
  for (const [dim, offset, length, layout, base] of [
    [2, 0, 300, 'interleaved', 10000],
    [6, 63, 200, 'split', 500],
    [1024, 2 ** 31 - 70, 70, 'interleaved', 1e4],
    [100, 7, 65, 'split', 2.5],
  ]) {
    sameBits(
      simd.sinusoidal({ dim, offset, length, layout, base }),
      scalar.sinusoidal({ dim, offset, length, layout, base }),
      `d=${dim} offset ${offset}`,
    );
  }
});

test('out is filled and returned', () => {
  const out = new Float32Array(24 * 6).fill(NaN);
  const result = simd.sinusoidal({ length: 24, dim: 6, offset: 5, out });
  assert.is(result, out);
  sameBits(out, simd.sinusoidal({ length: 24, dim: 6, offset: 5 }), 'out');
  const atOut = new Float32Array(3 * 6).fill(NaN);
  assert.is(simd.sinusoidalAt([9, 5, 28], { dim: 6, out: atOut }), atOut);
  sameBits(atOut.subarray(6, 12), out.subarray(0, 6), 'sinusoidalAt out row of position 5');
});

test('sinusoidalAt equals the table rows bit for bit', () => {
  for (const instance of [simd, scalar]) {
    for (const layout of ['interleaved', 'split']) {
      const dim = 2 + 2 * random.int(100);
      const offset = random.int(2 ** 31 - 5000);
      const table = instance.sinusoidal({ length: 4096, dim, offset, layout });
      const picks = Array.from({ length: 300 }, () => offset + random.int(4096));
      for (const positions of [picks, Uint32Array.from(picks), Float64Array.from(picks), Int32Array.from(picks)]) {
        const rows = instance.sinusoidalAt(positions, { dim, layout });
        picks.forEach((p, k) =>
          sameBits(
            rows.subarray(k * dim, (k + 1) * dim),
            table.subarray((p - offset) * dim, (p - offset + 1) * dim),
            `${layout} d=${dim} position ${p}`,
          ),
        );
      }
    }
  }
  const edge = [0, 1, 63, 64, 65, 2 ** 24, 2 ** 31 - 1];
  const rows = simd.sinusoidalAt(edge, { dim: 8 });
  edge.forEach((p, k) =>
    sameBits(rows.subarray(k * 8, k * 8 + 8), scalar.sinusoidal({ length: 1, dim: 8, offset: p }), `position ${p}`),
  );
});

test('addSinusoidal equals fround(fround(x·scale) + table)', () => {
  for (const [batch, length, dim, offset, layout, scale] of [
    [3, 17, 8, 0, 'interleaved', 1],
    [2, 100, 32, 61, 'split', Math.sqrt(32)],
    [1, 5, 2, 2 ** 31 - 5, 'interleaved', -0.75],
    [5, 1, 256, 77, 'split', 1e-3],
  ]) {
    const x = random.floats(batch * length * dim, 3);
    const table = simd.sinusoidal({ length, dim, offset, layout });
    const expected = x.map((v, i) => Math.fround(Math.fround(v * Math.fround(scale)) + table[i % (length * dim)]));
    for (const instance of [simd, scalar]) {
      const y = x.slice();
      assert.is(instance.addSinusoidal(y, { length, dim, offset, layout, scale }), y);
      sameBits(y, expected, `batch ${batch} length ${length} d=${dim} offset ${offset} ${layout}`);
    }
  }
});

test('addTable adds the rows offset … offset+length-1 of a learned table', () => {
  for (const [batch, length, dim, rows, offset, scale] of [
    [2, 10, 5, 12, 2, 1],
    [4, 33, 16, 100, 67, 4],
    [1, 1, 1, 1, 0, 0.5],
  ]) {
    const x = random.floats(batch * length * dim);
    const table = random.floats(rows * dim);
    const expected = x.map((v, i) => Math.fround(Math.fround(v * scale) + table[offset * dim + (i % (length * dim))]));
    const tableBefore = snapshot(table);
    const y = x.slice();
    assert.is(simd.addTable(y, table, { length, dim, offset, scale }), y);
    sameBits(y, expected, `addTable batch ${batch} d=${dim}`);
    unchanged(table, tableBefore, 'table');
  }
});

test('empty shapes give empty results', () => {
  assert.is(simd.sinusoidal({ length: 0, dim: 4 }).length, 0);
  assert.is(simd.sinusoidal({ length: 0, dim: 4, offset: 2 ** 31 }).length, 0);
  assert.is(simd.sinusoidalAt([], { dim: 4 }).length, 0);
  const x = new Float32Array(0);
  assert.is(simd.addSinusoidal(x, { length: 0, dim: 4 }), x);
  assert.is(simd.addSinusoidal(x, { length: 3, dim: 4 }), x);
});

// ------------------------------------------------------------- refusals

/** Fresh inputs for every refused call: the refusal must leave all of them as they were. */
function inputs() {
  return {
    x: random.floats(2 * 4 * 6),
    out: random.floats(4 * 6),
    table: random.floats(5 * 6),
    positions: [3, 1, 4, 1],
  };
}

const BIG = 2 ** 31;
const refusals = [
  // [what, call(inputs), code, text the message must contain (argument and value)]
  ['odd dim', (i) => simd.sinusoidal({ length: 4, dim: 5 }), 'BAD_DIM', ['dim', 'even number', 'got 5']],
  ['zero dim', (i) => simd.sinusoidal({ length: 4, dim: 0, out: i.out }), 'BAD_DIM', ['dim', 'got 0', '65536']],
  ['negative dim', (i) => simd.addSinusoidal(i.x, { length: 4, dim: -6 }), 'BAD_DIM', ['dim', 'got -6']],
  ['fractional dim', (i) => simd.sinusoidalAt(i.positions, { dim: 5.5, out: i.out }), 'BAD_DIM', ['dim', 'got 5.5']],
  ['dim too big', (i) => simd.sinusoidal({ length: 1, dim: 65538 }), 'BAD_DIM', ['dim', 'got 65538', '65536']],
  ['dim a string', (i) => simd.sinusoidal({ length: 1, dim: '4' }), 'BAD_DIM', ['dim', 'got "4"']],
  ['missing dim', (i) => simd.sinusoidal({ length: 1 }), 'BAD_DIM', ['dim', 'got undefined']],
  ['addTable zero dim', (i) => simd.addTable(i.x, i.table, { length: 4, dim: 0 }), 'BAD_DIM', ['dim', 'got 0']],
  ['negative length', (i) => simd.sinusoidal({ length: -1, dim: 6, out: i.out }), 'BAD_LENGTH', ['length', 'got -1']],
  ['fractional length', (i) => simd.addSinusoidal(i.x, { length: 3.5, dim: 6 }), 'BAD_LENGTH', ['length', 'got 3.5']],
  ['NaN length', (i) => simd.addTable(i.x, i.table, { length: NaN, dim: 6 }), 'BAD_LENGTH', ['length', 'got NaN']],
  ['infinite length', (i) => simd.sinusoidal({ length: Infinity, dim: 6 }), 'BAD_LENGTH', ['length', 'got Infinity']],
  [
    'length above 2^31',
    (i) => simd.sinusoidal({ length: BIG + 1, dim: 6 }),
    'BAD_LENGTH',
    ['length', 'got 2147483649'],
  ],
  [
    'negative offset',
    (i) => simd.sinusoidal({ length: 4, dim: 6, offset: -1, out: i.out }),
    'BAD_OFFSET',
    ['offset', 'got -1'],
  ],
  [
    'fractional offset',
    (i) => simd.addSinusoidal(i.x, { length: 4, dim: 6, offset: 0.5 }),
    'BAD_OFFSET',
    ['offset', 'got 0.5'],
  ],
  [
    'NaN offset',
    (i) => simd.addTable(i.x, i.table, { length: 4, dim: 6, offset: NaN }),
    'BAD_OFFSET',
    ['offset', 'got NaN'],
  ],
  [
    'infinite offset',
    (i) => simd.sinusoidal({ length: 4, dim: 6, offset: -Infinity }),
    'BAD_OFFSET',
    ['offset', 'got -Infinity'],
  ],
  [
    'offset + length beyond 2^31',
    (i) => simd.addSinusoidal(i.x, { length: 4, dim: 6, offset: BIG - 3 }),
    'BAD_OFFSET',
    ['offset', '2147483645', 'length 4', '2147483648'],
  ],
  [
    'negative position',
    (i) => simd.sinusoidalAt([0, -1], { dim: 6, out: i.out.subarray(0, 12) }),
    'BAD_POSITION',
    ['positions[1]', 'got -1'],
  ],
  ['fractional position', (i) => simd.sinusoidalAt([2.5], { dim: 6 }), 'BAD_POSITION', ['positions[0]', 'got 2.5']],
  [
    'NaN position',
    (i) => simd.sinusoidalAt(Float64Array.of(1, 2, NaN), { dim: 6 }),
    'BAD_POSITION',
    ['positions[2]', 'got NaN'],
  ],
  [
    'infinite position',
    (i) => simd.sinusoidalAt([Infinity], { dim: 6 }),
    'BAD_POSITION',
    ['positions[0]', 'got Infinity'],
  ],
  [
    'position 2^31',
    (i) => simd.sinusoidalAt(Uint32Array.of(5, BIG), { dim: 6, out: i.out.subarray(0, 12) }),
    'BAD_POSITION',
    ['positions[1]', 'got 2147483648', '2147483647'],
  ],
  [
    'position 2^32 in a Float64Array',
    (i) => simd.sinusoidalAt(Float64Array.of(2 ** 32), { dim: 6 }),
    'BAD_POSITION',
    ['positions[0]', 'got 4294967296'],
  ],
  ['positions not an array', (i) => simd.sinusoidalAt(5, { dim: 6 }), 'BAD_BUFFER', ['positions', 'got 5']],
  [
    'base 1',
    (i) => simd.sinusoidal({ length: 4, dim: 6, base: 1, out: i.out }),
    'BAD_BASE',
    ['base', 'got 1', 'above 1'],
  ],
  ['base below 1', (i) => simd.addSinusoidal(i.x, { length: 4, dim: 6, base: 0.5 }), 'BAD_BASE', ['base', 'got 0.5']],
  [
    'NaN base',
    (i) => simd.sinusoidalAt(i.positions, { dim: 6, base: NaN, out: i.out }),
    'BAD_BASE',
    ['base', 'got NaN'],
  ],
  [
    'infinite base',
    (i) => simd.sinusoidal({ length: 4, dim: 6, base: Infinity }),
    'BAD_BASE',
    ['base', 'got Infinity'],
  ],
  [
    'bad layout',
    (i) => simd.sinusoidal({ length: 4, dim: 6, layout: 'splti', out: i.out }),
    'BAD_LAYOUT',
    ['layout', 'got "splti"', 'split'],
  ],
  ['NaN scale', (i) => simd.addSinusoidal(i.x, { length: 4, dim: 6, scale: NaN }), 'BAD_SCALE', ['scale', 'got NaN']],
  [
    'scale infinite as float32',
    (i) => simd.addTable(i.x, i.table, { length: 4, dim: 6, scale: 1e39 }),
    'BAD_SCALE',
    ['scale', 'got 1e+39'],
  ],
  [
    'out a Float64Array',
    (i) => simd.sinusoidal({ length: 4, dim: 6, out: new Float64Array(24) }),
    'BAD_BUFFER',
    ['out', 'Float64Array'],
  ],
  [
    'out an Array',
    (i) => simd.sinusoidal({ length: 4, dim: 6, out: Array.from(i.out) }),
    'BAD_BUFFER',
    ['out', 'Array'],
  ],
  [
    'out too short',
    (i) => simd.sinusoidal({ length: 4, dim: 6, out: i.out.subarray(1) }),
    'BAD_SIZE',
    ['out', 'length 23', '24'],
  ],
  ['out too long', (i) => simd.sinusoidal({ length: 3, dim: 6, out: i.out }), 'BAD_SIZE', ['out', 'length 24', '18']],
  [
    'sinusoidalAt out wrong size',
    (i) => simd.sinusoidalAt(i.positions, { dim: 4, out: i.out }),
    'BAD_SIZE',
    ['out', 'length 24', '16'],
  ],
  [
    'x a Float64Array',
    (i) => simd.addSinusoidal(Float64Array.from(i.x), { length: 4, dim: 6 }),
    'BAD_BUFFER',
    ['x', 'Float64Array'],
  ],
  ['x an Array', (i) => simd.addTable(Array.from(i.x), i.table, { length: 4, dim: 6 }), 'BAD_BUFFER', ['x', 'Array']],
  [
    'x not a multiple of length·dim',
    (i) => simd.addSinusoidal(i.x, { length: 5, dim: 6 }),
    'BAD_SIZE',
    ['x', 'length 48', '30'],
  ],
  ['x not empty for length 0', (i) => simd.addSinusoidal(i.x, { length: 0, dim: 6 }), 'BAD_SIZE', ['x', 'length 48']],
  [
    'addTable x wrong size',
    (i) => simd.addTable(i.x.subarray(1), i.table, { length: 4, dim: 6 }),
    'BAD_SIZE',
    ['x', 'length 47'],
  ],
  [
    'table too few rows',
    (i) => simd.addTable(i.x, i.table, { length: 4, dim: 6, offset: 2 }),
    'TABLE_TOO_SHORT',
    ['table', '6 rows', 'got 5 rows'],
  ],
  [
    'table not whole rows',
    (i) => simd.addTable(i.x, i.table.subarray(1), { length: 4, dim: 6 }),
    'BAD_SIZE',
    ['table', 'length 29'],
  ],
  [
    'table a Float64Array',
    (i) => simd.addTable(i.x, new Float64Array(30), { length: 4, dim: 6 }),
    'BAD_BUFFER',
    ['table', 'Float64Array'],
  ],
  [
    'misspelt option',
    (i) => simd.sinusoidal({ lenght: 4, dim: 6, out: i.out }),
    'UNKNOWN_OPTION',
    ["'lenght'", "did you mean 'length'"],
  ],
  [
    'misspelt offset',
    (i) => simd.addSinusoidal(i.x, { length: 4, dim: 6, ofset: 1 }),
    'UNKNOWN_OPTION',
    ["'ofset'", "did you mean 'offset'"],
  ],
  [
    'option of another call',
    (i) => simd.addTable(i.x, i.table, { length: 4, dim: 6, base: 100 }),
    'UNKNOWN_OPTION',
    ["'base'", 'length, dim, offset, scale'],
  ],
  ['case slip', (i) => simd.sinusoidalAt(i.positions, { Dim: 6 }), 'UNKNOWN_OPTION', ["'Dim'", "did you mean 'dim'"]],
  ['alloc negative', (i) => simd.alloc(-1), 'BAD_SIZE', ['n', 'got -1']],
];

for (const [what, call, code, texts] of refusals) {
  test(`refuses ${what} with ${code}`, () => {
    expectRefusal(PosencError, call, inputs(), code, texts);
  });
}

test('refusals carry argument and value', () => {
  try {
    simd.sinusoidal({ length: 4, dim: 7 });
  } catch (error) {
    assert.is(error.name, 'PosencError');
    assert.is(error.argument, 'dim');
    assert.is(error.value, 7);
    assert.instance(error, Error);
  }
});

test('a refused position list leaves out and positions untouched even when the bad position is last', () => {
  const positions = Array.from({ length: 5000 }, (_, k) => k);
  positions.push(-3);
  const out = random.floats(positions.length * 4);
  const before = [snapshot(positions), snapshot(out)];
  assert.throws(
    () => simd.sinusoidalAt(positions, { dim: 4, out }),
    (e) => e.code === 'BAD_POSITION' && e.message.includes('positions[5000]'),
  );
  unchanged(positions, before[0], 'positions');
  unchanged(out, before[1], 'out');
});

test.run();
