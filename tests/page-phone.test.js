// Phones (390 × 844): no view is taller than two screens (the facts, the RoPE
// aside and the secondary figures fold to a title there, charts are drawn
// shorter), and a view's own controls stay on screen while its figure is: a
// compact bar stuck under the parameter bar, within its section. Checked at
// the default and the largest size, with every view drawn.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { caughtUp, drawEveryView, open } from './support/browser-page.js';

const session = browserSession(test);
const { it, noProblems } = session;

const PHONE = { width: 390, height: 844 };
const MARGIN = 32;
const SIZES = [
  { name: 'default size', query: '' },
  { name: 'd = 2048, length = 8192', query: '?d=2048&len=8192' },
];

// At 110 px with an x label and uPlot's 50 px x axis, the similarity chart's plot was 18 px tall and its y axis
// showed only 0: the line plots a phone draws short (the comparison's two profiles, the RoPE and precision charts)
// keep a plot that reads, at least three labelled y ticks on at least 60 px, and axis labels no longer than the plot's sides.
async function checkCharts(page, query) {
  const charts = await page.$$eval('[data-y-ticks]', (all) =>
    all
      .filter((c) => c.getClientRects().length)
      .map((c) => ({
        id: c.id,
        ticks: c.dataset.yTicks.split(' | ').filter(Boolean),
        height: Number(c.dataset.plotHeight),
        width: Number(c.dataset.plotWidth),
        labels: c.dataset.labelWidths.split(' ').map(Number), // x, y
      })),
  );
  console.log(
    `  ${query || 'default'}: ${charts.map((c) => `${c.id} ${c.height} px, y ${c.ticks.join(' ')}`).join('; ')}`,
  );
  assert.ok(
    ['cmp-profile', 'cmp-alibi-profile'].every((id) => charts.some((c) => c.id === id)),
    'the comparison’s two profiles are among them',
  );
  // Three ticks or more, and never so many that their labels (12 px) touch.
  const cramped = charts.filter((c) => c.ticks.length < 3 || c.height < 60 || c.height / (c.ticks.length - 1) < 14);
  // uPlot centres the y label on the plot and the canvas cuts what is longer (the long-range chart's was).
  const cut = charts
    .filter(({ labels: [x, y], width, height }) => !(x <= width && y <= height))
    .map((c) => `${c.id}: labels x ${c.labels[0]}, y ${c.labels[1]} px on a plot of ${c.width} × ${c.height} px`);
  assert.equal(cut, [], 'axis labels longer than their side of the plot');
  assert.equal(
    cramped.map((c) => `${c.id}: ${c.height} px, y ${c.ticks.join(' ')}`),
    [],
    'cramped charts',
  );
}

/** Each view's control bar: every control whole, inside its bar and on the screen. */
async function checkControlBars(page) {
  // The bar's controls wrap onto as many rows as they need: each control (label, slider, box, button, menu) lies
  // whole inside its bar and inside the screen's width, so none is behind the edge or reached only by scrolling.
  const cut = await page.$$eval('main section[id] > .figure-controls', (rows) =>
    rows.flatMap((row) => {
      const box = row.getBoundingClientRect();
      const where = (el, r) =>
        `${row.closest('section').id} ${el.id || el.textContent.trim().slice(0, 20)}: ` +
        `${r.left.toFixed(0)}–${r.right.toFixed(0)} × ${r.top.toFixed(0)}–${r.bottom.toFixed(0)} in ` +
        `${box.left.toFixed(0)}–${box.right.toFixed(0)} × ${box.top.toFixed(0)}–${box.bottom.toFixed(0)}`;
      const controls = [...row.querySelectorAll('input, select, button, label')].filter(
        (el) => el.getClientRects().length,
      );
      const inside = (r) =>
        r.top >= box.top - 0.5 &&
        r.bottom <= box.bottom + 0.5 &&
        r.left >= Math.max(0, box.left) - 0.5 &&
        r.right <= Math.min(innerWidth, box.right) + 0.5;
      const scrolled = row.scrollWidth > row.clientWidth + 1 ? [`${row.closest('section').id}: scrolls sideways`] : [];
      return [
        ...scrolled,
        ...controls
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([, r]) => !inside(r))
          .map(([el, r]) => where(el, r)),
      ];
    }),
  );
  assert.equal(cut, [], 'controls cut by the edge of their bar or of the screen');
}
// A log chart's plot with marker labels, at least (precision's was 98 px on a phone, RoPE's speed chart 78).
const MARKED_PLOT_PX = 150;

// Boxes "x0 y0 x1 y1" as the drawing code writes them (CSS px from the canvas's corner).
const boxes = (text) => (text ? text.split(', ').map((b) => b.split(' ').map(Number)) : []);
const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const inside = (a, outer) => a[0] >= outer[0] && a[1] >= outer[1] && a[2] <= outer[2] && a[3] <= outer[3];

/**
 * Text drawn on the charts runs into nothing: the log charts' marker labels (precision's integer limits, the RoPE
 * bands' thresholds, long range's L0) clear each other and stay inside the plot, off its axes; the comparison
 * panels' title lines, subtitle and heatmap follow each other without touching. Fixed by eye on a 390 px phone
 * (labels drawn over each other and over the y axis, titles over the subtitle); the drawing code writes its boxes.
 */
async function checkChartText(page, where) {
  const charts = await page.$$eval('[data-marker-boxes], canvas[data-text-boxes]', (all) =>
    all
      .filter((c) => c.getClientRects().length)
      .map((c) => ({
        id: c.id,
        labels: c.dataset.markerBoxes ?? c.dataset.textBoxes,
        plot: c.dataset.markerPlot ?? c.dataset.plotBox,
        stacked: 'textBoxes' in c.dataset,
      })),
  );
  const problems = [];
  for (const chart of charts) {
    const labels = boxes(chart.labels);
    const [plot] = boxes(chart.plot);
    if (!chart.stacked && labels.length && plot[3] - plot[1] < MARKED_PLOT_PX)
      problems.push(`${chart.id}: a plot ${plot[3] - plot[1]} px tall`);
    labels.forEach((a, n) => {
      for (const b of labels.slice(n + 1)) if (overlap(a, b)) problems.push(`${chart.id}: ${a} over ${b}`);
      // A marker's label inside its plot; a panel's titles above its heatmap.
      if (chart.stacked ? a[3] > plot[1] : !inside(a, plot)) problems.push(`${chart.id}: ${a} out of plot ${plot}`);
    });
  }
  console.log(`  ${where}: ${charts.map((c) => `${c.id} ${boxes(c.labels).length}`).join(', ')} labels`);
  assert.ok(
    ['precision-plot', 'rope-bands', 'cmp-sin'].every((id) => charts.some((c) => c.id === id)),
    where,
  );
  assert.ok(charts.find((c) => c.id === 'precision-plot').labels.split(', ').length >= 2, 'precision’s labels');
  assert.equal(problems, [], `chart text running into other text or the axes, ${where}`);
}

/** Each checkbox level with its label's first line of text (on the baseline a 24 px box stood 7 px above it). */
async function checkCheckboxes(page, where) {
  const offsets = await page.$$eval('label input[type="checkbox"]', (boxes) =>
    boxes
      .filter((box) => box.getClientRects().length)
      .map((box) => {
        const text = document.createTreeWalker(box.closest('label'), NodeFilter.SHOW_TEXT);
        let node = text.nextNode();
        while (node && !node.textContent.trim()) node = text.nextNode();
        const range = document.createRange();
        range.selectNodeContents(node);
        const line = range.getClientRects()[0];
        const r = box.getBoundingClientRect();
        return [box.id, line.top + line.height / 2 - (r.top + r.height / 2)];
      }),
  );
  console.log(`  ${where}: checkbox to text ${offsets.map(([id, dy]) => `${id} ${dy.toFixed(1)}`).join(', ')} px`);
  assert.ok(offsets.length >= 4, `${where}: the checkboxes were found`);
  const off = offsets.filter(([, dy]) => Math.abs(dy) > 3).map(([id, dy]) => `${id} ${dy.toFixed(1)} px`);
  assert.equal(off, [], `${where}: checkboxes off their label's line`);
}

/** The heatmap's x-axis labels (positions 0 … 8192 on a 300 px plot) do not run into each other. */
async function checkHeatmapTicks(page) {
  await caughtUp(page, '#heatmap canvas');
  const boxes = await page.$eval('#heatmap canvas', (c) => [c.dataset.xTicks, c.dataset.xTickBoxes]);
  console.log(`  heatmap x ticks: ${boxes[0]} at ${boxes[1]}`);
  const spans = boxes[1].split(', ').map((b) => b.split(' ').map(Number));
  assert.ok(spans.length >= 2, `heatmap x ticks: ${boxes[1]}`);
  const touching = spans.slice(1).filter(([left], n) => left - spans[n][1] < 4);
  assert.equal(touching, [], `heatmap x tick labels closer than 4 px: ${boxes[0]} at ${boxes[1]}`);
}

for (const size of SIZES) {
  it(`every view drawn on a phone, ${size.name}: none taller than two screens, charts readable`, async () => {
    const { page, server } = session;
    await page.setViewportSize(PHONE);
    await open(page, `${server.url}${size.query}`);
    await drawEveryView(page);
    const heights = await page.$$eval('main section[id]', (all) =>
      all.map((s) => [s.id, Math.round(s.getBoundingClientRect().height)]),
    );
    console.log(`  ${size.name}: ${heights.map(([id, h]) => `${id} ${h}`).join(', ')} px`);
    // With a margin: a line more of text (a longer fact, a wider font) must not tip a view over.
    const limit = 2 * PHONE.height - MARGIN;
    const tall = heights.filter(([, h]) => h > limit).map(([id, h]) => `${id} ${h} px`);
    assert.equal(tall, [], `views taller than ${limit} px (two screens less ${MARGIN} px)`);
    // The same page, every view drawn: its charts, and at the largest size its control bars and heatmap ticks.
    await checkCharts(page, size.query);
    await checkChartText(page, `390 px, ${size.name}`);
    if (!size.query) await checkCheckboxes(page, '390 px');
    if (size.query) {
      await checkControlBars(page);
      await checkHeatmapTicks(page);
    }
    noProblems(size.name);
  });
}

it('chart text clear of other text and of the axes on a desktop', async () => {
  const { page, server } = session;
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, server.url);
  await drawEveryView(page);
  await checkChartText(page, '1440 px');
  await checkCheckboxes(page, '1440 px');
  noProblems('desktop chart text');
});

it('the comparison panels’ titles are whole and inside their canvases on a phone', async () => {
  const { page, server } = session;
  await page.setViewportSize(PHONE);
  await open(page, server.url);
  await caughtUp(page, '#comparison');
  const titles = await page.$$eval('#comparison canvas[id^="cmp-"]', (all) =>
    all.map((c) => ({
      id: c.id,
      title: c.dataset.title ?? '',
      subtitle: c.dataset.subtitle ?? '',
      width: Number(c.dataset.titleWidth),
      canvas: c.getBoundingClientRect().width,
    })),
  );
  console.log(
    `  titles: ${titles.map((t) => `${t.id} "${t.title.replace('\n', ' / ')}" (${t.subtitle}) ${t.width.toFixed(0)} of ${t.canvas.toFixed(0)} px`).join('; ')}`,
  );
  assert.is(titles.length, 4, 'four panels');
  // Whole: nothing shortened with an ellipsis (the formula is what the panel shows); inside: from x = 4 to the edge.
  const cut = titles.filter((t) => !t.title || t.title.includes('…') || !(t.width + 4 <= t.canvas));
  // A subtitle keeps whole parts ("head_dim 128, base 10000"), never a number cut short ("base 1000…").
  const shortened = titles.filter((t) => !t.subtitle || t.subtitle.includes('…')).map((t) => `${t.id}: ${t.subtitle}`);
  assert.equal(shortened, [], 'panel subtitles cut inside a part');
  assert.equal(cut, [], 'panel titles cut off');
  assert.ok(titles[0].title.includes('cos(PE(i), PE(j))'), `the sinusoidal panel's title: ${titles[0].title}`);
  noProblems('phone titles');
});

it('a view’s own controls stay on screen, clear of the parameter bar, while its figure is', async () => {
  const { page, server } = session;
  await page.setViewportSize(PHONE);
  await open(page, server.url);
  const ids = await page.$$eval('main section[id]', (all) =>
    all.filter((s) => s.querySelector(':scope > .figure-controls')).map((s) => s.id),
  );
  assert.ok(ids.length >= 6, `views with their own controls: ${ids}`);
  const misses = [];
  for (const id of ids) {
    await caughtUp(page, `#${id}`);
    // Every figure of the view (canvas or chart) brought to the screen's middle in turn: the controls stay in view.
    const figures = await page.$$eval(`#${id} canvas, #${id} .plot`, (all) => all.length);
    for (let n = 0; n < figures; n++) {
      const where = await page.evaluate(
        ([id, n]) => {
          const figure = document.querySelectorAll(`#${id} canvas, #${id} .plot`)[n];
          if (!figure.getClientRects().length) return null; // folded away on a phone
          figure.scrollIntoView({ block: 'center' });
          const controls = document.querySelector(`#${id} > .figure-controls`).getBoundingClientRect();
          const bar = document.getElementById('controls').getBoundingClientRect();
          return {
            figure: figure.id || `${id} figure ${n}`,
            top: controls.top,
            bottom: controls.bottom,
            bar: bar.bottom,
          };
        },
        [id, n],
      );
      if (!where) continue;
      const seen = where.top >= where.bar - 1 && where.bottom <= PHONE.height && where.bottom > where.top;
      if (!seen) misses.push(`${where.figure}: controls at ${where.top.toFixed(0)}–${where.bottom.toFixed(0)} px`);
    }
  }
  assert.equal(misses, [], 'figures whose controls were off screen or under the bar');
  // Compact: a few short rows, at most a fifth of the screen, not a sheet over the figure.
  const tallest = await page.$$eval('main section[id] > .figure-controls', (all) =>
    Math.max(...all.map((c) => c.getBoundingClientRect().height)),
  );
  assert.ok(tallest <= PHONE.height / 5, `a view's control bar is ${tallest} px tall on a phone`);
  noProblems('phone controls');
});

test.run();
