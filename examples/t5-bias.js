// T5's relative position bias (t5-base: 32 buckets up to distance 128, 12
// heads) as the encoder and the decoder add it to their attention scores:
// posenc's t5Bias gathers the layer's learned relative_attention_bias.weight
// (32 × 12) by bucket. Each value is checked against T5's own
// _relative_position_bucket, transcribed here with its float32 arithmetic, for a
// 300-token encoder input (distances past 128 share the last bucket) and one
// decoder step over 300 cached keys. Exits 1 on any mismatch.
import { readFileSync } from 'node:fs';
import { init, fromConfig, t5Bias } from 'posenc';

await init();
const config = JSON.parse(readFileSync(new URL('./configs/t5-base.json', import.meta.url), 'utf8'));
const { kind, scheme, numBuckets, maxDistance, heads } = fromConfig(config); // relative, t5, 32, 128, 12
const failures = [];
const expect = (ok, message) => ok || failures.push(message);
expect(kind === 'relative' && scheme === 't5', `t5-base reads as ${kind} ${scheme}`);

// The layer's relative_attention_bias.weight: one learned value per (bucket, head), here seeded.
let seed = 5;
const table = Float32Array.from({ length: numBuckets * heads }, () => (seed = (seed * 48271) % 2147483647) / 2 ** 31);

/** HF's T5Attention._relative_position_bucket for r = key − query, float32 where T5 computes in float32. */
function bucket(r, bidirectional) {
  const f = Math.fround;
  let buckets = numBuckets,
    result = 0,
    n;
  if (bidirectional) {
    buckets /= 2;
    if (r > 0) result += buckets;
    n = Math.abs(r);
  } else n = -Math.min(r, 0);
  const exact = buckets / 2;
  if (n < exact) return result + n;
  const scaled = f(f(f(Math.log(f(n / exact))) / f(Math.log(maxDistance / exact))) * (buckets - exact));
  return result + Math.min(exact + Math.trunc(scaled), buckets - 1);
}

function check(label, bias, queryLength, keyLength, bidirectional) {
  const offset = keyLength - queryLength; // the last query on the last key
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < queryLength; i++)
      for (let j = 0; j < keyLength; j++) {
        const want = table[bucket(j - (offset + i), bidirectional) * heads + h];
        const value = bias[(h * queryLength + i) * keyLength + j];
        if (value !== want) return expect(false, `${label}[${h}, ${i}, ${j}] = ${value}, want ${want}`);
      }
}

// Encoder: 300 tokens, both directions. Scores are q·kᵀ + bias (T5 does not scale by √d).
const length = 300;
const encoder = t5Bias({ queryLength: length, table, heads, numBuckets, maxDistance }); // (12, 300, 300)
check('encoder', encoder, length, length, true);
// Decoder: one new token over 300 cached keys, keys ahead all in bucket 0.
const decoder = t5Bias({
  queryLength: 1,
  keyLength: length,
  table,
  heads,
  numBuckets,
  maxDistance,
  bidirectional: false,
});
check('decoder', decoder, 1, length, false);

console.log(
  `T5 bias: ${heads} heads, ${numBuckets} buckets up to ${maxDistance}, encoder ${length}², one decoder step`,
);
for (const failure of failures.slice(0, 5)) console.error(failure);
if (failures.length > 0) process.exit(1);
