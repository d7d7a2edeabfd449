// Downloads: each figure as PNG, and the current table as CSV or NPY in the
// same formats as the posenc CLI (`posenc table --format csv|npy`).
import { themeColors } from '../draw/canvas.js';
import { formatRows, prologue, npyHeader, float32Bytes } from '../../../src/js/shared/format.js';

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

/** The table as CSV, byte for byte what `posenc table --format csv` prints. */
export function tableCsv(table, length, dim, offset) {
  const rows = [];
  for (let r = 0; r < length; r += 256) {
    const count = Math.min(256, length - r);
    rows.push(formatRows('csv', table.subarray(r * dim, (r + count) * dim), count, dim, r, offset + r));
  }
  return new Blob([prologue('csv', length, dim), ...rows], { type: 'text/csv' });
}

/** The table as NPY v1.0 (float32, shape (length, dim)), as `--format npy` writes it. */
export function tableNpy(table, length, dim) {
  // float32Bytes copies, so the blob does not hold a view into wasm memory.
  return new Blob([npyHeader(length, dim), float32Bytes(table.subarray(0, length * dim))], {
    type: 'application/octet-stream',
  });
}
