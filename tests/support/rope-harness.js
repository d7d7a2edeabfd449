// Runs RoPE requests through build/test/harness (or harness-asan) in serve
// mode: one process for a whole sweep. See the top of
// tests/native/harness/rope.c for the request format.
import { serve } from './native-harness.js';
import { checkScaling } from '../../src/js/rope/scaling.js';
import { SCALING_FIELDS } from '../../src/js/rope/options.js';

const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
const TYPES = ['none', 'linear', 'dynamic', 'yarn', 'llama3'];

// xPos's four GEOMETRY fields (none without xpos), defaults as the package's.
const xposWords = (x) => (x ? [x.scaleBase ?? 512, x.gamma ?? 0.4, x.role === 'key' ? 1 : 0, x.center ?? 0] : []);

// GEOMETRY and SCALING words for a rope case { headDim, rotaryDim, heads, base,
// layout, order, inverse, offset, length, scaling, sequenceLength, xpos }.
export function words(c) {
  const r = c.rotaryDim ?? c.headDim;
  const layout = (c.layout ?? 'half') === 'half' ? 'split' : 'interleaved';
  const geometry = [
    c.headDim,
    r,
    c.heads ?? 1,
    c.base ?? 10000,
    layout,
    c.order ?? 'blhd',
    c.inverse ? 1 : 0,
    c.offset ?? 0,
    c.length,
    ...xposWords(c.xpos),
  ].join(',');
  const s = checkScaling(c.scaling, r);
  if (s.type === 0 && !c.sequenceLength) return [geometry, 'none'];
  const scaling = [TYPES[s.type], ...SCALING_FIELDS.map((k) => s[k]), c.sequenceLength ?? 0].map(String).join(',');
  return [geometry, scaling];
}

// cases: { ...rope case, x: Float32Array, positions?: number[] } -> the rotated x of each.
// { frequencies: true } instead of x asks for the frequencies: Float64Array (w..., attention factor).
function encode(c) {
  const [geometry, scaling] = words(c);
  if (c.frequencies) {
    const pairs = (c.rotaryDim ?? c.headDim) / 2;
    return [[`ropefreq ${geometry} ${scaling}\n`], 2 * (pairs + 1)]; // float64s, in 4-byte words
  }
  const positions = c.positions ? Uint32Array.from(c.positions) : new Uint32Array(0);
  return [
    [`rope ${geometry} ${scaling} ${c.x.length} ${positions.length}\n`, bytes(c.x), bytes(positions)],
    c.x.length,
  ];
}

export function serveRope(binary, kernels, cases) {
  return serve(binary, kernels, cases, encode).map((words32, k) =>
    cases[k].frequencies ? new Float64Array(words32.buffer, words32.byteOffset, words32.length / 2) : words32,
  );
}

// The options object rope() takes for a case.
export function ropeOptions(c) {
  const o = { heads: c.heads ?? 1, headDim: c.headDim, layout: c.layout ?? 'half', order: c.order ?? 'blhd' };
  if (c.rotaryDim !== undefined) o.rotaryDim = c.rotaryDim;
  if (c.base !== undefined) o.base = c.base;
  if (c.inverse) o.inverse = true;
  if (c.scaling) o.scaling = c.scaling;
  if (c.xpos) o.xpos = c.xpos;
  if (c.positions) o.positions = c.positions;
  else {
    o.length = c.length;
    o.offset = c.offset ?? 0;
  }
  return o;
}

const DTYPE_WORDS = { float32: 'float32', float16: 'float16', bfloat16: 'bfloat16', float64: 'float64' };
const DTYPE_BYTES = { float32: 4, float16: 2, bfloat16: 2, float64: 8 };

/** A plan request's words: x is a Float32Array (float32) or Uint16Array (16-bit dtype). */
function encodePlan(c) {
  const [geometry, scaling] = words(c);
  const positions = c.positions ? Uint32Array.from(c.positions) : new Uint32Array(0);
  const dtype = DTYPE_WORDS[c.dtype ?? 'float32'];
  if (c.cosSin) {
    const r = c.rotaryDim ?? c.headDim;
    const count = c.length * (c.expand ? r : r / 2);
    const words32 = Math.ceil((2 * count * DTYPE_BYTES[dtype]) / 4);
    return [
      [
        `ropecs ${geometry} ${scaling} ${c.cacheRows ?? 0} ${dtype} ${c.expand ? 1 : 0} ${positions.length}\n`,
        bytes(positions),
      ],
      words32,
    ];
  }
  const line = `ropeplan ${geometry} ${scaling} ${c.cacheRows ?? 0} ${dtype} ${c.seqLen ?? 0} ${c.x.length} ${positions.length}\n`;
  return [[line, bytes(c.x), bytes(positions)], Math.ceil(c.x.byteLength / 4)];
}

/**
 * cases: rope cases with { cacheRows, dtype, seqLen, x } (apply through a plan)
 * or { cosSin: true, expand, dtype } -> the output bytes as Float32Array or
 * Uint16Array (x's type; cos and sin concatenated for cosSin).
 */
export function serveRopePlan(binary, kernels, cases) {
  return serve(binary, kernels, cases, encodePlan).map((words32, k) => {
    const c = cases[k];
    if ((c.dtype ?? 'float32') === 'float32' || c.dtype === 'float64') return words32; // float64: its bytes
    const r = c.rotaryDim ?? c.headDim;
    const count = c.cosSin ? 2 * c.length * (c.expand ? r : r / 2) : c.x.length;
    return new Uint16Array(words32.buffer, words32.byteOffset, count);
  });
}
