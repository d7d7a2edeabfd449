// ALiBi's per-head slopes, computed by the core (pe_alibi_slopes). Two
// families need them: alibi (alibiSlopes) and config (an ALiBi config's
// description carries its slopes), so they live in the runtime.
import { checkHeads } from './validate.js';
import { FLOAT } from './memory.js';

/** The `heads` slopes (heads: 1 … MAX_HEADS, else BAD_HEADS) as a new Float32Array, through `runtime`'s staging. */
export function alibiSlopes(runtime, heads) {
  checkHeads(heads);
  const staging = runtime.staging(heads * FLOAT);
  runtime.check(runtime.wasm.pe_wasm_alibi_slopes(heads, staging.at, heads));
  return runtime.floats(staging.at, heads).slice();
}
