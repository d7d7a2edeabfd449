// The runners of the RoPE and ALiBi bench (bench/rope-run.js): decoding one
// token, prefill, and the ALiBi bias, each beside its limit (a wasm SIMD loop
// that applies the rotation with the cos/sin cache given, bench/limits.c; a
// wasm memory.fill of the bias's bytes) and the plain-JS ports engines use.
// Plain ESM with no Node imports, so the browser page runs the same runners.
import { limitCases } from './limit-cases.js';

export const DECODE = { kind: 'decode', heads: 32, dim: 128, start: 100000 };
export const PREFILL = { kind: 'prefill', length: 2048, heads: 32, dim: 128 };
export const ALIBI = { kind: 'alibi', heads: 32, queryLength: 2048, keyLength: 2048 };
// The same work at sizes that fit in L2 (issue 29: where memory is fast, or the data is in cache, compute
// shows): x of 16 tokens (256 KiB float32, 128 KiB 16-bit), the bias of 4 heads of 128 × 128 (256 KiB).
export const PREFILL_IN_CACHE = { ...PREFILL, length: 16, inCache: true };
export const ALIBI_IN_CACHE = { ...ALIBI, heads: 4, queryLength: 128, keyLength: 128, inCache: true };
/** A result row of one runner on one job (in-cache jobs marked, their kind the same). */
export const jobRow = (impl, job, stats) => ({
  impl,
  kind: job.kind,
  ...(job.inCache ? { in_cache: true } : {}),
  ...stats,
});
/** Whether a row is of this job: its kind, and in cache or not. */
export const ofJob = (row, job) => row.kind === job.kind && !!row.in_cache === !!job.inCache;
const CACHE_ROWS = 4096; // decode walks through this many precomputed positions, then wraps
// Prefill's shape is Llama-2-7B's (32 heads of 128); its config's max_position_embeddings, which an engine
// gives createRope as maxPosition, so that plan caches cos/sin for positions 0 ... 4095 by default.
const MAX_POSITION = 4096;
/** Prefill's headline row: the plan as an engine makes it. */
export const ENGINE_PLAN = `plan, maxPosition ${MAX_POSITION} (cos/sin cached), resident x`;
/** The plan without maxPosition: every call computes its tiles' cos/sin. */
export const COMPUTED_PLAN = 'plan, no maxPosition (cos/sin per call), resident x';
/** float16 x: the plan as the float32 row beside it (cos/sin per call), and with the cache as the floors have it. */
export const F16_PLAN = 'plan, float16 resident x';
export const F16_ENGINE_PLAN = `plan, maxPosition ${MAX_POSITION} (cos/sin cached), float16 resident x`;

/**
 * A job's time budget for its side-by-side rounds: prefill and the bias take a few ms to tens of ms a call,
 * and their medians are of memory-bound calls, so they get more rounds (at least MIN_RUNS either way); in
 * cache, their calls take µs and one budget holds all the rounds measure.js takes.
 */
export const jobBudget = (job, budgetMs) =>
  budgetMs * (job.inCache ? 1 : job.kind === 'alibi' ? 4 : job.kind === 'prefill' ? 3 : 1);

/** float32 cos/sin (rows, dim/2) of positions start ..., from Math.cos/sin in float64 (HF's precomputed cache). */
function cache(start, rows, dim) {
  const half = dim / 2;
  const cos = new Float32Array(rows * half);
  const sin = new Float32Array(rows * half);
  for (let i = 0; i < half; i++) {
    const w = 10000 ** (-(2 * i) / dim);
    for (let l = 0; l < rows; l++) {
      cos[l * half + i] = Math.cos((start + l) * w);
      sin[l * half + i] = Math.sin((start + l) * w);
    }
  }
  return { cos, sin };
}

const filled = (n) => Float32Array.from({ length: n }, (_, k) => ((k * 7919) % 1000) / 500 - 1);

/** HF's apply_rotary_pos_emb ported as engines port it: rotate_half with the cache row of each token. */
function rotateHalf(x, cos, sin, rows, heads, dim, cacheRow) {
  const half = dim / 2;
  for (let l = 0; l < rows; l++) {
    const at = cacheRow(l) * half;
    for (let h = 0; h < heads; h++) {
      const o = (l * heads + h) * dim;
      for (let i = 0; i < half; i++) {
        const c = cos[at + i];
        const s = sin[at + i];
        const x1 = x[o + i];
        const x2 = x[o + half + i];
        x[o + i] = x1 * c - x2 * s;
        x[o + half + i] = x2 * c + x1 * s;
      }
    }
  }
}

/** The per-token loop: Math.cos and Math.sin of p·w_i every call. */
function perTokenLoop(x, position, heads, dim, inv) {
  const half = dim / 2;
  for (let i = 0; i < half; i++) {
    const a = position * inv[i];
    const c = Math.cos(a);
    const s = Math.sin(a);
    for (let h = 0; h < heads; h++) {
      const o = h * dim;
      const x1 = x[o + i];
      const x2 = x[o + half + i];
      x[o + i] = x1 * c - x2 * s;
      x[o + half + i] = x2 * c + x1 * s;
    }
  }
}

/** posenc's runners on one instance (the SIMD build unless told otherwise). */
export function posencCases(pe, label = 'SIMD') {
  const make = (name, kind, prepare) => ({ name: `posenc wasm ${label}, ${name}`, kind, speed: 'fast', prepare });
  return [
    make('plan, resident x', 'decode', ({ heads, dim, start }) => {
      const plan = pe.createRope({ heads, headDim: dim });
      const x = pe.alloc(heads * dim);
      x.array.set(filled(heads * dim));
      let p = start;
      return { run: () => plan.apply(x, { offset: p++ }), dispose: () => (x.free(), plan.free()) };
    }),
    make('plan, into JS array', 'decode', ({ heads, dim, start }) => {
      const plan = pe.createRope({ heads, headDim: dim });
      const x = filled(heads * dim);
      let p = start;
      return { run: () => plan.apply(x, { offset: p++ }), dispose: () => plan.free() };
    }),
    make('plan, BigInt64Array position ids, resident x', 'decode', ({ heads, dim, start }) => {
      const plan = pe.createRope({ heads, headDim: dim });
      const x = pe.alloc(heads * dim);
      x.array.set(filled(heads * dim));
      const ids = BigInt64Array.of(BigInt(start));
      return { run: () => (ids[0]++, plan.apply(x, { positionIds: ids })), dispose: () => (x.free(), plan.free()) };
    }),
    make('rope() one-shot, resident x', 'decode', ({ heads, dim, start }) => {
      const x = pe.alloc(heads * dim);
      x.array.set(filled(heads * dim));
      let p = start;
      return { run: () => pe.rope(x, { heads, headDim: dim, length: 1, offset: p++ }), dispose: () => x.free() };
    }),
    ...[
      ['float32', ENGINE_PLAN],
      ['float32', COMPUTED_PLAN],
      ['float16', F16_PLAN],
      ['float16', F16_ENGINE_PLAN],
      ['bfloat16', 'plan, bfloat16 resident x'],
    ].map(([dtype, name]) =>
      make(name, 'prefill', ({ length, heads, dim }) => {
        // An engine's plan knows max_position_embeddings, so caches cos/sin (4 MiB here); the others
        // leave maxPosition out and compute each tile's cos/sin per call.
        const plan = pe.createRope({
          heads,
          headDim: dim,
          ...(name === ENGINE_PLAN || name === F16_ENGINE_PLAN ? { maxPosition: MAX_POSITION } : {}),
        });
        const x = pe.alloc(length * heads * dim, { dtype });
        const values = filled(length * heads * dim);
        x.array.set(dtype === 'float32' ? values : values.map(() => 0x3c00));
        return { run: () => plan.apply(x, { length }), dispose: () => (x.free(), plan.free()) };
      }),
    ),
    make('plan, into JS array', 'prefill', ({ length, heads, dim }) => {
      const plan = pe.createRope({ heads, headDim: dim });
      const x = filled(length * heads * dim);
      return { run: () => plan.apply(x, { length }), dispose: () => plan.free() };
    }),
    make('alibiBias, resident', 'alibi', ({ heads, queryLength, keyLength }) => {
      const out = pe.alloc(heads * queryLength * keyLength);
      return { run: () => pe.alibiBias({ heads, queryLength, keyLength, out }), dispose: () => out.free() };
    }),
  ];
}

/** The float16 rotation's arithmetic floor: a reference row beside the float16 target. */
export const F16_FLOOR = 'wasm SIMD float16 rotation, cache given, nothing checked (floor)';
/** That floor plus the results' range test an exact in-place kernel cannot skip: the second reference row. */
export const F16_TESTED_FLOOR = 'wasm SIMD float16 rotation, cache given, results range-tested (floor)';

/** The limits: a wasm SIMD rotation with the cache given, and memory.fill for the ALiBi bias. */
export function limitRopeCases(instance) {
  const lib = instance.exports;
  const tables = limitCases(instance);
  const fill = tables.find((c) => c.name === 'wasm memory.fill (limit)');
  const store = tables.find((c) => c.name === 'wasm SIMD store loop (reference)');
  const alloc = (bytes) => lib.limits_alloc(bytes) >>> 0;
  const rotation = (job, rows, cacheRows) => {
    const { heads, dim } = job;
    const x = alloc(rows * heads * dim * 4);
    const cos = alloc(cacheRows * (dim / 2) * 4);
    const sin = alloc(cacheRows * (dim / 2) * 4);
    new Float32Array(lib.memory.buffer, x, rows * heads * dim).set(filled(rows * heads * dim));
    const c = cache(job.start ?? 0, cacheRows, dim);
    new Float32Array(lib.memory.buffer, cos, c.cos.length).set(c.cos);
    new Float32Array(lib.memory.buffer, sin, c.sin.length).set(c.sin);
    return { x, cos, sin, dispose: () => [x, cos, sin].forEach((p) => lib.limits_free(p)) };
  };
  const name = 'wasm SIMD rotation, cos/sin cache given (limit)';
  // x is turned forth and back on alternate calls (sin, then -sin), so it stays near its 1.0s: turned the same
  // way call after call, some values pass near zero, which the unchecked floor rounds wrongly (its x fills with
  // garbage) and the tested one leaves unwritten, a step skipped from then on.
  const f16Floor = (floorName, apply) => ({
    name: floorName,
    kind: 'prefill',
    speed: 'fast',
    prepare(job) {
      const { length, heads, dim } = job;
      const c = cache(0, length, dim);
      const sizes = [length * heads * dim * 2, c.cos.length * 4, c.sin.length * 4, c.sin.length * 4];
      const [x, cos, sin, minusSin] = sizes.map(alloc);
      new Uint16Array(lib.memory.buffer, x, length * heads * dim).fill(0x3c00); // 1.0, as posenc's row
      new Float32Array(lib.memory.buffer, cos, c.cos.length).set(c.cos);
      new Float32Array(lib.memory.buffer, sin, c.sin.length).set(c.sin);
      new Float32Array(lib.memory.buffer, minusSin, c.sin.length).set(c.sin.map((v) => -v));
      let back = false;
      return {
        run: () => apply(x, cos, (back = !back) ? sin : minusSin, length, heads, dim),
        dispose: () => [x, cos, sin, minusSin].forEach((p) => lib.limits_free(p)),
      };
    },
  });
  return [
    {
      name,
      kind: 'decode',
      speed: 'fast',
      limit: true,
      prepare(job) {
        const r = rotation(job, 1, CACHE_ROWS);
        const rowBytes = (job.dim / 2) * 4;
        let l = 0;
        return {
          run: () => {
            lib.limits_rope_apply(r.x, r.cos + l * rowBytes, r.sin + l * rowBytes, 1, job.heads, job.dim);
            l = (l + 1) % CACHE_ROWS;
          },
          dispose: r.dispose,
        };
      },
    },
    {
      name,
      kind: 'prefill',
      speed: 'fast',
      limit: true,
      prepare(job) {
        const r = rotation(job, job.length, job.length);
        return {
          run: () => lib.limits_rope_apply(r.x, r.cos, r.sin, job.length, job.heads, job.dim),
          dispose: r.dispose,
        };
      },
    },
    // Not limits: float16 x rotated with the cache given and every value taken to be a float16 normal,
    // nothing checked (bench/limits.c): the arithmetic floor under an exact float16 kernel; and that floor
    // with each step's results tested before x is written, as an exact kernel rotating in place must.
    f16Floor(F16_FLOOR, lib.limits_rope_apply_f16),
    f16Floor(F16_TESTED_FLOOR, lib.limits_rope_apply_f16_tested),
    {
      ...fill,
      kind: 'alibi',
      limit: true,
      prepare: ({ heads, queryLength, keyLength }) => fill.prepare({ length: heads * queryLength, dim: keyLength }),
    },
    // Not a limit: a constant written with v128.store and nothing computed, the floor under any wasm kernel
    // that writes the bias (memory.fill runs as one native memset, which v128 stores cannot match).
    {
      ...store,
      kind: 'alibi',
      prepare: ({ heads, queryLength, keyLength }) => store.prepare({ length: heads * queryLength, dim: keyLength }),
    },
  ];
}

/** Plain JavaScript: HF's rotate_half with a precomputed cache, and the per-token Math.cos/Math.sin loop. */
export function plainCases() {
  return [
    {
      name: 'plain JS, HF rotate_half with precomputed cache',
      kind: 'decode',
      speed: 'fast',
      prepare({ heads, dim, start }) {
        const { cos, sin } = cache(start, CACHE_ROWS, dim);
        const x = filled(heads * dim);
        let l = 0;
        return {
          run: () => {
            rotateHalf(x, cos, sin, 1, heads, dim, () => l);
            l = (l + 1) % CACHE_ROWS;
          },
        };
      },
    },
    {
      name: 'plain JS, per-token Math.cos/Math.sin loop',
      kind: 'decode',
      speed: 'fast',
      prepare({ heads, dim, start }) {
        const inv = Float64Array.from({ length: dim / 2 }, (_, i) => 10000 ** (-(2 * i) / dim));
        const x = filled(heads * dim);
        let p = start;
        return { run: () => perTokenLoop(x, p++, heads, dim, inv) };
      },
    },
    {
      name: 'plain JS, HF rotate_half with precomputed cache',
      kind: 'prefill',
      speed: 'slow',
      prepare({ length, heads, dim }) {
        const { cos, sin } = cache(0, length, dim);
        const x = filled(length * heads * dim);
        return { run: () => rotateHalf(x, cos, sin, length, heads, dim, (l) => l) };
      },
    },
  ];
}

/** tfjs (slices, mul, add: HF's formula as tensors), given its module; Node only. */
export function tfjsCases(tf, backend) {
  const rope = (x, cos, sin, half) =>
    tf.tidy(() => {
      const [x1, x2] = tf.split(x, 2, -1);
      const rotated = tf.concat([tf.neg(x2), x1], -1);
      const c = tf.concat([cos, cos], -1);
      const s = tf.concat([sin, sin], -1);
      return tf.add(tf.mul(x, c), tf.mul(rotated, s));
    });
  const make = (kind, rowsOf) => ({
    name: `tfjs ${backend} backend (slices, mul, add)`,
    kind,
    speed: 'slow',
    async prepare(job) {
      if (!(await tf.setBackend(backend))) throw new Error(`tfjs: backend ${backend} failed to load`);
      await tf.ready();
      const rows = rowsOf(job);
      const c = cache(job.start ?? 0, rows, job.dim);
      const x = tf.tensor(filled(rows * job.heads * job.dim), [rows, job.heads, job.dim]);
      const cos = tf.tensor(c.cos, [rows, 1, job.dim / 2]);
      const sin = tf.tensor(c.sin, [rows, 1, job.dim / 2]);
      return {
        run: () => {
          const y = rope(x, cos, sin);
          y.dataSync();
          y.dispose();
        },
        dispose: () => [x, cos, sin].forEach((t) => t.dispose()),
      };
    },
  });
  // Prefill on the cpu backend is left out: one call takes 10-15 s (the wasm backend's, 0.17 s).
  return backend === 'cpu' ? [make('decode', () => 1)] : [make('decode', () => 1), make('prefill', (j) => j.length)];
}
