// Compiled (never run) by tests/package-types.test.js with tsc --strict against the
// package's declarations: what a TypeScript user writes must type-check, and
// what the API refuses must not.
import {
  init,
  instantiate,
  sinusoidal,
  sinusoidalAt,
  addSinusoidal,
  addTable,
  alloc,
  alibiSlopes,
  alibiBias,
  readTable,
  resampleTable,
  rope,
  ropeFrequencies,
  fromConfig,
  createRope,
  ropeCosSin,
  ropeQK,
  PosencError,
  WasmBuffer,
  roundToBits,
  bitsToFloat32,
  readNpy,
  type Layout,
  type Frequencies,
  type Preset,
  type PosencErrorCode,
  t5Buckets,
  t5Bias,
  shawIndices,
  type T5BucketsOptions,
} from 'posenc';

async function main(): Promise<void> {
  const { simd }: { simd: boolean } = await init();
  const pe: Float32Array = sinusoidal({ length: 10, dim: 4 });
  const layout: Layout = 'split';
  const frequencies: Frequencies = 'tensor2tensor';
  const preset: Preset = 'fairseq';
  sinusoidal({ length: 10, dim: 4, base: 10, offset: 2, layout, frequencies });
  sinusoidal({ length: 10, dim: 4, preset, out: new Float32Array(40) });
  const buffer: WasmBuffer = alloc(40);
  const same: WasmBuffer = sinusoidal({ length: 10, dim: 4, out: buffer });
  const rows: Float32Array = sinusoidalAt([3, 7], { dim: 4 });
  const x: Float32Array = addSinusoidal(new Float32Array(80), { length: 10, dim: 4, scale: Math.sqrt(4) });
  addTable(x, pe, { length: 10, dim: 4, offset: 0 });
  const slopes: Float32Array = alibiSlopes(12);
  alibiBias({ heads: 12, queryLength: 4, keyLength: 9, causal: true });
  const read = readTable(new Uint8Array(0), { name: 'model.embed_positions.weight' });
  resampleTable(read.table, { dim: read.dim, newRows: 2 * read.rows });
  const q: Float32Array = rope(new Float32Array(2 * 4 * 8), {
    length: 2,
    heads: 4,
    headDim: 8,
    layout: 'interleaved',
    scaling: {
      rope_type: 'llama3',
      factor: 8,
      low_freq_factor: 1,
      high_freq_factor: 4,
      original_max_position_embeddings: 8192,
    },
  });
  const scaled = ropeFrequencies({ headDim: 8, scaling: { rope_type: 'linear', factor: 2 } });
  const plan = createRope({ heads: 4, headDim: 8, maxPosition: 4096 });
  const k: Float32Array = plan.apply(new Float32Array(4 * 8), { offset: 100 });
  plan.apply(new Uint16Array(2 * 4 * 8), { positionIds: BigInt64Array.of(5n, 9n), length: 1, dtype: 'bfloat16' });
  const caches = ropeCosSin({ headDim: 8, length: 16, dtype: 'float16', expand: true });
  rope(new Float32Array(2 * 2 * 8), {
    headDim: 8,
    heads: 2,
    mropeSection: [1, 1, 2],
    positions: [
      [0, 5],
      [0, 2],
      [0, 3],
    ],
  });
  rope(new Float32Array(2 * 8), { headDim: 8, heads: 1, vision: true, positionIds: [[[0, 1]], [[1, 0]]] });
  const visionCaches: { cos: Float64Array } = ropeCosSin({
    headDim: 8,
    vision: true,
    positions: [[0], [1]],
    dtype: 'float64',
  });
  const decayed: Float32Array = ropeCosSin({ headDim: 8, length: 4, xpos: { role: 'key', center: 2 } }).cos;
  const xq = createRope({
    heads: 4,
    headDim: 8,
    layout: 'interleaved',
    xpos: { scaleBase: 512, gamma: 0.4, role: 'query' },
  });
  xq.apply(new Float32Array(4 * 8), { offset: 3 });
  xq.free();
  // @ts-expect-error role is required
  rope(new Float32Array(8), { heads: 1, headDim: 8, xpos: { scaleBase: 512 } });
  // @ts-expect-error role is 'query' or 'key'
  rope(new Float32Array(8), { heads: 1, headDim: 8, xpos: { role: 'keys' } });
  void decayed;
  const cosBits: Uint16Array = caches.cos;
  const inv: Float64Array = plan.frequencies;
  const f32: Float32Array = plan.cosSin({ positions: [1, 2] }).sin;
  plan.free();
  (void k, cosBits, inv, f32);
  const w: Float64Array = scaled.frequencies;
  const llama = { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, rope_theta: 500000 };
  const fromModel: Float64Array = ropeFrequencies({ config: llama, length: 9000 }).frequencies;
  rope(new Float32Array(32 * 128), { config: llama, length: 1, offset: 7 });
  rope(new Float32Array(4 * 128), {
    config: '{"model_type": "gemma3_text"}',
    layerType: 'sliding_attention',
    heads: 4,
    length: 1,
  });
  // @ts-expect-error: config sets headDim; both is refused
  ropeFrequencies({ config: llama, headDim: 128 });
  const described = fromConfig(llama);
  if (described.kind === 'alibi') {
    const m: Float32Array = described.slopes;
  }
  if (described.kind === 'rope' && 'rope' in described) {
    const r: number = described.rope.rotaryDim;
  }
  const ignoredKeys: string[] = described.ignored;
  console.log(q, w, scaled.attentionFactor + 1);
  const t5Options: T5BucketsOptions = {
    queryLength: 4,
    keyLength: 9,
    numBuckets: 32,
    maxDistance: 128,
    bidirectional: false,
  };
  const buckets: Int32Array = t5Buckets(t5Options);
  const t5: Float32Array = t5Bias({ queryLength: 4, table: new Float32Array(32 * 12), heads: 12 });
  const t5InWasm: WasmBuffer = t5Bias({ queryLength: 4, table: new Float32Array(32 * 12), out: alloc(12 * 16) });
  const shaw: Int32Array = shawIndices({ queryLength: 4, maxRelative: 2, offset: 0, out: new Int32Array(16) });
  console.log(buckets, t5, t5InWasm, shaw);
  // @ts-expect-error: Shaw's k is required
  shawIndices({ queryLength: 4 });
  // @ts-expect-error: t5Bias needs its learned table
  t5Bias({ queryLength: 4 });
  // @ts-expect-error: bucket outputs are Int32Array
  t5Buckets({ queryLength: 4, out: new Float32Array(16) });
  const other = await instantiate({ simd: false });
  other.t5Buckets({ queryLength: 2 });
  other.sinusoidal({ length: 1, dim: 2 });
  same.free();
  try {
    sinusoidal({ length: 1, dim: 3 });
  } catch (error) {
    if (error instanceof PosencError) {
      const code: PosencErrorCode = error.code;
      const relativeCode: PosencErrorCode = 'BAD_BUCKETS';
      console.log(relativeCode);
      console.log(code, error.argument, simd, rows, slopes);
    }
  }
  // The pairing is one idea: 'half' is another name of 'split' in both families.
  sinusoidal({ length: 1, dim: 2, layout: 'half' });
  rope(new Float32Array(8), { length: 1, heads: 1, headDim: 8, layout: 'split', positions: new Int32Array([3]) });
  const bits: Uint16Array = sinusoidal({ length: 2, dim: 4, dtype: 'bfloat16' });
  const values: Float32Array = bitsToFloat32(roundToBits([0.5, 1 / 3], { dtype: 'float16' }), { dtype: 'float16' });
  const fileCodes: PosencErrorCode[] = ['BAD_FILE_ORDER', 'BAD_FILE_DTYPE', 'BAD_ORDER', 'BAD_DTYPE', 'CORE_STATUS'];
  console.log(bits, values, fileCodes, readNpy(new ArrayBuffer(0)).rows);
  // @ts-expect-error: not an error code
  const noCode: PosencErrorCode = 'BAD_FILE_LAYOUT';
  // @ts-expect-error: positions are an Array or a typed array, not any array-like (the runtime refuses those)
  sinusoidalAt({ length: 1, 0: 3 }, { dim: 2 });
  // @ts-expect-error: RoPE positions cannot be a WasmBuffer (sinusoidalAt's can)
  rope(new Float32Array(8), { length: 1, heads: 1, headDim: 8, positions: buffer });
  // @ts-expect-error: roundToBits takes an Array, Float64Array or Float32Array
  roundToBits({ length: 1, 0: 0.5 }, { dtype: 'float16' });
  // @ts-expect-error: the 16-bit table's out is a Uint16Array
  sinusoidal({ length: 1, dim: 2, dtype: 'float16', out: new Float32Array(2) });
  console.log(noCode);
  // @ts-expect-error: layout is 'interleaved' or 'split' (or 'half')
  sinusoidal({ length: 1, dim: 2, layout: 'halves' });
  // @ts-expect-error: an unknown preset
  sinusoidal({ length: 1, dim: 2, preset: 'bert' });
  // @ts-expect-error: length is required
  sinusoidal({ dim: 2 });
  // @ts-expect-error: positions are numbers
  sinusoidalAt(['a'], { dim: 2 });
}

void main();

// Issue 22: grouped-query attention, tensors as engines hold them, ALiBi slices.
async function gqaAndTensors(): Promise<void> {
  await init();
  const config = { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8 };
  const plan = createRope({ config, maxPosition: 8192 });
  const kvHeads: number = plan.kvHeads;
  const explicit = createRope({ heads: 32, kvHeads: 8, headDim: 128, base: 500000 });
  const k: Float32Array = explicit.apply(new Float32Array(8 * 128), { offset: 7, heads: 8 });
  const pair: { q: Float32Array; k: Float32Array } = plan.applyQK(new Float32Array(32 * 128), k, { offset: 7 });
  const ort = { data: new Float32Array(8 * 128), dims: [1, 1, 8, 128] as readonly number[], type: 'float32' as const };
  const same: typeof ort = plan.apply(ort, {
    positionIds: { data: BigInt64Array.of(7n), dims: [1, 1], type: 'int64' },
  });
  const out = plan.apply(new Float32Array(8 * 128), { offset: 7, heads: 8, as: 'tensor' });
  const dims: number[] = out.dims;
  const t: Float32Array = rope(
    { data: new Float32Array(64), dims: [1, 2, 4, 8], type: 'float32' as const },
    { offset: 3 },
  ).data;
  ropeQK(new Float32Array(4 * 8), new Float32Array(2 * 8), { heads: 4, kvHeads: 2, headDim: 8, offset: 1 });
  const caches = plan.cosSin({ length: 4, dtype: 'float16', as: 'tensor' });
  const cacheType: string = caches.cos.type;
  const bias = alibiBias({ heads: 32, queryLength: 4, headStart: 8, headCount: 8, as: 'tensor' });
  const biasDims: number[] = bias.dims;
  const into = { data: new Float32Array(8 * 16), dims: [8, 4, 4], type: 'float32' as const };
  const sameOut: typeof into = alibiBias({ heads: 32, queryLength: 4, headStart: 8, headCount: 8, out: into });
  const d = fromConfig(config);
  const fromKv: number | undefined = d.kvHeads;
  // @ts-expect-error applyQK takes no per-call heads (q has the plan's heads, k its kvHeads)
  plan.applyQK(new Float32Array(32 * 128), k, { heads: 8 });
  // @ts-expect-error float16 output is 'bits', 'Float16Array' or 'auto'
  ropeCosSin({ headDim: 8, length: 2, dtype: 'float16', float16: 'half' });
  void [kvHeads, pair, same, dims, t, cacheType, biasDims, sameOut, fromKv];
}
void gqaAndTensors;
