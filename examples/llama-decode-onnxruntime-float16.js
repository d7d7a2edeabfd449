// The same Llama 3.1 8B rotary step in float16, as engines run it on the web:
// q, k and the cos/sin caches in float16. onnxruntime's RotaryEmbedding rotates
// with the caches it is given, rounded to float16; posenc's rope rotates with
// float32 cos and sin. Both widen x to float32, rotate and round once, so the
// results differ where the cache's rounding moves the float32 result across a
// float16 rounding boundary. This example measures how often, and checks the
// explanation: ORT's output is exactly the float32 rotation by float16-rounded
// caches, posenc's exactly the one by float32 caches, and posenc's is the
// closer to the exact rotation. Exits 1 when any of that fails.
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import { init, createRope, roundToBits, bitsToFloat32 } from 'posenc';
import { rotaryStepModel, FLOAT16 } from './onnx-graph.js';

await init();
ort.env.wasm.numThreads = 1;
const config = JSON.parse(readFileSync(new URL('./configs/Llama-3.1-8B.json', import.meta.url), 'utf8'));
const maxPosition = 8192;
const rotary = createRope({ config, maxPosition }); // q: 32 heads, k: 8, head_dim 128
const { heads, kvHeads, headDim } = rotary;
const half = headDim / 2;
const cache16 = rotary.cosSin({ length: maxPosition, dtype: 'float16' }); // what the model stores
const session = await ort.InferenceSession.create(
  rotaryStepModel({ qHeads: heads, kvHeads, headDim, cos: cache16.cos, sin: cache16.sin, type: FLOAT16 }),
);

let seed = 16;
const random = (n) =>
  roundToBits(
    Float64Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 8 - 4),
    { dtype: 'float16' },
  );
const f16 = (bits) => bitsToFloat32(bits, { dtype: 'float16' });

/** x (rows, h, headDim) rotated at positions offset … by caches (positions, half) in float32, rounded once. */
function rotateWith(x, h, offset, cos, sin) {
  const xf = f16(x),
    out = new Float32Array(x.length),
    f = Math.fround;
  for (let at = 0; at < x.length; at += headDim) {
    const row = offset + Math.floor(at / (h * headDim));
    for (let i = 0; i < half; i++) {
      const c = cos[row * half + i],
        s = sin[row * half + i],
        x1 = xf[at + i],
        x2 = xf[at + i + half];
      out[at + i] = f(f(x1 * c) - f(x2 * s)); // HF's order: x·cos + rotate_half(x)·sin
      out[at + i + half] = f(f(x2 * c) + f(x1 * s));
    }
  }
  return roundToBits(out, { dtype: 'float16' });
}

/** The rotation in float64 with cos and sin within 1e-12 of exact: the reference both are measured against. */
function rotateExactly(x, h, offset) {
  const xf = f16(x),
    out = new Float64Array(x.length),
    { cos, sin } = caches.exact;
  for (let at = 0; at < x.length; at += headDim) {
    const row = offset + Math.floor(at / (h * headDim));
    for (let i = 0; i < half; i++) {
      const c = cos[row * half + i],
        s = sin[row * half + i],
        x1 = xf[at + i],
        x2 = xf[at + i + half];
      out[at + i] = x1 * c - x2 * s;
      out[at + i + half] = x2 * c + x1 * s;
    }
  }
  return out;
}

const caches = {
  float16: { cos: f16(cache16.cos), sin: f16(cache16.sin) },
  float32: rotary.cosSin({ length: maxPosition }),
  exact: rotary.cosSin({ length: maxPosition, dtype: 'float64' }),
};
const ordered = (h) => (h & 0x8000 ? -(h & 0x7fff) : h); // float16 bits as integers in value order
const ulps = (a, b) => Math.abs(ordered(a) - ordered(b));
const tally = { elements: 0, differing: 0, oneUlp: 0, posencNearer: 0, pairUlps: 0, failures: [] };
/** A float16 ulp at v's magnitude (normal range). */
const ulpOf = (v) => 2 ** (Math.floor(Math.log2(Math.abs(v))) - 10);

async function step(offset, length) {
  const q = random(length * heads * headDim),
    k = random(length * kvHeads * headDim);
  const out = await session.run({
    q: new ort.Tensor('float16', q, [1, length, heads * headDim]),
    k: new ort.Tensor('float16', k, [1, length, kvHeads * headDim]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from({ length }, (_, l) => BigInt(offset + l)),
      [1, length],
    ),
  });
  for (const [x, h, ortOut] of [
    [q, heads, out.q_rotated.data],
    [k, kvHeads, out.k_rotated.data],
  ]) {
    const byFloat16Caches = rotateWith(x, h, offset, caches.float16.cos, caches.float16.sin);
    const byFloat32Caches = rotateWith(x, h, offset, caches.float32.cos, caches.float32.sin);
    const exact = rotateExactly(x, h, offset);
    const mine = rotary.apply(x.slice(), { heads: h, offset, length, dtype: 'float16' }); // x holds h heads
    for (let i = 0; i < x.length; i++) {
      tally.elements++;
      if (ortOut[i] !== byFloat16Caches[i])
        tally.failures.push(`ORT at ${offset}+${i} is not the rotation by float16 caches`);
      if (mine[i] !== byFloat32Caches[i])
        tally.failures.push(`posenc at ${offset}+${i} is not the rotation by float32 caches`);
      if (ortOut[i] === mine[i]) continue;
      tally.differing++;
      if (ulps(ortOut[i], mine[i]) === 1) tally.oneUlp++;
      const [ortValue, posencValue] = f16(Uint16Array.of(ortOut[i], mine[i]));
      if (Math.abs(posencValue - exact[i]) < Math.abs(ortValue - exact[i])) tally.posencNearer++;
      const partner = i % headDim < half ? i + half : i - half; // the element x[i] rotates with
      const larger = Math.max(...f16(Uint16Array.of(x[i], x[partner])).map(Math.abs));
      tally.pairUlps = Math.max(tally.pairUlps, Math.abs(ortValue - posencValue) / ulpOf(larger));
    }
  }
}

// A conversation's second turn: 3840 tokens already in the KV cache, a 256-token message, 8 tokens decoded.
const past = 3840,
  message = 256,
  decoded = 8;
await step(past, message);
for (let t = 0; t < decoded; t++) await step(past + message + t, 1);
rotary.free();

const percent = (n, of) => `${((100 * n) / of).toFixed(1)}%`;
console.log(
  `float16: ${tally.elements} elements, ${tally.differing} (${percent(tally.differing, tally.elements)}) differ ` +
    `between onnxruntime-web and posenc, ${percent(tally.oneUlp, tally.differing)} of them by one float16 ulp; ` +
    `posenc's is the nearer to the exact rotation in all but ${tally.differing - tally.posencNearer} of them; ` +
    `at most ${tally.pairUlps} ulp of the pair's larger input apart`,
);
for (const failure of tally.failures.slice(0, 5)) console.error(failure);
if (tally.failures.length > 0 || tally.differing === 0 || tally.posencNearer < tally.differing / 2) process.exit(1);
