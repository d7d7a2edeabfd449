// The page's identify never calls a constant or random table a match, in any
// kind, and says no error against exact for a table it could not match; a real
// sinusoidal table (the package's own) is still identified, so the check can fail.
// Each request draws its "identifying…" state (with the table's shape) in the
// input's own task, only the newest request's verdict is shown, and a refused
// table is said in words, not thrown. A .safetensors file with several tensors
// is refused naming them until the tensor box names one, which is then read.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sinusoidal } from '../src/js/index.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';
import { rng } from './support/random.js';
import { safetensorsFile } from './support/learned-files.js';

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

/** Opens the page and waits until the identify view can run. */
async function identifyView() {
  const { page, server } = session;
  await open(page, server.url);
  await caughtUp(page, '#identify-run');
  return page;
}

it('constant and random tables are never a match, and no error against exact is claimed', async () => {
  const page = await identifyView();
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

it('a request shows its shape at once; the newest wins; a refusal is text', async () => {
  const page = await identifyView();
  await page.selectOption('#identify-kind', 'auto');
  await page.fill('#identify-paste', '0.5 0.5 0.5 0.5\n'.repeat(16));
  // The example, then the paste while the example runs: what the facts show, in order, read as each is set.
  const seen = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const facts = document.getElementById('identify-facts');
        const seen = [];
        const watch = new MutationObserver(() => {
          seen.push({ pending: facts.dataset.pending, identified: facts.dataset.identified, text: facts.textContent });
          if (facts.dataset.identified !== undefined) {
            watch.disconnect();
            setTimeout(() => resolve(seen), 1500); // an older verdict arriving late would be seen
          }
        });
        watch.observe(facts, { attributes: true, childList: true });
        document.getElementById('identify-example').click();
        const drawnAtOnce = facts.textContent;
        document.getElementById('identify-run').click();
        seen.unshift({ atOnce: drawnAtOnce });
      }),
  );
  assert.match(seen[0].atOnce, /8192 × 1024.*identifying…/, 'the example, before any frame');
  const verdicts = seen.filter((s) => s.identified !== undefined);
  assert.ok(
    seen.some((s) => s.pending === '1' && /pasted numbers, 16 × 4/.test(s.text)),
    JSON.stringify(seen),
  );
  assert.is(verdicts.length >= 1, true);
  assert.ok(
    verdicts.every((s) => s.identified === '0' && /pasted numbers/.test(s.text)),
    `only the paste's verdict: ${JSON.stringify(verdicts)}`,
  );
  // A table the package refuses: its reason where the verdict goes, nothing thrown.
  await page.fill('#identify-paste', '1 2\n3 x');
  await page.click('#identify-run');
  await page.waitForFunction(() => document.getElementById('identify-facts').dataset.failed !== undefined);
  const failed = await page.$eval('#identify-facts', (el) => ({ ...el.dataset, text: el.textContent }));
  assert.is(failed.failed, 'BAD_FILE');
  assert.match(failed.text, /not identified: .*'x' is not a number/);
  assert.match(await page.textContent('#identify-status'), /'x' is not a number/);
  noProblems('identify, superseded and refused');
});

it('the tensor box picks a table out of a .safetensors file with several', async () => {
  const page = await identifyView();
  await page.selectOption('#identify-kind', 'auto');
  const { next } = rng('  identify tensor names');
  const f32 = (values) => new Uint8Array(Float32Array.from(values).buffer);
  const file = safetensorsFile({
    noise: { dtype: 'F32', shape: [rows, dim], data: f32(Array.from({ length: rows * dim }, () => 2 * next() - 1)) },
    pe: { dtype: 'F32', shape: [rows, dim], data: f32(sinusoidal({ length: rows, dim })) },
  });
  const dir = await mkdtemp(join(tmpdir(), 'posenc-identify-'));
  const path = join(dir, 'two.safetensors');
  await writeFile(path, file);
  /** Picks the file with `name` in the tensor box; returns the facts once a verdict or a refusal is shown. */
  const pick = async (name) => {
    await page.fill('#identify-tensor', name);
    await page.$eval('#identify-facts', (el) => {
      delete el.dataset.identified;
      delete el.dataset.failed;
    });
    await page.setInputFiles('#identify-file', path);
    await page.waitForFunction(() => {
      const { identified, failed } = document.getElementById('identify-facts').dataset;
      return identified !== undefined || failed !== undefined;
    });
    return page.$eval('#identify-facts', (el) => ({ ...el.dataset, text: el.textContent }));
  };
  const unnamed = await pick('');
  assert.is(unnamed.identified === '1', false, `no name, two tensors: ${unnamed.text}`);
  assert.match(unnamed.text, /noise/, `the refusal names the tensors: ${unnamed.text}`);
  assert.match(unnamed.text, /\bpe\b/, `the refusal names the tensors: ${unnamed.text}`);
  const table = await pick('pe');
  assert.is(table.identified, '1', table.text);
  const noise = await pick('noise');
  assert.is(noise.identified, '0', noise.text);
  await rm(dir, { recursive: true, force: true });
  noProblems('identify a named tensor');
});

test.run();
