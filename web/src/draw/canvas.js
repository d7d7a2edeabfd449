// High-DPI canvases: the backing store follows the CSS size times
// devicePixelRatio, and drawing code works in CSS pixels.

/** Sizes canvas for its CSS box; returns { ctx, width, height, ratio } in CSS pixels. */
export function fitCanvas(canvas, cssWidth, cssHeight) {
  const ratio = Math.max(1, window.devicePixelRatio || 1);
  const w = Math.max(1, Math.round(cssWidth * ratio));
  const h = Math.max(1, Math.round(cssHeight * ratio));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { ctx, width: cssWidth, height: cssHeight, ratio };
}

let cachedColors = null;
let cachedTheme = '';

/**
 * The theme's colours, read from CSS custom properties so canvases follow the
 * page; read once per theme, since reading styles forces a layout mid-frame.
 */
export function themeColors() {
  const theme = document.documentElement.dataset.theme ?? '';
  if (cachedColors && cachedTheme === theme) return cachedColors;
  cachedTheme = theme;
  cachedColors = readThemeColors();
  return cachedColors;
}

function readThemeColors() {
  const style = getComputedStyle(document.documentElement);
  const read = (name) => style.getPropertyValue(name).trim();
  return {
    bg: read('--figure-bg'),
    fg: read('--fg'),
    muted: read('--muted'),
    grid: read('--grid'),
    accent: read('--accent'),
    font: '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    smallFont: '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  };
}

// Widths kept up to date by a ResizeObserver: reading clientWidth mid-frame,
// after another view changed the DOM, would force a layout of the whole page.
const widths = new WeakMap();
const resizes = new ResizeObserver((entries) => {
  for (const entry of entries) widths.set(entry.target, entry.target.clientWidth);
});

/** True on a phone-sized screen (the stylesheet's 640 px breakpoint), where views draw shorter plots. */
export const compactScreen = () => matchMedia('(max-width: 640px)').matches;

/**
 * A chart's height: h on a desktop; on a phone `phone` (half of h unless given), so no view is taller than two of
 * its screens. A log chart spends 62 px of a phone's height on its x axis, x label and margins: 214 keeps 150.
 */
export const plotHeight = (h, phone = Math.round(h * 0.5)) => (compactScreen() ? phone : h);

/** Width available to a figure inside its container, in CSS pixels. */
export function availableWidth(element, fallback = 640) {
  let w = widths.get(element);
  if (w === undefined) {
    w = element.clientWidth;
    widths.set(element, w);
    resizes.observe(element);
  }
  return w > 0 ? w : fallback;
}

/**
 * A view's memo of what it last drew: needsDraw(parts) is true when any part
 * (table version, size, theme, the view's own settings) differs from last time.
 */
export function createRedrawGuard() {
  let last = '';
  return (parts) => {
    const key = [...parts, document.documentElement.dataset.theme].join('|');
    if (key === last) return false;
    last = key;
    return true;
  };
}
