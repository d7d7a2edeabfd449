// RoPE on several position axes through build/test/harness (serve mode): the
// ropeaxes and ropeaxescs requests of tests/native/harness/rope_axes.c, and
// the options the package takes for the same case. A case is a rope case
// (rope-harness.js) plus mropeSection or vision, axisPositions (one Array per
// axis, or absent: offset and length), and for the plan: cacheRows (a number,
// or 'oneshot' for pe_rope), dtype, x; for caches: cosSin, expand, dtype.
import { serve } from './native-harness.js';
import { words } from './rope-harness.js';

const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
const ELEMENT_BYTES = { float32: 4, float16: 2, bfloat16: 2, float64: 8 };

const axesWord = (c) =>
  c.vision
    ? 'vision'
    : c.mropeSection
      ? `${c.mropeInterleaved ? 'mropei' : 'mrope'},${c.mropeSection.join(',')}`
      : 'none';

/** The positions row by row (row l's axes together), as the core takes them. */
export function rowMajor(axisPositions) {
  const axes = axisPositions.length;
  const n = axisPositions[0].length;
  const out = new Uint32Array(n * axes);
  for (let a = 0; a < axes; a++) for (let l = 0; l < n; l++) out[l * axes + a] = axisPositions[a][l];
  return out;
}

function encode(c) {
  const [geometry, scaling] = words(c);
  const positions = c.axisPositions ? rowMajor(c.axisPositions) : new Uint32Array(0);
  const dtype = c.dtype ?? 'float32';
  if (c.cosSin) {
    const r = c.rotaryDim ?? c.headDim;
    const count = c.length * (c.expand ? r : r / 2);
    const line = `ropeaxescs ${geometry} ${scaling} ${axesWord(c)} ${c.cacheRows ?? 0} ${dtype} ${c.expand ? 1 : 0} ${positions.length}\n`;
    return [[line, bytes(positions)], Math.ceil((2 * count * ELEMENT_BYTES[dtype]) / 4)];
  }
  const line = `ropeaxes ${geometry} ${scaling} ${axesWord(c)} ${c.cacheRows ?? 0} ${dtype} ${c.seqLen ?? 0} ${c.x.length} ${positions.length}\n`;
  return [[line, bytes(c.x), bytes(positions)], Math.ceil(c.x.byteLength / 4)];
}

/** The output bytes of each case, as x's type (Float32Array or Uint16Array), or Uint8Array for caches. */
export function serveRopeAxes(binary, kernels, cases) {
  return serve(binary, kernels, cases, encode).map((words32, k) => {
    const c = cases[k];
    if (c.cosSin) return new Uint8Array(words32.buffer, words32.byteOffset, words32.byteLength);
    if ((c.dtype ?? 'float32') === 'float32') return words32;
    return new Uint16Array(words32.buffer, words32.byteOffset, c.x.length);
  });
}

/** The rotary options the package takes for a case (no rows). */
export function axesRotary(c) {
  const o = { heads: c.heads ?? 1, headDim: c.headDim, layout: c.layout ?? 'half', order: c.order ?? 'blhd' };
  for (const k of ['rotaryDim', 'base', 'scaling', 'mropeSection', 'mropeInterleaved', 'vision'])
    if (c[k] !== undefined) o[k] = c[k];
  if (c.inverse) o.inverse = true;
  return o;
}

/** The rows of a case as the package takes them: positions of shape (axes, length), or offset and length. */
export function axesRows(c) {
  return c.axisPositions ? { positions: c.axisPositions } : { length: c.length, offset: c.offset ?? 0 };
}
