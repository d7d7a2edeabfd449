// Where posenc's time goes, for the lead tuning the core (SIMD build). The
// core works in blocks of 64 positions, each starting from exact sin/cos
// seeds; a JS-array `out` travels through a staging region in chunks.
//   seeds per block  sinusoidalAt() of many block-start positions in one call,
//                    per position: one block's seeds (and one row)
//   per call         a one-row table call minus that: checks, JS ↔ wasm and
//                    the per-call preparation a table pays once
//   seeds share      blocks × seeds per block / the resident table's time
//   copy to JS       one TypedArray.set of the whole table out of wasm memory:
//                    what "into a JS array" cannot avoid
//   JS-array extra   into-JS time − resident time − that copy: the chunking's cost
import { measureAlone } from '../measure.js';

const BLOCK_ROWS = 64;
const BUDGET_MS = 600;
const SEED_PROBES = 256;

export async function breakdown(sizes) {
  const { instantiate } = await import('../../src/js/index.js');
  const pe = await instantiate({ simd: true });
  return sizes.map(({ length, dim }) => {
    const median = (run) => measureAlone(run, BUDGET_MS).median_ms;
    const one = pe.alloc(dim);
    // Each one-row call starts a different block, as the blocks of a table do.
    let block = 0;
    const oneRowMs = median(() => pe.sinusoidal({ length: 1, dim, offset: BLOCK_ROWS * (block++ % 1024), out: one }));
    one.free();
    const starts = Uint32Array.from({ length: SEED_PROBES }, (_, k) => BLOCK_ROWS * k);
    const rows = pe.alloc(SEED_PROBES * dim);
    const seedsMs = median(() => pe.sinusoidalAt(starts, { dim, out: rows })) / SEED_PROBES;
    rows.free();
    const table = pe.alloc(length * dim);
    const residentMs = median(() => pe.sinusoidal({ length, dim, out: table }));
    const js = new Float32Array(length * dim);
    const intoJsMs = median(() => pe.sinusoidal({ length, dim, out: js }));
    const copyMs = median(() => js.set(table.array));
    table.free();
    const blocks = Math.ceil(length / BLOCK_ROWS);
    return {
      size: `${length}×${dim}`,
      resident_ms: residentMs,
      per_call_us: (oneRowMs - seedsMs) * 1e3,
      seeds_per_block_us: seedsMs * 1e3,
      blocks,
      seeds_share: (blocks * seedsMs) / residentMs,
      into_js_ms: intoJsMs,
      copy_to_js_ms: copyMs,
      js_extra_ms: intoJsMs - residentMs - copyMs,
    };
  });
}
