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
// runs them too, as npm test does.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GROUP_NAMES, groupPattern } from './support/test-groups.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const all = process.argv.includes('--all');
const names = process.argv.slice(2).filter((arg) => arg !== '--all');
const unknown = names.filter((name) => !GROUP_NAMES.includes(name));
if (names.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) console.error(`run-family: no test group ${unknown.map((n) => `'${n}'`).join(', ')}`);
  console.error(
    `usage: npm run test:family -- [--all] NAME [NAME...]\n  NAME: ${GROUP_NAMES.join(', ')}\n` +
      '  --all: the long sweeps too (npm test runs them; without it they are left out, each named)',
  );
  process.exit(2);
}

const env = { ...process.env, POSENC_QUICK: all ? '0' : '1' }; // read by tests/support/quick.js
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status;
const started = Date.now();

if (run('bash', ['build.sh']) !== 0) process.exit(1);

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

const mode = all ? 'with the long sweeps' : 'quick: long sweeps left out';
console.log(`run-family: ${names.join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s (${mode})`);
process.exit(failed > 0 ? 1 : 0);
