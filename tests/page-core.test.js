// The web visualizer in Debian's Chromium: the static build served by a tiny
// local server (so it proves the built site works offline), driven through
// playwright-core. Every value the page prints is checked against the posenc
// package computed here in Node.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { serveStatic } from './support/browser-server.js';
import { downloadBytes } from './support/browser-download.js';
import { browserSession } from './support/browser-session.js';
import {
  allCanvases,
  canvasPrint,
  caughtUp,
  centre,
  checkControlSteps,
  drawEveryView,
  open,
  pressKey,
  query,
  redrawAfter,
  typeValue,
  watchPage,
} from './support/browser-page.js';

const pe = await instantiate();
const session = browserSession(test);
const { it, noProblems } = session;
let server;
let browser;
let page;

test.before(() => {
  ({ server, browser, page } = session);
});

/** The value PE(p, column j) the package gives, as the page prints it. */
function expected6(p, j, { d, base, layout }) {
  return pe.sinusoidalAt([p], { dim: d, base, layout })[j].toFixed(6);
}

it('loads with no console errors, only local requests, and every canvas drawn', async () => {
  await open(page, server.url);
  await drawEveryView(page);
  const canvases = await allCanvases(page);
  assert.ok(canvases.length >= 9, `expected the figures' canvases, got ${canvases.length}`);
  for (const c of canvases) {
    assert.ok(c.width > 50 && c.height > 50, `${c.name} is ${c.width}×${c.height}`);
    assert.ok(c.colours > 2, `${c.name} looks blank (${c.colours} colours)`);
  }
  const requested = server.requests.filter((r) => !r.startsWith('/assets/') && r !== '/');
  assert.equal(requested, [], 'only the page and its built assets are requested');
  assert.ok(
    server.requests.some((r) => r.endsWith('.wasm')),
    'the wasm core comes from the local server',
  );
  noProblems('first load');
});

it('the static build also works from a subfolder (relative asset URLs)', async () => {
  const parent = await serveStatic(new URL('../build/', import.meta.url).pathname);
  try {
    const sub = await browser.context.newPage();
    const local = watchPage(sub, parent.url);
    await open(sub, `${parent.url}site/?d=8&len=20`);
    assert.match(await sub.textContent('#engine'), 'WebAssembly');
    assert.ok(
      parent.requests.every((r) => r.startsWith('/site/')),
      parent.requests.join(' '),
    );
    await sub.close();
    assert.equal(local, []);
  } finally {
    await parent.close();
  }
});

it('each control redraws its figure and updates the URL', async () => {
  await open(page, server.url);
  await drawEveryView(page);
  const steps = [
    {
      what: 'd slider',
      param: 'd',
      target: '#heatmap-canvas',
      act: () => pressKey(page, '#ctl-d-range', 'ArrowRight'),
    },
    { what: 'd box', param: 'd', target: '#heatmap-canvas', act: () => typeValue(page, '#ctl-d', '96') },
    {
      what: 'length slider',
      param: 'len',
      target: '#heatmap-canvas',
      act: () => pressKey(page, '#ctl-len-range', 'ArrowRight'),
    },
    { what: 'length box', param: 'len', target: '#heatmap-canvas', act: () => typeValue(page, '#ctl-len', '300') },
    {
      what: 'base slider',
      param: 'base',
      target: '#heatmap-canvas',
      act: () => pressKey(page, '#ctl-base-range', 'ArrowLeft'),
    },
    { what: 'base box', param: 'base', target: '#heatmap-canvas', act: () => typeValue(page, '#ctl-base', '777') },
    {
      what: 'offset slider',
      param: 'off',
      target: '#heatmap-canvas',
      act: () => pressKey(page, '#ctl-off-range', 'ArrowRight'),
    },
    { what: 'offset box', param: 'off', target: '#heatmap-canvas', act: () => typeValue(page, '#ctl-off', '40') },
    { what: 'layout', param: 'layout', target: '#heatmap-canvas', act: () => page.check('#ctl-layout-interleaved') },
    {
      what: 'p slider',
      param: 'p',
      target: '#circles-canvas',
      act: () => pressKey(page, '#ctl-p-range', 'ArrowRight'),
    },
    { what: 'k box', param: 'k', target: '#circles-canvas', act: () => typeValue(page, '#ctl-k', '17') },
    { what: 'dimensions', param: 'dims', target: '#squiggles-plot canvas', act: () => page.fill('#ctl-dims', '2-5') },
    {
      what: 'sentence A',
      param: 's1',
      target: '#embedding-canvas',
      act: () => page.fill('#ctl-s1', 'A dog chased the cat'),
    },
    { what: '√d scale', param: 'scale', target: '#embedding-canvas', act: () => page.uncheck('#ctl-scale') },
    { what: 'theme', param: 'theme', target: '#heatmap-canvas', act: () => page.selectOption('#ctl-theme', 'dark') },
  ];
  await checkControlSteps(page, steps);
  const url = await query(page);
  assert.equal(
    { d: url.d, len: url.len, base: url.base, off: url.off, layout: url.layout, k: url.k, dims: url.dims },
    { d: '96', len: '300', base: '777', off: '40', layout: 'interleaved', k: '17', dims: '2-5' },
  );
  assert.is(await page.getAttribute('html', 'data-theme'), 'dark');
  noProblems('controls');
});

it('a URL with parameters restores the view', async () => {
  const params = 'd=64&len=500&base=500&off=7&layout=split&p=3&k=40&dims=1,2&scale=1&s1=A%20dog%20barks&theme=dark';
  await open(page, `${server.url}?${params}`);
  await drawEveryView(page);
  const values = await page.evaluate(() =>
    ['d', 'len', 'base', 'off', 'p', 'k', 'dims', 's1'].map((n) => document.getElementById(`ctl-${n}`).value),
  );
  assert.equal(values, ['64', '500', '500', '7', '3', '40', '1-2', 'A dog barks']);
  assert.ok(await page.isChecked('#ctl-layout-split'));
  assert.ok(await page.isChecked('#ctl-scale'));
  assert.is(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.match(await page.textContent('#rotation-residual'), 'p = 3, k = 40');
  assert.match(await page.textContent('#squiggles-legend'), 'dim 1 (sin, pair 1)');
  assert.match(await page.textContent('#squiggles-legend'), 'dim 2 (sin, pair 2)');
  assert.is(await page.textContent('#notes'), '');
  // The same view reached through the controls draws the same pixels.
  const fromUrl = await canvasPrint(page, '#heatmap-canvas');
  await open(page, `${server.url}?theme=dark&layout=split`);
  await drawEveryView(page);
  await redrawAfter(page, () => typeValue(page, '#ctl-d', '64'));
  await redrawAfter(page, () => typeValue(page, '#ctl-len', '500'));
  await redrawAfter(page, () => typeValue(page, '#ctl-base', '500'));
  await redrawAfter(page, () => typeValue(page, '#ctl-off', '7'));
  await caughtUp(page, '#heatmap-canvas'); // the frame counted may have drawn another view first
  assert.is((await canvasPrint(page, '#heatmap-canvas')).hash, fromUrl.hash);
  noProblems('restore');
});

it('malformed URL parts fall back to defaults; out-of-range values are clamped with a note', async () => {
  await open(page, `${server.url}?d=abc&len=99999&base=-5&off=-3&layout=diagonal&dims=zz&p=1e99`);
  await drawEveryView(page);
  const values = await page.evaluate(() =>
    ['d', 'len', 'base', 'off', 'p'].map((n) => document.getElementById(`ctl-${n}`).value),
  );
  assert.equal(values, ['128', '8192', '2', '0', '1000000']);
  assert.ok(await page.isChecked('#ctl-layout-split'), 'the default layout');
  const notes = await page.textContent('#notes');
  for (const word of [
    'd “abc” is not a number',
    'len 99999 is above 8192',
    'base -5 is below 2',
    'layout “diagonal”',
  ]) {
    assert.match(notes, word);
  }
  for (const c of await allCanvases(page)) assert.ok(c.colours > 2, `${c.name} is blank`);
  noProblems('malformed URL');
});

it('edge cases draw every figure without errors', async () => {
  const urls = [
    '?len=1&d=2',
    '?len=2&d=2&base=2&k=0&p=0',
    '?base=10000000&d=2048&len=16&off=1000000&p=1000000&k=8192',
    '?s1=...&s2=!!!',
    '?s1=alpha%20beta&s2=gamma&dims=200-300',
    `?s1=${'word '.repeat(60)}&scale=1&len=8192&d=2`,
  ];
  for (const url of urls) {
    await open(page, server.url + url);
    await drawEveryView(page);
    for (const c of await allCanvases(page)) assert.ok(c.colours > 2, `${url}: ${c.name} is blank`);
    noProblems(url);
  }
});

it('an odd d is explained, not crashed on', async () => {
  await open(page, `${server.url}?d=7`);
  await drawEveryView(page);
  assert.is(await page.inputValue('#ctl-d'), '8');
  assert.match(await page.textContent('#notes'), 'd = 7 is odd');
  await redrawAfter(page, () => typeValue(page, '#ctl-d', '33'));
  assert.is(await page.inputValue('#ctl-d'), '34');
  assert.match(await page.textContent('#notes'), 'd = 33 is odd');
  assert.is((await query(page)).d, '34');
  noProblems('odd d');
});

it('hover readouts print exactly the values the package computes', async () => {
  const view = { d: 96, len: 700, base: 500, off: 1000, layout: 'split' };
  await open(page, `${server.url}?d=${view.d}&len=${view.len}&base=${view.base}&off=${view.off}&layout=${view.layout}`);
  await drawEveryView(page);
  await centre(page, '#heatmap-canvas');
  const box = await page.locator('#heatmap-canvas').boundingBox();
  const seen = new Set();
  for (const [fx, fy] of [
    [0.2, 0.2],
    [0.5, 0.5],
    [0.83, 0.71],
    [0.1, 0.9],
    [0.65, 0.35],
  ]) {
    // Points inside the plot area (the canvas has margins for the axes).
    await page.mouse.move(box.x + 62 + fx * (box.width - 148), box.y + 34 + fy * (box.height - 78));
    const readout = page.locator('#heatmap-readout');
    const p = Number(await readout.getAttribute('data-p'));
    const j = Number(await readout.getAttribute('data-dim'));
    assert.ok(p >= view.off && p < view.off + view.len, `p = ${p}`);
    assert.ok(j >= 0 && j < view.d, `dimension ${j}`);
    const printed = (await readout.textContent()).match(/value = (-?\d+\.\d{6})/)?.[1];
    assert.is(printed, expected6(p, j, view), `heatmap readout at p = ${p}, dimension ${j}`);
    seen.add(`${p},${j}`);
  }
  assert.is(seen.size, 5, 'the readout follows the pointer');

  // Keyboard: focus the heatmap, then arrows move the read cell from (first position, dimension 0).
  await page.mouse.move(0, 0);
  await page.focus('#heatmap-canvas');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown'])
    await page.keyboard.press(key);
  const keyed = page.locator('#heatmap-readout');
  assert.is(await keyed.getAttribute('data-p'), String(view.off + 3));
  assert.is(await keyed.getAttribute('data-dim'), '2');
  assert.match(await keyed.textContent(), `value = ${expected6(view.off + 3, 2, view)}`);

  await centre(page, '#squiggles-plot');
  const over = await page.locator('#squiggles-plot .u-over').boundingBox();
  for (const fx of [0.1, 0.45, 0.9]) {
    await page.mouse.move(over.x + fx * over.width, over.y + over.height / 2);
    const text = await page.textContent('#squiggles-readout');
    const p = Number(text.match(/position p = (\d+)/)[1]);
    const lines = [...text.matchAll(/dimension\s+(\d+) .*value (-?\d+\.\d{6})/g)];
    assert.ok(lines.length >= 2, text);
    for (const [, j, printed] of lines) assert.is(printed, expected6(p, Number(j), view), `squiggles p = ${p}, d${j}`);
  }
  noProblems('hover');
});

it('the rotation residual shown is below 1e-6 (small and large p, k)', async () => {
  for (const [p, k, d] of [
    [10, 5, 128],
    [123456, 8000, 2048],
    [999999, 8192, 6],
  ]) {
    await open(page, `${server.url}?p=${p}&k=${k}&d=${d}&len=64`);
    await drawEveryView(page);
    const residual = Number(await page.getAttribute('#rotation-residual', 'data-residual'));
    const shown = Number(await page.textContent('#residual-value'));
    assert.ok(residual >= 0 && residual < 1e-6, `residual ${residual} at p = ${p}, k = ${k}, d = ${d}`);
    assert.ok(
      Math.abs(residual - rotationResidual(p, k, d)) < 1e-12,
      `page ${residual} vs Node ${rotationResidual(p, k, d)}`,
    );
    assert.ok(shown < 1e-6, `shown residual ${shown}`);
    const norms = await page
      .locator('#similarity-facts')
      .evaluate((el) => [el.dataset.minNorm, el.dataset.maxNorm].map(Number));
    for (const n of norms) assert.ok(Math.abs(n - Math.sqrt(d / 2)) < 1e-5, `row norm ${n} vs √(d/2)`);
  }
  noProblems('rotation');
});

/** max|R(k)·PE(p) − PE(p+k)| from the package's rows, rotating each (sin, cos) pair by k·w_i in double. */
function rotationResidual(p, k, d, base = 10000) {
  const rows = pe.sinusoidalAt([p, p + k], { dim: d, base });
  let worst = 0;
  for (let i = 0; i < d / 2; i++) {
    const angle = k * Math.pow(base, (-2 * i) / d);
    const [s, c] = [rows[2 * i], rows[2 * i + 1]];
    const rotated = [s * Math.cos(angle) + c * Math.sin(angle), c * Math.cos(angle) - s * Math.sin(angle)];
    worst = Math.max(worst, Math.abs(rotated[0] - rows[d + 2 * i]), Math.abs(rotated[1] - rows[d + 2 * i + 1]));
  }
  return worst;
}

it('exports: CSV and NPY of the table, the package’s values', async () => {
  const view = { d: 6, len: 5, base: 100, off: 3, layout: 'interleaved' };
  await open(page, `${server.url}?d=${view.d}&len=${view.len}&base=${view.base}&off=${view.off}&layout=interleaved`);
  await drawEveryView(page);
  const table = pe.sinusoidal({ length: view.len, dim: view.d, base: view.base, offset: view.off });

  // Each figure's PNG is page-access's export test (every button, at 2048 × 8192, in steps).
  const csv = (await downloadBytes(page, '#export-csv')).toString('utf8').trimEnd().split('\n');
  assert.is(csv.length, view.len + 1);
  assert.is(csv[0], 'position,d0,d1,d2,d3,d4,d5');
  for (let r = 0; r < view.len; r++) {
    const cells = csv[r + 1].split(',');
    assert.is(cells[0], String(view.off + r));
    cells.slice(1).forEach((cell, j) => {
      assert.match(cell, /^-?\d\.\d{9}$/);
      assert.ok(Math.abs(Number(cell) - table[r * view.d + j]) <= 5e-10, `CSV row ${r} column ${j}`);
    });
  }

  const npy = await downloadBytes(page, '#export-npy');
  assert.is(npy.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const headerLength = npy.readUInt16LE(8);
  assert.is((10 + headerLength) % 64, 0);
  assert.match(npy.subarray(10, 10 + headerLength).toString('latin1'), `'shape': (${view.len}, ${view.d})`);
  const body = npy.subarray(10 + headerLength);
  assert.is(body.length, view.len * view.d * 4);
  assert.ok(Buffer.from(table.buffer).equals(body), 'NPY values are the package bits');
  noProblems('exports');
});

it('a large table (8192 × 1024) draws and keeps redrawing quickly', async () => {
  await open(page, `${server.url}?d=1024&len=8192`);
  await drawEveryView(page);
  for (const c of await allCanvases(page)) assert.ok(c.colours > 2, `${c.name} is blank`);
  const times = [];
  for (let n = 0; n < 3; n++) {
    await redrawAfter(page, () => pressKey(page, '#ctl-base-range', 'ArrowLeft'));
    times.push(Number(await page.evaluate(() => document.body.dataset.renderMs)));
  }
  console.log(`  8192 × 1024 redraw times (ms): ${times.join(', ')}`);
  assert.ok(Math.min(...times) < 1000, `redraws take ${times.join(', ')} ms`);
  noProblems('large table');
});

test.run();
