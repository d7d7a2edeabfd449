// Relative position encodings through the package: T5's buckets against a
// transcription of T5's own code on every query/key pair tried (many shapes,
// bidirectional and causal, bucket counts, distances, offsets, seeded random
// shapes) and against bucket boundaries derived by hand; t5Bias against the
// table gathered by those buckets; Shaw's indices against the formula; every
// refusal, inputs untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, t5Buckets, t5Bias, shawIndices, PosencError } from '../src/js/index.js';
import { t5Grid } from './support/t5-reference.js';
import { expectRefusal } from './support/js-bits.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
console.log(`relative-buckets.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);
await init();
const MAX = 2 ** 31;

/** Every pair of t5Buckets(c) against the transcription; returns the pairs compared. */
function checkAgainstT5(c) {
  const got = t5Buckets(c);
  // The package's defaults, written out for the transcription: T5's 32 buckets, 128, bidirectional.
  const keyLength = c.keyLength ?? c.queryLength;
  const want = t5Grid({
    numBuckets: 32,
    maxDistance: 128,
    bidirectional: true,
    ...c,
    keyLength,
    offset: c.offset ?? keyLength - c.queryLength,
  });
  assert.is(got.length, want.length);
  for (let k = 0; k < got.length; k++) {
    if (got[k] !== want[k]) {
      assert.unreachable(
        `${JSON.stringify(c)}: row ${Math.floor(k / c.keyLength)}, key ${k % c.keyLength}: bucket ${got[k]}, T5's code gives ${want[k]}`,
      );
    }
  }
  return got.length;
}

// ------------------------------------------------------------------ by hand

/**
 * Buckets of distances 0 … length-1 from the starts of each bucket:
 * starts[v] = the first distance in bucket v.
 */
function fromStarts(starts, length, base = 0) {
  return Array.from({ length }, (_, n) => base + starts.findLastIndex((s) => s <= n));
}

test("T5's encoder buckets (32, 128): boundaries 8·16^(k/8) derived by hand, distance 16, 32, 64 exactly on theirs", () => {
  // Distance n >= 8 is in bucket 8 + floor(8 log(n/8) / log 16), so bucket 8 + k starts at
  // ceil(8 · 2^(k/2)): 8, 11.3 -> 12, 16, 22.6 -> 23, 32, 45.3 -> 46, 64, 90.5 -> 91 (128 is clamped to 15).
  const starts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91];
  const behind = fromStarts(starts, 200);
  const ahead = fromStarts(starts, 200, 16);
  // One query at key 199 of 400: keys 199 - n are n behind, keys 199 + n are n ahead (bucket 16 + ...).
  const row = t5Buckets({ queryLength: 1, keyLength: 400, offset: 199 });
  for (let n = 0; n <= 199; n++) assert.is(row[199 - n], behind[n], `behind ${n}`);
  for (let n = 1; n <= 200; n++) assert.is(row[199 + n], n < 200 ? ahead[n] : 31, `ahead ${n}`);
});

test("T5's decoder buckets (32, 128, causal): boundaries 16·8^(k/16) by hand, every key ahead in bucket 0", () => {
  // Bucket 16 + k starts at ceil(16 · 2^(3k/16)), k = 1 … 15.
  // Distances 0 … 16 start buckets 0 … 16; 128 and beyond would start bucket 32, clamped to 31.
  const starts = [
    ...Array.from({ length: 17 }, (_, n) => n),
    19,
    21,
    24,
    27,
    31,
    35,
    40,
    46,
    52,
    59,
    67,
    77,
    87,
    99,
    113,
  ];
  assert.is(starts.length, 32);
  const behind = fromStarts(starts, 300);
  const row = t5Buckets({ queryLength: 1, keyLength: 500, offset: 299, bidirectional: false });
  for (let n = 0; n <= 299; n++) assert.is(row[299 - n], behind[n], `behind ${n}`);
  for (let j = 300; j < 500; j++) assert.is(row[j], 0, `ahead ${j - 299}`);
});

test('small cases by hand: 4 buckets bidirectional, 2 causal', () => {
  // 4 buckets, bidirectional: 2 per side, max_exact 1: distance 0 -> 0, the rest -> 1; ahead 2 + (0 or 1) -> 3.
  assert.equal(
    Array.from(t5Buckets({ queryLength: 1, keyLength: 5, offset: 2, numBuckets: 4, maxDistance: 2 })),
    [1, 1, 0, 3, 3],
  );
  // 2 buckets causal: distance 0 -> 0, the rest -> 1, ahead -> 0.
  assert.equal(
    Array.from(
      t5Buckets({ queryLength: 2, keyLength: 3, offset: 0, numBuckets: 2, maxDistance: 2, bidirectional: false }),
    ),
    [0, 0, 0, 1, 0, 0],
  );
});

// --------------------------------------------------------- T5's own code

test("every pair against T5's code: T5's settings, square and cached shapes", () => {
  let pairs = 0;
  for (const bidirectional of [true, false]) {
    for (const [queryLength, keyLength, offset] of [
      [1, 1],
      [7, 7],
      [33, 33],
      [300, 300],
      [1, 700],
      [5, 1000],
      [3, 10, 2],
      [4, 4, 100],
    ]) {
      pairs += checkAgainstT5({ queryLength, keyLength, offset, bidirectional });
    }
  }
  assert.ok(pairs > 100000, `${pairs} pairs`);
});

test("every pair against T5's code: bucket counts and distances around them", () => {
  let pairs = 0;
  for (const bidirectional of [true, false]) {
    for (const numBuckets of [2, 3, 4, 5, 8, 16, 31, 32, 33, 64, 128, 320, 1024]) {
      const maxExact = Math.floor(Math.floor(numBuckets / (bidirectional ? 2 : 1)) / 2);
      if (maxExact < 1) continue;
      for (const maxDistance of [
        maxExact + 1,
        maxExact + 2,
        2 * maxExact,
        3 * maxExact + 1,
        128,
        1000,
        4096,
        2 ** 20,
        MAX,
      ]) {
        if (maxDistance <= maxExact) continue;
        pairs += checkAgainstT5({
          queryLength: 1,
          keyLength: 3001,
          offset: 1500,
          numBuckets,
          maxDistance,
          bidirectional,
        });
      }
    }
  }
  assert.ok(pairs > 500000, `${pairs} pairs`);
});

test("every pair against T5's code: distances up to 2^31 - 1 (float(n) rounds above 2^24)", () => {
  let pairs = 0;
  for (const bidirectional of [true, false]) {
    for (const [numBuckets, maxDistance] of [
      [32, 128],
      [64, MAX],
      [1024, 2 ** 30],
      [16, 2 ** 24 + 3],
    ]) {
      // Queries far from keys 0 … 1999: distances just below 2^31, and on both sides of 2^24 and 2^30.
      for (const offset of [MAX - 2, 2 ** 24 + 1000, 2 ** 30 + 1000]) {
        pairs += checkAgainstT5({ queryLength: 2, keyLength: 2000, offset, numBuckets, maxDistance, bidirectional });
      }
    }
  }
  assert.ok(pairs >= 90000, `${pairs} pairs`);
});

test(`every pair against T5's code: seeded random shapes and settings (seed ${seed})`, () => {
  let pairs = 0;
  for (let trial = 0; trial < 60; trial++) {
    const bidirectional = rng.next() < 0.5;
    const numBuckets = rng.pick([4, 6, 8, 12, 16, 24, 32, 48, 64, 100, 128, 256]);
    const maxExact = Math.floor(Math.floor(numBuckets / (bidirectional ? 2 : 1)) / 2);
    const maxDistance = Math.min(MAX, maxExact + 1 + Math.floor(rng.logUniform(1, 1e5)));
    const queryLength = rng.int(0, 40);
    const keyLength = rng.int(queryLength, queryLength + 400);
    const c = { queryLength, keyLength, numBuckets, maxDistance, bidirectional };
    if (rng.next() < 0.5) c.offset = rng.int(0, MAX - queryLength);
    pairs += checkAgainstT5(c);
  }
  assert.ok(pairs > 1000, `${pairs} pairs`);
});

// ------------------------------------------------------------------ bias

test('t5Bias gathers the (buckets × heads) table by the buckets, bit for bit, heads from the table', () => {
  for (const [numBuckets, heads, bidirectional] of [
    [32, 12, true],
    [32, 8, false],
    [5, 3, true],
    [64, 1, true],
  ]) {
    const table = Float32Array.from({ length: numBuckets * heads }, () => Math.fround((rng.next() - 0.5) * 20));
    table[0] = -0; // signed zeros and NaN payloads travel as bits
    const c = { queryLength: 9, keyLength: 70, numBuckets, bidirectional };
    const buckets = t5Buckets(c);
    const bias = t5Bias({ ...c, table });
    const explicit = t5Bias({ ...c, table, heads });
    assert.equal(new Uint32Array(explicit.buffer), new Uint32Array(bias.buffer));
    assert.is(bias.length, heads * buckets.length);
    const bits = new Uint32Array(bias.buffer),
      tableBits = new Uint32Array(table.buffer);
    for (let h = 0; h < heads; h++) {
      for (let k = 0; k < buckets.length; k++) {
        assert.is(bits[h * buckets.length + k], tableBits[buckets[k] * heads + h], `head ${h} pair ${k}`);
      }
    }
  }
});

// ------------------------------------------------------------------ Shaw

test("Shaw's indices: clip(j - q, -k, k) + k on every pair, k = 0 … 2^30 - 1, offsets near 2^31", () => {
  for (const [queryLength, keyLength, offset, maxRelative] of [
    [5, 5, 0, 2],
    [5, 9, undefined, 3],
    [1, 40, 20, 0],
    [7, 33, 3, 1],
    [6, 100, MAX - 6, 16],
    [3, 50, 10, 2 ** 30 - 1],
    [0, 5, 2, 4],
    [4, 0, 0, 4],
    [64, 64, 0, 63],
  ]) {
    const got = shawIndices({ queryLength, keyLength, offset, maxRelative });
    const at = offset ?? keyLength - queryLength;
    for (let i = 0; i < queryLength; i++) {
      for (let j = 0; j < keyLength; j++) {
        const want = Math.min(Math.max(j - (at + i), -maxRelative), maxRelative) + maxRelative;
        assert.is(
          got[i * keyLength + j],
          want,
          `q=${queryLength} k=${keyLength} offset=${offset} max=${maxRelative}: (${i}, ${j})`,
        );
      }
    }
  }
  // Shaw's paper, k = 2, a 4 x 4 grid: row i reads clip(j - i, -2, 2) + 2.
  assert.equal(
    Array.from(shawIndices({ queryLength: 4, maxRelative: 2 })),
    [2, 3, 4, 4, 1, 2, 3, 4, 0, 1, 2, 3, 0, 0, 1, 2],
  );
});

// ------------------------------------------------------------------ refusals

test('refusals name the argument, say what is allowed, and leave every input untouched', () => {
  const table = Float32Array.from({ length: 64 }, (_, k) => k);
  const out = new Int32Array(4).fill(-7);
  const cases = [
    [t5Buckets, { queryLength: 2, numBuckets: 3 }, 'BAD_BUCKETS', ['numBuckets', 'from 4 to 1024', 'got 3']],
    [t5Buckets, { queryLength: 2, numBuckets: 3, bidirectional: false }, 'BAD_BUCKETS', ['numBuckets', 'got 3'], true],
    [t5Buckets, { queryLength: 2, numBuckets: 1, bidirectional: false }, 'BAD_BUCKETS', ['from 2 to 1024', 'got 1']],
    [t5Buckets, { queryLength: 2, numBuckets: 1025 }, 'BAD_BUCKETS', ['got 1025']],
    [t5Buckets, { queryLength: 2, numBuckets: 32.5 }, 'BAD_BUCKETS', ['got 32.5']],
    [
      t5Buckets,
      { queryLength: 2, maxDistance: 8 },
      'BAD_BUCKETS',
      ['maxDistance', 'above the 8 exact distances', 'got 8'],
    ],
    [
      t5Buckets,
      { queryLength: 2, maxDistance: 16, bidirectional: false },
      'BAD_BUCKETS',
      ['above the 16 exact', 'got 16'],
    ],
    [t5Buckets, { queryLength: 2, maxDistance: MAX + 1 }, 'BAD_BUCKETS', ['at most 2147483648']],
    [t5Buckets, { queryLength: 2, bidirectional: 1 }, 'BAD_OPTIONS', ['bidirectional', 'got 1']],
    [t5Buckets, { queryLength: 3, keyLength: 2 }, 'BAD_OFFSET', ['exceeds keyLength']],
    [t5Buckets, { queryLength: 2, offset: MAX - 1 }, 'BAD_OFFSET', ['offset + queryLength']],
    [t5Buckets, { queryLength: -1 }, 'BAD_LENGTH', ['queryLength']],
    [t5Buckets, { queryLength: 2, out }, 'BAD_SIZE', ['out', '2·3 = 6'], false, { queryLength: 2, keyLength: 3, out }],
    [t5Buckets, { queryLength: 2, out: new Float32Array(4) }, 'BAD_BUFFER', ['out', 'Int32Array']],
    [t5Buckets, { queryLength: 2, numbuckets: 32 }, 'UNKNOWN_OPTION', ['numBuckets']],
    [t5Bias, { queryLength: 2, table: table.subarray(0, 60) }, 'BAD_SIZE', ['table', 'multiple of numBuckets = 32']],
    [t5Bias, { queryLength: 2, table, heads: 3 }, 'BAD_SIZE', ['table', '32·3 = 96']],
    [t5Bias, { queryLength: 2, table: Array.from(table) }, 'BAD_BUFFER', ['table', 'Float32Array']],
    [t5Bias, { queryLength: 2, table, out: new Float32Array(3) }, 'BAD_SIZE', ['out', '2·2·2 = 8']],
    [t5Bias, { queryLength: 2, table, heads: 0 }, 'BAD_HEADS', ['heads']],
    [shawIndices, { queryLength: 2 }, 'BAD_MAX_RELATIVE', ['maxRelative', 'given']],
    [shawIndices, { queryLength: 2, maxRelative: 2 ** 30 }, 'BAD_MAX_RELATIVE', ['0 to 1073741823', 'got 1073741824']],
    [shawIndices, { queryLength: 2, maxRelative: -1 }, 'BAD_MAX_RELATIVE', ['got -1']],
    [
      shawIndices,
      { queryLength: 2, maxRelative: 2, out },
      'BAD_SIZE',
      ['out'],
      false,
      { queryLength: 1, maxRelative: 2, out },
    ],
  ];
  for (const [call, given, code, texts, passes, instead] of cases) {
    if (passes) {
      call(given); // the odd count is fine causal: 3 buckets, 1 exact
      continue;
    }
    // The typed arrays among the options are the inputs that must come back untouched.
    const options = instead ?? given;
    const buffers = Object.fromEntries(Object.entries(options).filter(([, v]) => ArrayBuffer.isView(v)));
    expectRefusal(PosencError, (b) => call({ ...options, ...b }), buffers, code, texts);
  }
  assert.equal(Array.from(out), [-7, -7, -7, -7]);
  assert.equal(Array.from(table.subarray(0, 3)), [0, 1, 2]);
});

test.run();
