// Issue 30's learner's order and clutter: RoPE is explained (with a link back
// to the rotation view) before a figure uses it; the RoPE view, whose controls
// drive the long-range view, comes before it; no axis draws more than five
// curves by default (more on request); a long table's default squiggles are
// waves, not solid bands; view 10's steepest ALiBi head is not clipped; and
// the package's API names live in "for engineers" asides, not in captions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as api from '../src/js/index.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, drawEveryView, open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

/** Which of the selectors comes first in the document. */
const before = (page, a, b) =>
  page.evaluate(
    ([a, b]) =>
      Boolean(
        document.querySelector(a).compareDocumentPosition(document.querySelector(b)) & Node.DOCUMENT_POSITION_FOLLOWING,
      ),
    [a, b],
  );

it('RoPE is explained, with a link to the rotation view, before it is used; view 7 drives view 8 from above', async () => {
  const { page, server } = session;
  await open(page, server.url);
  assert.ok(await before(page, '#rope-intro', '#cmp-rope'), 'the RoPE explanation comes before its panel');
  assert.ok(await before(page, '#rotation', '#rope-intro'));
  assert.is(await page.getAttribute('#rope-intro a[href="#rotation"]', 'href'), '#rotation');
  // The first mention of RoPE in a figure's caption is at or after the explanation.
  const firstUse = await page.evaluate(() => {
    const figures = [...document.querySelectorAll('section .caption, section .look, section canvas')];
    return figures.find((el) => /RoPE/.test(el.textContent + (el.getAttribute('aria-label') ?? '')))?.closest('section')
      ?.id;
  });
  assert.is(firstUse, 'comparison');
  assert.ok(await before(page, '#rope', '#longrange'), 'the RoPE view (its controls) comes before long range');
  assert.ok(await before(page, '#ctl-rs', '#longrange-plot'));
  // Contents follow the page's order.
  const toc = await page.$$eval('nav.toc a', (links) => links.map((a) => a.hash.slice(1)));
  const order = await page.$$eval('section[id]', (all) => all.map((s) => s.id).filter((id) => id !== 'rope-intro'));
  assert.equal(toc, order);
  noProblems('order');
});

it('no axis draws more than five curves by default; "all curves" shows more', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await drawEveryView(page);
  const counts = await page.$$eval('.plot[data-curves]', (plots) =>
    plots.map((p) => ({ id: p.id, curves: Number(p.dataset.curves) })),
  );
  assert.ok(counts.length >= 10, `${counts.length} charts`);
  for (const { id, curves } of counts) assert.ok(curves <= 5, `${id}: ${curves} curves`);
  await caughtUp(page, '#longrange-all');
  await page.check('#longrange-all');
  await page.waitForFunction(() => Number(document.getElementById('longrange-plot').dataset.curves) > 5);
  noProblems('curves');
});

it('at d = 2048 × 8192 the default squiggles are waves a pixel can show, not solid bands', async () => {
  const { page, server } = session;
  await open(page, `${server.url}?d=2048&len=8192`);
  await caughtUp(page, '#squiggles-legend');
  const pairs = await page.$$eval('#squiggles-legend > span', (items) =>
    items.map((item) => Number(item.textContent.match(/pair (\d+)/)[1])),
  );
  const width = await page.$eval('#squiggles-plot', (p) => p.clientWidth);
  for (const pair of pairs) {
    const wavelength = 2 * Math.PI * 10000 ** ((2 * pair) / 2048);
    const pixelsPerTurn = (wavelength / 8192) * width;
    assert.ok(pixelsPerTurn >= 4, `pair ${pair} turns every ${pixelsPerTurn.toFixed(2)} px: a solid band`);
  }
  assert.ok(pairs.length >= 2 && pairs.length <= 5, `${pairs.length} curves`);
  noProblems('squiggles');
});

it('view 10 draws every ALiBi head inside its axis (the steepest is not a clipped spike)', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await caughtUp(page, '#t5-others-plot');
  const { clipped, yRange } = await page.$eval('#t5-others-plot', (p) => ({ ...p.dataset }));
  assert.is(clipped, '0');
  assert.is(yRange, '-1.05 1.05');
  noProblems('alibi');
});

it('captions speak the learner’s words: API names only in the "for engineers" asides', async () => {
  const { page, server } = session;
  await open(page, server.url);
  const names = Object.keys(api).filter((n) => /^[a-z]/.test(n) && n.length > 4 && n !== 'init');
  const found = await page.$$eval(
    'section :is(.caption, .look, .drop-text) code, .explain code',
    (codes, names) => codes.map((c) => c.textContent.trim()).filter((t) => names.includes(t.replace(/\(.*$/, ''))),
    names,
  );
  const outside = await page.$$eval(
    'details.engineers code',
    (codes, names) => codes.filter((c) => names.includes(c.textContent.trim())).length,
    names,
  );
  assert.ok(outside >= 5, `${outside} API names in the engineers' asides`);
  assert.equal(found, [], `API names in captions: ${found.join(', ')}`);
  noProblems('api names');
});

test.run();
