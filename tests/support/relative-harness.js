// Runs relative-family requests (T5 buckets and bias, Shaw indices) on the
// four builds: native scalar and native SIMD through build/test/
// relative_harness (tests/native/relative/relative_harness.c), wasm SIMD and
// wasm scalar through the package. Every result comes back as a Float32Array
// of the output's 32-bit words, for sameBits. Requests:
//   { op: 't5', queryLength, keyLength, offset, numBuckets, maxDistance, bidirectional }
//   { op: 't5bias', ...the same, heads, first, count, table }   heads first ... first+count-1
//   { op: 'shaw', queryLength, keyLength, offset, maxRelative }
import { fileURLToPath } from 'node:url';
import { serve, fourBuilds } from './native-harness.js';

export const RELATIVE_HARNESS = fileURLToPath(new URL('../../build/test/relative_harness', import.meta.url));
export const RELATIVE_HARNESS_ASAN = fileURLToPath(new URL('../../build/test/relative_harness-asan', import.meta.url));
export const LOG_SCAN = fileURLToPath(new URL('../../build/test/log_scan', import.meta.url));

const words = (typed) => new Float32Array(typed.buffer, typed.byteOffset, typed.length);
const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);

function encode(r) {
  const geometry = `${r.queryLength} ${r.keyLength} ${r.offset}`;
  const t5 = `${geometry} ${r.numBuckets} ${r.maxDistance} ${r.bidirectional ? 1 : 0}`;
  const plane = r.queryLength * r.keyLength;
  switch (r.op) {
    case 't5':
      return [[`t5 ${t5}\n`], plane];
    case 't5bias':
      return [[`t5bias ${t5} ${r.heads} ${r.first} ${r.count}\n`, bytes(r.table)], plane * r.count];
    case 'shaw':
      return [[`shaw ${geometry} ${r.maxRelative}\n`], plane];
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

/** One request on one package instance, as the words it wrote. */
export function runWasm(inst, r) {
  const geometry = { queryLength: r.queryLength, keyLength: r.keyLength, offset: r.offset };
  const t5 = { ...geometry, numBuckets: r.numBuckets, maxDistance: r.maxDistance, bidirectional: r.bidirectional };
  switch (r.op) {
    case 't5':
      return words(inst.t5Buckets(t5));
    case 't5bias': {
      const plane = r.queryLength * r.keyLength;
      return inst.t5Bias({ ...t5, table: r.table, heads: r.heads }).slice(r.first * plane, (r.first + r.count) * plane);
    }
    case 'shaw':
      return words(inst.shawIndices({ ...geometry, maxRelative: r.maxRelative }));
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

/** { 'native scalar': [words per request], ... } */
export function runBuilds(requests, wasm, binary = RELATIVE_HARNESS) {
  return fourBuilds(requests, wasm, (kernels) => serve(binary, kernels, requests, encode), runWasm);
}

export function describe(r) {
  const where = `q=${r.queryLength} k=${r.keyLength} offset=${r.offset}`;
  if (r.op === 'shaw') return `shaw ${where} maxRelative=${r.maxRelative}`;
  const t5 = `${where} buckets=${r.numBuckets} maxDistance=${r.maxDistance}${r.bidirectional ? '' : ' causal'}`;
  return r.op === 't5' ? `t5 ${t5}` : `t5bias ${t5} heads=${r.heads} [${r.first}, +${r.count})`;
}
