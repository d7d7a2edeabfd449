// The libFuzzer harness over the C API (tests/fuzz/fuzz_*.c: ASan+UBSan,
// both kernel sets, guard bytes, outputs finite and in range; identify's
// tables and config.json texts included): every seed of tests/fuzz/corpus/
// (the hostile inputs of issue 10 among them, RoPE's position axes and xPos
// with the subnormal scale base, and the tables that once kept pe_diagnose
// going forever or printed NaN into its JSON) replays clean, then a bounded
// fuzzing run (POSENC_FUZZ_SECONDS, default 45) finds nothing.
// `npm run fuzz -- <seconds>` runs it longer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fuzz, replay } from './fuzz/run.js';

const corpus = fileURLToPath(new URL('./fuzz/corpus/', import.meta.url));
const seeds = readdirSync(corpus).map((name) => corpus + name);
const seconds = Number(process.env.POSENC_FUZZ_SECONDS ?? 45);

test('the seed corpus covers both kernel sets, huge bases, frequencies beyond the promise, axes, xPos, the readers', () => {
  const heads = seeds.map((file) => readFileSync(file)[0]);
  assert.ok(heads.some((h) => h & 1) && heads.some((h) => !(h & 1)), 'SIMD and scalar seeds');
  for (const name of [
    'base-1e301-table',
    'base-1e301-rope',
    'base-1e301-recipe',
    'base-1e301-grid2d',
    'frequency-1e20-plan',
    'mrope-qwen2vl-sections-plan-f32',
    'mrope-equal-axes-plain',
    'vision-2d-plan-f16',
    'xpos-torchscale-key-plan-cache',
    'xpos-beyond-reach',
    'xpos-scale-base-subnormal-beyond-center',
    'diagnose-llama3-negative-wavelength-hang',
    'diagnose-per-pair-ratio-overflow',
    'diagnose-base-overflow',
    'diagnose-cache-span-overflow',
    'diagnose-table-interleaved',
    'config-llama3',
    'config-keys-too-short',
    'config-longrope-refused-after-factors',
    'config-layers-gemma3-range',
    'config-layers-llama4-bad-entry-in-range',
    't5-decoder-bias',
    'shaw-indices',
  ]) {
    assert.ok(
      seeds.some((file) => file.endsWith(`/${name}`)),
      name,
    );
  }
});

test('every seed replays without a sanitizer report, a changed guard or a value out of range', () => {
  const run = replay(seeds);
  assert.is(run.status, 0, run.stderr.slice(-4000));
  assert.is((run.stderr.match(/^Executed /gm) ?? []).length, seeds.length);
});

test(`fuzzing for ${seconds} s finds nothing`, () => {
  const run = fuzz(seconds);
  const runs = /stat::number_of_executed_units: (\d+)/.exec(run.stderr)?.[1];
  console.log(`  fuzz-api: ${runs} executions in ${seconds} s`);
  assert.is(run.status, 0, run.stderr.slice(-4000));
  assert.ok(Number(runs) > 1000, `${runs} executions`);
});

test.run();
