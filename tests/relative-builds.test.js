// The relative family on the four builds (native scalar, native SIMD, wasm
// SIMD, wasm scalar) bit for bit: key counts around the SIMD width and its
// 16-value unroll, runs cut at every alignment, offsets near 2^31, seeded
// random shapes; the native harness under ASan+UBSan with sentinels around
// every output and the table checked unchanged; the C refusals; and the
// float32 log on every float in [1, 2^31] against a quad-precision oracle.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { instantiate } from '../src/js/index.js';
import { sameBits, compared } from './support/builds-bits.js';
import { runBuilds, describe, RELATIVE_HARNESS, RELATIVE_HARNESS_ASAN, LOG_SCAN } from './support/relative-harness.js';
import { generator, seedFromEnv } from './support/random.js';
import { sweep as longSweep } from './support/quick.js';

const slow = longSweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const seed = seedFromEnv();
console.log(`relative-builds.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);
const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };
const MAX = 2 ** 31;

function expectSameOnEveryBuild(requests, binary) {
  const results = runBuilds(requests, wasm, binary);
  const reference = results['native scalar'];
  for (const [build, outputs] of Object.entries(results)) {
    requests.forEach((r, k) => sameBits(outputs[k], reference[k], `${build} vs native scalar, ${describe(r)}`));
  }
  return results;
}

const randomTable = (count) => Float32Array.from({ length: count }, () => Math.fround((rng.next() - 0.5) * 8));

/** Key counts 0 … 40 (around 4 lanes and the 16-value unroll), queries on and off the keys. */
function sweep() {
  const requests = [];
  for (let keyLength = 0; keyLength <= 40; keyLength++) {
    for (const [queryLength, offset] of [
      [1, Math.max(0, keyLength - 1)],
      [3, 0],
      [2, 17],
      [1, 1000],
    ]) {
      const geometry = { queryLength, keyLength, offset };
      requests.push({ op: 't5', ...geometry, numBuckets: 32, maxDistance: 128, bidirectional: true });
      requests.push({ op: 't5', ...geometry, numBuckets: 8, maxDistance: 20, bidirectional: false });
      requests.push({ op: 'shaw', ...geometry, maxRelative: keyLength % 7 });
    }
  }
  return requests;
}

test('T5 buckets and Shaw indices: four builds bit for bit, key counts 0 … 40 around the SIMD width', () => {
  const before = compared.values;
  expectSameOnEveryBuild(sweep());
  assert.ok(compared.values - before > 20000, `${compared.values - before} values compared`);
});

test('T5 bias: four builds bit for bit, head slices, every alignment', () => {
  const requests = [];
  for (const [numBuckets, heads, bidirectional] of [
    [32, 12, true],
    [32, 6, false],
    [6, 2, true],
  ]) {
    const table = randomTable(numBuckets * heads);
    for (const keyLength of [1, 3, 4, 5, 15, 16, 17, 33, 300]) {
      requests.push({
        op: 't5bias',
        queryLength: 3,
        keyLength,
        offset: keyLength,
        numBuckets,
        maxDistance: 128,
        bidirectional,
        heads,
        first: 0,
        count: heads,
        table,
      });
      requests.push({
        op: 't5bias',
        queryLength: 2,
        keyLength,
        offset: 0,
        numBuckets,
        maxDistance: 50,
        bidirectional,
        heads,
        first: heads - 1,
        count: 1,
        table,
      });
    }
  }
  expectSameOnEveryBuild(requests);
});

test('positions near 2^31 and large distances: four builds bit for bit', () => {
  const requests = [];
  for (const bidirectional of [true, false]) {
    for (const [numBuckets, maxDistance] of [
      [32, 128],
      [1024, MAX],
      [64, 2 ** 24 + 1],
      [4, 3],
    ]) {
      if (maxDistance <= Math.floor(Math.floor(numBuckets / (bidirectional ? 2 : 1)) / 2)) continue;
      requests.push({
        op: 't5',
        queryLength: 2,
        keyLength: 3000,
        offset: MAX - 2,
        numBuckets,
        maxDistance,
        bidirectional,
      });
      requests.push({
        op: 't5',
        queryLength: 1,
        keyLength: 5000,
        offset: 2 ** 24 + 2500,
        numBuckets,
        maxDistance,
        bidirectional,
      });
    }
  }
  requests.push({ op: 'shaw', queryLength: 2, keyLength: 3000, offset: MAX - 2, maxRelative: 2 ** 30 - 1 });
  expectSameOnEveryBuild(requests);
});

test(`seeded random shapes (seed ${seed}): four builds bit for bit`, () => {
  const requests = [];
  for (let trial = 0; trial < 80; trial++) {
    const queryLength = rng.int(0, 12);
    const keyLength = rng.int(0, 700);
    const offset = rng.next() < 0.3 ? rng.int(0, MAX - queryLength) : rng.int(0, 800);
    const bidirectional = rng.next() < 0.5;
    const numBuckets = rng.int(bidirectional ? 4 : 2, 200);
    const maxExact = Math.floor(Math.floor(numBuckets / (bidirectional ? 2 : 1)) / 2);
    const maxDistance = Math.min(MAX, maxExact + 1 + Math.floor(rng.logUniform(1, 1e6)));
    const geometry = { queryLength, keyLength, offset };
    requests.push({ op: 't5', ...geometry, numBuckets, maxDistance, bidirectional });
    requests.push({ op: 'shaw', ...geometry, maxRelative: rng.int(0, 300) });
    if (trial % 4 === 0) {
      const heads = rng.int(1, 5);
      requests.push({
        op: 't5bias',
        ...geometry,
        numBuckets,
        maxDistance,
        bidirectional,
        heads,
        first: 0,
        count: heads,
        table: randomTable(numBuckets * heads),
      });
    }
  }
  expectSameOnEveryBuild(requests);
});

test('ASan+UBSan harness: sentinels around every output and the table untouched, same bits as the plain build', () => {
  const requests = sweep().filter((_, k) => k % 3 === 0);
  requests.push({
    op: 't5bias',
    queryLength: 4,
    keyLength: 37,
    offset: 9,
    numBuckets: 32,
    maxDistance: 128,
    bidirectional: true,
    heads: 3,
    first: 1,
    count: 2,
    table: randomTable(96),
  });
  expectSameOnEveryBuild(requests, RELATIVE_HARNESS_ASAN);
});

test('C refusals: each status before anything is written (plain and ASan builds)', () => {
  for (const binary of [RELATIVE_HARNESS, RELATIVE_HARNESS_ASAN]) {
    const run = spawnSync(binary, ['refusals'], { encoding: 'utf8' });
    assert.is(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^21 refusals checked/m);
  }
});

slow('the float32 log on every float32 in [1, 2^31] equals the correctly rounded log (quad-precision oracle)', () => {
  const run = spawnSync(LOG_SCAN, [], { encoding: 'utf8' });
  console.log(run.stdout.trim());
  assert.is(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /all 260046849 floats in \[1, 2\^31\]: 0 differ/);
});

test.run();
