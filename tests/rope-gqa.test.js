// Grouped-query and multi-query attention (issue 22): one plan rotates the
// queries (num_attention_heads) and the fewer key heads of a model, read from
// its config as HF reads it; x's head count comes from the call, a tensor's
// dims, or x's size when only one reading of it exists — never a guess (the
// formerly silent 4 tokens × 8 heads vs 1 token × 32 heads is refused); every
// refusal leaves x untouched. Values are checked against HF's
// apply_rotary_pos_emb / rotate_half with Llama 3's inv_freq, written here
// in float64 from HF's formulas (not from posenc's code).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { MODELS } from './support/model-configs.js';
import { rng } from './support/random.js';

const posenc = await instantiate();
const random = rng('rope-gqa').next;
const LLAMA31 = MODELS.find((m) => m.id === 'meta-llama/Llama-3.1-8B').config;
// tiiuae/falcon-7b's config.json (the keys about attention and positions): multi-query, one key head.
const FALCON_7B = {
  alibi: false,
  architectures: ['FalconForCausalLM'],
  hidden_size: 4544,
  model_type: 'falcon',
  multi_query: true,
  new_decoder_architecture: false,
  num_attention_heads: 71,
  num_hidden_layers: 32,
  parallel_attn: true,
  bias: false,
};
// tiiuae/falcon-40b's: the new decoder architecture, 8 key/value groups under its original name n_head_kv.
const FALCON_40B = {
  alibi: false,
  model_type: 'falcon',
  hidden_size: 8192,
  n_head: 128,
  n_head_kv: 8,
  new_decoder_architecture: true,
  multi_query: true,
  parallel_attn: true,
  bias: false,
};

/** HF's Llama 3 inv_freq (_compute_llama3_parameters), in float64. */
function llama3InvFreq(
  dim,
  base,
  { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: old },
) {
  const lowWavelen = old / low;
  const highWavelen = old / high;
  const w = [];
  for (let i = 0; i < dim / 2; i++) {
    const inv = 1 / base ** ((2 * i) / dim);
    const wavelen = (2 * Math.PI) / inv;
    if (wavelen < highWavelen) w.push(inv);
    else if (wavelen > lowWavelen) w.push(inv / factor);
    else {
      const smooth = (old / wavelen - low) / (high - low);
      w.push((1 - smooth) * (inv / factor) + smooth * inv);
    }
  }
  return w;
}

/** HF's default inv_freq: 1 / base^(2i/dim). */
const defaultInvFreq = (dim, base) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

/**
 * HF's apply_rotary_pos_emb for x of shape (batch, length, heads, dim) (before
 * the transpose) at positions ids[b][l]: x·cos + rotate_half(x)·sin with
 * cos = cat(freqs, freqs).cos(), rotate_half(x) = cat(−x2, x1); float64.
 */
function hfRotate(x, [batch, length, heads, dim], ids, invFreq) {
  const out = new Float64Array(x.length);
  const half = dim / 2;
  for (let b = 0; b < batch; b++) {
    for (let l = 0; l < length; l++) {
      const p = ids[b][l];
      for (let h = 0; h < heads; h++) {
        const at = ((b * length + l) * heads + h) * dim;
        for (let j = 0; j < dim; j++) {
          const angle = p * invFreq[j % half];
          const rotated = j < half ? -x[at + j + half] : x[at + j - half];
          out[at + j] = x[at + j] * Math.cos(angle) + rotated * Math.sin(angle);
        }
      }
    }
  }
  return out;
}

/** Largest error of got (float32) against want (float64), in ulps of float32 at each pair's length. */
function worstUlps(got, want, dim) {
  let worst = 0;
  const half = dim / 2;
  for (let at = 0; at < got.length; at += dim) {
    for (let i = 0; i < half; i++) {
      const norm = Math.hypot(want[at + i], want[at + i + half]);
      const ulp = 2 ** (Math.floor(Math.log2(norm)) - 23);
      for (const j of [at + i, at + i + half]) worst = Math.max(worst, Math.abs(got[j] - want[j]) / ulp);
    }
  }
  return worst;
}

const randomFloats = (n) => Float32Array.from({ length: n }, () => random() * 2 - 1);

/** Runs call(), expects a PosencError with code (and argument when given), and x (arrays or tensors) untouched. */
function refused(call, code, argument, ...xs) {
  const before = xs.map((x) => (x.data ?? x).slice());
  try {
    call();
    assert.unreachable(`expected ${code}`);
  } catch (error) {
    assert.is(error.name, 'PosencError', error.message);
    assert.is(error.code, code, error.message);
    if (argument !== undefined) assert.is(error.argument, argument, error.message);
  }
  xs.forEach((x, k) => assert.equal(Array.from(x.data ?? x), Array.from(before[k]), 'a refused call wrote into x'));
}

test('fromConfig and createRope read the key/value heads as HF counts them', () => {
  const cases = [
    [LLAMA31, 32, 8],
    [FALCON_7B, 71, 1],
    [FALCON_40B, 128, 8],
    [{ ...FALCON_7B, multi_query: false }, 71, 71],
    [{ ...FALCON_40B, n_head_kv: undefined, num_kv_heads: 16 }, 128, 16],
    [MODELS.find((m) => m.id === 'EleutherAI/gpt-neox-20b').config, 64, 64],
  ];
  for (const [config, heads, kvHeads] of cases) {
    const d = posenc.fromConfig(config);
    assert.is(d.heads, heads, `${config.model_type}: heads`);
    assert.is(d.kvHeads, kvHeads, `${config.model_type}: kvHeads`);
    for (const key of ['num_key_value_heads', 'multi_query', 'n_head_kv', 'num_kv_heads', 'new_decoder_architecture'])
      assert.not.ok(d.ignored.includes(key), `${key} is read, not ignored`);
    const plan = posenc.createRope({ config });
    assert.is(plan.heads, heads);
    assert.is(plan.kvHeads, kvHeads);
    plan.free();
  }
  // A given heads overrides the config's pair; kvHeads must divide heads.
  const own = posenc.createRope({ config: LLAMA31, heads: 16 });
  assert.is(own.kvHeads, 16);
  own.free();
  assert.is(posenc.createRope({ config: LLAMA31, heads: 16, kvHeads: 4 }).kvHeads, 4);
  refused(() => posenc.createRope({ heads: 32, kvHeads: 5, headDim: 8 }), 'BAD_HEADS', 'kvHeads');
  refused(() => posenc.createRope({ heads: 32, kvHeads: 0, headDim: 8 }), 'BAD_HEADS', 'kvHeads');
  refused(() => posenc.createRope({ heads: 32, kvHeads: 64, headDim: 8 }), 'BAD_HEADS', 'kvHeads');
});

test("Llama 3.1 8B: q (32 heads) and k (8 heads) of one step and a prefill past 2^16, against HF's rotation", () => {
  const { rope_theta: base, rope_scaling: scaling } = LLAMA31;
  const invFreq = llama3InvFreq(128, base, scaling);
  const plan = posenc.createRope({ config: LLAMA31, maxPosition: 1024 });
  // A prefill of 5 tokens for 2 sequences at their own positions (HF's position_ids), past 2^16.
  const ids = [
    [65534, 65535, 65536, 65537, 65538],
    [100000, 100001, 100002, 100003, 100004],
  ];
  const q = randomFloats(2 * 5 * 32 * 128);
  const k = randomFloats(2 * 5 * 8 * 128);
  const wantQ = hfRotate(q, [2, 5, 32, 128], ids, invFreq);
  const wantK = hfRotate(k, [2, 5, 8, 128], ids, invFreq);
  const positionIds = BigInt64Array.from(ids.flat(), BigInt); // onnxruntime-web's int64 position_ids
  const gotQ = q.slice();
  const gotK = k.slice();
  plan.applyQK(gotQ, gotK, { positionIds, length: 5 });
  assert.ok(worstUlps(gotQ, wantQ, 128) <= 2, `q: ${worstUlps(gotQ, wantQ, 128)} ulps`);
  assert.ok(worstUlps(gotK, wantK, 128) <= 2, `k: ${worstUlps(gotK, wantK, 128)} ulps`);
  // The same through apply with a per-call heads, through rope() with the config, and as tensors.
  const apart = k.slice();
  plan.apply(apart, { positionIds, length: 5, heads: 8 });
  assert.equal(apart, gotK);
  const oneShot = k.slice();
  posenc.rope(oneShot, { config: LLAMA31, positionIds: ids, heads: 8 });
  assert.equal(oneShot, gotK);
  const kt = { data: k.slice(), dims: [2, 5, 8, 128], type: 'float32' };
  assert.is(plan.apply(kt, { positionIds: { data: positionIds, dims: [2, 5], type: 'int64' } }), kt);
  assert.equal(kt.data, gotK);
  // positionIds with batch and length fix the rows: heads from the size alone.
  const inferred = q.slice();
  plan.apply(inferred, { positionIds: ids });
  assert.equal(inferred, gotQ);

  // One decoding step at 2^17 + 3: q and k as 3-D tensors (batch, 1, heads·headDim), as ORT's RotaryEmbedding takes them.
  const p = 2 ** 17 + 3;
  const q1 = { data: randomFloats(32 * 128), dims: [1, 1, 32 * 128], type: 'float32' };
  const k1 = { data: randomFloats(8 * 128), dims: [1, 1, 8 * 128], type: 'float32' };
  const want1 = [hfRotate(q1.data, [1, 1, 32, 128], [[p]], invFreq), hfRotate(k1.data, [1, 1, 8, 128], [[p]], invFreq)];
  const { q: rq, k: rk } = plan.applyQK(q1, k1, { offset: p });
  assert.ok(rq === q1 && rk === k1);
  assert.ok(worstUlps(q1.data, want1[0], 128) <= 2);
  assert.ok(worstUlps(k1.data, want1[1], 128) <= 2);

  // wasm-resident x (alloc): the decode loop's fast path with heads, and applyQK, give the same bits.
  const k4 = randomFloats(4 * 8 * 128); // 4 tokens of 8 heads: the head count changes which rows sit where
  const wantK4 = plan.apply(k4.slice(), { offset: p, heads: 8 });
  const q4 = randomFloats(4 * 32 * 128);
  const wantQ4 = plan.apply(q4.slice(), { offset: p, heads: 32 });
  const [qb, kb] = [posenc.alloc(q4.length), posenc.alloc(k4.length)];
  kb.array.set(k4);
  plan.apply(kb, { offset: p, heads: 8 });
  assert.equal(kb.array, wantK4);
  kb.array.set(k4);
  qb.array.set(q4);
  plan.applyQK(qb, kb, { offset: p, length: 4 });
  assert.equal(kb.array, wantK4);
  assert.equal(qb.array, wantQ4);
  kb.array.set(k4);
  refused(() => plan.apply(kb, { offset: p }), 'AMBIGUOUS_HEADS', 'x', kb.array);
  qb.free();
  kb.free();
  plan.free();
});

test('MQA (Falcon-7B, one key head): q and k of a prefill against HF', () => {
  const plan = posenc.createRope({ config: FALCON_7B });
  assert.is(plan.headDim, 64);
  const invFreq = defaultInvFreq(64, 10000);
  const ids = [[70000, 70001, 70002]];
  const q = randomFloats(3 * 71 * 64);
  const k = randomFloats(3 * 1 * 64);
  const want = [hfRotate(q, [1, 3, 71, 64], ids, invFreq), hfRotate(k, [1, 3, 1, 64], ids, invFreq)];
  const gotK = k.slice();
  // k alone: 3 rows fixed by length, and only kvHeads = 1 fits its size (71 does not divide 192).
  plan.apply(gotK, { offset: 70000, length: 3 });
  assert.ok(worstUlps(gotK, want[1], 64) <= 2);
  const gotQ = q.slice();
  const gotK2 = k.slice();
  plan.applyQK(gotQ, gotK2, { positions: ids[0] });
  assert.ok(worstUlps(gotQ, want[0], 64) <= 2);
  assert.equal(gotK2, gotK);
  plan.free();
});

test('the formerly silent 4 tokens × 8 heads vs 1 token × 32 heads is refused; readings that agree are not', () => {
  const plan = posenc.createRope({ config: LLAMA31 });
  const k = randomFloats(4 * 8 * 128); // as many elements as one token of 32 heads
  refused(() => plan.apply(k, { offset: 9 }), 'AMBIGUOUS_HEADS', 'x', k);
  refused(() => posenc.rope(k, { config: LLAMA31, offset: 9 }), 'AMBIGUOUS_HEADS', 'x', k);
  try {
    plan.apply(k, { offset: 9 });
  } catch (error) {
    assert.match(error.message, /\(1, 1, 32, 128\)/); // both readings named
    assert.match(error.message, /\(1, 4, 8, 128\)/);
  }
  // length 4 fixes the rows, but a batch of 4 keys and one sequence of 32 heads still both fit 4 × 32 × 128.
  const q4 = randomFloats(4 * 32 * 128);
  refused(() => plan.apply(q4, { offset: 9, length: 4 }), 'AMBIGUOUS_HEADS', 'x', q4);
  // Fits neither count: the shapes expected are named.
  const odd = randomFloats(3 * 128);
  refused(() => plan.apply(odd, { offset: 9, length: 1 }), 'BAD_SIZE', 'x', odd);
  // A per-call heads, a tensor's dims, or rows that leave one reading decide.
  const said = k.slice();
  plan.apply(said, { offset: 9, heads: 8 });
  const byTensor = { data: k.slice(), dims: [1, 4, 8, 128], type: 'float32' };
  plan.apply(byTensor, { offset: 9 });
  assert.equal(byTensor.data, said);
  const byLength = k.slice();
  plan.apply(byLength, { offset: 9, length: 4 }); // 4 rows: 32 heads do not fit 4 × 8 × 128
  assert.equal(byLength, said);
  assert.not.equal(Array.from(said), Array.from(plan.apply(k.slice(), { offset: 9, heads: 32 })));
  // One row at shared positions: every reading rotates every element alike (a decoding step).
  const step = randomFloats(32 * 128);
  const stepSaid = plan.apply(step.slice(), { offset: 70000, heads: 32 });
  assert.equal(plan.apply(step.slice(), { offset: 70000, length: 1 }), stepSaid);
  // A plan with one count keeps today's rule: its heads.
  const single = posenc.createRope({ heads: 32, headDim: 128, base: 500000, scaling: LLAMA31.rope_scaling });
  assert.equal(single.apply(step.slice(), { offset: 70000 }), stepSaid);
  single.free();
  plan.free();
});

test('tensors: shapes from dims, refusals that name them, results as tensors', () => {
  const plan = posenc.createRope({ heads: 4, kvHeads: 2, headDim: 8, order: 'bhld' });
  const data = randomFloats(2 * 2 * 3 * 8);
  const t = { data: data.slice(), dims: [2, 2, 3, 8], type: 'float32' }; // (batch, heads, length, headDim)
  plan.apply(t, { offset: 5 });
  assert.equal(t.data, plan.apply(data.slice(), { offset: 5, length: 3, heads: 2 }));
  // An ORT-like class with getters and a location.
  class FakeOrtTensor {
    constructor(type, d, dims) {
      Object.assign(this, { type, dims, location: 'cpu', cpuData: d });
    }
    get data() {
      return this.cpuData;
    }
  }
  const ort = new FakeOrtTensor('float32', data.slice(), [2, 2, 3, 8]);
  assert.is(plan.apply(ort, { offset: 5 }), ort);
  assert.equal(ort.data, t.data);
  const gpu = new FakeOrtTensor('float32', data.slice(), [2, 2, 3, 8]);
  gpu.location = 'gpu-buffer';
  refused(() => plan.apply(gpu, { offset: 5 }), 'BAD_BUFFER', 'x', gpu.cpuData);
  const bad = [
    [{ data: data.slice(), dims: [2, 2, 3, 4], type: 'float32' }, {}, 'BAD_SHAPE'], // product ≠ length
    [{ data: data.slice(), dims: [2, 2, 6, 4], type: 'float32' }, {}, 'BAD_SHAPE'], // head size 4 ≠ 8
    [{ data: data.slice(), dims: [2, 2, 3, 8], type: 'float32' }, { heads: 4 }, 'BAD_SHAPE'],
    [{ data: data.slice(), dims: [2, 2, 3, 8], type: 'float32' }, { length: 2 }, 'BAD_SHAPE'],
    [
      { data: data.slice(), dims: [2, 2, 3, 8], type: 'float32' },
      { positions: [1, 2], offset: undefined },
      'BAD_SHAPE',
    ],
    [{ data: data.slice(), dims: [2, 3, 16], type: 'float32' }, {}, 'BAD_SHAPE'], // 3-D is blhd only
    [{ data: data.slice(), dims: [2, 2, 3, 8], type: 'float32' }, { dtype: 'float16' }, 'BAD_DTYPE'],
    [{ data: Int32Array.from(data), dims: [2, 2, 3, 8], type: 'int32' }, {}, 'BAD_DTYPE'],
    [{ data: data.slice(), dims: [2, 2, 3, 8], type: 'float16' }, {}, 'BAD_BUFFER'],
    [{ data: data.slice(), dims: [2, 2, 3, 8], type: 'float32' }, { as: 'ort' }, 'BAD_OPTIONS'],
  ];
  for (const [x, options, code] of bad) refused(() => plan.apply(x, { offset: 5, ...options }), code, undefined, x);
  // rope() takes headDim and heads from a 4-D tensor; as: 'tensor' gives dims in the order.
  const blhd = { data: randomFloats(1 * 3 * 2 * 8), dims: [1, 3, 2, 8], type: 'float32' };
  const copy = blhd.data.slice();
  posenc.rope(blhd, { offset: 4 });
  assert.equal(blhd.data, posenc.rope(copy, { heads: 2, headDim: 8, offset: 4 }));
  const out = posenc.rope(randomFloats(3 * 2 * 8), { heads: 2, headDim: 8, offset: 4, as: 'tensor' });
  assert.equal(out.dims, [1, 3, 2, 8]);
  assert.is(out.type, 'float32');
  const bits = plan.apply(new Uint16Array(2 * 3 * 8), { heads: 1, length: 3, dtype: 'bfloat16', as: 'tensor' });
  assert.equal([bits.dims, bits.type], [[2, 1, 3, 8], 'bfloat16']);
  // float16 tensors, as bits (a Uint16Array) and as rope() with dtype gives them.
  const halves = new Uint16Array(2 * 3 * 8).map(() => 0x3c00 + Math.floor(random() * 512));
  const h16 = { data: halves.slice(), dims: [1, 3, 2, 8], type: 'float16' };
  posenc.rope(h16, { offset: 7 });
  assert.equal(h16.data, posenc.rope(halves.slice(), { heads: 2, headDim: 8, offset: 7, dtype: 'float16' }));
  plan.free();
});

test('cos/sin caches and ALiBi as tensors; float16 as the engine holds it', () => {
  const cs = posenc.ropeCosSin({ headDim: 8, length: 3, dtype: 'float16', as: 'tensor' });
  assert.equal(cs.cos.dims, [3, 4]);
  assert.is(cs.cos.type, 'float16');
  const plain = posenc.ropeCosSin({ headDim: 8, length: 3, dtype: 'float16' });
  assert.ok(plain.cos instanceof Uint16Array, 'arrays stay bit patterns by default');
  const hasF16 = globalThis.Float16Array !== undefined;
  assert.ok(hasF16 ? cs.cos.data instanceof globalThis.Float16Array : cs.cos.data instanceof Uint16Array);
  assert.equal(new Uint16Array(cs.cos.data.buffer), plain.cos);
  if (!hasF16) {
    assert.throws(
      () => posenc.ropeCosSin({ headDim: 8, length: 3, dtype: 'float16', float16: 'Float16Array' }),
      (e) => e.code === 'BAD_DTYPE',
    );
  }
  const idsTensor = { data: BigInt64Array.of(3n, 70000n), dims: [1, 2], type: 'int64' };
  assert.equal(
    posenc.ropeCosSin({ headDim: 8, positions: idsTensor }),
    posenc.ropeCosSin({ headDim: 8, positions: [3, 70000] }),
  );
  const expanded = posenc.ropeCosSin({ headDim: 8, length: 2, expand: true, as: 'tensor' });
  assert.equal([expanded.sin.dims, expanded.sin.type], [[2, 8], 'float32']);

  // ALiBi: a tensor-parallel slice is the full bias's heads, with the full count's slopes.
  const full = posenc.alibiBias({ heads: 12, queryLength: 3, keyLength: 5, causal: true });
  const part = posenc.alibiBias({ heads: 12, queryLength: 3, keyLength: 5, causal: true, headStart: 8, headCount: 3 });
  assert.equal(part, full.subarray(8 * 15, 11 * 15));
  const tail = posenc.alibiBias({ heads: 12, queryLength: 3, keyLength: 5, headStart: 10 });
  assert.is(tail.length, 2 * 15);
  const asTensor = posenc.alibiBias({
    heads: 12,
    queryLength: 3,
    keyLength: 5,
    headStart: 4,
    headCount: 2,
    as: 'tensor',
  });
  assert.equal([asTensor.dims, asTensor.type], [[2, 3, 5], 'float32']);
  const out = { data: new Float32Array(2 * 15).fill(7), dims: [1, 2, 3, 5], type: 'float32' };
  assert.is(posenc.alibiBias({ heads: 12, queryLength: 3, keyLength: 5, headStart: 4, headCount: 2, out }), out);
  assert.equal(out.data, asTensor.data);
  const guard = new Float32Array(2 * 15).fill(7);
  for (const [options, code, argument] of [
    [{ headStart: 12 }, 'BAD_HEADS', 'headStart'],
    [{ headStart: -1 }, 'BAD_HEADS', 'headStart'],
    [{ headStart: 4, headCount: 9 }, 'BAD_HEADS', 'headCount'],
    [{ headStart: 4, headCount: 0 }, 'BAD_HEADS', 'headCount'],
    [{ headStart: 4, headCount: 2, out: { data: guard, dims: [2, 5, 3], type: 'float32' } }, 'BAD_SHAPE', 'out.dims'],
    [{ headStart: 4, headCount: 2, out: { data: guard, dims: [2, 3, 5], type: 'float16' } }, 'BAD_DTYPE', 'out.type'],
    [{ headCount: 3, out: guard }, 'BAD_SIZE', 'out'],
  ]) {
    refused(() => posenc.alibiBias({ heads: 12, queryLength: 3, keyLength: 5, ...options }), code, argument, guard);
  }
});

test('a Float16Array works wherever float16 bits do (an engine with one, simulated where Node has none)', () => {
  const had = globalThis.Float16Array;
  // A stand-in with Float16Array's memory layout and no Uint16Array ancestry: detection is by instanceof,
  // the data by its 16-bit words (a real Float16Array's elements are numbers, its bits the same memory).
  class StandIn {
    constructor(a, byteOffset, length) {
      const words = a instanceof ArrayBuffer ? new Uint16Array(a, byteOffset, length) : new Uint16Array(a);
      Object.assign(this, { buffer: words.buffer, byteOffset: words.byteOffset, length: words.length });
    }
  }
  if (had === undefined) globalThis.Float16Array = StandIn;
  try {
    const F16 = globalThis.Float16Array;
    const cs = posenc.ropeCosSin({ headDim: 8, length: 3, dtype: 'float16', float16: 'Float16Array' });
    assert.ok(cs.cos instanceof F16);
    const tensor = posenc.ropeCosSin({ headDim: 8, length: 3, dtype: 'float16', as: 'tensor' });
    assert.ok(tensor.cos.data instanceof F16, "as: 'tensor' gives a Float16Array where the engine has one");
    const bits = posenc.ropeCosSin({ headDim: 8, length: 3, dtype: 'float16' });
    assert.ok(!(bits.cos instanceof F16), 'arrays stay bits by default');
    assert.equal(new Uint16Array(cs.cos.buffer), bits.cos);
    assert.equal(
      posenc.bitsToFloat32(cs.cos, { dtype: 'float16' }),
      posenc.bitsToFloat32(bits.cos, { dtype: 'float16' }),
    );
    if (had === undefined) {
      const words = new Uint16Array(2 * 8).map(() => 0x3c00 + Math.floor(random() * 512));
      const x = new F16(words.buffer, 0, words.length);
      const asBits = posenc.rope(words.slice(), { heads: 2, headDim: 8, offset: 9, dtype: 'float16' });
      posenc.rope(x, { heads: 2, headDim: 8, offset: 9 });
      assert.equal(new Uint16Array(x.buffer), asBits);
    }
  } finally {
    if (had === undefined) delete globalThis.Float16Array;
  }
});

test('applyQK and ropeQK check both tensors before writing either', () => {
  const plan = posenc.createRope({ heads: 4, kvHeads: 2, headDim: 8 });
  const q = randomFloats(2 * 4 * 8);
  const kBad = randomFloats(2 * 3 * 8); // 3 heads: fits no reading of k
  refused(() => plan.applyQK(q, kBad, { offset: 1, length: 2 }), 'BAD_SIZE', 'x', q, kBad);
  refused(() => plan.applyQK(q, randomFloats(2 * 2 * 8), { offset: 1, heads: 4 }), 'BAD_OPTIONS', 'heads', q);
  const kt = { data: randomFloats(2 * 4 * 8), dims: [1, 2, 4, 8], type: 'float32' }; // 4 heads where k has 2
  refused(() => plan.applyQK(q, kt, { offset: 1 }), 'BAD_SHAPE', 'x.dims', q, kt);
  const k = randomFloats(2 * 2 * 8);
  const [q2, k2] = [q.slice(), k.slice()];
  posenc.ropeQK(q2, k2, { heads: 4, kvHeads: 2, headDim: 8, offset: 1 });
  assert.equal(q2, plan.apply(q.slice(), { offset: 1, heads: 4 }));
  assert.equal(k2, plan.apply(k.slice(), { offset: 1, heads: 2 }));
  const xq = posenc.createRope({ heads: 4, headDim: 8, xpos: { scaleBase: 512, role: 'query' } });
  refused(() => xq.applyQK(q, k, { offset: 1 }), 'BAD_XPOS', 'xpos', q, k);
  xq.free();
  plan.free();
});

test.run();
