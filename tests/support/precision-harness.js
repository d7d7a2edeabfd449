// Reduced-precision, recipe and 2-D requests on the four builds: native
// scalar and SIMD through build/test/harness serve (its tabledtype, atdtype,
// narrow, recipe and table2d commands), wasm SIMD and scalar through the
// package. Requests:
//   { op: 'table', dtype, dim, base, layout, offset, length }
//   { op: 'at', dtype, dim, base, layout, positions }
//   { op: 'narrow', dtype, values (Float64Array) }
//   { op: 'recipe', recipe, dim, base, layout, offset, length }
//   { op: 'table2d', height, width, dim, base, clsToken }
// dtype 'float64' exists only natively (the core's own float64 rows).
import { HARNESS, serve as serveHarness, fourBuilds } from './native-harness.js';

const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
const SIZE = { float16: 2, bfloat16: 2, float32: 4, float64: 8 };
const words = (count, dtype) => Math.ceil((count * SIZE[dtype]) / 4);

function encode(r) {
  switch (r.op) {
    case 'table':
      return [
        [`tabledtype ${r.dtype} ${r.dim} ${r.base} ${r.layout} ${r.offset} ${r.length}\n`],
        words(r.length * r.dim, r.dtype),
      ];
    case 'at':
      return [
        [
          `atdtype ${r.dtype} ${r.dim} ${r.base} ${r.layout} ${r.positions.length}\n`,
          bytes(Uint32Array.from(r.positions)),
        ],
        words(r.positions.length * r.dim, r.dtype),
      ];
    case 'narrow':
      return [[`narrow ${r.dtype} ${r.values.length}\n`, bytes(r.values)], words(r.values.length, r.dtype)];
    case 'recipe':
      return [[`recipe ${r.recipe} ${r.dim} ${r.base} ${r.layout} ${r.offset} ${r.length}\n`], r.length * r.dim];
    case 'table2d':
      return [
        [`table2d ${r.height} ${r.width} ${r.dim} ${r.base} ${r.clsToken ? 1 : 0}\n`],
        ((r.clsToken ? 1 : 0) + r.height * r.width) * r.dim,
      ];
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

/** The elements a request answers with, as their own typed array. */
function count(r) {
  if (r.op === 'table') return r.length * r.dim;
  if (r.op === 'at') return r.positions.length * r.dim;
  return r.values.length;
}
function typed(r, words32) {
  if (r.op === 'recipe' || r.op === 'table2d') return words32;
  const n = count(r);
  const buffer = words32.buffer.slice(words32.byteOffset, words32.byteOffset + n * SIZE[r.dtype]);
  return r.dtype === 'float64'
    ? new Float64Array(buffer)
    : r.dtype === 'float32'
      ? new Float32Array(buffer)
      : new Uint16Array(buffer);
}

/** One typed array per request from `binary serve kernels`. */
export function serve(binary, kernels, requests) {
  return serveHarness(binary, kernels, requests, encode).map((w, k) => typed(requests[k], w));
}

/** One request on a package instance. */
export function runWasm(inst, r) {
  switch (r.op) {
    case 'table':
      return inst.sinusoidal({
        dim: r.dim,
        base: r.base,
        layout: r.layout,
        offset: r.offset,
        length: r.length,
        dtype: r.dtype,
      });
    case 'at':
      return inst.sinusoidalAt(r.positions, { dim: r.dim, base: r.base, layout: r.layout, dtype: r.dtype });
    case 'narrow':
      return inst.roundToBits(r.values, { dtype: r.dtype });
    case 'recipe':
      return inst.recipeTable({
        recipe: r.recipe,
        dim: r.dim,
        base: r.base,
        layout: r.layout,
        offset: r.offset,
        length: r.length,
      });
    case 'table2d':
      return inst.sinusoidal2d({ height: r.height, width: r.width, dim: r.dim, base: r.base, clsToken: r.clsToken });
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

/** { 'native scalar': [...], 'native simd': [...], 'wasm simd': [...], 'wasm scalar': [...] } */
export function runBuilds(requests, wasm, binary = HARNESS) {
  return fourBuilds(requests, wasm, (kernels) => serve(binary, kernels, requests), runWasm);
}

/** Throws unless a and b (typed arrays of one kind) hold the same bits. */
export function sameBits(a, b, what) {
  if (a.constructor !== b.constructor || a.length !== b.length) {
    throw new Error(`${what}: ${a.constructor.name}(${a.length}) vs ${b.constructor.name}(${b.length})`);
  }
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
    y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) {
      const k = Math.floor(i / a.BYTES_PER_ELEMENT);
      throw new Error(`${what}: first difference at element ${k}: ${a[k]} vs ${b[k]}`);
    }
  }
  return a.length;
}
