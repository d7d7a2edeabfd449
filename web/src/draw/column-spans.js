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
 * Paints bands ([{ ranges, rgba }], in drawing order, at most 16) into pixels (Uint32Array of an ImageData of
 * width × height, its (0, 0) at canvas (left, top)): each pixel a band's columns cover (whole pixels) gets the
 * colours of the bands covering it, each over the ones before it, as translucent fills drawn in order would give.
 * A column is cut where a band starts or ends, so each mix is worked out once per stretch, not per pixel.
 */
export function paintBands(pixels, width, height, bands, left, top) {
  const count = Math.min(16, bands.length);
  const mixes = new Uint32Array(1 << count); // which bands cover → packed pixel; 0 until worked out
  const mixOf = (bits) => mixes[bits] || (mixes[bits] = mix(bands, bits));
  const starts = new Int32Array(count);
  const ends = new Int32Array(count); // one past the last row
  const cuts = [];
  for (let c = 0; c < width; c++) {
    cuts.length = 0;
    for (let k = 0; k < count; k++) {
      const { lo, hi } = bands[k].ranges;
      starts[k] = ends[k] = 0;
      if (c >= lo.length || lo[c] > hi[c]) continue;
      starts[k] = Math.max(0, Math.round(lo[c] - top));
      ends[k] = Math.min(height, Math.round(hi[c] - top) + 1);
      if (ends[k] > starts[k]) cuts.push(starts[k], ends[k]);
    }
    if (cuts.length === 0) continue;
    cuts.sort((a, b) => a - b);
    for (let n = 0; n + 1 < cuts.length; n++) {
      const [from, to] = [cuts[n], cuts[n + 1]];
      if (to === from) continue;
      let bits = 0;
      for (let k = 0; k < count; k++) if (starts[k] <= from && ends[k] >= to) bits |= 1 << k;
      if (bits === 0) continue;
      const word = mixOf(bits);
      for (let y = from; y < to; y++) pixels[y * width + c] = word;
    }
  }
}

/** The packed pixel of the bands in bits, each ([r, g, b, a], a in 0–255) over the ones before it. */
function mix(bands, bits) {
  let [r, g, b, a] = [0, 0, 0, 0];
  bands.forEach(({ rgba: [cr, cg, cb, ca] }, k) => {
    if (!(bits & (1 << k))) return;
    const sa = ca / 255;
    const out = sa + a * (1 - sa);
    const keep = (a * (1 - sa)) / out;
    [r, g, b] = [cr * (sa / out) + r * keep, cg * (sa / out) + g * keep, cb * (sa / out) + b * keep];
    a = out;
  });
  return ((Math.round(a * 255) << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
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
