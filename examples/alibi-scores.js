// ALiBi in BLOOM-560m's attention: the bias added to the scores q·k/√d before
// the softmax, for a 6-token causal prefill and then one decode step over the
// KV cache. The slopes are checked against the paper's get_slopes, written out
// here, each bias value against −slope·distance, the mask against causality,
// and the softmax against HF BLOOM's own form of the bias (+slope·j, which
// differs by a constant per row), and a tensor-parallel shard of heads
// against the whole. Exits 1 on any mismatch.
import { readFileSync } from 'node:fs';
import { init, fromConfig, alibiBias } from 'posenc';

await init();
const config = JSON.parse(readFileSync(new URL('./configs/bloom-560m.json', import.meta.url), 'utf8'));
const { kind, heads, slopes, hiddenSize } = fromConfig(config); // 'alibi', 16 heads
const headDim = hiddenSize / heads; // 64
const failures = [];
const expect = (ok, message) => ok || failures.push(message);
expect(kind === 'alibi', `BLOOM's config reads as ${kind}`);

// The paper's get_slopes for a power of two: 2^(−8/n), its powers (16 heads: 2^−0.5, 2^−1, …, 2^−8).
for (let h = 0; h < heads; h++) expect(slopes[h] === Math.fround(2 ** ((-8 * (h + 1)) / heads)), `slope ${h}`);

let seed = 560;
const random = (n) =>
  Float32Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1);

/** Attention weights (heads, queries, keys) of q (queries, heads, headDim) over k (keys, heads, headDim), bias added. */
function attention(q, k, queries, keys, bias) {
  const weights = new Float32Array(heads * queries * keys);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < queries; i++) {
      const row = weights.subarray((h * queries + i) * keys, (h * queries + i + 1) * keys);
      for (let j = 0; j < keys; j++) {
        let dot = 0;
        for (let e = 0; e < headDim; e++) dot += q[(i * heads + h) * headDim + e] * k[(j * heads + h) * headDim + e];
        row[j] = dot / Math.sqrt(headDim) + bias(h, i, j);
      }
      const max = Math.max(...row);
      let sum = 0;
      for (let j = 0; j < keys; j++) sum += row[j] = Math.exp(row[j] - max);
      for (let j = 0; j < keys; j++) row[j] /= sum;
    }
  return weights;
}

// Prefill: 6 tokens, causal.
const length = 6;
const q = random(length * heads * headDim),
  k = random(length * heads * headDim);
const bias = alibiBias({ heads, queryLength: length, causal: true }); // (16, 6, 6)
for (let h = 0; h < heads; h++)
  for (let i = 0; i < length; i++)
    for (let j = 0; j < length; j++) {
      const value = bias[(h * length + i) * length + j];
      const want = j > i ? -Infinity : Math.fround(0 - slopes[h] * (i - j)); // +0 on the diagonal;
      expect(Object.is(value, want), `bias[${h}, ${i}, ${j}] = ${value}, want ${want}`);
    }
const weights = attention(q, k, length, length, (h, i, j) => bias[(h * length + i) * length + j]);
// HF BLOOM: +slope·j on every key, and a causal mask. The same softmax.
const bloom = attention(q, k, length, length, (h, i, j) => (j > i ? -Infinity : slopes[h] * j));
let largest = 0;
for (let n = 0; n < weights.length; n++) largest = Math.max(largest, Math.abs(weights[n] - bloom[n]));
expect(largest < 1e-6, `posenc's bias and HF BLOOM's give weights ${largest} apart`);
expect(
  weights.every((w, n) => n % length <= Math.floor(n / length) % length || w === 0),
  'a future key has weight',
);

// Decode: token 7 attends to the 6 cached keys and itself; the default offset puts it on the last key.
const step = alibiBias({ heads, queryLength: 1, keyLength: length + 1 }); // (16, 1, 7)
const full = alibiBias({ heads, queryLength: length + 1, causal: true });
for (let h = 0; h < heads; h++)
  for (let j = 0; j <= length; j++)
    expect(step[h * (length + 1) + j] === full[(h * (length + 1) + length) * (length + 1) + j], `step ${h}, ${j}`);

// Tensor parallelism: a device holding heads 4 … 7 computes only their bias, with the slopes of all 16.
const shard = alibiBias({ heads, queryLength: length, causal: true, headStart: 4, headCount: 4 }); // (4, 6, 6)
expect(
  shard.length === 4 * length * length && shard.every((v, n) => Object.is(v, bias[4 * length * length + n])),
  'the shard is not heads 4 … 7 of the whole bias',
);

console.log(
  `ALiBi: ${heads} heads, slopes ${slopes[0]} … ${slopes[heads - 1]}; weights within ${largest.toExponential(1)} of HF BLOOM's form`,
);
for (const failure of failures.slice(0, 5)) console.error(failure);
if (failures.length > 0) process.exit(1);
