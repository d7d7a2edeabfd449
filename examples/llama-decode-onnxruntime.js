// Llama 3.1 8B's rotary step on onnxruntime-web, fed by posenc's cos/sin caches,
// and on posenc alone: a 12-token prompt, then 6 decoded tokens, with grouped-query
// attention (32 query heads, 8 key heads of 128) and the llama3 rope_scaling, all
// read from the model's config.json. The graph is two com.microsoft
// RotaryEmbedding nodes (onnx-graph.js); posenc rotates the same q and k tensors
// with the plan an engine keeps. Exits 1 unless every element of every step is
// the same float32 in both.
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import { init, createRope } from 'posenc';
import { rotaryStepModel } from './onnx-graph.js';

await init();
ort.env.wasm.numThreads = 1; // one small graph: no worker threads
const config = JSON.parse(readFileSync(new URL('./configs/Llama-3.1-8B.json', import.meta.url), 'utf8'));

// One plan for q and k: 32 heads and 8 key heads (num_key_value_heads), head_dim 128, base 500000, llama3.
const maxPosition = 8192; // the positions the engine's caches hold
const rotary = createRope({ config, maxPosition });
const { heads, kvHeads, headDim } = rotary;
// The caches the engine stores in its model: (8192, 64) each, float32.
const { cos, sin } = rotary.cosSin({ length: maxPosition });
const session = await ort.InferenceSession.create(rotaryStepModel({ qHeads: heads, kvHeads, headDim, cos, sin }));

let seed = 22; // q and k: seeded values in [-4, 4), as a projection gives
const random = (n) =>
  Float32Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 8 - 4);

/** One step: `length` tokens at positions offset …, through ORT and through posenc; returns the differing elements. */
async function step(offset, length) {
  const q = new ort.Tensor('float32', random(length * heads * headDim), [1, length, heads * headDim]);
  const k = new ort.Tensor('float32', random(length * kvHeads * headDim), [1, length, kvHeads * headDim]);
  const ids = BigInt64Array.from({ length }, (_, l) => BigInt(offset + l));
  const position_ids = new ort.Tensor('int64', ids, [1, length]);
  const out = await session.run({ q, k, position_ids });
  const moved = out.q_rotated.data.some((v, i) => v !== q.data[i]); // ORT rotated something
  rotary.applyQK(q, k, { positionIds: position_ids }); // posenc, in place: heads from the tensors' dims
  const bits = (t) => new Uint32Array(t.data.buffer, t.data.byteOffset, t.data.length);
  const [oq, ok, pq, pk] = [out.q_rotated, out.k_rotated, q, k].map(bits);
  const differing = oq.filter((v, i) => v !== pq[i]).length + ok.filter((v, i) => v !== pk[i]).length;
  if (offset + length > 1 && !moved) throw new Error(`step at ${offset}: onnxruntime left q as it was`);
  return { elements: q.data.length + k.data.length, differing };
}

const prompt = 12; // prefill: positions 0 … 11; then one token at a time up to position 17
const steps = [[0, prompt]];
for (let p = prompt; p < prompt + 6; p++) steps.push([p, 1]);
let elements = 0;
let differing = 0;
for (const [offset, length] of steps) {
  const r = await step(offset, length);
  elements += r.elements;
  differing += r.differing;
}
rotary.free();
console.log(
  `onnxruntime-web ${ort.env.versions.web}: ${elements} rotated elements of q (${heads} heads) and k ` +
    `(${kvHeads} heads), ${differing} differ from posenc`,
);
if (differing !== 0) process.exit(1);
