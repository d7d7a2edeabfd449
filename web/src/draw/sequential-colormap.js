// Sequential colour lookup tables for non-negative quantities (STYLE: viridis
// or cividis), in the same packed-RGBA form as colormap.js's diverging one.
import { interpolateViridis } from 'd3-scale-chromatic';

// Cividis from dark blue (low) to yellow (high): ALiBi's bias, 0 (no penalty) brightest; baked at build (cividis.js).
export { CIVIDIS_LUT } from './cividis.js';

/** n distinct line colours along viridis, clear of its near-black and pale-yellow ends (both themes). */
export function viridisColors(n) {
  return Array.from({ length: n }, (_, k) => interpolateViridis(n === 1 ? 0.3 : 0.2 + (0.65 * k) / (n - 1)));
}
