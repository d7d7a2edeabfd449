// mrope and 2-D RoPE against their peer: Qwen2-VL's code in HF transformers,
// re-implemented in float64 (support/qwen2vl-reference.js) — the rotated
// queries within 2 ulp of the pair of HF's formula, the cos/sin caches within
// float rounding of HF's, for the position ids get_rope_index and rot_pos_emb
// make; and every refusal coded, naming its argument, with x left untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { rng } from './support/random.js';
import {
  mropeCosSin,
  visionCosSin,
  rotateHalf,
  visionPatchPositions,
  qwen2vlPositionIds,
} from './support/qwen2vl-reference.js';
import { MODELS } from './support/model-configs.js';

const posenc = await instantiate({ simd: true });
const random = rng('rope-axes-peers');
const ULP_BOUND = 2; // in units of 2^-23 * |pair|, as rope-accuracy.test.js

/** Worst error of got (float32, blhd rows of heads · headDim) against HF's rotation of x with cos/sin rows. */
function worstError(x, got, { cos, sin }, heads, headDim) {
  const half = headDim / 2;
  let worst = 0;
  for (let l = 0; l < cos.length; l++) {
    for (let h = 0; h < heads; h++) {
      const at = (l * heads + h) * headDim;
      const q = Float64Array.from(x.subarray(at, at + headDim));
      const want = rotateHalf(q, cos[l], sin[l]);
      for (let j = 0; j < headDim; j++) {
        const i = j % half;
        const pair = Math.hypot(q[i], q[i + half]) || 1;
        worst = Math.max(worst, Math.abs(got[at + j] - want[j]) / (pair * 2 ** -23));
      }
    }
  }
  return worst;
}

const QWEN2_VL_7B = MODELS.find((m) => m.id === 'Qwen/Qwen2-VL-7B-Instruct').config;

test("mrope: Qwen2-VL-7B's queries (config as shipped, get_rope_index's ids) within 2 ulp of HF's apply_multimodal_rotary_pos_emb", () => {
  let worst = 0;
  let values = 0;
  for (const [before, h, w, after] of [
    [5, 28, 40, 9],
    [0, 4, 4, 1],
    [300, 64, 36, 200],
  ]) {
    const ids = qwen2vlPositionIds(before, h, w, after);
    const length = ids[0].length;
    const heads = 4;
    const x = random.floats(length * heads * 128, 4);
    const got = posenc.rope(x.slice(), { config: QWEN2_VL_7B, heads, positions: ids });
    const gotIds = posenc.rope(x.slice(), { config: QWEN2_VL_7B, heads, positionIds: ids.map((a) => [a]) });
    assert.equal(Array.from(gotIds), Array.from(got), 'positionIds (3, 1, length) = positions (3, length)');
    worst = Math.max(worst, worstError(x, got, mropeCosSin(ids, 128, 1e6, [16, 24, 24]), heads, 128));
    values += x.length;
  }
  // Random sections, bases and far positions (below 2^20, where double angles stay exact enough).
  for (let k = 0; k < 20; k++) {
    const headDim = 8 + 4 * random.int(40);
    const a = 1 + random.int(headDim / 2 - 2);
    const b = 1 + random.int(headDim / 2 - a - 1);
    const section = [a, b, headDim / 2 - a - b];
    const base = [10000, 1e6, 500000][random.int(3)];
    const length = 1 + random.int(40);
    const ids = [0, 1, 2].map(() => Array.from({ length }, () => random.int(2 ** 20)));
    const x = random.floats(length * 2 * headDim, 4);
    const got = posenc.createRope({ headDim, heads: 2, base, mropeSection: section }).apply(x.slice(), {
      positions: ids,
    });
    worst = Math.max(worst, worstError(x, got, mropeCosSin(ids, headDim, base, section), 2, headDim));
    values += x.length;
  }
  console.log(`rope-axes-peers: mrope, ${values} values, worst ${worst.toFixed(3)} ulp of the pair`);
  assert.ok(worst <= ULP_BOUND, `worst error ${worst} ulp of the pair`);
});

test("2-D RoPE: Qwen2-VL's vision tower (head_dim 80, rot_pos_emb's patch order) within 2 ulp of HF's apply_rotary_pos_emb_vision", () => {
  let worst = 0;
  let values = 0;
  for (const [t, h, w, headDim] of [
    [1, 28, 40, 80], // Qwen2-VL / Qwen2.5-VL vision: embed_dim 1280 / 16 heads
    [2, 8, 6, 80],
    [1, 64, 64, 64],
    [1, 2, 2, 16],
  ]) {
    const { hpos, wpos } = visionPatchPositions(t, h, w);
    const heads = 3;
    const x = random.floats(hpos.length * heads * headDim, 4);
    const got = posenc.rope(x.slice(), { headDim, heads, vision: true, positions: [hpos, wpos] });
    worst = Math.max(worst, worstError(x, got, visionCosSin(hpos, wpos, headDim), heads, headDim));
    values += x.length;
  }
  console.log(`rope-axes-peers: 2-D, ${values} values, worst ${worst.toFixed(3)} ulp of the pair`);
  assert.ok(worst <= ULP_BOUND, `worst error ${worst} ulp of the pair`);
});

test("the cos/sin caches (expand: HF's head_dim rows) are HF's: float64 within 1e-12, float32 the nearest floats' neighbours", () => {
  const cases = [
    { options: { headDim: 128, base: 1e6, mropeSection: [16, 24, 24] }, ids: qwen2vlPositionIds(7, 12, 20, 5) },
    { options: { headDim: 80, vision: true }, ids: Object.values(visionPatchPositions(1, 14, 10)) },
  ];
  for (const { options, ids } of cases) {
    const want = options.vision
      ? visionCosSin(ids[0], ids[1], options.headDim)
      : mropeCosSin(ids, options.headDim, options.base, options.mropeSection);
    const f64 = posenc.ropeCosSin({ ...options, positions: ids, expand: true, dtype: 'float64' });
    const f32 = posenc.ropeCosSin({ ...options, positions: ids, expand: true });
    let worst64 = 0;
    let worst32 = 0;
    want.cos.forEach((row, l) => {
      for (let j = 0; j < row.length; j++) {
        for (const [mine64, mine32, theirs] of [
          [f64.cos, f32.cos, row[j]],
          [f64.sin, f32.sin, want.sin[l][j]],
        ]) {
          const at = l * row.length + j;
          worst64 = Math.max(worst64, Math.abs(mine64[at] - theirs));
          worst32 = Math.max(worst32, Math.abs(mine32[at] - theirs) / 2 ** -24);
        }
      }
    });
    assert.ok(worst64 <= 1e-12, `${JSON.stringify(options)}: float64 off HF's by ${worst64}`);
    assert.ok(worst32 <= 1.01, `${JSON.stringify(options)}: float32 off HF's by ${worst32} half-ulps of 1`);
  }
});

test('every bad mrope or 2-D input is refused with its code, naming the argument, before x is written', () => {
  const x = random.floats(4 * 2 * 16, 2);
  const before = x.slice();
  const mrope = { headDim: 16, heads: 2, mropeSection: [2, 3, 3] };
  const vision = { headDim: 16, heads: 2, vision: true };
  const ids3 = [0, 1, 2].map(() => [0, 1, 2, 3]);
  /** axes lists of positions 0 ... 3, with position l of axis a replaced by v. */
  const withId = (axes, a, l, v) =>
    Array.from({ length: axes }, (_, k) => [0, 1, 2, 3].map((p, m) => (k === a && m === l ? v : p)));
  const refusals = [
    ['BAD_AXES', 'mropeSection', { ...mrope, mropeSection: [2, 3, 2], positions: ids3 }], // sums to 7, not 8
    ['BAD_AXES', 'mropeSection', { ...mrope, mropeSection: [4, 4], positions: ids3 }],
    ['BAD_AXES', 'mropeSection', { ...mrope, mropeSection: [0, 4, 4], positions: ids3 }],
    ['BAD_AXES', 'mropeSection', { ...mrope, mropeSection: [2.5, 2.5, 3], positions: ids3 }],
    ['BAD_AXES', 'mropeSection', { ...mrope, mropeSection: '2,3,3', positions: ids3 }],
    [
      'BAD_AXES',
      'scaling.mrope_section',
      { headDim: 16, heads: 2, scaling: { type: 'mrope', mrope_section: [1, 1, 1] }, positions: ids3 },
    ],
    [
      'BAD_AXES',
      'mropeSection',
      { ...mrope, scaling: { rope_type: 'default', mrope_section: [3, 3, 2] }, positions: ids3 },
    ],
    [
      'BAD_SCALING',
      'scaling.mrope_section',
      {
        ...mrope,
        mropeSection: undefined,
        scaling: { rope_type: 'linear', factor: 2, mrope_section: [2, 3, 3] },
        length: 4,
      },
    ],
    ['BAD_AXES', 'vision', { ...vision, mropeSection: [2, 3, 3], positions: [ids3[0], ids3[1]] }],
    ['BAD_AXES', 'vision', { ...vision, rotaryDim: 6, positions: [ids3[0], ids3[1]] }],
    ['BAD_AXES', 'vision', { ...vision, scaling: { rope_type: 'linear', factor: 2 }, positions: [ids3[0], ids3[1]] }],
    ['BAD_OPTIONS', 'vision', { ...vision, vision: 'yes', positions: [ids3[0], ids3[1]] }],
    ['BAD_POSITION', 'positions', { ...vision, length: 4 }], // 2-D needs its rows and columns
    [
      'BAD_POSITION',
      'positions',
      {
        ...mrope,
        positions: [
          [0, 1, 2, 3],
          [0, 1, 2, 3],
        ],
      },
    ], // two lists for three axes
    [
      'BAD_POSITION',
      'positions[2]',
      {
        ...mrope,
        positions: [
          [0, 1, 2, 3],
          [0, 1, 2, 3],
          [0, 1, 2],
        ],
      },
    ],
    ['BAD_POSITION', 'positions[1][2]', { ...mrope, positions: withId(3, 1, 2, -2) }],
    ['BAD_POSITION', 'positions[0][3]', { ...mrope, positions: withId(3, 0, 3, 2 ** 31) }],
    ['BAD_POSITION', 'positions[2][0]', { ...mrope, positions: withId(3, 2, 0, 0.5) }],
    ['BAD_POSITION', 'positions[1][1]', { ...vision, positions: withId(2, 1, 1, -1) }],
    [
      'BAD_SIZE',
      'x',
      {
        ...mrope,
        positions: [
          [0, 1, 2],
          [0, 1, 2],
          [0, 1, 2],
        ],
      },
    ], // 3 rows: x holds 4
    ['BAD_SIZE', 'positionIds', { ...mrope, length: 4, positionIds: [0, 1, 2].map(() => [0, 1, 2, 3, 4, 5, 6, 7]) }], // batch 2, x has 1
    ['BAD_LENGTH', 'length', { ...mrope, length: 3, positions: ids3 }],
    ['BAD_OFFSET', 'offset', { ...mrope, offset: 2, positions: ids3 }],
    ['BAD_OPTIONS', 'cuSeqlens', { ...mrope, cuSeqlens: [0, 4] }],
    ['BAD_OPTIONS', 'positionIds', { ...mrope, positions: ids3, positionIds: ids3 }],
  ];
  for (const [code, argument, options] of refusals) {
    assert.throws(
      () => posenc.rope(x, options),
      (e) => e.code === code && e.argument === argument && e.message.includes(argument.split('.').pop()),
      `${code} ${argument}: ${JSON.stringify(options)}`,
    );
    assert.equal(Array.from(x), Array.from(before), `x changed by the refused ${code} ${argument}`);
  }
  // Plans and caches refuse alike.
  const plan = posenc.createRope(vision);
  assert.throws(
    () => plan.apply(x, { length: 4 }),
    (e) => e.code === 'BAD_POSITION',
  );
  assert.throws(
    () => posenc.ropeCosSin({ headDim: 16, vision: true, length: 4 }),
    (e) => e.code === 'BAD_POSITION' && e.argument === 'positions',
  );
  assert.throws(
    () => posenc.createRope({ ...mrope, mropeSection: [8, 0, 0] }),
    (e) => e.code === 'BAD_AXES',
  );
  plan.free();
  assert.equal(Array.from(x), Array.from(before));
});

test.run();
