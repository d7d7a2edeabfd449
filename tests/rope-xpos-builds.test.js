// xPos on the four builds (wasm SIMD, wasm scalar, native scalar, native
// SIMD): bit-identical over sweeps of head sizes around the SIMD width (the
// scale kernel's tails), both layouts and orders, both roles, inverse,
// centers from 0 to near 2^31 with positions at the edge of the window, one-
// shot rope, plans with and without their cache in float32, float16 and
// bfloat16, and the scaled cos/sin caches; the ASan+UBSan harness over a
// slice. (Values against an oracle: rope-xpos.test.js.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { HARNESS, HARNESS_ASAN } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { serveRope, serveRopePlan, ropeOptions } from './support/rope-harness.js';

const simd = await instantiate({ simd: true });
const scalar = await instantiate({ simd: false });
const random = rng('rope-xpos-builds');

const HEAD_DIMS = [
  [2, 2],
  [4, 4],
  [6, 6],
  [8, 8],
  [10, 10],
  [10, 6],
  [12, 12],
  [14, 14],
  [16, 16],
  [18, 18],
  [30, 26],
  [34, 34],
  [64, 64],
  [66, 66],
  [128, 128],
];
const XPOS = [
  {}, // torchscale's defaults
  { scaleBase: 64, gamma: 0.1 },
  { scaleBase: 4096, gamma: 2.5 },
  { scaleBase: 1, gamma: 1000 },
];

/** The largest d accepted at center + d by instance pe, found by bisection on its refusals. */
function edge(o, pe = simd) {
  const { center = 0 } = o.xpos;
  let lo = 0;
  let hi = 2 ** 31 - 1 - center;
  const ok = (d) => {
    try {
      pe.ropeCosSin({ headDim: o.headDim, length: 1, offset: center + d, xpos: o.xpos });
      return true;
    } catch (error) {
      if (error.code !== 'XPOS_RANGE') throw error;
      return false;
    }
  };
  if (ok(hi)) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

function makeCases() {
  const cases = [];
  for (const [headDim, rotaryDim] of HEAD_DIMS) {
    for (const layout of ['half', 'interleaved']) {
      for (const order of ['blhd', 'bhld']) {
        for (const role of ['query', 'key', 'query', 'key']) {
          const shape = XPOS[random.int(XPOS.length)];
          const center = [0, 700, 2 ** 24 + 5, 2 ** 31 - 300][random.int(4)];
          const xpos = { ...shape, role, center };
          const reach = edge({ headDim, xpos });
          const length = [1, 3, 17, 70][random.int(4)];
          const heads = 1 + random.int(3);
          const batch = 1 + random.int(2);
          const c = { headDim, rotaryDim, heads, layout, order, length, xpos, inverse: random.next() < 0.3 };
          // Positions at the window's edges and inside it.
          const lo = Math.max(0, center - reach);
          const hi = Math.min(2 ** 31 - 1, center + reach);
          if (random.next() < 0.3) {
            c.positions = Array.from({ length }, (_, k) =>
              k === 0 ? lo : k === 1 ? hi : lo + random.int(hi - lo + 1),
            );
          } else {
            const span = hi - lo + 1 - length;
            if (span < 0) continue;
            c.offset = [lo, lo + span, lo + random.int(span + 1)][random.int(3)];
          }
          c.x = random.floats(batch * length * heads * headDim, 8);
          cases.push(c);
        }
      }
    }
  }
  return cases;
}

const cases = makeCases();
const describeCase = (c) =>
  `headDim ${c.headDim} rotaryDim ${c.rotaryDim} heads ${c.heads} ${c.layout} ${c.order} length ${c.length} ` +
  `${c.positions ? `positions ${c.positions.slice(0, 3)}…` : `offset ${c.offset}`} ${c.inverse ? 'inverse ' : ''}` +
  `xpos ${JSON.stringify(c.xpos)}`;

test('the window edge is center ± floor(64 ln 2 · scaleBase / |ln ζ_0|), the same in both wasm builds', () => {
  for (const shape of XPOS) {
    const { scaleBase = 512, gamma = 0.4 } = shape;
    const want = Math.min(2 ** 31 - 1, Math.floor((64 * Math.LN2 * scaleBase) / -Math.log(gamma / (1 + gamma))));
    const xpos = { ...shape, role: 'key', center: 0 };
    assert.is(edge({ headDim: 8, xpos }), want, `reach of ${JSON.stringify(shape)}`);
    assert.is(edge({ headDim: 8, xpos }, scalar), want, `reach of ${JSON.stringify(shape)}, scalar wasm`);
  }
  assert.is(edge({ headDim: 64, xpos: { role: 'query' } }), 18130, "torchscale's defaults reach 18130");
});

test('xPos rotations: wasm SIMD, wasm scalar, native scalar and native SIMD give the same bits', () => {
  const native = { scalar: serveRope(HARNESS, 'scalar', cases), simd: serveRope(HARNESS, 'simd', cases) };
  let values = 0;
  let scaled = 0;
  cases.forEach((c, k) => {
    const options = ropeOptions(c);
    const [viaSimd, viaScalar] = [simd, scalar].map((pe) => pe.rope(c.x.slice(), options));
    const others = { 'wasm scalar': viaScalar, 'native scalar': native.scalar[k], 'native SIMD': native.simd[k] };
    for (const [name, got] of Object.entries(others))
      sameBits(got, viaSimd, `${name} vs wasm SIMD, ${describeCase(c)}`);
    // The scale is there: the rotation alone keeps each pair's length.
    const plain = simd.rope(c.x.slice(), { ...options, xpos: undefined });
    for (let j = 0; j < plain.length; j++) if (j % c.headDim < c.rotaryDim && plain[j] !== viaSimd[j]) scaled++;
    values += viaSimd.length;
  });
  console.log(`rope-xpos-builds: ${cases.length} cases, ${values} values identical on four builds`);
  assert.ok(cases.length > 200 && values > 50000, `only ${cases.length} cases, ${values} values`);
  assert.ok(scaled > 0.5 * values, `only ${scaled} of ${values} values differ from plain RoPE`);
});

/** The bytes of a typed array (cos and sin joined), to compare any dtype bit for bit. */
const bytesOf = (...arrays) => Buffer.concat(arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));

test('plans (cached or not, 16-bit x) and the scaled cos/sin caches: the same bits on four builds', () => {
  const planCases = [];
  for (const c of cases.filter((_, k) => k % 3 === 0)) {
    const dtype = ['float32', 'float16', 'bfloat16'][random.int(3)];
    const cacheRows = c.xpos.center < 1000 && random.next() < 0.6 ? 1200 : 0;
    // 16-bit x: random finite bit patterns of either sign.
    const x = dtype === 'float32' ? c.x : Uint16Array.from(c.x, () => random.int(0x7c00) | (random.int(2) << 15));
    planCases.push({ ...c, dtype, cacheRows, x });
    const csDtype = ['float32', 'float64', 'float16', 'bfloat16'][random.int(4)];
    planCases.push({ ...c, cosSin: true, expand: random.next() < 0.5, dtype: csDtype, cacheRows });
  }
  const native = {
    scalar: serveRopePlan(HARNESS, 'scalar', planCases),
    simd: serveRopePlan(HARNESS, 'simd', planCases),
  };
  let words = 0;
  let cached = 0;
  planCases.forEach((c, k) => {
    const what = `${c.cosSin ? 'cosSin' : 'apply'} ${c.dtype} cache ${c.cacheRows} ${describeCase(c)}`;
    const [a, b] = [simd, scalar].map((pe) => {
      const plan = pe.createRope({
        heads: c.heads,
        headDim: c.headDim,
        rotaryDim: c.rotaryDim,
        layout: c.layout,
        order: c.order,
        inverse: c.inverse,
        xpos: c.xpos,
        maxPosition: c.cacheRows,
        cache: c.cacheRows > 0,
      });
      if (plan.cachedPositions > 0) cached++;
      const rows = c.positions ? { positions: c.positions } : { offset: c.offset, length: c.length };
      try {
        if (!c.cosSin) return bytesOf(plan.apply(c.x.slice(), { ...rows, dtype: c.dtype }));
        const { cos, sin } = plan.cosSin({ ...rows, expand: c.expand, dtype: c.dtype });
        return bytesOf(cos, sin);
      } finally {
        plan.free();
      }
    });
    assert.ok(a.equals(b), `wasm scalar vs wasm SIMD, ${what}`);
    assert.ok(bytesOf(native.scalar[k]).subarray(0, a.length).equals(a), `native scalar vs wasm SIMD, ${what}`);
    assert.ok(bytesOf(native.simd[k]).subarray(0, a.length).equals(a), `native SIMD vs wasm SIMD, ${what}`);
    words += a.length / 4;
  });
  console.log(
    `rope-xpos-builds: ${planCases.length} plan and cos/sin cases (${cached / 2} with a cache), ${words} words identical`,
  );
  assert.ok(planCases.length > 100 && cached > 10, `only ${planCases.length} plan cases, ${cached / 2} cached`);
});

test('the ASan+UBSan harness gives the same bits (a slice of the sweep)', () => {
  const slice = cases.filter((_, k) => k % 6 === 0);
  const asan = serveRope(HARNESS_ASAN, 'simd', slice);
  slice.forEach((c, k) => sameBits(asan[k], simd.rope(c.x.slice(), ropeOptions(c)), `asan, ${describeCase(c)}`));
  console.log(`rope-xpos-builds: ${slice.length} cases under ASan+UBSan`);
});

test.run();
