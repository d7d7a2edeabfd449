// Motion and the linked cursor: play/pause of p and k in the rotation view
// (every shown circle turns visibly: only pairs with a wavelength of at most
// 1000 positions are shown), the position player of the squiggles and the
// heatmap, and one position cursor shared by the views.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { canvasPrint, centre, drawEveryView, open, query } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

it('play p turns every shown circle; pause stops it and writes the URL', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await drawEveryView(page);
  await centre(page, '#circles-canvas');
  const pairs = (await page.getAttribute('#circles-canvas', 'data-pairs')).split(' ').map(Number);
  assert.ok(pairs.length >= 6, `${pairs.length} circles`);
  for (const i of pairs) {
    // Wavelength 2π·T^(2i/d) with the defaults d = 128, T = 10000.
    const wavelength = 2 * Math.PI * 10000 ** ((2 * i) / 128);
    assert.ok(wavelength <= 1000, `pair ${i} turns once every ${wavelength.toFixed(0)} positions`);
  }
  assert.match(await page.textContent('#circles-note'), `pairs 0–${pairs.at(-1)}`);
  const before = await canvasPrint(page, '#circles-canvas');
  await page.click('#play-p');
  assert.is(await page.getAttribute('#play-p', 'aria-pressed'), 'true');
  await page.waitForFunction(() => Number(document.getElementById('ctl-p').value) >= 25, null, { timeout: 10_000 });
  await page.click('#play-p');
  const stopped = Number(await page.inputValue('#ctl-p'));
  await page.waitForTimeout(300);
  assert.is(Number(await page.inputValue('#ctl-p')), stopped, 'paused');
  assert.is((await query(page)).p, String(stopped), 'the URL has the paused p');
  assert.not.equal((await canvasPrint(page, '#circles-canvas')).hash, before.hash, 'the circles moved');
  // k plays the same way.
  await page.click('#play-k');
  await page.waitForFunction(() => Number(document.getElementById('ctl-k').value) >= 15, null, { timeout: 10_000 });
  await page.click('#play-k');
  noProblems('play p, k');
});

it('hovering a position in the squiggles marks it in the heatmap, and the reverse', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await drawEveryView(page);
  await centre(page, '#squiggles-plot');
  const over = await page.locator('#squiggles-plot .u-over').boundingBox();
  await page.mouse.move(over.x + over.width * 0.4, over.y + over.height / 2);
  const p = Number(await page.getAttribute('#squiggles-readout', 'data-p'));
  assert.ok(p > 50 && p < 200, `p = ${p}`);
  assert.is(await page.getAttribute('#heatmap-readout', 'data-p'), String(p), 'the heatmap reads the same position');
  assert.is(await page.isHidden('#heatmap-cursor'), false, 'the heatmap marks it');
  // And from the heatmap to the squiggles, from the keyboard.
  await page.mouse.move(0, 0);
  await page.focus('#heatmap-canvas');
  for (const key of ['ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
  const q = await page.getAttribute('#heatmap-readout', 'data-p');
  assert.is(await page.getAttribute('#squiggles-readout', 'data-p'), q);
  noProblems('linked cursor');
});

it('play position sweeps the shared cursor across the table', async () => {
  const { page, server } = session;
  await open(page, `${server.url}?len=100`);
  await drawEveryView(page);
  await centre(page, '#heatmap-canvas');
  await page.click('#play-heatmap');
  await page.waitForFunction(() => Number(document.getElementById('heatmap-readout').dataset.p) >= 20, null, {
    timeout: 10_000,
  });
  await page.click('#play-heatmap');
  const p = Number(await page.getAttribute('#squiggles-readout', 'data-p'));
  assert.ok(p >= 20, `the squiggles follow: ${p}`);
  noProblems('play position');
});

test.run();
