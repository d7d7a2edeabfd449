// RoPE's API: refusals (each names its argument, and x stays exactly as it
// was, in JS arrays and in wasm buffers), the core's own refusals through the
// wasm exports and the native harness, shapes (orders, positions, rotaryDim),
// and the default instance.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, rope, ropeFrequencies, instantiate, PosencError, WasmBuffer } from '../src/js/index.js';
import { loadExports } from '../src/js/runtime/loader.js';
import { ROTARY } from '../src/js/runtime/boundary.js';
import { HARNESS, runHarness } from './support/native-harness.js';
import { sameBits } from './support/builds-bits.js';
import { rng } from './support/random.js';

const simd = await instantiate({ simd: true });
const other = await instantiate({ simd: false });
const random = rng('rope-api');
const base = { length: 3, heads: 2, headDim: 8 };
const X_COUNT = 2 * 3 * 2 * 8;

const refusals = [
  [{ ...base, heads: 0 }, 'BAD_HEADS', 'heads'],
  [{ ...base, heads: 2.5 }, 'BAD_HEADS', 'heads'],
  [{ length: 3, headDim: 8 }, 'BAD_HEADS', 'heads'],
  [{ ...base, headDim: 0 }, 'BAD_DIM', 'headDim'],
  [{ ...base, headDim: 65538 }, 'BAD_DIM', 'headDim'],
  [{ ...base, rotaryDim: 3 }, 'BAD_ROTARY_DIM', 'rotaryDim'],
  [{ ...base, rotaryDim: 10 }, 'BAD_ROTARY_DIM', 'rotaryDim'],
  [{ ...base, rotaryDim: 0 }, 'BAD_ROTARY_DIM', 'rotaryDim'],
  [{ ...base, headDim: 7, heads: 2 }, 'BAD_ROTARY_DIM', 'rotaryDim'],
  [{ ...base, layout: 'halves' }, 'BAD_LAYOUT', 'layout'],
  [{ ...base, order: 'bld' }, 'BAD_ORDER', 'order'],
  [{ ...base, base: 1 }, 'BAD_BASE', 'base'],
  [{ ...base, inverse: 'yes' }, 'BAD_OPTIONS', 'inverse'],
  [{ ...base, offest: 2 }, 'UNKNOWN_OPTION', 'offest'],
  [{ ...base, offset: 2 ** 31 - 2 }, 'BAD_OFFSET', 'offset'],
  [{ ...base, length: -1 }, 'BAD_LENGTH', 'length'],
  [{ ...base, length: undefined, positions: [1, 2, 2 ** 31] }, 'BAD_POSITION', 'positions[2]'],
  [{ ...base, length: undefined, positions: [1, 2, 3], offset: 4 }, 'BAD_OFFSET', 'offset'],
  [{ ...base, length: 2, positions: [1, 2, 3] }, 'BAD_LENGTH', 'length'],
  [{ ...base, length: 5 }, 'BAD_SIZE', 'x'],
  [{ ...base, scaling: 'yarn' }, 'BAD_SCALING', 'scaling'],
  [{ ...base, scaling: { rope_type: 'su', factor: 2 } }, 'BAD_SCALING', 'scaling.rope_type'],
  [
    { ...base, scaling: { rope_type: 'longrope', factor: 2 } },
    'BAD_SCALING',
    'scaling.original_max_position_embeddings',
  ],
  [{ ...base, scaling: { type: 'ntk', factor: 2 } }, 'BAD_SCALING', 'scaling.type'],
  [{ ...base, scaling: { rope_type: 'linear', type: 'dynamic', factor: 2 } }, 'BAD_SCALING', 'scaling.type'],
  [{ ...base, scaling: { rope_type: 'linear' } }, 'BAD_SCALING', 'scaling.factor'],
  [{ ...base, scaling: { rope_type: 'linear', factor: 0.5 } }, 'BAD_SCALING', 'scaling.factor'],
  [{ ...base, scaling: { rope_type: 'linear', factor: '2' } }, 'BAD_SCALING', 'scaling.factor'],
  [
    { ...base, scaling: { rope_type: 'linear', factor: 2, original_max_position_embeddings: 9 } },
    'BAD_SCALING',
    'scaling.original_max_position_embeddings',
  ],
  [
    { ...base, scaling: { rope_type: 'dynamic', factor: 2 } },
    'BAD_SCALING',
    'scaling.original_max_position_embeddings',
  ],
  [
    { ...base, rotaryDim: 2, scaling: { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 4 } },
    'BAD_SCALING',
    'scaling.rope_type',
  ],
  [
    { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 0 } },
    'BAD_SCALING',
    'scaling.original_max_position_embeddings',
  ],
  [
    { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 64, beta_fats: 32 } },
    'BAD_SCALING',
    'scaling.beta_fats',
  ],
  [
    { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 64, beta_slow: -1 } },
    'BAD_SCALING',
    'scaling.beta_slow',
  ],
  [
    { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 64, attention_factor: 0 } },
    'BAD_SCALING',
    'scaling.attention_factor',
  ],
  [
    { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 64, truncate: 'no' } },
    'BAD_SCALING',
    'scaling.truncate',
  ],
  [
    { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 64, mscale: NaN } },
    'BAD_SCALING',
    'scaling.mscale',
  ],
  // A derived attention factor below 0: only the core can tell (its backstop).
  [
    {
      ...base,
      scaling: { rope_type: 'yarn', factor: 10, original_max_position_embeddings: 64, mscale: -100, mscale_all_dim: 1 },
    },
    'BAD_SCALING',
    undefined,
  ],
  [
    {
      ...base,
      scaling: {
        rope_type: 'llama3',
        factor: 8,
        original_max_position_embeddings: 64,
        low_freq_factor: 4,
        high_freq_factor: 2, // below low (equal is Llama 4's, taken)
      },
    },
    'BAD_SCALING',
    'scaling.high_freq_factor',
  ],
  [
    { ...base, scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 64, high_freq_factor: 4 } },
    'BAD_SCALING',
    'scaling.low_freq_factor',
  ],
  [
    { ...base, base: 500, scaling: { rope_type: 'linear', factor: 2, rope_theta: 10000 } },
    'BAD_SCALING',
    'scaling.rope_theta',
  ],
];

function expectRefusal(call, code, argument, what) {
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, `${what}: ${error}`);
    assert.is(error.code, code, `${what}: ${error.message}`);
    if (argument !== undefined) assert.is(error.argument, argument, `${what}: ${error.message}`);
    assert.ok(error.message.length > 20, `${what}: message "${error.message}"`);
    return error;
  }
  assert.unreachable(`${what} was accepted`);
}

test('refusals name the argument and leave x exactly as it was (JS array and WasmBuffer)', () => {
  for (const [options, code, argument] of refusals) {
    const what = JSON.stringify(options);
    const x = random.floats(X_COUNT, 3);
    const before = x.slice();
    expectRefusal(() => simd.rope(x, options), code, argument, what);
    sameBits(x, before, `${what} changed x`);
    const buffer = simd.alloc(X_COUNT);
    buffer.array.set(before);
    expectRefusal(() => simd.rope(buffer, options), code, argument, `${what} (WasmBuffer)`);
    sameBits(buffer.array, before, `${what} changed the WasmBuffer`);
    buffer.free();
  }
  expectRefusal(
    () => simd.rope([1, 2, 3], { length: 1, heads: 1, headDim: 3, rotaryDim: 2 }),
    'BAD_BUFFER',
    'x',
    'an Array x',
  );
  const freed = simd.alloc(X_COUNT);
  freed.free();
  expectRefusal(() => simd.rope(freed, base), 'BUFFER_FREED', 'x', 'a freed buffer');
  const foreign = other.alloc(X_COUNT);
  expectRefusal(() => simd.rope(foreign, base), 'BAD_BUFFER', 'x', 'a buffer of another instance');
  foreign.free();
  expectRefusal(
    () => simd.ropeFrequencies({ headDim: 8, length: 1.5 }),
    'BAD_LENGTH',
    'length',
    'ropeFrequencies length',
  );
  expectRefusal(
    () => simd.ropeFrequencies({ headDim: 8, heads: 2 }),
    'UNKNOWN_OPTION',
    'heads',
    'ropeFrequencies heads',
  );
});

test('messages say what is allowed', () => {
  const x = new Float32Array(X_COUNT);
  const messages = [
    [{ ...base, rotaryDim: 10 }, 'BAD_ROTARY_DIM', /rotaryDim must be an even integer from 2 to headDim = 8.*got 10/],
    [
      { ...base, scaling: { rope_type: 'yarn', factor: 2 } },
      'BAD_SCALING',
      /original_max_position_embeddings must be given for rope_type 'yarn'/,
    ],
    [
      { ...base, scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 64, beta_fats: 32 } },
      'BAD_SCALING',
      /did you mean 'beta_fast'/,
    ],
    [
      {
        ...base,
        scaling: {
          rope_type: 'longrope',
          original_max_position_embeddings: 4,
          short_factor: [1],
          long_factor: [1, 1, 1, 1],
        },
      },
      'BAD_SCALING',
      /short_factor must be an Array of rotaryDim\/2 = 4 finite numbers/,
    ],
    [{ ...base, length: 5 }, 'BAD_SIZE', /a multiple of length·heads·headDim = 5·2·8 = 80/],
  ];
  for (const [options, code, pattern] of messages) {
    const error = expectRefusal(() => simd.rope(x, options), code, undefined, JSON.stringify(options));
    assert.match(error.message, pattern);
  }
});

test('the core refuses bad specs itself, with a status text, before touching x (raw wasm exports)', async () => {
  const wasm = await loadExports({ simd: true }, () => {});
  const SPEC = ROTARY.length; // the doubles of a pe_rotary (src/js/runtime/boundary.js names them)
  const spec = wasm.pe_malloc(8 * SPEC) >>> 0;
  const x = wasm.pe_malloc(4 * 64) >>> 0;
  const scratch = wasm.pe_malloc(1 << 20) >>> 0;
  /** The spec's doubles with the named slots set (the rest 0). */
  const specOf = (named) => {
    const values = new Array(SPEC).fill(0);
    for (const [name, v] of Object.entries(named)) {
      assert.ok(Object.hasOwn(ROTARY.at, name.replace(/\[\d\]$/, '')), name);
      const [path, k = 0] = name.split(/[[\]]/);
      values[ROTARY.at[path] + Number(k)] = v;
    }
    return values;
  };
  const GOOD = { head_dim: 8, rotary_dim: 8, heads: 2, base: 10000, layout: 1 };
  const good = specOf(GOOD);
  const mrope = { 'axes.type': 1, 'axes.mrope_section[0]': 1, 'axes.mrope_section[1]': 1, 'axes.mrope_section[2]': 2 };
  const cases = [
    [{ head_dim: 0 }, 3],
    [{ rotary_dim: 9 }, 18],
    [{ rotary_dim: 10 }, 18],
    [{ heads: 0 }, 15],
    [{ base: 1 }, 4],
    [{ base: NaN }, 4],
    [{ layout: 2 }, 5],
    [{ order: 2 }, 20],
    [{ 'scaling.type': 5 }, 19],
    [{ 'scaling.type': 1, 'scaling.factor': 0.5 }, 19],
    [{ 'scaling.type': 2, 'scaling.factor': 2, 'scaling.original_max_position_embeddings': 0 }, 19],
    [
      {
        'scaling.type': 3,
        'scaling.factor': 2,
        'scaling.original_max_position_embeddings': 64,
        'scaling.attention_factor': -1,
      },
      19,
    ],
    [
      {
        'scaling.type': 4,
        'scaling.factor': 8,
        'scaling.original_max_position_embeddings': 64,
        'scaling.low_freq_factor': 2,
        'scaling.high_freq_factor': 1,
      },
      19,
    ],
    [
      {
        'scaling.type': 3,
        'scaling.factor': 10,
        'scaling.original_max_position_embeddings': 64,
        'scaling.mscale': -100,
        'scaling.mscale_all_dim': 1,
      },
      19,
    ],
    [{ 'axes.type': 7 }, 32],
    [{ 'xpos.scale_base': -1 }, 33],
    [{ ...mrope, 'xpos.scale_base': 512, 'xpos.gamma': 0.4 }, 33],
  ];
  const texts = new Set();
  for (const [change, status] of cases) {
    const values = specOf({ ...GOOD, ...change });
    new Float64Array(wasm.memory.buffer, spec, SPEC).set(values);
    const xs = new Float32Array(wasm.memory.buffer, x, 64);
    for (let k = 0; k < 64; k++) xs[k] = k + 0.5;
    const got = wasm.pe_wasm_rope(spec, 0, 3, 0, x, 48, scratch, 1 << 20);
    assert.is(got, status, `spec change ${JSON.stringify(change)}`);
    const after = new Float32Array(wasm.memory.buffer, x, 64);
    for (let k = 0; k < 64; k++) assert.is(after[k], k + 0.5, `spec change ${JSON.stringify(change)} wrote x[${k}]`);
    const bytes = new Uint8Array(wasm.memory.buffer, wasm.pe_wasm_status_str(status) >>> 0);
    const text = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
    assert.ok(text.length > 10 && text !== 'unknown pe_status', `status ${status}: "${text}"`);
    texts.add(text);
  }
  // Wrong x size, positions past 2^31, positions with an offset, scratch too small.
  new Float64Array(wasm.memory.buffer, spec, SPEC).set(good);
  assert.is(wasm.pe_wasm_rope(spec, 0, 3, 0, x, 47, scratch, 1 << 20), 8);
  assert.is(wasm.pe_wasm_rope(spec, 2 ** 31 - 2, 3, 0, x, 48, scratch, 1 << 20), 6);
  new Uint32Array(wasm.memory.buffer, scratch, 3).set([1, 2, 2 ** 31]);
  const positions = scratch + 1024;
  new Uint32Array(wasm.memory.buffer, positions, 3).set([1, 2, 2 ** 31]);
  assert.is(wasm.pe_wasm_rope(spec, 0, 3, positions, x, 48, scratch + 4096, (1 << 20) - 4096), 6);
  new Uint32Array(wasm.memory.buffer, positions, 3).set([1, 2, 3]);
  assert.is(wasm.pe_wasm_rope(spec, 1, 3, positions, x, 48, scratch + 4096, (1 << 20) - 4096), 6);
  const need = wasm.pe_wasm_rope_scratch_size(spec) >>> 0;
  assert.ok(need > 0);
  assert.is(wasm.pe_wasm_rope(spec, 0, 3, 0, x, 48, scratch, need - 1), 9);
  assert.is(wasm.pe_wasm_rope(spec, 0, 3, 0, x, 48, scratch, need), 0);
  assert.ok(texts.size >= 7, `${texts.size} distinct status texts`);
});

test('the native harness reports the core refusal with its status text', () => {
  for (const [geometry, scaling, pattern] of [
    ['8,9,2,10000,split,blhd,0,0,3', 'none', /rotary_dim must be even/],
    ['8,8,2,10000,split,blhd,0,0,3', 'yarn,2,0,0,0,0,0,0,0,0,0,0', /scaling/],
    ['8,8,2,10000,split,2,0,0,3', 'none', /order must be/],
  ]) {
    const run = runHarness(HARNESS, ['rope', 'scalar', geometry, scaling], Buffer.alloc(48 * 4));
    assert.is(run.status, 4, `${geometry} ${scaling}: exit ${run.status} ${run.stderr}`);
    assert.match(run.stderr, pattern);
  }
});

test("order 'bhld' is 'blhd' transposed; a position list equals the offset rows; rotaryDim leaves the tail", () => {
  const batch = 2;
  const length = 37;
  const heads = 3;
  const headDim = 10;
  const blhd = random.floats(batch * length * heads * headDim, 4);
  const bhld = new Float32Array(blhd.length);
  const at = (b, l, h) => ((b * length + l) * heads + h) * headDim;
  const atT = (b, l, h) => ((b * heads + h) * length + l) * headDim;
  for (let b = 0; b < batch; b++)
    for (let l = 0; l < length; l++)
      for (let h = 0; h < heads; h++) {
        bhld.set(blhd.subarray(at(b, l, h), at(b, l, h) + headDim), atT(b, l, h));
      }
  for (const layout of ['half', 'interleaved']) {
    const options = { length, offset: 1000, heads, headDim, rotaryDim: 6, layout };
    const a = simd.rope(blhd.slice(), options);
    const t = simd.rope(bhld.slice(), { ...options, order: 'bhld' });
    for (let b = 0; b < batch; b++)
      for (let l = 0; l < length; l++)
        for (let h = 0; h < heads; h++) {
          sameBits(
            t.subarray(atT(b, l, h), atT(b, l, h) + headDim),
            a.subarray(at(b, l, h), at(b, l, h) + headDim),
            `${layout} b ${b} l ${l} h ${h}`,
          );
          for (let j = 6; j < headDim; j++)
            assert.is(a[at(b, l, h) + j], blhd[at(b, l, h) + j], 'an element past rotaryDim changed');
        }
    const positions = Array.from({ length }, (_, l) => 1000 + l);
    sameBits(
      simd.rope(blhd.slice(), { ...options, offset: undefined, length: undefined, positions }),
      a,
      `${layout} positions`,
    );
    sameBits(
      simd.rope(blhd.slice(), { ...options, offset: undefined, positions: Uint32Array.from(positions) }),
      a,
      `${layout} Uint32Array positions`,
    );
    // Rows in any order: each row depends on its own position only.
    const shuffled = positions.slice().reverse();
    const r = simd.rope(blhd.slice(), { ...options, offset: undefined, length: undefined, positions: shuffled });
    for (let l = 0; l < length; l++) {
      const single = simd.rope(blhd.slice(at(0, l, 0), at(0, l + 1, 0)), {
        ...options,
        offset: undefined,
        length: undefined,
        positions: [shuffled[l]],
      });
      sameBits(r.subarray(at(0, l, 0), at(0, l + 1, 0)), single, `${layout} row ${l} at position ${shuffled[l]}`);
    }
  }
});

test('empty inputs and zero-copy buffers', () => {
  assert.is(simd.rope(new Float32Array(0), { length: 0, heads: 1, headDim: 4 }).length, 0);
  assert.is(simd.rope(new Float32Array(0), { length: 5, heads: 1, headDim: 4 }).length, 0);
  const buffer = simd.alloc(4 * 6);
  buffer.array.set(Float32Array.from({ length: 24 }, (_, k) => k));
  const back = simd.rope(buffer, { length: 6, heads: 1, headDim: 4, offset: 7 });
  assert.ok(back === buffer, 'rope returns the WasmBuffer itself');
  assert.instance(back, WasmBuffer);
  const js = simd.rope(
    Float32Array.from({ length: 24 }, (_, k) => k),
    { length: 6, heads: 1, headDim: 4, offset: 7 },
  );
  sameBits(buffer.array, js, 'WasmBuffer vs JS array');
  buffer.free();
});

test('the default instance after init()', async () => {
  await init();
  const x = random.floats(2 * 5 * 16, 1);
  sameBits(
    rope(x.slice(), { length: 5, heads: 2, headDim: 16, offset: 3 }),
    simd.rope(x.slice(), { length: 5, heads: 2, headDim: 16, offset: 3 }),
    'default vs instance',
  );
  const f = ropeFrequencies({ headDim: 16, scaling: { rope_type: 'linear', factor: 2 } });
  assert.is(f.frequencies.length, 8);
  assert.is(f.frequencies[0], 0.5);
  assert.is(f.attentionFactor, 1);
});

test("the layout is one idea in both families: 'half' and 'split' are the same pairing, with their own defaults", () => {
  const x = random.floats(3 * 2 * 12, 2);
  const options = { length: 3, heads: 2, headDim: 12, rotaryDim: 8, offset: 40 };
  const half = simd.rope(x.slice(), { ...options, layout: 'half' });
  sameBits(simd.rope(x.slice(), { ...options, layout: 'split' }), half, "rope: 'split' is 'half'");
  sameBits(simd.rope(x.slice(), options), half, "rope's default is 'half'");
  const interleaved = simd.rope(x.slice(), { ...options, layout: 'interleaved' });
  assert.not.ok(
    interleaved.every((v, k) => Object.is(v, half[k])),
    'interleaved pairs other elements',
  );
  const split = simd.sinusoidal({ length: 5, dim: 8, offset: 9, layout: 'split' });
  sameBits(simd.sinusoidal({ length: 5, dim: 8, offset: 9, layout: 'half' }), split, "sinusoid: 'half' is 'split'");
  sameBits(
    simd.sinusoidal({ length: 5, dim: 8, offset: 9, preset: 'marian', layout: 'half' }),
    split,
    "a preset's 'split' agrees with 'half'",
  );
  const table = simd.sinusoidal({ length: 5, dim: 8, offset: 9 });
  sameBits(
    simd.sinusoidal({ length: 5, dim: 8, offset: 9, layout: 'interleaved' }),
    table,
    "the sinusoid's default is 'interleaved'",
  );
  assert.not.ok(
    table.every((v, k) => Object.is(v, split[k])),
    'split rows differ from interleaved ones',
  );
});

test.run();
