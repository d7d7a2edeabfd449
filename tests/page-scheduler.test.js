// The page's frame scheduler (web/src/views/scheduler.js) in Node, with a fake
// clock, animation frames run by hand and a fake IntersectionObserver: no frame
// spends more than its budget once a step has run (the rest waits for the next
// frame, so input runs between), a view's rest steps run in later frames and
// are dropped when it is asked again, a view waiting for the worker keeps
// itself listed as stale without drawing frames, and a lazy view is loaded
// once, when its section nears the viewport, then drawn; a frame takes the
// views that waited longest first. Also the similarity
// matrix the worker computes for the rotation view, against Σ cos((p − q)·wᵢ).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sinusoidal } from '../src/js/index.js';
import { similarityMatrix } from '../web/src/compute/similarity.js';

// ---- a fake browser, only while this file's tests run (uvu runs every file in one process) ----
let now = 0;
let frames = [];
let observer = null;
const FAKES = {
  document: { body: { dataset: {} } },
  requestAnimationFrame: (callback) => frames.push(callback),
  IntersectionObserver: class {
    constructor(callback) {
      this.callback = callback;
      observer = this;
    }
    observe() {}
  },
};
test.before(() => Object.assign(globalThis, FAKES));
test.after(() => Object.keys(FAKES).forEach((name) => delete globalThis[name]));
const {
  createScheduler: create,
  FRAME_BUDGET_MS,
  inSteps,
  waitForWorker,
} = await import('../web/src/views/scheduler.js');
/** A scheduler on the fake clock. */
const createScheduler = (options) => create({ ...options, now: () => now });

/** Runs the frames asked for so far (not those they ask for); returns how many ran. */
function runFrames() {
  const due = frames;
  frames = [];
  due.forEach((frame) => frame(now));
  return due.length;
}
/** Puts sections on screen (or off) as the observer would report it. */
const show = (sections, on = true) => observer.callback(sections.map((target) => ({ target, isIntersecting: on })));
const body = () => document.body.dataset;

/** A view that costs `ms` of the fake clock per draw and records its draws. */
function view(id, ms, log, more) {
  return { section: { id }, draw: () => (log.push(id), (now += ms), more?.()) };
}

test('a frame stops at its budget once a view has drawn; the others draw in the next frames', () => {
  const log = [];
  const entries = ['a', 'b', 'c'].map((id) => view(id, FRAME_BUDGET_MS + 1, log));
  const scheduler = createScheduler({ prepare: () => true, entries });
  scheduler.enable();
  show(entries.map((e) => e.section));
  scheduler.request();
  assert.is(runFrames(), 1);
  assert.equal(log, ['a'], 'one view over the budget: the frame ends after it');
  assert.is(body().stale, 'b c');
  runFrames();
  runFrames();
  assert.equal(log, ['a', 'b', 'c']);
  assert.is(body().stale, '');
  assert.is(runFrames(), 0, 'nothing left to draw, no frame asked for');
  // Cheap views share one frame.
  const cheap = ['x', 'y', 'z'].map((id) => view(id, 1, log));
  const together = createScheduler({ prepare: () => true, entries: cheap });
  together.enable();
  show(cheap.map((e) => e.section));
  log.length = 0;
  together.request();
  runFrames();
  assert.equal(log, ['x', 'y', 'z']);
});

test('a view the budget left for the next frame draws first there, though an input asked for every view again', () => {
  const log = [];
  const entries = ['a', 'b', 'c'].map((id) => view(id, FRAME_BUDGET_MS + 1, log));
  const scheduler = createScheduler({ prepare: () => true, entries });
  scheduler.enable();
  show(entries.map((e) => e.section));
  // A drag: every frame follows an input that makes every view stale again.
  for (let n = 0; n < 3; n++) {
    scheduler.request();
    runFrames();
  }
  assert.equal(log, ['a', 'b', 'c'], 'each view drew once in three frames (not a, a, a)');
  scheduler.request();
  runFrames();
  assert.equal(log.at(-1), 'a', 'then the one that waited longest');
});

test('only views on screen draw; one scrolling in later catches up', () => {
  const log = [];
  const entries = ['on', 'off'].map((id) => view(id, 1, log));
  const scheduler = createScheduler({ prepare: () => true, entries });
  scheduler.enable();
  show([entries[0].section]);
  scheduler.request();
  runFrames();
  assert.equal(log, ['on']);
  assert.is(body().stale, 'off');
  show([entries[1].section]);
  runFrames();
  assert.equal(log, ['on', 'off']);
  assert.is(body().stale, '');
});

test('a view’s rest runs in a later frame, and is dropped when the view is asked again first', () => {
  const log = [];
  const steps = (tag) => () => inSteps([() => log.push(`${tag}2`), () => log.push(`${tag}3`)]);
  let tag = 'A';
  const entry = view('v', 1, log, () => steps(tag)());
  const scheduler = createScheduler({ prepare: () => true, entries: [entry] });
  scheduler.enable();
  show([entry.section]);
  scheduler.request();
  runFrames();
  assert.equal(log, ['v', 'A2'], 'the render and its first step');
  assert.is(body().stale, 'v', 'listed while its rest is due');
  tag = 'B';
  scheduler.request(); // a new state before the rest ran: A3 is never drawn
  runFrames();
  runFrames();
  assert.equal(log, ['v', 'A2', 'v', 'B2', 'B3']);
  assert.is(body().stale, '');
});

test('a view waiting for the worker stays stale, asks for no frames and counts no render, until asked again', () => {
  const log = [];
  let answer = null;
  const entry = view('w', 1, log, () => (answer ? undefined : waitForWorker()));
  document.body.dataset = {};
  const scheduler = createScheduler({ prepare: () => true, entries: [entry] });
  scheduler.enable();
  show([entry.section]);
  const before = 0;
  scheduler.request();
  runFrames();
  assert.is(Number(body().renders), before, 'a frame that only waited drew nothing');
  assert.is(body().stale, 'w');
  assert.is(runFrames(), 0, 'no frames while waiting');
  answer = 'grid';
  scheduler.request(['w']); // the worker's answer
  runFrames();
  assert.is(Number(body().renders), before + 1);
  assert.is(body().stale, '');
  assert.equal(log, ['w', 'w']);
});

test('a lazy view is loaded once, when its section nears the viewport, then drawn', async () => {
  const log = [];
  let loads = 0;
  let loaded = null;
  const entry = {
    ...view('lazy', 1, log),
    load: () => (loads++, new Promise((resolve) => (loaded = resolve))),
  };
  const scheduler = createScheduler({ prepare: () => true, entries: [entry] });
  scheduler.enable();
  scheduler.drawAll();
  assert.equal(log, [], 'not drawn before it is loaded');
  assert.is(loads, 0, 'not loaded while off screen');
  show([entry.section]);
  runFrames();
  scheduler.request();
  runFrames();
  assert.is(loads, 1, 'asked once');
  assert.is(body().stale, 'lazy');
  loaded();
  await Promise.resolve();
  runFrames();
  assert.equal(log, ['lazy']);
  assert.is(body().stale, '');
});

test('the similarity matrix of sinusoidal rows is Σ cos((p − q)·wᵢ) / (d/2), and its bands agree', async () => {
  await init();
  for (const [window, dim, base] of [
    [40, 16, 10000],
    [33, 6, 500],
    [12, 128, 10],
  ]) {
    const rows = sinusoidal({ length: window, dim, base, layout: 'split' });
    const { sim, bandDeviation } = similarityMatrix(rows, window, dim);
    let worst = 0;
    for (let a = 0; a < window; a++) {
      for (let b = 0; b < window; b++) {
        let exact = 0;
        for (let i = 0; i < dim / 2; i++) exact += Math.cos((a - b) * Math.pow(base, (-2 * i) / dim));
        worst = Math.max(worst, Math.abs(sim[a * window + b] - exact / (dim / 2)));
      }
    }
    assert.ok(worst < 1e-5, `window ${window}, d ${dim}: off by ${worst}`);
    assert.ok(bandDeviation < 1e-5 && bandDeviation > 0, `band deviation ${bandDeviation}`);
  }
});

test.run();
