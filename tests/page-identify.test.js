// The page's identify never calls a constant or random table a match, in any
// kind, and says no error against exact for a table it could not match; a real
// sinusoidal table (the package's own) is still identified, so the check can fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sinusoidal } from '../src/js/index.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';
import { rng } from './support/random.js';

await init();
const session = browserSession(test);
const { it, noProblems } = session;

const rows = 48;
const dim = 16;
const asText = (values) =>
  Array.from({ length: rows }, (_, r) => Array.from(values.subarray(r * dim, (r + 1) * dim)).join(', ')).join('\n');

/** Pastes the table, picks the kind, runs identify; returns the page's facts. */
async function identifyOnPage(page, text, kind) {
  await page.fill('#identify-paste', text);
  await page.selectOption('#identify-kind', kind);
  await page.$eval('#identify-facts', (el) => delete el.dataset.identified);
  await page.click('#identify-run');
  await page.waitForFunction(() => document.getElementById('identify-facts').dataset.identified !== undefined);
  return page.$eval('#identify-facts', (el) => ({ ...el.dataset, text: el.textContent }));
}

it('constant and random tables are never a match, and no error against exact is claimed', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await caughtUp(page, '#identify-run');
  const { next } = rng('  identify random tables');
  const tables = {
    'all ones': new Float32Array(rows * dim).fill(1),
    'all 0.5': new Float32Array(rows * dim).fill(0.5),
    'all −0.25': new Float32Array(rows * dim).fill(-0.25),
    'uniform random': Float32Array.from({ length: rows * dim }, () => 2 * next() - 1),
    'random in [0, 1)': Float32Array.from({ length: rows * dim }, () => next()),
  };
  for (const [name, table] of Object.entries(tables)) {
    for (const kind of ['auto', 'table', 'cos-sin']) {
      const facts = await identifyOnPage(page, asText(table), kind);
      assert.is(facts.identified, '0', `${name} (${kind}) was called a match: ${facts.text}`);
      assert.is(facts.maxError, '', `${name} (${kind}): an error against exact for no match`);
      assert.not.match(facts.text, /error against exact: [0-9]/, `${name} (${kind}): ${facts.text}`);
    }
  }
  // The check can fail: the package's own table is a match, with its error.
  const real = await identifyOnPage(page, asText(sinusoidal({ length: rows, dim })), 'auto');
  assert.is(real.identified, '1', real.text);
  assert.match(real.text, /error against exact: [0-9]/);
  noProblems('identify');
});

test.run();
