// The fast loop: `npm run test:family -- NAME [NAME...]` runs one group's
// tests across the layers (tests/support/test-groups.js names the groups: a
// family such as rope, or a cross-cutting one such as cli): the build if
// anything changed (build.sh, without the test target's downloads), the C API
// unit tests of that family (build/test/api-asan NAME, under ASan and UBSan),
// then every tests/NAME-*.test.js under uvu. `npm test` runs everything.
//
// Quick by default: the long exhaustive sweeps are left out (the C ones listed
// in tests/native/api/tests.h's API_SWEEPS, the JS ones marked with
// tests/support/quick.js's sweep()), each named as it is left out; `--all`
// runs them too, as npm test does. `--record` stores the quick loop's time of
// each group run alone (the build left out) and the machine's load in
// bench/test-times.json, the figures the README quotes.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { GROUP_NAMES, groupPattern } from './support/test-groups.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const FLAGS = ['--all', '--record'];
const all = process.argv.includes('--all');
const record = process.argv.includes('--record');
const names = process.argv.slice(2).filter((arg) => !FLAGS.includes(arg));
const unknown = names.filter((name) => !GROUP_NAMES.includes(name));
if (names.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) console.error(`run-family: no test group ${unknown.map((n) => `'${n}'`).join(', ')}`);
  console.error(
    `usage: npm run test:family -- [--all] [--record] NAME [NAME...]\n  NAME: ${GROUP_NAMES.join(', ')}\n` +
      '  --all: the long sweeps too (npm test runs them; without it they are left out, each named)\n' +
      "  --record: store each group's quick time and the load in bench/test-times.json",
  );
  process.exit(2);
}
if (record && (all || names.length !== 1)) {
  console.error('run-family: --record times one group in the quick loop (no --all)');
  process.exit(2);
}

const env = { ...process.env, POSENC_QUICK: all ? '0' : '1' }; // read by tests/support/quick.js
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status;
const started = Date.now();

if (run('bash', ['build.sh']) !== 0) process.exit(1);
const built = Date.now();
const loadBefore = loadavg()[0];

// The C API tests of these families, if it has any (api-asan --list prints "family test" lines).
const API_ASAN = 'build/test/api-asan';
const listed = spawnSync(API_ASAN, ['--list'], { cwd: root, encoding: 'utf8' }).stdout ?? '';
const withC = names.filter((name) => listed.split('\n').some((line) => line.split(' ')[0] === name));
let failed = 0;
for (const name of withC) {
  const args = all ? [name] : ['--quick', name];
  console.log(`run-family: ${API_ASAN} ${args.join(' ')}`);
  if (run(API_ASAN, args) !== 0) failed += 1;
}

const pattern = names.length === 1 ? groupPattern(names[0]).source : `^(${names.join('|')})-[^/]*\\.test\\.js$`;
console.log(`run-family: uvu tests '${pattern}'`);
if (run(fileURLToPath(new URL('../node_modules/.bin/uvu', import.meta.url)), ['tests', pattern]) !== 0) failed += 1;

const seconds = (since) => Math.round((Date.now() - since) / 1000);
const mode = all ? 'with the long sweeps' : 'quick: long sweeps left out';
console.log(`run-family: ${names.join(', ')} in ${seconds(started)} s, ${seconds(built)} s after the build (${mode})`);
if (record && failed === 0) {
  // The load average over the run's minute, at its start and end: how shared the machine was.
  const path = fileURLToPath(new URL('../bench/test-times.json', import.meta.url));
  const stored = JSON.parse(readFileSync(path, 'utf8'));
  stored.groups[names[0]] = {
    seconds: seconds(built),
    load: [loadBefore, loadavg()[0]].map((l) => Math.round(l * 10) / 10),
    cores: cpus().length,
    date: new Date().toISOString().slice(0, 10),
  };
  writeFileSync(path, JSON.stringify(stored, null, 2) + '\n');
  console.log(`run-family: recorded in bench/test-times.json`);
}
process.exit(failed > 0 ? 1 : 0);
