// The squiggles' dense lines as column spans (web/src/draw/column-spans.js),
// in Node: the y range each pixel column covers against a polyline sampled
// finely inside every column (seeded random polylines, the seed printed), gaps
// and clamping; a painted span's coverage against its length, dashes; bands
// mixed where they overlap against premultiplied source-over.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bandRanges, columnRanges, hexRgba, paintBands, paintColumns } from '../web/src/draw/column-spans.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
console.log(`  page-spans seed ${seed} (POSENC_SEED=${seed} replays it)`);
const random = generator(seed);

/**
 * The oracle: the polyline evaluated at many points inside each column, its min and max there; samples are close
 * enough that the line moves under 1/8 pixel between two (so the oracle falls short of an extreme by less).
 */
function sampledRanges(xs, ys, left, width, top, bottom) {
  const lo = new Float64Array(width).fill(Infinity);
  const hi = new Float64Array(width).fill(-Infinity);
  for (let k = 0; k + 1 < xs.length; k++) {
    if (!Number.isFinite(ys[k]) || !Number.isFinite(ys[k + 1])) continue;
    const steps = Math.max(1, Math.ceil((xs[k + 1] - xs[k]) * 64 + Math.abs(ys[k + 1] - ys[k]) * 8));
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      const x = xs[k] + t * (xs[k + 1] - xs[k]);
      const y = Math.max(top, Math.min(bottom, (1 - t) * ys[k] + t * ys[k + 1]));
      // A sample on a column edge belongs to both columns it touches.
      for (const c of new Set([Math.floor(x) - left, Math.ceil(x) - 1 - left])) {
        if (c < 0 || c >= width) continue;
        lo[c] = Math.min(lo[c], y);
        hi[c] = Math.max(hi[c], y);
      }
    }
  }
  return { lo, hi };
}

test('each column covers the y range of the polyline inside it (random polylines)', () => {
  for (let round = 0; round < 40; round++) {
    const left = random.int(0, 60);
    const width = random.int(1, 300);
    const n = random.int(2, 4 * width);
    const gap = random.next() * 4 + 0.05; // mean x step, pixels: from many points per column to few
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    let x = left - 5 + random.next() * 10;
    for (let k = 0; k < n; k++) {
      xs[k] = x;
      ys[k] = 20 + 200 * random.next();
      x += gap * random.next() * 2;
    }
    const [top, bottom] = [30, 190]; // clamps some of the 20 … 220 range
    const got = columnRanges(xs, ys, left, width, top, bottom);
    const want = sampledRanges(xs, ys, left, width, top, bottom);
    for (let c = 0; c < width; c++) {
      const where = `round ${round}, column ${c} (left ${left}, width ${width}, ${n} points)`;
      if (want.lo[c] > want.hi[c]) {
        assert.ok(got.lo[c] > got.hi[c], `${where}: nothing there, yet ${got.lo[c]} … ${got.hi[c]}`);
        continue;
      }
      // The oracle samples, so it can only fall short of an extreme, by under 1/8 pixel.
      assert.ok(Math.abs(got.lo[c] - want.lo[c]) < 0.13, `${where}: lo ${got.lo[c]} against ${want.lo[c]}`);
      assert.ok(Math.abs(got.hi[c] - want.hi[c]) < 0.13, `${where}: hi ${got.hi[c]} against ${want.hi[c]}`);
      assert.ok(got.lo[c] <= want.lo[c] + 1e-3 && got.hi[c] >= want.hi[c] - 1e-3, `${where}: misses the line`);
      assert.ok(got.lo[c] >= top && got.hi[c] <= bottom, `${where}: outside the plot`);
    }
  }
});

test('a gap (NaN) breaks the line: nothing is drawn between its neighbours', () => {
  const xs = Float64Array.from([0.5, 3.5, 6.5, 9.5, 12.5, 15.5]);
  const ys = Float64Array.from([10, 10, NaN, 50, NaN, 30]);
  const { lo, hi } = columnRanges(xs, ys, 0, 16, 0, 100);
  for (const c of [0, 1, 2, 3]) assert.equal([lo[c], hi[c]], [10, 10], `column ${c}`);
  for (const c of [4, 5, 6, 7, 8, 10, 11, 12, 13, 14]) assert.ok(lo[c] > hi[c], `column ${c} lies in a gap`);
  assert.equal([lo[9], hi[9]], [50, 50], 'the lone point between gaps');
  assert.equal([lo[15], hi[15]], [30, 30], 'the lone last point');
});

test('a painted span covers its length (ends shaded by their share), and dashes leave columns out', () => {
  const width = 20;
  const height = 40;
  const lo = new Float32Array(width).fill(10.3);
  const hi = new Float32Array(width).fill(17.6);
  const pixels = new Uint32Array(width * height);
  paintColumns(pixels, width, height, { lo, hi }, 100, 2, [10, 20, 30, 255], 0.75, [6, 4]);
  for (let c = 0; c < width; c++) {
    let cover = 0;
    for (let y = 0; y < height; y++) cover += (pixels[y * width + c] >>> 24) / 255;
    const on = c % 10 < 6;
    // The span is 17.6 − 10.3 + 2 × 0.75 = 8.8 pixels long; each shaded end rounds its alpha to 1/255.
    assert.ok(on ? Math.abs(cover - 8.8) < 0.01 : cover === 0, `column ${c}: coverage ${cover}`);
  }
  const [r, g, b] = new Uint8Array(pixels.buffer, (12 * width + 0) * 4, 3);
  assert.equal([r, g, b], [10, 20, 30], 'the colour, as RGBA bytes');
});

test('overlapping bands mix as translucent fills drawn in order; bandRanges spans both edges', () => {
  const upper = { lo: Float32Array.from([5, 5]), hi: Float32Array.from([8, 8]) };
  const lower = { lo: Float32Array.from([12, 6]), hi: Float32Array.from([15, 7]) };
  const band = bandRanges(upper, lower);
  assert.equal([...band.lo], [5, 5]);
  assert.equal([...band.hi], [15, 8]);
  const width = 2;
  const height = 20;
  const colours = [hexRgba('#4e79a733'), hexRgba('#e1575980')];
  assert.equal(colours[0], [0x4e, 0x79, 0xa7, 0x33]);
  const second = { lo: Float32Array.from([10, 10]), hi: Float32Array.from([19, 19]) };
  const pixels = new Uint32Array(width * height);
  paintBands(
    pixels,
    width,
    height,
    [
      { ranges: band, rgba: colours[0] },
      { ranges: second, rgba: colours[1] },
    ],
    0,
    0,
  );
  // Premultiplied source-over, the second band over the first.
  const over = (dst, [r, g, b, a]) => {
    const s = a / 255;
    return [r * s + dst[0] * (1 - s), g * s + dst[1] * (1 - s), b * s + dst[2] * (1 - s), s + dst[3] * (1 - s)];
  };
  const unpremultiply = ([r, g, b, a]) => [r / a, g / a, b / a, a * 255].map(Math.round);
  const bytes = (i) => [...new Uint8Array(pixels.buffer, i * 4, 4)];
  assert.equal(bytes(12 * width), unpremultiply(over(over([0, 0, 0, 0], colours[0]), colours[1])), 'both bands');
  assert.equal(bytes(6 * width), unpremultiply(over([0, 0, 0, 0], colours[0])), 'the first band alone');
  assert.equal(bytes(12 * width + 1), unpremultiply(over([0, 0, 0, 0], colours[1])), 'the second band alone');
  assert.equal(bytes(2 * width), [0, 0, 0, 0], 'neither');
});

test.run();
