// Coalesces redraw requests so typing and dragging stay smooth: a cheap redraw
// runs on the next animation frame; once redraws get heavy (large tables), they
// wait until the input pauses, so events are never queued behind them.

const HEAVY_MS = 30;

export function createScheduler(render) {
  let enabled = false;
  let frame = 0;
  let timer = 0;
  let lastMs = 0;

  function run() {
    frame = 0;
    clearTimeout(timer);
    timer = 0;
    const start = performance.now();
    render();
    lastMs = performance.now() - start;
  }

  return {
    /** Allows redraws (the first one is done by the caller once the core is loaded). */
    enable() {
      enabled = true;
    },
    request({ immediate = false } = {}) {
      if (!enabled) return;
      if (immediate || lastMs < HEAVY_MS) {
        clearTimeout(timer);
        timer = 0;
        if (!frame) frame = requestAnimationFrame(run);
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(
        () => {
          if (!frame) frame = requestAnimationFrame(run);
        },
        Math.min(400, Math.max(120, 2 * lastMs)),
      );
    },
  };
}
