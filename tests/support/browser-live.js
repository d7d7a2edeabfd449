// Measures how live the page is under real input: each input event's time
// (the event's own timeStamp) against the end of the first frame that drew
// after it, how many frames drew, the longest main-thread task
// (PerformanceObserver 'longtask' reports tasks over 50 ms) and each view's
// longest drawing step (body data-render-steps).

import { setTimeout as delay } from 'node:timers/promises';
import { frames, settledBox, settledOnScreen } from './browser-page.js';

const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Starts recording in the page; call before sending the inputs. */
export function startRecording(page) {
  return page.evaluate(() => {
    const live = { inputs: [], frames: [], drew: [], longest: 0, longTasks: 0, steps: {} };
    window.__live = live;
    document.addEventListener('input', (event) => live.inputs.push(event.timeStamp), true);
    new MutationObserver(() => {
      live.frames.push(performance.now());
      // The views this frame drew (a view drawing in steps counts at its first step after an input).
      live.drew.push((document.body.dataset.renderSteps ?? '').split(', ').map((step) => step.split(' ')[0]));
      const ms = Number(document.body.dataset.renderMs);
      if (!(live.slowest?.ms >= ms)) live.slowest = { ms, steps: document.body.dataset.renderSteps };
      for (const step of (document.body.dataset.renderSteps ?? '').split(', ')) {
        const [view, stepMs] = step.split(' ');
        if (view && !(live.steps[view] >= Number(stepMs))) live.steps[view] = Number(stepMs);
      }
    }).observe(document.body, {
      attributes: true,
      attributeFilter: ['data-renders'],
    });
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) {
        live.longest = Math.max(live.longest, task.duration);
        live.longTasks += 1;
      }
    }).observe({ type: 'longtask' });
  });
}

/**
 * Stops after the page has settled; returns { inputs, frames, redrawn,
 * medianMs, latencies, longestTaskMs, views }: redrawn counts inputs followed by a
 * frame before the next input (or, for the last one, at all); views: per view
 * that drew, { medianMs, count } from each input to the first frame drawing it.
 */
export async function stopRecording(page) {
  // Settled: every view near the viewport has drawn the last input, and one more frame has run.
  await settledOnScreen(page);
  await frames(page, 2);
  const live = await page.evaluate(() => window.__live);
  const latencies = [];
  let redrawn = 0;
  live.inputs.forEach((t, n) => {
    const next = live.inputs[n + 1] ?? Infinity;
    const frame = live.frames.find((f) => f >= t);
    if (frame !== undefined) latencies.push(frame - t);
    if (frame !== undefined && frame < next) redrawn += 1;
  });
  // Per view: each input's time to the first frame that drew that view.
  const views = {};
  for (const view of new Set(live.drew.flat().filter(Boolean))) {
    const times = [];
    for (const t of live.inputs) {
      const n = live.frames.findIndex((f, k) => f >= t && live.drew[k].includes(view));
      if (n >= 0) times.push(live.frames[n] - t);
    }
    views[view] = { medianMs: median(times), count: times.length };
  }
  return {
    views,
    inputs: live.inputs.length,
    frames: live.frames.length,
    redrawn,
    latencies,
    medianMs: median(latencies),
    longestTaskMs: live.longest,
    longTasks: live.longTasks,
    slowest: live.slowest,
    steps: live.steps,
  };
}

/**
 * Scrolls a figure (or the control) to where the drag will happen and waits until every view near the
 * viewport is loaded and drawn and the page has warmed its canvases, so the recording sees the drag, not a
 * view's first load.
 */
export async function settleAt(page, selector, view = null) {
  await page.evaluate(
    ([sel, fig]) => document.querySelector(fig ?? sel).scrollIntoView({ block: fig ? 'start' : 'center' }),
    [selector, view],
  );
  await settledOnScreen(page);
  // As a reader finds the page: idle, its canvases' buffers allocated (web/src/draw/canvas-warm.js).
  await page.waitForFunction(() => !('warming' in document.body.dataset), null, { timeout: 20_000 });
  await frames(page, 2);
}

/** Drags a range input's thumb with the mouse in `steps` moves of `dx` px, one every `gapMs` (inputClock). */
export async function dragSlider(page, selector, { steps = 10, dx = 6, gapMs = 30, view = null } = {}) {
  // dx is the largest step; the drag keeps inside the track. view: a figure to have on screen (under the sticky bar).
  await page.evaluate(
    ([sel, fig]) => document.querySelector(fig ?? sel).scrollIntoView({ block: fig ? 'start' : 'center' }),
    [selector, view],
  );
  // A slider above its figure (or under the sticky bar) is brought back below the bar, the figure kept in view.
  await page.evaluate((sel) => {
    const bar = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--bar-h')) || 0;
    const top = document.querySelector(sel).getBoundingClientRect().top;
    if (top < bar + 8) window.scrollBy(0, top - bar - 24);
  }, selector);
  const box = await settledBox(page, selector);
  const value = await page.$eval(selector, (el) => (el.value - el.min) / (el.max - el.min));
  // The thumb sits at the value's fraction of the track; drag towards the farther end, within the track.
  let x = box.x + 8 + value * (box.width - 16);
  const room = value < 0.5 ? box.x + box.width - 8 - x : x - box.x - 8;
  dx = Math.sign(0.5 - value || 1) * Math.min(dx, room / (steps + 1));
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  const tick = inputClock(gapMs);
  for (let n = 0; n < steps; n++) {
    await tick();
    x += dx;
    await page.mouse.move(x, y);
  }
  await tick();
  await page.mouse.up();
}

/**
 * The drag's input clock: tick() resolves at start + n·gapMs for its n-th call (at once if that moment has passed).
 * This is the input under test, not a wait for the page: a hand sends a move every gapMs whether the page has drawn
 * or not, and what is measured is how the page keeps up with input at that rate. Waiting on the page's hooks instead
 * (a frame, data-renders) would slow the input down to the page's pace and hide exactly the lag being measured.
 * Deadlines, not gaps: the time each move takes to reach the page does not stretch the drag.
 */
function inputClock(gapMs) {
  const start = performance.now();
  let n = 0;
  return () => {
    n += 1;
    const wait = start + n * gapMs - performance.now();
    return wait > 0 ? delay(wait) : Promise.resolve();
  };
}
