// Accessibility of the page in both themes: axe-core (from npm) finds no
// violation; every canvas has an accessible name and a text alternative (its
// readout, facts or description); ranges announce numbers as numbers (10^7,
// not "107"); and model presets set the fields their configs give.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { MODEL_PRESETS } from '../web/src/state/model-presets.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, drawEveryView, open, query } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

for (const theme of ['light', 'dark']) {
  it(`axe-core finds no violation (${theme} theme)`, async () => {
    const { page, server } = session;
    await open(page, `${server.url}?theme=${theme}`);
    // Every view loaded, drawn and its text written before the check.
    await drawEveryView(page);
    await page.evaluate(axeSource);
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const found = result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    console.log(
      `  axe-core ${theme}: ${result.violations.length} violations, ${result.passes?.length ?? 'n/a'} rules passed`,
    );
    assert.equal(found, []);
    noProblems(`axe ${theme}`);
  });
}

it('every canvas has an accessible name and a text alternative next to it', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await drawEveryView(page);
  const missing = await page.evaluate(() =>
    [...document.querySelectorAll('canvas')]
      .map((canvas) => {
        const owner = canvas.closest('[aria-label]') ?? canvas;
        const name = canvas.getAttribute('aria-label') ?? owner.getAttribute('aria-label') ?? '';
        const section = canvas.closest('section');
        // The text alternative: what aria-describedby names, else the section's readout or facts.
        const described = (canvas.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
          .join(' ');
        const text = described.trim() || (section?.querySelector('output, .facts, .result')?.textContent ?? '');
        return { id: canvas.id || section?.id, name, text: text.trim().length };
      })
      .filter((c) => c.name.trim() === '' || c.text === 0),
  );
  assert.equal(missing, []);
  noProblems('canvas names');
});

it('sliders announce their values as numbers (10^7, not "107")', async () => {
  const { page, server } = session;
  await open(page, server.url);
  const texts = await page.$$eval('input[type="range"]', (ranges) =>
    ranges.map((r) => [r.id, r.getAttribute('aria-valuetext')]),
  );
  for (const [id, text] of texts) assert.ok(text && /\d/.test(text), `${id} aria-valuetext “${text}”`);
  const base = texts.find(([id]) => id === 'ctl-base-range')[1];
  assert.match(base, 'T = 10,000');
  const hint = await page.getAttribute('label[for="ctl-base"] .hint', 'aria-label');
  assert.match(hint, '10 to the 7');
  noProblems('value text');
});

it('model presets set the fields their configs give', async () => {
  const { page, server } = session;
  await open(page, server.url);
  assert.ok(MODEL_PRESETS.length >= 8, `${MODEL_PRESETS.length} presets`);
  for (const preset of MODEL_PRESETS) {
    await page.selectOption('#ctl-preset', preset.id);
    // Each model's config is read first (a lazy chunk); the note then names it (page-models.test.js checks fields).
    await page.waitForFunction((name) => {
      const note = document.getElementById('preset-note').textContent;
      return note.startsWith(name) && !/reading its config/.test(note);
    }, preset.name);
    if (!preset.set) continue;
    const url = await query(page);
    for (const [field, value] of Object.entries(preset.set)) {
      // A field equal to its default is left out of the URL; the control shows it then.
      const control = await page.evaluate((f) => document.getElementById(`ctl-${f}`)?.value ?? null, field);
      const actual = field === 'layout' ? (url.layout ?? 'split') : (url[field] ?? control);
      assert.is(String(actual), String(value), `${preset.id}: ${field}`);
    }
  }
  // Llama 3.1's rope_scaling as the RoPE view prints it.
  await page.selectOption('#ctl-preset', 'llama-3.1-8b');
  await page.waitForFunction(() => /^Llama 3.1 8B: 32 layers/.test(document.getElementById('preset-note').textContent));
  await caughtUp(page, '#rope-config');
  const config = await page.textContent('#rope-config');
  assert.match(config, 'rope_theta = 500000');
  assert.match(config, '"rope_type": "llama3"');
  assert.match(config, '"original_max_position_embeddings": 8192');
  noProblems('presets');
});

test.run();
