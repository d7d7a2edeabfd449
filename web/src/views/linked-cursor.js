// The views' side of the one position cursor (state/cursor.js): a view that
// shows positions marks the cursor with a thin line over its chart or matrix
// and reads it in its readout; pointing at a position there (hover, tap, the
// arrow keys) moves the cursor in every other view. Marks are DOM lines over
// the drawn canvas, so moving the cursor redraws nothing.
import { cursorPosition, onCursor, setCursor } from '../state/cursor.js';
import { plotIn } from '../draw/uplot-mount.js';

/**
 * Links view `owner` to the shared cursor. show(p): mark position p (null: none) and read it; called when
 * another view moves the cursor and by refresh(). Returns { point(p), fromChart(read), refresh() }: point(p)
 * when the user points at p here (null: the pointer left); refresh() after a redraw, which replaced the
 * marks' chart.
 */
export function linkCursor(owner, show) {
  // A chart reports "nothing under the pointer" when it is remade too; only a view that pointed may clear.
  let pointing = false;
  onCursor((p) => {
    pointing = false;
    show(p);
  }, owner);
  function point(p) {
    if (p == null && !pointing) return;
    pointing = p != null;
    setCursor(p, owner);
  }
  return {
    point,
    /**
     * A chart's onCursor(x) for uPlot: read(x) reads x here and returns the position it points at.
     * uPlot also reports "nothing" when a chart is made; that is ignored unless the user pointed here.
     */
    fromChart(read) {
      return (x) => {
        if (x == null && !pointing) return;
        point(read(x));
      };
    },
    refresh() {
      show(cursorPosition());
    },
  };
}

/** The cursor's line inside host (made once, aria-hidden: the readout says the same in words). */
function lineIn(host, name) {
  let line = host.querySelector(`:scope > .shared-cursor.${name}`);
  if (!line) {
    line = document.createElement('div');
    line.className = `shared-cursor ${name}`;
    line.setAttribute('aria-hidden', 'true');
    host.append(line);
  }
  return line;
}

const wanted = new WeakMap(); // container → the x last asked for

/**
 * A vertical line at x value x over the uPlot chart in container; hidden when x is null or outside the
 * x scale. container.dataset.cursor holds the x marked ('' for none), for tests and assistive tools.
 */
export function markPlotX(container, x) {
  wanted.set(container, x);
  const u = plotIn(container);
  if (!u) return;
  if (u.scales.x.min == null) {
    // A chart made in this task: uPlot sets its scales a moment later. Mark the latest wish then.
    requestAnimationFrame(() => plotIn(container)?.scales.x.min != null && markPlotX(container, wanted.get(container)));
    return;
  }
  const line = lineIn(u.over, 'x');
  const inside = x != null && x >= u.scales.x.min && x <= u.scales.x.max;
  line.hidden = !inside;
  if (inside) line.style.left = `${u.valToPos(x, 'x')}px`;
  container.dataset.cursor = inside ? String(x) : '';
}

/**
 * Lines through row and column n of a W × W matrix drawn in rect (CSS pixels of the canvas as drawn),
 * over canvas; its parent must be positioned. Hidden when n is null or outside 0 … W − 1.
 */
export function markMatrix(canvas, rect, W, n) {
  const host = canvas.parentElement;
  const key = canvas.id;
  const column = lineIn(host, `col-${key}`);
  const row = lineIn(host, `row-${key}`);
  const inside = n != null && rect && n >= 0 && n < W;
  column.hidden = !inside;
  row.hidden = !inside;
  canvas.dataset.cursor = inside ? String(n) : '';
  if (!inside) return;
  // The canvas may be shrunk by max-width on a phone: scale the drawn rectangle with it.
  const box = canvas.getBoundingClientRect();
  const outer = host.getBoundingClientRect();
  const scale = box.width / (parseFloat(canvas.style.width) || box.width);
  const left = box.left - outer.left + host.scrollLeft;
  const top = box.top - outer.top + host.scrollTop;
  const at = (n + 0.5) / W;
  Object.assign(column.style, {
    left: `${left + (rect.x + at * rect.w) * scale}px`,
    top: `${top + rect.y * scale}px`,
    height: `${rect.h * scale}px`,
    width: '',
  });
  Object.assign(row.style, {
    left: `${left + rect.x * scale}px`,
    top: `${top + (rect.y + at * rect.h) * scale}px`,
    width: `${rect.w * scale}px`,
    height: '',
  });
}
