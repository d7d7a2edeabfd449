// Chromium's software compositor gives each 2D canvas up to three buffers, each allocated at the commit after one
// of the canvas's first three draws: 3–15 ms each for the page's 1118 × 460 heatmap, 2.5 for a 300 × 346 one
// (Chromium 156, --disable-gpu), in the frame's own task. A page that drew each canvas once at load paid the
// other two in the first frames of the reader's first drag: one task of 24–40 ms, most of it
// Canvas2DResourceProvider::ProduceCanvasResource. So once a section first draws, each of its canvases is
// touched in two consecutive frames while the page is idle (one pixel copied onto itself: the same pixels, but a
// new draw for the compositor to take), one canvas at a time, and its buffers exist before a drag needs them.
// (Two touches frames apart allocate only one: the compositor has handed the first back by then.)
// body data-warming is set while canvases are left to touch (for tests).

const queue = []; // canvases left to touch
let busy = false;

/** Queues every canvas in section (called after its view's first draw). */
export function warmCanvases(section) {
  queue.push(...section.querySelectorAll('canvas'));
  next();
}

function next() {
  publish();
  if (busy || queue.length === 0) return;
  busy = true;
  const idle = window.requestIdleCallback ?? ((run) => setTimeout(run, 50));
  idle(
    () =>
      requestAnimationFrame(() => {
        const canvas = queue.shift();
        touch(canvas);
        requestAnimationFrame(() => {
          touch(canvas);
          busy = false;
          next();
        });
      }),
    { timeout: 500 },
  );
}

/** Copies the canvas's last pixel onto itself: nothing changes, but the canvas has drawn. */
function touch(canvas) {
  // Small canvases cost little to allocate; a canvas gone from the page needs nothing.
  if (!canvas.isConnected || canvas.width * canvas.height < 20000) return;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const x = canvas.width - 1;
  const y = canvas.height - 1;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath();
  ctx.rect(x, y, 1, 1);
  ctx.clip();
  // 'copy' replaces the pixel with itself exactly (source-over would blend a translucent one onto itself); the
  // clip keeps the rest of the canvas out of the operation.
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(canvas, x, y, 1, 1, x, y, 1, 1);
  ctx.restore();
}

// Written only when it changes between none left and some (a body attribute write invalidates the page's style).
function publish() {
  const warming = queue.length > 0 || busy;
  const shown = 'warming' in document.body.dataset;
  if (warming === shown) return;
  if (warming) document.body.dataset.warming = '1';
  else delete document.body.dataset.warming;
}
