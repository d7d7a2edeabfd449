// Redraws the views a change concerns, on the next animation frame, and only
// those on screen: every request marks every view stale; a frame draws the
// stale views whose section is within a screen of the viewport, and a stale
// view that scrolls in later is drawn then. Nothing waits for input to pause,
// so a drag redraws on every frame it changed something in.
//
// body data-renders counts frames that drew (the browser tests wait on it);
// data-render-ms is the last frame's time; data-stale lists the sections that
// still show an older state (off screen), so a test can wait for one to catch up.

/**
 * prepare(): work every frame needs first (the encoding table; false when it failed); entries:
 * [{ section: Element, draw() }]. Returns { request({ all }), enable(), frame() }.
 */
export function createScheduler({ prepare, entries, onFrame }) {
  const stale = new Set(entries);
  const onScreen = new Set();
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
      if ([...onScreen].some((e) => stale.has(e))) schedule();
    },
    // Draw a view a little before it scrolls in, so it is ready when seen.
    { rootMargin: '50% 0px 50% 0px' },
  );
  for (const entry of entries) observer.observe(entry.section);

  function schedule() {
    if (enabled && !frame) frame = requestAnimationFrame(run);
  }

  /** Draws the stale views in `which` (default: those on screen). */
  function run(_, which = onScreen) {
    frame = 0;
    const due = entries.filter((e) => stale.has(e) && which.has(e));
    if (due.length === 0) return;
    const start = performance.now();
    if (prepare() === false) return; // said where the notes are; the views keep their last picture
    const times = [];
    for (const entry of due) {
      const t0 = performance.now();
      entry.draw();
      stale.delete(entry);
      times.push(`${entry.section.id} ${(performance.now() - t0).toFixed(0)}`);
    }
    renders += 1;
    const body = document.body.dataset;
    body.renders = String(renders);
    body.renderMs = (performance.now() - start).toFixed(1);
    body.renderSteps = times.join(', ');
    body.stale = [...stale].map((e) => e.section.id).join(' ');
    onFrame?.();
  }

  return {
    /** Marks every view (or those of the given section ids) stale and draws the ones on screen on the next frame. */
    request(sections) {
      for (const entry of entries) if (!sections || sections.includes(entry.section.id)) stale.add(entry);
      document.body.dataset.stale = [...stale].map((e) => e.section.id).join(' ');
      schedule();
    },
    /** Draws every view now, on screen or not (the first frame, so nothing starts blank). */
    drawAll() {
      for (const entry of entries) stale.add(entry);
      run(0, new Set(entries));
    },
    enable() {
      enabled = true;
    },
  };
}
