// What a page's long main-thread tasks were made of: a Chromium performance
// trace (CDP Tracing, the DevTools timeline categories) recorded around an
// action, and each task over 50 ms split into what ran inside it (the canvas
// replay at the compositor commit, animation-frame script, input handlers,
// style, layout, paint, garbage collection…). Times are the renderer main
// thread's own CPU time (tdur), which a loaded machine inflates far less than
// wall time, and wall time beside it.

/** What a task's parts are called in the printout, by trace event name; the outermost of each counts. */
const PARTS = {
  Commit: 'commit (canvas replay)',
  FireAnimationFrame: 'animation-frame script',
  EventDispatch: 'input handlers',
  TimerFire: 'timers',
  FunctionCall: 'other script',
  RunMicrotasks: 'microtasks',
  BlinkScheduler_PerformMicrotaskCheckpoint: 'microtasks',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  MinorGC: 'GC',
  MajorGC: 'GC',
  'V8.GC_SCAVENGER': 'GC',
  'V8.GC_MARK_COMPACTOR': 'GC',
  HandlePostMessage: 'worker message',
};

// The DevTools timeline's own categories (tasks, script, style, layout, paint, commit) and V8's (GC).
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'toplevel'];

/**
 * Starts a trace of page's renderer (with more trace categories if given, e.g. 'blink' for the canvas buffers);
 * resolves to stop(), which resolves to the trace events.
 */
export async function startTrace(page, more = []) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: [...CATEGORIES, ...more] },
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    return events;
  };
}

const ms = (us) => us / 1000;

// A task of the renderer's main thread: its run loop's event, or RunTask alone (a microtask checkpoint of 1.2 s,
// the whole CSV export in one task when broken on purpose, came as RunTask with no ThreadControllerImpl::RunTask
// around it, session 40, and was missed).
const TASK_EVENTS = ['ThreadControllerImpl::RunTask', 'RunTask'];

/** The page's renderer main thread: of the CrRendererMain threads traced (a spare renderer has one), the busiest. */
function rendererMain(events) {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasksOf = (m) => events.filter((e) => e.pid === m.pid && e.tid === m.tid && TASK_EVENTS.includes(e.name));
  const counted = mains.map((m) => [m, tasksOf(m).length]);
  return counted.sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * The renderer main thread's tasks in events: [{ wallMs, cpuMs, parts: [[name, cpuMs]] }], longest (CPU) first,
 * parts largest first (nested parts inside a counted one are not counted again, except GC, which is also named
 * where it struck).
 */
export function mainThreadTasks(events) {
  const main = rendererMain(events);
  if (!main) return [];
  const own = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur > 0)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  let task = null;
  let open = []; // counted parts enclosing the current event
  for (const e of own) {
    const end = e.ts + e.dur;
    if (TASK_EVENTS.includes(e.name)) {
      if (task && e.ts < task.end) continue; // a nested run loop's task: part of the outer one
      task = { end, wallMs: ms(e.dur), cpuMs: ms(e.tdur ?? e.dur), parts: new Map() };
      tasks.push(task);
      open = [];
      continue;
    }
    if (!task || e.ts >= task.end) continue;
    const part = PARTS[e.name];
    if (!part) continue;
    open = open.filter((o) => o.end > e.ts);
    if (part !== 'GC' && open.length > 0) continue;
    task.parts.set(part, (task.parts.get(part) ?? 0) + ms(e.tdur ?? e.dur));
    if (part !== 'GC') open.push({ end });
  }
  return tasks
    .map(({ wallMs, cpuMs, parts }) => ({ wallMs, cpuMs, parts: [...parts].sort((a, b) => b[1] - a[1]) }))
    .sort((a, b) => b.cpuMs - a.cpuMs);
}

/**
 * The renderer main thread's CPU ms between each pair of console.timeStamp(start) … console.timeStamp(end) marks,
 * in order: of every task that ran (in part) between them, or, given names (trace event names, e.g.
 * FireAnimationFrame), of only those events (outermost ones). On an idle machine an input's time to render is
 * about its script's CPU plus the wait for the next frame; load stretches CPU time far less than wall time.
 */
export function cpuBetweenMarks(events, start, end, names = TASK_EVENTS) {
  const main = rendererMain(events);
  if (!main) return [];
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const counted = [];
  for (const e of mine.filter((e) => e.ph === 'X' && names.includes(e.name)).sort((a, b) => a.ts - b.ts)) {
    if (counted.length > 0 && e.ts < counted.at(-1).end) continue; // nested in the one before: counted there
    counted.push({ ts: e.ts, end: e.ts + e.dur, cpuMs: ms(e.tdur ?? e.dur) });
  }
  return markSpans(mine, start, end).map(({ from, to }) =>
    counted.filter((t) => t.end > from && t.ts <= to).reduce((sum, t) => sum + t.cpuMs, 0),
  );
}

/** Each console.timeStamp(start) … console.timeStamp(end) pair in events, in order: [{ from, to }] in trace µs. */
function markSpans(events, start, end) {
  const marks = events
    .filter((e) => e.name === 'TimeStamp' && [start, end].includes(e.args?.data?.message))
    .sort((a, b) => a.ts - b.ts);
  const spans = [];
  let from = null;
  for (const m of marks) {
    if (m.args.data.message === start) from = m.ts;
    else if (from !== null) {
      spans.push({ from, to: m.ts });
      from = null;
    }
  }
  return spans;
}

/** A task as "41 ms CPU / 90 wall = animation-frame script 25 + paint 8 + commit (canvas replay) 3". */
export function describeTask(task) {
  const parts = task.parts
    .slice(0, 3)
    .map(([name, cpu]) => `${name} ${cpu.toFixed(0)}`)
    .join(' + ');
  return `${task.cpuMs.toFixed(0)} ms CPU / ${task.wallMs.toFixed(0)} wall = ${parts || 'nothing named'}`;
}

/** One line on the tasks over limitMs (CPU): how many and the longest ones, or the longest of all if none is. */
export function describeLongTasks(tasks, limitMs = 50, shown = 2) {
  const long = tasks.filter((t) => t.cpuMs > limitMs);
  if (tasks.length === 0) return 'none seen';
  if (long.length === 0) return `none over ${limitMs} ms CPU; the longest: ${describeTask(tasks[0])}`;
  return `${long.length} over ${limitMs} ms CPU: ${long.slice(0, shown).map(describeTask).join('; ')}`;
}

/** CPU ms of each renderer main-thread trace event called name, in the order they ran. */
export function mainThreadEvents(events, name) {
  const main = rendererMain(events);
  if (!main) return [];
  return events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === name)
    .sort((a, b) => a.ts - b.ts)
    .map((e) => ms(e.tdur ?? e.dur));
}

/**
 * The events of each console.timeStamp(start) … console.timeStamp(end) span, in order (the trace's metadata, such
 * as thread names, kept in each), for mainThreadTasks of one span.
 */
export function eventsBetweenMarks(events, start, end) {
  const meta = events.filter((e) => e.ph === 'M');
  return markSpans(events, start, end).map(({ from, to }) => [
    ...meta,
    ...events.filter((e) => e.ph !== 'M' && e.ts + (e.dur ?? 0) > from && e.ts <= to),
  ]);
}
