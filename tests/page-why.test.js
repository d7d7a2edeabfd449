// View 0 shows what its caption says at every d: without position, sentence
// B's attention weights (in A's word order) are A's; with the encoding they
// differ by a visible share of one colour scale shared by all four panels.
// The sweep checks the numbers the view draws from, at every even d from 2 to
// 2048; the browser part reads the page's own drawn facts (data-* on the
// canvas, never pixels) at d = 2, 16, 128 and 2048.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../src/js/index.js';
import { SENTENCES, whyAttention, wordOrder } from '../web/src/compute/why-attention.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';

await init();
const session = browserSession(test);
const { it, noProblems } = session;

/** The share of the shared colour scale [0, largest weight] that the with-position panels differ by. */
function visibleShare(result) {
  const hi = Math.max(...result.without.a, ...result.without.bInA, ...result.with.a, ...result.with.bInA);
  return result.with.gap / hi;
}

test('the sentences use the same words, in an order that changes distances (not a reversal)', () => {
  const [a, b] = SENTENCES;
  assert.equal([...a].sort(), [...b].sort());
  const order = wordOrder(a, b);
  assert.equal(
    order.map((k) => b[k]),
    a,
  );
  const reversed = a.map((_, k) => a.length - 1 - k);
  assert.not.equal(order, reversed, 'a reversal keeps every distance: no distance-only score could differ');
});

test('every even d from 2 to 2048 at T = 10000: same without position, visibly different with it', () => {
  let worst = { share: Infinity };
  for (let d = 2; d <= 2048; d += 2) {
    const result = whyAttention(d, 10000);
    assert.ok(result.without.gap < 1e-12, `d ${d}: without position B differs from A by ${result.without.gap}`);
    assert.ok(result.without.outGap < 1e-6, `d ${d}: dog's output differs by ${result.without.outGap}`);
    const share = visibleShare(result);
    if (share < worst.share) worst = { share, d };
    assert.ok(result.with.outGap > 0.01, `d ${d}: dog's output with position differs by only ${result.with.outGap}`);
  }
  console.log(
    `  why view: smallest difference with position ${(100 * worst.share).toFixed(1)}% of the scale (d ${worst.d})`,
  );
  assert.ok(worst.share >= 0.15, `with position, d ${worst.d}: only ${(100 * worst.share).toFixed(1)}% of the scale`);
});

test('other bases the bar allows (2 and 10^7) still differ visibly', () => {
  for (const [base, least] of [
    [2, 0.06],
    [1e7, 0.12],
  ]) {
    for (let d = 2; d <= 2048; d += 14) {
      const share = visibleShare(whyAttention(d, base));
      assert.ok(share >= least, `T ${base}, d ${d}: ${(100 * share).toFixed(1)}% of the scale`);
    }
  }
});

for (const d of [2, 16, 128, 2048]) {
  it(`the page draws it at d = ${d}: shared scale, B = A without position, different with it`, async () => {
    const { page, server } = session;
    await open(page, `${server.url}?d=${d}`);
    await caughtUp(page, '#why-canvas');
    const drawn = await page.$eval('#why-canvas', (c) => ({ ...c.dataset, label: c.getAttribute('aria-label') }));
    assert.is(Number(drawn.d), d);
    assert.is(drawn.sharedScale, '1');
    const lo = Number(drawn.scaleLo);
    const hi = Number(drawn.scaleHi);
    assert.ok(hi > lo, `scale ${lo} … ${hi}`);
    assert.ok(Number(drawn.gapWithout) < 1e-9, `without position: ${drawn.gapWithout}`);
    const share = Number(drawn.gapWith) / (hi - lo);
    assert.ok(share >= 0.15, `with position the panels differ by ${(100 * share).toFixed(1)}% of the scale`);
    // The text alternative states the same fact.
    assert.match(drawn.label, `differ by up to ${Number(drawn.gapWith).toFixed(2)}`);
    noProblems(`why d ${d}`);
  });
}

test.run();
