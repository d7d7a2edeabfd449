// Dense lines drawn as one vertical span per device-pixel column, painted
// into an ImageData, instead of stroked paths. A line with about a point per
// pixel (a fast sine over many positions, a per-pixel envelope) is a zigzag
// whose every segment crosses the whole plot; Chromium's software rasteriser
// replays each canvas call at the compositor commit, after the view's own
// step, and a stroke (or band fill) of such a zigzag took 50–250 ms there, one
// long main-thread task per frame (seen in a trace: SkCanvas::drawPath under
// LayerTreeHost::DoUpdateLayers). A rectangle per column was no cheaper (tens
// of thousands of canvas calls to replay). Painting the columns into one
// ImageData here and drawing it as one image costs a pass over the pixels the
// lines cover, in the view's own (measured) step. Dashes become runs of
// columns on and off; a band fills the columns between its two edges (the
// bands mixing where they overlap); the ends of each line's span are shaded by
// how much of their pixel they cover.

/**
 * The y range (canvas pixels, clamped to [top, bottom]) each column of [left, left + width) covers along the
 * polyline xs, ys (canvas pixels, NaN for a gap): { lo, hi } Float32Arrays of width, lo > hi where nothing is drawn.
 */
export function columnRanges(xs, ys, left, width, top, bottom) {
  const lo = new Float32Array(width).fill(Infinity);
  const hi = new Float32Array(width).fill(-Infinity);
  const cover = (x, ya, yb) => {
    const c = Math.floor(x) - left;
    if (c < 0 || c >= width) return;
    const a = Math.max(top, Math.min(bottom, Math.min(ya, yb)));
    const b = Math.max(top, Math.min(bottom, Math.max(ya, yb)));
    if (a < lo[c]) lo[c] = a;
    if (b > hi[c]) hi[c] = b;
  };
  for (let k = 0; k < xs.length; k++) {
    const x0 = xs[k];
    const y0 = ys[k];
    if (!Number.isFinite(y0)) continue;
    const x1 = xs[k + 1];
    const y1 = ys[k + 1];
    if (k + 1 === xs.length || !Number.isFinite(y1)) {
      cover(x0, y0, y0); // a lone point, or the line's last
      continue;
    }
    // The segment, cut at column edges: each piece covers the y between its ends.
    const slope = (y1 - y0) / (x1 - x0 || 1);
    let xa = x0;
    let ya = y0;
    while (xa < x1) {
      const xb = Math.min(x1, Math.floor(xa) + 1);
      const yb = y0 + (xb - x0) * slope;
      cover(xa, ya, yb);
      xa = xb;
      ya = yb;
    }
  }
  return { lo, hi };
}

/**
 * Paints the columns of ranges (from columnRanges, canvas pixels) into pixels (Uint32Array of an ImageData of
 * width × height, its (0, 0) at canvas (left, top)) in colour rgba ([r, g, b, a], a in 0–255), each grown by pad
 * pixels up and down (half the line width). dash: [on, off] in pixels along x, or undefined for a solid line.
 * A pixel is overwritten, never blended, except that a span's partly covered end keeps a more opaque pixel.
 */
export function paintColumns(pixels, width, height, { lo, hi }, left, top, rgba, pad, dash) {
  const [r, g, b, a] = rgba;
  const word = (alpha) => ((alpha << 24) | (b << 16) | (g << 8) | r) >>> 0; // little-endian RGBA bytes
  const full = word(a);
  const period = dash ? dash[0] + dash[1] : 0;
  const shade = (index, cover) => {
    const alpha = Math.round(a * cover);
    if (alpha > pixels[index] >>> 24) pixels[index] = word(alpha);
  };
  const columns = Math.min(width, lo.length);
  for (let c = 0; c < columns; c++) {
    if (lo[c] > hi[c] || (period > 0 && c % period >= dash[0])) continue;
    const y0 = Math.max(0, lo[c] - pad - top);
    const y1 = Math.min(height, hi[c] + pad - top);
    if (!(y1 > y0)) continue;
    const first = Math.floor(y0);
    const last = Math.ceil(y1) - 1; // the pixel rows touched: first … last
    if (first === last) {
      shade(first * width + c, y1 - y0);
      continue;
    }
    shade(first * width + c, first + 1 - y0);
    for (let y = first + 1; y < last; y++) pixels[y * width + c] = full;
    shade(last * width + c, y1 - last);
  }
}

/** [r, g, b, a] (a in 0–255) of a colour "#rrggbb" or "#rrggbbaa". */
export function hexRgba(hex) {
  const byte = (i) => parseInt(hex.slice(i, i + 2), 16);
  return [byte(1), byte(3), byte(5), hex.length >= 9 ? byte(7) : 255];
}

/**
 * Marks, in mask (a Uint16Array of width × height, (0, 0) at canvas (left, top)), the whole pixels the columns of
 * ranges cover, with bit (one per band, at most 16): bands are painted by resolveBands once all are marked, so
 * where they overlap their colours mix as translucent fills would, at one table read per pixel.
 */
export function markColumns(mask, width, height, { lo, hi }, left, top, bit) {
  const columns = Math.min(width, lo.length);
  for (let c = 0; c < columns; c++) {
    if (lo[c] > hi[c]) continue;
    const first = Math.max(0, Math.round(lo[c] - top));
    const last = Math.min(height - 1, Math.round(hi[c] - top));
    for (let y = first; y <= last; y++) mask[y * width + c] |= bit;
  }
}

/** Paints each marked pixel of mask into pixels: the colours ([r, g, b, a]) of its bands, in order, one over another. */
export function resolveBands(mask, pixels, colours) {
  const mixed = new Map(); // mask value → packed pixel, computed the first time it is met
  const mix = (bits) => {
    let [r, g, b, a] = [0, 0, 0, 0];
    colours.forEach(([cr, cg, cb, ca], k) => {
      if (!(bits & (1 << k))) return;
      const sa = ca / 255;
      const out = sa + a * (1 - sa);
      const keep = (a * (1 - sa)) / out;
      [r, g, b] = [cr * (sa / out) + r * keep, cg * (sa / out) + g * keep, cb * (sa / out) + b * keep];
      a = out;
    });
    return ((Math.round(a * 255) << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
  };
  for (let i = 0; i < mask.length; i++) {
    const bits = mask[i];
    if (bits === 0) continue;
    let word = mixed.get(bits);
    if (word === undefined) mixed.set(bits, (word = mix(bits)));
    pixels[i] = word;
  }
}

/** The columns between a band's two edges: per column, from the higher of both to the lower of both. */
export function bandRanges(upper, lower) {
  const lo = new Float32Array(upper.lo.length);
  const hi = new Float32Array(upper.lo.length);
  for (let c = 0; c < lo.length; c++) {
    lo[c] = Math.min(upper.lo[c], lower.lo[c]);
    hi[c] = Math.max(upper.hi[c], lower.hi[c]);
  }
  return { lo, hi };
}
