// The position cursor shared by the views: hovering, tapping or arrowing to a
// position in one view marks it in every view that shows positions. Not part
// of the URL; null when no position is pointed at.

let position = null;
const listeners = new Set();

/**
 * Points every view at position p (or nothing, null); source: the view that moved it, which is not told. A p that
 * is no whole number (a chart's cursor over a degenerate axis gives NaN) points at nothing.
 */
export function setCursor(p, source = null) {
  if (!Number.isInteger(p)) p = null;
  if (p === position) return;
  position = p;
  for (const [listener, owner] of listeners) if (owner !== source) listener(p);
}

export function cursorPosition() {
  return position;
}

/** Calls listener(p) whenever another view moves the cursor. */
export function onCursor(listener, owner = null) {
  listeners.add([listener, owner]);
}
