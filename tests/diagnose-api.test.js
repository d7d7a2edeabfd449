// identify() as an API: every bad input is a coded PosencError that leaves the
// table untouched, few rows say what is undetermined, and an 8192 x 1024 table
// is identified in under a second in Node (the time is printed; Chromium's is
// printed by tests/diagnose-browser.test.js).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init, identify, PosencError } from '../src/js/index.js';
import { expectRefusal } from './support/js-bits.js';
import * as peers from './support/diagnose-peers.js';
import { generator, seedFromEnv } from './support/random.js';
import { sweep } from './support/quick.js';

test.before(async () => {
  await init();
});

const good = () => peers.tutorial(64, 16);

test('refusals are coded, name the argument and leave the table untouched', () => {
  const cases = [
    [{ table: good(), options: { rows: 64, dim: 16, kind: 'rope' } }, 'BAD_KIND', ['kind', "'cos-sin'"]],
    [{ table: good(), options: { rows: 60, dim: 16 } }, 'BAD_SHAPE', ['1024 values', '60']],
    [{ table: good(), options: {} }, 'BAD_SHAPE', ['rows and dim']],
    [{ table: good(), options: { rows: 64, dim: 16, layout: 'split' } }, 'UNKNOWN_OPTION', ['layout']],
    [{ table: good(), options: { rows: 1.5, dim: 16 } }, 'BAD_SHAPE', ['rows']],
    [{ table: new Int32Array(8), options: { rows: 4, dim: 2 } }, 'BAD_BUFFER', ['Float32Array']],
    [{ table: ['a', 1], options: { rows: 1, dim: 2 } }, 'BAD_BUFFER', ['table[0]']],
    [{ table: new Float32Array([1]), options: { rows: 1, dim: 1 } }, 'BAD_SHAPE', ['two rows or two columns']],
  ];
  const nan = good();
  nan[3 * 16 + 5] = NaN;
  cases.push([{ table: nan, options: { rows: 64, dim: 16 } }, 'BAD_TABLE', ['table[3, 5]', 'NaN', 'finite']]);
  const inf = good();
  inf[63 * 16 + 15] = -Infinity;
  cases.push([{ table: inf, options: { rows: 64, dim: 16 } }, 'BAD_TABLE', ['table[63, 15]', '-Infinity']]);
  for (const [{ table, options }, code, texts] of cases) {
    expectRefusal(PosencError, (given) => identify(given.table, options), { table }, code, texts);
  }
});

test('one of rows and dim is enough; Arrays and Float64Arrays are read as float32', () => {
  const t = good();
  const a = identify(t, { dim: 16 });
  const b = identify(Array.from(t), { rows: 64 });
  const c = identify(Float64Array.from(t), { rows: 64, dim: 16 });
  assert.is(a.text, b.text);
  assert.is(a.text, c.text);
  assert.ok(a.identified, a.verdict);
});

test('few rows: one row determines nothing, a few rows report how many digits they determine', () => {
  const one = identify(peers.tutorial(1, 64), { rows: 1, dim: 64 });
  assert.not.ok(one.identified);
  assert.match(one.verdict, /too few rows/);
  const three = identify(peers.marian(3, 64), { rows: 3, dim: 64 });
  assert.ok(three.identified, three.verdict);
  assert.match(three.text, /significant digits determined/);
  assert.ok(Math.abs(three.base - 10000) < 1, `base ${three.base}`);
});

test('leading zero rows are padding, and kind: table refuses to read a cache as one', () => {
  const t = peers.tutorial(100, 32);
  const padded = new Float32Array(t.length + 2 * 32);
  padded.set(t, 2 * 32);
  const r = identify(padded, { rows: 102, dim: 32 });
  assert.is(r.leadingZeroRows, 2);
  assert.is(r.offset, 0);
  assert.ok(r.identified, r.verdict);
  const cache = peers.llamaCache(256, 64);
  assert.not.ok(identify(cache, { rows: 256, dim: 64, kind: 'table' }).identified);
  assert.ok(identify(cache, { rows: 256, dim: 64, kind: 'cos-sin' }).identified);
});

test('scaled caches with few rows or random per-pair factors: rope_scaling is null or finite numbers', () => {
  const seed = seedFromEnv();
  console.log(`  scaled caches: seed ${seed} (POSENC_SEED=${seed} replays)`);
  const random = generator(seed);
  const finite = (x) => (Array.isArray(x) ? x.every(finite) : typeof x !== 'number' || Number.isFinite(x));
  const scalings = [
    { type: 'yarn', factor: 4, original: 2048 },
    { type: 'yarn', factor: 1.5, original: 64, betaFast: 1, betaSlow: 1 },
    { type: 'llama3', factor: 8, original: 8192 },
    { type: 'dynamic', factor: 3, original: 256, seqLen: 1000 },
  ];
  for (let trial = 0; trial < 24; trial++) {
    const dim = 2 * (1 + Math.floor(random.next() * 48));
    const rows = 2 + Math.floor(random.next() * 300);
    const factors = Array.from({ length: dim / 2 }, () => 1 + 60 * random.next());
    const scaling =
      trial % 5 === 4
        ? { type: 'longrope', short: factors, long: factors, original: 4096, max: 4096 * (1 + trial), seqLen: rows }
        : scalings[trial % 5];
    const t = peers.llamaCache(rows, dim, { base: trial % 2 ? 500000 : 10000, scaling });
    const r = identify(t, { rows, dim, kind: 'cos-sin' });
    const context = `seed ${seed}, trial ${trial}: ${rows} x ${dim} ${scaling.type}: ${r.json}`;
    assert.ok(r.ropeScaling === null || typeof r.ropeScaling.rope_type === 'string', context);
    assert.ok(Object.values(r.ropeScaling ?? {}).every(finite), context);
    assert.ok([r.dynamicAlpha, ...r.originalRange, r.factor, r.bandLow, r.bandHigh].every(Number.isFinite), context);
  }
});

/**
 * Runs tests/support/diagnose-few-rows.js over the shapes given (all of them without), in a child process killed
 * when it prints nothing for 30 s (a call takes milliseconds; one that never returns is named by its case line).
 * Returns its output lines.
 */
async function fewRowCaches(shapes) {
  const script = fileURLToPath(new URL('./support/diagnose-few-rows.js', import.meta.url));
  const child = spawn(process.execPath, [script, ...(shapes ? [JSON.stringify(shapes)] : [])]);
  let stdout = '';
  let stderr = '';
  let killed = false;
  let watchdog;
  const quiet = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => ((killed = true), child.kill('SIGKILL')), 30_000);
  };
  quiet();
  child.stdout.on('data', (chunk) => ((stdout += chunk), quiet()));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const status = await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(watchdog);
  const lines = stdout.trim().split('\n');
  const last = lines.filter((line) => line.startsWith('case ')).pop();
  assert.ok(status === 0 && !killed, killed ? `hung (killed after 30 s silent) on ${last}` : stderr.slice(-2000));
  return lines;
}

/** Asserts each call's rope_scaling is null or parameters HF would accept; returns how many had one. */
function checkFewRowScalings(lines) {
  const positive = [
    'factor',
    'original_max_position_embeddings',
    'beta_fast',
    'beta_slow',
    'low_freq_factor',
    'high_freq_factor',
    'attention_factor',
  ];
  let scaled = 0;
  for (let k = 0; k < lines.length; k += 2) {
    const scaling = JSON.parse(lines[k + 1].slice(3));
    if (scaling === null) continue;
    scaled++;
    const context = `${lines[k]}: ${lines[k + 1]}`;
    for (const key of positive)
      if (key in scaling) assert.ok(scaling[key] > 0 && Number.isFinite(scaling[key]), context);
    if (scaling.rope_type === 'llama3') assert.ok(scaling.high_freq_factor >= scaling.low_freq_factor, context);
  }
  return scaled;
}

// Such caches once sent the core round forever (a negative wavelength snapped to round digits; a square root of
// infinity): found at 9 x 72 (YaRN 4 over 2048) and 8 x 16 (YaRN 1.5 over 64). Each case is 4 scalings x 2 bases.
test('a few rows of a YaRN or Llama 3 cache, at the shapes that once hung: every call returns, HF-valid or null', async () => {
  const lines = await fewRowCaches({ dims: [16, 72], rows: [2, 12] });
  const scaled = checkFewRowScalings(lines);
  console.log(`  few-row caches (shapes that hung): ${lines.length / 2} calls, ${scaled} with a rope_scaling`);
  assert.is(lines.length, 2 * 4 * 2 * 2 * 11);
});

sweep(test)(
  'a few rows of a YaRN or Llama 3 cache: every call returns, with parameters HF would accept or none',
  async () => {
    const lines = await fewRowCaches();
    const scaled = checkFewRowScalings(lines);
    console.log(`  few-row caches: ${lines.length / 2} calls, ${scaled} with a rope_scaling`);
    assert.is(lines.length, 2 * 4 * 5 * 23 * 2);
  },
);

test('a sqrt(d) scale is reported', () => {
  const t = peers.marian(256, 64).map((v) => Math.fround(v * 8));
  const r = identify(t, { rows: 256, dim: 64 });
  assert.ok(Math.abs(r.scale - 8) < 1e-5, `scale ${r.scale}`);
  assert.match(r.text, /sqrt\(d\), d = 64/);
  assert.ok(r.identified, r.verdict);
});

test('8192 x 1024 in under a second in Node (printed)', () => {
  const t = peers.tutorial(8192, 1024);
  const times = [];
  let r;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    r = identify(t, { rows: 8192, dim: 1024 });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `identify 8192x1024 in Node: median ${times[1].toFixed(0)} ms (runs ${times.map((x) => x.toFixed(0)).join(', ')} ms)`,
  );
  assert.ok(r.identified, r.verdict);
  // 1 s on an idle machine; a machine shared by more busy processes than cores stretches every time alike
  const busy = Math.max(1, os.loadavg()[0] / os.cpus().length);
  console.log(
    `  (load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores: limit ${(1000 * busy).toFixed(0)} ms)`,
  );
  assert.ok(times[0] < 1000 * busy, `fastest run ${times[0]} ms`);
});

test.run();
