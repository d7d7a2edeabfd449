// The fuzzer of the layers above the C core (tests/fuzz/js/, issue 25): the
// checked-in corpus of what it found replayed (each once a finding, now
// fixed), then a short seeded run of the JS API with hostile options and of
// both CLIs against each other. `npm run fuzz` runs it longer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { seedFromEnv } from './support/random.js';
import { fuzzFor, newState, runCase } from './fuzz/js/run.js';

const SECONDS = 45; // with the corpus, under a minute
const corpus = JSON.parse(readFileSync(new URL('./fuzz/js/corpus.json', import.meta.url), 'utf8'));

test('every case of the corpus replays without a finding', async () => {
  const state = await newState();
  for (const entry of corpus) {
    if (entry.pending) {
      // Not replayed here (a native CLI run to its time limit): `node tests/fuzz/js/run.js --case cli:<seed>`.
      console.log(`  pending (${entry.pending}): ${entry.kind}:${entry.seed} ${entry.found}`);
      continue;
    }
    const found = await runCase(state, entry);
    assert.is(found && !found.note ? found.what : null, null, `${entry.kind}:${entry.seed} (${entry.found})`);
  }
});

test(`${SECONDS} s of seeded cases over the JS API and both CLIs find nothing`, async () => {
  const seed = seedFromEnv();
  console.log(`  fuzz-js: seed ${seed} (replay with POSENC_SEED=${seed}; case i is seed + i)`);
  const { calls, findings, notes } = await fuzzFor(SECONDS, seed);
  console.log(`  ${calls.api} API calls, ${calls.cli} CLI cases (each run by both CLIs), ${notes.length} notes`);
  for (const n of notes.slice(0, 3)) console.log(`  note: cli:${n.seed} stderr differs: ${n.args.join(' ')}`);
  assert.ok(calls.api > 20 && calls.cli > 5, 'the run made calls'); // about 600 and 200 on an idle machine
  assert.equal(
    findings.map((f) => `${f.kind}:${f.seed} ${f.what}`),
    [],
  );
});

test.run();
