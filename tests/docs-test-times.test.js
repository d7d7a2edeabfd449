// The README's test timings are measured ones: each "NAME N s (load A–B)" it
// quotes is bench/test-times.json's record for that group (written by `npm
// run test:family -- --record NAME`), and every recorded group is quoted; the
// whole suite's minutes and seconds are its "suite" record (written by `bash
// .ci/run --record`). A re-timed group or suite updates the README or fails here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './support/cli-run.js';
import { GROUP_NAMES } from './support/test-groups.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const { groups, suite } = JSON.parse(readFileSync(join(root, 'bench/test-times.json'), 'utf8'));
const paragraph = readme.slice(readme.indexOf('Timed with `npm run test:family -- --record'));
const quoted = [
  ...paragraph
    .slice(0, paragraph.indexOf('\n\n'))
    .matchAll(/\b([a-z0-9]+)\s+(\d+)\s+s\s+\(load\s+([\d.]+)–([\d.]+)\)/g), // a figure may wrap
];

test('the README quotes the recorded fast-loop times', () => {
  assert.ok(paragraph.length > 0, 'the README has no "Timed with `npm run test:family -- --record" paragraph');
  assert.ok(quoted.length >= 5, `only ${quoted.length} groups quoted`);
  for (const [text, name, seconds, from, to] of quoted) {
    assert.ok(GROUP_NAMES.includes(name), `${text}: no test group ${name}`);
    const stored = groups[name];
    assert.ok(stored, `${text}: bench/test-times.json has no record of ${name}`);
    assert.is(Number(seconds), stored.seconds, `${text}: stored ${stored.seconds} s`);
    assert.equal([Number(from), Number(to)], stored.load, `${text}: stored load ${stored.load.join('–')}`);
  }
  const unquoted = Object.keys(groups).filter((name) => !quoted.some((m) => m[1] === name));
  assert.equal(unquoted, [], 'recorded groups the README does not quote');
});

test("the README's whole-suite time is the recorded fresh-clone run", () => {
  const text = readme.replace(/\s+/g, ' '); // a figure may wrap
  const said = /The whole suite takes about (\d+) minutes[^;]*? took ([\d,]+) s in all, ([\d,]+) s of them/.exec(text);
  assert.ok(said, 'the README does not say "The whole suite takes about N minutes … took N s in all, N s of them"');
  assert.ok(suite, 'bench/test-times.json has no suite record (bash .ci/run --record)');
  const number = (figure) => Number(figure.replace(/,/g, ''));
  assert.is(number(said[2]), suite.seconds, `${said[0]}: recorded ${suite.seconds} s in all`);
  assert.is(number(said[3]), suite.tests_seconds, `${said[0]}: recorded ${suite.tests_seconds} s of tests`);
  assert.is(
    Number(said[1]),
    Math.round(suite.seconds / 60),
    `${said[0]}: ${suite.seconds} s is not about ${said[1]} min`,
  );
});

test.run();
