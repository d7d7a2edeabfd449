// Sequential colour lookup tables for non-negative quantities (STYLE: viridis
// or cividis), in the same packed-RGBA form as colormap.js's diverging one.
import { interpolateCividis, interpolateViridis } from 'd3-scale-chromatic';
import { LUT_SIZE, parseRgb } from './colormap.js';

function buildLut(interpolate) {
  const lut = new Uint32Array(LUT_SIZE);
  const bytes = new Uint8Array(lut.buffer);
  for (let i = 0; i < LUT_SIZE; i++) bytes.set([...parseRgb(interpolate(i / (LUT_SIZE - 1))), 255], i * 4);
  return lut;
}

// Cividis from dark blue (low) to yellow (high): ALiBi's bias, 0 (no penalty) brightest.
export const CIVIDIS_LUT = buildLut(interpolateCividis);

/** n distinct line colours along viridis, clear of its near-black and pale-yellow ends (both themes). */
export function viridisColors(n) {
  return Array.from({ length: n }, (_, k) => interpolateViridis(n === 1 ? 0.3 : 0.2 + (0.65 * k) / (n - 1)));
}
