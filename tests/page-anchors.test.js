// Hash links and Contents land on their section's top (just below the sticky
// bar) whatever loads above it, for every section, on a desktop (1440 × 900)
// and a phone (390 × 844) viewport: through a URL that arrives with #id, and
// through a click in Contents on a page freshly opened at its top. The page
// pins the section while the views above load; the test reads the position
// once the pin is released (body data-anchor empty) and every view near the
// viewport has drawn the current state (body data-stale names none of them),
// so whatever could still move the section has already moved it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { frames, open, settledOnScreen } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

/** Where the section's top is, and where it should be (its scroll margin below the top, as far as the page scrolls). */
async function landing(page, id) {
  await page.waitForFunction(() => !document.body.dataset.anchor, null, { timeout: 20_000 });
  // After the pin: the views around the section drawn, then a frame for their layout to apply.
  await settledOnScreen(page);
  await frames(page, 2);
  return page.evaluate((id) => {
    const section = document.getElementById(id);
    const want = parseFloat(getComputedStyle(section).scrollMarginTop);
    const bar = document.getElementById('controls').getBoundingClientRect();
    return {
      top: section.getBoundingClientRect().top,
      want,
      scrollY: window.scrollY,
      barTop: bar.top,
      barBottom: bar.bottom,
    };
  }, id);
}

function assertLanded(where, id, { top, want, scrollY, barTop, barBottom }) {
  // The first section sits above the bar: it lands at the page's top, as high as it can go.
  if (scrollY === 0) assert.ok(top <= want + 3, `${where} #${id}: top ${top}, wanted at most ${want}`);
  else assert.ok(Math.abs(top - want) <= 3, `${where} #${id}: top at ${top.toFixed(0)} px, wanted ${want} px`);
  // Where the bar is stuck at the top, the section starts below it.
  if (barTop <= 1) assert.ok(top >= barBottom - 1, `${where} #${id}: under the sticky bar (${barBottom})`);
}

const VIEWPORTS = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
];

for (const [name, size] of VIEWPORTS) {
  it(`${name}: every section reached by a URL with its #id lands at its top`, async () => {
    const { page, server } = session;
    await page.setViewportSize(size);
    await open(page, server.url);
    const ids = await page.$$eval('main section[id], body > section[id]', (s) => s.map((e) => e.id));
    assert.ok(ids.length >= 13, ids.join(' '));
    const report = [];
    for (const id of ids) {
      await page.goto(`${server.url}#${id}`);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
      const at = await landing(page, id);
      report.push(`${id} ${at.top.toFixed(0)}`);
      assertLanded(`${name} URL`, id, at);
    }
    console.log(`  ${name} #hash landings (px from top): ${report.join(', ')}`);
    noProblems(`${name} hash`);
  });

  it(`${name}: every Contents link lands on its section's top`, async () => {
    const { page, server } = session;
    await page.setViewportSize(size);
    await open(page, server.url);
    const ids = await page.$$eval('nav.toc a[href^="#"]', (links) => links.map((a) => a.hash.slice(1)));
    const report = [];
    for (const id of ids) {
      await open(page, server.url); // a fresh page, the views below the fold not yet loaded
      await page.click(`nav.toc a[href="#${id}"]`);
      const at = await landing(page, id);
      report.push(`${id} ${at.top.toFixed(0)}`);
      assertLanded(`${name} Contents`, id, at);
      assert.is(new URL(page.url()).hash, `#${id}`);
    }
    console.log(`  ${name} Contents landings (px from top): ${report.join(', ')}`);
    noProblems(`${name} contents`);
  });
}

test.run();
