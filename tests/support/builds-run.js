// Runs one list of requests on the four builds: native scalar and native SIMD
// (through the harness), wasm SIMD and wasm scalar (through the package).
// A request is a harness request (see native-harness.js):
//   { op: 'table', dim, base, layout, offset, length }
//   { op: 'at', dim, base, layout, positions }
//   { op: 'add', dim, base, layout, offset, length, scale, x }
//   { op: 'addtable', length, dim, rows, offset, scale, x, table }
// plus `viaAlloc: true` to hand the wasm builds wasm-resident buffers from
// alloc() (their no-copy path) instead of JS arrays.
import { HARNESS, serve } from './native-harness.js';
import { sameBits } from './builds-bits.js';

export const BUILDS = ['native scalar', 'native simd', 'wasm simd', 'wasm scalar'];

// A fresh copy of a buffer's current contents, then frees it.
function takeOut(buffer) {
  const copy = buffer.array.slice();
  buffer.free();
  return copy;
}

function filled(inst, values) {
  const b = inst.alloc(values.length);
  b.array.set(values);
  return b;
}

// One request on one package instance; inputs are never modified.
export function runWasm(inst, r) {
  const enc = { dim: r.dim, base: r.base, layout: r.layout };
  switch (r.op) {
    case 'table':
      if (!r.viaAlloc) return inst.sinusoidal({ ...enc, offset: r.offset, length: r.length });
      return takeOut(
        inst.sinusoidal({ ...enc, offset: r.offset, length: r.length, out: inst.alloc(r.length * r.dim) }),
      );
    case 'at': {
      const positions = Uint32Array.from(r.positions);
      if (!r.viaAlloc) return inst.sinusoidalAt(positions, enc);
      return takeOut(inst.sinusoidalAt(positions, { ...enc, out: inst.alloc(positions.length * r.dim) }));
    }
    case 'add': {
      const opts = { ...enc, offset: r.offset, length: r.length, scale: r.scale };
      if (!r.viaAlloc) return inst.addSinusoidal(r.x.slice(), opts);
      return takeOut(inst.addSinusoidal(filled(inst, r.x), opts));
    }
    case 'addtable': {
      const opts = { length: r.length, dim: r.dim, offset: r.offset, scale: r.scale };
      if (!r.viaAlloc) return inst.addTable(r.x.slice(), r.table, opts);
      const table = filled(inst, r.table);
      const out = takeOut(inst.addTable(filled(inst, r.x), table, opts));
      table.free();
      return out;
    }
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

// Results of every build: { 'native scalar': [Float32Array per request], ... }.
export function runBuilds(requests, wasm) {
  return {
    'native scalar': serve(HARNESS, 'scalar', requests),
    'native simd': serve(HARNESS, 'simd', requests),
    'wasm simd': requests.map((r) => runWasm(wasm.simd, r)),
    'wasm scalar': requests.map((r) => runWasm(wasm.scalar, r)),
  };
}

export function describe(r) {
  const base = r.base === undefined ? '' : ` base=${r.base} ${r.layout}`;
  const extra = r.op === 'at' ? ` ${r.positions.length} positions` : ` offset=${r.offset} length=${r.length}`;
  const more =
    r.scale === undefined ? '' : ` scale=${r.scale} x=${r.x.length}${r.rows === undefined ? '' : ` rows=${r.rows}`}`;
  return `${r.op} d=${r.dim}${base}${extra}${more}${r.viaAlloc ? ' (alloc)' : ''}`;
}

// Every build gives native scalar's bits for every request.
export function assertBuildsAgree(requests, results) {
  const ref = results['native scalar'];
  for (const build of BUILDS.slice(1)) {
    requests.forEach((r, k) => sameBits(results[build][k], ref[k], `${build} vs native scalar, ${describe(r)}`, r.dim));
  }
}
