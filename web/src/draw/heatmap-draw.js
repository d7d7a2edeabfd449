// Drawing heatmaps on a canvas: one ImageData per frame, filled through a colour
// lookup table at device resolution, plus axes and a colour bar in CSS pixels.
import { scaleLinear } from 'd3-scale';
import { LUT_SIZE, lutIndex } from './colormap.js';
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

/**
 * Axes around a plot rect: x ticks below over [x0, x1), y ticks left over [y0, y1)
 * growing downwards (row 0 at the top). Ticks sit at cell centres.
 */
export function drawAxes(ctx, rect, colors, { xDomain, yDomain, xLabel, yLabel, xTicks = 8, yTicks = 6 }) {
  ctx.strokeStyle = colors.muted;
  ctx.fillStyle = colors.fg;
  ctx.lineWidth = 1;
  ctx.font = colors.font;
  ctx.strokeRect(rect.x - 0.5, rect.y - 0.5, rect.w + 1, rect.h + 1);

  const [x0, x1] = xDomain;
  const xs = scaleLinear()
    .domain([x0, x1])
    .range([rect.x, rect.x + rect.w]);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const xLabels = [];
  for (const t of integerTicks(x0, x1, xTicks)) {
    const px = xs(t + 0.5);
    ctx.fillRect(Math.round(px) - 0.5, rect.y + rect.h, 1, 4);
    ctx.fillText(tickLabel(t), px, rect.y + rect.h + 6);
    xLabels.push(tickLabel(t));
  }
  // The tick labels as text, for tests and for the figure's text alternative.
  ctx.canvas.dataset.xTicks = xLabels.join(' | ');
  const [y0, y1] = yDomain;
  const ys = scaleLinear()
    .domain([y0, y1])
    .range([rect.y, rect.y + rect.h]);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of integerTicks(y0, y1, yTicks)) {
    const py = ys(t + 0.5);
    ctx.fillRect(rect.x - 4, Math.round(py) - 0.5, 4, 1);
    ctx.fillText(tickLabel(t), rect.x - 6, py);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText(xLabel, rect.x + rect.w / 2, rect.y + rect.h + 36);
  ctx.save();
  ctx.translate(rect.x - 44, rect.y + rect.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'bottom';
  ctx.fillText(yLabel, 0, 0);
  ctx.restore();
}

/** Nice integer ticks inside [lo, hi) (cells lo … hi − 1). */
export function integerTicks(lo, hi, count) {
  return scaleLinear()
    .domain([lo, hi - 1])
    .ticks(count)
    .filter((t) => Number.isInteger(t) && t >= lo && t < hi);
}

/** Title text at the top left of a figure canvas. */
export function drawTitle(ctx, text, x, y, colors) {
  ctx.fillStyle = colors.fg;
  ctx.font = `600 ${colors.font}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(text, x, y);
}
