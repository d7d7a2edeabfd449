// Chart curves whose path is many plot widths long (a fast sine at a few positions a turn) are stroked one device
// pixel wide (web/src/draw/stroke-width.js): Chromium's software rasteriser replays a wider stroke of such a zigzag
// at the compositor commit for 3–12 ms a frame. Checked in Node against path lengths measured here on the drawn
// geometry: a curve is thinned exactly when it is longer than HAIRLINE_LENGTH plot widths, others keep their
// width, hidden series, gaps and spans charts are left alone, and the thin width is one device pixel at any ratio.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HAIRLINE_LENGTH, strokeWidths } from '../web/src/draw/stroke-width.js';

const positions = (n) => Float64Array.from({ length: n }, (_, p) => p);
const sine = (n, wavelength, phase = 0) =>
  Float64Array.from({ length: n }, (_, p) => Math.sin((2 * Math.PI * p) / wavelength + phase));

// The default squiggles at d = 128, length 256: pair 0 (wavelength 2π) and pair 30's slow waves, 1118 px wide.
const squiggles = (extra = {}) => ({
  x: positions(256),
  yRange: [-1.08, 1.08],
  height: 300,
  series: [
    { values: sine(256, 2 * Math.PI) },
    { values: sine(256, 2 * Math.PI, Math.PI / 2), dash: [6, 4] },
    { values: sine(256, 500) },
    { values: sine(256, 500, Math.PI / 2), dash: [6, 4], width: 2 },
  ],
  ...extra,
});

test('the fast pair is drawn one device pixel wide, the slow one keeps its width', () => {
  assert.equal(strokeWidths(squiggles(), 1118, 1), [1, 1, 1.5, 2]);
  assert.equal(strokeWidths(squiggles(), 1118, 2), [0.5, 0.5, 1.5, 2], 'one device pixel at ratio 2');
  assert.equal(strokeWidths(squiggles(), 390, 3), [1 / 3, 1 / 3, 1.5, 2], 'and on a phone');
});

test('thinned exactly when the path is longer than HAIRLINE_LENGTH plot widths (lengths measured here)', () => {
  // Sines of every wavelength from 3 to 400 positions over 256, on an axis of ±1: the length summed segment by
  // segment in pixels of the plot (estimated as uPlot lays it out: 70 px across and 80 down for the axes).
  const width = 900;
  const height = 260;
  const plotW = width - 70;
  const plotH = height - 80;
  let thin = 0;
  let kept = 0;
  for (let wavelength = 3; wavelength <= 400; wavelength *= 1.07) {
    const values = sine(256, wavelength);
    let length = 0;
    for (let k = 1; k < 256; k++) length += Math.hypot(plotW / 255, ((values[k] - values[k - 1]) / 2) * plotH);
    const [got] = strokeWidths({ x: positions(256), yRange: [-1, 1], height, series: [{ values }] }, width, 1);
    const want = length > HAIRLINE_LENGTH * plotW ? 1 : 1.5;
    assert.is(got, want, `wavelength ${wavelength.toFixed(2)}: length ${(length / plotW).toFixed(2)} plot widths`);
    if (want === 1) thin += 1;
    else kept += 1;
  }
  assert.ok(thin > 3 && kept > 3, `both sides of the bound were tried (${thin} thinned, ${kept} kept)`);
});

test('the y range comes from the shown curves when the chart has none', () => {
  // A fast wave of amplitude 0.01 beside a hidden one of amplitude 100: the axis spans the shown wave alone, so
  // it crosses the plot every step and is thinned; measured against ±100 it would be flat and kept.
  const small = Float64Array.from(sine(256, 3), (v) => v * 0.01);
  const big = Float64Array.from(sine(256, 3), (v) => v * 100);
  const spec = { x: positions(256), height: 300, series: [{ values: small }, { values: big, hidden: true }] };
  assert.equal(strokeWidths(spec, 1118, 1), [1, 1.5]);
});

test('left alone: spans charts, hidden series, and lines broken by gaps into short pieces', () => {
  assert.equal(strokeWidths(squiggles({ spans: true }), 1118, 1), [1.5, 1.5, 1.5, 2], 'spans paint their own pixels');
  const hidden = squiggles();
  hidden.series[0].hidden = true;
  assert.is(strokeWidths(hidden, 1118, 1)[0], 1.5, 'a hidden series');
  // Every other value missing: no segment is drawn, so no length.
  const gappy = Array.from(sine(256, 3), (v, p) => (p % 2 ? null : v));
  assert.equal(strokeWidths({ x: positions(256), yRange: [-1, 1], series: [{ values: gappy }] }, 1118, 1), [1.5]);
});

test.run();
