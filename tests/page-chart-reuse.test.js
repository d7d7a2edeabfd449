// The RoPE view's three uPlot charts are reused, not replaced, when its scaling
// menu recolours and re-dashes their curves and when head_dim crosses into
// drawn points (uplot-mount.js): a new chart cost 10-15 ms of a 26 ms draw.
// Each reused chart draws the same pixels as a chart made fresh for that state
// (a page opened on its URL), so reuse changes nothing a reader sees.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { canvasPrint, caughtUp, open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

const CHARTS = ['#rope-speed', '#rope-wavelength', '#rope-bands'];

/** Sets a RoPE control as a reader does (its events), then waits until the view has drawn it. */
async function setControl(page, id, value) {
  await page.evaluate(
    ([id, value]) => {
      const el = document.getElementById(id);
      el.value = value;
      for (const type of ['input', 'change']) el.dispatchEvent(new Event(type, { bubbles: true }));
    },
    [id, value],
  );
  await caughtUp(page, '#rope-plots');
}

const prints = async (page) => {
  const out = [];
  for (const chart of CHARTS) out.push((await canvasPrint(page, `${chart} canvas`)).hash);
  return out;
};

it('the RoPE charts are reused across scalings and point markers, drawing what fresh charts draw', async () => {
  const { page, server } = session;
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, `${server.url}#rope`);
  await caughtUp(page, '#rope-plots');
  await page.$$eval('#rope-plots .uplot', (roots) => roots.forEach((root) => (root.dataset.first = '1')));
  // From the default (YaRN, head_dim 128, lines): another scaling, none, then 16 pairs' points.
  for (const [id, value] of [
    ['ctl-rs', 'linear'],
    ['ctl-rs', 'none'],
    ['ctl-rhd', '16'],
  ]) {
    await setControl(page, id, value);
    const same = await page.$$eval('#rope-plots .uplot', (roots) => roots.map((root) => root.dataset.first === '1'));
    assert.equal(same, [true, true, true], `after ${id} = ${value}: which charts were kept`);
    const reused = await prints(page);
    const query = await page.evaluate(() => location.search);
    const fresh = await session.browser.context.newPage();
    await fresh.setViewportSize({ width: 1440, height: 900 });
    await open(fresh, `${server.url}${query}#rope`);
    await caughtUp(fresh, '#rope-plots');
    const made = await prints(fresh);
    await fresh.close();
    assert.equal(reused, made, `after ${id} = ${value} (${query}): reused charts' pixels against fresh ones`);
  }
  noProblems('rope chart reuse');
});

test.run();
