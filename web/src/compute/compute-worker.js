// The worker behind the page's heavy pure computations, each up to 0.15-0.8 s
// that was one long main-thread task or a garbage collection there: identify()
// (reading the pasted or dropped table first, or making the example's
// 8192 × 1024 recipe table) and the precision view's errors. Its own posenc
// wasm instance; started on the first request (compute-client.js), so the
// page's first view never loads it.
// Message: { id, kind, args }; answer: { id, result, ms } (ms: the task's time here), or
// { id, error: { code, message } }, code null for anything but a PosencError.
import { instantiate, PosencError, readTable } from '../../../src/js/index.js';
import { parseRows } from './parse-rows.js';
import { precisionErrors } from './precision-errors.js';

const ready = instantiate();

/** A dropped file's table: CSV or text unless it starts as a .npy (0x93) or a .safetensors header ('{' at 8). */
function readFile(bytes, name) {
  const text = bytes.length > 0 && bytes[0] !== 0x93 && bytes[8] !== 0x7b;
  return text ? parseRows(new TextDecoder().decode(bytes)) : readTable(bytes, name ? { name } : undefined);
}

// kind → (pe, args) → [result, transfer list]
const tasks = {
  // args: { kind } and one of { text } (pasted), { bytes, name } (a file: name picks a safetensors tensor),
  // { example: { recipe, rows, dim } }. Result: { identification, rows, dim, ms } (ms: identify's own time).
  identify: (pe, { kind, text, bytes, name, example }) => {
    const { table, rows, dim } = example
      ? { ...example, table: pe.recipeTable({ recipe: example.recipe, length: example.rows, dim: example.dim }) }
      : bytes
        ? readFile(bytes, name)
        : parseRows(text);
    const t0 = performance.now();
    const identification = pe.identify(table, { rows, dim, kind });
    return [{ identification, rows, dim, ms: performance.now() - t0 }, []];
  },
  precision: (pe, { d, base }) => {
    const result = precisionErrors(pe, d, base);
    return [result, Object.values(result.errors).map((e) => e.buffer)];
  },
};

self.onmessage = async ({ data: { id, kind, args } }) => {
  const pe = await ready;
  try {
    const t0 = performance.now();
    const [result, transfer] = tasks[kind](pe, args);
    self.postMessage({ id, result, ms: performance.now() - t0 }, transfer);
  } catch (error) {
    const code = error instanceof PosencError ? error.code : null;
    self.postMessage({ id, error: { code, message: String(error?.message ?? error) } });
  }
};
