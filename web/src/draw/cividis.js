// Cividis from dark blue (low) to yellow (high), the first view's colour table (and ALiBi's bias, 0 brightest):
// d3-scale-chromatic's colours, read at every entry when the site is built (web/vite.config.js bakes
// 'virtual:cividis-lut'), so the first view loads them without d3's schemes. The same table buildLut makes.
import CIVIDIS_HEX from 'virtual:cividis-lut';
import { LUT_SIZE } from './lut.js';

/** LUT_SIZE packed RGBA entries from LUT_SIZE "rrggbb" groups. */
function lutFromHex(hex) {
  const lut = new Uint32Array(LUT_SIZE);
  const bytes = new Uint8Array(lut.buffer);
  for (let i = 0; i < LUT_SIZE; i++) {
    for (let c = 0; c < 3; c++) bytes[i * 4 + c] = parseInt(hex.slice(i * 6 + c * 2, i * 6 + c * 2 + 2), 16);
    bytes[i * 4 + 3] = 255;
  }
  return lut;
}

export const CIVIDIS_LUT = lutFromHex(CIVIDIS_HEX);
