// The fuzzer of the layers above the C core (issue 25): seeded cases of the JS
// API (api.js) and of both CLIs (cli.js), three API cases to one CLI case (every eighth case a `posenc config` one), for
// a given time. `node tests/fuzz/js/run.js [seconds] [seed]` (also the second
// half of `npm run fuzz`); the seed is printed, and case i of a run is seed + i,
// so `node tests/fuzz/js/run.js --case api:<seed>` replays one. Findings go to
// build/fuzz/js/findings.json; once fixed, add them to corpus.json, which
// tests/fuzz-js.test.js replays.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instantiate, readTable } from '../../../src/js/index.js';
import { fuzzState, runApiCase } from './api.js';
import { runCliCase, configArgs } from './cli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const CASE_DIR = join(root, 'build/fuzz/js/case');

/** Runs one case, { kind, seed }; a finding or null. The fuzzer's own errors are findings too. */
export async function runCase(state, { kind, seed }) {
  try {
    if (kind === 'api') return runApiCase(state, seed);
    if (kind === 'config') return await runCliCase(seed, CASE_DIR, { argsOf: configArgs, kind });
    return await runCliCase(seed, CASE_DIR);
  } catch (error) {
    return { kind, seed, what: `the case itself threw: ${error && error.stack}` };
  }
}

export const newState = () => fuzzState(instantiate, { readTable });

/**
 * Cases for `seconds` from `seed`: { calls: { api, cli }, findings, notes }.
 * Notes (the CLIs wording one refusal differently) are kept apart from findings.
 */
export async function fuzzFor(seconds, seed, { log = () => {} } = {}) {
  const state = await newState();
  const end = performance.now() + seconds * 1000;
  const calls = { api: 0, cli: 0, config: 0 };
  const findings = [];
  const notes = [];
  for (let i = 0; performance.now() < end; i++) {
    // Three API cases to one CLI case; every eighth case a `posenc config` one (in place of an API case).
    const kind = i % 4 === 3 ? 'cli' : i % 8 === 1 ? 'config' : 'api';
    const found = await runCase(state, { kind, seed: (seed + i) >>> 0 });
    calls[kind]++;
    if (found && found.note) notes.push(found);
    else if (found) {
      findings.push(found);
      log(`finding: ${JSON.stringify(found).slice(0, 400)}`);
    }
  }
  for (const b of state.held) b.free();
  return { calls, findings, notes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    const [kind, seed] = args[1].split(':');
    const found = await runCase(await newState(), { kind, seed: Number(seed) });
    console.log(found ? JSON.stringify(found, null, 2) : 'no finding');
    process.exit(found && !found.note ? 1 : 0);
  }
  const seconds = Number(args[0] ?? 600);
  const seed = args[1] !== undefined ? Number(args[1]) : Math.floor(Math.random() * 2 ** 32);
  if (!(Number.isInteger(seconds) && seconds > 0) || !Number.isInteger(seed)) {
    console.error(
      'usage: node tests/fuzz/js/run.js [seconds] [seed]  |  --case api:<seed> | cli:<seed> | config:<seed>',
    );
    process.exit(2);
  }
  console.log(`JS/CLI fuzz: seed ${seed}, ${seconds} s (case i is seed + i)`);
  const result = await fuzzFor(seconds, seed, { log: console.log });
  mkdirSync(join(root, 'build/fuzz/js'), { recursive: true });
  writeFileSync(join(root, 'build/fuzz/js/findings.json'), JSON.stringify(result, null, 2));
  console.log(
    `JS/CLI fuzz: ${result.calls.api} API calls, ${result.calls.cli} CLI runs and ${result.calls.config} config ` +
      `runs (each CLI twice), ` +
      `${result.findings.length} findings, ${result.notes.length} notes (stderr words differ); build/fuzz/js/findings.json`,
  );
  process.exit(result.findings.length > 0 ? 1 : 0);
}
