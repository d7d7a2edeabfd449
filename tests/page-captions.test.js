// Each view whose caption states a fact about the numbers it draws shows that
// fact at every d the bar allows, read from the page's own drawn facts (data-*
// beside the figure, never pixels) at d = 2 … 2048. The first view has its own
// sweep (tests/page-why.test.js); these are the views after it:
// - rotation: R(k)·PE(p) = PE(p + k) ("one fixed rotation"), and the similarity
//   matrix's bands run parallel to the diagonal;
// - embedding: the same word's rows are identical before the add and differ after;
// - naive: the sinusoids' step between neighbours is constant;
// - comparison: the sinusoidal and RoPE panels have bands parallel to the
//   diagonal, the learned one does not;
// - precision: the naive recipes climb to noise while posenc stays at its rounding;
// - t5-distance: RoPE's score changes with the offset in waves or a smooth fall,
//   and its facts say which, and whether it decays, as it does at that d.
// The squiggles' and heatmap's captions state the formula's own properties (pair
// 0's wavelength 2π, slower pairs further on), which hold at every d by definition.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

// The ends of the bar's range, the smallest d with two pairs, the default and between: every even d is too slow
// for a browser (a page load each); the views' facts change smoothly with d between these.
const DS = [2, 4, 6, 16, 128, 512, 2048];

/** The drawn facts of every view checked, at one d. */
async function factsAt(page, url, d) {
  await open(page, `${url}?d=${d}`);
  const read = {};
  await caughtUp(page, '#similarity-facts');
  read.rotation = await page.evaluate(() => ({
    residual: Number(document.getElementById('rotation-residual').dataset.residual),
    bands: Number(document.getElementById('similarity-facts').dataset.bandDeviation),
  }));
  await caughtUp(page, '#embedding canvas');
  read.embedding = await page.evaluate(() => ({
    before: Number(document.getElementById('rows-before').textContent),
    after: Number(document.getElementById('rows-after').textContent),
    wordAfter: Number(document.getElementById('word-after').textContent),
  }));
  await caughtUp(page, '#naive-facts');
  await page.waitForFunction(() => document.getElementById('naive-facts').dataset.stepMax, null, { timeout: 10_000 });
  read.naive = await page.$eval('#naive-facts', (ul) => ({
    min: Number(ul.dataset.stepMin),
    max: Number(ul.dataset.stepMax),
  }));
  await caughtUp(page, '#cmp-facts');
  read.comparison = await page.$eval('#cmp-facts', (ul) => ({
    sin: Number(ul.dataset.sinSpread),
    rope: Number(ul.dataset.ropeSpread),
    learned: Number(ul.dataset.learnedSpread),
  }));
  await caughtUp(page, '#precision-facts');
  read.precision = await page.$eval('#precision-facts', (ul) => JSON.parse(ul.dataset.worstFrom65536));
  await caughtUp(page, '#t5-facts');
  read.t5 = await page.$eval('#t5-facts', (p) => ({
    ripple: Number(p.dataset.ropeRipple),
    far: Number(p.dataset.ropeFar),
    text: p.textContent,
  }));
  return read;
}

for (const d of DS) {
  it(`every view shows its caption's fact at d = ${d}`, async () => {
    const { page, server } = session;
    const f = await factsAt(page, server.url, d);
    console.log(
      `  d ${d}: residual ${f.rotation.residual.toExponential(1)}, bands ${f.rotation.bands.toExponential(1)}; ` +
        `rows ${f.embedding.before}/${f.embedding.after}, word ${f.embedding.wordAfter}; ` +
        `step ${f.naive.min}…${f.naive.max}; spreads sin ${f.comparison.sin.toExponential(1)} rope ` +
        `${f.comparison.rope.toExponential(1)} learned ${f.comparison.learned.toFixed(2)}; precision ${JSON.stringify(f.precision)}; ` +
        `t5 RoPE ripple ${f.t5.ripple.toExponential(1)}, far ${f.t5.far.toFixed(3)}`,
    );
    // Rotation: "Moving k positions turns every pair by its own angle": R(k)·PE(p) is PE(p + k) to float32's
    // rounding; "the bands run parallel to the diagonal": every entry equals the first row's at its offset.
    assert.ok(f.rotation.residual < 1e-6, `rotation: |R(k)·PE(p) − PE(p+k)| = ${f.rotation.residual}`);
    assert.ok(f.rotation.bands < 1e-4, `rotation: bands off the diagonal by ${f.rotation.bands}`);
    // Embedding: "identical before the add, different after it" (the default sentences swap two words).
    assert.ok(f.embedding.before > 0 && f.embedding.after < f.embedding.before, `embedding rows ${f.embedding}`);
    assert.ok(
      f.embedding.wordAfter < 0.99,
      `embedding: the same word after the add has cosine ${f.embedding.wordAfter}`,
    );
    // Naive: "the sinusoids stay bounded with a constant step".
    assert.ok(f.naive.max > 0, `naive: step ${f.naive.max}`);
    assert.ok((f.naive.max - f.naive.min) / f.naive.max < 1e-4, `naive: step ${f.naive.min} … ${f.naive.max}`);
    // Comparison: "which panels have bands parallel to the diagonal": sinusoidal and RoPE do, learned does not.
    assert.ok(f.comparison.sin < 1e-4, `comparison: sinusoidal diagonals vary by ${f.comparison.sin}`);
    assert.ok(f.comparison.rope < 1e-4, `comparison: RoPE diagonals vary by ${f.comparison.rope}`);
    assert.ok(f.comparison.learned > 0.05, `comparison: learned diagonals vary by only ${f.comparison.learned}`);
    // Precision: "the dashed naive recipes climbing to noise as the position grows while posenc stays at its
    // rounding error", over the sampled positions from 2^16 on (to 2^31: at d = 2 the float32 angle p·1 is exact
    // up to 2^24, and climbs past it).
    const p = f.precision;
    assert.ok(p.posenc32 <= 6e-8, `precision: posenc float32 ${p.posenc32}`);
    for (const key of ['recipe32', 'recipe16', 'recipeBf16']) {
      const worst = p[key] === 'Infinity' ? Infinity : Number(p[key]);
      assert.ok(worst > 0.5, `precision: the naive ${key} only reaches ${worst} from 2^16 on`);
    }
    // T5 and neighbours: "RoPE's query–key score changes with it too: in waves, or in a smooth fall where many
    // pairs' turns average out". The facts name which, and say it decays only where it does: with one or two
    // pairs it oscillates at full size across the span (said "oscillates and decays" until session 35); at
    // d = 1024 and 2048 it no longer visibly oscillates (the caption said "oscillates" until then).
    const waves = f.t5.ripple >= 0.02;
    const decays = f.t5.far <= 0.9;
    const says = (pattern) => pattern.test(f.t5.text);
    const what = `t5: ripple ${f.t5.ripple}, far ${f.t5.far}; facts: ${f.t5.text}`;
    assert.is(says(/falls smoothly/), !waves, what);
    assert.is(says(/oscillates without decaying/), waves && !decays, what);
    assert.is(says(/oscillates \(rising again by up to [0-9.]+\) and decays/), waves && decays, what);
    if (!waves) assert.ok(decays, what);
    noProblems(`captions d ${d}`);
  });
}

test.run();
