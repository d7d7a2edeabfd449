// View 4's count of shared rows: "rows of A that are also rows of B", before and
// after the add, at the default d and at d = 2048 (where the count compares rows
// bit for bit, in place). Before the add a row is a word's vector scaled, so A's
// rows found in B are A's words that B also has; after it, a row also carries its
// position, so only the same word at the same position is shared. The expected
// counts come from the words alone, not from the page's vectors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

const words = (sentence) => sentence.toLowerCase().split(/\s+/).filter(Boolean);

/** A's rows that B also has, before the add (by word) and after it (by word and position). */
function expectedShared(a, b) {
  const [wa, wb] = [words(a), words(b)];
  return {
    before: wa.filter((w) => wb.includes(w)).length,
    after: wa.filter((w, r) => wb[r] === w).length,
  };
}

const CASES = [
  { d: 128, s1: 'The cat chased the mouse', s2: 'The mouse chased the cat' },
  { d: 2048, s1: 'The cat chased the mouse', s2: 'The mouse chased the cat' },
  { d: 2048, s1: 'a b a c', s2: 'a a b d' },
];

for (const { d, s1, s2 } of CASES) {
  it(`shared rows before and after the add: d = ${d}, "${s1}" / "${s2}"`, async () => {
    const { page, server } = session;
    const query = new URLSearchParams({ d: String(d), s1, s2 });
    await open(page, `${server.url}?${query}`);
    await caughtUp(page, '#embedding-canvas');
    await page.waitForSelector('#rows-after');
    const shown = await page.evaluate(() => ({
      before: Number(document.getElementById('rows-before').textContent),
      after: Number(document.getElementById('rows-after').textContent),
    }));
    const want = expectedShared(s1, s2);
    console.log(
      `  d = ${d}: page ${shown.before} before, ${shown.after} after; words say ${want.before}, ${want.after}`,
    );
    assert.equal(shown, want);
    noProblems(`d = ${d}`);
  });
}

test.run();
