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

// One colour per frequency pair: Tableau 10's hues, darkened or lightened to a
// relative luminance of 0.18–0.27 so each has at least 3:1 contrast against
// both themes' backgrounds (#ffffff, #f6f7f9, #171b21, #0f1216; WCAG 1.4.11).
export const PAIR_PALETTE = [
  '#4e79a7',
  '#e15759',
  '#559b4c',
  '#b07aa1',
  '#ce7925',
  '#609691',
  '#9c755f',
  '#ab8a21',
  '#c47980',
  '#928a87',
];
export const pairColor = (i) => PAIR_PALETTE[i % PAIR_PALETTE.length];
