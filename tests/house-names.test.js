// Every test file belongs to one group (a family first, or a named
// cross-cutting group: tests/support/test-groups.js), so `npm run test:family
// -- NAME` finds a family's tests in every layer; and `npm test`'s uvu pattern
// picks every test file up, wherever it sits under tests/.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GROUP_NAMES, groupOf, groupPattern } from './support/test-groups.js';

const TESTS = fileURLToPath(new URL('.', import.meta.url));
const testFiles = readdirSync(TESTS, { recursive: true })
  .filter((path) => path.endsWith('.test.js') && !path.split('/').includes('node_modules'))
  .sort();

test('there are test files to check', () => {
  assert.ok(testFiles.length > 50, `only ${testFiles.length} test files found`);
});

test("npm test's uvu pattern picks up every tests/**/*.test.js", () => {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const m = /\buvu tests "([^"]+)"/.exec(scripts.test);
  assert.ok(m, `npm test runs uvu tests "PATTERN": ${scripts.test}`);
  const pattern = new RegExp(m[1].replace(/\\\\/g, '\\'));
  const missed = testFiles.filter((file) => !pattern.test(file));
  assert.equal(missed, [], `files npm test would not run: ${missed.join(', ')}`);
});

test('every test file sits in tests/ and belongs to exactly one group', () => {
  const nested = testFiles.filter((file) => file.includes('/'));
  assert.equal(
    nested,
    [],
    'a test in a subfolder is missed by the groups (name it <group>-<aspect>.test.js in tests/)',
  );
  const orphans = testFiles.filter((file) => groupOf(file) === null);
  assert.equal(orphans, [], `name each <group>-<aspect>.test.js; groups: ${GROUP_NAMES.join(', ')}`);
});

test('every group has test files (a family without tests is a family nobody checks)', () => {
  const empty = GROUP_NAMES.filter((group) => !testFiles.some((file) => groupPattern(group).test(file)));
  assert.equal(empty, []);
});

test.run();
