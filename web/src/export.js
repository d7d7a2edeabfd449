// Downloads: each figure as PNG, and the current table as CSV or NPY in the
// same formats as the posenc CLI (`posenc table --format csv|npy`).
import { themeColors } from './canvas.js';

/** Offers a Blob as a download with the given file name. */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const toPng = (canvas) => new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));

/**
 * Several parts side by side in one PNG on the theme's background. A part is a
 * figure canvas (drawn as it is) or a uPlot, whose title lives in the DOM and
 * whose canvas is transparent, so its title is drawn above it here.
 */
export async function downloadFigure(parts, name) {
  const colors = themeColors();
  const ratio = Math.max(1, window.devicePixelRatio || 1);
  const titleH = Math.round(26 * ratio);
  const gap = Math.round(16 * ratio);
  const pieces = parts.map((part) =>
    part instanceof HTMLCanvasElement
      ? { canvas: part, title: null }
      : { canvas: part.ctx.canvas, title: part.root.querySelector('.u-title')?.textContent ?? '' },
  );
  const heightOf = (p) => p.canvas.height + (p.title === null ? 0 : titleH);
  const width = pieces.reduce((w, p) => w + p.canvas.width, 0) + gap * (pieces.length - 1);
  const height = Math.max(...pieces.map(heightOf));
  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const ctx = out.getContext('2d');
  ctx.fillStyle = colors.bg;
  ctx.fillRect(0, 0, width, height);
  let x = 0;
  for (const piece of pieces) {
    let y = 0;
    if (piece.title !== null) {
      ctx.fillStyle = colors.fg;
      ctx.font = `600 ${Math.round(13 * ratio)}px system-ui, sans-serif`;
      ctx.textBaseline = 'top';
      ctx.fillText(piece.title, x + 8 * ratio, 6 * ratio);
      y = titleH;
    }
    ctx.drawImage(piece.canvas, x, y);
    x += piece.canvas.width + gap;
  }
  download(await toPng(out), name);
}

/**
 * v with k decimals, as the posenc CLI prints it: v·10^k in double (exact for a
 * float32 |v| ≤ 1 and k ≤ 9), rounded half to even; '-' whenever the sign bit
 * is set, so -0 prints as -0.000….
 */
export function formatDecimal(v, k) {
  const scaled = Math.abs(v) * 10 ** k;
  let n = Math.floor(scaled);
  const rest = scaled - n;
  if (rest > 0.5 || (rest === 0.5 && n % 2 === 1)) n += 1;
  const unit = 10 ** k;
  const negative = v < 0 || Object.is(v, -0);
  return `${negative ? '-' : ''}${Math.floor(n / unit)}.${String(n % unit).padStart(k, '0')}`;
}

/** The table as CSV: header `position,d0,d1,…`, then `p,v0,v1,…` per row, 9 decimals. */
export function tableCsv(table, length, dim, offset) {
  const header = ['position'];
  for (let j = 0; j < dim; j++) header.push(`d${j}`);
  const parts = [`${header.join(',')}\n`];
  const row = new Array(dim + 1);
  for (let r = 0; r < length; r++) {
    row[0] = offset + r;
    for (let j = 0; j < dim; j++) row[j + 1] = formatDecimal(table[r * dim + j], 9);
    parts.push(`${row.join(',')}\n`);
  }
  return new Blob(parts, { type: 'text/csv' });
}

/** The table as NPY v1.0: float32 little-endian, shape (length, dim), header padded to 64 bytes. */
export function tableNpy(table, length, dim) {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${length}, ${dim}), }`;
  const unpadded = 10 + dict.length + 1;
  const padding = (64 - (unpadded % 64)) % 64;
  const headerText = `${dict}${' '.repeat(padding)}\n`;
  const head = new Uint8Array(10 + headerText.length);
  head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]); // \x93NUMPY, version 1.0
  new DataView(head.buffer).setUint16(8, headerText.length, true);
  for (let n = 0; n < headerText.length; n++) head[10 + n] = headerText.charCodeAt(n);
  // Copy the values out of wasm memory; typed arrays are little-endian on every browser platform.
  const body = new Float32Array(table.subarray(0, length * dim));
  return new Blob([head, body.buffer], { type: 'application/octet-stream' });
}
