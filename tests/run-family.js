// The fast loop: `npm run test:family -- NAME [NAME...]` runs one group's
// tests across the layers (tests/support/test-groups.js names the groups: a
// family such as rope, or a cross-cutting one such as cli): the build if
// anything changed (build.sh, without the test target's downloads), the C API
// unit tests of that family (build/test/api-asan NAME, under ASan and UBSan),
// then every tests/NAME-*.test.js under uvu. `npm test` runs everything.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GROUP_NAMES, groupPattern } from './support/test-groups.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const names = process.argv.slice(2);
const unknown = names.filter((name) => !GROUP_NAMES.includes(name));
if (names.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) console.error(`run-family: no test group ${unknown.map((n) => `'${n}'`).join(', ')}`);
  console.error(`usage: npm run test:family -- NAME [NAME...]\n  NAME: ${GROUP_NAMES.join(', ')}`);
  process.exit(2);
}

const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status;
const started = Date.now();

if (run('bash', ['build.sh']) !== 0) process.exit(1);

// The C API tests of these families, if it has any (api-asan --list prints "family test" lines).
const API_ASAN = 'build/test/api-asan';
const listed = spawnSync(API_ASAN, ['--list'], { cwd: root, encoding: 'utf8' }).stdout ?? '';
const withC = names.filter((name) => listed.split('\n').some((line) => line.split(' ')[0] === name));
let failed = 0;
for (const name of withC) {
  console.log(`run-family: ${API_ASAN} ${name}`);
  if (run(API_ASAN, [name]) !== 0) failed += 1;
}

const pattern = names.length === 1 ? groupPattern(names[0]).source : `^(${names.join('|')})-[^/]*\\.test\\.js$`;
console.log(`run-family: uvu tests '${pattern}'`);
if (run(fileURLToPath(new URL('../node_modules/.bin/uvu', import.meta.url)), ['tests', pattern]) !== 0) failed += 1;

console.log(`run-family: ${names.join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed > 0 ? 1 : 0);
