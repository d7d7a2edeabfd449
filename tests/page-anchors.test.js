// Hash links land on their section's top (just below the sticky bar) whatever
// loads above it, for every section, on a desktop (1440 × 900) and a phone
// (390 × 844) viewport: through a URL that arrives with #id. The page pins the
// section while the views above load; the test reads the position once every
// view near the viewport has drawn the current state and the section has held
// still, then ends the pin and reads it again (tests/support/browser-landing.js).
// The Contents links, clicked on a freshly opened page, are page-walk's (its
// desktop and phone walks land on every view that way).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { landing, landingProblems } from './support/browser-landing.js';
import { open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

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
    const problems = [];
    for (const id of ids) {
      await page.goto(`${server.url}#${id}`);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
      const at = await landing(page, id);
      report.push(`${id} ${at.top.toFixed(0)}`);
      problems.push(...landingProblems(`${name} URL`, id, at));
    }
    console.log(`  ${name} #hash landings (px from top): ${report.join(', ')}`);
    assert.equal(problems, []);
    noProblems(`${name} hash`);
  });
}

test.run();
