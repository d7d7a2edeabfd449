// The JS API fuzzer's cases (issue 25): one seeded case is one call of the
// package on a hostile instance — options with getters that free the plan or a
// buffer, grow wasm memory, call posenc again, detach x or throw; wrong types,
// sizes and values; mutated .npy/.safetensors files and configs — and the same
// call, with the values the getters gave, on a clean reference instance. Checked
// on every call: a PosencError with a known code (or the getter's own error), the
// reference's bits when no action could change the answer, inputs untouched on
// a refusal, a sentinel buffer and a known table unchanged afterwards (no stray
// write), the call's time and the process's memory bounded.
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PosencError, WasmBuffer } from '../../../src/js/index.js';
import { CODE_OF_STATUS } from '../../../src/js/runtime/status.js';
import { MODELS } from '../../support/model-configs.js';
import { generator } from '../../support/random.js';
import { HostileError, SMALL, wild, size, maybe, hostileOptions, hostileList } from './values.js';

const SRC = fileURLToPath(new URL('../../../src/js/', import.meta.url));
// A call's time limit: 10 s (calls take milliseconds; the machine is shared) and 300 ns a result byte
// (a valid 2-D table of 532 MB takes 2-15 s, the latter on two cores loaded 10 times over).
export const CALL_MS = 10000;
const NS_PER_BYTE = 300;
// The process's memory bound: two instances (the reference and the hostile one), each wasm memory grown to a
// result at the 2^28-element cap (1 GiB, never shrunk), both results alive on the JS side for the comparison
// (2 GiB), and Node: about 4.3 GiB at most. 3.5 GiB was exceeded by a valid 63 x 1,048,576 x 4 sinusoidal2d
// (264M elements; 3.2 GiB replayed alone, 3.8 GiB late in a run): the bound, not posenc, was wrong.
export const RSS_BYTES = 4.5 * 2 ** 30;

// Codes a refusal may carry: the core's (status.js) and every ...ErrorCode type of the declarations.
const CODES = new Set(Object.values(CODE_OF_STATUS));
for (const file of readdirSync(SRC, { recursive: true })) {
  if (!file.endsWith('.d.ts')) continue;
  for (const [, union] of readFileSync(join(SRC, file), 'utf8').matchAll(/ErrorCode\s*=([^;]+);/g))
    for (const [, code] of union.matchAll(/'([A-Z_]+)'/g)) CODES.add(code);
}

const floats = (r, n) => Float32Array.from({ length: n }, () => Math.fround(r.next() * 4 - 2));
/** The product of sizes, a wild one counting as 4 (a size for the arrays that go with them). */
const mul = (...v) => v.reduce((p, n) => p * (typeof n === 'number' && Number.isFinite(n) ? n : 4), 1);
const pickDim = (r) => size(r, [2, 4, 6, 8, 16, 64]);

/** { name, values, arrays } for each target: values are options; arrays the other arguments. */
const TARGETS = {
  sinusoidal: (r) => {
    const o = { length: size(r), dim: pickDim(r), base: maybe(r, r.pick([undefined, 2, 10000, 1e7])) };
    if (r.next() < 0.3) o.offset = size(r);
    if (r.next() < 0.2) o.layout = maybe(r, r.pick(['interleaved', 'split']));
    if (r.next() < 0.2) o.dtype = maybe(r, r.pick(['float16', 'bfloat16', 'float32']));
    if (r.next() < 0.1) o.preset = maybe(r, r.pick(['vaswani', 'tensor2tensor', 'fairseq', 'marian']));
    o.out = outFor(r, mul(o.length, o.dim));
    return { o };
  },
  sinusoidalAt: (r) => ({
    positions: idList(r),
    o: { dim: pickDim(r), base: maybe(r, r.pick([undefined, 100])) },
  }),
  addSinusoidal: (r) => {
    const o = { length: size(r), dim: pickDim(r), scale: maybe(r, r.pick([undefined, 1, 8])) };
    return { o, x: xFor(r, mul(o.length, o.dim)) };
  },
  addTable: (r) => {
    const o = { length: size(r), dim: pickDim(r), offset: maybe(r, r.pick([undefined, 0, 1])) };
    const rows = (Number.isInteger(o.length) && o.length < 256 ? o.length : 4) + r.int(0, 2);
    const dim = Number.isInteger(o.dim) && o.dim < 100 ? o.dim : 4;
    return { o, x: xFor(r, mul(o.length, o.dim)), table: maybeWasm(r, floats(r, rows * dim)) };
  },
  recipeTable: (r) => ({
    o: { recipe: maybe(r, r.pick(['float32-angle', 'float16', 'bfloat16'])), length: size(r), dim: pickDim(r) },
  }),
  sinusoidal2d: (r) => {
    const o = { height: size(r), width: size(r), dim: maybe(r, r.pick([4, 8, 16])) };
    if (r.next() < 0.3) o.clsToken = maybe(r, true);
    o.out = outFor(r, mul((o.clsToken === true ? 1 : 0) + mul(o.height, o.width), o.dim));
    return { o };
  },
  alibiSlopes: (r) => ({ heads: size(r, [1, 2, 3, 8, 12, 64]) }),
  alibiBias: (r) => {
    const o = { heads: size(r, [1, 2, 3, 8]), queryLength: size(r), keyLength: size(r) };
    if (r.next() < 0.4) o.offset = size(r);
    if (r.next() < 0.3) o.causal = maybe(r, true);
    o.out = outFor(r, mul(o.heads, o.queryLength, o.keyLength));
    return { o };
  },
  t5Buckets: (r) => {
    const o = { queryLength: size(r), keyLength: size(r), numBuckets: maybe(r, r.pick([undefined, 8, 32])) };
    if (r.next() < 0.3) o.bidirectional = maybe(r, false);
    if (r.next() < 0.3) o.maxDistance = size(r, [16, 128, 2 ** 31]);
    return { o };
  },
  t5Bias: (r) => {
    const o = { queryLength: size(r), keyLength: size(r), numBuckets: 8 };
    o.table = maybeWasm(r, floats(r, 8 * r.int(1, 3)));
    o.out = outFor(r, mul((o.table.length ?? o.table.wasm.length) / 8, o.queryLength, o.keyLength));
    return { o };
  },
  shawIndices: (r) => ({
    o: { queryLength: size(r), keyLength: size(r), maxRelative: size(r, [0, 1, 4, 127]) },
  }),
  resampleTable: (r) => {
    const dim = r.pick([1, 2, 4]);
    return {
      table: maybeWasm(r, floats(r, dim * r.int(0, 6))),
      o: { dim: maybe(r, dim), newRows: size(r) },
    };
  },
  rope: (r) => {
    const o = ropeOptions(r);
    rowSource(r, o);
    return { o, x: xFor(r, mul(o.length ?? 3, o.heads, o.headDim)) };
  },
  ropeCosSin: (r) => {
    const o = ropeOptions(r);
    delete o.heads;
    o.length = size(r);
    if (r.next() < 0.3) o.expand = maybe(r, true);
    if (r.next() < 0.3) o.dtype = maybe(r, r.pick(['float16', 'bfloat16', 'float64']));
    return { o };
  },
  ropeFrequencies: (r) => {
    const o = ropeOptions(r);
    delete o.heads;
    return { o };
  },
  planApply: (r) => {
    const plan = ropeOptions(r);
    if (r.next() < 0.3) plan.maxPosition = size(r);
    const o = {};
    rowSource(r, o);
    return { plan, o, x: xFor(r, mul(o.length ?? 3, plan.heads, plan.headDim)) };
  },
  planCosSin: (r) => {
    const plan = ropeOptions(r);
    const o = r.next() < 0.5 ? { length: size(r) } : { positions: idList(r) };
    if (r.next() < 0.3) o.dtype = maybe(r, r.pick(['float16', 'float64']));
    return { plan, o };
  },
  identify: (r) => {
    const rows = r.int(1, 40);
    const dim = r.pick([2, 4, 8]);
    return { table: floats(r, rows * dim), o: { rows: maybe(r, rows), dim: r.next() < 0.5 ? dim : undefined } };
  },
  fromConfig: (r) => ({ config: configFor(r), o: r.next() < 0.2 ? { layerType: maybe(r, 'full_attention') } : {} }),
  readTable: (r) => ({ bytes: fileFor(r), o: r.next() < 0.3 ? { rows: maybe(r, 4), dim: maybe(r, 2) } : {} }),
  roundToBits: (r) => ({
    values: Array.from({ length: r.int(0, 9) }, () => maybe(r, r.next() * 1e5 - 5e4)),
    o: { dtype: maybe(r, r.pick(['float16', 'bfloat16'])) },
  }),
};

function ropeOptions(r) {
  const headDim = size(r, [2, 4, 8, 16, 64]);
  const o = { heads: size(r, [1, 2, 3]), headDim };
  if (r.next() < 0.3) o.base = maybe(r, r.pick([2, 500, 1e6]));
  if (r.next() < 0.2) o.rotaryDim = maybe(r, Math.max(2, mul(headDim) / 2));
  if (r.next() < 0.2) o.layout = maybe(r, 'interleaved');
  if (r.next() < 0.1) o.order = maybe(r, 'bhld');
  if (r.next() < 0.25) o.scaling = scalingFor(r);
  if (r.next() < 0.1) o.xpos = maybe(r, { role: r.pick(['query', 'key']) });
  if (r.next() < 0.08) o.mropeSection = maybe(r, [1, 1, mul(headDim) / 2 - 2]);
  return o;
}

function scalingFor(r) {
  const type = r.pick(['linear', 'dynamic', 'yarn', 'llama3', 'longrope', 'default']);
  const s = { rope_type: type, factor: maybe(r, r.pick([1, 2, 8])) };
  if (type !== 'linear') s.original_max_position_embeddings = maybe(r, r.pick([4, 64, 4096]));
  if (type === 'llama3') Object.assign(s, { low_freq_factor: 1, high_freq_factor: maybe(r, 4) });
  if (type === 'longrope') {
    s.short_factor = [maybe(r, 1), 1];
    s.long_factor = [2, maybe(r, 2)];
  }
  return s;
}

/** positions / positionIds / cuSeqlens (or offset/length) for a call of 3 rows. */
function rowSource(r, o) {
  const k = r.next();
  if (k < 0.4) {
    o.length = size(r, [0, 1, 2, 3]);
    if (r.next() < 0.5) o.offset = size(r);
  } else if (k < 0.7) o.positions = idList(r, 3);
  else if (k < 0.85) o.positionIds = idList(r, 3);
  else o.cuSeqlens = maybe(r, [0, r.int(0, 3), 3]);
}

function idList(r, n = r.int(0, 6)) {
  const kind = r.next();
  const ids = Array.from({ length: n }, () => maybe(r, r.pick([0, 1, 2, 70, 2 ** 31 - 1]), 0.05));
  if (kind < 0.6) return ids;
  const clean = ids.map((v) => (Number.isInteger(v) && v >= 0 && v < 2 ** 31 ? v : 1));
  if (kind < 0.75) return Int32Array.from(clean);
  if (kind < 0.85) return BigInt64Array.from(clean, BigInt);
  if (kind < 0.95) return Float64Array.from(clean);
  return wild(r);
}

/** x of about n floats: the right size mostly, a WasmBuffer, a detached array or a wild value. */
function xFor(r, n) {
  const count = Number.isInteger(n) && n >= 0 && n <= 4096 ? n : r.int(0, 16);
  const k = r.next();
  const x = floats(r, k < 0.1 ? count + 1 : count);
  if (k > 0.97) return wild(r);
  return maybeWasm(r, x);
}

function outFor(r, n) {
  const k = r.next();
  if (k < 0.75) return undefined;
  const count = Number.isInteger(n) && n >= 0 && n <= 65536 ? n : 4;
  if (k < 0.85) return maybeWasm(r, floats(r, count));
  if (k < 0.9) return new Float32Array(count + 1);
  return wild(r);
}

/** A Float32Array, or (30%) a marker that the argument is a WasmBuffer with these floats. */
const maybeWasm = (r, array) => (r.next() < 0.3 ? { wasm: array } : array);

/** A deep copy of plain objects and arrays (other values, symbols included, shared). */
const copyOf = (v) =>
  Array.isArray(v)
    ? v.map(copyOf)
    : v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copyOf(x)]))
      : v;

function configFor(r) {
  const model = structuredClone(r.pick(MODELS).config);
  const keys = Object.keys(model);
  for (let k = r.int(0, 3); k > 0; k--) {
    const key = r.pick(keys);
    const v = model[key];
    // Into a plain object (a dict of the config) only: an earlier draw may have put a typed array, a Date or a
    // Proxy here, whose elements cannot hold every wild value (a BigInt in a Float32Array throws in the harness).
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const inner = Object.keys(v);
      if (inner.length) v[r.pick(inner)] = wild(r);
    } else model[key] = r.next() < 0.5 ? wild(r) : size(r);
  }
  const k = r.next();
  if (k < 0.05)
    model.text_config = model; // a cycle
  else if (k < 0.1) model.text_config = copyOf(model);
  else if (k < 0.13) {
    let deep = 1;
    for (let i = r.int(1, 200); i > 0; i--) deep = [deep];
    model.deep = deep;
  }
  if (r.next() < 0.4) {
    try {
      let text = JSON.stringify(model);
      if (r.next() < 0.5) text = text.replace(/"rope_theta"/, '"rope_\\u0074heta"'); // escapes
      if (r.next() < 0.3) text = text.replace(/^\{/, '{"rope_theta": 5, '); // a duplicate key
      if (r.next() < 0.2) text = text.slice(0, r.int(0, text.length)); // truncated
      return text;
    } catch {
      return model;
    }
  }
  return model;
}

function fileFor(r) {
  const rows = r.int(0, 5);
  const dim = r.int(1, 4);
  const data = floats(r, rows * dim);
  let bytes;
  if (r.next() < 0.5) {
    let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${dim}), }`;
    header = header.padEnd(Math.ceil((header.length + 11) / 64) * 64 - 11) + '\n';
    bytes = new Uint8Array(10 + header.length + data.byteLength);
    bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 255, header.length >> 8]);
    bytes.set(new TextEncoder().encode(header), 10);
    bytes.set(new Uint8Array(data.buffer), 10 + header.length);
  } else {
    const json = new TextEncoder().encode(
      JSON.stringify({ t: { dtype: 'F32', shape: [rows, dim], data_offsets: [0, data.byteLength] } }),
    );
    bytes = new Uint8Array(8 + json.length + data.byteLength);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
    bytes.set(json, 8);
    bytes.set(new Uint8Array(data.buffer), 8 + json.length);
  }
  for (let k = r.next() < 0.6 ? r.int(1, 4) : 0; k > 0; k--) {
    const at = r.int(0, Math.max(0, bytes.length - 1));
    const m = r.next();
    if (m < 0.5) bytes[at] = r.int(0, 255);
    else if (m < 0.8) bytes = bytes.slice(0, at);
    else bytes[at] = r.pick([0x30, 0x39, 0x2c, 0x7d, 0x22, 0x28]);
  }
  return bytes;
}

/** The call of each target on instance p with materialised arguments a. */
const CALLS = {
  sinusoidal: (p, a) => p.sinusoidal(a.o),
  sinusoidalAt: (p, a) => p.sinusoidalAt(a.positions, a.o),
  addSinusoidal: (p, a) => p.addSinusoidal(a.x, a.o),
  addTable: (p, a) => p.addTable(a.x, a.table, a.o),
  recipeTable: (p, a) => p.recipeTable(a.o),
  sinusoidal2d: (p, a) => p.sinusoidal2d(a.o),
  alibiSlopes: (p, a) => p.alibiSlopes(a.heads),
  alibiBias: (p, a) => p.alibiBias(a.o),
  t5Buckets: (p, a) => p.t5Buckets(a.o),
  t5Bias: (p, a) => p.t5Bias(a.o),
  shawIndices: (p, a) => p.shawIndices(a.o),
  resampleTable: (p, a) => p.resampleTable(a.table, a.o),
  rope: (p, a) => p.rope(a.x, a.o),
  ropeCosSin: (p, a) => p.ropeCosSin(a.o),
  ropeFrequencies: (p, a) => p.ropeFrequencies(a.o),
  planApply: (p, a) => (a.k !== undefined ? a.plan.applyQK(a.x, a.k, a.o) : a.plan.apply(a.x, a.o)),
  planCosSin: (p, a) => a.plan.cosSin(a.o),
  identify: (p, a) => p.identify(a.table, a.o),
  fromConfig: (p, a) => p.fromConfig(a.config, a.o),
  readTable: (p, a) => p.readTable(a.bytes, a.o),
  roundToBits: (p, a) => p.roundToBits(a.values, a.o),
};
export const TARGET_NAMES = Object.keys(TARGETS);

/**
 * The GQA and tensor options (heads, kvHeads, applyQK, tensors, as: 'tensor')
 * on some rope, planApply and planCosSin cases, drawn from a generator of
 * their own (g) so that the draws of the cases before them, and the corpus's
 * seeds, stay as they were.
 */
function widen(target, spec, g) {
  const o = spec.o;
  const numeric = (v) => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 64;
  const asTensor = (x, heads, headDim) => {
    if (!(x instanceof Float32Array) || !numeric(heads) || !numeric(headDim)) return x;
    const length = x.length / (heads * headDim); // a wrong size gives dims that disagree: refused alike
    return { tensor: x, dims: [1, Number.isInteger(length) ? length : 1, heads, headDim] };
  };
  if (target === 'rope') {
    if (g.next() < 0.15) o.as = maybe(g, 'tensor');
    if (g.next() < 0.15) spec.x = asTensor(spec.x, o.heads, o.headDim);
  } else if (target === 'planApply' && numeric(spec.plan.heads) && numeric(spec.plan.headDim)) {
    const { plan } = spec;
    const length = Number.isInteger(o.length) && o.length >= 0 && o.length <= 64 ? o.length : 3;
    if (g.next() < 0.3) plan.kvHeads = maybe(g, g.pick([1, plan.heads]));
    const kvHeads = numeric(plan.kvHeads) ? plan.kvHeads : plan.heads;
    const k = g.next();
    if (k < 0.2) {
      o.heads = maybe(g, kvHeads); // x holds the key heads
      spec.x = floats(g, length * kvHeads * plan.headDim);
    } else if (k < 0.4) spec.k = floats(g, length * kvHeads * plan.headDim); // applyQK
    if (g.next() < 0.15) o.as = maybe(g, 'tensor');
    if (g.next() < 0.2) spec.x = asTensor(spec.x, o.heads ?? plan.heads, plan.headDim);
    if (spec.k && g.next() < 0.3) spec.k = asTensor(spec.k, kvHeads, plan.headDim);
  } else if (target === 'planCosSin' && g.next() < 0.2) o.as = maybe(g, 'tensor');
}

/**
 * The fuzzer's state over many cases: the hostile instance (h) and the
 * reference (ref), each with the package's pure readers, a sentinel buffer in
 * h's memory, and the buffers actions hold to grow memory.
 */
export async function fuzzState(instantiate, readers) {
  const h = { ...(await instantiate()), ...readers };
  const ref = { ...(await instantiate()), ...readers };
  const sentinel = h.alloc(4096);
  sentinel.array.set(Float32Array.from({ length: 4096 }, (_, i) => i * 0.25 - 7));
  const known = ref.sinusoidal({ length: 70, dim: 6 });
  return { h, ref, sentinel, known, held: [] };
}

/** Builds the arguments of spec for instance p: WasmBuffer markers allocated there; the plan made. */
function materialise(p, spec, hostile, r, log, state) {
  const buffers = [];
  const wasmOf = (v) => {
    if (v === null || typeof v !== 'object' || !(v.wasm instanceof Float32Array)) return v;
    const b = p.alloc(v.wasm.length);
    b.array.set(v.wasm);
    buffers.push(b);
    return b;
  };
  const a = {};
  for (const key of ['x', 'k', 'out', 'table']) {
    const v = spec[key];
    if (v !== null && typeof v === 'object' && v.tensor instanceof Float32Array) {
      a[key] = { data: v.tensor.slice(), dims: v.dims.slice(), type: 'float32' }; // an engine's tensor
    } else a[key] = v instanceof Float32Array ? v.slice() : wasmOf(v);
  }
  a.heads = spec.heads;
  a.bytes = spec.bytes;
  a.values = spec.values;
  a.config = spec.config;
  a.positions = spec.positions;
  // Arrays and WasmBuffer markers inside the options too (out, table).
  a.o =
    spec.o &&
    Object.fromEntries(Object.entries(spec.o).map(([k, v]) => [k, v instanceof Float32Array ? v.slice() : wasmOf(v)]));
  a.plainO = a.o;
  let plan = null;
  if (spec.plan) {
    try {
      plan = p.createRope(spec.plan);
    } catch (error) {
      return { error, buffers };
    }
    a.plan = plan;
  }
  if (!hostile) return { a, buffers, plan };
  const actions = [
    {
      name: 'reenter',
      run: () => void tryQuietly(() => p.rope(new Float32Array(16), { heads: 1, headDim: 16, base: 3 + r.int(0, 20) })),
    },
    {
      name: 'rebuild-plan',
      run: () => void tryQuietly(() => p.sinusoidal({ length: 1, dim: 2 * r.int(1, 40), base: 7 })),
    },
    { name: 'grow', run: () => grow(p, state) },
    {
      name: 'throw',
      run: () => {
        throw new HostileError('hostile getter');
      },
    },
  ];
  if (plan) actions.push({ name: 'free-plan', run: () => plan.free() });
  if (buffers.length) actions.push({ name: 'free-buffer', run: () => r.pick(buffers).free() });
  if (a.x instanceof Float32Array) actions.push({ name: 'detach', run: () => detach(a.x) });
  else if (a.x && a.x.data instanceof Float32Array) actions.push({ name: 'detach', run: () => detach(a.x.data) });
  if (a.o) a.o = hostileOptions(r, a.o, actions, log).options;
  if (Array.isArray(spec.positions)) a.positions = hostileList(r, spec.positions, actions, log);
  for (const key of ['positions', 'positionIds']) {
    if (a.o && Array.isArray(spec.o[key]) && !Object.getOwnPropertyDescriptor(a.o, key)?.get) {
      a.o[key] = hostileList(r, spec.o[key], actions, log);
    }
  }
  return { a, buffers, plan };
}

function tryQuietly(call) {
  try {
    return call();
  } catch {
    return undefined;
  }
}

/** Grows wasm memory by holding buffers, at most 1 + 2 + ... + 10 MiB of floats (220 MiB) at a time. */
function grow(p, state) {
  if (state.held.length >= 10) for (const b of state.held.splice(0)) b.free();
  state.held.push(p.alloc(2 ** 20 * (1 + state.held.length)));
}

const detach = (array) => structuredClone(array.buffer, { transfer: [array.buffer] });

/** A comparable copy of a result: typed arrays as bytes, WasmBuffers by contents, plans by their fields. */
function snapshot(value, depth = 0) {
  if (value instanceof WasmBuffer) return value.freed ? 'freed' : snapshot(value.array.slice(), depth);
  if (ArrayBuffer.isView(value)) {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return { type: value.constructor.name, length: value.length, sha1: createHash('sha1').update(bytes).digest('hex') };
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint' || typeof value === 'symbol') return `${typeof value} ${String(value)}`;
  if (value === null || typeof value !== 'object' || depth > 6) return typeof value === 'function' ? 'fn' : value;
  const out = {};
  for (const key of Object.keys(value))
    if (typeof value[key] !== 'function' && key !== 'json' && key !== 'text')
      out[key] = snapshot(value[key], depth + 1);
  return out;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** One case: returns null when every invariant held, else a finding { seed, target, what }. */
export function runApiCase(state, seed) {
  const r = generator(seed);
  const target = r.pick(TARGET_NAMES);
  const spec = TARGETS[target](r);
  widen(target, spec, generator((seed ^ 0x5bd1e995) >>> 0));
  if (spec.o && r.next() < 0.04) spec.o[r.pick(['lenght', 'dims', 'bse', 'foo'])] = 1; // a misspelt option
  const log = [];
  const finding = (what) => ({ kind: 'api', seed, target, what, actions: log.slice() });

  // The reference: the values each getter gave, on a clean instance.
  const refArgs = materialise(state.ref, spec, false, r, log, state);
  const refOutcome = outcome(() => {
    if (refArgs.error) throw refArgs.error;
    return CALLS[target](state.ref, refArgs.a);
  }, refArgs.a);
  freeAll(refArgs);

  const hostile = materialise(state.h, spec, true, r, log, state);
  if (hostile.error) {
    freeAll(hostile);
    return refArgs.error && refArgs.error.code === hostile.error.code
      ? null
      : finding(`createRope differs: ${hostile.error.message}`);
  }
  const inputOf = (a, key) => (key in a && a[key] !== undefined ? a[key] : a.plainO && a.plainO[key]);
  const inputs = ['x', 'k', 'out', 'table'].map((k) => [k, snapshot(inputOf(hostile.a, k))]);
  const t = performance.now();
  const got = outcome(() => CALLS[target](state.h, hostile.a), hostile.a);
  const ms = performance.now() - t;
  const problem = judge(target, got, refOutcome, log, hostile.a, inputs);
  freeAll(hostile);
  if (problem) return finding(problem);
  if (ms > CALL_MS + (NS_PER_BYTE * resultBytes(got)) / 1e6) return finding(`took ${ms.toFixed(0)} ms`);
  const health = healthy(state);
  if (health) return finding(health);
  if (process.memoryUsage().rss > RSS_BYTES) return finding(`rss ${process.memoryUsage().rss} bytes`);
  return null;
}

/** The bytes of a call's result (the typed arrays in it), for its time limit. */
function resultBytes(got) {
  let bytes = 0;
  const walk = (v) => {
    if (v && typeof v === 'object') {
      if (typeof v.sha1 === 'string') bytes += v.length * 4;
      else Object.values(v).forEach(walk);
    }
  };
  walk(got.value);
  walk(got.x);
  return bytes;
}

function outcome(call, a) {
  try {
    const value = call();
    return { value: snapshot(value), x: a && snapshot(a.x) };
  } catch (error) {
    return { error };
  }
}

/** The invariants of one hostile call against the reference's outcome; a sentence when one fails. */
function judge(target, got, ref, log, a, inputs) {
  const ran = new Set(log);
  if (got.error) {
    const e = got.error;
    if (e instanceof HostileError) return ran.has('throw') ? null : 'a HostileError without a throwing getter';
    if (!(e instanceof PosencError)) return `threw ${e && e.constructor && e.constructor.name}: ${e && e.message}`;
    if (!CODES.has(e.code)) return `unknown code ${e.code}: ${e.message}`;
    if (typeof e.message !== 'string' || e.message.length === 0) return `code ${e.code} without a message`;
    const explained =
      (ran.has('free-plan') && e.code === 'PLAN_FREED') ||
      (ran.has('free-buffer') && e.code === 'BUFFER_FREED') ||
      (ran.has('detach') && e.code === 'BAD_BUFFER') ||
      (ref.error instanceof PosencError && ref.error.code === e.code);
    if (!explained)
      return `refused ${e.code} (${e.message}) where the reference ${ref.error ? `refused ${ref.error.code}` : 'succeeded'}`;
    if (!ran.has('detach') && !ran.has('free-buffer')) {
      for (const [key, before] of inputs) {
        const now = key in a && a[key] !== undefined ? a[key] : a.plainO && a.plainO[key];
        if (!same(before, snapshot(now))) return `${key} changed by a refused call (${e.code})`;
      }
    }
    return null;
  }
  for (const action of ['free-plan', 'free-buffer', 'detach']) {
    if (ran.has(action)) {
      // Freed or detached during the call, and still answered: only fine when it was not used.
      if (action === 'free-plan') return 'succeeded on a plan freed during the call';
      if (action === 'detach') return 'succeeded on an x detached during the call';
    }
  }
  if (ran.has('free-buffer')) return null; // the freed buffer may be one the call did not read
  if (ref.error) return `succeeded where the reference refused ${ref.error.code}: ${ref.error.message}`;
  if (!same(got.value, ref.value)) return 'result differs from the reference';
  if (!same(got.x, ref.x)) return 'x differs from the reference';
  return null;
}

function freeAll({ buffers = [], plan = null }) {
  for (const b of buffers) b.free();
  if (plan) plan.free();
}

/** null while the hostile instance still works and its sentinel is intact. */
function healthy(state) {
  const s = state.sentinel.array;
  for (let i = 0; i < s.length; i++) if (s[i] !== i * 0.25 - 7) return `sentinel buffer changed at ${i}`;
  const table = state.h.sinusoidal({ length: 70, dim: 6 });
  if (!same(snapshot(table), snapshot(state.known))) return 'the module gives another table afterwards';
  return null;
}
