// identify() on the corpus made by the peers' own code: tests/fixtures/identify-peers/*.npy, written by
// make_corpus.py with Debian's PyTorch and numpy (the versions are in index.json's header). Every file is
// read as a user holds it (the .npy as saved) and must be identified with its convention, first position,
// recipe and scaling in HF's names, and never be called learned or random. The files the core does not
// identify yet are listed in known-misses.json with the state seen ("miss": sinusoidal but not identified
// or wrong; "open": right in every fact the cells fix, with LongRoPE factors they leave open given as ranges
// that hold the truth; "not-sinusoidal": the verdict the issue forbids, still open): each must still be in that state,
// so a fix (or a regression) shows here and moves it. Prints the confusion table (truth x verdict).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { init, identify, readNpy } from '../src/js/index.js';
import { problems, family, verdictClass } from './support/identify-truth.js';

const DIR = new URL('./fixtures/identify-peers/', import.meta.url);
const INDEX = JSON.parse(readFileSync(new URL('index.json', DIR), 'utf8'));

// Not identified today (issue 24, left open): file -> "miss" or "not-sinusoidal".
const KNOWN_MISSES = new Map(Object.entries(JSON.parse(readFileSync(new URL('known-misses.json', DIR), 'utf8'))));

const table = new Map();
const states = {}; // file -> state, written to $POSENC_MISSES_OUT when set (to renew known-misses.json)

test.before(async () => {
  await init();
  console.log(`diagnose-corpus: ${INDEX.files.length} files by ${INDEX.generator} (torch ${INDEX.torch})`);
});

for (const t of INDEX.files) {
  test(`identifies ${t.file}`, () => {
    const { table: cells, rows, dim } = readNpy(readFileSync(new URL(t.file, DIR)));
    const r = identify(cells, { rows, dim });
    const open = [];
    const wrong = problems(t, r, open);
    const key = family(t);
    const row = table.get(key) ?? new Map();
    const cls = verdictClass(t, r, wrong, open);
    row.set(cls, (row.get(cls) ?? 0) + 1);
    table.set(key, row);
    // "open": right in every fact the cells fix, with the LongRoPE factors they leave open said as ranges
    const state = !r.sinusoidal ? 'not-sinusoidal' : wrong.length ? 'miss' : open.length ? 'open' : 'right';
    if (state === 'open') assert.match(r.verdict, /factors not fixed by these rows/, t.file);
    if (state !== 'right') states[t.file] = state;
    const known = KNOWN_MISSES.get(t.file);
    if (known === undefined) {
      assert.ok(r.sinusoidal, `${t.file}: a sinusoidal table called not sinusoidal: ${r.verdict}`);
      assert.equal(wrong, [], `${t.file}: ${wrong.join('; ')}: ${r.verdict}`);
    } else {
      assert.is(state, known, `${t.file} is ${state} now (known-misses.json says ${known}): ${r.verdict}`);
    }
  });
}

test('prints the confusion table (truth x verdict)', () => {
  const classes = [...new Set([...table.values()].flatMap((row) => [...row.keys()]))].sort();
  const width = Math.max(...[...table.keys()].map((k) => k.length));
  console.log(`\n${'truth'.padEnd(width)} | ${classes.join(' | ')}`);
  for (const [key, row] of table)
    console.log(
      `${key.padEnd(width)} | ${classes.map((c) => String(row.get(c) ?? '').padStart(c.length)).join(' | ')}`,
    );
  const right = [...table.values()].reduce((n, row) => n + (row.get('right') ?? 0), 0);
  console.log(`right ${right} of ${INDEX.files.length}; known misses ${KNOWN_MISSES.size}`);
  if (process.env.POSENC_MISSES_OUT)
    writeFileSync(process.env.POSENC_MISSES_OUT, JSON.stringify(states, null, 2) + '\n');
  assert.is(right + KNOWN_MISSES.size, INDEX.files.length);
});

test.run();
