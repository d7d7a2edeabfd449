// ropeCosSin and a plan's cosSin against the quad-precision oracle (float32
// within half an ulp plus 1e-12 of exact; float16 and bfloat16 the correctly
// rounded exact value, either neighbour only within 1e-12 of a midpoint), the
// expanded layouts (HF's cat(freqs, freqs), interleaved repeats), HF's
// attention factor; float16/bfloat16 x against float32 rotation rounded once
// (independent BigInt rounding) on the four builds; and every refusal of the
// new calls leaving x untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { oracleAt, oracleGiven } from './support/oracle-run.js';
import { HARNESS } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { FORMATS, referenceRound, decode, midpointDistance, neighbours } from './support/precision-reference.js';
import { serveRopePlan } from './support/rope-harness.js';
import { LLAMA31_SCALING } from './support/rope-reference.js';

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-cache');

const ulp32 = (v) => {
  const a = Math.abs(Math.fround(v));
  return a === 0 ? 2 ** -149 : Math.fround(a * (1 + 2 ** -23)) - a || 2 ** -149;
};

function checkValue(got, exact, dtype, what) {
  if (dtype === 'float32') {
    const bound = ulp32(exact) / 2 + 1e-12;
    if (!(Math.abs(got - exact) <= bound))
      assert.unreachable(`${what}: ${got} is ${Math.abs(got - exact)} from exact ${exact} (bound ${bound})`);
    return;
  }
  const format = FORMATS[dtype];
  const ok = midpointDistance(exact, format) > 1e-12 ? [referenceRound(exact, format)] : neighbours(exact, format);
  if (!ok.includes(got))
    assert.unreachable(`${what}: bits ${got} (${decode(got, format)}), exact ${exact} rounds to ${ok}`);
}

const CASES = [
  { headDim: 128, base: 10000, positions: [0, 1, 2, 63, 64, 1000, 99999, 100000, 2 ** 24 + 3, 2 ** 31 - 1] },
  { headDim: 64, rotaryDim: 32, base: 500000, positions: Array.from({ length: 40 }, (_, k) => 2 ** 31 - 1 - 7 * k) },
  { headDim: 10, base: 2.5, positions: Array.from({ length: 30 }, () => random.int(2 ** 31)) },
  {
    headDim: 96,
    base: 1e6,
    scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 },
    positions: [0, 5, 4096, 65535, 2 ** 30],
  },
  {
    headDim: 64,
    base: 10000,
    scaling: { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 2048, attention_factor: 0.7 },
    positions: [1, 2, 3, 12345],
  },
  {
    headDim: 128,
    base: 500000,
    scaling: LLAMA31_SCALING,
    positions: [0, 77, 131071],
  },
];

test('caches: float32, float16, bfloat16 and float64 against the quad-precision oracle, times the attention factor', async () => {
  let checked = 0;
  for (const c of CASES) {
    const r = c.rotaryDim ?? c.headDim;
    const half = r / 2;
    const rotary = { headDim: c.headDim, rotaryDim: c.rotaryDim, base: c.base, scaling: c.scaling };
    const { frequencies, attentionFactor } = simd.ropeFrequencies(rotary);
    const rows = c.scaling
      ? oracleGiven(frequencies, c.positions)
      : await oracleAt(c.positions, { dim: r, base: c.base, layout: 'split' });
    for (const dtype of ['float32', 'float16', 'bfloat16', 'float64']) {
      for (const instance of [simd, scalar]) {
        const { cos, sin } = instance.ropeCosSin({ ...rotary, positions: c.positions, dtype });
        c.positions.forEach((p, l) => {
          for (let i = 0; i < half; i++) {
            const exactSin = rows[l * r + i] * attentionFactor;
            const exactCos = rows[l * r + half + i] * attentionFactor;
            const what = `${dtype} p ${p} pair ${i} ${JSON.stringify(c.scaling ?? null)}`;
            if (dtype === 'float64') {
              assert.ok(
                Math.abs(cos[l * half + i] - exactCos) <= 1e-12 && Math.abs(sin[l * half + i] - exactSin) <= 1e-12,
                what,
              );
            } else if (dtype === 'float32' && attentionFactor !== 1) {
              // HF: float32 cos times the factor, in float32 (one more rounding).
              const f = Math.fround(attentionFactor);
              assert.ok(Math.abs(cos[l * half + i] - exactCos) <= ulp32(exactCos) + 1e-12, `cos ${what}`);
              assert.ok(
                [Math.fround(Math.fround(rows[l * r + half + i]) * f)].includes(cos[l * half + i]) ||
                  midpointDistance(rows[l * r + half + i], FORMATS.float32) <= 1e-12,
                `cos as HF forms it, ${what}`,
              );
            } else {
              checkValue(cos[l * half + i], exactCos, dtype, `cos ${what}`);
              checkValue(sin[l * half + i], exactSin, dtype, `sin ${what}`);
            }
            checked++;
          }
        });
      }
    }
  }
  assert.ok(checked > 1000);
});

test('expand: HF cat(freqs, freqs) for halves, each value twice for adjacent pairs; a plan, ropeCosSin and every build agree', () => {
  const positions = [3, 64, 2 ** 31 - 2];
  for (const layout of ['half', 'interleaved']) {
    for (const dtype of ['float32', 'float16', 'bfloat16']) {
      const o = { headDim: 20, rotaryDim: 12, layout, scaling: { rope_type: 'linear', factor: 2 } };
      const narrow = simd.ropeCosSin({ ...o, positions, dtype });
      const wide = simd.ropeCosSin({ ...o, positions, dtype, expand: true });
      assert.is(wide.cos.length, positions.length * 12);
      for (let l = 0; l < positions.length; l++) {
        for (let i = 0; i < 6; i++) {
          const [j1, j2] = layout === 'half' ? [i, i + 6] : [2 * i, 2 * i + 1];
          for (const k of ['cos', 'sin']) {
            assert.is(wide[k][l * 12 + j1], narrow[k][l * 6 + i]);
            assert.is(wide[k][l * 12 + j2], narrow[k][l * 6 + i]);
          }
        }
      }
      const plan = scalar.createRope({ ...o, heads: 1, maxPosition: 70 });
      const fromPlan = plan.cosSin({ positions, dtype, expand: true });
      plan.free();
      assert.equal(Array.from(fromPlan.cos), Array.from(wide.cos));
      const c = {
        headDim: 20,
        rotaryDim: 12,
        heads: 1,
        layout,
        order: 'blhd',
        length: 3,
        offset: 62,
        scaling: o.scaling,
        cosSin: true,
        expand: true,
        dtype,
        cacheRows: 70,
      };
      const want = simd.ropeCosSin({ ...o, length: 3, offset: 62, dtype, expand: true });
      const joined =
        dtype === 'float32'
          ? new Float32Array([...want.cos, ...want.sin])
          : new Uint16Array([...want.cos, ...want.sin]);
      for (const kernels of ['scalar', 'simd']) {
        const got = serveRopePlan(HARNESS, kernels, [c])[0];
        assert.equal(Array.from(got), Array.from(joined), `native ${kernels} cos/sin, ${layout} ${dtype}`);
      }
    }
  }
});

/** float16/bfloat16 bits -> float64 value, and the nearest bits of a float64 (independent BigInt rounding). */
const toValue = (bits, dtype) => decode(bits, FORMATS[dtype]);
const toBits = (v, dtype) => (Number.isNaN(v) ? NaN : referenceRound(v, FORMATS[dtype]));

test('16-bit x: widened, rotated in float32, rounded once; Uint16Array, WasmBuffer, tails and four builds agree', () => {
  for (const dtype of ['float16', 'bfloat16']) {
    for (const [headDim, rotaryDim, order, layout] of [
      [8, 8, 'blhd', 'half'],
      [13, 10, 'bhld', 'interleaved'],
      [34, 34, 'blhd', 'interleaved'],
      [128, 128, 'bhld', 'half'],
    ]) {
      const heads = 3;
      const length = 9;
      const o = { heads, headDim, rotaryDim, order, layout };
      const n = 2 * length * heads * headDim;
      const values = random.floats(n, 6);
      const bits = Uint16Array.from(values, (v) => toBits(v, dtype));
      // Special values: subnormals, the largest finite, infinities are kept out of the rotated
      // part only where they would make NaN; a few small values exercise float16's subnormals.
      for (let k = 0; k < 6; k++)
        bits[random.int(n)] = dtype === 'float16' ? 1 + random.int(1023) : 1 + random.int(127);
      const wide = Float32Array.from(bits, (b) => toValue(b, dtype));
      const rotated = simd.rope(wide.slice(), { ...o, offset: 1000, length });
      const want = new Uint16Array(n);
      for (let k = 0; k < n; k++) {
        const inRotary = k % headDim < rotaryDim;
        want[k] = inRotary ? toBits(rotated[k], dtype) : bits[k];
      }
      const what = `${dtype} headDim ${headDim} rotaryDim ${rotaryDim} ${order} ${layout}`;
      for (const instance of [simd, scalar]) {
        const got = instance.rope(bits.slice(), { ...o, offset: 1000, length, dtype });
        assert.equal(Array.from(got), Array.from(want), `JS array, ${what}`);
        const buffer = instance.alloc(n, { dtype });
        buffer.array.set(bits);
        instance.createRope(o).apply(buffer, { offset: 1000, length });
        assert.equal(Array.from(buffer.array), Array.from(want), `WasmBuffer, ${what}`);
        buffer.free();
      }
      const c = { ...o, length, offset: 1000, x: bits, dtype, cacheRows: 0 };
      for (const kernels of ['scalar', 'simd']) {
        assert.equal(
          Array.from(serveRopePlan(HARNESS, kernels, [c])[0]),
          Array.from(want),
          `native ${kernels}, ${what}`,
        );
      }
    }
  }
  if (globalThis.Float16Array !== undefined) {
    const x = new globalThis.Float16Array([0.5, -1, 2, 0.25]);
    const bits = new Uint16Array(x.buffer).slice();
    simd.rope(x, { heads: 1, headDim: 4, offset: 3 });
    assert.equal(
      Array.from(new Uint16Array(x.buffer)),
      Array.from(simd.rope(bits, { heads: 1, headDim: 4, offset: 3, dtype: 'float16' })),
    );
  }
});

const planRefusals = [
  [{ heads: 2, headDim: 8, maxPosition: -1 }, 'BAD_LENGTH', 'maxPosition'],
  [{ heads: 2, headDim: 8, cache: 'yes' }, 'BAD_OPTIONS', 'cache'],
  [{ heads: 2, headDim: 8, maxPositon: 9 }, 'UNKNOWN_OPTION', undefined],
  [{ heads: 2, headDim: 7 }, 'BAD_ROTARY_DIM', 'rotaryDim'],
];
const applyRefusals = [
  [{ positions: [1, -1, 2, 3] }, 'BAD_POSITION', 'positions[1]'],
  [{ positions: [1, 2.5, 2, 3] }, 'BAD_POSITION', 'positions[1]'],
  [{ positions: BigInt64Array.of(1n, 2n, 2n ** 31n, 3n) }, 'BAD_POSITION', 'positions[2]'],
  [{ positions: [1, 2, 3, 4], offset: 2 }, 'BAD_OFFSET', 'offset'],
  [{ positions: [1, 2, 3, 4], cuSeqlens: [0, 4] }, 'BAD_OPTIONS', 'cuSeqlens'],
  [{ positionIds: [[0, 1, 2]] }, 'BAD_SIZE', 'x'],
  [{ positionIds: Int32Array.of(0, 1, 2, 3, 4, 5, 6, 7), length: 4 }, 'BAD_SIZE', 'positionIds'],
  [
    {
      positionIds: [
        [0, 1, 2, 3],
        [0, 1, 2],
      ],
    },
    'BAD_POSITION',
    'positionIds[1]',
  ],
  [{ cuSeqlens: [0, 3, 2, 4] }, 'BAD_POSITION', 'cuSeqlens[2]'],
  [{ cuSeqlens: [0, 3] }, 'BAD_POSITION', 'cuSeqlens[1]'],
  [{ cuSeqlens: [1, 4] }, 'BAD_POSITION', 'cuSeqlens'],
  [{ length: 3 }, 'BAD_SIZE', 'x'],
  [{ offset: 2 ** 31 - 3 }, 'BAD_OFFSET', 'offset'],
  [{ dtype: 'float16' }, 'BAD_DTYPE', 'dtype'],
  [{ lenght: 4 }, 'UNKNOWN_OPTION', undefined],
];

function expectRefusal(call, code, argument, what) {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof PosencError, `${what}: ${error}`);
    assert.is(error.code, code, `${what}: ${error.message}`);
    if (argument !== undefined) assert.is(error.argument, argument, `${what}: ${error.message}`);
    return;
  }
  assert.unreachable(`${what}: not refused`);
}

test('refusals name their argument and leave x untouched (JS arrays, WasmBuffers, 16-bit x)', () => {
  for (const [options, code, argument] of planRefusals)
    expectRefusal(() => simd.createRope(options), code, argument, JSON.stringify(options));
  const plan = simd.createRope({
    heads: 2,
    headDim: 8,
    scaling: { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 4 },
  });
  const x = random.floats(4 * 16, 3);
  for (const [options, code, argument] of applyRefusals) {
    const what = String(JSON.stringify(options, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
    const js = x.slice();
    expectRefusal(() => plan.apply(js, options), code, argument, what);
    sameBits(js, x, `x after ${what}`);
    const buffer = simd.alloc(x.length);
    buffer.array.set(x);
    expectRefusal(() => plan.apply(buffer, options), code, argument, `${what} (WasmBuffer)`);
    sameBits(buffer.array.slice(), x, `WasmBuffer after ${what}`);
    buffer.free();
    const bits = Uint16Array.from(x, (v) => toBits(v, 'bfloat16'));
    const before = bits.slice();
    if (options.dtype === undefined) {
      expectRefusal(() => plan.apply(bits, { ...options, dtype: 'bfloat16' }), code, argument, `${what} (bfloat16)`);
      assert.equal(Array.from(bits), Array.from(before));
    }
  }
  expectRefusal(
    () => plan.apply(new Uint16Array(64), { length: 4 }),
    'BAD_DTYPE',
    'dtype',
    'a Uint16Array without dtype',
  );
  expectRefusal(() => plan.apply(new Float64Array(64), { length: 4 }), 'BAD_BUFFER', 'x', 'a Float64Array');
  const half = simd.alloc(64, { dtype: 'float16' });
  expectRefusal(
    () => plan.apply(half, { dtype: 'bfloat16' }),
    'BAD_DTYPE',
    'dtype',
    'a float16 buffer called bfloat16',
  );
  expectRefusal(() => simd.addSinusoidal(half, { dim: 8, length: 8 }), 'BAD_BUFFER', 'x', 'a 16-bit buffer elsewhere');
  half.free();
  expectRefusal(() => simd.ropeCosSin({ headDim: 8, length: 2, dtype: 'int8' }), 'BAD_DTYPE', 'dtype', 'cache dtype');
  expectRefusal(() => simd.ropeCosSin({ headDim: 8, length: 2, expand: 1 }), 'BAD_OPTIONS', 'expand', 'expand');
  plan.free();
  expectRefusal(() => plan.apply(x.slice(), { length: 4 }), 'PLAN_FREED', 'plan', 'a freed plan');
});

test.run();
