// Colour lookup tables: a value is turned into a packed RGBA pixel with one table read, so a heatmap frame costs one
// pass over its ImageData. No colour scheme here (those are in colormap.js and sequential-colormap.js), so the first
// view's painting (heatmap-draw.js) loads without d3's schemes.

// Odd, so that 0 on a symmetric range lands exactly on the middle entry.
export const LUT_SIZE = 1025;

/** d3's interpolators return "rgb(r, g, b)" (or "#rrggbb"); → [r, g, b]. */
export function parseRgb(css) {
  if (css.startsWith('#')) return [1, 3, 5].map((i) => parseInt(css.slice(i, i + 2), 16));
  return css
    .match(/\d+(\.\d+)?/g)
    .slice(0, 3)
    .map(Number);
}

/** A LUT_SIZE table of packed RGBA pixels from a d3 interpolator over [0, 1]. */
export function buildLut(interpolate) {
  const lut = new Uint32Array(LUT_SIZE);
  const bytes = new Uint8Array(lut.buffer);
  for (let i = 0; i < LUT_SIZE; i++) {
    const [r, g, b] = parseRgb(interpolate(i / (LUT_SIZE - 1)));
    bytes.set([r, g, b, 255], i * 4);
  }
  return lut;
}

/** Index into a LUT for v in [lo, hi] (clamped; NaN maps to the middle). */
export function lutIndex(v, lo, hi) {
  const t = (v - lo) / (hi - lo);
  if (!(t >= 0)) return t < 0 ? 0 : LUT_SIZE >> 1;
  return t >= 1 ? LUT_SIZE - 1 : (t * (LUT_SIZE - 1) + 0.5) | 0;
}
