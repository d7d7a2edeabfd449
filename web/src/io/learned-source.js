// The learned table shown in the comparison view: a .npy or .safetensors file
// the user drops or picks (read in the browser by the package's readTable,
// never uploaded), or, until one is loaded, the position table of a small
// transformer trained by web/models/train-toy-transformer.js, shipped beside
// the page and fetched when the page starts. While it loads (or if it cannot
// be), a generated example stands in, plainly labelled as not trained. Every
// failure becomes a sentence for the page; nothing here throws.
import { readTable, sinusoidal } from '../../../src/js/index.js';
import { toyEmbedding } from '../compute/toy-embedding.js';

// The whole file is read into memory; position tables are far smaller
// (GPT-2's wpe is 1024 × 768 float32 = 3 MiB, BERT's 512 × 768).
export const MAX_FILE_BYTES = 256 * 2 ** 20;

const EXAMPLE = { rows: 512, dim: 128, base: 10000, sigma: 0.35 };
export const EXAMPLE_LABEL =
  `generated example, not a trained table: sinusoidal ${EXAMPLE.rows} × ${EXAMPLE.dim} ` +
  `+ Gaussian noise σ = ${EXAMPLE.sigma}`;

let example = null;

/** The generated stand-in: a sinusoidal table plus seeded Gaussian noise. */
export function exampleTable() {
  if (!example) {
    const { rows, dim, base, sigma } = EXAMPLE;
    const table = sinusoidal({ length: rows, dim, base });
    // toyEmbedding rows are normal with variance 1/dim: × σ√dim gives variance σ².
    const scale = sigma * Math.sqrt(dim);
    for (let r = 0; r < rows; r++) {
      const noise = toyEmbedding(`learned example row ${r}`, dim);
      for (let j = 0; j < dim; j++) table[r * dim + j] += scale * noise[j];
    }
    example = {
      table,
      rows,
      dim,
      label: EXAMPLE_LABEL,
      short: 'example (generated)',
      generated: true,
    };
  }
  return example;
}

export const TRAINED_LABEL =
  'a real learned table: the position embeddings (128 × 16) of a one-layer transformer trained to repeat the ' +
  'token 3 positions back, by web/models/train-toy-transformer.js from seed 1';

/** The shipped trained table: { ok, table, rows, dim, label, short } or { ok: false, message }. */
export async function trainedTable() {
  try {
    const response = await fetch(new URL('../../models/toy-transformer-wpe.npy', import.meta.url));
    if (!response.ok)
      return { ok: false, message: `The trained table could not be fetched (HTTP ${response.status}).` };
    const result = tableFromBytes(new Uint8Array(await response.arrayBuffer()), 'toy-transformer-wpe.npy');
    return result.ok ? { ...result, label: TRAINED_LABEL, short: 'trained toy transformer' } : result;
  } catch (error) {
    return { ok: false, message: `The trained table could not be fetched (${error.message}).` };
  }
}

const megabytes = (bytes) => `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MB`;

/**
 * Reads a File into a table. Resolves to { ok: true, table, rows, dim, label,
 * short, bytes } or { ok: false, message }. bytes is kept so a different tensor
 * name can be read again without asking for the file.
 */
export async function loadTableFile(file, tensorName) {
  if (!file) return { ok: false, message: 'No file was given.' };
  if (file.size > MAX_FILE_BYTES) {
    return {
      ok: false,
      message:
        `“${file.name}” is ${megabytes(file.size)}; this page reads files up to ${megabytes(MAX_FILE_BYTES)}. ` +
        'Save only the position-embedding tensor (e.g. numpy.save on model.wpe.weight) and load that.',
    };
  }
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (error) {
    return { ok: false, message: `“${file.name}” could not be read by the browser (${error.message}).` };
  }
  return tableFromBytes(bytes, file.name, tensorName);
}

/** Parses bytes already in memory (a file read before) with the package's readTable. */
export function tableFromBytes(bytes, fileName, tensorName) {
  const name = String(tensorName ?? '').trim();
  let result;
  try {
    result = readTable(bytes, name ? { name } : undefined);
  } catch (error) {
    const reason = String(error?.message ?? error).replace(/\.$/, '');
    const hint = error?.code === 'BAD_NAME' && !name ? ' Type the tensor’s name in the tensor field.' : '';
    return { ok: false, message: `“${fileName}” could not be read as a position table: ${reason}.${hint}`, bytes };
  }
  const { table, rows, dim, dtype } = result;
  if (rows < 2) {
    return {
      ok: false,
      message: `“${fileName}” holds ${rows} row${rows === 1 ? '' : 's'}; a position table needs at least 2 to compare.`,
      bytes,
    };
  }
  let bad = 0;
  for (let n = 0; n < table.length; n++) if (!Number.isFinite(table[n])) bad++;
  if (bad > 0) {
    return {
      ok: false,
      message: `“${fileName}” holds ${bad} value${bad === 1 ? '' : 's'} that are NaN or infinite; cosine similarities would be meaningless.`,
      bytes,
    };
  }
  const tensor = result.name ? ` tensor “${result.name}”` : '';
  return {
    ok: true,
    table,
    rows,
    dim,
    bytes,
    label: `“${fileName}”${tensor}: ${rows} × ${dim}, ${dtype}`,
    short: result.name ?? fileName,
    generated: false,
  };
}
