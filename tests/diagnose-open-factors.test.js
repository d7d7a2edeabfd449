// The LongRoPE factors identify() leaves open on the corpus (known-misses.json's "open" files): are they truly not
// fixed by the cells? tests/support/longrope-regen.py regenerates each cache with HF's recipe (make_corpus.py's
// code, Debian's python3-torch) with one factor changed to a two-decimal value, and counts the cells that differ
// from the file. An open factor is truly open when two values or more reproduce every cell bit for bit. Where only
// one does, the factor is fixed by the cells under HF's exact float32 sin/cos, and "open" is a limit of identify()
// (its cell check allows PyTorch's sin/cos an ulp, which it cannot reproduce bit for bit): those are listed in
// DETERMINED, so a fix (or a regression) shows here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init, identify, readNpy } from '../src/js/index.js';

const DIR = new URL('./fixtures/identify-peers/', import.meta.url);
const REGEN = fileURLToPath(new URL('./support/longrope-regen.py', import.meta.url));
const OPEN = Object.entries(JSON.parse(readFileSync(new URL('known-misses.json', DIR), 'utf8')))
  .filter(([, state]) => state === 'open')
  .map(([file]) => file);

// Pairs identify() leaves open that one two-decimal value alone reproduces bit for bit (measured with
// longrope-regen.py): the cells fix them under HF's recipe. None since identify() regenerates each two-decimal value
// of a float16 or bfloat16 bracket bit for bit (diag_pair_range.c): long float16 sin at 0 had 17 such pairs of 20
// open (28-39, 41, 42, 44-46; now 40, 43, 47 open, each reproduced by two values or more), long bfloat16 sin at 100
// 7 of 18 (29, 36-39, 43, 45).
const DETERMINED = {};

const MAX_VALUES = 60; // two-decimal values tried per factor; a wider range is sampled at its ends and the truth

/** The two-decimal values to try for a factor left open in [lo, hi] (hi null: no upper bound). */
function candidates(lo, hi, truth) {
  const from = Math.ceil(lo * 100 - 1e-6) - 1;
  if (hi === null) return [from + 1, from + 2, from + 50].map((c) => c / 100);
  const to = Math.floor(hi * 100 + 1e-6) + 1;
  if (to - from <= MAX_VALUES) return Array.from({ length: to - from + 1 }, (_, i) => (from + i) / 100);
  const t = Math.round(truth * 100);
  return [from, from + 1, t - 1, t, t + 1, to - 1, to].map((c) => c / 100);
}

let results; // file -> pair -> two-decimal values reproducing every cell
test.before(async () => {
  await init();
  const INDEX = JSON.parse(readFileSync(new URL('index.json', DIR), 'utf8'));
  const cases = [];
  for (const file of OPEN) {
    const t = INDEX.files.find((x) => x.file === file);
    const { table, rows, dim } = readNpy(readFileSync(new URL(file, DIR)));
    const r = identify(table, { rows, dim });
    const list = r.ropeScaling.long_factor ?? r.ropeScaling.short_factor ?? r.ropeScaling.factors;
    const m = /hf-(longrope-\w+)-(\w+)-(cos|sin)-(halves|single)-(\d+)\.npy/.exec(file);
    const spec = { file, scaling: m[1], dtype: m[2], fn: m[3], layout: m[4], start: Number(m[5]), rows };
    const truth = t.hf.short_factor ?? t.hf.long_factor;
    list.forEach((x, pair) => {
      if (x !== null) return;
      const [lo, hi] = r.pairFactorRanges[pair];
      for (const value of candidates(lo, hi, truth[pair])) cases.push({ ...spec, pair, value });
    });
  }
  const run = spawnSync('/usr/bin/python3', [REGEN], { input: JSON.stringify(cases), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`longrope-regen.py failed (python3-torch is needed): ${run.stderr}`);
  results = {};
  JSON.parse(run.stdout).forEach((differing, k) => {
    const { file, pair, value } = cases[k];
    const byPair = (results[file] ??= {});
    byPair[pair] ??= [];
    if (differing === 0) byPair[pair].push(value);
  });
});

test('every open factor: two two-decimal values reproduce every cell, or it is listed as determined', () => {
  assert.is(OPEN.length, 4);
  for (const file of OPEN) {
    const pairs = Object.entries(results[file]);
    assert.ok(pairs.length > 0, `${file}: no factor left open`);
    const one = pairs.filter(([, values]) => values.length === 1).map(([pair]) => Number(pair));
    for (const [pair, values] of pairs) assert.ok(values.length >= 1, `${file} pair ${pair}: no value reproduces`);
    assert.equal(one, DETERMINED[file] ?? [], `${file}: pairs fixed by the cells though left open`);
  }
});

test.run();
