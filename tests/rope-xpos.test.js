// xPos (posenc.h, pe_xpos): its scales against an mpmath oracle (50 digits,
// the paper's definition, never the core's exp/log), rotations against
// torchscale's XPOS re-implemented in float64 from its published code
// (torchscale/component/xpos_relative_position.py), q·k depending only on
// the distance and decaying with it as the paper says, apply() against the
// float32 rotation of cosSin()'s scaled values bit for bit, cached plans
// against uncached ones, and every refusal coded and leaving x untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';
import { rotateReference } from './support/rope-rotate.js';
import { xposScalesExact } from './support/xpos-oracle.js';

const pe = await instantiate({ simd: true });
const random = rng('rope-xpos');

/** float32's ulp at |v| (normal range). */
const ulp32 = (v) => 2 ** (Math.floor(Math.log2(Math.abs(v))) - 23);
/** The window's half width for the defaults of scaleBase and gamma given. */
const reachOf = (scaleBase, gamma) => Math.floor((64 * Math.LN2 * scaleBase) / -Math.log(gamma / (1 + gamma)));

test('scales: float32 within half an ulp + 2e-14 relative, float64 within 2e-14, of the mpmath oracle', () => {
  // At position 0, cos = 1 exactly and sin = 0: the cos cache is the scale itself,
  // zeta_i^(-center/scaleBase) for queries and zeta_i^(center/scaleBase) for keys.
  const cases = [];
  for (const r of [2, 8, 64, 128]) {
    for (const [scaleBase, gamma] of [
      [512, 0.4],
      [64, 0.1],
      [1000.5, 3],
      [2048, 1e-3],
      [3, 1e-6],
      [0.25, 1e6],
      [1, 1000],
    ]) {
      for (const role of ['query', 'key']) {
        const reach = reachOf(scaleBase, gamma);
        for (const center of [0, 1, reach, random.int(reach + 1), random.int(reach + 1)]) {
          cases.push({ r, scaleBase, gamma, role, center });
        }
      }
    }
  }
  const exact = xposScalesExact(
    cases.map((c) => [c.r, c.gamma, c.scaleBase, c.role === 'query' ? -c.center : c.center]),
  );
  let values = 0;
  let rounded = 0;
  let worst = 0;
  cases.forEach((c, k) => {
    const xpos = { scaleBase: c.scaleBase, gamma: c.gamma, role: c.role, center: c.center };
    const f32 = pe.ropeCosSin({ headDim: c.r, length: 1, offset: 0, xpos }).cos;
    const f64 = pe.ropeCosSin({ headDim: c.r, length: 1, offset: 0, xpos, dtype: 'float64' }).cos;
    exact[k].forEach((text, i) => {
      const e = Number(text);
      const what = `${JSON.stringify(c)} pair ${i}: exact ${text}`;
      assert.ok(Math.abs(f64[i] - e) <= 2e-14 * e, `float64 ${f64[i]}, ${what}`);
      const err = Math.abs(f32[i] - e);
      assert.ok(err <= 0.5 * ulp32(e) + 2e-14 * e, `float32 ${f32[i]} off by ${err / ulp32(e)} ulp, ${what}`);
      worst = Math.max(worst, err / ulp32(e));
      if (f32[i] === Math.fround(e)) rounded++;
      values++;
    });
  });
  console.log(`rope-xpos: ${values} scales, ${rounded} correctly rounded to float32, worst ${worst.toFixed(4)} ulp`);
  assert.ok(values > 1000, `only ${values} scales`);
});

/**
 * torchscale's XPOS.forward(x, offset, downscale) in float64, x of shape
 * (length, d) (one head): the positions of the call's whole sequence n =
 * offset + length run from min_pos = -ceil(n/2) (Python's -(n) // 2), each
 * row's scale is zeta^(pos/scale_base) with zeta_i = (2i + 0.4 d)/(1.4 d),
 * sin and cos are of k * 10000^(-i/(d/2)) for k = 0 ... n-1, the last length
 * rows are kept, keys take 1/scale, and x * cos' + rotate_every_two(x) * sin'
 * with cos' = cos * scale, sin' = sin * scale duplicated per pair.
 */
function torchscaleXpos(x, d, length, offset, downscale, scaleBase = 512) {
  const n = length + offset;
  const minPos = Math.floor(-n / 2);
  const out = new Float64Array(length * d);
  for (let l = 0; l < length; l++) {
    const k = offset + l; // the row of the n-row tables kept for x's row l
    for (let i = 0; i < d / 2; i++) {
      const zeta = (2 * i + 0.4 * d) / (1.4 * d);
      let scale = zeta ** ((k + minPos) / scaleBase);
      if (downscale) scale = 1 / scale;
      const angle = k * 10000 ** (-i / (d / 2));
      const c = Math.cos(angle) * scale;
      const s = Math.sin(angle) * scale;
      const x1 = x[l * d + 2 * i];
      const x2 = x[l * d + 2 * i + 1];
      out[l * d + 2 * i] = x1 * c + -x2 * s;
      out[l * d + 2 * i + 1] = x2 * c + x1 * s;
    }
  }
  return out;
}

test("torchscale's XPOS (float64) = rope() with layout 'interleaved' and center ceil((offset + length)/2)", () => {
  let values = 0;
  for (const d of [8, 64, 128]) {
    for (const [length, offset] of [
      [16, 0],
      [1, 100], // one decoding step
      [50, 3000],
      [7, 20000],
    ]) {
      for (const role of ['query', 'key']) {
        const x = random.floats(length * d, 2);
        const center = Math.ceil((offset + length) / 2);
        const got = pe.rope(x.slice(), {
          heads: 1,
          headDim: d,
          layout: 'interleaved',
          offset,
          length,
          xpos: { role, center },
        });
        const want = torchscaleXpos(x, d, length, offset, role === 'key');
        for (let j = 0; j < got.length; j += 2) {
          const i = (j % d) / 2;
          const zeta = (2 * i + 0.4 * d) / (1.4 * d);
          const p = offset + Math.floor(j / d);
          const scale = zeta ** (((role === 'key' ? -1 : 1) * (p - center)) / 512);
          const bound = 5e-7 * (Math.abs(x[j]) + Math.abs(x[j + 1])) * scale + 1e-30;
          for (const m of [j, j + 1]) {
            assert.ok(
              Math.abs(got[m] - want[m]) <= bound,
              `d ${d} length ${length} offset ${offset} ${role}: element ${m} ${got[m]} vs torchscale ${want[m]}`,
            );
          }
          values += 2;
        }
      }
    }
  }
  console.log(`rope-xpos: ${values} values within 5e-7 of the pair's scaled length of torchscale's formula`);
});

/** q·k in float64 of one head's rotated q at m (query) and k at n (key). */
function score(q, k, m, n, d, xposOptions = {}) {
  const rq = pe.rope(q.slice(), { heads: 1, headDim: d, positions: [m], xpos: { ...xposOptions, role: 'query' } });
  const rk = pe.rope(k.slice(), { heads: 1, headDim: d, positions: [n], xpos: { ...xposOptions, role: 'key' } });
  let s = 0;
  for (let j = 0; j < d; j++) s += rq[j] * rk[j];
  return s;
}

test('q·k depends only on m − n (up to rounding) and equals Σ ζ_i^((m−n)/512) (a cos Δθ_i − b sin Δθ_i)', () => {
  const d = 64;
  const half = d / 2;
  let checked = 0;
  for (let t = 0; t < 6; t++) {
    const q = random.floats(d, 1);
    const k = random.floats(d, 1);
    for (const delta of [0, 1, 37, 1000, -250]) {
      // The exact score from the definition ('half' layout: pair i is (i, i + 32)).
      let want = 0;
      let size = 0;
      for (let i = 0; i < half; i++) {
        const zeta = (2 * i + 0.4 * d) / (1.4 * d);
        const theta = 10000 ** (-i / half);
        const [q1, q2, k1, k2] = [q[i], q[i + half], k[i], k[i + half]];
        const a = q1 * k1 + q2 * k2;
        const b = q2 * k1 - q1 * k2;
        want += zeta ** (delta / 512) * (a * Math.cos(delta * theta) - b * Math.sin(delta * theta));
        size += zeta ** (delta / 512) * (Math.abs(a) + Math.abs(b));
      }
      for (const n of [300, 301, 5000, 17000]) {
        const got = score(q, k, n + delta, n, d);
        assert.ok(Math.abs(got - want) <= 2e-6 * size, `Δ ${delta} at n ${n}: q·k ${got}, want ${want}`);
        checked++;
      }
    }
  }
  console.log(`rope-xpos: ${checked} scores depend on m − n only (within 2e-6 of the scaled magnitude)`);
});

test("the score decays with distance (the paper's claim), where plain RoPE's levels off", () => {
  const d = 64;
  const ones = new Float32Array(d).fill(1);
  const windows = [
    [0, 256],
    [256, 512],
    [512, 1024],
    [1024, 2048],
    [2048, 4096],
    [4096, 8192],
  ];
  const mean = (use) =>
    windows.map(([a, b]) => {
      let s = 0;
      for (let delta = a; delta < b; delta++) s += Math.abs(use(delta));
      return s / (b - a);
    });
  const xpos = mean((delta) => score(ones, ones, delta, 0, d));
  const rope = mean((delta) => {
    const r = pe.rope(ones.slice(), { heads: 1, headDim: d, positions: [delta] });
    const k0 = pe.rope(ones.slice(), { heads: 1, headDim: d, positions: [0] });
    return r.reduce((s, v, j) => s + v * k0[j], 0);
  });
  console.log(`rope-xpos: mean |q·k| by window of distance, xPos ${xpos.map((v) => v.toFixed(2))}`);
  console.log(`rope-xpos: the same for plain RoPE ${rope.map((v) => v.toFixed(2))}`);
  for (let w = 1; w < windows.length; w++) assert.ok(xpos[w] < xpos[w - 1], `window ${w} does not decay`);
  assert.ok(xpos.at(-1) < 0.1 * xpos[0], 'xPos keeps a tenth of its near score far away');
  assert.ok(xpos.at(-1) < 0.5 * rope.at(-1), 'xPos decays no faster than RoPE');
});

test("apply() rotates by cosSin()'s scaled float32 values, bit for bit (both roles, layouts, inverse)", () => {
  let values = 0;
  for (const layout of ['half', 'interleaved']) {
    for (const role of ['query', 'key']) {
      for (const inverse of [false, true]) {
        const o = { heads: 2, headDim: 14, rotaryDim: 10, layout, inverse, xpos: { role, center: 900, gamma: 0.7 } };
        const plan = pe.createRope(o);
        const positions = Array.from({ length: 9 }, () => random.int(2000));
        const x = random.floats(2 * 9 * 2 * 14, 4);
        const got = plan.apply(x.slice(), { positions });
        const { cos, sin } = plan.cosSin({ positions });
        const want = rotateReference(
          x.slice(),
          o,
          9,
          (l, i) => cos[l * 5 + i],
          (l, i) => sin[l * 5 + i],
        );
        sameBits(got, want, `${layout} ${role} ${inverse ? 'inverse' : ''}`);
        values += got.length;
        plan.free();
      }
    }
  }
  console.log(`rope-xpos: ${values} values equal the float32 rotation by the scaled cos/sin`);
});

test('a cached plan, an uncached plan and rope() give the same bits; the cache stops at the window', () => {
  const o = { heads: 3, headDim: 32, layout: 'interleaved', xpos: { role: 'key', center: 1000, scaleBase: 64 } };
  const reach = reachOf(64, 0.4);
  const cached = pe.createRope({ ...o, maxPosition: 5000 });
  const uncached = pe.createRope({ ...o, cache: false });
  assert.is(cached.cachedPositions, 1000 + reach + 1, 'the cache covers rows 0 ... center + reach');
  assert.is(uncached.cachedPositions, 0);
  for (const rows of [
    { offset: 0, length: 40 },
    { offset: 1000 + reach - 30, length: 31 },
    { positions: [5, 999, 2] },
  ]) {
    const x = random.floats(2 * (rows.length ?? rows.positions.length) * 3 * 32, 4);
    const a = cached.apply(x.slice(), rows);
    sameBits(uncached.apply(x.slice(), rows), a, `uncached vs cached ${JSON.stringify(rows)}`);
    sameBits(pe.rope(x.slice(), { ...o, ...rows }), a, `rope() vs cached ${JSON.stringify(rows)}`);
  }
  // Undoing: the other role with inverse gives x back (up to rounding).
  const x = random.floats(3 * 32 * 50, 4);
  const there = cached.apply(x.slice(), { offset: 700, length: 50 });
  const back = pe.rope(there, { ...o, xpos: { ...o.xpos, role: 'query' }, inverse: true, offset: 700, length: 50 });
  back.forEach((v, j) => assert.ok(Math.abs(v - x[j]) <= 1e-5 * (1 + Math.abs(x[j])), `undo: element ${j}`));
  cached.free();
  uncached.free();
});

/** Asserts that call throws a PosencError with code (and argument, when given). */
function throwsCode(call, code, argument, what) {
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, what);
    assert.is(error.code, code, `${what}: ${error.message}`);
    if (argument !== undefined) assert.is(error.argument, argument, `${what}: ${error.message}`);
    return error;
  }
  assert.unreachable(`${what} was accepted`);
}

test('refusals: BAD_XPOS names the field, XPOS_RANGE the position; x (JS array or WasmBuffer) untouched', () => {
  const base = { heads: 2, headDim: 8, length: 3 };
  const bad = [
    [{ role: 'q' }, 'xpos.role'],
    [{}, 'xpos.role'],
    [{ role: 'query', scaleBase: 0 }, 'xpos.scaleBase'],
    [{ role: 'query', scaleBase: -512 }, 'xpos.scaleBase'],
    [{ role: 'query', scaleBase: Infinity }, 'xpos.scaleBase'],
    [{ role: 'query', scaleBase: NaN }, 'xpos.scaleBase'],
    [{ role: 'query', scaleBase: 5e-324 }, 'xpos.scaleBase'], // ln ζ / scaleBase overflowed: every position accepted
    [{ role: 'query', scaleBase: 9e-7 }, 'xpos.scaleBase'],
    [{ role: 'query', scaleBase: '512' }, 'xpos.scaleBase'],
    [{ role: 'key', gamma: 0 }, 'xpos.gamma'],
    [{ role: 'key', gamma: 9e-7 }, 'xpos.gamma'],
    [{ role: 'key', gamma: -0.4 }, 'xpos.gamma'],
    [{ role: 'key', gamma: 2e6 }, 'xpos.gamma'],
    [{ role: 'key', gamma: NaN }, 'xpos.gamma'],
    [{ role: 'key', center: -1 }, 'xpos.center'],
    [{ role: 'key', center: 2 ** 31 }, 'xpos.center'],
    [{ role: 'key', center: 1.5 }, 'xpos.center'],
  ];
  const x = random.floats(3 * 2 * 8, 2);
  const buffer = pe.alloc(x.length);
  buffer.array.set(x);
  for (const [xpos, argument] of bad) {
    const what = JSON.stringify(xpos);
    throwsCode(() => pe.rope(x, { ...base, xpos }), 'BAD_XPOS', argument, `rope ${what}`);
    throwsCode(() => pe.rope(buffer, { ...base, xpos }), 'BAD_XPOS', argument, `rope(WasmBuffer) ${what}`);
    throwsCode(() => pe.createRope({ heads: 2, headDim: 8, xpos }), 'BAD_XPOS', argument, `createRope ${what}`);
    throwsCode(() => pe.ropeCosSin({ headDim: 8, length: 2, xpos }), 'BAD_XPOS', argument, `ropeCosSin ${what}`);
  }
  throwsCode(
    () => pe.rope(x, { ...base, scaling: { rope_type: 'linear', factor: 2 }, xpos: { role: 'query' } }),
    'BAD_XPOS',
    'scaling',
    'xpos with a scaling',
  );
  throwsCode(() => pe.rope(x, { ...base, xpos: { role: 'query', decay: 1 } }), 'UNKNOWN_OPTION', undefined, 'typo');
  throwsCode(() => pe.ropeFrequencies({ headDim: 8, xpos: { role: 'query' } }), 'UNKNOWN_OPTION', undefined, 'freq');
  // Positions outside center ± reach (18130 for the defaults).
  const xpos = { role: 'query', center: 100 };
  throwsCode(() => pe.rope(x, { ...base, offset: 18229, xpos }), 'XPOS_RANGE', 'positions', 'last row past the window');
  throwsCode(() => pe.rope(buffer, { ...base, offset: 18229, xpos }), 'XPOS_RANGE', 'positions', 'WasmBuffer');
  throwsCode(
    () => pe.rope(x, { ...base, length: undefined, positions: [0, 18231, 5], xpos }),
    'XPOS_RANGE',
    'positions[1]',
    'a listed position',
  );
  throwsCode(() => pe.ropeCosSin({ headDim: 8, positions: [18231], xpos }), 'XPOS_RANGE', 'positions[0]', 'cosSin');
  const plan = pe.createRope({ heads: 2, headDim: 8, xpos: { role: 'key', center: 30000 } });
  throwsCode(() => plan.apply(x, { offset: 11868, length: 3 }), 'XPOS_RANGE', 'positions', 'below the window');
  throwsCode(
    () =>
      plan.apply(x, {
        positionIds: [
          [11870, 11871, 11872],
          [11870, 11869, 11872],
        ],
      }),
    'XPOS_RANGE',
    undefined,
    'positionIds',
  );
  plan.apply(new Float32Array(x.length), { offset: 11870, length: 3 }); // the window's first row is accepted
  plan.free();
  sameBits(buffer.array, x, 'the WasmBuffer after every refusal');
  sameBits(
    pe.rope(x.slice(), { ...base, offset: 18228, xpos }),
    pe.rope(x.slice(), { ...base, offset: 18228, xpos }),
    'last row in',
  );
  buffer.free();
  // A staged x of many chunks whose last rows leave the window: nothing written.
  const long = random.floats(4000 * 2 * 64, 2);
  const copy = long.slice();
  throwsCode(() => pe.rope(long, { heads: 2, headDim: 64, offset: 14300, xpos }), 'XPOS_RANGE', 'positions', 'long x');
  sameBits(long, copy, 'a long JS x after XPOS_RANGE');
});

test.run();
