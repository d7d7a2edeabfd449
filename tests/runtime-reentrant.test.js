// The caller's code running inside a call (issue 25): getters on options and
// on id arrays, iterators and typed-array subclasses may free a RoPE plan,
// evict a kept plan, rebuild the sinusoid plan, grow wasm memory or detach x.
// Every pointer into wasm memory is taken after that code has run, so a freed
// plan answers PLAN_FREED, a detached x a coded error, and every other call
// gives the bits a plain call gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';

let posenc;
test.before(async () => {
  posenc = await instantiate();
});

const ROPE = { heads: 2, headDim: 8 };
const L = 3;
const input = () => Float32Array.from({ length: L * 16 }, (_, i) => Math.sin(i + 1));

function refuses(call, code, name) {
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, `${name}: ${error}`);
    assert.is(error.code, code, `${name}: ${error.message}`);
    return error;
  }
  assert.unreachable(`${name} was not refused`);
}

/** Frees the plan, then makes plans of another base until one lands in the freed memory (as often happens). */
function freeAndReuse(plan, made) {
  plan.free();
  for (let k = 0; k < 4; k++) made.push(posenc.createRope({ ...ROPE, base: 2 + k }));
}

test('a plan freed by a getter on apply()’s options answers PLAN_FREED, x untouched', () => {
  for (const key of ['length', 'offset', 'dtype', 'positions']) {
    const plan = posenc.createRope(ROPE);
    const made = [];
    const x = input();
    const before = x.slice();
    const options = {};
    Object.defineProperty(options, key, {
      enumerable: true,
      get() {
        freeAndReuse(plan, made);
        return key === 'positions' ? [0, 1, 2] : key === 'length' ? L : key === 'offset' ? 0 : undefined;
      },
    });
    refuses(() => plan.apply(x, options), 'PLAN_FREED', `getter on ${key}`);
    assert.equal(x, before, `x untouched (getter on ${key})`);
    for (const p of made) p.free();
  }
});

test('a plan freed by an id array’s element getter or iterator answers PLAN_FREED', () => {
  for (const key of ['positions', 'positionIds', 'cuSeqlens']) {
    const plan = posenc.createRope(ROPE);
    const made = [];
    const ids = key === 'cuSeqlens' ? [0, 1, 3] : [0, 1, 2];
    Object.defineProperty(ids, 1, {
      get() {
        freeAndReuse(plan, made);
        return 1;
      },
    });
    const x = input();
    const before = x.slice();
    refuses(() => plan.apply(x, { [key]: ids }), 'PLAN_FREED', `element getter in ${key}`);
    assert.equal(x, before);
    for (const p of made) p.free();
  }
  // An iterator is never asked for: the rows are read by index, once.
  const plan = posenc.createRope(ROPE);
  const made = [];
  const rows = [[0, 1, 2]];
  rows[Symbol.iterator] = function* () {
    freeAndReuse(plan, made);
    yield [0, 1, 2];
  };
  const expected = plan.apply(input(), { positionIds: [[0, 1, 2]] });
  assert.equal(plan.apply(input(), { positionIds: rows }), expected, 'iterator of nested positionIds');
  plan.free();
  for (const p of made) p.free();
});

test('a plan freed during cosSin() answers PLAN_FREED (was BAD_BUFFER or another plan’s values)', () => {
  for (const key of ['length', 'dtype', 'expand']) {
    const plan = posenc.createRope(ROPE);
    const made = [];
    const options = { length: 4 };
    Object.defineProperty(options, key, {
      enumerable: true,
      get() {
        freeAndReuse(plan, made);
        return key === 'length' ? 4 : undefined;
      },
    });
    refuses(() => plan.cosSin(options), 'PLAN_FREED', `cosSin getter on ${key}`);
    for (const p of made) p.free();
  }
  const plan = posenc.createRope(ROPE);
  const made = [];
  const positions = [0, 5];
  Object.defineProperty(positions, 0, {
    get() {
      freeAndReuse(plan, made);
      return 0;
    },
  });
  refuses(() => plan.cosSin({ positions }), 'PLAN_FREED', 'cosSin positions getter');
  for (const p of made) p.free();
});

test('rope() whose getters evict its kept plan (and grow memory) gives the bits of a plain call', () => {
  const expected = posenc.rope(input(), { ...ROPE, base: 500 });
  const x = input();
  const positions = [0, 1, 2];
  Object.defineProperty(positions, 2, {
    get() {
      // 9 other plans evict rope()'s kept plan for base 500; a large table grows memory.
      for (let k = 0; k < 9; k++) posenc.rope(input(), { ...ROPE, base: 600 + k });
      posenc.sinusoidal({ length: 4096, dim: 512 });
      return 2;
    },
  });
  posenc.rope(x, { ...ROPE, base: 500, positions });
  assert.equal(x, expected);
  const cos = posenc.ropeCosSin({ headDim: 8, base: 500, length: 4 }).cos;
  const ids = [0, 1, 2, 3];
  Object.defineProperty(ids, 3, {
    get() {
      for (let k = 0; k < 9; k++) posenc.ropeCosSin({ headDim: 8, base: 700 + k, length: 2 });
      return 3;
    },
  });
  assert.equal(posenc.ropeCosSin({ headDim: 8, base: 500, positions: ids }).cos, cos);
});

test('sinusoidalAt whose position getters rebuild the sinusoid plan gives the bits of a plain call', () => {
  const expected = posenc.sinusoidalAt([3, 70, 5], { dim: 8 });
  const expected16 = posenc.sinusoidalAt([3, 70, 5], { dim: 8, dtype: 'float16' });
  for (const dtype of [undefined, 'float16']) {
    const positions = [3, 70, 5];
    let flip = 0;
    Object.defineProperty(positions, 1, {
      get() {
        posenc.sinusoidal({ length: 2, dim: 64, base: 7 }); // another plan in the plan cache
        return flip++ === 0 ? 70 : -1; // and a value that changes after its check
      },
    });
    const got = posenc.sinusoidalAt(positions, { dim: 8, dtype });
    assert.equal(got, dtype ? expected16 : expected, `dtype ${dtype}`);
  }
});

test('an option getter that rebuilds the sinusoid plan or frees out cannot misdirect the call', () => {
  const expected = posenc.recipeTable({ recipe: 'float16', length: 70, dim: 8 });
  let reads = 0;
  const options = { length: 70, dim: 8 };
  Object.defineProperty(options, 'recipe', {
    enumerable: true,
    get() {
      reads++;
      posenc.sinusoidal({ length: 1, dim: 16 });
      return reads === 1 ? 'float16' : 'nonsense';
    },
  });
  assert.equal(posenc.recipeTable(options), expected);
  const out = posenc.alloc(4 * 8);
  const table = {};
  Object.defineProperty(table, 'dim', {
    enumerable: true,
    get() {
      out.free();
      return 8;
    },
  });
  refuses(() => posenc.sinusoidal({ length: 4, out, ...table }), 'BUFFER_FREED', 'out freed by a getter');
});

test('roundToBits and identify read each value once, before any pointer (a getter regrew the staging)', () => {
  const expected = posenc.roundToBits([1.5, 2.25, 3, 70000], { dtype: 'bfloat16' });
  const values = [1.5, 2.25, 3, 70000];
  let reads = 0;
  Object.defineProperty(values, 1, {
    get() {
      reads++;
      // Another call whose staging outgrows this one's (the region is freed and made anew).
      posenc.roundToBits(new Array(200000).fill(0.5), { dtype: 'float16' });
      return reads === 1 ? 2.25 : 'not a number';
    },
  });
  assert.equal(posenc.roundToBits(values, { dtype: 'bfloat16' }), expected);
  assert.is(reads, 1);
  const table = Array.from({ length: 64 }, (_, i) => Math.sin(i / 3));
  const plain = posenc.identify(table.slice(), { dim: 8 }).json;
  let tableReads = 0;
  Object.defineProperty(table, 5, {
    get() {
      tableReads++;
      return tableReads === 1 ? Math.sin(5 / 3) : 'x';
    },
  });
  assert.is(posenc.identify(table, { dim: 8 }).json, plain);
});

test('a detached x is refused with a coded error by every in-place call, before and during the call', () => {
  const detached = () => {
    const x = input();
    structuredClone(x.buffer, { transfer: [x.buffer] });
    return x;
  };
  const plan = posenc.createRope(ROPE);
  refuses(() => plan.apply(detached()), 'BAD_BUFFER', 'apply');
  refuses(() => plan.apply(detached(), { length: L }), 'BAD_BUFFER', 'apply with length');
  refuses(() => posenc.rope(detached(), ROPE), 'BAD_BUFFER', 'rope');
  refuses(() => posenc.addSinusoidal(detached(), { length: L, dim: 16 }), 'BAD_BUFFER', 'addSinusoidal');
  refuses(() => posenc.addTable(detached(), new Float32Array(64), { length: L, dim: 16 }), 'BAD_BUFFER', 'addTable');
  refuses(() => posenc.addTable(input(), detached(), { length: L, dim: 16 }), 'BAD_BUFFER', 'addTable table');
  // Detached by a getter after x was looked at.
  const x = input();
  const options = { length: L };
  Object.defineProperty(options, 'offset', {
    enumerable: true,
    get() {
      structuredClone(x.buffer, { transfer: [x.buffer] });
      return 0;
    },
  });
  refuses(() => plan.apply(x, options), 'BAD_BUFFER', 'apply, x detached by a getter');
  const y = input();
  const rows = [0, 1, 2];
  Object.defineProperty(rows, 0, {
    get() {
      structuredClone(y.buffer, { transfer: [y.buffer] });
      return 0;
    },
  });
  refuses(() => posenc.rope(y, { ...ROPE, positions: rows }), 'BAD_BUFFER', 'rope, x detached by an id getter');
  plan.free();
});

test('a typed-array subclass or Proxy cannot run code inside a call', () => {
  const plan = posenc.createRope(ROPE);
  const expected = plan.apply(input());
  class Sneaky extends Float32Array {
    get length() {
      plan.free();
      return super.length;
    }
    subarray(a, b) {
      plan.free();
      return super.subarray(a, b);
    }
  }
  const x = new Sneaky(input());
  plan.apply(x);
  assert.equal(Float32Array.from(x), expected, 'rotated as a plain Float32Array');
  refuses(() => plan.apply(new Proxy(input(), {})), 'BAD_BUFFER', 'a Proxy x');
  refuses(() => posenc.sinusoidalAt(new Proxy(new Uint32Array(2), {}), { dim: 4 }), 'BAD_BUFFER', 'Proxy positions');
  const buffer = posenc.alloc(8);
  const proxy = new Proxy(buffer, {});
  refuses(() => posenc.sinusoidal({ length: 2, dim: 4, out: proxy }), 'BAD_BUFFER', 'a Proxy of a WasmBuffer as out');
  refuses(() => posenc.addSinusoidal(proxy, { length: 2, dim: 4 }), 'BAD_BUFFER', 'a Proxy of a WasmBuffer as x');
  refuses(() => posenc.rope(proxy, { heads: 1, headDim: 4, length: 2 }), 'BAD_BUFFER', 'as rope x');
  refuses(() => posenc.resampleTable(proxy, { dim: 4, newRows: 3 }), 'BAD_BUFFER', 'as a table');
  buffer.free();
});

// GQA and tensors: applyQK, ropeQK and a tensor x take the plan's address
// after q's and k's getters (a tensor's data, dims, type) have all run.
const GQA = { heads: 4, kvHeads: 2, headDim: 8 };
const qInput = () => Float32Array.from({ length: L * 32 }, (_, i) => Math.sin(i + 2));
const kInput = () => Float32Array.from({ length: L * 16 }, (_, i) => Math.cos(i + 3));
const detach = (array) => structuredClone(array.buffer, { transfer: [array.buffer] });
const dataBehind = new WeakMap(); // a hostile tensor's data, read here without running its getters

/** A tensor { data, dims, type } whose `key` getter runs `effect` first. */
function tensorWith(data, dims, key, effect) {
  const t = { data, dims, type: 'float32' };
  const value = t[key];
  Object.defineProperty(t, key, {
    enumerable: true,
    get() {
      effect();
      return value;
    },
  });
  dataBehind.set(t, data);
  return t;
}
const dataOf = (v) => (dataBehind.has(v) ? dataBehind.get(v) : ArrayBuffer.isView(v) ? v : v.data);

function freeAndReuseGqa(plan, made) {
  plan.free();
  for (let k = 0; k < 4; k++) made.push(posenc.createRope({ ...GQA, base: 2 + k }));
}

test('a plan freed during applyQK() (an option, q’s or k’s tensor getter) answers PLAN_FREED, q and k untouched', () => {
  const withGetter = (key, effect, value) => {
    const o = { length: L };
    Object.defineProperty(o, key, {
      enumerable: true,
      get() {
        effect();
        return value;
      },
    });
    return o;
  };
  const freeingIds = (effect) => {
    const ids = [0, 1, 2];
    Object.defineProperty(ids, 2, {
      get() {
        effect();
        return 2;
      },
    });
    return ids;
  };
  const cases = [
    ['option offset', (free) => [qInput(), kInput(), withGetter('offset', free, 0)]],
    ['a positions element', (free) => [qInput(), kInput(), { positions: freeingIds(free) }]],
    ['q.data', (free) => [tensorWith(qInput(), [1, L, 4, 8], 'data', free), kInput(), { length: L }]],
    ['k.dims', (free) => [qInput(), tensorWith(kInput(), [1, L, 2, 8], 'dims', free), { length: L }]],
    ['k.type', (free) => [qInput(), tensorWith(kInput(), [1, L, 2, 8], 'type', free), { length: L }]],
  ];
  for (const [name, make] of cases) {
    const plan = posenc.createRope(GQA);
    const made = [];
    const [q, k, options] = make(() => freeAndReuseGqa(plan, made));
    const before = [dataOf(q).slice(), dataOf(k).slice()];
    refuses(() => plan.applyQK(q, k, options), 'PLAN_FREED', `applyQK, getter on ${name}`);
    assert.equal([dataOf(q), dataOf(k)], before, `q and k untouched (${name})`);
    for (const p of made) p.free();
  }
});

test('a plan freed by a tensor x’s getter in apply() or a positions tensor’s in cosSin() answers PLAN_FREED', () => {
  for (const key of ['data', 'dims', 'type']) {
    const plan = posenc.createRope(GQA);
    const made = [];
    const x = tensorWith(kInput(), [1, L, 2, 8], key, () => freeAndReuseGqa(plan, made));
    const before = dataOf(x).slice();
    refuses(() => plan.apply(x), 'PLAN_FREED', `apply, tensor getter on ${key}`);
    assert.equal(dataOf(x), before, `x untouched (${key})`);
    for (const p of made) p.free();
  }
  const plan = posenc.createRope(GQA);
  const made = [];
  const positions = tensorWith(Int32Array.of(0, 1, 2), [3], 'data', () => freeAndReuseGqa(plan, made));
  refuses(() => plan.cosSin({ positions, as: 'tensor' }), 'PLAN_FREED', 'cosSin, positions tensor getter');
  for (const p of made) p.free();
});

test('ropeQK() and rope(tensor) whose getters evict the kept plan give the bits of a plain call', () => {
  const plain = posenc.ropeQK(qInput(), kInput(), { ...GQA, base: 500, length: L });
  const evict = () => {
    for (let k = 0; k < 9; k++) posenc.rope(qInput(), { heads: 4, headDim: 8, base: 600 + k });
    posenc.sinusoidal({ length: 4096, dim: 512 }); // grows memory
  };
  const k = tensorWith(kInput(), [1, L, 2, 8], 'data', evict);
  const got = posenc.ropeQK(qInput(), k, { ...GQA, base: 500, length: L });
  assert.is(got.k, k, 'k: the same tensor back');
  assert.equal(dataOf(k), plain.k, 'k');
  assert.equal(got.q, plain.q, 'q');
  const x = tensorWith(kInput(), [1, L, 2, 8], 'type', evict);
  assert.is(posenc.rope(x, { heads: 2, headDim: 8, base: 500 }), x, 'the same tensor back');
  assert.equal(dataOf(x), plain.k, 'rope(tensor)');
});

test('q or k detached by a getter of the other (or a tensor’s own) is refused, neither written', () => {
  const plan = posenc.createRope(GQA);
  const own = kInput();
  refuses(() => plan.apply(tensorWith(own, [1, L, 2, 8], 'dims', () => detach(own))), 'BAD_BUFFER', 'own dims');
  const q = qInput();
  const k = tensorWith(kInput(), [1, L, 2, 8], 'type', () => detach(q));
  const kBefore = dataOf(k).slice();
  refuses(() => plan.applyQK(q, k, { length: L }), 'BAD_BUFFER', 'applyQK, q detached by k’s getter');
  assert.equal(dataOf(k), kBefore, 'k untouched');
  const k2 = kInput();
  const q2 = tensorWith(qInput(), [1, L, 4, 8], 'data', () => detach(k2));
  const q2Before = dataOf(q2).slice();
  refuses(() => plan.applyQK(q2, k2, { length: L }), 'BAD_BUFFER', 'applyQK, k detached by q’s getter');
  assert.equal(dataOf(q2), q2Before, 'q untouched');
  // The positions are read once for q and k: a getter answering anew on a second read changes nothing.
  const positions = [0, 1, 2];
  let reads = 0;
  Object.defineProperty(positions, 1, {
    get() {
      return ++reads === 1 ? 1 : -5;
    },
  });
  const plain = plan.applyQK(qInput(), kInput(), { positions: [0, 1, 2] });
  assert.equal(plan.applyQK(qInput(), kInput(), { positions }), plain, 'ids read once for q and k');
  assert.is(reads, 1);
  plan.free();
});

test.run();
