// Redraws the views a change concerns, on animation frames, and only those on
// screen: every request marks every view stale; a frame draws the stale views
// whose section is within a screen of the viewport, and a stale view that
// scrolls in later is drawn then. Nothing waits for input to pause, so a drag
// redraws on every frame it changed something in.
//
// No frame is a long task: a frame draws views until FRAME_BUDGET_MS is spent
// (at least one step) and leaves the rest to the next frame, so input events
// run between them. A frame takes the views that have waited longest first, so
// a view left for the next frame is not put off again by every new input. A view's render may itself return a function, the rest of
// its work, which runs as a step of a later frame (dropped if the view is
// requested again first); a rest marked `waiting` waits for the table worker,
// whose answer requests the view again. A view with load() (a dynamic import) is loaded when
// its section first nears the viewport, and drawn once it arrives.
//
// body data-renders counts frames that drew (the browser tests wait on it);
// data-render-ms is the last frame's time; data-stale lists the sections that
// still show an older state (off screen, not loaded, or part drawn), so a test
// can wait for one to catch up.

/** A view's render returns this when it keeps its picture until the table worker answers (which redraws it). */
export const waitForWorker = () => Object.assign(() => undefined, { waiting: true });

/** Runs the first of steps now and returns the rest as one function per step (a view's render returns it). */
export function inSteps(steps) {
  const [first, ...more] = steps;
  first();
  return more.length > 0 ? () => inSteps(more) : undefined;
}

/** Work a frame does before it yields to input; one step always runs, so a step over this still draws. */
export const FRAME_BUDGET_MS = 12;

/**
 * prepare(): work every frame needs first (the encoding table; false when it failed); entries:
 * [{ section: Element, draw(): undefined | (() => …), load?(): Promise }]: draw may return the rest of
 * its work; onFirstDraw(section): called once a view has first drawn; now(): the clock in ms (tests give their own). Returns { request(sections), enable(), drawAll() }.
 */
export function createScheduler({ prepare, entries, onFrame, onFirstDraw, now = () => performance.now() }) {
  const stale = new Set(entries);
  const onScreen = new Set();
  const rest = new Map(); // entry → the rest of its last draw, run in a later frame
  const loading = new Set();
  // entry → when it went out of date (a count of requests): a frame draws the longest-waiting views first, so a view
  // the budget left for the next frame is not put off again by the next input (a drag re-requests every view).
  const since = new Map();
  let tickets = 0;
  const outdate = (entry) => {
    if (!stale.has(entry)) since.set(entry, ++tickets);
    stale.add(entry);
  };
  let enabled = false;
  let frame = 0;
  let renders = 0;

  const observer = new IntersectionObserver(
    (changes) => {
      for (const change of changes) {
        const entry = entries.find((e) => e.section === change.target);
        if (change.isIntersecting) onScreen.add(entry);
        else onScreen.delete(entry);
      }
      schedule();
    },
    // Draw a view a little before it scrolls in, so it is ready when seen.
    { rootMargin: '50% 0px 50% 0px' },
  );
  for (const entry of entries) observer.observe(entry.section);

  const loaded = (entry) => !entry.load || entry.ready;

  function load(entry) {
    if (loading.has(entry)) return;
    loading.add(entry);
    entry.load().then(
      () => {
        entry.ready = true;
        outdate(entry);
        schedule();
      },
      (error) => {
        loading.delete(entry); // tried again when next due
        console.error(error);
      },
    );
  }

  function schedule() {
    if (enabled && !frame) frame = requestAnimationFrame(run);
  }

  function publishStale() {
    const ids = [...new Set([...stale, ...rest.keys()])].map((e) => e.section.id).join(' ');
    // Only on a change: every write of a body attribute invalidates style for the whole page.
    if (document.body.dataset.stale !== ids) document.body.dataset.stale = ids;
  }

  /** Draws the stale views in `which` (default: those on screen), within the frame's budget. */
  function run(_, which = onScreen, budget = FRAME_BUDGET_MS) {
    frame = 0;
    for (const entry of which) if (!loaded(entry)) load(entry);
    const ready = (e) => stale.has(e) || (rest.has(e) && !rest.get(e).waiting);
    const due = entries
      .filter((e) => which.has(e) && loaded(e) && ready(e))
      .sort((a, b) => (since.get(a) ?? 0) - (since.get(b) ?? 0));
    if (due.length === 0) return;
    const start = now();
    if (prepare() === false) return; // said where the notes are; the views keep their last picture
    const times = [];
    let drew = false;
    for (const entry of due) {
      if (times.length > 0 && now() - start > budget) break;
      const t0 = now();
      const step = stale.has(entry) ? entry.draw : rest.get(entry);
      stale.delete(entry);
      rest.delete(entry);
      const more = step();
      if (typeof more === 'function') rest.set(entry, more);
      drew ||= !more?.waiting;
      // The figure shows something now: its export buttons may work (io/exporters.js watches this).
      const marks = entry.section.dataset; // (the scheduler's unit test gives plain objects)
      if (!more?.waiting && marks && !marks.drawn) {
        marks.drawn = '1';
        onFirstDraw?.(entry.section);
      }
      times.push(`${entry.section.id} ${(now() - t0).toFixed(0)}`);
    }
    if (drew) renders += 1; // a frame whose views all wait for the worker drew nothing
    const body = document.body.dataset;
    body.renders = String(renders);
    body.renderMs = (now() - start).toFixed(1);
    body.renderSteps = times.join(', ');
    publishStale();
    onFrame?.();
    if (due.some(ready)) schedule();
  }

  return {
    /** Marks every view (or those of the given section ids) stale and draws the ones on screen on the next frame. */
    request(sections) {
      for (const entry of entries) {
        if (sections && !sections.includes(entry.section.id)) continue;
        outdate(entry);
        rest.delete(entry);
      }
      publishStale();
      schedule();
    },
    /** Draws every loaded view now, on screen or not, without a budget (the first frame, so nothing starts blank). */
    drawAll() {
      for (const entry of entries) outdate(entry);
      run(0, new Set(entries.filter(loaded)), Infinity);
      schedule();
    },
    enable() {
      enabled = true;
    },
  };
}
