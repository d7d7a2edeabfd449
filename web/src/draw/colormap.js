// The diverging colour table (d3's RdBu) and the line colours of the views' plots.
import { interpolateRdBu } from 'd3-scale-chromatic';
import { buildLut } from './lut.js';

export { LUT_SIZE, lutIndex, parseRgb } from './lut.js';

// Diverging, centred on 0: −1 is dark blue, 0 near white, +1 dark red.
// RdBu runs red→blue, so it is read backwards to put +1 at the warm end.
export const divergingColor = (t) => interpolateRdBu(1 - t);
export const DIVERGING_LUT = buildLut(divergingColor);

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
