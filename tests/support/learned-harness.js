// Runs ALiBi and learned-table requests on the four builds: native scalar and
// native SIMD through build/test/harness in serve mode (its slopes, alibi and
// resample requests), wasm SIMD and wasm scalar through the package.
// Requests:
//   { op: 'slopes', heads }
//   { op: 'alibi', heads, queryLength, keyLength, offset, causal, first, count }
//       heads first ... first+count-1 of the bias (the wasm builds compute all
//       heads through alibiBias and keep the slice)
//   { op: 'resample', rows, dim, newRows, table }
// plus `viaAlloc: true` to give the wasm builds WasmBuffers (their no-copy path).
import { HARNESS, serve as serveHarness, fourBuilds } from './native-harness.js';

export const BUILDS = ['native scalar', 'native simd', 'wasm simd', 'wasm scalar'];

const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);

function encode(r) {
  switch (r.op) {
    case 'slopes':
      return [[`slopes ${r.heads}\n`], r.heads];
    case 'alibi':
      return [
        [`alibi ${r.heads} ${r.queryLength} ${r.keyLength} ${r.offset} ${r.causal ? 1 : 0} ${r.first} ${r.count}\n`],
        r.count * r.queryLength * r.keyLength,
      ];
    case 'resample':
      if (r.table.length !== r.rows * r.dim) throw new Error('table size is not rows * dim');
      return [[`resample ${r.rows} ${r.dim} ${r.newRows}\n`, bytes(r.table)], r.newRows * r.dim];
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

/** One Float32Array per request from `binary serve kernels`; throws on any exit code or stderr output. */
export function serve(binary, kernels, requests) {
  return serveHarness(binary, kernels, requests, encode);
}

function takeOut(buffer) {
  const copy = buffer.array.slice();
  buffer.free();
  return copy;
}

/** One request on one package instance; inputs are never modified. */
export function runWasm(inst, r) {
  switch (r.op) {
    case 'slopes':
      return inst.alibiSlopes(r.heads);
    case 'alibi': {
      const opts = {
        heads: r.heads,
        queryLength: r.queryLength,
        keyLength: r.keyLength,
        offset: r.offset,
        causal: r.causal,
      };
      const plane = r.queryLength * r.keyLength;
      const all = r.viaAlloc
        ? takeOut(inst.alibiBias({ ...opts, out: inst.alloc(r.heads * plane) }))
        : inst.alibiBias(opts);
      return all.slice(r.first * plane, (r.first + r.count) * plane);
    }
    case 'resample': {
      const opts = { dim: r.dim, newRows: r.newRows };
      if (!r.viaAlloc) return inst.resampleTable(r.table, opts);
      const table = inst.alloc(r.table.length);
      table.array.set(r.table);
      const out = takeOut(inst.resampleTable(table, { ...opts, out: inst.alloc(r.newRows * r.dim) }));
      table.free();
      return out;
    }
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

/** { 'native scalar': [Float32Array per request], ... } */
export function runBuilds(requests, wasm, binary = HARNESS) {
  return fourBuilds(requests, wasm, (kernels) => serve(binary, kernels, requests), runWasm);
}

export function describe(r) {
  if (r.op === 'slopes') return `slopes heads=${r.heads}`;
  if (r.op === 'alibi') {
    return `alibi heads=${r.heads} [${r.first}, +${r.count}) q=${r.queryLength} k=${r.keyLength} offset=${r.offset}${r.causal ? ' causal' : ''}${r.viaAlloc ? ' (alloc)' : ''}`;
  }
  return `resample ${r.rows}x${r.dim} -> ${r.newRows} rows${r.viaAlloc ? ' (alloc)' : ''}`;
}
