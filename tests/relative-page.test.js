// The page's section 9 (T5's buckets against distance) in Debian's Chromium,
// on the static build: both plots drawn, and the bucket starts it prints are
// those derived by hand from T5's formula (8·16^(k/8), rounded up), with no
// problem on the page.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { drawEveryView, open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

it("section 9 plots T5's buckets beside ALiBi and RoPE, and prints T5's bucket starts", async () => {
  const { page, server } = session;
  await open(page, server.url);
  await drawEveryView(page);
  await page.locator('#t5-distance').scrollIntoViewIfNeeded();
  // Its code is fetched when it nears the screen, then it draws.
  await page.waitForSelector('#t5-others-plot canvas');
  for (const id of ['#t5-buckets-plot', '#t5-others-plot']) {
    const drawn = await page.$eval(id, (el) => el.querySelectorAll('canvas').length);
    assert.ok(drawn > 0, `${id} has a canvas`);
  }
  const facts = await page.textContent('#t5-facts');
  assert.ok(facts.includes('0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91'), facts);
  assert.ok(facts.includes('share bucket 15'), facts);
  noProblems('section 9');
});

test.run();
