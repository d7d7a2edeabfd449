// `bash .ci/run --record`'s last step: stores the whole suite's time in
// bench/test-times.json as "suite" (seconds in all, from the run's start to
// uvu's summary; the tests' own seconds, uvu's Duration; the 1-minute load
// average at the start and end; the counts; the commit), beside the fast
// loop's groups. The README quotes it (tests/docs-test-times.test.js).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const [seconds, testsMs, loadBefore, passed, failed] = process.argv.slice(2).map(Number);
if (![seconds, testsMs, loadBefore, passed, failed].every(Number.isFinite)) {
  console.error('usage: node .ci/record-suite.js SECONDS TESTS_MS LOAD_BEFORE PASSED FAILED');
  process.exit(2);
}
const path = fileURLToPath(new URL('../bench/test-times.json', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const stored = JSON.parse(readFileSync(path, 'utf8'));
stored.suite = {
  seconds,
  tests_seconds: Math.round(testsMs / 1000),
  load: [loadBefore, loadavg()[0]].map((l) => Math.round(l * 10) / 10),
  cores: cpus().length,
  passed,
  failed,
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim(),
  date: new Date().toISOString().slice(0, 10),
};
writeFileSync(path, JSON.stringify(stored, null, 2) + '\n');
console.log(`ci: recorded in bench/test-times.json: ${seconds} s in all, ${stored.suite.tests_seconds} s of tests`);
