// Accessibility beyond axe: ranges announce numbers as numbers (10^7, not
// "107"), and model presets set the fields their configs give. axe-core at
// 390 and 1440 px in both themes is page-access's; every canvas shown being an
// image with a name and a number in its text is page-walk's, on every view.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MODEL_PRESETS } from '../web/src/state/model-presets.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open, query } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

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
