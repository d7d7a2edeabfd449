// Colour lookup tables: a value is turned into a packed RGBA pixel with one
// table read, so a heatmap frame costs one pass over its ImageData.
import { interpolateRdBu } from 'd3-scale-chromatic';

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

function buildLut(interpolate) {
  const lut = new Uint32Array(LUT_SIZE);
  const bytes = new Uint8Array(lut.buffer);
  for (let i = 0; i < LUT_SIZE; i++) {
    const [r, g, b] = parseRgb(interpolate(i / (LUT_SIZE - 1)));
    bytes.set([r, g, b, 255], i * 4);
  }
  return lut;
}

// Diverging, centred on 0: −1 is dark blue, 0 near white, +1 dark red.
// RdBu runs red→blue, so it is read backwards to put +1 at the warm end.
export const divergingColor = (t) => interpolateRdBu(1 - t);
export const DIVERGING_LUT = buildLut(divergingColor);

/** Index into a LUT for v in [lo, hi] (clamped; NaN maps to the middle). */
export function lutIndex(v, lo, hi) {
  const t = (v - lo) / (hi - lo);
  if (!(t >= 0)) return t < 0 ? 0 : LUT_SIZE >> 1;
  return t >= 1 ? LUT_SIZE - 1 : (t * (LUT_SIZE - 1) + 0.5) | 0;
}

// One colour per frequency pair (Tableau 10): readable on light and dark.
const PAIR_PALETTE = [
  '#4e79a7',
  '#e15759',
  '#59a14f',
  '#b07aa1',
  '#f28e2b',
  '#76b7b2',
  '#c9a227',
  '#9c755f',
  '#ff9da7',
  '#bab0ac',
];
export const pairColor = (i) => PAIR_PALETTE[i % PAIR_PALETTE.length];
