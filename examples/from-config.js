// fromConfig on models' config.json files as they ship (examples/configs/): which
// position scheme each uses and its settings, read the way HF transformers reads
// them, then handed to the call that computes it. The expected values are worked
// out here by hand from HF's rules (head_dim = hidden_size / heads, the defaults
// of each model's config class). Exits 1 on any mismatch.
import { readFileSync } from 'node:fs';
import { init, fromConfig, ropeFrequencies, alibiSlopes, t5Buckets } from 'posenc';

await init();
const read = (name) => readFileSync(new URL(`./configs/${name}.json`, import.meta.url), 'utf8');
const failures = [];
const expect = (ok, message) => ok || failures.push(message);

const expected = {
  'Llama-3.1-8B': { kind: 'rope', heads: 32, kvHeads: 8, headDim: 4096 / 32, base: 500000, type: 'llama3' },
  'Qwen2-VL-7B-Instruct': { kind: 'rope', heads: 28, kvHeads: 4, headDim: 3584 / 28, base: 1e6, type: 'default' },
  // multi_query: one key head (MQA); rope_theta: FalconConfig's default.
  'falcon-7b': { kind: 'rope', heads: 71, kvHeads: 1, headDim: 4544 / 71, base: 10000, type: null },
  'bloom-560m': { kind: 'alibi', heads: 16, kvHeads: 16, inert: ['offset_alibi'] }, // a training setting HF never reads
  't5-base': { kind: 'relative', heads: 12, kvHeads: 12, numBuckets: 32, maxDistance: 128 }, // T5Config's distance
  gpt2: { kind: 'learned', heads: 12, kvHeads: 12, maxPositions: 1024, dim: 768 },
};

for (const [name, want] of Object.entries(expected)) {
  const config = read(name); // the text, or JSON.parse of it
  const found = fromConfig(config);
  const { kind, heads, kvHeads } = found;
  expect(
    kind === want.kind && heads === want.heads && kvHeads === want.kvHeads,
    `${name}: ${kind}, ${heads}/${kvHeads}`,
  );
  // ignored: the keys not read. Those about positions are only the ones HF does not read either.
  const positional = found.ignored.filter((key) => /rope|rotary|alibi|position/.test(key));
  expect(positional.join() === (want.inert ?? []).join(), `${name}: ignored ${positional}`);
  let uses;
  if (found.kind === 'rope') {
    const { headDim, base, scaling } = found.rope;
    const type = scaling && scaling.rope_type;
    expect(
      headDim === want.headDim && base === want.base && (type ?? null) === want.type,
      `${name}: ${headDim}, ${base}, ${type}`,
    );
    // The config works in place of headDim, base and scaling: w_0 = 1 (unscaled by llama3), w_63 the lowest.
    const { frequencies } = ropeFrequencies({ config });
    expect(frequencies[0] === 1, `${name}: w_0 = ${frequencies[0]}`);
    uses = `RoPE, head_dim ${headDim}, base ${base}, ${type ?? 'no'} scaling, w_${headDim / 2 - 1} = ${frequencies.at(-1).toExponential(3)}`;
  } else if (found.kind === 'alibi') {
    const slopes = alibiSlopes(found.heads);
    expect(
      slopes.every((s, h) => s === found.slopes[h]),
      `${name}: the slopes differ from alibiSlopes`,
    );
    uses = `ALiBi, ${found.heads} heads, slopes ${slopes[0]} … ${slopes.at(-1)}`;
  } else if (found.kind === 'relative') {
    const { numBuckets, maxDistance } = found;
    expect(
      numBuckets === want.numBuckets && maxDistance === want.maxDistance,
      `${name}: ${numBuckets}, ${maxDistance}`,
    );
    const buckets = t5Buckets({ queryLength: 1, keyLength: 1000, numBuckets, maxDistance }); // keys behind the query
    uses = `T5 buckets, ${numBuckets} up to distance ${maxDistance}: distance 999 in bucket ${buckets[0]}`;
  } else {
    expect(
      found.maxPositions === want.maxPositions && found.dim === want.dim,
      `${name}: ${found.maxPositions} × ${found.dim}`,
    );
    uses = `a learned table of ${found.maxPositions} × ${found.dim}, rows from ${found.positionOffset}`;
  }
  console.log(`${name}: ${uses}; ${heads} heads, ${kvHeads} key/value heads`);
}
for (const failure of failures) console.error(failure);
if (failures.length > 0) process.exit(1);
