// Downloads: each figure as PNG, and the current table as CSV or NPY in the
// same formats as the posenc CLI (`posenc table --format csv|npy`).
import { themeColors } from '../draw/canvas.js';
import { sinusoidal } from '../../../src/js/index.js';
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
  if (parts.length === 0 || parts.some((p) => !p)) throw new Error('the figure has not been drawn yet');
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
  const png = await toPng(out);
  if (!png) throw new Error('the browser could not encode the figure as PNG');
  download(png, name);
}

/** Work done between two yields to input while an export formats a big table (under a frame). */
const STEP_MS = 8;
const yieldToInput = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The rows of the table of `shape` ({ length, dim, base, offset, layout }), computed by the package rowsPerCall at
 * a time, each handed to part(rows, from, count), which returns the Blob part it makes of them; between steps of
 * about STEP_MS the export yields to input, so a 8192 x 2048 table never freezes the page. Each call asks for its
 * own rows (copied out), so no view into wasm memory is kept across a yield. onProgress(rowsDone) after each step.
 */
async function tableParts({ length, dim, base, offset, layout }, rowsPerCall, part, onProgress) {
  const parts = [];
  let r = 0;
  while (r < length) {
    const start = performance.now();
    while (r < length && performance.now() - start < STEP_MS) {
      const count = Math.min(rowsPerCall, length - r);
      const rows = sinusoidal({ length: count, dim, base, offset: offset + r, layout });
      // A Blob per call: its bytes are made now, in this step, not all at once when the parts are joined.
      parts.push(new Blob([part(rows, r, count)]));
      r += count;
    }
    // Joined as they come (a Blob of Blobs copies no bytes), so the last join has few parts.
    if (parts.length > 256) parts.splice(0, parts.length, new Blob(parts));
    onProgress(r);
    if (r < length) await yieldToInput();
  }
  return parts;
}

/** The table as CSV, byte for byte what `posenc table --format csv` prints, made in steps (tableParts). */
export async function tableCsv(shape, onProgress = () => {}) {
  const { length, dim, offset } = shape;
  const rowsPerCall = Math.max(1, Math.floor(4096 / dim));
  const rows = await tableParts(
    shape,
    rowsPerCall,
    (values, r, count) => formatRows('csv', values, count, dim, r, offset + r),
    onProgress,
  );
  performance.mark('posenc-csv-formatted');
  const blob = new Blob([prologue('csv', length, dim), ...rows], { type: 'text/csv' });
  performance.mark('posenc-csv-joined');
  return blob;
}

/**
 * The table as NPY v1.0 (float32, shape (length, dim)), as `--format npy` writes it, made in steps (tableParts):
 * at 8192 x 2048 one call computed and copied its 64 MiB in one task of hundreds of ms.
 */
export async function tableNpy(shape, onProgress = () => {}) {
  const rowsPerCall = Math.max(1, Math.floor(16384 / shape.dim));
  // float32Bytes copies, so no part holds a view into wasm memory.
  const rows = await tableParts(shape, rowsPerCall, (values) => float32Bytes(values), onProgress);
  performance.mark('posenc-npy-formatted');
  return new Blob([npyHeader(shape.length, shape.dim), ...rows], { type: 'application/octet-stream' });
}
