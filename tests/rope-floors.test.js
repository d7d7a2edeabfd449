// The bench's RoPE reference rows (bench/limits.c) do the work they claim:
// the float32 limit rotates every pair of x by its row's cos and sin, and the
// float16 floors widen, rotate in float32 and round every value to nearest
// even, the tested floor leaving a step's sixteen values unwritten exactly
// when one of its results is not a float16 normal below 32768. The expected
// values come from JS: the float32 rotation by Math.fround, the float16
// rounding by exact float64 arithmetic on the value (scaled to whole ulps,
// halves compared), not by the C's bit patterns. The floors have no tails
// (dim/2 a multiple of 4, or 8 for float16); the shapes have odd rows and
// heads, halves that are not a multiple of 16, and dim 1024, the largest.
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { limitsExports as limits } from './support/limits-wasm.js';
import { generator } from './support/random.js';

const SHAPES = [
  { rows: 3, heads: 5, dim: 16 },
  { rows: 2, heads: 3, dim: 48 },
  { rows: 1, heads: 2, dim: 1024 },
];
const GUARD = 8; // values past x's end that must stay as they were

/** float16 bits → value, by arithmetic. */
function halfValue(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 31;
  const fraction = bits & 1023;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/**
 * A float16 normal value v (a float32) → its bits rounded to nearest even, and whether it was a tie: v scaled to
 * whole ulps of its binade in float64 (exact), the halves compared.
 */
function halfRound(v) {
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  let exponent = Math.floor(Math.log2(a));
  if (2 ** exponent > a) exponent--; // log2 may be off by one next to a power of two
  if (2 ** (exponent + 1) <= a) exponent++;
  const ulps = a / 2 ** (exponent - 10); // in [1024, 2048)
  let whole = Math.floor(ulps);
  const rest = ulps - whole;
  if (rest > 0.5 || (rest === 0.5 && whole % 2 === 1)) whole++;
  if (whole === 2048) [whole, exponent] = [1024, exponent + 1];
  return { bits: sign | ((exponent + 15) << 10) | (whole - 1024), tie: rest === 0.5 };
}

/** The float32 rotation of the pair (a, b) by (c, s): [a c - b s, b c + a s], each product rounded. */
function rotate32(a, b, c, s) {
  const f = Math.fround;
  return [f(f(a * c) - f(b * s)), f(f(b * c) + f(a * s))];
}

/** rows × half cos and sin, float32, most pairs random, some exact halves that make float16 ties. */
function cache(next, rows, half) {
  const cos = new Float32Array(rows * half);
  const sin = new Float32Array(rows * half);
  const exact = [0.75, 0.625, -0.375, 0.5, 0.875, 0];
  for (let k = 0; k < cos.length; k++) {
    if (k % 2 === 0) {
      cos[k] = exact[k % exact.length];
      sin[k] = exact[(k + 2) % exact.length];
    } else {
      const angle = next() * 2 * Math.PI;
      cos[k] = Math.cos(angle);
      sin[k] = Math.sin(angle);
    }
  }
  return { cos, sin };
}

function place(lib, array) {
  const ptr = lib.limits_alloc(array.byteLength) >>> 0;
  new array.constructor(lib.memory.buffer, ptr, array.length).set(array);
  return ptr;
}

test('the float32 RoPE limit rotates every pair by its row of the cache', async () => {
  const lib = await limits();
  const { next } = generator(29);
  for (const { rows, heads, dim } of SHAPES) {
    const half = dim / 2;
    const x = Float32Array.from({ length: rows * heads * dim + GUARD }, () => next() * 8 - 4);
    const { cos, sin } = cache(next, rows, half);
    const [xp, cp, sp] = [x, cos, sin].map((a) => place(lib, a));
    lib.limits_rope_apply(xp, cp, sp, rows, heads, dim);
    const out = new Float32Array(lib.memory.buffer, xp, x.length);
    for (let l = 0; l < rows; l++)
      for (let h = 0; h < heads; h++)
        for (let i = 0; i < half; i++) {
          const at = (l * heads + h) * dim + i;
          const want = rotate32(x[at], x[at + half], cos[l * half + i], sin[l * half + i]);
          if (out[at] !== want[0] || out[at + half] !== want[1])
            assert.unreachable(`dim ${dim}, row ${l}, head ${h}, pair ${i}: ${out[at]}, ${out[at + half]}; ${want}`);
        }
    assert.equal([...out.subarray(-GUARD)], [...x.subarray(-GUARD)], 'past the end');
  }
});

const NORMAL_MIN = 2 ** -14;

/**
 * x as float16 bits whose every rotated value is a float16 normal (drawn again where not), between 2^-6 and 2^6
 * in size; with `bad`, one pair in every third step drawn so one of its results is out of range instead.
 */
function halfInput(next, rows, heads, dim, cos, sin, bad) {
  const half = dim / 2;
  const x = new Uint16Array(rows * heads * dim + GUARD).fill(0x7e00); // the guard: NaN
  const draw = () => (next() < 0.5 ? 0x8000 : 0) | ((9 + Math.floor(next() * 13)) << 10) | Math.floor(next() * 1024);
  const inRange = (v) => Math.abs(v) >= NORMAL_MIN && Math.abs(v) < 32768;
  const badSteps = new Set();
  for (let l = 0; l < rows; l++)
    for (let h = 0; h < heads; h++)
      for (let i = 0; i < half; i++) {
        const at = (l * heads + h) * dim + i;
        const c = cos[l * half + i];
        const s = sin[l * half + i];
        const step = `${l},${h},${i >> 3}`;
        if (bad && i % 8 === 5 && (i >> 3) % 3 === 1) {
          // Out of range: the largest pair (0x7bff = 65504) comes out 32768 or more (at least one of |c ± s| is 1
          // or more where c² + s² = 1), or a pair of zeros comes out zero.
          x[at] = x[at + half] = 0x7bff;
          if (h % 2 === 0 || rotate32(65504, 65504, c, s).every(inRange)) x[at] = x[at + half] = 0;
          badSteps.add(step);
          continue;
        }
        do {
          x[at] = draw();
          x[at + half] = draw();
        } while (!rotate32(halfValue(x[at]), halfValue(x[at + half]), c, s).every(inRange));
      }
  return { x, badSteps };
}

for (const [floor, tested] of [
  ['limits_rope_apply_f16', false],
  ['limits_rope_apply_f16_tested', true],
]) {
  test(`${floor} rounds every rotated value to the nearest even float16${tested ? ', skipping bad steps' : ''}`, async () => {
    const lib = await limits();
    const { next } = generator(tested ? 16 : 61);
    let ties = 0;
    let skipped = 0;
    for (const { rows, heads, dim } of SHAPES) {
      const half = dim / 2;
      const { cos, sin } = cache(next, rows, half);
      const { x, badSteps } = halfInput(next, rows, heads, dim, cos, sin, tested);
      const [xp, cp, sp] = [x, cos, sin].map((a) => place(lib, a));
      lib[floor](xp, cp, sp, rows, heads, dim);
      const out = new Uint16Array(lib.memory.buffer, xp, x.length);
      for (let l = 0; l < rows; l++)
        for (let h = 0; h < heads; h++)
          for (let i = 0; i < half; i++) {
            const at = (l * heads + h) * dim + i;
            const step = `${l},${h},${i >> 3}`;
            // A bad step's sixteen values are as they were; it is bad when any of its results is out of range.
            const y = rotate32(halfValue(x[at]), halfValue(x[at + half]), cos[l * half + i], sin[l * half + i]);
            const rounded = y.map(halfRound);
            let want = rounded.map((r) => r.bits);
            if (badSteps.has(step)) {
              want = [x[at], x[at + half]];
              if (i % 8 === 0) skipped++;
            } else ties += rounded.filter((r) => r.tie).length;
            if (out[at] !== want[0] || out[at + half] !== want[1])
              assert.unreachable(
                `dim ${dim}, row ${l}, head ${h}, pair ${i}: ${out[at].toString(16)}, ${out[at + half].toString(16)};` +
                  ` expected ${want.map((w) => w.toString(16))} (${y})`,
              );
          }
      assert.equal([...out.subarray(-GUARD)], [...x.subarray(-GUARD)], 'past the end');
    }
    assert.ok(ties > 20, `ties: ${ties}`);
    if (tested) assert.ok(skipped > 10, `bad steps: ${skipped}`);
  });
}

test.run();
