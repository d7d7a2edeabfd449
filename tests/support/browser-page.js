// Page helpers for the browser test: waiting for redraws, fingerprinting
// canvas pixels, and collecting everything that went wrong on the page.
import * as assert from 'uvu/assert';

/** Records console errors, page errors, failed loads and requests to any other host. */
export function watchPage(page, serverUrl) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(serverUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request to another host: ${url}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return problems;
}

/** Loads a URL and waits for the first full render. */
export async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
}

/**
 * Waits until every section within a screen of the viewport is loaded and drawn: body data-stale (the scheduler's
 * list of sections showing an older state, or not loaded yet) names none of them. The scheduler draws what lies
 * within half a screen above or below the viewport, so that band is what must catch up.
 */
export async function settledOnScreen(page, timeout = 20_000) {
  await page.waitForFunction(
    () => {
      const stale = (document.body.dataset.stale ?? '').split(' ');
      const near = (s) => {
        const r = s.getBoundingClientRect();
        return r.bottom > -0.5 * innerHeight && r.top < 1.5 * innerHeight;
      };
      return [...document.querySelectorAll('main section[id]')].every((s) => !near(s) || !stale.includes(s.id));
    },
    null,
    { timeout },
  );
}

/** Waits for n animation frames of the page: the clock its player and scheduler run on (one step per frame). */
export function frames(page, n) {
  return page.evaluate(
    (count) =>
      new Promise((done) => {
        const tick = (left) => (left === 0 ? done() : requestAnimationFrame(() => tick(left - 1)));
        tick(count);
      }),
    n,
  );
}

export const renderCount = (page) => page.evaluate(() => Number(document.body.dataset.renders ?? 0));

/** Runs action, then waits until the page has drawn at least one more frame. */
export async function redrawAfter(page, action) {
  const before = await renderCount(page);
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.renders ?? 0) > n, before, { timeout: 10_000 });
}

/**
 * A fingerprint of a canvas's pixels: a 32-bit FNV-1a hash over all bytes, and
 * how many distinct colours it has (1 means blank).
 */
export async function canvasPrint(page, selector) {
  await caughtUp(page, selector);
  return page.evaluate((sel) => {
    // Read through a fresh copy, so the page's own canvases are never read back.
    const source = document.querySelector(sel);
    const canvas = Object.assign(document.createElement('canvas'), { width: source.width, height: source.height });
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(source, 0, 0);
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4);
    const colours = new Set();
    let hash = 0x811c9dc5;
    for (let n = 0; n < words.length; n++) {
      hash = Math.imul(hash ^ words[n], 0x01000193);
      if (colours.size < 64) colours.add(words[n]);
    }
    return { hash: hash >>> 0, colours: colours.size, width: canvas.width, height: canvas.height };
  }, selector);
}

/**
 * Scrolls the element into view and waits until its section shows the current
 * state (the page redraws only views on screen, the others when they scroll in).
 */
export async function caughtUp(page, selector) {
  await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'center' }), selector);
  await page.waitForFunction(
    (sel) => {
      const element = document.querySelector(sel);
      const section = element.closest('section');
      const stale = (document.body.dataset.stale ?? '').split(' ').includes(section?.id);
      // Views loading above it may push it away: keep it in view until it is drawn.
      if (stale) element.scrollIntoView({ block: 'center' });
      return !stale;
    },
    selector,
    { timeout: 10_000, polling: 100 },
  );
}

/**
 * Scrolls through every view so each loads and draws (the views below the fold are loaded as they near the
 * viewport), then back to the top.
 */
export async function drawEveryView(page) {
  const ids = await page.$$eval('section[id]', (sections) => sections.map((s) => s.id));
  for (const id of ids) await caughtUp(page, `#${id}`);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Fingerprints of every canvas on the page, keyed by a readable name. */
export function allCanvases(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('canvas')].map((canvas, n) => {
      const copy = Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(canvas, 0, 0);
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4);
      const colours = new Set();
      for (let k = 0; k < words.length && colours.size < 8; k += 7) colours.add(words[k]);
      const name = canvas.id || `${canvas.closest('[id]')?.id ?? 'page'} canvas ${n}`;
      return { name, colours: colours.size, width: canvas.width, height: canvas.height };
    }),
  );
}

/** Scrolls an element to the middle of the viewport (clear of the sticky controls). */
export async function centre(page, selector) {
  await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'center' }), selector);
}

/**
 * An element's bounding box once two reads a frame apart agree (views drawing elsewhere can still move it;
 * a pointer placed by a stale box misses it). Throws after 5 s of movement.
 */
export async function settledBox(page, selector) {
  const end = Date.now() + 5000;
  let box = await page.locator(selector).boundingBox();
  while (Date.now() < end) {
    await frames(page, 2);
    const next = await page.locator(selector).boundingBox();
    if (box && next && ['x', 'y', 'width', 'height'].every((k) => Math.abs(box[k] - next[k]) < 0.5)) return next;
    box = next;
  }
  throw new Error(`${selector} kept moving for 5 s`);
}

/** The query string of the page's current URL as an object. */
export async function query(page) {
  return Object.fromEntries(new URL(page.url()).searchParams);
}

/** Focuses a native input and presses a key (keyboard use of sliders). */
export async function pressKey(page, selector, key) {
  await page.focus(selector);
  await page.keyboard.press(key);
}

/** Types a value into a number box and presses Enter. */
export async function typeValue(page, selector, value) {
  await page.fill(selector, value);
  await page.press(selector, 'Enter');
}

/**
 * Runs each control step ({ what, param, target, act }) and asserts that its
 * target redrew to something not blank and that its URL parameter changed.
 */
export async function checkControlSteps(page, steps) {
  for (const step of steps) {
    // The target on screen, so the step's redraw includes it.
    const before = await canvasPrint(page, step.target);
    const urlBefore = await query(page);
    await redrawAfter(page, step.act);
    const after = await canvasPrint(page, step.target);
    const urlAfter = await query(page);
    assert.not.equal(after.hash, before.hash, `${step.what}: ${step.target} did not change`);
    assert.ok(after.colours > 2, `${step.what}: ${step.target} is blank`);
    assert.ok(step.param in urlAfter, `${step.what}: ${step.param} is not in the URL ${page.url()}`);
    assert.not.equal(urlAfter[step.param], urlBefore[step.param], `${step.what}: URL ${step.param} unchanged`);
  }
}
