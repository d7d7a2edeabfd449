// WasmBuffer lifetime, wasm memory growth, zero-copy paths and chunking
// through the staging region.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, WasmBuffer, PosencError } from '../src/js/index.js';
import { rng } from './support/random.js';
import { sameBits, snapshot, unchanged } from './support/js-bits.js';

const random = rng('runtime-memory.test.js');
const pe = await instantiate();
const other = await instantiate({ simd: false });

const memoryBytes = (instance) => {
  const probe = instance.alloc(1);
  const bytes = probe.array.buffer.byteLength;
  probe.free();
  return bytes;
};

function throwsCode(call, code, text) {
  try {
    call();
  } catch (error) {
    if (!(error instanceof PosencError)) throw error;
    assert.is(error.code, code, error.message);
    if (text) assert.ok(error.message.includes(text), `${error.message} lacks ${text}`);
    return;
  }
  assert.unreachable(`expected ${code}`);
}

test('alloc gives a WasmBuffer of n floats with a fresh view each time', () => {
  const buffer = pe.alloc(10);
  assert.instance(buffer, WasmBuffer);
  assert.is(buffer.length, 10);
  assert.is(buffer.freed, false);
  const a = buffer.array;
  assert.instance(a, Float32Array);
  assert.is(a.length, 10);
  assert.is.not(buffer.array, a);
  a[3] = 42;
  assert.is(buffer.array[3], 42);
  buffer.free();
  assert.is(buffer.freed, true);
  assert.is(buffer.length, 10);
  const empty = pe.alloc(0);
  assert.is(empty.array.length, 0);
  assert.is(pe.sinusoidal({ length: 0, dim: 4, out: empty }), empty);
  empty.free();
});

test('free is idempotent and a double free does not corrupt the heap', () => {
  const a = pe.alloc(64);
  a.free();
  a.free();
  a[Symbol.dispose]();
  // Two new buffers must not overlap: the heap would hand the same block twice after a real double free.
  const b = pe.alloc(64);
  const c = pe.alloc(64);
  b.array.fill(1);
  c.array.fill(2);
  assert.ok(
    b.array.every((v) => v === 1),
    'b was overwritten by c',
  );
  b.free();
  c.free();
});

test('using a freed buffer throws BUFFER_FREED and touches nothing', () => {
  const buffer = pe.alloc(40);
  buffer.free();
  throwsCode(() => buffer.array, 'BUFFER_FREED');
  throwsCode(() => pe.sinusoidal({ length: 10, dim: 4, out: buffer }), 'BUFFER_FREED', 'out');
  throwsCode(() => pe.addSinusoidal(buffer, { length: 10, dim: 4 }), 'BUFFER_FREED', 'x');
  const x = random.floats(40);
  const before = snapshot(x);
  throwsCode(() => pe.addTable(x, buffer, { length: 10, dim: 4 }), 'BUFFER_FREED', 'table');
  unchanged(x, before, 'x');
});

test('Symbol.dispose frees (using-declarations)', () => {
  const buffer = pe.alloc(8);
  buffer[Symbol.dispose]();
  assert.is(buffer.freed, true);
});

test('a WasmBuffer of another instance is refused with BAD_BUFFER', () => {
  const foreign = other.alloc(40);
  throwsCode(() => pe.sinusoidal({ length: 10, dim: 4, out: foreign }), 'BAD_BUFFER', 'another posenc instance');
  throwsCode(() => pe.addSinusoidal(foreign, { length: 10, dim: 4 }), 'BAD_BUFFER', 'x');
  const x = pe.alloc(40);
  throwsCode(() => pe.addTable(x, foreign, { length: 10, dim: 4 }), 'BAD_BUFFER', 'table');
  foreign.free();
  x.free();
});

test('memory growth between calls breaks nothing and leaves no stale views', () => {
  const instance = other;
  const table = instance.sinusoidal({ length: 100, dim: 16, offset: 9 });
  const small = instance.alloc(1600);
  instance.sinusoidal({ length: 100, dim: 16, offset: 9, out: small });
  const oldView = small.array;
  const bytesBefore = memoryBytes(instance);
  const big = instance.alloc(Math.max(16 * 1024 * 1024, bytesBefore / 4 + 262144)); // more than all memory so far
  assert.ok(memoryBytes(instance) > bytesBefore, 'memory grew');
  assert.is(oldView.length, 0, 'the view made before growth is detached');
  sameBits(small.array, table, 'buffer contents survive growth');
  // JS-array and WasmBuffer calls after growth give the same bits as before.
  sameBits(instance.sinusoidal({ length: 100, dim: 16, offset: 9 }), table, 'sinusoidal after growth');
  sameBits(
    instance.sinusoidalAt([9, 50, 108], { dim: 16 }).subarray(16, 32),
    table.subarray(41 * 16, 42 * 16),
    'sinusoidalAt after growth',
  );
  const x = new Float32Array(1600);
  sameBits(instance.addSinusoidal(x, { length: 100, dim: 16, offset: 9 }), table, 'addSinusoidal after growth');
  big.array.fill(7);
  instance.addSinusoidal(big, { length: big.length / 2, dim: 2, scale: 0 });
  sameBits(
    big.array.subarray(-200),
    instance.sinusoidal({ length: 100, dim: 2, offset: big.length / 2 - 100 }),
    'big buffer',
  );
  big.free();
  small.free();
});

test('a larger dim after a smaller one grows scratch and staging (memory growth inside a call)', () => {
  const instance = other;
  const view = instance.alloc(4);
  const before = view.array;
  const out = instance.sinusoidal({ length: 70, dim: 65536 }); // one row is 256 KiB: staging must grow
  const row = instance.sinusoidalAt([69], { dim: 65536 });
  sameBits(out.subarray(69 * 65536), row, 'row 69 of a d=65536 table');
  assert.ok(view.array.length === 4);
  assert.ok(before.length === 0 || before.buffer === view.array.buffer);
  view.free();
});

test('WasmBuffer out/x/table give the same results as JS arrays', () => {
  const [length, dim, offset] = [50, 12, 3];
  const buffer = pe.alloc(length * dim);
  assert.is(pe.sinusoidal({ length, dim, offset, layout: 'split', out: buffer }), buffer);
  const js = pe.sinusoidal({ length, dim, offset, layout: 'split' });
  sameBits(buffer.array, js, 'sinusoidal out');
  const positions = [7, 3, 52, 0, 3];
  const rows = pe.alloc(positions.length * dim);
  assert.is(pe.sinusoidalAt(positions, { dim, out: rows }), rows);
  sameBits(rows.array, pe.sinusoidalAt(positions, { dim }), 'sinusoidalAt out');
  // positions held in a WasmBuffer (floats) are accepted too
  const held = pe.alloc(positions.length);
  held.array.set(positions);
  sameBits(pe.sinusoidalAt(held, { dim }), pe.sinusoidalAt(positions, { dim }), 'positions in a WasmBuffer');

  const xValues = random.floats(3 * length * dim);
  const x = pe.alloc(xValues.length);
  x.array.set(xValues);
  assert.is(pe.addSinusoidal(x, { length, dim, offset, scale: 2 }), x);
  sameBits(x.array, pe.addSinusoidal(xValues.slice(), { length, dim, offset, scale: 2 }), 'addSinusoidal x');

  const tableValues = random.floats((length + 10) * dim);
  const table = pe.alloc(tableValues.length);
  table.array.set(tableValues);
  const expected = pe.addTable(xValues.slice(), tableValues, { length, dim, offset: 7, scale: 0.5 });
  x.array.set(xValues);
  sameBits(
    pe.addTable(x, table, { length, dim, offset: 7, scale: 0.5 }).array,
    expected,
    'addTable wasm x, wasm table',
  );
  x.array.set(xValues);
  sameBits(
    pe.addTable(x, tableValues, { length, dim, offset: 7, scale: 0.5 }).array,
    expected,
    'addTable wasm x, JS table',
  );
  sameBits(
    pe.addTable(xValues.slice(), table, { length, dim, offset: 7, scale: 0.5 }),
    expected,
    'addTable JS x, wasm table',
  );
  for (const b of [buffer, rows, held, x, table]) b.free();
});

test('chunked outputs larger than the staging region equal the one-shot result', () => {
  // A WasmBuffer out is written by one C call; a JS out goes through 256 KiB staging chunks.
  for (const [length, dim, offset] of [
    [3000, 64, 37],
    [700, 1030, 5],
    [5, 65536, 63],
    [2000, 6, 2 ** 31 - 2000],
  ]) {
    const oneShot = pe.alloc(length * dim);
    pe.sinusoidal({ length, dim, offset, out: oneShot });
    sameBits(pe.sinusoidal({ length, dim, offset }), oneShot.array, `sinusoidal ${length}x${dim} offset ${offset}`);
    oneShot.free();
  }
  const dim = 64;
  const positions = Array.from({ length: 5000 }, () => random.int(2 ** 31));
  const oneShot = pe.alloc(positions.length * dim);
  pe.sinusoidalAt(positions, { dim, out: oneShot });
  sameBits(pe.sinusoidalAt(positions, { dim }), oneShot.array, 'sinusoidalAt 5000 positions');
  oneShot.free();
});

test('chunked adds (slabs of all batch items, or batch groups) equal the one-shot result', () => {
  for (const [batch, length, dim, offset] of [
    [3, 2000, 32, 13],
    [300, 5, 256, 64],
    [2, 3, 65536, 1],
    [70000, 1, 2, 5],
  ]) {
    const x = random.floats(batch * length * dim);
    const wasmX = pe.alloc(x.length);
    wasmX.array.set(x);
    pe.addSinusoidal(wasmX, { length, dim, offset, scale: 1.5 });
    sameBits(
      pe.addSinusoidal(x.slice(), { length, dim, offset, scale: 1.5 }),
      wasmX.array,
      `addSinusoidal ${batch}x${length}x${dim}`,
    );

    const tableValues = random.floats((offset + length) * dim);
    const table = pe.alloc(tableValues.length);
    table.array.set(tableValues);
    wasmX.array.set(x);
    pe.addTable(wasmX, table, { length, dim, offset, scale: -2 });
    const expected = wasmX.array.slice();
    sameBits(
      pe.addTable(x.slice(), tableValues, { length, dim, offset, scale: -2 }),
      expected,
      `addTable JS/JS ${batch}x${length}x${dim}`,
    );
    sameBits(
      pe.addTable(x.slice(), table, { length, dim, offset, scale: -2 }),
      expected,
      `addTable JS/wasm ${batch}x${length}x${dim}`,
    );
    wasmX.array.set(x);
    sameBits(
      pe.addTable(wasmX, tableValues, { length, dim, offset, scale: -2 }).array,
      expected,
      `addTable wasm/JS ${batch}x${length}x${dim}`,
    );
    wasmX.free();
    table.free();
  }
});

test('a too-large table is refused with TOO_LARGE before anything is allocated', () => {
  const bytes = memoryBytes(pe);
  throwsCode(() => pe.alloc(2 ** 30), 'TOO_LARGE', '4 GiB');
  throwsCode(() => pe.alloc(2 ** 31), 'TOO_LARGE');
  throwsCode(() => pe.sinusoidal({ length: 2 ** 31, dim: 65536 }), 'TOO_LARGE');
  throwsCode(() => pe.sinusoidalAt(new Uint32Array(2 ** 20), { dim: 65536 }), 'TOO_LARGE');
  assert.is(memoryBytes(pe), bytes, 'wasm memory did not grow');
});

test('a view of wasm memory passed as out still works when the call does not grow memory', () => {
  const buffer = pe.alloc(40);
  const out = pe.sinusoidal({ length: 10, dim: 4, out: buffer.array });
  sameBits(out, pe.sinusoidal({ length: 10, dim: 4 }), 'out = buffer.array');
  buffer.free();
});

test('a view detached by memory growth is refused with BAD_BUFFER, not written', () => {
  const instance = other;
  const buffer = instance.alloc(8);
  const view = buffer.array;
  const big = instance.alloc(memoryBytes(instance) / 4 + 262144); // more than all memory so far: it must grow
  assert.is(view.length, 0, 'view detached');
  throwsCode(() => instance.sinusoidal({ length: 2, dim: 4, out: view }), 'BAD_BUFFER', 'detached');
  big.free();
  buffer.free();
});

test.run();
