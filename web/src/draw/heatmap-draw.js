// Drawing heatmaps on a canvas: one ImageData per frame, filled through a colour
// lookup table at device resolution, plus a title and a colour bar in CSS pixels
// (the axes, which need d3-scale's ticks, are in heatmap-axes.js: the first view has none).
import { LUT_SIZE, lutIndex } from './lut.js';
import { tickLabel } from './format.js';

const images = new WeakMap(); // context → its last ImageData, reused while the size stays (no garbage per frame)

/** An ImageData of w × h device pixels for ctx, every pixel to be written by the caller. */
function imageFor(ctx, w, h) {
  let image = images.get(ctx);
  if (image?.width !== w || image.height !== h) {
    image = ctx.createImageData(w, h);
    images.set(ctx, image);
  }
  return image;
}

/**
 * Paints a rows × cols grid into rect (CSS pixels) of a context scaled by ratio.
 * Each device pixel shows the cell under its centre, through lut over [lo, hi].
 * source is either { array, rowStride, colStride } (cell (r, c) is
 * array[r * rowStride + c * colStride]: the fast path for big tables) or a
 * function value(row, col).
 */
export function paintGrid(ctx, ratio, rect, rows, cols, source, lut, lo, hi) {
  const x0 = Math.round(rect.x * ratio);
  const y0 = Math.round(rect.y * ratio);
  const w = Math.max(1, Math.round(rect.w * ratio));
  const h = Math.max(1, Math.round(rect.h * ratio));
  const image = imageFor(ctx, w, h);
  const pixels = new Uint32Array(image.data.buffer);
  const colOf = new Int32Array(w);
  for (let px = 0; px < w; px++) colOf[px] = Math.min(cols - 1, Math.floor(((px + 0.5) * cols) / w));
  const scale = (LUT_SIZE - 1) / (hi - lo);
  const top = LUT_SIZE - 1;
  if (typeof source === 'function') {
    for (let py = 0; py < h; py++) {
      const row = Math.min(rows - 1, Math.floor(((py + 0.5) * rows) / h));
      const line = py * w;
      for (let px = 0; px < w; px++) {
        const t = (source(row, colOf[px]) - lo) * scale + 0.5;
        pixels[line + px] = lut[t < 0 ? 0 : t > top ? top : t | 0];
      }
    }
  } else {
    const { array, rowStride, colStride } = source;
    const colIndex = new Int32Array(w);
    for (let px = 0; px < w; px++) colIndex[px] = colOf[px] * colStride;
    for (let py = 0; py < h; py++) {
      const base = Math.min(rows - 1, Math.floor(((py + 0.5) * rows) / h)) * rowStride;
      paintLine(pixels, py * w, w, array, base, colIndex, lo, scale, lut);
    }
  }
  ctx.putImageData(image, x0, y0);
}

/**
 * One line of pixels from array[base + colIndex[px]]. A function of its own, as row-dot.js explains: V8
 * compiles it whole instead of compiling the inner loop alone and leaving that code at every line's end.
 */
function paintLine(pixels, line, w, array, base, colIndex, lo, scale, lut) {
  const top = LUT_SIZE - 1;
  for (let px = 0; px < w; px++) {
    const t = (array[base + colIndex[px]] - lo) * scale + 0.5;
    pixels[line + px] = lut[t < 0 ? 0 : t > top ? top : t | 0];
  }
}

/** A vertical colour bar in rect: hi at the top, labelled so the +1 end is unmistakable. */
export function drawColorBar(ctx, ratio, rect, lut, lo, hi, colors, { title = 'value', format = tickLabel } = {}) {
  const h = Math.max(1, Math.round(rect.h * ratio));
  const w = Math.max(1, Math.round(rect.w * ratio));
  const image = ctx.createImageData(w, h);
  const pixels = new Uint32Array(image.data.buffer);
  for (let py = 0; py < h; py++) {
    const v = hi - ((py + 0.5) / h) * (hi - lo);
    pixels.fill(lut[lutIndex(v, lo, hi)], py * w, (py + 1) * w);
  }
  ctx.putImageData(image, Math.round(rect.x * ratio), Math.round(rect.y * ratio));
  ctx.strokeStyle = colors.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(rect.x - 0.5, rect.y - 0.5, rect.w + 1, rect.h + 1);
  ctx.fillStyle = colors.fg;
  ctx.font = colors.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const ticks = [hi, (hi + lo) / 2, lo];
  ticks.forEach((v, n) => {
    const y = rect.y + (n / 2) * rect.h;
    ctx.fillRect(rect.x + rect.w, Math.round(y) - 0.5, 4, 1);
    ctx.fillText((v > 0 ? '+' : '') + format(v), rect.x + rect.w + 6, y);
  });
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText(title, rect.x + rect.w / 2, rect.y - 6);
}

/** Title text at the top left of a figure canvas. */
export function drawTitle(ctx, text, x, y, colors) {
  ctx.fillStyle = colors.fg;
  ctx.font = `600 ${colors.font}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(text, x, y);
}
