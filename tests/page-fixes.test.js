// The small bugs and misleading defaults issue 13 lists, each with its check:
// length 1 in view 5, the offset slider's reach, exact tick labels at large
// offsets, the default squiggles (sine and cosine, no flat line, distinct
// colours), the default layout and √d scaling, and line colours' contrast.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { PAIR_PALETTE } from '../web/src/draw/colormap.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open, pressKey, query, redrawAfter } from './support/browser-page.js';

const pe = await instantiate();
const session = browserSession(test);
const { it, noProblems } = session;

it('length 1: view 5 says nothing about "far outside ±1" and plots around the one position', async () => {
  const { page, server } = session;
  await open(page, `${server.url}?len=1&d=2`);
  await caughtUp(page, '#naive-raw');
  const facts = await page.textContent('#naive-facts');
  assert.not.match(facts, 'far outside the ±1 range of the other features of an embedding');
  const [lo, hi] = (await page.getAttribute('#naive-raw', 'data-x-range')).split(' ').map(Number);
  assert.ok(lo <= 0 && hi >= 0 && hi - lo <= 2, `x range ${lo} … ${hi} around position 0`);
  // A longer table still says it.
  await open(page, `${server.url}?len=50`);
  await caughtUp(page, '#naive-raw');
  assert.match(await page.textContent('#naive-facts'), 'far outside the ±1 range');
  noProblems('length 1');
});

it('the offset slider reaches 10^6, as its box does, and steps by 1 from 0', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await redrawAfter(page, () => pressKey(page, '#ctl-off-range', 'ArrowRight'));
  assert.is((await query(page)).off, '1');
  await redrawAfter(page, () => pressKey(page, '#ctl-off-range', 'End'));
  assert.is((await query(page)).off, '1000000');
  assert.is(await page.inputValue('#ctl-off'), '1000000');
  noProblems('offset slider');
});

it('heatmap ticks at offset 10^6 are exact positions, not rounded "1.00005M"', async () => {
  const { page, server } = session;
  await open(page, `${server.url}?off=1000000&len=100`);
  await caughtUp(page, '#heatmap-canvas');
  const ticks = (await page.getAttribute('#heatmap-canvas', 'data-x-ticks')).split(' | ');
  assert.ok(ticks.length >= 3, ticks.join(' '));
  for (const tick of ticks) {
    const value = tick.endsWith('M') ? Number(tick.slice(0, -1)) * 1e6 : Number(tick.replaceAll(',', ''));
    assert.ok(Number.isInteger(value) && value >= 1e6 && value < 1e6 + 100, `tick “${tick}”`);
  }
  noProblems('ticks');
});

it('default squiggles: sine and cosine of each pair, no flat line, one distinct colour per pair', async () => {
  const { page, server } = session;
  await open(page, server.url);
  // The view's code is fetched after the first frame (data-ready): its legend is written when it draws.
  await caughtUp(page, '#squiggles-legend');
  const legend = await page.$$eval('#squiggles-legend > span', (items) =>
    items.map((item) => ({ text: item.textContent, color: item.querySelector('line').getAttribute('stroke') })),
  );
  const entries = legend.map(({ text, color }) => {
    const [, j, kind, pair] = text.match(/dim (\d+) \((sin|cos), pair (\d+)\)/);
    return { j: Number(j), kind, pair: Number(pair), color };
  });
  const pairs = [...new Set(entries.map((e) => e.pair))];
  // Issue 30: at most five curves on the axis by default; more on request (the buttons, the dims field).
  assert.ok(pairs.length >= 2 && entries.length <= 5, `${pairs.length} pairs, ${entries.length} curves`);
  for (const pair of pairs) {
    const kinds = entries
      .filter((e) => e.pair === pair)
      .map((e) => e.kind)
      .sort();
    assert.equal(kinds, ['cos', 'sin'], `pair ${pair} shows its sine and its cosine`);
  }
  assert.is(new Set(pairs.map((p) => entries.find((e) => e.pair === p).color)).size, pairs.length, 'colours differ');
  // No flat line: over the default 256 positions every shown column spans at least half of [−1, 1].
  const table = pe.sinusoidal({ length: 256, dim: 128, layout: 'split' });
  for (const { j } of entries) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let r = 0; r < 256; r++) {
      lo = Math.min(lo, table[r * 128 + j]);
      hi = Math.max(hi, table[r * 128 + j]);
    }
    assert.ok(hi - lo > 0.5, `column ${j} spans ${lo} … ${hi}`);
  }
  noProblems('default squiggles');
});

it('defaults: split layout (the familiar picture) and √d scaling on, explained', async () => {
  const { page, server } = session;
  await open(page, server.url);
  assert.ok(await page.isChecked('#ctl-layout-split'));
  assert.ok(await page.isChecked('#ctl-scale'));
  assert.match(await page.textContent('#embedding'), '√d');
  noProblems('defaults');
});

/** WCAG relative luminance of "#rrggbb". */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

it('every line colour has at least 3:1 contrast against both themes’ figure backgrounds', async () => {
  const { page, server } = session;
  await open(page, server.url);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    // The CSS value as #rrggbb, through a canvas's fillStyle.
    const background = await page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--figure-bg').trim();
      return ctx.fillStyle;
    });
    for (const color of PAIR_PALETTE) {
      const [a, b] = [luminance(color), luminance(background)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      assert.ok(ratio >= 3, `${color} on ${background} (${theme}): ${ratio.toFixed(2)}:1`);
    }
  }
  noProblems('contrast');
});

test.run();
