// Motion and the linked cursor: play/pause of p and k in the rotation view
// (every shown circle turns visibly: only pairs with a wavelength of at most
// 1000 positions are shown), the position player of the squiggles and the
// heatmap, and one position cursor shared by the views: pointing at a position
// in any view that shows positions (by mouse or keyboard) marks it in all of
// them — squiggles, heatmap, the rotation view's p and similarity matrix, the
// four comparison matrices, the long-range and precision plots, T5's offsets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import {
  canvasPrint,
  caughtUp,
  centre,
  drawEveryView,
  frames,
  open,
  pressKey,
  query,
  settledOnScreen,
} from './support/browser-page.js';

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
  await frames(page, 20); // the player steps once a frame: twenty frames without a step is paused
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

/** The position each linked view marks and reads (null where it marks nothing). */
function marks(page) {
  return page.evaluate(() => {
    const shown = (selector) =>
      [...document.querySelectorAll(selector)].filter((el) => !el.hidden && el.getBoundingClientRect().height > 0);
    const number = (v) => (v === undefined || v === '' ? null : Number(v));
    const data = (id, key = 'cursor') => number(document.getElementById(id).dataset[key]);
    return {
      squiggles: data('squiggles-readout', 'p'),
      heatmap: data('heatmap-readout', 'p'),
      rotation: data('similarity-canvas'),
      rotationReadout: data('similarity-readout', 'p'),
      comparison: ['cmp-sin', 'cmp-learned', 'cmp-rope', 'cmp-alibi'].map((id) => data(id)),
      comparisonKey: data('cmp-readout', 'j'),
      longrange: data('longrange-plot'),
      precision: data('precision-plot'),
      t5: [data('t5-buckets-plot'), data('t5-others-plot')],
      t5Readout: data('t5-readout', 'offset'),
      lines: {
        rotation: shown('#rotation .shared-cursor').length,
        comparison: shown('#comparison .shared-cursor').length,
        longrange: shown('#longrange .shared-cursor').length,
        precision: shown('#precision .shared-cursor').length,
        t5: shown('#t5-distance .shared-cursor').length,
      },
    };
  });
}

/**
 * Waits (up to 10 s) for every linked view to mark position p, then asserts it: a view marks the cursor on its
 * next frame, so a loaded machine may read the marks between the input and that frame (h5 saw heatmap null).
 */
async function markedEverywhere(page, p, where) {
  let m = await marks(page);
  for (const until = Date.now() + 10_000; !isMarked(m, p) && Date.now() < until; m = await marks(page)) {
    await frames(page, 1);
  }
  assertMarkedEverywhere(m, p, where);
}

function isMarked(m, p) {
  try {
    assertMarkedEverywhere(m, p, '');
    return true;
  } catch {
    return false;
  }
}

/** Asserts that every linked view marks position p (p < 128: inside every window on the default page). */
function assertMarkedEverywhere(m, p, where) {
  const expected = {
    squiggles: p,
    heatmap: p,
    rotation: p,
    rotationReadout: p,
    comparison: [p, p, p, p],
    comparisonKey: p,
    longrange: p,
    precision: p,
    t5: [p, p],
    t5Readout: p,
  };
  for (const [view, value] of Object.entries(expected)) assert.equal(m[view], value, `${where}: ${view}`);
  // A line over every chart, a row and a column over every matrix.
  assert.equal(m.lines, { rotation: 2, comparison: 8, longrange: 1, precision: 1, t5: 2 }, `${where}: lines`);
}

it('one cursor across every view that shows positions, from the mouse and the keyboard', async () => {
  const { page, server } = session;
  await open(page, server.url);
  // Every view drawn once (views below the fold may be made only when they scroll in).
  for (const id of ['#similarity-canvas', '#cmp-rope', '#longrange-plot', '#precision-plot', '#t5-buckets-plot']) {
    await caughtUp(page, id);
  }
  // Views fetched when they near the screen draw once their code is in.
  await page.waitForSelector('#t5-others-plot canvas');
  // From the squiggles, by mouse.
  await centre(page, '#squiggles-plot');
  const over = await page.locator('#squiggles-plot .u-over').boundingBox();
  await page.mouse.move(over.x + over.width * 0.25, over.y + over.height / 2);
  const p = Number(await page.getAttribute('#squiggles-readout', 'data-p'));
  assert.ok(p > 20 && p < 120, `p = ${p}`);
  await markedEverywhere(page, p, 'squiggles hover');
  await page.mouse.move(0, 0);
  // From the precision plot, by keyboard: its sampled positions 1, 2, 3, 4, …
  await centre(page, '#precision-plot');
  await page.focus('#precision-plot');
  for (let n = 0; n < 3; n++) await page.keyboard.press('ArrowRight');
  await markedEverywhere(page, 4, 'precision keys');
  // From the long-range plot, by keyboard (its distances 1, 2, 3, … at the start).
  await centre(page, '#longrange-plot');
  await page.focus('#longrange-plot');
  for (let n = 0; n < 5; n++) await page.keyboard.press('ArrowRight');
  const q = Number(await page.getAttribute('#longrange-readout', 'data-distance'));
  assert.ok(q > 4 && q < 20, `Δ = ${q}`);
  await markedEverywhere(page, q, 'long-range keys');
  // From a comparison matrix: the key position j of the cell.
  await centre(page, '#cmp-rope');
  await page.focus('#cmp-rope');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
  const j = Number(await page.getAttribute('#cmp-readout', 'data-j'));
  await markedEverywhere(page, j, 'comparison keys');
  // From T5's offsets, by mouse: offset Δ points at |Δ|.
  await centre(page, '#t5-buckets-plot');
  const t5 = await page.locator('#t5-buckets-plot .u-over').boundingBox();
  await page.mouse.move(t5.x + t5.width * 0.4, t5.y + t5.height / 2);
  const offset = Number(await page.getAttribute('#t5-readout', 'data-offset'));
  assert.ok(offset < -20 && offset > -120, `offset ${offset}`);
  const m = await marks(page);
  assert.is(m.squiggles, -offset, 'T5 hover: the squiggles read |Δ|');
  assert.is(m.longrange, -offset, 'T5 hover: the long-range plot marks |Δ|');
  await page.mouse.move(0, 0);
  // The rotation view's p: its slider moves the cursor.
  await centre(page, '#ctl-p-range');
  await pressKey(page, '#ctl-p-range', 'ArrowRight');
  // The cursor follows p when the rotation view draws the new p (a frame drawn for the scroll may come first).
  await page.waitForFunction(
    () => document.getElementById('squiggles-readout').dataset.p === document.getElementById('ctl-p').value,
  );
  const rotationP = Number(await page.inputValue('#ctl-p'));
  await markedEverywhere(page, rotationP, 'rotation p');
  // Views redrawn after the cursor was set (new charts) still mark it.
  await page.fill('#ctl-heads', '12');
  await page.press('#ctl-heads', 'Enter');
  for (const id of ['#cmp-rope', '#longrange-plot']) await caughtUp(page, id);
  await settledOnScreen(page);
  await frames(page, 2);
  await markedEverywhere(page, rotationP, 'after a redraw');
  noProblems('one cursor');
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
